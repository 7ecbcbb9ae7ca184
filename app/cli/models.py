"""`companion models status`: which model files would be used, and what is wrong with them."""
from __future__ import annotations

import json
import os

from app.settings import Settings
from models.resolve import format_status, models_status

EXIT_PROBLEM = 2


def add_parsers(sub, parser_class) -> None:
    """Add `models` and its verbs to the top-level sub-command parser."""
    models = sub.add_parser("models", help="model files").add_subparsers(dest="models_command",
                                                                          parser_class=parser_class, required=True)
    models.add_parser("status").add_argument("--json", action="store_true")


def models_status_command(args, home, clock) -> int:
    """Print the status of the chat and embedding models; non-zero when one has a problem."""
    explicit = args.model or os.environ.get("COMPANION_CHAT_MODEL")
    if not explicit:
        explicit = Settings.load(home).chat_model
    statuses = models_status(home, explicit)
    if args.json:
        print(json.dumps([s.to_dict() for s in statuses], indent=2))
    else:
        print(format_status(statuses))
    return 0 if all(s.problem is None for s in statuses) else EXIT_PROBLEM


COMMANDS = {("models", "status"): models_status_command}
