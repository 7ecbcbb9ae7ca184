#!/usr/bin/env python3
"""Benchmark: time to the first reply piece with memory on and off, interleaved in one run.

  .venv/bin/python scripts/bench_first_word.py [--sessions 3] [--turns 10] [--memories 300]

The project's own `Companion` and `ChatService` on the bundled SmolLM2, in throw-away encrypted profiles
seeded with the same generated memories. Each session plays the same scripted conversation with memory
on, memory on with every message embedded while it was typed (as the window does when typing pauses), and memory
off, the three turn by turn in turning order, so machine noise hits all of them. It prints the
median time to first piece at turn 1 and at the last turn, the on/off ratio, the prompt tokens llama.cpp
actually evaluated before the first piece (the rest were reused from the previous turn), the first reply
after a restart, and the app's tokens/s against raw llama-cpp-python on the same prompt.
"""
from __future__ import annotations

import argparse
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
# memory on; memory on with each message embedded while it was typed (the window does that when typing pauses,
# so only the search and the prompt remain when it is sent); memory off.
VARIANTS = ("on", "typed", "off")
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


def timed_turn(chat: ChatService, session: str | None, text: str, typed: bool = False) -> tuple[float, int, object]:
    """Seconds from the message to the first reply piece, and the prompt tokens the engine evaluated for it.

    typed: the message was embedded while it was typed, as the window does when typing pauses (untimed)."""
    if typed:
        chat.anticipate(text)
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
            secs, evaluated, turn = timed_turn(chat, session, TURNS[t % len(TURNS)], typed=name == "typed")
            variants[name][2] = turn.session_id
            results[name].setdefault(t + 1, []).append((secs, evaluated, _prompt_tokens(c, turn.messages)))
            if name == "on":
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
        secs, evaluated, turn = timed_turn(chat, sessions[name], TURNS[turns % len(TURNS)], typed=name == "typed")
        results[name].setdefault("restart", []).append((secs, evaluated, _prompt_tokens(c, turn.messages), load))
        c.close()
    return {"messages": last_prompt}


def _rotated(names: tuple[str, ...], k: int) -> tuple[str, ...]:
    """The variants in an order that turns with k, so no variant always goes first."""
    k %= len(names)
    return names[k:] + names[:k]


def _prompt_tokens(c: Companion, messages: list[dict]) -> int:
    return sum(c.chat_model().count_tokens(m["content"]) + 5 for m in messages)


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


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=3)
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--memories", type=int, default=300)
    ap.add_argument("--reply-tokens", type=int, default=32)
    ap.add_argument("--throughput-reps", type=int, default=4)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["COMPANION_DB_KEY"] = "bench-first-word"
        os.environ.setdefault("COMPANION_MODELS_DIR", str(root / "models"))
        for var in ("COMPANION_CHAT_MODEL", "COMPANION_TODAY"):
            os.environ.pop(var, None)
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
        tput = throughput(model_path, last["messages"], args.throughput_reps, 64)
    report(results, args, tput, threads)
    return 0


def _med(rows, i):
    return statistics.median(r[i] for r in rows)


def report(results: dict, args, tput: dict, threads: int) -> None:
    print(f"\nbench_first_word: {args.memories} memories, {args.sessions} sessions × {args.turns} turns, "
          f"memory on/off interleaved, {os.cpu_count()} logical CPUs, chat threads {threads}, medians\n")
    print("| turn | TTFT on (s) | TTFT typed (s) | TTFT off (s) | ratio on/off | ratio typed/off "
          "| evaluated on / prompt on (tokens) | evaluated off / prompt off |")
    print("|---|---|---|---|---|---|---|---|")
    for key in (1, args.turns, "restart"):
        on, typed, off = results["on"][key], results["typed"][key], results["off"][key]
        label = f"after restart (turn {args.turns + 1})" if key == "restart" else str(key)
        print(f"| {label} | {_med(on, 0):.2f} | {_med(typed, 0):.2f} | {_med(off, 0):.2f} "
              f"| {_med(on, 0) / _med(off, 0):.2f} | {_med(typed, 0) / _med(off, 0):.2f} "
              f"| {_med(on, 1):.0f} / {_med(on, 2):.0f} | {_med(off, 1):.0f} / {_med(off, 2):.0f} |")
    print("\n(typed: memory on, each message embedded while it was typed, as the window does when typing pauses)")
    print()
    for name, label in (("on", "memory on"), ("typed", "memory on, typed"), ("off", "memory off")):
        every = [statistics.median(r[0] for r in results[name][t]) for t in range(1, args.turns + 1)]
        print(f"{label}, TTFT per turn (s): {' '.join(f'{x:.2f}' for x in every)}")
    loads = [r[3] for name in VARIANTS for r in results[name]["restart"]]
    print(f"restart: open profile, start the engine, load the embedders {statistics.median(loads):.2f} s (not in the TTFT above)")
    print("\n| same prompt (memory on, last turn) | prompt tokens/s | generation tokens/s | threads |")
    print("|---|---|---|---|")
    for name in ("app", "raw"):
        print(f"| {name} | {tput[name]['prompt']:.0f} | {tput[name]['gen']:.1f} | {tput[name]['threads']} |")
    print(f"| app / raw | {tput['app']['prompt'] / tput['raw']['prompt']:.2f} "
          f"| {tput['app']['gen'] / tput['raw']['gen']:.2f} | |")


if __name__ == "__main__":
    raise SystemExit(main())
