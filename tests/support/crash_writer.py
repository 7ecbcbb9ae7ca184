"""A process that writes to a profile through the real app code until it is killed, reporting each commit.

    python -m tests.support.crash_writer --home H --mode import|extract|consolidate|edit --seed N

Each line on stdout is flushed right after the transaction it reports has committed, so whoever kills
this process knows a lower bound of what must survive:
    READY                 the profile is open
    M <memory id>         a memory was written
    S <message id>        a chat message was written
    B <id> <hash> <hash>  an edit is about to be written (the state before, the state it will leave)
    E <memory id> <hash>  that edit committed
    C <run number>        a consolidation run finished
"""
from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

from app.clock import Clock
from app.companion import Companion
from app.portability import import_memories
from memory.consolidation.job import consolidate
from memory.consolidation.lock import LOCK_FILE, RunLock
from memory.records import Memory
from memory.storage.store import new_id

FOODS = ["mango sticky rice", "durian", "ramen", "tiramisu", "kimchi", "falafel", "pho", "paella", "dumplings",
         "churros", "sushi", "baklava", "goulash", "tacos", "risotto", "pierogi", "laksa", "poutine"]
NAMES = ["Lily", "Tom", "Priya", "Kenji", "Amara", "Luca", "Sofia", "Mateo", "Yuki", "Omar", "Ines", "Noah"]
CITIES = ["Lisbon", "Oslo", "Kyoto", "Nairobi", "Quito", "Tallinn", "Hobart", "Porto", "Da Nang", "Bergen"]
JOBS = ["pharmacist", "nurse", "carpenter", "data analyst", "teacher", "chef", "pilot", "librarian"]
ZH_FOODS = ["榴莲", "火锅", "小笼包", "麻辣烫", "煎饼", "米线", "烤鸭", "凉皮"]


def state_hash(m: Memory) -> str:
    """What an edit leaves behind, as a short hash (content, category, pin and disable state)."""
    key = "\x1f".join([m.content, m.category, str(int(m.pinned)), str(int(m.disabled))])
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def chat_message(rng: random.Random) -> str:
    """One user message the rules turn into a memory (new, repeated or contradicting)."""
    kind = rng.randrange(6)
    if kind == 0:
        return f"I really love {rng.choice(FOODS)}."
    if kind == 1:
        return f"I can't stand {rng.choice(FOODS)} anymore."
    if kind == 2:
        return f"My {rng.choice(['sister', 'brother', 'cousin'])} {rng.choice(NAMES)} just moved to {rng.choice(CITIES)}."
    if kind == 3:
        return f"I work as a {rng.choice(JOBS)} now."
    if kind == 4:
        return f"I have a {rng.choice(['chemistry', 'history', 'piano', 'driving'])} exam on 2026-12-{rng.randint(1, 28):02d}."
    return f"我喜欢吃{rng.choice(ZH_FOODS)}"


def import_items(seed: int, count: int) -> list[dict]:
    """A long, deterministic export file's memories (distinct contents, given ids)."""
    rng = random.Random(seed)
    items = []
    for i in range(count):
        # The seed in the text keeps files apart: import skips a content it already has ("already remembered").
        content = f"Keeps note {seed}-{i} about {rng.choice(FOODS)} in {rng.choice(CITIES)} with {rng.choice(NAMES)}"
        items.append({"id": f"m_imp{seed % 1000:03d}{i:05d}", "category": "preference", "content": content,
                      "confidence": 0.9, "importance": 0.5, "created_at": "2026-11-01T10:00:00"})
    return items


def run_import(c: Companion, rng: random.Random, seed: int) -> None:
    for item in import_items(seed, 5000):
        imported, _ = import_memories(c.store, [item])
        for m in imported:
            say(f"M {m.id}")


def run_extract(c: Companion, rng: random.Random, seed: int) -> None:
    pipeline = c.pipeline(use_model=False)
    while True:
        session = c.transcript.create_session("crash test")
        for _ in range(rng.randint(1, 4)):
            text = chat_message(rng)
            user = c.transcript.add_message(session.id, "user", text)
            say(f"S {user.id}")
            result = pipeline.process(text, "Tell me more!", c.clock.today(), session_id=session.id,
                                      message_id=user.id)
            for w in result.written:
                say(f"M {w.memory.id}")
            reply = c.transcript.add_message(session.id, "assistant", "That sounds lovely. Tell me more!")
            say(f"S {reply.id}")


def run_consolidate(c: Companion, rng: random.Random, seed: int) -> None:
    lock = RunLock(c.home / LOCK_FILE)
    run = 0
    while True:
        for _ in range(6):
            food = rng.choice(FOODS)
            content = rng.choice([f"Loves {food}", f"Really loves {food}", f"Likes {food} a lot",
                                  f"Doesn't like {food} anymore", f"Is a big fan of {food}"])
            m = c.store.add(Memory(new_id(), "preference", content, topic=f"preference:{food}",
                                   confidence=rng.uniform(0.6, 1.0), created_at=f"2026-11-{rng.randint(1, 28):02d}T09:00:00"))
            say(f"M {m.id}")
        consolidate(c.store, lock, force=True)
        run += 1
        say(f"C {run}")


def run_edit(c: Companion, rng: random.Random, seed: int) -> None:
    mine = [m for m in c.store.list(status="all") if m.content.startswith("Panel note")]
    while len(mine) < 8:
        m = c.store.add(Memory(new_id(), "profile", f"Panel note {len(mine)} about {rng.choice(CITIES)}"))
        say(f"M {m.id}")
        mine.append(m)
    n = 0
    while True:
        m = c.store.get(rng.choice(mine).id)
        change = rng.choice(["content", "content", "pinned", "disabled", "category"])
        if change == "content":
            value = f"Panel note about {rng.choice(CITIES)} and {rng.choice(FOODS)}, revision {seed}-{n}"
        elif change == "category":
            value = rng.choice(["profile", "preference", "relationship"])
        else:
            value = not getattr(m, change)
        planned = Memory(**{**m.__dict__, change: value})
        say(f"B {m.id} {state_hash(m)} {state_hash(planned)}")
        after = c.store.update(m.id, reason="edited by the user", **{change: value})
        say(f"E {m.id} {state_hash(after)}")
        n += 1


MODES = {"import": run_import, "extract": run_extract, "consolidate": run_consolidate, "edit": run_edit}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--home", required=True)
    p.add_argument("--mode", choices=sorted(MODES), required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--today", default="2026-11-29")
    args = p.parse_args()
    c = Companion(Path(args.home), Clock.parse(args.today))
    say("READY")
    MODES[args.mode](c, random.Random(args.seed), args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
