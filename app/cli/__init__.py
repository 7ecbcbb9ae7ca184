"""The `companion` command line: one module per command group (chat, memory, sessions, models, key).

The contract (verbs, flags, JSON shapes, exit codes) is in docs/architecture.md, "Command line".
"""
from app.cli.main import EXIT_USER_ERROR, build_parser, main

__all__ = ["EXIT_USER_ERROR", "build_parser", "main"]
