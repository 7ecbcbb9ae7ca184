"""The `companion` console script: the desktop app when no command is given, else the command line."""
from __future__ import annotations

import sys
from typing import Sequence

from app.cli import main as cli_main


def _open_desktop(**kwargs) -> int:
    from ui.main import run_app  # Qt is imported only when the window is wanted
    return run_app(**kwargs)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    return cli_main(argv, open_desktop=_open_desktop)


if __name__ == "__main__":
    sys.exit(main())
