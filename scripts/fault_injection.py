#!/usr/bin/env python3
"""The long fault-injection run: N SIGKILLs at random points while the app writes, each checked after reopening.

  .venv/bin/python scripts/fault_injection.py [--kills 100] [--seed 1] [--modes import,extract,...] [--keep DIR]

Victims cycle through the crash writer (long import, extraction after turns, consolidation, panel
edits) and the real console script (`memory import`, `memory extract`, `memory edit`, `say
--wait-memory`, `memory consolidate`). After each kill the database is reopened: integrity_check,
memories / full-text index / vectors row for row, and every committed row present. Prints one line
per kill, then kills survived and rows lost. The same seed replays the same kill points. CI runs a
small count of the same thing (tests/test_crash_safety.py).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.sandbox import isolate  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kills", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--modes", help="comma-separated subset of the victims (default: all)")
    p.add_argument("--keep", help="work in this folder and keep it (default: a temporary folder)")
    args = p.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="companion-faults-"))
    base.mkdir(parents=True, exist_ok=True)
    isolate(base)
    from tests.support.faults import CLI_MODES, WRITER_MODES, campaign
    modes = tuple(args.modes.split(",")) if args.modes else WRITER_MODES + CLI_MODES
    unknown = set(modes) - set(WRITER_MODES + CLI_MODES)
    if unknown:
        p.error(f"unknown modes: {', '.join(sorted(unknown))}")
    started = time.monotonic()
    results = campaign(base, args.kills, args.seed, modes, report=lambda line: print(line, flush=True))
    killed = [r for r in results if r.killed]
    survived = [r for r in killed if r.ok]
    lost = sum(len(r.lost) for r in results)
    failed = [r for r in results if not r.ok]
    print()
    print(f"kills: {len(killed)} in {len(results)} rounds (seed {args.seed}; in the other rounds the command "
          f"finished before its kill moment)")
    print(f"kills survived: {len(survived)} of {len(killed)}")
    print(f"rows lost: {lost}")
    print(f"failed rounds: {len(failed)}; integrity/consistency problems: "
          f"{sum(1 for r in results if r.integrity != 'ok' or r.consistency)}")
    print(f"committed rows checked in the last round of each victim: "
          f"{sum(max((r.committed for r in results if r.mode == m), default=0) for m in modes)}")
    print(f"time: {time.monotonic() - started:.0f} s; data in {base}")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
