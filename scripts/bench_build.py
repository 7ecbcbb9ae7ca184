#!/usr/bin/env python3
"""Benchmark: tokens/s of the portable llama-cpp-python build (what scripts/setup.sh installs) against
another build of the same version, e.g. a `-march=native` one, on the bundled SmolLM2, in one run.

  .venv/bin/python scripts/bench_build.py --other /path/to/native-venv/bin/python [--runs 3] [--threads N]

Each build runs in its own child process (one interpreter per build; both cannot be imported into one
process). Runs alternate between the builds, so load on this shared machine falls on both alike. A run
loads the model, evaluates a fixed ~300-token prompt (prompt tokens/s) and generates 64 tokens greedily
(generation tokens/s). Printed: the medians per build and the ratio other / portable.

To make a native build to compare with (10+ minutes on 2 cores):
  python3 -m venv /tmp/native && CMAKE_ARGS="-DGGML_NATIVE=ON" FORCE_CMAKE=1 /tmp/native/bin/pip install \\
      --no-cache-dir --no-binary llama-cpp-python llama-cpp-python==<the version in pyproject.toml>
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.chat import default_threads  # noqa: E402
from models.resolve import resolve_chat_model  # noqa: E402

GENERATE = 64
# Runs inside the child: only llama_cpp and the standard library, so any build's interpreter can run it.
CHILD = r"""
import json, sys, time
import llama_cpp
path, threads, generate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
llm = llama_cpp.Llama(model_path=path, n_ctx=2048, n_threads=threads, n_threads_batch=threads, verbose=False)
text = ("A lighthouse keeper lived alone on a small island with a grey cat. " * 24).encode()
prompt = llm.tokenize(text)
t0 = time.perf_counter()
llm.eval(prompt)
t1 = time.perf_counter()
made = 0
for token in llm.generate(prompt, temp=0.0, top_k=1):  # reset=True: the evaluated prompt is reused
    made += 1
    if made >= generate:
        break
t2 = time.perf_counter()
info = llama_cpp.llama_print_system_info().decode(errors="replace")
print(json.dumps({"prompt_tps": len(prompt) / (t1 - t0), "gen_tps": made / (t2 - t1), "prompt_tokens": len(prompt),
                  "system_info": info}))
"""


def one_run(python: str, model: Path, threads: int) -> dict:
    out = subprocess.run([python, "-c", CHILD, str(model), str(threads), str(GENERATE)], capture_output=True,
                         text=True, timeout=600)
    if out.returncode != 0:
        raise SystemExit(f"{python}: the build failed to run (exit {out.returncode}): {out.stderr.strip()[-400:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--other", required=True, help="the python of a venv holding the other build")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=default_threads())
    args = ap.parse_args()
    model = resolve_chat_model(None).path
    builds = {"portable": sys.executable, "other": args.other}
    results: dict[str, list[dict]] = {name: [] for name in builds}
    for _ in range(args.runs):
        for name, python in builds.items():
            results[name].append(one_run(python, model, args.threads))
    print(f"model {model.name}, {args.threads} threads, {args.runs} runs each, alternating; "
          f"prompt {results['portable'][0]['prompt_tokens']} tokens, {GENERATE} generated")
    medians = {}
    for name, runs in results.items():
        p = statistics.median(r["prompt_tps"] for r in runs)
        g = statistics.median(r["gen_tps"] for r in runs)
        medians[name] = (p, g)
        print(f"{name:<9} prompt {p:7.1f} tok/s   generation {g:6.1f} tok/s   ({builds[name]})")
        print(f"          {runs[0]['system_info'].strip()}")
    (pp, pg), (op, og) = medians["portable"], medians["other"]
    print(f"other / portable: prompt {op / pp:.2f}x   generation {og / pg:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
