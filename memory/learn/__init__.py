"""Learning from chat: rules and the model propose candidates, validators and the guard filter them,
reconciliation writes them. `learn/pipeline.py` is the single place where candidates are gathered."""
from memory.learn.guard import instruction_reason
from memory.learn.pipeline import ExtractionResult, MemoryPipeline, Thresholds, Written, warm_up
from memory.learn.rules import extract_candidates
from memory.learn.thresholds import MIN_CONFIDENCE, MIN_IMPORTANCE

__all__ = ["MIN_CONFIDENCE", "MIN_IMPORTANCE", "ExtractionResult", "MemoryPipeline", "Thresholds", "Written",
           "extract_candidates", "instruction_reason", "warm_up"]
