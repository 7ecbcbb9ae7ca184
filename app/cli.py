"""The `companion` command line (contract in ARCHITECTURE.md). Bad input: one line on stderr, non-zero exit."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from typing import Callable, Sequence

from app import cli_consolidate
from app.clock import Clock
from app.errors import USER_ERRORS, AppError
from app.settings import resolve_home
from memory.records import CATEGORIES

EXIT_USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one clear line, not argparse's usage dump
        self.exit(EXIT_USER_ERROR, f"companion: {message} (see companion --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The whole command tree."""
    p = _Parser(prog="companion", description="A private, offline companion that remembers you. "
                "Run without a command to open the desktop window.",
                epilog="With no COMMAND, `companion` opens the desktop app; the commands work in the terminal.")
    p.add_argument("--home", help="data folder (default: COMPANION_HOME or your user data folder)")
    p.add_argument("--today", help="fix the clock to this date (YYYY-MM-DD)")
    p.add_argument("--model", help="chat model GGUF file to use")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    sub.add_parser("chat", help="chat in the terminal")
    say = sub.add_parser("say", help="send one message and print the reply")
    say.add_argument("text")
    say.add_argument("--session")
    say.add_argument("--json", action="store_true")
    say.add_argument("--wait-memory", action="store_true")
    _memory_parsers(sub.add_parser("memory", help="see and change what is remembered").add_subparsers(
        dest="memory_command", parser_class=_Parser, required=True))
    ses = sub.add_parser("sessions", help="chat sessions").add_subparsers(dest="sessions_command",
                                                                          parser_class=_Parser, required=True)
    ses.add_parser("list").add_argument("--json", action="store_true")
    show = ses.add_parser("show")
    show.add_argument("id")
    show.add_argument("--json", action="store_true")
    ses.add_parser("delete").add_argument("id")
    models = sub.add_parser("models", help="model files").add_subparsers(dest="models_command",
                                                                          parser_class=_Parser, required=True)
    models.add_parser("status").add_argument("--json", action="store_true")
    key = sub.add_parser("key", help="the database key").add_subparsers(dest="key_command",
                                                                        parser_class=_Parser, required=True)
    key.add_parser("rotate", help="re-encrypt the database under a new key (close the desktop app first)"
                   ).add_argument("--passphrase", action="store_true",
                                  help="a new passphrase (COMPANION_NEW_DB_KEY, or typed) instead of a keyring key")
    return p


def _memory_parsers(m) -> None:
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
    ed.add_argument("--pin", action="store_true")
    ed.add_argument("--unpin", action="store_true")
    ed.add_argument("--disable", action="store_true")
    ed.add_argument("--enable", action="store_true")
    ed.add_argument("--json", action="store_true")
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
    cli_consolidate.add_parsers(m)


DesktopLauncher = Callable[..., int]


def main(argv: Sequence[str] | None = None, open_desktop: DesktopLauncher | None = None) -> int:
    """Run one command; with no command, open the desktop app through `open_desktop` (given by ui/)."""
    logging.basicConfig(level=os.environ.get("COMPANION_LOG", "WARNING"), format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    try:
        clock = Clock.parse(args.today or os.environ.get("COMPANION_TODAY"))
        home = resolve_home(args.home)
        return _dispatch(args, home, clock, open_desktop)
    except USER_ERRORS as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("companion: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `companion … | head` stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nor is flushing at exit
        return 0
    except Exception as exc:  # our bug: one line for the user, the traceback only when asked for
        if os.environ.get("COMPANION_DEBUG"):
            raise
        print(f"companion: unexpected error ({type(exc).__name__}: {exc}); "
              "set COMPANION_DEBUG=1 for details", file=sys.stderr)
        return 1


def _dispatch(args, home, clock, open_desktop: DesktopLauncher | None) -> int:
    if args.command is None:
        if open_desktop is None:
            raise AppError("The desktop app is not available from here; run `companion` or pick a command.")
        return open_desktop(home=home, clock=clock, model_override=args.model)
    if args.command == "models":
        return _models_status(args, home)
    from app.commands import COMMANDS
    handler: Callable = COMMANDS[(args.command, getattr(args, f"{args.command}_command", None))]
    return handler(args, home, clock)


def _models_status(args, home) -> int:
    from models.resolve import format_status, models_status
    explicit = args.model or os.environ.get("COMPANION_CHAT_MODEL")
    if not explicit:
        from app.settings import Settings
        explicit = Settings.load(home).chat_model
    statuses = models_status(home, explicit)
    if args.json:
        print(json.dumps([s.to_dict() for s in statuses], indent=2))
    else:
        print(format_status(statuses))
    return 0 if all(s.problem is None for s in statuses) else EXIT_USER_ERROR


if __name__ == "__main__":
    sys.exit(main())
