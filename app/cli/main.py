"""The `companion` command line (contract: docs/architecture.md). Bad input: one line on stderr, exit 2."""
from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from typing import IO, Any, Callable, Iterator, NoReturn, Sequence

from app.cli import chat, key, memory, models, sessions
from app.clock import Clock
from app.errors import UserError, user_error
from app.settings import resolve_home

EXIT_USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, not argparse's usage dump
        self.exit(EXIT_USER_ERROR, f"companion: {message} (see companion --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The whole command tree, one group module at a time."""
    p = _Parser(prog="companion", description="A private, offline companion that remembers you. "
                "Run without a command to open the desktop window.",
                epilog="With no COMMAND, `companion` opens the desktop app; the commands work in the terminal.")
    p.add_argument("--home", help="data folder (default: COMPANION_HOME or your user data folder)")
    p.add_argument("--today", help="fix the clock to this date (YYYY-MM-DD)")
    p.add_argument("--model", help="chat model GGUF file to use")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    chat.add_parsers(sub)
    memory.add_parsers(sub.add_parser("memory", help="see and change what is remembered").add_subparsers(
        dest="memory_command", parser_class=_Parser, required=True))
    sessions.add_parsers(sub, _Parser)
    models.add_parsers(sub, _Parser)
    key.add_parsers(sub, _Parser)
    return p


COMMANDS: dict[tuple[str, Any], Callable[..., int]] = {**chat.COMMANDS, **memory.COMMANDS, **sessions.COMMANDS, **models.COMMANDS, **key.COMMANDS}


DesktopLauncher = Callable[..., int]


def main(argv: Sequence[str] | None = None, open_desktop: DesktopLauncher | None = None, *,
         stdin: IO[str] | None = None, stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """Run one command and return its exit code; with no command, open the desktop app through `open_desktop`
    (given by ui/). The streams default to the process's own; tests pass their own and call this in process."""
    with _streams(stdin, stdout, stderr), _logging_to(sys.stderr):
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as done:  # --help, or bad input (one line already printed by _Parser.error)
            return done.code if isinstance(done.code, int) else (0 if done.code is None else EXIT_USER_ERROR)
        return _run(args, open_desktop)


def _run(args, open_desktop: DesktopLauncher | None) -> int:
    try:
        clock = Clock.parse(args.today or os.environ.get("COMPANION_TODAY"))
        home = resolve_home(args.home)
        return _dispatch(args, home, clock, open_desktop)
    except KeyboardInterrupt:
        print("companion: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `companion … | head` stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nor is flushing at exit
        return 0
    except Exception as exc:
        known = user_error(exc)
        if known is not None:
            print(f"companion: {known.message}", file=sys.stderr)
            return EXIT_USER_ERROR
        if os.environ.get("COMPANION_DEBUG"):  # our bug: one line for the user, the traceback only when asked for
            raise
        print(f"companion: unexpected error ({type(exc).__name__}: {exc}); "
              "set COMPANION_DEBUG=1 for details", file=sys.stderr)
        return 1


@contextlib.contextmanager
def _streams(stdin: IO[str] | None, stdout: IO[str] | None, stderr: IO[str] | None) -> Iterator[None]:
    """sys.stdin/stdout/stderr replaced by the given streams for one command (the commands print to sys.*)."""
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


@contextlib.contextmanager
def _logging_to(stream: IO[str]) -> Iterator[None]:
    """Warnings of this command on its stderr, at COMPANION_LOG's level (WARNING by default): what
    logging.basicConfig did, but undone at the end so that a second command in the same process logs to its own."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    level = root.level
    root.setLevel(os.environ.get("COMPANION_LOG", "WARNING"))
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def _dispatch(args, home, clock, open_desktop: DesktopLauncher | None) -> int:
    if args.command is None:
        if open_desktop is None:
            raise UserError("unavailable",
                            "The desktop app is not available from here; run `companion` or pick a command.")
        return open_desktop(home=home, clock=clock, model_override=args.model)
    handler: Callable = COMMANDS[(args.command, getattr(args, f"{args.command}_command", None))]
    return handler(args, home, clock)


if __name__ == "__main__":
    sys.exit(main())
