"""Handlers of the command-line verbs: each opens the profile, does one thing, prints, closes."""
from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Iterator

from app import cli_consolidate, maintenance
from app.chat import ChatService
from app.clock import Clock
from app.companion import Companion
from app.errors import AppError
from app.portability import export_json, export_markdown, import_memories, read_import
from app.private import write_private
from memory.forget import forget, forget_all
from memory.records import Memory
from memory.search import search
from memory.store import MAX_CONTENT, new_id


def _progress(done: int, total: int) -> None:
    print(f"\rre-embedding memories for the new embedding model: {done}/{total}", end="", file=sys.stderr)
    if done >= total:
        print(file=sys.stderr)


@contextmanager
def opened(args, home: Path, clock: Clock) -> Iterator[Companion]:
    """The profile, closed cleanly whatever happens."""
    companion = Companion(home, clock, model_override=getattr(args, "model", None), progress=_progress)
    try:
        yield companion
    finally:
        companion.close()


def _print_json(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=None))


def _line(m: Memory) -> str:
    flags = "".join([" 📌" if m.pinned else "", " (disabled)" if m.disabled else "",
                     f" [{m.status}]" if m.status != "active" else ""])
    when = f" @{m.event_date}" if m.event_date else ""
    return f"{m.id}  {m.category:<12} {m.content}{when}{flags}"


def say(args, home, clock) -> int:
    """One message, one reply; learning runs after the reply is printed."""
    with opened(args, home, clock) as c:
        chat = ChatService(c)
        stream_out = None if args.json else (lambda piece: print(piece, end="", flush=True))
        turn = chat.run(args.session, args.text, on_piece=stream_out)
        if not args.json:
            print(flush=True)
        if not args.json:
            learned = chat.learn(turn)
            if args.wait_memory:  # in words: the JSON shape is for --json
                for w in learned.written:
                    print(f"learned ({w.action}): {w.memory.content}")
                if not learned.written:
                    print("learned nothing new")
            return 0
        written = []
        if args.wait_memory:
            written = [w.to_json() for w in chat.learn(turn).written]
        _print_json({"session": turn.session_id, "reply": turn.reply.strip(),
                     "memories_used": [m.id for m in turn.memories], "memories_written": written})
        if not args.wait_memory:
            chat.learn(turn)
    return 0


def chat_loop(args, home, clock) -> int:
    """Chat in the terminal; Ctrl+C stops a reply, Ctrl+D or /quit leaves."""
    with opened(args, home, clock) as c:
        chat = ChatService(c)
        session = None
        print(f"Chatting with {c.settings.companion_name}. Ctrl+C stops a reply; /quit or Ctrl+D leaves.")
        while True:
            try:
                text = input("you> ").strip()
            except EOFError:
                print()
                return 0
            if text in ("/quit", "/exit"):
                return 0
            if not text:
                continue
            stop = {"now": False}
            turn = chat.prepare(session, text)
            session = turn.session_id
            print(f"{c.settings.companion_name}> ", end="", flush=True)
            try:
                for piece in chat.stream(turn, should_stop=lambda: stop["now"]):
                    print(piece, end="", flush=True)
            except KeyboardInterrupt:
                stop["now"], turn.stopped = True, True
                print(" [stopped]", end="")
            print()
            chat.finish(turn)
            chat.learn(turn)


def memory_extract(args, home, clock) -> int:
    """Run the pipeline on one message and say what it wrote and rejected."""
    with opened(args, home, clock) as c:
        result = c.pipeline(use_model=False if args.no_model else None).process(
            args.text, args.assistant, clock.today(), dry_run=args.dry_run, previous_user=args.previous_user)
        if args.json:
            _print_json(result.to_json())
            return 0
        verb = "would write" if args.dry_run else "wrote"
        for w in result.written:
            print(f"{verb} ({w.action}): {_line(w.memory)}")
        for r in result.rejected:
            print(f"rejected: {r.content!r} — {r.reason}")
        if not result.written and not result.rejected:
            print("nothing worth remembering found")
    return 0


def memory_list(args, home, clock) -> int:
    with opened(args, home, clock) as c:
        items = c.store.list(category=args.category, status=args.status)
        if args.json:
            _print_json([m.to_json() for m in items])
        else:
            print("\n".join(_line(m) for m in items) if items else "no memories")
    return 0


def memory_search(args, home, clock) -> int:
    if args.k < 1 or args.k > 1000:
        raise AppError("--k must be between 1 and 1000.")
    if (args.query is None) == (args.queries_file is None):
        raise AppError("Give either a QUERY or --queries-file FILE.")
    with opened(args, home, clock) as c:
        if args.queries_file:
            queries = _read_queries(Path(args.queries_file))
            vecs = c.embedder.embed([q or " " for q in queries]) if queries else []
            for q, vec in zip(queries, vecs):
                _print_json({"query": q, "results": [h.to_json() for h in search(c.store, q, args.k, query_vector=vec)]})
            return 0
        hits = search(c.store, args.query, args.k)
        if args.json:
            _print_json({"query": args.query, "results": [h.to_json() for h in hits]})
        else:
            print("\n".join(f"{h.score:.3f}  {_line(h.memory)}" for h in hits) if hits else "no matches")
    return 0


def _read_queries(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise AppError(f"Cannot read {path}: {exc.strerror}.") from exc


def memory_add(args, home, clock) -> int:
    """Add a memory by hand (source: explicit); the category is guessed by the rules if not given."""
    from memory.guard import instruction_reason
    reason = instruction_reason(args.text)
    if reason:
        raise AppError(f"Not remembered: that reads as an {reason}, and Companion only remembers facts about you.")
    event_date = _parse_date(args.date) if args.date else None
    with opened(args, home, clock) as c:
        # The rules slow down with length; too long a text is refused by the store anyway.
        category = args.category or _guess_category(args.text[:MAX_CONTENT], clock.today())
        with c.store.db.transaction():
            m = c.store.add(Memory(new_id(), category, args.text, source="explicit", confidence=1.0,
                                   importance=0.7, event_date=event_date, valid_from=clock.today().isoformat(),
                                   quote=args.text), reason="added by hand")
        if args.json:
            _print_json(m.to_json())
        else:
            print(f"remembered: {_line(m)}")
    return 0


def _guess_category(text: str, today: date) -> str:
    from memory.rules import extract_candidates
    cands = extract_candidates(text, None, today)
    return cands[0].category if cands else "profile"


def _parse_date(text: str) -> str:
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise AppError(f"--date must look like 2026-11-30, not {text!r}.") from None


def memory_edit(args, home, clock) -> int:
    changes: dict = {}
    if args.content is not None:
        changes["content"] = args.content
    if args.category:
        changes["category"] = args.category
    if args.importance is not None:
        if not 0 <= args.importance <= 1:
            raise AppError("--importance must be between 0 and 1.")
        changes["importance"] = args.importance
    for on, off, key in ((args.pin, args.unpin, "pinned"), (args.disable, args.enable, "disabled")):
        if on and off:
            raise AppError(f"Choose one of --{'pin' if key == 'pinned' else 'disable'} and its opposite.")
        if on or off:
            changes[key] = bool(on)
    if not changes:
        raise AppError("Nothing to change: give --content, --category, --importance, --pin/--unpin or --disable/--enable.")
    with opened(args, home, clock) as c:
        m = c.store.update(args.id, reason="edited by the user", **changes)
        _print_json(m.to_json()) if args.json else print(f"updated: {_line(m)}")
    return 0


def memory_forget(args, home, clock) -> int:
    if args.all == bool(args.ids):
        raise AppError("Give memory ids to forget, or --all (not both).")
    with opened(args, home, clock) as c:
        receipt = forget_all(c.store) if args.all else forget(c.store, list(dict.fromkeys(args.ids)))
        if args.json:
            _print_json(receipt.to_json())
            return 0
        print(f"forgot {len(receipt.forgotten)} memor{'y' if len(receipt.forgotten) == 1 else 'ies'}: "
              f"{', '.join(receipt.forgotten) or '-'}")
        print(f"checked: {', '.join(receipt.checked)}")
        print("verified: the text is in none of them" if receipt.verified
              else f"NOT verified: still found in {', '.join(receipt.found_in)}")
        if receipt.mentioned_in_sessions:
            print("note: your own words are still in the chat sessions "
                  f"{', '.join(receipt.mentioned_in_sessions)}; delete those sessions to remove them too.")
    return 0


def memory_history(args, home, clock) -> int:
    with opened(args, home, clock) as c:
        entries = c.store.history(args.id)
        if args.json:
            _print_json([asdict(e) for e in entries])
            return 0
        for e in entries:
            after = (e.after or {}).get("content") or ""
            print(f"{e.at}  {e.action:<8} {e.reason}" + (f"\n    {after}" if after else ""))
    return 0


def memory_export(args, home, clock) -> int:
    with opened(args, home, clock) as c:
        text = export_json(c.store) if args.format == "json" else export_markdown(c.store)
    if args.output:
        write_private(Path(args.output), text + "\n")
        print(f"exported to {args.output}. This file is not encrypted and is yours to look after: keep it somewhere "
              "safe. Forgetting a memory later does not remove it from this file.", file=sys.stderr)
    else:
        print(text)
    return 0


def memory_import(args, home, clock) -> int:
    items = read_import(Path(args.file))
    with opened(args, home, clock) as c:
        imported, skipped = import_memories(c.store, items)
    print(f"imported {len(imported)} memories" + (f", skipped {len(skipped)}" if skipped else ""))
    for content, reason in skipped[:20]:
        print(f"  skipped {content!r}: {reason}")
    return 0


def sessions_list(args, home, clock) -> int:
    with opened(args, home, clock) as c:
        items = c.transcript.sessions()
        if args.json:
            _print_json([asdict(s) for s in items])
        else:
            print("\n".join(f"{s.id}  {s.updated_at}  {s.message_count:>3} msgs  {s.title}" for s in items)
                  if items else "no sessions")
    return 0


def sessions_show(args, home, clock) -> int:
    with opened(args, home, clock) as c:
        c.transcript.get_session(args.id)
        msgs = c.transcript.messages(args.id)
        if args.json:
            _print_json([asdict(m) for m in msgs])
        else:
            for m in msgs:
                print(f"[{m.created_at}] {m.role}: {m.content}")
    return 0


def sessions_delete(args, home, clock) -> int:
    with opened(args, home, clock) as c:
        n = c.transcript.delete_session(args.id)
    print(f"deleted session {args.id} and its {n} messages")
    return 0


COMMANDS = {
    ("say", None): say, ("chat", None): chat_loop,
    ("memory", "extract"): memory_extract, ("memory", "list"): memory_list, ("memory", "search"): memory_search,
    ("memory", "add"): memory_add, ("memory", "edit"): memory_edit, ("memory", "forget"): memory_forget,
    ("memory", "history"): memory_history, ("memory", "export"): memory_export,
    ("memory", "import"): memory_import,
    ("sessions", "list"): sessions_list, ("sessions", "show"): sessions_show, ("sessions", "delete"): sessions_delete,
}
COMMANDS.update(maintenance.COMMANDS)
COMMANDS.update(cli_consolidate.COMMANDS)
