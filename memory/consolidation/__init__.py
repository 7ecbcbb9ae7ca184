"""Consolidation ("dream"): merge, resolve, expire, decay and re-index now and then, under a run lock."""
from memory.consolidation.consolidate import (
    ConsolidationResult,
    Gates,
    Progress,
    consolidate,
    describe_change,
    precheck,
)
from memory.consolidation.lock import LOCK_FILE, RunLock

__all__ = ["LOCK_FILE", "ConsolidationResult", "Gates", "Progress", "RunLock", "consolidate", "describe_change",
           "precheck"]
