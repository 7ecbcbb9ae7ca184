"""PySide6 widgets and Qt item models of the desktop app (docs/architecture.md: ui → app → memory, models)."""
