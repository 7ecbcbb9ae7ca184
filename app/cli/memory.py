"""`companion memory …`: every verb goes through `app.memory_service`, as the desktop's panel does.

Checks that need no database run before the profile is opened, so bad input never creates or
touches a profile; the service repeats them, so no other path can skip them.
"""
from __future__ import annotations

import sys
from dataclasses import asdict
from datetime import date
from pathlib import Path

from app.cli.common import line, opened, print_json
from app.errors import UserError
from app.memory_service import MemoryService, check_addable, check_k, consolidation_skipped, edit_changes
from app.portability import read_import
from memory import CATEGORIES
from memory.consolidation import ConsolidationResult, describe_change


def add_parsers(m) -> None:
    """Add the `memory` verbs to its sub-command parser."""
    ext = m.add_parser("extract")
    ext.add_argument("text")
    ext.add_argument("--assistant")
    ext.add_argument("--previous-user", help="the user's message before TEXT (read with it if it stopped mid-sentence)")
    ext.add_argument("--dry-run", action="store_true")
    ext.add_argument("--json", action="store_true")
    ext.add_argument("--no-model", action="store_true", help="rules only, without the chat model")
    ls = m.add_parser("list")
    ls.add_argument("--category", choices=CATEGORIES)
    ls.add_argument("--status", choices=("active", "superseded", "expired", "all"), default="active")
    ls.add_argument("--json", action="store_true")
    se = m.add_parser("search")
    se.add_argument("query", nargs="?")
    se.add_argument("--queries-file")
    se.add_argument("--k", type=int, default=10)
    se.add_argument("--json", action="store_true")
    add = m.add_parser("add")
    add.add_argument("text")
    add.add_argument("--category", choices=CATEGORIES)
    add.add_argument("--date")
    add.add_argument("--json", action="store_true")
    ed = m.add_parser("edit")
    ed.add_argument("id")
    ed.add_argument("--content")
    ed.add_argument("--category", choices=CATEGORIES)
    ed.add_argument("--importance", type=float)
    for flag in ("--pin", "--unpin", "--disable", "--enable", "--json"):
        ed.add_argument(flag, action="store_true")
    fg = m.add_parser("forget")
    fg.add_argument("ids", nargs="*")
    fg.add_argument("--all", action="store_true")
    fg.add_argument("--json", action="store_true")
    hi = m.add_parser("history")
    hi.add_argument("id")
    hi.add_argument("--json", action="store_true")
    ex = m.add_parser("export")
    ex.add_argument("--format", choices=("json", "md"), default="json")
    ex.add_argument("-o", "--output")
    m.add_parser("import").add_argument("file")
    con = m.add_parser(
        "consolidate", help="tidy memory now: merge duplicates, resolve contradictions, expire, rebuild the index")
    con.add_argument("--force", action="store_true",
                     help="run even if the last run was recent or few sessions changed (never past the lock)")
    con.add_argument("--json", action="store_true")
    m.add_parser("index", help="print the always-on index of what is remembered")


def memory_extract(args, home, clock) -> int:
    """Run the pipeline on one message and say what it wrote and rejected."""
    with opened(args, home, clock) as c:
        result = MemoryService(c).extract(args.text, args.assistant, dry_run=args.dry_run,
                                          previous_user=args.previous_user,
                                          use_model=False if args.no_model else None)
        if args.json:
            print_json(result.to_json())
            return 0
        verb = "would write" if args.dry_run else "wrote"
        for w in result.written:
            print(f"{verb} ({w.action}): {line(w.memory)}")
        for r in result.rejected:
            print(f"rejected: {r.content!r} — {r.reason}")
        if not result.written and not result.rejected:
            print("nothing worth remembering found")
    return 0


def memory_list(args, home, clock) -> int:
    """The memories of one status (and category)."""
    with opened(args, home, clock) as c:
        items = MemoryService(c).memories(category=args.category, status=args.status)
        if args.json:
            print_json([m.to_json() for m in items])
        else:
            print("\n".join(line(m) for m in items) if items else "no memories")
    return 0


def memory_search(args, home, clock) -> int:
    """Search one QUERY, or each line of --queries-file (one JSON object a line)."""
    check_k(args.k)
    if (args.query is None) == (args.queries_file is None):
        raise UserError("invalid_input", "Give either a QUERY or --queries-file FILE.")
    with opened(args, home, clock) as c:
        service = MemoryService(c)
        if args.queries_file:
            for query, hits in service.search_many(_read_queries(Path(args.queries_file)), args.k):
                print_json({"query": query, "results": [h.to_json() for h in hits]})
            return 0
        hits = service.search(args.query, args.k)
        if args.json:
            print_json({"query": args.query, "results": [h.to_json() for h in hits]})
        else:
            print("\n".join(f"{h.score:.3f}  {line(h.memory)}" for h in hits) if hits else "no matches")
    return 0


def _read_queries(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise UserError("file_unreadable", f"Cannot read {path}: {exc.strerror}.") from exc


def memory_add(args, home, clock) -> int:
    """Add a memory by hand (source: explicit); the category is guessed by the rules if not given."""
    check_addable(args.text)
    event_date = _parse_date(args.date) if args.date else None
    with opened(args, home, clock) as c:
        m = MemoryService(c).add(args.text, category=args.category, event_date=event_date)
        print_json(m.to_json()) if args.json else print(f"remembered: {line(m)}")
    return 0


def _parse_date(text: str) -> str:
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise UserError("invalid_input", f"--date must look like 2026-11-30, not {text!r}.") from None


def _flag(on: bool, off: bool, name: str) -> bool | None:
    if on and off:
        raise UserError("invalid_input", f"Choose one of --{name} and its opposite.")
    return True if on else False if off else None


def memory_edit(args, home, clock) -> int:
    """Change a memory's text, category or importance; pin or unpin, disable or enable it."""
    changes = edit_changes(args.content, args.category, args.importance,
                           pinned=_flag(args.pin, args.unpin, "pin"),
                           disabled=_flag(args.disable, args.enable, "disable"))
    with opened(args, home, clock) as c:
        m = MemoryService(c).edit(args.id, **changes)
        print_json(m.to_json()) if args.json else print(f"updated: {line(m)}")
    return 0


def memory_forget(args, home, clock) -> int:
    """Forget memories everywhere and print the receipt."""
    if args.all == bool(args.ids):
        raise UserError("invalid_input", "Give memory ids to forget, or --all (not both).")
    with opened(args, home, clock) as c:
        service = MemoryService(c)
        receipt = service.forget_all() if args.all else service.forget(args.ids)
    if args.json:
        print_json(receipt.to_json())
        return 0
    n = len(receipt.forgotten)
    print(f"forgot {n} memor{'y' if n == 1 else 'ies'}: {', '.join(receipt.forgotten) or '-'}")
    print(f"checked: {', '.join(receipt.checked)}")
    print("verified: the text is in none of them" if receipt.verified
          else f"NOT verified: still found in {', '.join(receipt.found_in)}")
    if receipt.mentioned_in_sessions:
        print("note: your own words are still in the chat sessions "
              f"{', '.join(receipt.mentioned_in_sessions)}; delete those sessions to remove them too.")
    return 0


def memory_history(args, home, clock) -> int:
    """The recorded changes of one memory."""
    with opened(args, home, clock) as c:
        entries = MemoryService(c).history(args.id)
    if args.json:
        print_json([asdict(e) for e in entries])
        return 0
    for e in entries:
        after = (e.after or {}).get("content") or ""
        print(f"{e.at}  {e.action:<8} {e.reason}" + (f"\n    {after}" if after else ""))
    return 0


def memory_export(args, home, clock) -> int:
    """Every memory to -o FILE, or to stdout."""
    with opened(args, home, clock) as c:
        service = MemoryService(c)
        if args.output:
            service.export(Path(args.output), args.format)
        else:
            text = service.export_text(args.format)
    if args.output:
        print(f"exported to {args.output}. This file is not encrypted and is yours to look after: keep it somewhere "
              "safe. Forgetting a memory later does not remove it from this file.", file=sys.stderr)
    else:
        print(text)
    return 0


def memory_import(args, home, clock) -> int:
    """Import an export file; what cannot be imported is skipped and said."""
    items = read_import(Path(args.file))
    with opened(args, home, clock) as c:
        imported, skipped = MemoryService(c).import_items(items)
    print(f"imported {len(imported)} memories" + (f", skipped {len(skipped)}" if skipped else ""))
    for content, reason in skipped[:20]:
        print(f"  skipped {content!r}: {reason}")
    return 0


def memory_consolidate(args, home, clock) -> int:
    """Run consolidation now; the gates that need no database are checked before the profile is opened."""
    reason = consolidation_skipped(home, clock.now(), args.force)
    if reason is not None:
        result = ConsolidationResult(ran=False, skipped_reason=reason)
    else:
        with opened(args, home, clock) as c:
            result = MemoryService(c).consolidate(force=args.force, progress=None if args.json else _progress)
    if args.json:
        print_json(result.to_json())
    elif not result.ran:
        print(f"not run: {result.skipped_reason}")
    else:
        print(f"consolidated: merged {result.merged}, superseded {result.superseded}, expired {result.expired}, "
              f"decayed {result.decayed}, purged {result.purged}; index {result.index_lines} lines")
        for item in result.details:
            print("  " + describe_change(item))
    return 0


def memory_index(args, home, clock) -> int:
    """Print the index (rebuilt first if missing or stale)."""
    with opened(args, home, clock) as c:
        text = MemoryService(c).index()
    print(text or "the index is empty: nothing is remembered yet")
    return 0


def _progress(phase: str) -> None:
    if sys.stderr.isatty():
        print(f"consolidating: {phase}…", file=sys.stderr)


COMMANDS = {("memory", verb): handler for verb, handler in {
    "extract": memory_extract, "list": memory_list, "search": memory_search, "add": memory_add,
    "edit": memory_edit, "forget": memory_forget, "history": memory_history, "export": memory_export,
    "import": memory_import, "consolidate": memory_consolidate, "index": memory_index}.items()}
