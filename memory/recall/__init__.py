"""Bringing memories back: hybrid search, what to inject for a turn, the injected block, the capped index."""
from memory.recall.hybrid import Hit, Weights, search
from memory.recall.index import current_index
from memory.recall.inject import memory_block
from memory.recall.retrieve import RetrievalSettings, background, select

__all__ = ["Hit", "RetrievalSettings", "Weights", "background", "current_index", "memory_block", "search", "select"]
