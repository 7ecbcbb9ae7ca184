"""The decision: one trained model says which proposed memories are kept.

Every proposer (the rule tables, the clause heads, a chat model's JSON) hands over candidates; this model reads
each one's signals side by side — which proposer and rule, the rule's measured precision on the train split, the
heads' scores on the clauses it quotes, its category, polarity, slot, date, length, and a few plain marks of the
message (a question, a hypothetical, reported speech, who is spoken of) — and gives the probability that a careful
reader would keep it. It replaces the hand-set seams that joined the two systems (a rule veto by worth, a
confidence for negative clauses).

The model is gradient-boosted trees (scikit-learn's HistGradientBoostingClassifier; the trainer now fits the mean of
several ensembles, each on part of the cases, so that a retrain moves few decisions, and any number of ensembles ship
as one set of trees: the shipped file still holds one) trained by
`scripts/train_decision.py` on candidates proposed for train cases by extractors that never saw those cases
(`scripts/decision_folds.py`), labelled by whether the memory meets one the corpus expects. Its trees ship as
arrays in `decision.npz` and are walked here with numpy: no fitted estimator is unpickled.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Protocol, Sequence

import numpy as np

from memory.learn.classifier import ClauseScore
from memory.learn.clauses import covers
from memory.records import CATEGORIES, Candidate
from memory.text import has_cjk, has_negation

WEIGHTS = Path(__file__).with_name("decision.npz")
READING = ",read-as="  # in the origin of a clause candidate read as another category than its lead clause's
OWN_WORDS = ",own-words"  # in the origin of a rule candidate whose note is the user's words, not the rule's template
ORIGINS = ("rule", "classifier", "classifier-change", "model")
SOURCES = ("explicit", "inferred")
_QUESTION = re.compile(r"[?？]|[吗呢么](?:\s|$|[，。！!~])")
_HYPOTHETICAL = re.compile(r"\b(?:if|would|wish|imagine|suppose|hypothetically|maybe|might|could)\b|如果|要是|假如|万一|想象|"
                           r"也许|可能", re.I)
_REPORTED = re.compile(r"\b(?:says?|said|told|tells|according\s+to|quote|reckons?)\b|说|告诉|听说|据说", re.I)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|my|me|mine|we|our|us)\b|我", re.I)
_SECOND_PERSON = re.compile(r"\b(?:you|your|you're|ur|u)\b|你|您", re.I)
_SHOUTED = re.compile(r"\b[A-Z]{3,}\b")  # "I just LOVE when the train is late"
_FILLER = re.compile(r"\b(?:lol|lmao|haha\w*|jk|smh|ugh|ngl|tbh|bruh|omg)\b|哈哈|笑死|xswl|hhh|呵呵|doge", re.I)
_ONE_OFF = re.compile(r"\b(?:today|tonight|this\s+morning|this\s+afternoon|yesterday|right\s+now|rn)\b|今天|今晚|今早|"
                      r"刚才|刚刚|昨天|昨晚|中午", re.I)
_THIRD_PERSON = re.compile(r"\b(?:he|she|they|his|her|their|him|them)\b|他|她", re.I)
FEATURES = (
    ("origin_rule", "origin_classifier", "origin_change_only", "origin_model", "source_explicit", "source_inferred")
    + tuple(f"category_{c}" for c in CATEGORIES)
    + ("chinese", "confidence", "importance", "worth_max", "worth_mean", "heads_agree", "heads_category_p",
       "negative", "heads_negative_p", "change", "slot_p", "topic_is_slot", "quote_chars_log", "clauses_quoted",
       "dated", "question", "hypothetical", "reported", "first_person",
       "second_person", "third_person", "rule_precision", "rule_seen_log", "rules_in_message", "overlapping",
       "answer_read_with_question", "negation_said", "category_p", "another_reading", "shouted", "fillers",
       "one_off_time", "own_words")
)


def origin_kind(origin: str) -> str:
    """The proposer of a candidate, from its origin ("rule:en.likes", "classifier:worth=…", "model")."""
    head = origin.partition(":")[0]
    return head if head in ORIGINS else "model"


def rule_id(origin: str) -> str | None:
    """The rule's id for a rule candidate."""
    kind, _, rest = origin.partition(":")
    return rest.partition(",")[0] or None if kind == "rule" else None


@dataclass(frozen=True)
class RulePrecision:
    """How often each rule's candidates were kept by the corpus (counts out of fold), shrunk to the rules' mean."""

    kept: Mapping[str, float]
    seen: Mapping[str, float]
    mean: float
    strength: float = 4.0

    def of(self, rule: str | None) -> tuple[float, float]:
        """The rule's shrunk precision and log(1 + candidates seen); (-1, 0) for what is not a rule."""
        if rule is None:
            return -1.0, 0.0
        n, k = self.seen.get(rule, 0.0), self.kept.get(rule, 0.0)
        return (k + self.strength * self.mean) / (n + self.strength), math.log1p(n)


def quoted_clauses(c: Candidate, scores: Sequence[ClauseScore], text: str) -> list[ClauseScore]:
    """The scored clauses of the message that the candidate's quote covers."""
    at = text.find(c.quote) if c.quote else -1
    if at < 0:
        return []
    span = (at, at + len(c.quote))
    return [s for s in scores if s.clause is not None and covers(s.clause, span)]


def features(c: Candidate, scores: Sequence[ClauseScore], text: str, others: Sequence[Candidate],
             rules: RulePrecision) -> list[float]:
    """The decision model's inputs for one candidate, in the order of FEATURES."""
    kind = origin_kind(c.origin)
    quote = c.quote or c.content
    covered = quoted_clauses(c, scores, text)
    worth = [s.worth for s in covered] or [0.0]
    lead = max(covered, key=lambda s: s.worth) if covered else None
    precision, seen = rules.of(rule_id(c.origin))
    overlapping = sum(1 for o in others if o is not c and o.quote and c.quote and (o.quote in c.quote or c.quote in o.quote))
    row = [float(kind == "rule"), float(kind == "classifier"), float(kind == "classifier-change"), float(kind == "model"),
           float(c.source == "explicit"), float(c.source == "inferred")]
    row += [float(c.category == cat) for cat in CATEGORIES]
    row += [float(has_cjk(quote)), c.confidence, c.importance, max(worth), sum(worth) / len(worth),
            float(lead is not None and lead.category == c.category), lead.category_p if lead else 0.0,
            float(c.polarity < 0), (lead.polarity_p if lead and lead.polarity == "negative" else 0.0), c.change,
            (lead.slot_p if lead and lead.slot != "other" and lead.slot.startswith(c.category + ":") else 0.0),
            float(bool(c.topic) and "~" not in (c.topic or "")), math.log1p(len(quote)), float(len(covered)),
            float(c.event_date is not None or c.valid_from is not None), float(bool(_QUESTION.search(quote))),
            float(bool(_HYPOTHETICAL.search(quote))), float(bool(_REPORTED.search(quote))),
            float(bool(_FIRST_PERSON.search(quote))), float(bool(_SECOND_PERSON.search(quote))),
            float(bool(_THIRD_PERSON.search(quote))), precision, seen,
            float(sum(origin_kind(o.origin) == "rule" for o in others)), float(overlapping),
            float(bool(c.said) and c.said != c.quote), float(has_negation(c.content)),
            (sum(s.category_probability(c.category) for s in covered) / len(covered) if covered else 0.0),
            float(READING in c.origin), float(bool(_SHOUTED.search(quote))), float(len(_FILLER.findall(text))),
            float(bool(_ONE_OFF.search(quote))), float(OWN_WORDS in c.origin)]
    return row


class Decider(Protocol):
    """What the pipeline asks of a decision: a probability per candidate and the bar it must reach."""

    def keep_probabilities(self, cands: Sequence[Candidate], scores: Sequence[ClauseScore], text: str,
                           others: Sequence[Candidate] = ()) -> list[float]: ...

    def bar(self, c: Candidate) -> float: ...


class DecisionModel:
    """The shipped trees and the bar a candidate's probability must reach to be kept."""

    def __init__(self, arrays: Mapping[str, np.ndarray]) -> None:
        names = tuple(str(n) for n in arrays["feature_names"])
        if names != FEATURES:
            raise ValueError("the decision weights were trained on other features; run scripts/train_decision.py")
        self.nodes = {k: np.asarray(arrays[f"node_{k}"]) for k in ("feature", "threshold", "left", "right", "leaf", "value",
                                                                  "missing_left")}
        self.roots = np.asarray(arrays["tree_roots"], dtype=np.int64)
        self.baseline = float(np.asarray(arrays["baseline"]).ravel()[0])
        self.threshold = float(np.asarray(arrays["threshold"]).ravel()[0])
        self.threshold_zh = float(np.asarray(arrays["threshold_zh"]).ravel()[0])
        rules = [str(r) for r in arrays["rule_ids"]]
        self.rules = RulePrecision(dict(zip(rules, arrays["rule_kept"].tolist())),
                                   dict(zip(rules, arrays["rule_seen"].tolist())),
                                   float(np.asarray(arrays["rule_mean"]).ravel()[0]))

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        """P(keep) for rows of features: all trees walked for all rows at once, a level per step."""
        rows = np.atleast_2d(np.asarray(rows, dtype=np.float64))
        f, t, left, right = self.nodes["feature"], self.nodes["threshold"], self.nodes["left"], self.nodes["right"]
        leaf, value, missing_left = self.nodes["leaf"], self.nodes["value"], self.nodes["missing_left"]
        at = np.broadcast_to(self.roots, (len(rows), len(self.roots))).copy()  # (row, tree) -> node
        row_of = np.broadcast_to(np.arange(len(rows))[:, None], at.shape)
        inner = ~leaf[at]
        while inner.any():
            nodes = at[inner]
            x = rows[row_of[inner], f[nodes]]
            go_left = np.where(np.isnan(x), missing_left[nodes], x <= t[nodes])
            at[inner] = np.where(go_left, left[nodes], right[nodes])
            inner = ~leaf[at]
        return 1.0 / (1.0 + np.exp(-(self.baseline + value[at].sum(axis=1))))

    def bar(self, c: Candidate) -> float:
        """The probability a candidate needs to be kept (Chinese and English have their own, chosen out of fold)."""
        return self.threshold_zh if has_cjk(c.quote or c.content) else self.threshold

    def keep_probabilities(self, cands: Sequence[Candidate], scores: Sequence[ClauseScore], text: str,
                           others: Sequence[Candidate] = ()) -> list[float]:
        """P(keep) of each candidate, read beside the message's clause scores and the other candidates."""
        if not cands:
            return []
        pool = list(others) or list(cands)
        rows = np.array([features(c, scores, text, pool, self.rules) for c in cands])
        return self.probabilities(rows).tolist()


def load_decision(path: Path) -> DecisionModel:
    """A decision model from a file written by scripts/train_decision.py."""
    with np.load(path, allow_pickle=False) as data:
        return DecisionModel({k: data[k] for k in data.files})


@lru_cache(maxsize=1)
def shipped_decision() -> DecisionModel:
    """The shipped decision model (loaded once)."""
    return load_decision(WEIGHTS)
