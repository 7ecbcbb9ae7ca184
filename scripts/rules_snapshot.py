"""A canonical snapshot of what the precise rules say about every user message of the corpora.

Used to prove a refactor of the rule tables changes no behaviour: run it before, run it after, diff.
For each user message (with its step's `today` and `assistant`) it writes the rule candidates
(`extract_candidates`) and what validation keeps and rejects, without the `origin` string (which
names the rule and may change with the refactor).

    python scripts/rules_snapshot.py /work/notes/rules_before.json
    python scripts/rules_snapshot.py /tmp/rules_after.json && cmp /work/notes/rules_before.json /tmp/rules_after.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory.learn.rules import extract_candidates  # noqa: E402
from memory.learn.validate import validate  # noqa: E402
from memory.records import Candidate  # noqa: E402

CORPORA = [ROOT / "corpus" / "train.jsonl", ROOT / "corpus" / "train_extra.jsonl", ROOT / "corpus" / "test.jsonl",
           ROOT.parent / "shared" / "eval" / "dev.jsonl"]
FIELDS = ("category", "content", "quote", "topic", "polarity", "event_date", "source", "confidence", "importance")


def _row(c: Candidate) -> dict:
    return {f: (str(getattr(c, f)) if f == "event_date" and getattr(c, f) else getattr(c, f)) for f in FIELDS}


def snapshot(paths: list[Path]) -> dict:
    """{corpus file name: [{id, step, candidates, kept, rejected}, …]} for every user message."""
    out: dict[str, list] = {}
    for path in paths:
        if not path.exists():
            print(f"missing: {path}", file=sys.stderr)
            continue
        rows = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            dialogue = json.loads(line)
            for n, step in enumerate(dialogue.get("steps", [])):
                user, assistant = step.get("user") or "", step.get("assistant")
                today = date.fromisoformat(step["today"])
                cands = extract_candidates(user, assistant, today)
                kept, rejected = validate(list(cands), user, assistant, today)
                rows.append({"id": dialogue.get("id"), "step": n, "candidates": [_row(c) for c in cands],
                             "kept": [_row(c) for c in kept], "rejected": [[r.content, r.reason] for r in rejected]})
        out[path.name] = rows
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="where to write the canonical JSON (outside the repository)")
    args = parser.parse_args()
    start = time.perf_counter()
    data = snapshot(CORPORA)
    args.out.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1), encoding="utf-8")
    count = sum(len(v) for v in data.values())
    print(f"{count} messages, {sum(len(r['candidates']) for v in data.values() for r in v)} candidates "
          f"in {time.perf_counter() - start:.1f} s -> {args.out}")


if __name__ == "__main__":
    main()
