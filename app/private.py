"""Private by default: the data folder is readable by the user only (0700), the files in it and exports too (0600)."""
from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)
FOLDER_MODE, FILE_MODE = 0o700, 0o600
_warned: set[Path] = set()


def private_folder(home: Path) -> str | None:
    """Create the data folder 0700. An existing one is left as the user set it, but if other accounts can read it,
    the sentence that says so is logged once per run and returned."""
    if not home.exists():
        home.mkdir(parents=True, mode=FOLDER_MODE, exist_ok=True)
        os.chmod(home, FOLDER_MODE)  # mkdir's mode is narrowed by the umask, never widened: make it exact
        return None
    mode = stat.S_IMODE(home.stat().st_mode)
    if not mode & 0o077 or home.resolve() in _warned:
        return None
    _warned.add(home.resolve())
    warning = (f"The data folder {home} can be read by other accounts on this computer (permissions "
               f"{mode:o}); run `chmod 700 {home}` to keep your conversations to yourself.")
    log.warning(warning)
    return warning


def private_file(path: Path) -> None:
    """Make sure path exists and only its owner can read it (SQLite gives the WAL and -shm files the same mode)."""
    if path.exists():
        os.chmod(path, FILE_MODE)
    else:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE))


def narrow_if_present(path: Path) -> None:
    """Make a file only its owner can read, if it is there: SQLite's -wal and -shm files come and go as other
    processes close the database (one that vanished between a look and the chmod is no error)."""
    try:
        os.chmod(path, FILE_MODE)
    except FileNotFoundError:
        pass


def write_private(path: Path, text: str) -> None:
    """Write text to path, readable by its owner only (also when the file was there before)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        os.fchmod(f.fileno(), FILE_MODE)
        f.write(text)
