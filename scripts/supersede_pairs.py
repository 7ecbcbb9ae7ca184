"""Training pairs for the supersede model (memory/learn/supersede.py), built from the corpus.

Positive: a change case's old fact (step 1, no longer true at the end) against the new one (step 2,
marked as the change), read within its message. Negative: a fact that stays true against a later fact
of the same case; and, for every new fact in the corpus, the stored facts of *other* cases that look
most like it (n-gram cosine) — the look-alikes a replacement must not take — and a few picked at
random — the unrelated facts that fill most of a real memory — unless both fill the same one-at-a-time
slot (a new job replaces any old job). The change and slot readings that go into the
features come from heads trained on the other folds, so the pair model learns how far to trust them
on text they have not seen.
"""
from __future__ import annotations

import hashlib
from typing import Callable

import numpy as np
from sklearn.linear_model import LogisticRegression

from memory.learn.classifier import TrainedExtractor
from scipy import sparse

from memory.learn.supersede import PAIR_FEATURES, Side, pair_features, row_dicts, side

FOLDS = 4
LOOKALIKES = 4
RANDOM_OTHERS = 4
C = 1.0


def _fold(case_id: str) -> int:
    return int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % FOLDS


def _pick(case_id: str, evidence: str, k: int, n: int) -> int:
    """A fixed pseudo-random index (the same on every run)."""
    return int(hashlib.sha256(f"{case_id}/{evidence}/{k}".encode()).hexdigest(), 16) % n


def _fold_fit(x, y, c: float) -> LogisticRegression:
    """A fold head: the shipped heads' settings with a looser tolerance (only its rough reading is used)."""
    return LogisticRegression(C=c, max_iter=400, class_weight="balanced", solver="lbfgs", tol=1e-4).fit(x, y)


def _fold_models(arrays: dict, fit: Callable, pos, encoder) -> list[TrainedExtractor]:
    """Per fold, the shipped arrays with the category, change and slot heads fitted without that fold's cases."""
    groups, x, change, slot, category = pos
    folds = np.array([_fold(g) for g in groups])
    models = []
    for k in range(FOLDS):
        keep = folds != k
        fold_arrays = dict(arrays)
        for head, y, c in (("category", category, 8.0), ("change", change, 4.0), ("slot", slot, 8.0)):
            m = _fold_fit(x[keep], y[keep], c)
            fold_arrays[f"{head}_coef"] = m.coef_.astype(np.float32)
            fold_arrays[f"{head}_intercept"] = m.intercept_.astype(np.float32)
            fold_arrays[f"{head}_classes"] = np.array([str(v) for v in m.classes_])
        models.append(TrainedExtractor.from_arrays(fold_arrays, encoder))
    return models


def _sides(model: TrainedExtractor, texts: list[str]) -> list[Side]:
    """Each text as the pair model reads it, with the category the fold's head gives it: in use, both sides' categories
    are the learner's (a stored memory's, a candidate's), not the corpus writers', and a pair model trained on the
    writers' categories leaned on their agreement more than the learner's deserve ("we had to put Pepper down",
    filed as a taste, never replaced "Has a cat called Pepper")."""
    rows = row_dicts(model.features(texts))
    scores = model.score_texts(texts)
    meanings = model.sentence_vectors(texts)
    return [side(rows[i], t, s.change, s.slot, s.slot_p, s.category, meanings[i]) for i, (t, s) in enumerate(zip(texts, scores))]


def _message_side(model: TrainedExtractor, text: str) -> Side:
    row = row_dicts(model.features([text]))[0]
    change = max((s.change for s in model.score_message(text)), default=0.0)
    return side(row, text, change, "other", 0.0, "", model.sentence_vectors([text])[0])


def _matrix(rows: list[dict[int, float]], width: int) -> sparse.csr_matrix:
    data, cols, indptr = [], [], [0]
    for r in rows:
        cols.extend(r)
        data.extend(r.values())
        indptr.append(len(cols))
    return sparse.csr_matrix((np.array(data), np.array(cols, dtype=np.int64), indptr), shape=(len(rows), width))


def pairs(cases: list[dict], arrays: dict, fit: Callable, pos, encoder=None) -> tuple[list[list[float]], list[int]]:
    """Feature rows and labels of every training pair (heads reading sentence vectors from `encoder`)."""
    models = _fold_models(arrays, fit, pos, encoder)
    olds: list[tuple[str, Side]] = []   # (case id, side) of every fact stated at step 1
    news: list[tuple[dict, dict, Side, Side]] = []  # (case, memory, its side, message side): later or single facts
    for case in cases:
        if case["kind"] == "poison":
            continue
        model = models[_fold(case["id"])]
        mems = case.get("memories", [])
        first = [m for m in mems if m.get("step", 0) == 0]
        for m, s in zip(first, _sides(model, [m["evidence"] for m in first])):
            olds.append((case["id"], s))
            m["_side"] = s
        for m in mems:
            step = m.get("step", 0)
            if step >= 1 or len(case["steps"]) == 1:
                msg = case["steps"][step]["user"]
                new = m["_side"] if "_side" in m else _sides(model, [m["evidence"]])[0]
                news.append((case, m, new, _message_side(model, msg) if step >= 1 else new))
    x: list[list[float]] = []
    y: list[int] = []
    width = models[0].features(["x"]).shape[1]
    old_rows = _matrix([s.row for _, s in olds], width)
    for case, new_mem, new, msg in news:
        if new_mem.get("step", 0) >= 1:
            for m in case.get("memories", []):
                if m.get("step", 0) == 0 and "_side" in m:
                    replaced = not m.get("active_at_end", True) and bool(new_mem.get("change"))
                    if replaced or m.get("active_at_end", True):
                        x.append(pair_features(m["_side"], new, msg))
                        y.append(int(replaced))
        both = dict(msg.row)
        for k, v in new.row.items():
            both[k] = max(v, both.get(k, 0.0))
        sims = np.asarray(old_rows @ _matrix([both], width).T.toarray()).ravel()
        taken = 0
        for i in np.argsort(-sims, kind="stable"):
            cid, old = olds[int(i)]
            if cid == case["id"]:
                continue
            if old.slot != "other" and old.slot == new.slot:
                continue  # a new value of a one-at-a-time slot does replace it: not a negative
            x.append(pair_features(old, new, msg))
            y.append(0)
            taken += 1
            if taken >= LOOKALIKES:
                break
        for k in range(RANDOM_OTHERS):  # and facts that merely sit beside it in a memory: nothing in common
            cid, old = olds[_pick(case["id"], new_mem["evidence"], k, len(olds))]
            if cid == case["id"] or (old.slot != "other" and old.slot == new.slot):
                continue
            x.append(pair_features(old, new, msg))
            y.append(0)
    for case in cases:
        for m in case.get("memories", []):
            m.pop("_side", None)
    return x, y


def supersede_arrays(cases: list[dict], arrays: dict, fit: Callable, pos, encoder=None) -> dict[str, np.ndarray]:
    """The pair model's weights, to ship beside the heads."""
    x, y = pairs(cases, arrays, fit, pos, encoder)
    model = LogisticRegression(C=C, max_iter=5000, class_weight="balanced", solver="lbfgs", tol=1e-8)
    model.fit(np.asarray(x), np.asarray(y))
    print(f"supersede pairs: {sum(y)} replace, {len(y) - sum(y)} stand; features {len(PAIR_FEATURES)}")
    return {"supersede_coef": model.coef_[0].astype(np.float64), "supersede_intercept": model.intercept_.astype(np.float64)}
