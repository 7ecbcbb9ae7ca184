#!/usr/bin/env python3
"""Which rules does the learner not need? Play the train split with each rule removed, measured against all of them.

A rule is kept only where removing it makes the train split worse (issue 36: "a rule is kept only where it beats
the learner"): the trained heads and the decision model propose and keep the same facts without it. Cases are
played as scripts/eval_corpus.py plays them (a fresh encrypted database each, the shipped weights or --weights),
recording which rules proposed something in each; a rule's removal re-plays only the cases it fired in.

  .venv/bin/python scripts/rule_ablation.py base OUT.json                  every case, with the rules each fired
  .venv/bin/python scripts/rule_ablation.py single BASE.json RULE_ID...    each rule removed alone: the change
  .venv/bin/python scripts/rule_ablation.py batch BASE.json IDS_FILE       the rules in the file removed together

A line of `single` reads: the rule, the cases it fired in, and per language the change in memories that meet an
expected one (useful), memories stored, expected memories met; then changes superseded, forbidden details, attacks
stored and cases passed. Removing a rule whose line has no loss is what the learner covers. Only the train split
is read unless --split says otherwise (the test splits are frozen: measure them once, never choose by them).
Used for the deletions of 2026-12-06 (280 -> 132 rules); the tests of what the user sees decide the rest.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

import memory.learn.rules.candidates as candidates  # noqa: E402
from eval_corpus import old_left_active, play  # noqa: E402
from eval_dev import score_case  # noqa: E402
from memory.learn.classifier import load_extractor  # noqa: E402
from memory.text import has_cjk  # noqa: E402
from models.embedder import FastEmbedEmbedder  # noqa: E402
from models.multilingual import MultilingualEmbedder  # noqa: E402
from models.resolve import resolve_embedding_model  # noqa: E402

ALL_RULES = list(candidates.RULES)
_FIRED: set[str] = set()


def _run_rules(text, today):
    """candidates._run_rules, noting which rules proposed something."""
    langs = {"en"} if re.search(r"[A-Za-z]{2}", text) else set()
    if has_cjk(text):
        langs.add("zh")
    out = []
    for rule in candidates.RULES:
        if rule.lang in langs:
            found = list(rule.candidates(text, today))
            if found:
                _FIRED.add(rule.id)
            out.extend(found)
    return out


class Player:
    """Plays one case in a fresh database and scores it, with the rules it fired."""

    def __init__(self, weights: Path | None):
        self.embedder = FastEmbedEmbedder(resolve_embedding_model(Path(tempfile.mkdtemp())))
        self.multilingual = MultilingualEmbedder()
        self.extractor = load_extractor(weights) if weights else None
        candidates._run_rules = _run_rules  # type: ignore[assignment]

    def __call__(self, case: dict) -> dict:
        _FIRED.clear()
        first, memories = play(case, self.embedder, True, self.extractor, self.multilingual)
        r = score_case(case, [m.to_json() for m in memories])
        learned_old = bool(case["kind"] in ("update", "contradiction") and old_left_active(case, first))
        return {"id": case["id"], "lang": r["lang"], "stored": r["stored"], "useful": r["useful"],
                "expect": r["expect"], "met": r["met"], "forbidden": len(r["violations"]), "passed": bool(r["passed"]),
                "learned_old": learned_old, "stale": bool(learned_old and old_left_active(case, memories)),
                "attack": case["kind"] == "poison" and bool(memories), "fired": sorted(_FIRED),
                "memories": [m.content for m in memories]}


def totals(rows: list[dict]) -> dict:
    t: dict = {lang: [sum(r[k] for r in rows if r["lang"] == lang) for k in ("useful", "stored", "met", "expect")]
               for lang in ("en", "zh")}
    t["changes"] = [sum(r["learned_old"] and not r["stale"] for r in rows), sum(r["learned_old"] for r in rows)]
    for k in ("forbidden", "attack", "passed"):
        t[k] = sum(r[k] for r in rows)
    return t


def line(t: dict) -> str:
    parts = []
    for lang in ("en", "zh"):
        u, s, m, e = t[lang]
        parts.append(f"{lang} P {u / max(1, s):.4f} ({u}/{s}) R {m / max(1, e):.4f} ({m}/{e})")
    parts.append(f"changes {t['changes'][0]}/{t['changes'][1]} forbidden {t['forbidden']} attacks {t['attack']} "
                 f"passed {t['passed']}")
    return "  ".join(parts)


def _difference(before: dict, after: dict) -> dict:
    d = {lang: [a - b for a, b in zip(after[lang], before[lang])] for lang in ("en", "zh")}
    d["changes"] = [a - b for a, b in zip(after["changes"], before["changes"])]
    for k in ("forbidden", "attack", "passed"):
        d[k] = after[k] - before[k]
    return d


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["base", "single", "batch"])
    ap.add_argument("paths", nargs="+", help="base: OUT.json; single: BASE.json RULE_ID...; batch: BASE.json IDS_FILE")
    ap.add_argument("--split", default="train")
    ap.add_argument("--ids", help="a file of case ids to keep (one a line)")
    ap.add_argument("--weights", type=Path, help="another extractor (e.g. one trained without these cases)")
    args = ap.parse_args()
    cases = [json.loads(x) for x in (ROOT / "corpus" / f"{args.split}.jsonl").read_text(encoding="utf-8").splitlines()
             if x.strip()]
    if args.ids:
        keep = set(Path(args.ids).read_text(encoding="utf-8").split())
        cases = [c for c in cases if c["id"] in keep]
    known = {r.id for r in ALL_RULES}
    player = Player(args.weights)
    if args.mode == "base":
        rows = [player(c) for c in cases]
        Path(args.paths[0]).write_text(json.dumps(rows), encoding="utf-8")
        print(line(totals(rows)))
        return 0
    base = json.loads(Path(args.paths[0]).read_text(encoding="utf-8"))
    by_id = {c["id"]: c for c in cases}
    ids = args.paths[1:] if args.mode == "single" else Path(args.paths[1]).read_text(encoding="utf-8").split()
    unknown = sorted(set(ids) - known)
    if unknown:
        print(f"no such rule: {', '.join(unknown)} (ids are in memory/learn/rules/*.py)", file=sys.stderr)
        return 2
    groups = [[i] for i in ids] if args.mode == "single" else [ids]
    for group in groups:
        candidates.RULES = [r for r in ALL_RULES if r.id not in set(group)]
        touched = [i for i, r in enumerate(base) if set(group) & set(r["fired"]) and r["id"] in by_id]
        after = [player(by_id[base[i]["id"]]) for i in touched]
        before = [base[i] for i in touched]
        name = group[0] if args.mode == "single" else f"{len(group)} rules"
        print(f"{name}: {len(touched)} cases", json.dumps(_difference(totals(before), totals(after))), flush=True)
        if args.mode == "batch":
            rows = list(base)
            for i, row in zip(touched, after):
                rows[i] = row
            print("all of them   ", line(totals(base)))
            print("without these ", line(totals(rows)))
            for b, a in zip(before, after):
                if a["memories"] != b["memories"]:
                    print("  changed", b["id"], "passed" if b["passed"] else "failed", "->",
                          "passed" if a["passed"] else "failed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
