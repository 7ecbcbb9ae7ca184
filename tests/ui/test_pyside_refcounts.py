"""The pinned PySide6 keeps the reference counts of True and None (PySide6 6.12.0 did not: docs/pyside6.md).

Measured in a child process, because a binding that loses these references aborts the interpreter
("Fatal Python error: bool_dealloc / none_dealloc") once a count reaches zero.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap

CALLS = 2000
NOISE = 20  # references a few lists and frames of the measuring code itself may hold

MEASURE = textwrap.dedent(f"""
    import sys
    from PySide6.QtCore import QAbstractListModel, QCoreApplication, QObject, QTimer, Signal

    app = QCoreApplication([])

    class Emitter(QObject):
        fired = Signal(str)

    class Model(QAbstractListModel):
        def rowCount(self, parent=None):
            return 1

        def data(self, index, role=0):
            return None

    e = Emitter()
    e.fired.connect(lambda text: None)
    true_before = sys.getrefcount(True)
    for _ in range({CALLS}):
        e.fired.emit("x")  # Python -> C++, returns True
    true_lost = true_before - sys.getrefcount(True)
    calls, model = [], Model()
    index = model.index(0, 0)
    none_before = sys.getrefcount(None)
    for _ in range({CALLS}):
        QTimer.singleShot(0, lambda: calls.append(1))  # C++ -> Python: a functor
        index.data()  # C++ -> Python: a virtual override
    while len(calls) < {CALLS}:
        app.processEvents()
    print(true_lost, none_before - sys.getrefcount(None))
""")


def test_signals_slots_and_virtual_overrides_keep_the_references_of_true_and_none():
    out = subprocess.run([sys.executable, "-c", MEASURE], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lost_true, lost_none = (int(x) for x in out.stdout.split())
    assert lost_true <= NOISE and lost_none <= NOISE, (lost_true, lost_none)
