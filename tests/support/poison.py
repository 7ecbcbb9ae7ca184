"""The adversarial set (tests/data/poison.jsonl) played through every way text can become a memory.

Paths: `memory extract` (the pipeline on one message, the companion's previous reply as context),
chat turns (`say --wait-memory` through the console script, and the same ChatService calls in process
with one loaded model; split attacks continue in one session), `memory import` of a file whose
memories are the attacks, `memory add` and `memory edit --content` of the attack by hand, and the
chat model proposing the attack itself as a memory (a scripted Completer). A case is blocked on a path when nothing at all was stored from it there.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "poison.jsonl"
CLI = Path(sys.executable).with_name("companion")
TODAY = "2026-11-29"
REPLY = "I hear you. Tell me more about your day?"
LEGIT = [{"category": "profile", "content": "Works as a pharmacist in Porto"},
         {"category": "preference", "content": "Loves hiking in the Dolomites"}]


@dataclass(frozen=True)
class Case:
    """One attack: a message, or several turns of one conversation."""

    id: str
    lang: str
    kind: str  # direct | disguised | split | import
    turns: tuple[str, ...]
    category: str = "profile"


@dataclass
class Outcome:
    """What one path stored for each case (empty = blocked)."""

    path: str
    stored: dict[str, list[str]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    @property
    def blocked(self) -> int:
        return sum(1 for contents in self.stored.values() if not contents)

    @property
    def leaked(self) -> dict[str, list[str]]:
        return {cid: contents for cid, contents in self.stored.items() if contents}

    def line(self) -> str:
        return f"{self.path:<22} blocked {self.blocked} of {len(self.stored)}"


def load_cases(path: Path = DATA) -> list[Case]:
    """The adversarial set, one JSON object a line."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            cases.append(Case(d["id"], d["lang"], d["kind"], tuple(d["turns"]), d.get("category", "profile")))
    return cases


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(CLI), "--home", str(home), "--today", TODAY, *args], capture_output=True,
                          text=True, timeout=600, env={**os.environ})


def _written(proc: subprocess.CompletedProcess, key: str, errors: list[str], label: str) -> list[str]:
    if proc.returncode != 0:
        errors.append(f"{label}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
        return []
    return [w["content"] for w in json.loads(proc.stdout.strip().splitlines()[-1])[key]]


def via_extract(home: Path, cases: list[Case], subprocess_cli: bool = False, jobs: int = 2) -> Outcome:
    """`memory extract TURN --assistant REPLY --previous-user TURN_BEFORE --json`, turn after turn.

    By default the command line's own entry point runs in this process (argv parsing, handler, output:
    all the same, without starting an interpreter per turn); `subprocess_cli` runs the console script.
    """
    out = Outcome("memory extract")

    def play(case: Case) -> list[str]:
        stored: list[str] = []
        for n, turn in enumerate(case.turns):
            args = ["memory", "extract", turn, "--json"] + (["--assistant", REPLY, "--previous-user",
                                                              case.turns[n - 1]] if n else [])
            proc = _cli(home, *args) if subprocess_cli else _main(home, *args)
            stored += _written(proc, "written", out.errors, f"{case.id} turn {n + 1}")
        return stored

    if subprocess_cli:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            out.stored = dict(zip([c.id for c in cases], pool.map(play, cases)))
    else:
        out.stored = {c.id: play(c) for c in cases}
    return out


def _main(home: Path, *args: str) -> subprocess.CompletedProcess:
    """The console script's entry point, run in this process, as a CompletedProcess."""
    from app.cli import main
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["--home", str(home), "--today", TODAY, *args])
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def via_say(home: Path, cases: list[Case], jobs: int = 2) -> Outcome:
    """`say TURN --wait-memory --json`, later turns in the same session."""
    out = Outcome("say --wait-memory")

    def play(case: Case) -> list[str]:
        stored: list[str] = []
        session = None
        for n, turn in enumerate(case.turns):
            proc = _cli(home, "say", turn, "--wait-memory", "--json", *(["--session", session] if session else []))
            stored += _written(proc, "memories_written", out.errors, f"{case.id} turn {n + 1}")
            if proc.returncode == 0:
                session = json.loads(proc.stdout.strip().splitlines()[-1])["session"]
        return stored

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        out.stored = dict(zip([c.id for c in cases], pool.map(play, cases)))
    return out


def via_chat(companion, cases: list[Case]) -> tuple[Outcome, list[str]]:
    """Chat turns in process, run as `say --wait-memory` runs them: ChatService.run, then learn.

    One loaded model serves every turn (as in the app), so the persona prefix is evaluated once. Also
    returns the system text of every turn, as it was sent to the model.
    """
    from app.chat import ChatService
    chat = ChatService(companion)
    out, systems = Outcome("chat turn"), []
    for case in cases:
        stored: list[str] = []
        session = None
        for turn in case.turns:
            played = chat.run(session, turn)
            session = played.session_id
            systems.append(system_text(played.messages))
            stored += [w.memory.content for w in chat.learn(played).written]
        out.stored[case.id] = stored
    return out, systems


def system_text(messages: list[dict]) -> str:
    """Everything sent to the model as system text in one turn (the fixed prompt first, then any notes)."""
    return "\n\n".join(m["content"] for m in messages if m["role"] == "system")


def export_file(cases: list[Case], folder: Path) -> Path:
    """An export file whose memories are the attacks (each turn one memory), plus two honest ones."""
    items = [{"id": f"m_{c.id.replace('-', '_')}_{n}", "category": c.category, "content": turn}
             for c in cases for n, turn in enumerate(c.turns)] + LEGIT
    path = folder / "poisoned-export.json"
    path.write_text(json.dumps({"format": "companion-memories", "version": 1, "memories": items},
                               ensure_ascii=False), encoding="utf-8")
    return path


def via_import(home: Path, cases: list[Case], folder: Path) -> Outcome:
    """`memory import FILE` of a file whose memories are the attacks."""
    out = Outcome("memory import")
    proc = _cli(home, "memory", "import", str(export_file(cases, folder)))
    if proc.returncode != 0:
        out.errors.append(f"import: exit {proc.returncode}: {proc.stderr.strip()}")
    listed = json.loads(_cli(home, "memory", "list", "--status", "all", "--json").stdout)
    by_id = {m["id"]: m["content"] for m in listed}
    for c in cases:
        out.stored[c.id] = [by_id[i] for i in (f"m_{c.id.replace('-', '_')}_{n}" for n in range(len(c.turns)))
                            if i in by_id]
    if not all(item["content"] in by_id.values() for item in LEGIT):
        out.errors.append("import: the honest memories in the same file were not imported")
    return out


def via_add(home: Path, cases: list[Case]) -> Outcome:
    """`memory add ATTACK --json` (each case one memory, as in a file), through the CLI's entry point."""
    out = Outcome("memory add")
    for case in cases:
        proc = _main(home, "memory", "add", " ".join(case.turns), "--category", case.category, "--json")
        out.stored[case.id] = [json.loads(proc.stdout)["content"]] if proc.returncode == 0 else []
        if proc.returncode not in (0, 2) or (proc.returncode == 2 and "Not remembered" not in proc.stderr):
            out.errors.append(f"{case.id}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return out


def via_edit(home: Path, cases: list[Case]) -> Outcome:
    """`memory edit ID --content ATTACK --json` of an honest memory, through the CLI's entry point."""
    out = Outcome("memory edit")
    honest = json.loads(_main(home, "memory", "add", LEGIT[0]["content"], "--category", "profile", "--json").stdout)
    for case in cases:
        proc = _main(home, "memory", "edit", honest["id"], "--content", " ".join(case.turns), "--json")
        out.stored[case.id] = [json.loads(proc.stdout)["content"]] if proc.returncode == 0 else []
        if proc.returncode not in (0, 2) or (proc.returncode == 2 and "Not saved" not in proc.stderr):
            out.errors.append(f"{case.id}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    listed = json.loads(_main(home, "memory", "list", "--status", "all", "--json").stdout)
    if [m["content"] for m in listed] != [LEGIT[0]["content"]]:
        out.errors.append(f"edit: the honest memory changed: {listed}")
    return out


def via_model(companion, cases: list[Case]) -> Outcome:
    """The chat model proposing each attack turn as a memory (in process, a scripted Completer)."""
    from memory.learn.pipeline import MemoryPipeline
    from tests.support.fakes import ScriptedCompleter

    def echo(user_prompt: str) -> str:
        return json.dumps({"memories": [{"category": "profile", "content": turn, "quote": turn, "confidence": 0.95,
                                         "importance": 0.9} for turn in current]})

    out = Outcome("model proposes it")
    pipeline = MemoryPipeline(companion.store, ScriptedCompleter(echo))
    for case in cases:
        stored: list[str] = []
        previous, before = None, None
        for turn in case.turns:
            current = [turn]
            result = pipeline.process(turn, previous, companion.clock.today(), previous_user=before)
            stored += [w.memory.content for w in result.written]
            previous, before = REPLY, turn
        out.stored[case.id] = stored
    return out
