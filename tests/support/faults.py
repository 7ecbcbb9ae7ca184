"""Fault injection: SIGKILL a writing process at a random moment, then prove nothing committed was lost.

Two kinds of victims. The crash writer (`tests.support.crash_writer`) runs the real app code in a loop
and reports every commit on stdout, so the check is exact: every reported memory, message and edit
must be there. The real console script (`companion memory import / extract / edit / consolidate`,
`say --wait-memory`, `key rotate`) is killed mid-command; what its completed commands reported must be
there, re-running a killed import must finish the job, and a killed re-key must never lock the user out.

After each kill: `PRAGMA integrity_check` is ok, memories / full-text index / vectors agree row for
row (and messages / their index), and every committed row is present.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from app.clock import Clock
from app.companion import Companion
from app.keys import obtain_key
from app.maintenance import open_database
from memory.records import Memory
from memory.storage import repair
from memory.storage.store import _SELECT, _row_to_memory
from tests.support.crash_writer import chat_message, import_items, state_hash

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(sys.executable).with_name("companion")
DB_FILE = "companion.db"
WRITER_MODES = ("import", "extract", "consolidate", "edit")
CLI_MODES = ("cli-import", "cli-extract", "cli-edit", "cli-say", "cli-consolidate", "cli-rekey")
TODAY = "2026-11-29"


@dataclass
class Ledger:
    """What the killed process (and the commands before it) reported as committed."""

    memories: set[str] = field(default_factory=set)
    messages: set[str] = field(default_factory=set)
    edits: dict[str, set[str]] = field(default_factory=dict)  # memory id -> acceptable state hashes
    lines: int = 0


@dataclass
class RoundResult:
    """One kill and what the reopened database said about it."""

    mode: str
    seed: int
    killed: bool
    integrity: str
    consistency: str
    committed: int
    lost: list[str]
    note: str = ""
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.integrity == "ok" and self.consistency == "" and not self.lost and not self.error

    def line(self) -> str:
        status = "ok" if self.ok else "FAILED"
        return (f"{self.mode:<16} seed={self.seed:<6} killed={'yes' if self.killed else 'no (finished)'} "
                f"committed={self.committed:<5} lost={len(self.lost)} integrity={self.integrity} "
                f"{self.consistency or 'consistent'} {self.note}{self.error} -> {status}")


# -- running and killing ---------------------------------------------------------------------------
def _spawn(cmd: list[str], env: dict | None = None) -> tuple[subprocess.Popen, list[str], threading.Thread]:
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})
    lines: list[str] = []

    def pump() -> None:
        for line in proc.stdout:
            if line.endswith("\n"):  # a line cut by the kill tells nothing
                lines.append(line.rstrip("\n"))
    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    return proc, lines, reader


def _kill_after(proc: subprocess.Popen, lines: list[str], rng: random.Random, wait_ready: bool,
                window: tuple[float, float]) -> bool:
    """SIGKILL the process a random time after it is ready (or after start); False if it ended first."""
    start = time.monotonic()
    if wait_ready:
        while "READY" not in lines and proc.poll() is None and time.monotonic() - start < 120:
            time.sleep(0.01)
    time.sleep(rng.uniform(*window))
    if proc.poll() is not None:
        return False
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return True


def _finish(proc: subprocess.Popen, reader: threading.Thread) -> str:
    reader.join(timeout=10)
    err = proc.stderr.read()
    proc.stderr.close()
    proc.stdout.close()
    return err


def cli(home: Path, *args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run the console script to completion."""
    cmd = [str(CLI), "--home", str(home), "--today", TODAY, *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


# -- the crash writer --------------------------------------------------------------------------------
def writer_round(home: Path, mode: str, seed: int, ledger: Ledger, at_start: bool = False) -> RoundResult:
    """Start the crash writer in `mode`, kill it at a random moment, record what it reported, verify."""
    rng = random.Random(seed)
    cmd = [sys.executable, "-m", "tests.support.crash_writer", "--home", str(home), "--mode", mode,
           "--seed", str(seed), "--today", TODAY]
    proc, lines, reader = _spawn(cmd)
    killed = _kill_after(proc, lines, rng, wait_ready=not at_start, window=(0.0, 3.0) if at_start else (0.05, 4.0))
    err = _finish(proc, reader)
    _read_ledger(lines, ledger)
    result = verify(home, mode, seed, killed, ledger)
    if not killed:  # the writer loops until killed: ending by itself means it failed
        result.error = f"the writer exited {proc.returncode} by itself: {err.strip()[-500:]}"
    return result


def _read_ledger(lines: list[str], ledger: Ledger) -> None:
    for line in lines:
        kind, _, rest = line.partition(" ")
        if kind == "M":
            ledger.memories.add(rest)
        elif kind == "S":
            ledger.messages.add(rest)
        elif kind == "B":  # in flight: the state before or the planned one may be what the kill left
            mid, before, planned = rest.split()
            ledger.edits[mid] = ledger.edits.get(mid, {before}) | {planned}
        elif kind == "E":  # committed: from now on only this state (or a later edit's) is acceptable
            mid, state = rest.split()
            ledger.edits[mid] = {state}
    ledger.lines += len(lines)


# -- the console script ------------------------------------------------------------------------------
def cli_round(home: Path, mode: str, seed: int, ledger: Ledger, work: Path) -> RoundResult:
    """Run a few complete commands of this kind, then one that is killed mid-way; verify."""
    rng = random.Random(seed)
    if mode == "cli-import":
        return _import_round(home, seed, ledger, work, rng)
    if mode == "cli-consolidate" and not _has_consolidate():
        return RoundResult(mode, seed, False, "ok", "", 0, [], "(no `memory consolidate` command yet)")
    victims = {"cli-extract": _extract_victim, "cli-say": _say_victim, "cli-edit": _edit_victim,
               "cli-rekey": _rekey_victim, "cli-consolidate": _consolidate_victim}
    args, window = victims[mode](home, seed, ledger, work, rng)
    killed = _kill_cli(home, args, rng, window, ledger)
    return verify(home, mode, seed, killed, ledger)


def _import_round(home: Path, seed: int, ledger: Ledger, work: Path, rng: random.Random) -> RoundResult:
    """A long import killed mid-way; then the same import again must finish the job."""
    items = import_items(seed, 400)
    export = _export(work / f"import-{seed}.json", items)
    killed = _kill_cli(home, ["memory", "import", str(export)], rng, (1.0, 6.0), ledger)
    result = verify(home, "cli-import", seed, killed, ledger)
    done = cli(home, "memory", "import", str(export))
    ledger.memories.update(i["id"] for i in items)
    if done.returncode != 0:
        result.error = f"the re-run failed: {done.stderr.strip()}"
        return result
    after = verify(home, "cli-import", seed, killed, ledger)
    result.lost, result.committed, result.note = after.lost, after.committed, "(re-run completed the import)"
    return result


def _export(path: Path, items: list[dict]) -> Path:
    path.write_text(json.dumps({"format": "companion-memories", "version": 1, "memories": items}))
    return path


def _extract_victim(home, seed, ledger, work, rng) -> tuple[list[str], tuple[float, float]]:
    for _ in range(rng.randint(0, 1)):
        _cli_extract(home, chat_message(rng), ledger)
    return ["memory", "extract", chat_message(rng), "--json"], (0.8, 3.0)


def _say_victim(home, seed, ledger, work, rng) -> tuple[list[str], tuple[float, float]]:
    return ["say", chat_message(rng), "--wait-memory", "--json"], (1.5, 8.0)


def _edit_victim(home, seed, ledger, work, rng) -> tuple[list[str], tuple[float, float]]:
    mid = rng.choice(_ensure_panel_notes(home, ledger))
    content = f"Panel note edited from the command line, seed {seed}"
    current = _memory(home, mid)  # just verified: the truth before this edit
    ledger.edits[mid] = {state_hash(Memory(**current)), state_hash(Memory(**{**current, "content": content}))}
    return ["memory", "edit", mid, "--content", content], (0.8, 3.0)


def _rekey_victim(home, seed, ledger, work, rng) -> tuple[list[str], tuple[float, float]]:
    if not ledger.memories:  # something worth locking out first
        items = import_items(seed, 150)
        if cli(home, "memory", "import", str(_export(work / f"rekey-{seed}.json", items))).returncode != 0:
            raise AssertionError("could not fill the profile to re-key")
        ledger.memories.update(i["id"] for i in items)
    return ["key", "rotate"], (0.5, 3.5)


def _consolidate_victim(home, seed, ledger, work, rng) -> tuple[list[str], tuple[float, float]]:
    for _ in range(rng.randint(3, 5)):  # new memories, repeats and contradictions for it to work on
        _cli_extract(home, chat_message(rng), ledger)
    return ["memory", "consolidate", "--force", "--json"], (0.8, 3.0)


def _kill_cli(home: Path, args: list[str], rng: random.Random, window: tuple[float, float], ledger: Ledger) -> bool:
    """Run one command and SIGKILL it at a random moment; if it finished first, take its report."""
    cmd = [str(CLI), "--home", str(home), "--today", TODAY, *args]
    proc, lines, reader = _spawn(cmd)
    killed = _kill_after(proc, lines, rng, wait_ready=False, window=window)
    err = _finish(proc, reader)
    if not killed:
        if proc.returncode != 0:
            raise AssertionError(f"{args[:2]} failed by itself ({proc.returncode}): {err.strip()}")
        _ledger_from_json(lines, ledger)
    return killed


def _ledger_from_json(lines: list[str], ledger: Ledger) -> None:
    try:
        data = json.loads(lines[-1]) if lines else None
    except ValueError:
        return
    if isinstance(data, dict):
        ledger.memories.update(w["id"] for w in data.get("written", []) + data.get("memories_written", []))


_CONSOLIDATE: list[bool] = []


def _has_consolidate() -> bool:
    """Whether this build has `companion memory consolidate` (it came with its own issue)."""
    if not _CONSOLIDATE:
        _CONSOLIDATE.append(cli(Path(tempfile.gettempdir()), "memory", "consolidate", "--help")
                            .returncode == 0)
    return _CONSOLIDATE[0]


def _cli_extract(home: Path, text: str, ledger: Ledger) -> None:
    done = cli(home, "memory", "extract", text, "--json")
    if done.returncode != 0:
        raise AssertionError(f"memory extract {text!r} failed: {done.stderr}")
    ledger.memories.update(w["id"] for w in json.loads(done.stdout)["written"])


def _ensure_panel_notes(home: Path, ledger: Ledger) -> list[str]:
    listed = json.loads(cli(home, "memory", "list", "--status", "all", "--json").stdout or "[]")
    ids = [m["id"] for m in listed if m["content"].startswith("Panel note")]
    while len(ids) < 3:
        done = cli(home, "memory", "add", f"Panel note {len(ids)} from the command line", "--category",
                   "profile", "--json")
        ids.append(json.loads(done.stdout)["id"])
        ledger.memories.add(ids[-1])
    return ids


def _memory(home: Path, memory_id: str) -> dict:
    db = _open(home)
    try:
        cols = [f for f in Memory.__dataclass_fields__ if f not in ("topic", "quote", "session_id", "message_id")]
        row = db.conn.execute(f"SELECT {', '.join(cols)} FROM memories WHERE id = ?", (memory_id,)).fetchone()
        return {**dict(zip(cols, row)), "pinned": bool(row[cols.index("pinned")]),
                "disabled": bool(row[cols.index("disabled")])}
    finally:
        db.close()


# -- verification -------------------------------------------------------------------------------------
def _open(home: Path):
    """The profile's database opened the way the app opens it (an interrupted re-key is finished here)."""
    path = home / DB_FILE
    return open_database(path, obtain_key(path), lambda: None)[0]


def verify(home: Path, mode: str, seed: int, killed: bool, ledger: Ledger, note: str = "") -> RoundResult:
    """Reopen after the kill: integrity, row-for-row agreement, and every committed row present."""
    path = home / DB_FILE
    committed = len(ledger.memories) + len(ledger.messages) + len(ledger.edits)
    if not path.exists() or path.stat().st_size == 0:
        lost = sorted(ledger.memories | ledger.messages)
        return RoundResult(mode, seed, killed, "ok", "", committed, lost, "(no database yet)")
    db = _open(home)
    try:
        integrity = "; ".join(r[0] for r in db.conn.execute("PRAGMA integrity_check").fetchall())
        found = repair.check(db.conn, deep=True)
        memories = {m.id: m for m in map(_row_to_memory, db.conn.execute(_SELECT).fetchall())}
        messages = {r[0] for r in db.conn.execute("SELECT id FROM messages")}
    finally:
        db.close()
    lost = sorted((ledger.memories - set(memories)) | (ledger.messages - messages))
    for mid, states in ledger.edits.items():
        if mid in memories and state_hash(memories[mid]) not in states:
            lost.append(f"{mid} (edit lost: state {state_hash(memories[mid])} not in {sorted(states)})")
    return RoundResult(mode, seed, killed, integrity, "" if found.clean else found.summary(), committed, lost, note)


def reopen_with_app(home: Path) -> repair.Consistency:
    """Open the profile the way the app does (start-up check included); what the check repaired."""
    c = Companion(home, Clock.parse(TODAY))
    try:
        return repair.repair(c.db, c.embedder, deep=True)
    finally:
        c.close()


# -- a whole campaign -----------------------------------------------------------------------------------
def campaign(base: Path, kills: int, seed: int, modes: tuple[str, ...] = WRITER_MODES + CLI_MODES,
             report=print) -> list[RoundResult]:
    """Rounds cycling through `modes` until `kills` processes were really killed mid-way (a command that
    finished before its kill moment does not count); one home per mode, so crashes pile up on one file."""
    results: list[RoundResult] = []
    ledgers: dict[str, Ledger] = {}
    n = 0
    while sum(r.killed for r in results) < kills and n < 2 * kills:
        mode = modes[n % len(modes)]
        round_seed = seed * 1000 + n
        home = base / mode
        home.mkdir(parents=True, exist_ok=True)
        ledger = ledgers.setdefault(mode, Ledger())
        if mode in WRITER_MODES:
            # Now and then kill while the process is still starting up (keyring, migrations, model load).
            at_start = random.Random(round_seed).random() < 0.15
            result = writer_round(home, mode, round_seed, ledger, at_start=at_start)
        else:
            result = cli_round(home, mode, round_seed, ledger, base)
        results.append(result)
        report(result.line())
        n += 1
    return results
