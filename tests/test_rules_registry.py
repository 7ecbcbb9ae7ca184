"""Rules as data: every rule is a record with an id, a language, a slot and an explicit priority."""
from __future__ import annotations

from datetime import date

import pytest

from memory.learn.rules.candidates import RULES, extract_candidates
from memory.learn.rules.registry import LANGS, SLOTS, Rule, RuleError, check, compile_all


def _b_name(m, text):
    from memory.learn.rules.common import candidate
    return candidate("profile", f"Name is {m['name']}", m.group(0), "profile:name")


def test_every_rule_has_a_unique_id_a_language_a_slot_and_a_priority():
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids)) > 250
    for r in RULES:
        assert r.lang in LANGS and r.slot in SLOTS and isinstance(r.priority, int), r
        assert r.id.startswith(f"{r.lang}.{r.slot}.") or r.slot == "mood", r.id
    assert [r.priority for r in RULES] == sorted({r.priority for r in RULES})


def test_every_pattern_compiles():
    compile_all(RULES)


def test_the_registry_runs_rules_by_priority_not_by_table_order():
    early = Rule("en.profile.name.early", "en", "profile", 1, r"\bI'm\s+(?P<name>[A-Z][a-z]+)", _b_name)
    late = Rule("en.profile.name.late", "en", "profile", 2, r"\bI'm\s+(?P<name>\w+)", _b_name)
    assert [r.id for r in check([late, early])] == ["en.profile.name.early", "en.profile.name.late"]
    found = [c for r in check([late, early]) for c in r.candidates("I’m Alice", date(2026, 1, 1))]
    assert [c.content for c in found] == ["Name is Alice", "Name is Alice"]  # English rules read a curly apostrophe


def test_a_pattern_that_does_not_compile_fails_loudly_naming_its_rule():
    bad = Rule("en.profile.broken", "en", "profile", 5, r"\bmy\s+name\s+is\s+(?P<name>[A-Z", _b_name)
    with pytest.raises(RuleError, match=r"en\.profile\.broken.*does not compile"):
        list(bad.candidates("my name is Alice", date(2026, 1, 1)))


def test_duplicate_ids_priorities_and_malformed_records_are_refused():
    a = Rule("zh.profile.name", "zh", "profile", 10, r"我叫(?P<name>\w+)", _b_name)
    with pytest.raises(RuleError, match="used twice"):
        check([a, Rule("zh.profile.name", "zh", "profile", 11, r"叫我(?P<name>\w+)", _b_name)])
    with pytest.raises(RuleError, match="share priority 10"):
        check([a, Rule("zh.profile.name.2", "zh", "profile", 10, r"叫我(?P<name>\w+)", _b_name)])
    with pytest.raises(RuleError, match="bad language or slot"):
        check([Rule("fr.profile.nom", "fr", "profile", 1, r"je suis (?P<name>\w+)", _b_name)])
    with pytest.raises(RuleError, match="either a pattern"):
        check([Rule("en.profile.none", "en", "profile", 1, None, None)])


def test_the_table_rules_still_find_what_they_found():
    found = extract_candidates("My name is Alice and I work as a nurse. 我叫小林", None, date(2026, 11, 1))
    assert {c.topic for c in found} >= {"profile:name", "profile:job"}
