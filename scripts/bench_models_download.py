"""Does a download on the Models page hold up the window? Gaps between 10 ms timer ticks on the main thread,
idle and while the page downloads the bundled GGUF (98 MB) from a local host in another process, side by side.

    .venv/bin/python scripts/bench_models_download.py [--runs 3]

The host is tests/support/model_server.py in a child process (so its sending does not share this process's
GIL); the catalog entry `test-smol` comes in through COMPANION_MODEL_CATALOG, as in the tests.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import ui  # noqa: E402,F401  (installs the PySide6 guard before Qt starts)
from app.settings import Settings  # noqa: E402
from tests.support.model_server import catalog_entry, write_catalog  # noqa: E402
from ui.harness import settle, wait_for  # noqa: E402
from ui.models_dialog import ModelsDialog  # noqa: E402

HOST = ("import sys\nfrom tests.support.model_server import serving, base_url\n"
        "with serving() as h:\n    print(base_url(h), flush=True)\n    sys.stdin.read()\n")


def gaps_while(action) -> list[float]:
    """Milliseconds between the ticks of a 10 ms timer while `action()` runs the event loop."""
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    action()
    timer.stop()
    return sorted((b - a) * 1000 for a, b in zip(ticks, ticks[1:]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])  # noqa: F841
    tmp = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    host = subprocess.Popen([sys.executable, "-c", HOST], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        os.environ["COMPANION_MODEL_MIRROR"] = host.stdout.readline().strip()
        os.environ["COMPANION_MODEL_CATALOG"] = str(write_catalog(tmp / "catalog.json", catalog_entry("test-smol")))
        print(f"{'run':>3}  {'idle max':>9}  {'download max':>12}  {'ratio':>6}  {'download p99':>12}  seconds")
        for run in range(args.runs):
            idle = gaps_while(lambda: settle(1000))
            page = ModelsDialog(tmp / f"home{run}", Settings())
            page.show()
            started = time.perf_counter()
            busy = gaps_while(lambda: (page.rows["test-smol"].download.click(), wait_for(page.downloadEnded)))
            took = time.perf_counter() - started
            page.close()
            p99 = busy[int(len(busy) * 0.99)]
            print(f"{run:>3}  {idle[-1]:>7.0f}ms  {busy[-1]:>10.0f}ms  {busy[-1] / idle[-1]:>6.1f}  {p99:>10.0f}ms  "
                  f"{took:.2f}")
    finally:
        host.stdin.close()
        host.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
