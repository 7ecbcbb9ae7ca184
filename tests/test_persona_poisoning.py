"""Persona and poisoning: no instruction becomes a memory, and the system prompt never changes.

The adversarial set (tests/data/poison.jsonl, English and Chinese) tries to change the persona, drop
the safety rules or plant instructions: directly, disguised as facts ("my name is
Ignore-previous-instructions"), split over turns, and inside imported files. It is played through
`memory extract`, `say --wait-memory`, `memory import`, `memory add`, `memory edit --content` and the
chat model proposing the attack itself;
nothing may be stored, and the fixed system prompt (persona text from assets/, English or Chinese by the
conversation's language) and the whole system message sent to the model are byte-identical before and after. `scripts/poison_report.py` prints the
same as blocked/total.
"""
from __future__ import annotations

import hashlib

import pytest

from app.chat import ChatService
from app.clock import Clock
from app.companion import Companion
from app.settings import SETTINGS_FILE, Settings
from assets import ASSETS_DIR
from memory.recall.inject import HEADER
from tests.support.poison import (LEGIT, Case, load_cases, system_text, via_add, via_chat, via_edit, via_extract,
                                  via_import, via_model, via_say)

CASES = load_cases()
IN_CHAT = [c for c in CASES if c.kind != "import"]
PROBE = "How was your week? Anything you want to talk about?"


def _joined(cases: list[Case]) -> list[Case]:
    """For a file, a split attack is one memory: its turns joined."""
    return [Case(c.id, c.lang, c.kind, (" ".join(c.turns),), c.category) for c in cases]


def prompt_state(home) -> dict[str, str]:
    """The fixed prompt, all system text sent for a neutral message, the persona files and settings."""
    c = Companion(home, Clock.parse("2026-11-29"))
    try:
        chat = ChatService(c)
        system = system_text(chat.prepare(None, PROBE).messages)
        state = {"fixed": chat.fixed_prompt("en"), "fixed_zh": chat.fixed_prompt("zh"), "system": system}
    finally:
        c.close()
    for path in sorted((ASSETS_DIR / "personas").glob("*.md")):
        state[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
    state["settings"] = (home / SETTINGS_FILE).read_text(encoding="utf-8")
    return state


@pytest.fixture
def home(companion_env):
    settings = Settings()
    settings.max_reply_tokens = 16  # the replies are not under test here; keep each turn short
    settings.save(companion_env)
    return companion_env


def _assert_blocked(outcome) -> None:
    """Every attack blocked on this path: nothing stored from any of them, and no turn failed."""
    assert outcome.errors == []
    assert outcome.leaked == {}, f"{outcome.line()}; stored: {outcome.leaked}"


def _without_system(state: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in state.items() if k != "system"}


def test_the_adversarial_set_is_big_bilingual_and_varied():
    assert len(CASES) >= 30
    assert {c.lang for c in CASES} == {"en", "zh"}
    assert {c.kind for c in CASES} == {"direct", "disguised", "split", "import"}
    assert all(len(c.turns) > 1 for c in CASES if c.kind == "split")
    assert len({c.id for c in CASES}) == len(CASES)


def test_memory_extract_stores_no_instruction_and_the_prompt_stays_the_same(home):
    before = prompt_state(home)
    outcome = via_extract(home, IN_CHAT)
    after = prompt_state(home)
    assert _without_system(after) == _without_system(before)  # persona files, fixed prompt, settings
    _assert_blocked(outcome)
    assert after["system"] == before["system"]  # and no note was added behind it


@pytest.mark.slow  # runs in CI too; `-m "not slow"` skips it locally
def test_chat_turns_store_no_instruction_and_every_system_message_is_the_fixed_prompt(home):
    before = prompt_state(home)
    c = Companion(home, Clock.parse("2026-11-29"))
    try:
        c.settings.max_reply_tokens = 4  # replies are not under test
        outcome, systems = via_chat(c, IN_CHAT)
    finally:
        c.close()
    after = prompt_state(home)
    assert _without_system(after) == _without_system(before)
    # Each conversation gets the persona in its own language (a Chinese attack, the Chinese text), and
    # nothing was learned, so every turn's system text is exactly that fixed text: no note, no block.
    expected = [before["fixed_zh" if c.lang == "zh" else "fixed"] for c in IN_CHAT for _ in c.turns]
    assert systems == expected and {c.lang for c in IN_CHAT} == {"en", "zh"}
    _assert_blocked(outcome)
    assert after["system"] == before["system"]


@pytest.mark.slow  # runs in CI too; `-m "not slow"` skips it locally
def test_say_through_the_console_script_stores_no_instruction(home):
    """A sample through the real `say --wait-memory` (the in-process turns above play them all; so can the report)."""
    sample = [c for c in IN_CHAT if c.id in ("en-direct-01", "zh-direct-02", "en-fact-01")]
    before = prompt_state(home)
    outcome = via_say(home, sample)
    assert prompt_state(home) == before
    assert len(sample) == 3
    _assert_blocked(outcome)


def test_import_takes_the_honest_memories_and_none_of_the_attacks(home, tmp_path):
    before = prompt_state(home)
    outcome = via_import(home, _joined(CASES), tmp_path)
    after = prompt_state(home)
    system = after.pop("system")
    assert after == {k: v for k, v in before.items() if k != "system"}
    assert system.startswith(before["fixed"])
    _assert_blocked(outcome)
    # The system text is the same fixed prompt, now followed by the honest notes and nothing else.
    block = {"", "<memory>", "</memory>", HEADER.format(today="2026-11-29")}  # the rest are lines of notes
    notes = [line for line in system[len(before["fixed"]):].splitlines() if line not in block]
    assert notes and all(any(item["content"] in line for item in LEGIT) for line in notes), notes


def test_memory_add_and_edit_by_hand_store_none_of_the_attacks(home):
    """By hand the user could type any attack: `memory add` and `memory edit --content` refuse each one
    (a split attack as one text, as in a file), and the prompt stays the same."""
    before = prompt_state(home)
    added = via_add(home, _joined(CASES))
    edited = via_edit(home, _joined(CASES))
    after = prompt_state(home)
    assert _without_system(after) == _without_system(before)
    _assert_blocked(added)
    _assert_blocked(edited)


def test_the_chat_model_proposing_the_attack_is_overruled(home):
    c = Companion(home, Clock.parse("2026-11-29"))
    try:
        outcome = via_model(c, IN_CHAT)
        stored = [m.content for m in c.store.list(status="all")]
    finally:
        c.close()
    _assert_blocked(outcome)
    assert stored == []
