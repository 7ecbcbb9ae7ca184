"""A guard against reference-count defects of the installed PySide6 6.12.0 build.

Measured here (tests/ui/test_pyside_guard.py reproduces them in a child process):
- every Python-side `Signal.emit()` returns `True` without owning a reference to it, so each emit
  takes one reference away from `True`;
- every call from C++ into Python (a slot of a C++ signal, a `QTimer.singleShot` functor, a
  virtual override such as `QAbstractItemModel.data` or `resizeEvent`) takes one reference away
  from `None`.
Only these singletons lose references, but CPython 3.11 aborts the process when their count
reaches zero ("none_dealloc: deallocating None"), which a chat window with a streaming reply and
a 10 ms timer does within a minute. Python 3.12 made None/True/False immortal for exactly this
kind of accounting; on 3.11 the guard does the same by giving them an enormous reference count
once, at import of the `ui` package, before any Qt object or worker thread exists.
"""
from __future__ import annotations

import ctypes
import sys

RESERVE = 1 << 48  # references added to each singleton: more than any process could ever lose
_SINGLETONS = (None, True, False)


def protect_singletons() -> bool:
    """Make None, True and False effectively immortal; True if the reserve was added now."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False  # already immortal there
    added = False
    for obj in _SINGLETONS:
        if sys.getrefcount(obj) < RESERVE:
            # ob_refcnt is the first field of every CPython object (Py_ssize_t).
            ctypes.c_ssize_t.from_address(id(obj)).value += RESERVE
            added = True
    return added


def protected() -> bool:
    """True if the singletons carry the reserve (or are immortal anyway)."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return True
    return all(sys.getrefcount(obj) >= RESERVE // 2 for obj in _SINGLETONS)
