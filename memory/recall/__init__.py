"""Bringing memories back: hybrid search, what to inject for a turn, the injected block, the capped index."""
from memory.recall.index import current_index
from memory.recall.inject import memory_block
from memory.recall.retrieve import RetrievalSettings, background, select
from memory.recall.search import Hit, Weights, search

__all__ = ["Hit", "RetrievalSettings", "Weights", "background", "current_index", "memory_block", "search", "select"]
