#!/usr/bin/env python3
"""Train the seam model (memory/learn/joiner.py): are two neighbouring clauses one fact?

Rows are the seams between neighbouring clauses of the 1,200 train-split messages people marked fact bounds on
(corpus/bounds/train.jsonl: which clauses together say one fact, which say nothing to keep): one fact holding both
clauses is a join; a fact beside a clause of another fact or of nothing to keep is a cut; a seam neither side of which
is in a fact says nothing and is left out. The heads' verdicts on each clause come from the extractors trained out of
fold (scripts/decision_folds.py, as the decision model's rows do): on cases it was trained on, the shipped extractor is
near-certain. The regularisation and the per-language bar are chosen by cross-validation over cases of the train
split; the 160 frozen test messages of corpus/bounds/test.jsonl are scored (by the shipped extractor) for the report
only, never tuned on.

A variant labelled only with the clauses whose words the annotator's note kept (a remark on a fact cut from it) was
worse on every measure: seam agreement on the frozen messages .646 en / .670 zh against .720 / .757, and lower frozen
Chinese P/R on four splits of six.

  .venv/bin/python scripts/train_joiner.py              rebuild memory/learn/joiner.npz, print CV and test scores
  .venv/bin/python scripts/train_joiner.py --out F      write elsewhere (the determinism test does)
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from decision_folds import ensure_folds, fold_of, train_cases  # noqa: E402
from train_extractor import CachedEncoder  # noqa: E402
from memory.learn.classifier import TrainedExtractor, load_extractor, shipped_extractor  # noqa: E402
from memory.learn.joiner import WEIGHTS, seam_features  # noqa: E402

TRAIN = ROOT / "corpus" / "bounds" / "train.jsonl"
TEST = ROOT / "corpus" / "bounds" / "test.jsonl"
C_VALUES = (0.1, 0.3, 1.0, 3.0)
BARS = tuple(round(0.15 + 0.05 * k, 2) for k in range(14))  # 0.15 … 0.8
FOLDS = 5


def bounds(path: Path) -> list[dict]:
    """The messages people marked fact bounds on (corpus/bounds/), each with its clauses and facts."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def seam_labels(record: dict) -> dict[int, int]:
    """Seam k (between clauses k and k+1) -> 1 when one fact holds both clauses, 0 when only one of them is in a
    fact or they are in two; seams with neither clause in a fact say nothing and are left out."""
    fact_of = {k: f for f, fact in enumerate(record["facts"]) for k in fact["clauses"]}
    out = {}
    for k in range(len(record["clauses"]) - 1):
        a, b = fact_of.get(k), fact_of.get(k + 1)
        if a is not None or b is not None:
            out[k] = int(a is not None and a == b)
    return out


def pairs(records: list[dict], reader: Callable[[dict], TrainedExtractor]) -> tuple[list[list[str]], list[int], list[str]]:
    """(features, label, case id) for every labelled seam of the marked messages; `reader` gives the extractor that
    scores a record's clauses."""
    feats, labels, groups = [], [], []
    for record in records:
        text = record["message"]
        scores = reader(record).score_message(text)
        if [s.clause.text for s in scores if s.clause is not None] != record["clauses"]:
            raise SystemExit(f"{record['id']}: the clause split changed since the bounds were marked")
        for k, label in seam_labels(record).items():
            feats.append(seam_features(text, scores[k], scores[k + 1]))
            labels.append(label)
            groups.append(record["id"])
    return feats, labels, groups


def fit(feats: list[list[str]], labels: list[int], c: float):
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression
    vec = DictVectorizer()
    x = vec.fit_transform([dict.fromkeys(f, 1) for f in feats])
    model = LogisticRegression(C=c, max_iter=2000, solver="lbfgs").fit(x, labels)
    return vec, model


def out_of_fold(feats, labels, groups, c: float) -> np.ndarray:
    """Each row's join probability from a model trained on the other cases' rows."""
    from sklearn.model_selection import GroupKFold
    p = np.zeros(len(labels))
    for tr, te in GroupKFold(FOLDS).split(feats, labels, groups):
        vec, model = fit([feats[i] for i in tr], [labels[i] for i in tr], c)
        p[te] = model.predict_proba(vec.transform([dict.fromkeys(feats[i], 1) for i in te]))[:, 1]
    return p


def join_f1(p: np.ndarray, y: np.ndarray, bar: float) -> float:
    said = p >= bar
    tp = int((said & (y == 1)).sum())
    precision, recall = tp / max(1, int(said.sum())), tp / max(1, int((y == 1).sum()))
    return 2 * precision * recall / max(1e-9, precision + recall)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(WEIGHTS))
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    encoder = CachedEncoder()
    folds = [load_extractor(p).with_encoder(encoder) for p in ensure_folds(train_cases())]
    feats, labels, groups = pairs(bounds(TRAIN), lambda record: folds[fold_of(record["id"])])
    y = np.array(labels)
    chinese = np.array(["lang=zh" in f for f in feats])
    oof = {c: out_of_fold(feats, labels, groups, c) for c in C_VALUES}
    # per language, the bar at the best F1 of joining out of fold: a wrong cut loses half a fact, a wrong join
    # puts two in one note, so neither kind of error is the cheap one that accuracy would make it
    best: dict[str, tuple[float, float, float]] = {}
    for lang, rows in (("en", ~chinese), ("zh", chinese)):
        best[lang] = max(((join_f1(oof[c][rows], y[rows], bar), c, bar) for c in C_VALUES for bar in BARS),
                         key=lambda t: (round(t[0], 6), -t[1], t[2]))
    c = min(best[lang][1] for lang in best)  # one model for both languages: the weaker regularisation chosen
    bars = {lang: max(BARS, key=lambda b: (round(join_f1(oof[c][rows], y[rows], b), 6), b))
            for lang, rows in (("en", ~chinese), ("zh", chinese))}
    vec, model = fit(feats, labels, c)
    names = np.array(vec.get_feature_names_out(), dtype=str)
    np.savez(args.out, names=names, coef=model.coef_[0].astype(np.float64), intercept=np.float64(model.intercept_[0]),
             bar_en=np.float64(bars["en"]), bar_zh=np.float64(bars["zh"]))
    if not args.quiet:
        print(f"train pairs {len(labels)} (joins {sum(labels)}), features {len(names)}; C={c}, bars {bars}")
        for lang, rows in (("en", ~chinese), ("zh", chinese)):
            print(f"  {lang} out of fold at {bars[lang]}: join F1 {join_f1(oof[c][rows], y[rows], bars[lang]):.3f}, "
                  f"agreement {float(((oof[c][rows] >= bars[lang]) == (y[rows] == 1)).mean()):.3f}")
        shipped = shipped_extractor().with_encoder(encoder)
        tf, tl, _ = pairs(bounds(TEST), lambda record: shipped)
        tp = model.predict_proba(vec.transform([dict.fromkeys(f, 1) for f in tf]))[:, 1]
        ty, tz = np.array(tl), np.array(["lang=zh" in f for f in tf])
        for lang, rows in (("en", ~tz), ("zh", tz)):
            said = tp[rows] >= bars[lang]
            print(f"  frozen test {lang}: {int(rows.sum())} seams, join F1 {join_f1(tp[rows], ty[rows], bars[lang]):.3f}, "
                  f"agreement {float((said == (ty[rows] == 1)).mean()):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
