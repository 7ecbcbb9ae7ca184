"""Rules as data: every extraction rule is a `Rule` record, and the registry runs them in priority order.

A rule has an id ("en.profile.name"), a language ("en", "zh"), the slot it fills (a memory category),
an explicit priority (lower runs first; when two rules give one topic, the earlier candidate wins) and
either a regex with a builder (match, text -> Candidate | None) or a scan (text, today -> candidates)
for rules that read the whole message. Patterns compile on first use, so importing the tables is
cheap; a pattern that does not compile raises `RuleError` naming the rule.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cached_property
from typing import Callable, Iterable, Iterator

from memory.learn.rules.apostrophes import loosen_apostrophes
from memory.records import Candidate

Builder = Callable[[re.Match, str], "Candidate | None"]
Scan = Callable[[str, date], "list[Candidate]"]
LANGS = frozenset({"en", "zh"})
SLOTS = frozenset({"profile", "preference", "relationship", "mood", "event", "feedback"})


class RuleError(ValueError):
    """A rule that cannot run: its pattern (or a lexicon in it) does not compile, or its record is malformed."""


@dataclass(frozen=True)
class Rule:
    """One extraction rule: what it reads, what it builds, and when it runs relative to the others."""

    id: str
    lang: str
    slot: str
    priority: int
    pattern: str | None
    build: Builder | None = None
    flags: int = 0
    scan: Scan | None = field(default=None, compare=False)

    @cached_property
    def compiled(self) -> re.Pattern[str]:
        """The pattern, compiled on first use (English patterns also read curly and dropped apostrophes)."""
        if self.pattern is None:
            raise RuleError(f"rule {self.id}: a scan rule has no pattern")
        source = self.pattern
        if self.lang == "en":
            source = loosen_apostrophes(source)
        try:
            return re.compile(source, self.flags)
        except re.error as exc:
            raise RuleError(f"rule {self.id}: pattern does not compile: {exc}") from exc

    @property
    def origin(self) -> str:
        """What a candidate of this rule says about where it came from ("rule:en.profile.name,priority=1000")."""
        return f"rule:{self.id},priority={self.priority}"

    def candidates(self, text: str, today: date) -> Iterator[Candidate]:
        """The candidates this rule finds in the user's text, each naming the rule as its origin."""
        if self.scan is not None:
            found: Iterable[Candidate | None] = self.scan(text, today)
        else:
            assert self.build is not None
            found = (self.build(m, text) for m in self.compiled.finditer(text))
        for c in found:
            if c is not None:
                yield replace(c, origin=self.origin)


def check(rules: Iterable[Rule]) -> list[Rule]:
    """The rules sorted by priority, after checking each record and that ids and priorities are unique."""
    out = sorted(rules, key=lambda r: r.priority)
    seen_ids: dict[str, Rule] = {}
    seen_prio: dict[int, Rule] = {}
    for r in out:
        if r.lang not in LANGS or r.slot not in SLOTS or not r.id.startswith(r.lang + "."):
            raise RuleError(f"rule {r.id}: bad language or slot ({r.lang}, {r.slot})")
        if (r.scan is None) == (r.build is None) or (r.scan is None) == (r.pattern is None):
            raise RuleError(f"rule {r.id}: needs either a pattern with a builder or a scan")
        if r.id in seen_ids:
            raise RuleError(f"rule id {r.id} is used twice")
        if r.priority in seen_prio:
            raise RuleError(f"rules {seen_prio[r.priority].id} and {r.id} share priority {r.priority}")
        seen_ids[r.id], seen_prio[r.priority] = r, r
    return out


def is_rule_origin(origin: str) -> bool:
    """True for a candidate a rule proposed ("rule" or "rule:<id>,priority=<n>"), not the classifier or the model."""
    return origin == "rule" or origin.startswith("rule:")


def compile_all(rules: Iterable[Rule]) -> None:
    """Compile every pattern now (a test, or a start-up that wants failures early)."""
    for r in rules:
        if r.pattern is not None:
            r.compiled  # noqa: B018 - compiling is the point
