"""`companion key rotate [--passphrase]`: re-encrypt the database under a new key."""
from __future__ import annotations

import getpass
import os
import sys

from app.cli.common import opened
from app.errors import UserError
from app.maintenance import NEW_KEY_ENV, rotate_key


def add_parsers(sub, parser_class) -> None:
    """Add `key rotate` to the top-level sub-command parser."""
    key = sub.add_parser("key", help="the database key").add_subparsers(dest="key_command",
                                                                        parser_class=parser_class, required=True)
    key.add_parser("rotate", help="re-encrypt the database under a new key (close the desktop app first)"
                   ).add_argument("--passphrase", action="store_true",
                                  help="a new passphrase (COMPANION_NEW_DB_KEY, or typed) instead of a keyring key")


def key_rotate(args, home, clock) -> int:
    """Re-key the profile's database and say where the new key lives."""
    new_passphrase = _read_new_passphrase() if args.passphrase else None
    with opened(args, home, clock) as c:
        change = rotate_key(c, new_passphrase)
    print(change.describe())
    return 0


def _read_new_passphrase() -> str:
    given = os.environ.get(NEW_KEY_ENV)
    if given:
        return given
    if not sys.stdin.isatty():
        raise UserError("invalid_input", f"Set {NEW_KEY_ENV} to the new passphrase (no terminal to type it in).")
    first = getpass.getpass("New passphrase: ")
    if getpass.getpass("Again: ") != first:
        raise UserError("invalid_input", "The two passphrases differ; nothing was changed.")
    return first


COMMANDS = {("key", "rotate"): key_rotate}
