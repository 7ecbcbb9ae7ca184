"""PySide6 widgets and Qt item models of the desktop app (docs/architecture.md: ui → app → memory, models)."""
from ui.pyside_guard import protect_singletons

# Before any Qt object or thread exists: see ui/pyside_guard.py for the PySide6 defect this contains.
protect_singletons()
