"""The seam model: which neighbouring clauses of a Chinese message are one note (memory/learn/joiner.py,
scripts/train_joiner.py), learned from where people marked a fact's bounds (corpus/bounds/)."""
from __future__ import annotations

import sys
from pathlib import Path

from memory.learn.classifier import ClauseScore, shipped_extractor
from memory.learn.clauses import split_clauses
from memory.learn.joiner import shipped_joiner

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))


def test_training_rows_are_the_seams_people_marked():
    from train_joiner import pairs, seam_labels
    text = "我对花生过敏 很严重的那种 我是湖南人 今天好热 哈哈"
    record = {"id": "t-1", "step": 0, "message": text, "clauses": [c.text for c in split_clauses(text)],
              "facts": [{"clauses": [0, 1], "subject": None, "note": "对花生严重过敏"},
                        {"clauses": [2], "subject": None, "note": "湖南人"}]}
    # 过敏|很严重: one fact (a join); 很严重|湖南人: two facts (a cut); 湖南人|今天好热: a fact beside nothing to keep
    # (a cut); 今天好热|哈哈: neither side kept, no row
    assert seam_labels(record) == {0: 1, 1: 0, 2: 0}
    extractor = shipped_extractor()
    feats, labels, groups = pairs([record], lambda _: extractor)
    assert labels == [1, 0, 0] and groups == ["t-1"] * 3 and all("lang=zh" in f for f in feats)


def test_a_record_whose_clauses_no_longer_split_the_same_way_is_refused():
    import pytest
    from train_joiner import pairs
    record = {"id": "t-2", "step": 0, "message": "我对花生过敏 很严重的那种", "clauses": ["我对花生过敏 很严重的那种"],
              "facts": [{"clauses": [0], "subject": None, "note": "对花生过敏"}]}
    with pytest.raises(SystemExit, match="clause split changed"):
        pairs([record], lambda _: shipped_extractor())


def test_the_shipped_model_joins_a_facts_detail_and_cuts_a_new_fact():
    joiner = shipped_joiner()

    def seam(text: str, worths: tuple[float, float]) -> float:
        a, b = (ClauseScore(c.text, w, "profile", 0.9, "neutral", 0.9, 0.0, clause=c)
                for c, w in zip(split_clauses(text), worths))
        return joiner.probability(text, a, b)
    assert seam("我对花生过敏 很严重的那种", (0.9, 0.3)) >= joiner.bars["zh"]
    assert seam("我在温州开了家小花店 自己包花自己送", (0.9, 0.4)) >= joiner.bars["zh"]
    assert seam("我对花生过敏 很严重的那种", (0.9, 0.3)) > seam("我是做会计的 今天好热", (0.9, 0.1))
