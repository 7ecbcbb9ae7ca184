"""scripts/change_head_report.py reads the change head where the pipeline does: the later message's clauses, in it."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def report():
    spec = importlib.util.spec_from_file_location("change_head_report", ROOT / "scripts" / "change_head_report.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.fixture(scope="module")
def model():
    from memory.learn.classifier import shipped_extractor
    from models.multilingual import MultilingualEmbedder

    return shipped_extractor().with_encoder(MultilingualEmbedder())


def _case(kind: str, later: str, evidence: str | None) -> dict:
    memories = [{"step": 0, "evidence": "i work at a bakery on elm st", "change": False}]
    if evidence:
        memories.append({"step": 1, "evidence": evidence, "change": True})
    return {"id": "x", "lang": "en", "kind": kind, "memories": memories,
            "steps": [{"user": "i work at a bakery on elm st"}, {"user": later}]}


def test_a_change_is_read_on_the_clause_holding_its_evidence_and_news_on_its_whole_message(report, model):
    later = "sam came home smelling like a campfire again lol, anyway i work at a dental office these days"
    scores = [s for s in model.score_message(later) if s.clause is not None]
    assert len({s.change for s in scores}) > 1
    low = min(scores, key=lambda s: s.change)  # taken as the change's evidence: read on its own, not the message's max
    evidence = later[low.clause.start:low.clause.end]
    assert report.readings(_case("update", later, evidence), model) == ("changes", low.change)
    assert report.readings(_case("none", later, None), model) == ("news", max(s.change for s in scores))
    # a one-step case, or a change whose evidence is not in the later message, is not read
    assert report.readings(_case("update", later, "not in the message"), model) is None
    assert report.readings({**_case("none", later, None), "steps": [{"user": later}]}, model) is None


def test_the_area_under_the_curve_counts_ties_as_half(report):
    assert report.auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert report.auc([0.1], [0.9]) == 0.0
    assert report.auc([0.5], [0.5]) == 0.5
