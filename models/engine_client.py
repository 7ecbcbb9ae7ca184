"""The app's side of the engine process: the chat model as a child process over a pipe (`models/engine.py`).

`ChatEngine` offers what `ChatModel` offers (stream, complete_json, count_tokens, n_ctx, last_prompt) without
loading llama.cpp into this process. A crash, a kill or a hang of the engine becomes an `EngineError` (one
sentence) and the next request starts a new engine; a model the engine cannot load is a `ModelError`.
"""
from __future__ import annotations

import collections
import json
import logging
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any, Callable, Generator, Sequence

from models.chat import REPEAT_PENALTY, PromptEval
from models.errors import EngineError, ModelError
from models.prompt_cache import PromptCache

log = logging.getLogger(__name__)
_PACKAGE_ROOT = Path(__file__).resolve().parents[1]
_POLL_S = 0.02  # how often a waiting stream looks at should_stop
_CACHE = 4096  # token counts remembered (history, memory lines and prompts repeat from turn to turn)
_RESTARTS = " What it said so far is kept; your next message starts it again."


def _signal_name(returncode: int) -> str:
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


class ChatEngine:
    """A chat model in its own process; one caller at a time (a lock enforces it), any thread."""

    def __init__(self, model_path: str | os.PathLike, n_ctx: int = 4096, n_threads: int | None = None,
                 seed: int | None = None, hang_seconds: float = 60.0, load_seconds: float = 300.0,
                 prompt_cache: PromptCache | None = None, n_threads_batch: int | None = None) -> None:
        self.path = Path(model_path).expanduser()
        # The cache key travels in the load request on the engine's stdin (argv and environ are readable by others).
        self._config = {"path": str(self.path), "n_ctx": n_ctx, "n_threads": n_threads,
                        "n_threads_batch": n_threads_batch, "seed": seed,
                        "prompt_cache": prompt_cache.to_wire() if prompt_cache else None}
        self.hang_seconds = hang_seconds
        self.load_seconds = load_seconds
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.n_threads_batch = n_threads_batch
        self.chat_format: str | None = None
        self.last_prompt: PromptEval | None = None
        self.last_finish: str | None = None  # "length" when max_tokens cut the last reply
        self.started = 0  # engines started so far (a restart after a failure counts)
        self._proc: subprocess.Popen | None = None
        self._inbox: queue.Queue = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._next_id = 0
        self._deadline = 0.0  # when a waiting stream gives up on a silent engine
        self._lock = threading.RLock()
        self._counts: collections.OrderedDict[str, int] = collections.OrderedDict()
        with self._lock:
            self._start()

    @property
    def pid(self) -> int | None:
        """The engine process's id, or None when none runs."""
        return self._proc.pid if self._proc is not None else None

    def _start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_PACKAGE_ROOT), env.get("PYTHONPATH")) if p)
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        proc = subprocess.Popen([sys.executable, "-m", "models.engine"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=str(_PACKAGE_ROOT))
        self._proc, self._inbox, self.started = proc, queue.Queue(), self.started + 1
        self._counts.clear()  # a new engine may be given another model later; counts are per model
        threading.Thread(target=_pump_lines, args=(proc.stdout, self._inbox), daemon=True,
                         name="engine-out").start()
        threading.Thread(target=_keep_stderr, args=(proc.stderr, self._stderr), daemon=True,
                         name="engine-err").start()
        try:
            ready = self._ask("load", self.load_seconds, **self._config)["ready"]
        except ModelError as e:
            if self._proc is not None:  # it said why and is ending by itself
                self._proc.wait()
                self._proc = None
            if not isinstance(e, EngineError):
                raise
            raise ModelError(f"The chat model file {self.path} could not be loaded: {e.reason}. "
                             "Choose another GGUF file in Settings or pass --model.") from e
        self.n_ctx, self.n_threads, self.chat_format = ready["n_ctx"], ready["n_threads"], ready["chat_format"]
        self.n_threads_batch = ready.get("n_threads_batch")
        log.info("chat engine %d ready (%s)", proc.pid, self.path.name)

    def _ensure(self) -> None:
        """A running engine: a new one if there is none or the last one died while idle."""
        if self._proc is not None and self._proc.poll() is not None:
            log.warning("chat engine %d had ended (%s); starting a new one", self._proc.pid, self._proc.returncode)
            self._proc = None
        if self._proc is None:
            self._start()

    def _send(self, rid: int, op: str, **fields: Any) -> None:
        try:
            stdin = self._proc.stdin if self._proc is not None else None
            if stdin is None:
                return
            stdin.write((json.dumps({"op": op, "id": rid, **fields}) + "\n").encode("ascii"))
            stdin.flush()
        except (OSError, ValueError):  # it died: reading its output says how
            pass

    def _ask(self, op: str, timeout: float, **fields: Any) -> dict:
        self._next_id += 1
        rid = self._next_id
        self._send(rid, op, **fields)
        answer = self._answer(rid, timeout)
        assert answer is not None  # without `wait`, _answer returns a message or raises
        return answer

    def _answer(self, rid: int, timeout: float, wait: float | None = None) -> dict | None:
        """The next message for request `rid`; None if `wait` seconds passed first (the hang clock keeps running)."""
        deadline = self._deadline if wait is not None else time.monotonic() + timeout
        while True:
            now = time.monotonic()
            if now >= deadline:
                self._fail(timeout)
            try:
                msg = self._inbox.get(timeout=min(deadline - now, wait if wait is not None else deadline - now))
            except queue.Empty:
                if wait is not None and time.monotonic() < deadline:
                    return None
                continue
            if msg is None:
                self._fail(None)
            self._deadline = deadline = time.monotonic() + timeout  # any sign of life resets the hang clock
            if msg.get("id") != rid or msg.get("alive"):
                continue  # the tail of a stopped reply, or progress on a long prompt
            if "error" in msg:
                err = msg["error"]
                if err.get("code"):
                    raise ModelError(err["message"])
                raise RuntimeError(f"chat engine: {err['message']}")
            return msg

    def _fail(self, waited: float | None) -> None:
        """The engine ended (waited None) or showed no progress for `waited` seconds: end it and say which."""
        proc, self._proc = self._proc, None
        assert proc is not None  # only called while an engine runs
        if waited is not None:
            proc.kill()
        code = proc.wait()
        for line in self._stderr:
            log.warning("chat engine %d stderr: %s", proc.pid, line)
        if waited is not None:
            raise EngineError(f"The chat engine gave no sign of progress for {waited:g} s and was "
                              f"stopped.{_RESTARTS}", f"the engine stopped responding for {waited:g} s")
        reason = f"killed by {_signal_name(code)}" if code < 0 else f"exit code {code}"
        raise EngineError(f"The chat engine stopped unexpectedly ({reason}).{_RESTARTS}",
                          f"the engine stopped while loading it ({reason})")

    def count_tokens(self, text: str) -> int:
        """How many tokens `text` takes in the model's vocabulary (without a BOS token)."""
        if not text:
            return 0
        with self._lock:
            known = self._counts.get(text)
            if known is not None:
                self._counts.move_to_end(text)
                return known
            self._ensure()
            n = self._counts[text] = self._ask("count", self.hang_seconds, texts=[text])["counts"][0]
            if len(self._counts) > _CACHE:
                self._counts.popitem(last=False)
            return n

    def count_at_most(self, text: str) -> int:
        """`count_tokens` when this text was counted before, else a bound that asks the engine nothing: its UTF-8
        bytes and one (a token, special ones aside, stands for at least one byte; one more for a leading space some
        vocabularies add)."""
        with self._lock:
            known = self._counts.get(text) if text else 0
        return known if known is not None else len(text.encode("utf-8")) + 1

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """`count_tokens` of each text, the ones not counted before asked for in one request: after a restart a turn
        counts every message of the history, one round trip each (46 for a ten-turn conversation with memory on)."""
        with self._lock:
            unknown = list(dict.fromkeys(t for t in texts if t and t not in self._counts))
            if unknown:
                self._ensure()
                for text, n in zip(unknown, self._ask("count", self.hang_seconds, texts=unknown)["counts"]):
                    self._counts[text] = n
                while len(self._counts) > _CACHE:
                    self._counts.popitem(last=False)
            return [self.count_tokens(t) for t in texts]

    def settle(self) -> None:
        """Return once the engine has done what it does when it starts (it reads the saved conversation after saying
        it is ready): a request answered after that. `Companion.warm_up` waits for it, so a message sent as soon as
        the app is open does not wait for the file (~0.1-0.3 s for a 900-token SmolLM2 state on this busy machine)."""
        with self._lock:
            self._ensure()
            self._ask("count", self.hang_seconds, texts=[])

    def stream(self, messages: Sequence[dict], max_tokens: int = 512, temperature: float = 0.7,
               should_stop: Callable[[], bool] | None = None, head: int = 0,
               repeat_penalty: float = REPEAT_PENALTY) -> Generator[str, None, None]:
        """Yield the reply piece by piece. Once `should_stop()` is true no further piece is yielded and the
        engine is told to stop at its next token. The first `head` messages are the stable head the engine's
        prompt cache keeps across restarts. `last_finish` is then "length" when `max_tokens` cut the reply."""
        with self._lock:
            self.last_prompt = None
            self.last_finish = None
            exchange = self._exchange("chat", should_stop, messages=list(messages), max_tokens=max_tokens,
                                      temperature=temperature, head=head, repeat_penalty=repeat_penalty)
            try:
                for msg in exchange:
                    if msg.get("done"):
                        prompt = msg.get("prompt")
                        self.last_prompt = PromptEval(*prompt) if prompt else None
                        self.last_finish = msg.get("finish")
                        return
                    yield msg["piece"]
            finally:
                exchange.close()  # tells the engine to stop when the reply did not run to its end

    def evaluate_ahead(self, messages: Sequence[dict], head: int = 0,
                       should_stop: Callable[[], bool] | None = None, reply: bool = True) -> PromptEval | None:
        """Have the engine evaluate the prompt a reply to `messages` would start from, without a reply (a paused
        draft; `ChatModel.evaluate_ahead`), so that sending them evaluates only what changed. Once `should_stop()` is
        true it returns None at once and the engine stops at its next step, keeping what it evaluated; else the
        prompt tokens reused and evaluated. `last_prompt` stays the last reply's. reply=False: the messages are the
        conversation so far, evaluated without a reply's opening (the terminal, between turns)."""
        with self._lock:
            exchange = self._exchange("ahead", should_stop, messages=list(messages), head=head, reply=reply)
            try:
                for msg in exchange:
                    prompt = msg.get("prompt")
                    return PromptEval(*prompt) if prompt else None
            finally:
                exchange.close()
            return None

    def _exchange(self, op: str, should_stop: Callable[[], bool] | None,
                  **fields: Any) -> Generator[dict, None, None]:
        """Send one request and yield its messages, the last one the one that says done. Once `should_stop()` is true
        (looked at every _POLL_S, even while the engine is silent) nothing more is yielded; closed before done, the
        engine is told to stop the request."""
        self._ensure()
        self._next_id += 1
        rid = self._next_id
        self._send(rid, op, **fields)
        self._deadline = time.monotonic() + self.hang_seconds
        finished = False
        try:
            while not (should_stop is not None and should_stop()):
                msg = self._answer(rid, self.hang_seconds, wait=_POLL_S)
                if msg is None:
                    continue
                finished = bool(msg.get("done"))
                yield msg
                if finished:
                    return
        finally:
            if not finished and self._proc is not None:
                self._send(rid, "stop")

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int = 512) -> str:
        """The model's raw JSON answer under a grammar built from `schema` (satisfies memory's Completer)."""
        with self._lock:
            self._ensure()
            self.last_prompt = None
            return self._ask("json", self.hang_seconds, system=system, user=user, schema=schema,
                             max_tokens=max_tokens)["text"]

    def forget_cache(self) -> None:
        """Say that the prompt cache file was deleted (memories were forgotten), so a reply under way does not write
        it again. Sent at once, without waiting for the reply in progress (the engine reads it on its own thread)."""
        if self._proc is not None:
            self._send(0, "forget")

    def close(self) -> None:
        """End the engine: it exits when its input closes (once its prompt state is written); killed if it has not
        after _CLOSE_WAIT_S."""
        with self._lock:
            proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=_CLOSE_WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __enter__(self) -> ChatEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# How long a closing engine may take to exit: it first ends the reply in hand and writes the prompt state it was
# handed (at most models/engine.py's _WRITE_GRACE_S, 10 s; usually well under a second). Killed at 5 s, a write
# slowed by a busy machine was lost, and `companion say` left no prompt state for the next command.
_CLOSE_WAIT_S = 12.0


def _pump_lines(stream: IO[bytes], inbox: queue.Queue) -> None:
    """Engine stdout → parsed messages; None when it closes (the engine ended)."""
    for line in stream:
        try:
            inbox.put(json.loads(line))
        except ValueError:
            log.warning("chat engine wrote a line that is not JSON: %r", line[:200])
    inbox.put(None)


def _keep_stderr(stream: IO[bytes], lines: collections.deque) -> None:
    """Drain the engine's stderr (so it never blocks on a full pipe), keeping the last lines for the log."""
    for line in stream:
        lines.append(line.decode("utf-8", "replace").rstrip())
