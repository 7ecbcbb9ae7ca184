"""Consolidation ("dream"): merge, resolve, expire, decay and re-index now and then, under a run lock."""
from memory.consolidation.job import ConsolidationResult, Gates, Progress, consolidate, precheck
from memory.consolidation.lock import LOCK_FILE, RunLock
from memory.consolidation.log import RunRecord, describe_change, describe_run, recent_runs

__all__ = ["LOCK_FILE", "ConsolidationResult", "Gates", "Progress", "RunLock", "RunRecord", "consolidate",
           "describe_change", "describe_run", "precheck", "recent_runs"]
