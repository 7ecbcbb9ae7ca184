#!/usr/bin/env python3
"""Benchmark: time to the first reply piece, and the prompt tokens evaluated for it, with memory on and off.

  .venv/bin/python scripts/bench_first_word.py [--sessions 3] [--turns 10] [--memories 300] [--model FILE]

The project's own `Companion` and `ChatService` on the bundled SmolLM2 (or any GGUF with --model), in throw-away
encrypted profiles seeded with the same generated memories. Each session plays the same scripted conversation three
ways, turn by turn in turning order so machine noise hits all of them:
  chat   memory on, nothing done before Enter (as `companion chat` in a terminal);
  window memory on, typing pauses simulated before Enter (untimed): the draft pauses at half the message and at the
         whole of it, and the window's pause handler (`ChatService.anticipate`) runs on each;
  off    memory off.
Per turn it prints the median time from Enter to the first reply piece and the prompt tokens llama.cpp evaluated in
that time (the rest were reused), beside the message's own tokens; then the ratios against memory off (the median
turn and the last turn), the first reply after a restart against the last warm turn of the same conversation, and
the app's tokens/s against raw llama-cpp-python on the same prompt and threads. Only ratios measured side by side
in this one run are claims; the seconds depend on the machine and its load.
"""
from __future__ import annotations

import argparse
import inspect
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # as the app sets it, for the raw runs too

from app.chat import ChatService  # noqa: E402
from app.clock import Clock  # noqa: E402
from app.companion import Companion  # noqa: E402
from app.settings import Settings  # noqa: E402
from memory.records import Memory  # noqa: E402
from memory.storage.store import new_id  # noqa: E402

TODAY = "2026-11-29"
TURNS = [
    "Hi! How are you today?",
    "I had a long day at the hospital, the night shift was rough.",
    "Do you remember what my sister's name is?",
    "What should I cook for dinner tonight?",
    "My exam is coming up soon and I'm nervous about it.",
    "Can you suggest a short hike for the weekend?",
    "I started learning the piano last month.",
    "What music would you recommend for studying?",
    "My cat knocked over a plant this morning.",
    "Thanks for listening. Any advice for sleeping better?",
    "Good morning again! What were we talking about?",
]
VARIANTS = ("chat", "window", "off")  # see the docstring
PEOPLE = ["Lily", "Tom", "Mei", "Sam", "Ana", "Raj", "Zoe", "Ben", "Ivy", "Leo"]
THINGS = ["hiking", "jazz", "sushi", "chess", "yoga", "painting", "coffee", "running", "baking", "poetry",
          "tennis", "gardening", "ramen", "board games", "cycling", "photography", "tea", "sci-fi novels",
          "swimming", "climbing", "the show Friends", "spicy food", "podcasts", "museums", "camping"]


def seed_memories(n: int, rng: random.Random) -> list[Memory]:
    """A plausible profile: a few always-on memories, people, dated events, and many preferences."""
    out = [Memory(new_id(), "profile", "Prefers to be called Xiaolin", source="explicit", importance=0.9),
           Memory(new_id(), "profile", "Works as a nurse at a hospital in Chengdu", importance=0.8),
           Memory(new_id(), "profile", "Lives with a cat named Pickles", importance=0.6),
           Memory(new_id(), "feedback", "Does not want to be called 'sweetie'", source="explicit", importance=0.9),
           Memory(new_id(), "feedback", "Prefers short, practical answers", importance=0.7),
           Memory(new_id(), "event", "Nursing licence exam", event_date="2026-12-06", importance=0.9),
           Memory(new_id(), "event", "Sister Lily's birthday", event_date="2026-12-10", importance=0.8)]
    i = 0
    while len(out) < n:
        i += 1
        kind = rng.random()
        if kind < 0.15:
            who = rng.choice(PEOPLE)
            out.append(Memory(new_id(), "relationship", f"Friend {who} likes {rng.choice(THINGS)} (note {i})",
                              importance=rng.uniform(0.3, 0.8)))
        elif kind < 0.25:
            out.append(Memory(new_id(), "event", f"Went to a {rng.choice(THINGS)} event (note {i})",
                              event_date=f"2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d}",
                              importance=rng.uniform(0.3, 0.6)))
        else:
            verb = rng.choice(["Likes", "Dislikes", "Started", "Wants to try", "Used to enjoy"])
            out.append(Memory(new_id(), "preference", f"{verb} {rng.choice(THINGS)} (note {i})",
                              importance=rng.uniform(0.3, 0.7)))
    return out


def make_template(root: Path, n: int) -> Path:
    """One profile with the memories, copied afresh for every session and variant."""
    home = root / "template"
    c = Companion(home, Clock.parse(TODAY))
    with c.db.transaction():
        for m in seed_memories(n, random.Random(7)):
            c.store.add(m)
    c.close()
    return home


def open_copy(template: Path, home: Path, memory: bool, reply_tokens: int) -> Companion:
    shutil.copytree(template, home)
    settings = Settings.load(home)
    settings.memory_enabled = memory
    settings.max_reply_tokens = reply_tokens
    settings.temperature = 0.0
    settings.save(home)
    return open_existing(home)


def open_existing(home: Path) -> Companion:
    return Companion(home, Clock.parse(TODAY))


class EvalCounter:
    """Counts the tokens llama.cpp evaluates (prompt and generated) by wrapping Llama.eval (in-process models only)."""

    def __init__(self, llm):
        self.n = 0
        inner = llm.eval

        def counted(tokens):
            self.n += len(tokens)
            return inner(tokens)

        llm.eval = counted


def pauses(text: str) -> list[str]:
    """The drafts the window sees pausing while `text` is typed: half its words, then all of it."""
    words = text.split()
    half = " ".join(words[:max(1, len(words) // 2)])
    return [half, text] if half != text else [text]


def anticipate(chat: ChatService, session: str | None, draft: str) -> None:
    """What the window does when typing pauses on `draft` (older versions took the draft alone)."""
    if "session_id" in inspect.signature(chat.anticipate).parameters:
        chat.anticipate(draft, session_id=session)
    else:
        chat.anticipate(draft)


def timed_turn(chat: ChatService, session: str | None, text: str, typed: bool = False) -> tuple[float, int, object]:
    """Seconds from Enter to the first reply piece, and the prompt tokens the engine evaluated in that time.

    typed: typing pauses came before Enter (untimed), as in the window."""
    if typed:
        for draft in pauses(text):
            anticipate(chat, session, draft)
    start = time.perf_counter()
    turn = chat.prepare(session, text)
    first = None
    for _ in chat.stream(turn):
        if first is None:
            first = time.perf_counter() - start
    chat.finish(turn)
    chat.learn(turn, use_model=False)  # the app does this in the background, after the reply
    evaluated = chat.c.chat_model().last_prompt.evaluated  # reported by the engine process
    return (first if first is not None else time.perf_counter() - start), evaluated, turn


def session_run(template: Path, root: Path, rep: int, turns: int, reply_tokens: int, results: dict) -> dict:
    """One scripted session per variant, interleaved turn by turn, then a restart of both."""
    variants = {}
    for name in VARIANTS:
        c = open_copy(template, root / f"{name}-{rep}", name != "off", reply_tokens)
        c.warm_up()  # the engine starts and the embedders load before the timed turns, as the desktop app does
        variants[name] = [c, ChatService(c), None]
    last_prompt = None
    for t in range(turns):
        for name in _rotated(VARIANTS, t + rep):
            c, chat, session = variants[name]
            text = TURNS[t % len(TURNS)]
            secs, evaluated, turn = timed_turn(chat, session, text, typed=name == "window")
            variants[name][2] = turn.session_id
            results[name].setdefault(t + 1, []).append((secs, evaluated, c.chat_model().count_tokens(text)))
            if name == "chat":
                last_prompt = turn.messages
    sessions = {name: v[2] for name, v in variants.items()}
    for v in variants.values():
        v[0].close()
    for name in _rotated(VARIANTS, rep):
        start = time.perf_counter()
        c = open_existing(root / f"{name}-{rep}")
        chat = ChatService(c)
        c.warm_up()
        load = time.perf_counter() - start
        text = TURNS[turns % len(TURNS)]
        secs, evaluated, turn = timed_turn(chat, sessions[name], text, typed=name == "window")
        results[name].setdefault("restart", []).append((secs, evaluated, c.chat_model().count_tokens(text), load))
        c.close()
    return {"messages": last_prompt}


def _rotated(names: tuple[str, ...], k: int) -> tuple[str, ...]:
    """The variants in an order that turns with k, so no variant always goes first."""
    k %= len(names)
    return names[k:] + names[:k]


def throughput(model_path: str, messages: list[dict], reps: int, gen_tokens: int) -> dict:
    """Prompt and generation tokens/s of the app's ChatModel and of a plain Llama, interleaved."""
    from llama_cpp import Llama

    from models.chat import ChatModel

    app = ChatModel(model_path, n_ctx=4096)
    raw = Llama(model_path=model_path, n_ctx=4096, verbose=False)
    counters = {"app": EvalCounter(app._llm), "raw": EvalCounter(raw)}
    out: dict[str, dict[str, list[float]]] = {"app": {"prompt": [], "gen": []}, "raw": {"prompt": [], "gen": []}}

    def run(name: str):
        if name == "app":
            app._llm.reset()
            return app.stream(messages, max_tokens=gen_tokens, temperature=0.0)
        raw.reset()
        chunks = raw.create_chat_completion(messages=messages, max_tokens=gen_tokens, temperature=0.0, stream=True)
        return (ch["choices"][0]["delta"].get("content") for ch in chunks if ch["choices"][0]["delta"].get("content"))

    for r in range(reps):
        for name in (("app", "raw") if r % 2 == 0 else ("raw", "app")):
            counter = counters[name]
            start = time.perf_counter()
            n0 = counter.n
            first_at, n_first = None, 0
            for _ in run(name):
                if first_at is None:
                    first_at, n_first = time.perf_counter(), counter.n
            end = time.perf_counter()
            out[name]["prompt"].append((n_first - n0) / (first_at - start))
            out[name]["gen"].append((counter.n - n_first) / max(1e-9, end - first_at))
    threads = {"app": app._llm.n_threads, "raw": raw.n_threads}
    app.close()
    raw.close()
    return {k: {m: statistics.median(v) for m, v in d.items()} | {"threads": threads[k]} for k, d in out.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=3)
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--memories", type=int, default=300)
    ap.add_argument("--reply-tokens", type=int, default=32)
    ap.add_argument("--throughput-reps", type=int, default=4, help="0 skips the tokens/s comparison")
    ap.add_argument("--model", help="a GGUF file to chat with instead of the bundled model")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["COMPANION_DB_KEY"] = "bench-first-word"
        os.environ.setdefault("COMPANION_MODELS_DIR", str(root / "models"))
        for var in ("COMPANION_CHAT_MODEL", "COMPANION_TODAY"):
            os.environ.pop(var, None)
        if args.model:
            os.environ["COMPANION_CHAT_MODEL"] = str(Path(args.model).resolve())
        template = make_template(root, args.memories)
        results: dict = {name: {} for name in VARIANTS}
        last = {}
        for rep in range(args.sessions):
            last = session_run(template, root, rep, args.turns, args.reply_tokens, results)
            print(f"session {rep + 1}/{args.sessions} done", file=sys.stderr, flush=True)
        probe = Companion(template, Clock.parse(TODAY))
        model_path = str(probe.chat_model_file().path)
        threads = probe.chat_model().n_threads
        probe.close()
        tput = throughput(model_path, last["messages"], args.throughput_reps, 64) if args.throughput_reps else None
    report(results, args, tput, threads, Path(model_path).name)
    return 0


def _med(rows, i):
    return statistics.median(r[i] for r in rows)


def _all_turns(results: dict, name: str, turns: int, i: int) -> float:
    """The median turn: the median over every session's turns 1..turns."""
    return statistics.median(r[i] for t in range(1, turns + 1) for r in results[name][t])


def report(results: dict, args, tput: dict | None, threads: int, model: str) -> None:
    T = args.turns
    print(f"\nbench_first_word: {model}, {args.memories} memories, {args.sessions} sessions x {T} turns, "
          f"chat / window / off interleaved, {os.cpu_count()} logical CPUs, chat threads {threads}; medians over "
          "sessions\n")
    print("Time from Enter to the first reply piece (s), and the prompt tokens evaluated in that time:\n")
    print("| turn | message tokens | chat: s / evaluated | window: s / evaluated | off: s / evaluated |")
    print("|---|---|---|---|---|")
    keys: list = list(range(1, T + 1)) + ["restart"]
    for key in keys:
        label = f"after restart ({T + 1})" if key == "restart" else str(key)
        cells = " | ".join(f"{_med(results[n][key], 0):.2f} / {_med(results[n][key], 1):.0f}" for n in VARIANTS)
        print(f"| {label} | {_med(results['off'][key], 2):.0f} | {cells} |")
    cells = " | ".join(f"{_all_turns(results, n, T, 0):.2f} / {_all_turns(results, n, T, 1):.0f}" for n in VARIANTS)
    print(f"| median turn | {_all_turns(results, 'off', T, 2):.0f} | {cells} |")
    print("\n| memory on, against off | median turn | turn " + str(T) + " | evaluated after Enter, median turn "
          "(message tokens + 16) | first reply after restart / turn " + str(T) + " |")
    print("|---|---|---|---|---|")
    off_med, off_last = _all_turns(results, "off", T, 0), _med(results["off"][T], 0)
    budget = _all_turns(results, "off", T, 2) + 16
    for name, label in (("chat", "companion chat (no typing ahead)"), ("window", "window (typing pauses)"),
                        ("off", "memory off (reference)")):
        restart = _med(results[name]["restart"], 0) / _med(results[name][T], 0)
        print(f"| {label} | {_all_turns(results, name, T, 0) / off_med:.2f}x | {_med(results[name][T], 0) / off_last:.2f}x "
              f"| {_all_turns(results, name, T, 1):.0f} ({budget:.0f}) | {restart:.2f}x |")
    loads = [r[3] for name in VARIANTS for r in results[name]["restart"]]
    print(f"\nrestart: open profile, start the engine, load the embedders {statistics.median(loads):.2f} s "
          "(not in the times above)")
    if tput is None:
        return
    print("\n| same prompt (memory on, last turn) | prompt tokens/s | generation tokens/s | threads |")
    print("|---|---|---|---|")
    for name in ("app", "raw"):
        print(f"| {name} | {tput[name]['prompt']:.0f} | {tput[name]['gen']:.1f} | {tput[name]['threads']} |")
    print(f"| app / raw | {tput['app']['prompt'] / tput['raw']['prompt']:.2f} "
          f"| {tput['app']['gen'] / tput['raw']['gen']:.2f} | |")


if __name__ == "__main__":
    raise SystemExit(main())
