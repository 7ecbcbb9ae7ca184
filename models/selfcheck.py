"""Set-up self-check: load the bundled chat model in a child process and generate one real token.

A llama.cpp build that uses instructions this CPU cannot run dies with SIGILL, which no Python
code can catch; running the check in a child turns that into one sentence for the set-up script.

  python -m models.selfcheck          exit 0 when one token came out, else one line on stderr
"""
from __future__ import annotations

import signal
import subprocess
import sys
import time

_CHILD_FLAG = "--child"
_TIMEOUT_S = 300


def _generate_one_token() -> None:
    """In the child: load the bundled GGUF and sample one token."""
    from models.chat import ChatModel
    from models.resolve import resolve_chat_model

    resolved = resolve_chat_model(None)
    with ChatModel(resolved.path, n_ctx=256) as model:
        pieces = list(model.stream([{"role": "user", "content": "Hi"}], max_tokens=2, temperature=0.0))
    if not pieces:
        raise SystemExit("the bundled chat model produced no token")


def explain(returncode: int, stderr: str) -> str:
    """One sentence for a failed child: what went wrong, in words a user can act on."""
    if returncode == -signal.SIGILL:
        return ("llama-cpp-python was built with CPU instructions this processor cannot run "
                "(illegal instruction); remove ~/.cache/companion-wheels and .venv and run set-up again")
    if returncode < 0:
        return f"the llama.cpp self-check was killed by signal {signal.Signals(-returncode).name}"
    last = (stderr.strip().splitlines() or ["no output"])[-1]
    return f"the llama.cpp self-check failed: {last}"


def run_check(timeout_s: float = _TIMEOUT_S) -> tuple[bool, str]:
    """Run the one-token check in a child process; (ok, message)."""
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "models.selfcheck", _CHILD_FLAG],
                              capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return False, f"the llama.cpp self-check did not produce a token within {timeout_s:.0f} s"
    if proc.returncode != 0:
        return False, explain(proc.returncode, proc.stderr)
    return True, f"llama.cpp self-check: one token in {time.monotonic() - started:.1f} s"


def main(argv: list[str]) -> int:
    """Entry point for `python -m models.selfcheck`."""
    if _CHILD_FLAG in argv:
        _generate_one_token()
        return 0
    ok, message = run_check()
    print(f"setup: {message}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
