"""Bringing memories back: hybrid search, what to inject for a turn, the injected blocks, the capped index."""
from memory.recall.hybrid import Hit, QueryVectors, Weights, query_vectors, search, search_text
from memory.recall.index import CATEGORY_ORDER as INDEX_ORDER
from memory.recall.index import current_index, ranked_for_index
from memory.recall.inject import memory_block, memory_tail, note_line
from memory.recall.prefix import (MemoryPrefix, build_prefix, notes_layout, prefix_is_current, restored_prefix,
                                  save_layout, save_notes_layout, shown_part)
from memory.recall.retrieve import RetrievalSettings, select

__all__ = ["INDEX_ORDER", "Hit", "MemoryPrefix", "QueryVectors", "RetrievalSettings", "Weights", "build_prefix", "current_index",
           "memory_block", "memory_tail", "note_line", "notes_layout", "prefix_is_current", "query_vectors", "ranked_for_index", "restored_prefix", "save_layout", "save_notes_layout",
           "search", "search_text", "select", "shown_part"]
