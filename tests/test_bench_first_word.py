"""The first-word benchmark runs end to end at a tiny size and reports tokens and times per turn (no speed asserted)."""
from __future__ import annotations

import importlib.util
import re

import pytest

from models.resolve import resolve_chat_model
from tests.conftest import ROOT


def _bench():
    spec = importlib.util.spec_from_file_location("bench_first_word", ROOT / "scripts" / "bench_first_word.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_typing_pauses_are_half_the_message_then_all_of_it():
    bench = _bench()
    assert bench.pauses("My cat knocked over a plant") == ["My cat knocked", "My cat knocked over a plant"]
    assert bench.pauses("Hi!") == ["Hi!"]


@pytest.mark.slow(minutes=2)
def test_a_tiny_run_with_a_named_gguf_prints_every_turn_and_the_ratios(monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_DB_KEY", "set by the bench")  # so the bench's own setting is undone afterwards
    model = resolve_chat_model(None).path
    assert _bench().main(["--sessions", "1", "--turns", "2", "--memories", "20", "--reply-tokens", "4",
                          "--throughput-reps", "0", "--model", str(model)]) == 0
    out = capsys.readouterr().out
    assert model.name in out
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| (1|2|after restart \(3\)|median turn) \| (.*)$", out, re.M)}
    assert set(rows) == {"1", "2", "after restart (3)", "median turn"}, out
    for row in rows.values():  # message tokens, then seconds / evaluated tokens for chat, window and off
        cells = [c.strip() for c in row.strip(" |").split("|")]
        assert int(cells[0]) > 0 and all(re.fullmatch(r"\d+\.\d\d / \d+", c) for c in cells[1:]), row
    assert re.search(r"^\| window \(typing pauses\) \| \d+\.\d\dx \| \d+\.\d\dx \| \d+ \(\d+\) \| \d+\.\d\dx \|$", out, re.M)
    # the spread over sessions beside each ratio, and the machine's load the numbers were taken at
    assert re.search(r"^\| companion chat .*\| \d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\) \| \d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\) \|$",
                     out, re.M), out
    assert re.search(r"load average \(1 min\) \d+\.\d at the start, \d+\.\d at the end", out), out

