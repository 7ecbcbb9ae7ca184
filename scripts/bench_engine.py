#!/usr/bin/env python3
"""Benchmark: the chat engine process on the bundled SmolLM2 — start-up and how quickly Stop silences a reply.

  .venv/bin/python scripts/bench_engine.py [--runs 5] [--threads N]

Per run it starts a fresh engine (`models.engine_client.ChatEngine`) and times spawn → ready (process up,
Python and llama.cpp imported, model loaded) and ready → first token of a short chat. Then, on one engine,
it starts a long reply, presses Stop after a few pieces (should_stop turns true) and times:
  Stop → last piece delivered   what the user sees: the stream yields nothing after Stop (expected 0);
  Stop → stream returned        how long the caller's loop keeps running after Stop;
  Stop → engine idle            until the engine answers the next request (it stopped generating).
Each is the median over --runs, printed with the min and max. For comparison, interleaved with the engine
starts, it loads the same model in this process the old way (`models.chat.ChatModel`, llama_cpp already imported),
so the ratio says what the separate process costs at start-up.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.chat import default_threads  # noqa: E402
from models.engine_client import ChatEngine  # noqa: E402
from models.resolve import resolve_chat_model  # noqa: E402

HELLO = [{"role": "user", "content": "Hello! How are you today?"}]
STORY = [{"role": "user", "content": "Tell me a very long story about a lighthouse keeper and his cat."}]


def start_run(path: Path, threads: int) -> tuple[float, float, ChatEngine]:
    """Seconds spawn → ready and ready → first token, and the engine."""
    t0 = time.perf_counter()
    engine = ChatEngine(path, n_ctx=4096, n_threads=threads)
    ready = time.perf_counter()
    for _ in engine.stream(HELLO, max_tokens=8):
        break
    return ready - t0, time.perf_counter() - ready, engine


def stop_run(engine: ChatEngine, pieces_before_stop: int = 5) -> tuple[float, float, float]:
    """Seconds from Stop to the last piece delivered after it (0 when none), to the stream's end, to engine idle."""
    pressed: dict[str, float] = {}
    last_piece_after_stop = None
    n = 0
    for _ in engine.stream(STORY, max_tokens=400, should_stop=lambda: "at" in pressed):
        n += 1
        if "at" in pressed:
            last_piece_after_stop = time.perf_counter()
        elif n == pieces_before_stop:
            pressed["at"] = time.perf_counter()
    returned = time.perf_counter()
    engine.count_tokens(f"idle check {returned}")  # queued behind the stopped reply in the engine
    idle = time.perf_counter()
    at = pressed["at"]
    delivered = 0.0 if last_piece_after_stop is None else last_piece_after_stop - at
    return delivered, returned - at, idle - at


def _line(label: str, values: list[float], unit: str = "s") -> str:
    scale = 1000.0 if unit == "ms" else 1.0
    med, lo, hi = (statistics.median(values) * scale, min(values) * scale, max(values) * scale)
    return f"| {label} | {med:.{1 if unit == 'ms' else 2}f} | {lo:.{1 if unit == 'ms' else 2}f} | " \
           f"{hi:.{1 if unit == 'ms' else 2}f} |"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0, help="0: the physical cores, as the app does")
    args = ap.parse_args()
    path = resolve_chat_model(None).path
    threads = args.threads or default_threads()
    from models.chat import ChatModel  # only for the in-process comparison; the app never does this
    ChatModel(path, n_ctx=512, n_threads=threads).close()  # imports llama_cpp once, outside the timing
    spawn_ready, ready_first, in_process = [], [], []
    for _ in range(args.runs):
        up, first, engine = start_run(path, threads)
        spawn_ready.append(up)
        ready_first.append(first)
        engine.close()
        t0 = time.perf_counter()
        ChatModel(path, n_ctx=4096, n_threads=threads).close()
        in_process.append(time.perf_counter() - t0)
        print(f"start run {len(spawn_ready)}/{args.runs}: ready {up:.2f} s, first token {first:.2f} s",
              file=sys.stderr, flush=True)
    delivered, returned, idle = [], [], []
    with ChatEngine(path, n_ctx=4096, n_threads=threads) as engine:
        for _ in range(args.runs):
            d, r, i = stop_run(engine)
            delivered.append(d)
            returned.append(r)
            idle.append(i)
    print(f"\nbench_engine: bundled {path.name}, {threads} threads, {args.runs} runs, median (min, max)\n")
    print("| measure | median | min | max |")
    print("|---|---|---|---|")
    print(_line("spawn → ready (s)", spawn_ready))
    print(_line("ready → first token (s)", ready_first))
    print(_line("spawn → first token (s)", [a + b for a, b in zip(spawn_ready, ready_first)]))
    print(_line("in-process model load, for comparison (s)", in_process))
    print(_line("Stop → last piece delivered (ms)", delivered, "ms"))
    print(_line("Stop → stream returned (ms)", returned, "ms"))
    print(_line("Stop → engine idle (ms)", idle, "ms"))
    print(f"\nengine spawn → ready / in-process load: {statistics.median(spawn_ready) / statistics.median(in_process):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
