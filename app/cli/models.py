"""`companion models`: the catalog (list, get, use, remove) and which model files are used (status)."""
from __future__ import annotations

import json
import sys
import time
from dataclasses import replace

from app.cli.common import opened, print_json
from app.model_choice import open_library, remove_model, status, use_model
from app.settings import Settings
from models.download import Progress
from models.library import ModelListing
from models.resolve import format_status, human_size

EXIT_PROBLEM = 2
EXIT_INTERRUPTED = 130


def add_parsers(sub, parser_class) -> None:
    """Add `models` and its verbs to the top-level sub-command parser."""
    models = sub.add_parser("models", help="chat and embedding models").add_subparsers(
        dest="models_command", parser_class=parser_class, required=True)
    models.add_parser("status", help="which model files are used").add_argument("--json", action="store_true")
    models.add_parser("list", help="the model catalog").add_argument("--json", action="store_true")
    get = models.add_parser("get", help="download and verify a catalog model")
    get.add_argument("id")
    get.add_argument("--json", action="store_true")
    models.add_parser("use", help="chat with (or embed with) a downloaded model").add_argument("id")
    models.add_parser("remove", help="delete a downloaded model").add_argument("id")


def models_status_command(args, home, clock) -> int:
    """Print the status of the chat and embedding models; non-zero when one has a problem."""
    statuses = status(home, Settings.load(home), args.model)
    if args.json:
        print(json.dumps([s.to_dict() for s in statuses], indent=2))
    else:
        print(format_status(statuses))
    return 0 if all(s.problem is None for s in statuses) else EXIT_PROBLEM


def models_list(args, home, clock) -> int:
    """The catalog with size, languages, fit on this machine, and what is installed and in use."""
    library = open_library(home, Settings.load(home), args.model)
    if args.json:
        print_json(library.list_json())
        return 0
    listings = library.list()
    print(f"{'ID':<34} {'KIND':<9} {'SIZE':>8}  {'LANGUAGES':<12} {'FIT':<9} STATE")
    for item in listings:
        print(_row(item))
    best = next((i.entry for i in listings if i.recommended), None)
    if best is not None:
        print(f"\nRecommended for this machine: {best.id}  (companion models get {best.id})")
    return 0


def _row(item: ModelListing) -> str:
    e = item.entry
    size = human_size(e.total_size) if e.total_size else "?"
    langs = ",".join(e.languages[:4]) + ("…" if len(e.languages) > 4 else "")
    state = ", ".join(s for s, on in (("built in", e.builtin), ("installed", item.installed and not e.builtin),
                                      ("in use", item.in_use), ("recommended", item.recommended)) if on)
    return f"{e.id:<34} {e.kind:<9} {size:>8}  {langs:<12} {item.fit:<9} {state or '-'}"


def models_get(args, home, clock) -> int:
    """Download and verify one model (progress on stderr); exit 0 only when it is verified."""
    library = open_library(home, Settings.load(home), args.model)
    meter = _ProgressLine()
    try:
        path = library.get(args.id, progress=meter.show)
    except KeyboardInterrupt:
        meter.end()
        print(f"companion: download stopped; `companion models get {args.id}` resumes it", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        meter.end()
    if args.json:
        listing = next(i for i in library.list() if i.entry.id == args.id)
        print_json({**listing.to_dict(), "path": str(path)})
    else:
        print(f"{args.id} is downloaded and verified: {path}")
        print(f"Use it with: companion models use {args.id}")
    return 0


class _ProgressLine:
    """Progress on stderr (done, total, speed, time left): one redrawn line on a terminal, else a
    plain line every few seconds, so logs stay readable."""

    LOG_EVERY_S = 5.0

    def __init__(self) -> None:
        self.open = False
        self.tty = sys.stderr.isatty()
        self._logged_at: float | None = None

    def show(self, p: Progress) -> None:
        """Report one step."""
        total = f" / {human_size(p.total)}" if p.total else ""
        left = f", {_duration(p.eta_s)} left" if p.eta_s is not None else ""
        speed = f", {human_size(int(p.bytes_per_s))}/s" if p.bytes_per_s else ""
        text = f"{p.file}: {human_size(p.done)}{total}{speed}{left}"
        if self.tty:
            print(f"\r{text}\033[K", end="", file=sys.stderr, flush=True)
            self.open = True
            return
        now = time.monotonic()
        if self._logged_at is None or now - self._logged_at >= self.LOG_EVERY_S or p.done == p.total:
            print(text, file=sys.stderr, flush=True)
            self._logged_at = now

    def end(self) -> None:
        """Finish the line, if one was drawn."""
        if self.open:
            print(file=sys.stderr, flush=True)
            self.open = False


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def models_use(args, home, clock) -> int:
    """Choose a downloaded model for chat or embedding; switching the embedder re-embeds memories now."""
    settings = Settings.load(home)
    before = replace(settings)
    choice = use_model(home, settings, args.id, args.model)
    if choice.entry.kind == "embedding":
        try:
            with opened(args, home, clock):  # re-embeds every memory with progress on stderr
                pass
        except BaseException:
            before.save(home)
            raise
    print(f"Using {choice.entry.name} for {choice.entry.kind}.")
    if choice.overridden:
        print("Note: --model or COMPANION_CHAT_MODEL names another file and wins while it is set.")
    return 0


def models_remove(args, home, clock) -> int:
    """Delete a downloaded model that is not in use."""
    entry = remove_model(home, Settings.load(home), args.id, args.model)
    print(f"Removed {entry.name}.")
    return 0


COMMANDS = {("models", "status"): models_status_command, ("models", "list"): models_list,
            ("models", "get"): models_get, ("models", "use"): models_use, ("models", "remove"): models_remove}
