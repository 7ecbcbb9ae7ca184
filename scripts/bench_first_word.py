#!/usr/bin/env python3
"""Benchmark: time to the first reply piece, and the prompt tokens evaluated for it, with memory on and off.

  .venv/bin/python scripts/bench_first_word.py [--sessions 3] [--turns 10] [--memories 300] [--model FILE]

The project's own `Companion` and `ChatService` on the bundled SmolLM2 (or any GGUF with --model), in throw-away
encrypted profiles seeded with the same generated memories. Each session plays the same scripted conversation four
ways, turn by turn in turning order so machine noise hits all of them:
  chat          memory on, as `companion chat` in a terminal: between turns (untimed, while the next line is begun)
                the conversation so far is evaluated (`evaluate_conversation`), then typing pauses are simulated (the
                draft pauses at half the message and at the whole of it) and each is worked on as the terminal does
                when the line it reads pauses (`watch_drafts` → `ChatService.anticipate`);
  chat-straight the same terminal with a line typed without a pause or pasted: nothing of the message before Enter;
  window        memory on, the same typing pauses, each worked on by the window's pause handler (the same
                `ChatService.anticipate`), nothing between turns;
  off           memory off, the terminal path with a line typed straight (between turns only).
Per turn it prints the median time from Enter to the first reply piece and the prompt tokens llama.cpp evaluated in
that time (the rest were reused), beside the message's own tokens; then the ratios against memory off (the median
turn and the last turn), the first reply after a restart against the last warm turn of the same conversation, the
median turn split into `prepare` and the engine's part (prompt built to first piece), and the app's tokens/s against
raw llama-cpp-python on the same prompts, threads and sampling (the engine process the app uses, and its in-process
`ChatModel`). Only ratios measured side by side in this one run are claims; the seconds depend on the machine and its
load.
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
VARIANTS = ("chat", "chat-straight", "window", "off")  # see the docstring
TYPED = ("chat", "window")  # typing pauses before Enter
BETWEEN = ("chat", "chat-straight", "off")  # the terminal's work between turns
# --before adds the terminal as it was before it worked between turns, memory on and off (nothing done before Enter)
BEFORE = ("chat-before", "off-before")
MEMORY_OFF = ("off", "off-before")
REFERENCE = {"chat": "off", "chat-straight": "off", "window": "off", "off": "off", "chat-before": "off-before",
             "off-before": "off-before"}
LABELS = {"chat": "companion chat (typing pauses)", "chat-straight": "companion chat (typed without a pause, pasted)",
          "window": "window (typing pauses)",
          "off": "memory off (reference)", "chat-before": "companion chat before: nothing done between turns",
          "off-before": "memory off before (its reference)"}
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


def timed_turn(chat: ChatService, session: str | None, text: str, typed: bool = False,
               between: bool = True) -> tuple[float, int, object, float]:
    """Seconds from Enter to the first reply piece, the prompt tokens the engine evaluated in that time, the turn, and
    the seconds of it `prepare` took (saving the message, the query's embedding and search, building the prompt).

    between: the terminal's work while the next line is begun, the conversation so far (older versions did
    nothing); typed: then typing pauses before Enter (untimed), each worked on as the window and the terminal do."""
    if between and hasattr(chat, "evaluate_conversation"):
        chat.evaluate_conversation(session)
    if typed:
        for draft in pauses(text):
            anticipate(chat, session, draft)
    start = time.perf_counter()
    turn = chat.prepare(session, text)
    prepared = time.perf_counter() - start
    first = None
    for _ in chat.stream(turn):
        if first is None:
            first = time.perf_counter() - start
    chat.finish(turn)
    chat.learn(turn, use_model=False)  # the app does this in the background, after the reply
    evaluated = chat.c.chat_model().last_prompt.evaluated  # reported by the engine process
    return (first if first is not None else time.perf_counter() - start), evaluated, turn, prepared


def session_run(template: Path, root: Path, rep: int, turns: int, reply_tokens: int, results: dict,
                names: tuple[str, ...] = VARIANTS) -> dict:
    """One scripted session per variant, interleaved turn by turn, then a restart of each."""
    variants = {}
    for name in names:
        c = open_copy(template, root / f"{name}-{rep}", name not in MEMORY_OFF, reply_tokens)
        c.warm_up()  # the engine starts and the embedders load before the timed turns, as the desktop app does
        variants[name] = [c, ChatService(c), None]
    last_prompt = None
    for t in range(turns):
        for name in _rotated(names, t + rep):
            c, chat, session = variants[name]
            text = TURNS[t % len(TURNS)]
            secs, evaluated, turn, prepared = timed_turn(chat, session, text, name in TYPED, name in BETWEEN)
            variants[name][2] = turn.session_id
            results[name].setdefault(t + 1, []).append((secs, evaluated, c.chat_model().count_tokens(text)))
            results[name].setdefault("prepare", []).append((prepared, secs - prepared))
            if name == "chat":
                last_prompt = turn.messages
    sessions = {name: v[2] for name, v in variants.items()}
    for v in variants.values():
        v[0].close()
    for name in _rotated(names, rep):
        start = time.perf_counter()
        c = open_existing(root / f"{name}-{rep}")
        chat = ChatService(c)
        c.warm_up()
        load = time.perf_counter() - start
        text = TURNS[turns % len(TURNS)]
        secs, evaluated, turn, _ = timed_turn(chat, sessions[name], text, name in TYPED, name in BETWEEN)
        results[name].setdefault("restart", []).append((secs, evaluated, c.chat_model().count_tokens(text), load))
        c.close()
    return {"messages": last_prompt}


def _rotated(names: tuple[str, ...], k: int) -> tuple[str, ...]:
    """The variants in an order that turns with k, so no variant always goes first."""
    k %= len(names)
    return names[k:] + names[:k]


def throughput(model_path: str, messages: list[dict], reps: int, gen_tokens: int, threads: tuple[int, int]) -> dict:
    """Prompt and generation tokens/s on the same prompts, threads and sampling, interleaved: raw llama-cpp-python
    (`Llama.create_chat_completion`), the app's `ChatModel` in this process, and the engine process the app talks to
    (`ChatEngine`). Each repetition's prompt starts with its own words, so nothing is reused from the last one.
    Prompt tokens/s: the prompt's tokens over the time to the first piece; generation: the tokens after it over the
    time from the first piece to the last (the engine's "done" after it is not token work)."""
    from llama_cpp import Llama

    from models.chat import REPEAT_PENALTY, ChatModel
    from models.engine_client import ChatEngine

    n_threads, n_batch = threads
    raw = Llama(model_path=model_path, n_ctx=4096, n_threads=n_threads, n_threads_batch=n_batch, verbose=False)
    app = ChatModel(model_path, n_ctx=4096, n_threads=n_threads, n_threads_batch=n_batch)
    engine = ChatEngine(model_path, n_ctx=4096, n_threads=n_threads, n_threads_batch=n_batch)
    counters = {"raw": EvalCounter(raw)}
    names = ("raw", "app", "engine")
    out: dict[str, dict[str, list[float]]] = {n: {"prompt": [], "gen": [], "prompt_ratio": [], "gen_ratio": []}
                                              for n in names}
    texts: dict[str, list[str]] = {n: [] for n in names}
    sampling = {"max_tokens": gen_tokens, "temperature": 0.0, "repeat_penalty": REPEAT_PENALTY}

    def run(name: str, prompt: list[dict]):
        if name == "raw":
            chunks = raw.create_chat_completion(messages=prompt, stream=True, **sampling)  # type: ignore[arg-type]
            return (ch["choices"][0]["delta"].get("content") for ch in chunks if ch["choices"][0]["delta"].get("content"))
        return (app if name == "app" else engine).stream(prompt, **sampling)

    for r in range(reps):
        prompt = [{**messages[0], "content": f"Session {r + 1}. " + messages[0]["content"]}, *messages[1:]]
        times = {}
        for name in names[r % 3:] + names[:r % 3]:
            n0 = counters["raw"].n
            start = time.perf_counter()
            first_at = last_at = 0.0
            pieces = []
            for piece in run(name, prompt):
                last_at = time.perf_counter()
                first_at = first_at or last_at
                pieces.append(piece)
            texts[name].append("".join(pieces))
            times[name] = (start, first_at, last_at)
            if name == "raw":
                evaluated = counters["raw"].n - n0  # the prompt's tokens, then each generated token but the last
        # The same prompt, threads and sampling give the same reply: the raw run's token counts hold for the others
        # (a run whose reply differs gets no generation figure).
        n_prompt = app.last_prompt.evaluated if app.last_prompt else 0
        n_gen = evaluated - n_prompt  # generated tokens after the first, each evaluated once
        for name in names:
            start, first_at, last_at = times[name]
            out[name]["prompt"].append(n_prompt / (first_at - start))
            same = texts[name][-1] == texts["raw"][-1]
            out[name]["gen"].append(n_gen / max(1e-9, last_at - first_at) if same else float("nan"))
        for name in ("app", "engine"):  # this repetition's ratios against raw, measured seconds apart
            for m in ("prompt", "gen"):
                ratio = out[name][m][-1] / out["raw"][m][-1]
                if ratio == ratio:
                    out[name][m + "_ratio"].append(ratio)
    threads_used = {"raw": (raw.n_threads, raw.n_threads_batch), "app": (app._llm.n_threads, app._llm.n_threads_batch),
                    "engine": (engine.n_threads, engine.n_threads_batch)}
    engine.close()
    app.close()
    raw.close()
    return {n: {m: statistics.median(v) if (v := [x for x in out[n][m] if x == x]) else float("nan")
                for m in ("prompt", "gen")}
            | {m: out[n][m] for m in ("prompt_ratio", "gen_ratio")} | {"threads": threads_used[n]}
            for n in names}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=3)
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--memories", type=int, default=300)
    ap.add_argument("--reply-tokens", type=int, default=32)
    # 4 repetitions gave engine/raw generation 0.88 (0.69-1.02) and 1.06 (0.85-1.48) in two runs on a quiet machine
    ap.add_argument("--throughput-reps", type=int, default=8, help="0 skips the tokens/s comparison")
    ap.add_argument("--model", help="a GGUF file to chat with instead of the bundled model")
    ap.add_argument("--before", action="store_true", help="also the terminal as it was: nothing done between turns")
    args = ap.parse_args(argv)
    load_at_start = _load()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["COMPANION_DB_KEY"] = "bench-first-word"
        os.environ.setdefault("COMPANION_MODELS_DIR", str(root / "models"))
        for var in ("COMPANION_CHAT_MODEL", "COMPANION_TODAY"):
            os.environ.pop(var, None)
        if args.model:
            os.environ["COMPANION_CHAT_MODEL"] = str(Path(args.model).resolve())
        template = make_template(root, args.memories)
        names = VARIANTS + (BEFORE if args.before else ())
        results: dict = {name: {} for name in names}
        last = {}
        for rep in range(args.sessions):
            last = session_run(template, root, rep, args.turns, args.reply_tokens, results, names)
            print(f"session {rep + 1}/{args.sessions} done", file=sys.stderr, flush=True)
        probe = Companion(template, Clock.parse(TODAY))
        model_path = str(probe.chat_model_file().path)
        engine = probe.chat_model()
        threads, both = engine.n_threads, (engine.n_threads or 1, engine.n_threads_batch or 1)
        probe.close()
        tput = throughput(model_path, last["messages"], args.throughput_reps, 64, both) if args.throughput_reps else None
    report(results, args, tput, threads, Path(model_path).name, names, (load_at_start, _load()))
    return 0


def _load() -> float:
    """The machine's 1-minute load average (runnable threads; this machine has 2 cores), or nan where unknown."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def _med(rows, i):
    return statistics.median(r[i] for r in rows)


def _all_turns(results: dict, name: str, turns: int, i: int) -> float:
    """The median turn: the median over every session's turns 1..turns."""
    return statistics.median(r[i] for t in range(1, turns + 1) for r in results[name][t])


def report(results: dict, args, tput: dict | None, threads: int, model: str,
           names: tuple[str, ...] = VARIANTS, load: tuple[float, float] = (float("nan"), float("nan"))) -> None:
    T = args.turns
    print(f"\nbench_first_word: {model}, {args.memories} memories, {args.sessions} sessions x {T} turns, "
          f"{' / '.join(names)} interleaved, {os.cpu_count()} logical CPUs, chat threads {threads}; medians over "
          f"sessions; load average (1 min) {load[0]:.1f} at the start, {load[1]:.1f} at the end\n")
    print("Time from Enter to the first reply piece (s), and the prompt tokens evaluated in that time:\n")
    print("| turn | message tokens | " + " | ".join(f"{n}: s / evaluated" for n in names) + " |")
    print("|---" * (len(names) + 2) + "|")
    keys: list = list(range(1, T + 1)) + ["restart"]
    for key in keys:
        label = f"after restart ({T + 1})" if key == "restart" else str(key)
        cells = " | ".join(f"{_med(results[n][key], 0):.2f} / {_med(results[n][key], 1):.0f}" for n in names)
        print(f"| {label} | {_med(results['off'][key], 2):.0f} | {cells} |")
    cells = " | ".join(f"{_all_turns(results, n, T, 0):.2f} / {_all_turns(results, n, T, 1):.0f}" for n in names)
    print(f"| median turn | {_all_turns(results, 'off', T, 2):.0f} | {cells} |")
    print("\n| memory on, against off | median turn | turn " + str(T) + " | evaluated after Enter, median turn "
          "(message tokens + 16) | first reply after restart / turn " + str(T) + " |")
    print("|---|---|---|---|---|")
    budget = _all_turns(results, "off", T, 2) + 16
    for name in names:
        ref = REFERENCE[name]
        off_med, off_last = _all_turns(results, ref, T, 0), _med(results[ref][T], 0)
        restart = _med(results[name]["restart"], 0) / _med(results[name][T], 0)
        print(f"| {LABELS[name]} | {_all_turns(results, name, T, 0) / off_med:.2f}x "
              f"| {_med(results[name][T], 0) / off_last:.2f}x "
              f"| {_all_turns(results, name, T, 1):.0f} ({budget:.0f}) | {restart:.2f}x |")
    print("\nThe same ratios session by session (each session's own turns against its own memory-off turns), "
          "median (min-max) over sessions: the spread that one run's noise gives them\n")
    print(f"| memory on, against off, per session | median turn | turn {T} |")
    print("|---|---|---|")
    for name in names:
        ref = REFERENCE[name]
        print(f"| {LABELS[name]} | {_spread(_per_session(results, name, ref, range(1, T + 1)))} "
              f"| {_spread(_per_session(results, name, ref, [T]))} |")
    print("\nWhere the time of a turn goes (ms, median over every session's turns 1..%d): `prepare` (the message saved, "
          "the query embedded and searched, the prompt built) and from the prompt built to the first reply piece (the "
          "engine):\n" % T)
    print("| variant | prepare | prompt built -> first piece |")
    print("|---|---|---|")
    for name in names:
        print(f"| {name} | {_med(results[name]['prepare'], 0) * 1000:.1f} | {_med(results[name]['prepare'], 1) * 1000:.0f} |")
    loads = [r[3] for name in names for r in results[name]["restart"]]
    print(f"\nrestart: open profile, start the engine, load the embedders {statistics.median(loads):.2f} s "
          "(not in the times above)")
    if tput is None:
        return
    print("\n| same prompts (memory on, last turn), sampling and threads | prompt tokens/s | generation tokens/s "
          "| threads (generation, prompt) |")
    print("|---|---|---|---|")
    labels = {"raw": "raw llama-cpp-python", "app": "app's ChatModel, in process", "engine": "app's engine process"}
    for name in ("raw", "app", "engine"):
        print(f"| {labels[name]} | {tput[name]['prompt']:.0f} | {tput[name]['gen']:.1f} | {tput[name]['threads']} |")
    for name in ("app", "engine"):
        print(f"| {name} / raw, median (min-max) of {len(tput[name]['gen_ratio'])} repetitions | "
              f"{_spread(tput[name]['prompt_ratio'])} | {_spread(tput[name]['gen_ratio'])} | |")


def _per_session(results: dict, name: str, ref: str, turns) -> list[float]:
    """Per session, its median time to the first piece over `turns` against the reference variant's."""
    sessions = min(len(results[n][t]) for n in (name, ref) for t in turns)
    return [statistics.median(results[name][t][i][0] for t in turns) /
            statistics.median(results[ref][t][i][0] for t in turns) for i in range(sessions)]


def _spread(ratios: list[float]) -> str:
    """A list of per-repetition ratios as 'median (min-max)'."""
    if not ratios:
        return "-"
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


if __name__ == "__main__":
    raise SystemExit(main())
