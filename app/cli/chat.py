"""`companion say TEXT` and `companion chat`: talking, from a script or in the terminal."""
from __future__ import annotations

import sys

from app.chat import ChatService
from app.cli.common import opened, print_json
from app.follow_ups import open_conversation
from models.errors import EngineError


def add_parsers(sub) -> None:
    """Add `chat` and `say` to the top-level sub-command parser."""
    sub.add_parser("chat", help="chat in the terminal")
    say_parser = sub.add_parser("say", help="send one message and print the reply")
    say_parser.add_argument("text")
    say_parser.add_argument("--session")
    say_parser.add_argument("--json", action="store_true")
    say_parser.add_argument("--wait-memory", action="store_true")


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
        print_json({"session": turn.session_id, "reply": turn.reply.strip(),
                    "memories_used": [m.id for m in turn.memories], "memories_written": written})
        if not args.wait_memory:
            chat.learn(turn)
    return 0


def chat_loop(args, home, clock) -> int:
    """Chat in the terminal; Ctrl+C stops a reply, Ctrl+D or /quit leaves."""
    with opened(args, home, clock) as c:
        chat = ChatService(c)
        print(f"Chatting with {c.settings.companion_name}. Ctrl+C stops a reply; /quit or Ctrl+D leaves.")
        session = _follow_up(c)
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
            except EngineError as e:  # the partial reply is kept, marked; the next message starts a new engine
                print(" [interrupted]", end="")
                print(f"\n{e}", file=sys.stderr, end="")
            print()
            chat.finish(turn)
            chat.learn(turn)


def _follow_up(c) -> str | None:
    """Open with the follow-up due, if any, and the memory it came from; its conversation's id."""
    opening = open_conversation(c)
    if opening is None:
        return None
    memory = opening.follow_up.memory
    print(f"{c.settings.companion_name}> {opening.follow_up.text}")
    print(f"  (from memory {memory.id}: {memory.content})")
    return opening.session_id


COMMANDS = {("say", None): say, ("chat", None): chat_loop}
