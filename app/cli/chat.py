"""`companion say TEXT` and `companion chat`: talking, from a script or in the terminal."""
from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Callable

from app.chat import TYPING_PAUSE_MS, ChatService
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
        draft = line_buffer() if typed else None
        warm = [False]

        def ahead(should_stop: Callable[[], bool]) -> None:
            if not warm[0]:
                c.warm_up()  # the engine starts and the embedders load while the first message is typed
                warm[0] = True
            chat.evaluate_conversation(session, should_stop)
            if draft is not None:  # then, as the window does, each paused draft with the note it brings
                watch_drafts(draft, on_pause, should_stop)

        def on_pause(text: str, changed: Callable[[], bool]) -> None:
            chat.anticipate(text, session, changed)
            if not changed():
                log.info("a paused draft was evaluated ahead (%d characters)", len(text))

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
            evaluated = c.chat_model().last_prompt if turn.answer is None else None
            if evaluated is not None:
                log.info("prompt tokens after Enter: %d evaluated, %d reused", evaluated.evaluated, evaluated.reused)
            chat.learn(turn)


def line_buffer() -> Callable[[], str] | None:
    """What is typed on the terminal's line so far, readable from another thread while `input()` waits (GNU readline
    or libedit, which `input()` then also edits lines with); None where Python has no readline: the terminal then
    works ahead only between turns."""
    try:
        import readline
    except ImportError:
        return None
    return readline.get_line_buffer


def watch_drafts(read: Callable[[], str], on_pause: Callable[[str, Callable[[], bool]], object],
                 should_stop: Callable[[], bool], pause: float = TYPING_PAUSE_MS / 1000, poll: float = 0.05) -> None:
    """Until `should_stop()`: each time the draft `read()` returns has stayed the same for `pause` seconds (and is not
    empty or the draft last worked on), `on_pause(draft, changed)`, where `changed()` is true once the draft changed
    or the line was sent — the work then stops at its next step, keeping what it did."""
    seen, since, done = read(), time.monotonic(), ""
    while not should_stop():
        time.sleep(poll)
        now = read()
        if now != seen:
            seen, since = now, time.monotonic()
        elif now.strip() and now != done and time.monotonic() - since >= pause:
            done = now
            on_pause(now, lambda: should_stop() or read() != now)


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
