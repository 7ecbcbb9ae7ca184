"""`companion say TEXT` and `companion chat`: talking, from a script or in the terminal."""
from __future__ import annotations

import logging
import sys
import threading
from typing import Callable

from app.chat import ChatService
from app.cli.common import opened, print_json
from app.follow_ups import open_conversation
from app.errors import UserError
from models.errors import EngineError, ModelError

log = logging.getLogger(__name__)


def add_parsers(sub) -> None:
    """Add `chat` and `say` to the top-level sub-command parser."""
    private_help = "a private conversation: not saved, nothing learned (memories are still used)"
    sub.add_parser("chat", help="chat in the terminal").add_argument("--private", action="store_true", help=private_help)
    say_parser = sub.add_parser("say", help="send one message and print the reply")
    say_parser.add_argument("text")
    say_parser.add_argument("--session")
    say_parser.add_argument("--json", action="store_true")
    say_parser.add_argument("--wait-memory", action="store_true")
    say_parser.add_argument("--private", action="store_true", help=private_help)


def say(args, home, clock) -> int:
    """One message, one reply; learning runs after the reply is printed (never with --private)."""
    if args.private and args.session:
        raise UserError("invalid_input", "A private conversation is never saved, so it cannot continue session "
                                         f"{args.session}; leave out --session or --private.")
    with opened(args, home, clock) as c:
        chat = ChatService(c, private=args.private)
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
                    print("learned nothing: this conversation is private" if args.private else "learned nothing new")
            return 0
        written = []
        if args.wait_memory:
            written = [w.to_json() for w in chat.learn(turn).written]
        print_json({"session": None if args.private else turn.session_id, "reply": turn.reply.strip(),
                    "memories_used": [m.id for m in turn.memories], "memories_written": written,
                    "private": args.private})
        if not args.wait_memory:
            chat.learn(turn)
    return 0


def chat_loop(args, home, clock) -> int:
    """Chat in the terminal; Ctrl+C stops a reply, Ctrl+D or /quit leaves."""
    with opened(args, home, clock) as c:
        chat = ChatService(c, private=args.private)
        print(f"Chatting with {c.settings.companion_name}. Ctrl+C stops a reply; /quit or Ctrl+D leaves.")
        prompt = "you (private)> " if args.private else "you> "  # said on every line while it lasts
        if args.private:  # no follow-up either: it would open a saved conversation
            print("Private conversation: nothing is saved or learned (memories are still used); "
                  "it is gone when you leave.")
        session = None if args.private else _follow_up(c)
        typed = sys.stdin.isatty()  # a person typing, not lines piped in: there is time to work ahead
        warm = [False]

        def ahead(should_stop: Callable[[], bool]) -> None:
            if not warm[0]:
                c.warm_up()  # the engine starts and the embedders load while the first message is typed
                warm[0] = True
            chat.evaluate_conversation(session, should_stop)

        while True:
            work = _WhileTyping(ahead) if typed else None
            try:
                text = input(prompt).strip()
            except EOFError:
                print()
                return 0
            finally:
                if work is not None:
                    work.stop()
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


class _WhileTyping:
    """Work on a thread while the terminal waits for the user's line: `work(should_stop)`, told to stop (and waited
    for, at most one engine step of ~0.1 s) once the line is in, so the turn then has the engine and the database to
    itself. A failure here is only logged: the turn meets it again and says it."""

    def __init__(self, work: Callable[[Callable[[], bool]], None]) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(work,), daemon=True, name="companion-ahead")
        self._thread.start()

    def _run(self, work: Callable[[Callable[[], bool]], None]) -> None:
        try:
            work(self._stop.is_set)
        except (EngineError, ModelError, UserError) as e:
            log.info("work ahead of the next message failed: %s", e)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


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
