"""The precise half of extraction: bilingual rule tables (English, Chinese, dated events)."""
from memory.learn.rules.candidates import extract_candidates

__all__ = ["extract_candidates"]
