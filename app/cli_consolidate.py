"""`companion memory consolidate [--force] [--json]` and `companion memory index`.

Only argparse work happens at import time: app/cli.py imports this module to build the parser and
app/commands.py to dispatch, so the handlers import the profile machinery when they run.
"""
from __future__ import annotations

import json
import sys

from app.clock import Clock


def add_parsers(memory_subparsers) -> None:
    """Add `consolidate` and `index` to the `memory` sub-command parser."""
    con = memory_subparsers.add_parser(
        "consolidate", help="tidy memory now: merge duplicates, resolve contradictions, expire, rebuild the index")
    con.add_argument("--force", action="store_true",
                     help="run even if the last run was recent or few sessions changed (never past the lock)")
    con.add_argument("--json", action="store_true")
    memory_subparsers.add_parser("index", help="print the always-on index of what is remembered")


def memory_consolidate(args, home, clock: Clock) -> int:
    """Run consolidation now; the gates that need no database are checked before the profile is opened."""
    from app.commands import opened
    from app.scheduler import consolidate_profile, gates_for, lock_for
    from app.settings import Settings
    from memory.consolidation import ConsolidationResult, describe_change, precheck

    reason = precheck(lock_for(home), clock.now(), gates_for(Settings.load(home)), args.force)
    if reason is not None:
        result = ConsolidationResult(ran=False, skipped_reason=reason)
    else:
        with opened(args, home, clock) as c:
            result = consolidate_profile(c, force=args.force, progress=None if args.json else _progress)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    elif not result.ran:
        print(f"not run: {result.skipped_reason}")
    else:
        print(f"consolidated: merged {result.merged}, superseded {result.superseded}, expired {result.expired}, "
              f"decayed {result.decayed}, purged {result.purged}; index {result.index_lines} lines")
        for item in result.details:
            print("  " + describe_change(item))
    return 0


def memory_index(args, home, clock: Clock) -> int:
    """Print the index (rebuilt first if missing or stale)."""
    from app.commands import opened
    from memory.recall import current_index

    with opened(args, home, clock) as c:
        text = current_index(c.store)
    print(text or "the index is empty: nothing is remembered yet")
    return 0


def _progress(phase: str) -> None:
    if sys.stderr.isatty():
        print(f"consolidating: {phase}…", file=sys.stderr)


COMMANDS = {("memory", "consolidate"): memory_consolidate, ("memory", "index"): memory_index}
