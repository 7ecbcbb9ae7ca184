"""`companion sessions list|show ID|delete ID|forget ID`: the chat sessions kept as raw signal."""
from __future__ import annotations

from dataclasses import asdict

from app.cli.common import opened, print_json
from app.conversation_forget import forget_conversation, receipt_lines


def add_parsers(sub, parser_class) -> None:
    """Add `sessions` and its verbs to the top-level sub-command parser."""
    ses = sub.add_parser("sessions", help="chat sessions").add_subparsers(dest="sessions_command",
                                                                          parser_class=parser_class, required=True)
    ses.add_parser("list").add_argument("--json", action="store_true")
    show = ses.add_parser("show")
    show.add_argument("id")
    show.add_argument("--json", action="store_true")
    ses.add_parser("delete").add_argument("id")
    forget = ses.add_parser("forget", help="forget a conversation and every memory only it taught (prints a receipt)")
    forget.add_argument("id")
    forget.add_argument("--json", action="store_true")


def sessions_list(args, home, clock) -> int:
    """Every session, most recent first."""
    with opened(args, home, clock) as c:
        items = c.transcript.sessions()
        if args.json:
            print_json([asdict(s) for s in items])
        else:
            print("\n".join(f"{s.id}  {s.updated_at}  {s.message_count:>3} msgs  {s.title}" for s in items)
                  if items else "no sessions")
    return 0


def sessions_show(args, home, clock) -> int:
    """The messages of one session."""
    with opened(args, home, clock) as c:
        c.transcript.get_session(args.id)
        msgs = c.transcript.messages(args.id)
        if args.json:
            print_json([asdict(m) for m in msgs])
        else:
            for m in msgs:
                print(f"[{m.created_at}] {m.role}: {m.content}")
    return 0


def sessions_delete(args, home, clock) -> int:
    """Delete one session and its messages."""
    with opened(args, home, clock) as c:
        n = c.delete_session(args.id)
    print(f"deleted session {args.id} and its {n} messages")
    return 0


def sessions_forget(args, home, clock) -> int:
    """Forget one conversation: its messages, the memories only it taught, its words elsewhere; print the receipt."""
    with opened(args, home, clock) as c:
        receipt = forget_conversation(c, args.id)
    if args.json:
        print_json(receipt.to_json())
    else:
        print("\n".join(receipt_lines(receipt)))
    return 0


COMMANDS = {("sessions", "list"): sessions_list, ("sessions", "show"): sessions_show,
            ("sessions", "delete"): sessions_delete, ("sessions", "forget"): sessions_forget}
