"""scripts/rule_ablation.py: train cases played with every rule and with one removed, through the real pipeline."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "rule_ablation.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_a_rule_removed_replays_only_the_cases_it_fired_in_and_prints_what_changed(tmp_path):
    cases = [json.loads(x) for x in (ROOT / "corpus" / "train.jsonl").read_text(encoding="utf-8").splitlines()]
    ids = [c["id"] for c in cases if c["id"].startswith("en_work_home")][:3]
    (tmp_path / "ids").write_text("\n".join(ids))
    base = tmp_path / "base.json"
    done = _run("base", str(base), "--ids", str(tmp_path / "ids"))
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads(base.read_text())
    assert [r["id"] for r in rows] == ids and "en P" in done.stdout
    fired = sorted({rule for r in rows for rule in r["fired"]})
    assert fired, rows  # these cases' messages fire rules (a date, an age)
    done = _run("single", str(base), fired[0], "--ids", str(tmp_path / "ids"))
    assert done.returncode == 0, done.stderr[-2000:]
    name, rest = done.stdout.strip().split(": ", 1)
    count, delta = rest.split(" cases ", 1)
    assert name == fired[0] and int(count) == sum(fired[0] in r["fired"] for r in rows)
    assert set(json.loads(delta)) == {"en", "zh", "changes", "forbidden", "attack", "passed"}


def test_an_unknown_rule_id_is_named_and_nothing_is_played(tmp_path):
    base = tmp_path / "base.json"
    base.write_text("[]")
    done = _run("single", str(base), "en.no.such.rule")
    assert done.returncode == 2 and "no such rule: en.no.such.rule" in done.stderr
