"""How many threads to compute with: llama.cpp and onnxruntime scale with physical cores, not SMT siblings."""
from __future__ import annotations

import os
from pathlib import Path

SYSFS_CPUS = Path("/sys/devices/system/cpu")


def _allowed_cpus() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return list(range(os.cpu_count() or 1))


def physical_cores(sysfs: Path | None = None) -> int:
    """Physical cores this process may run on (SMT siblings count once); logical CPUs where unknown."""
    allowed = _allowed_cpus()
    sysfs = sysfs or SYSFS_CPUS
    cores: set[str] = set()
    for cpu in allowed:
        try:
            cores.add((sysfs / f"cpu{cpu}" / "topology" / "thread_siblings_list").read_text().strip())
        except OSError:
            # No topology (macOS, Windows, some containers): a hyper-threaded core shows up as two
            # logical CPUs there, and one thread per logical CPU is still better than one thread in all.
            return max(1, len(allowed))
    return max(1, len(cores))
