#!/usr/bin/env python3
"""Play the development set through the real CLI and print precision, recall and per-kind results.

Each case runs in a fresh data folder: `companion --home H --today D say USER --wait-memory` per step
(or `memory extract USER --assistant A` for a step that carries the companion's previous message),
then `memory list --json`. Scoring follows ../shared/eval/README.md.

  .venv/bin/python scripts/eval_dev.py [--set PATH] [--fast] [--jobs 2] [--only SUBSTRING] [--show-fails]

--fast uses `memory extract` for every step (no chat reply): the same pipeline, quicker.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SET = ROOT.parent / "shared" / "eval" / "dev.jsonl"
CLI = str(Path(sys.executable).with_name("companion"))


def run_case(case: dict, models_dir: str, fast: bool) -> list[dict]:
    """Play one case in a fresh home and return the active memories after the last step."""
    with tempfile.TemporaryDirectory() as home:
        # The CLI is the editable install of one checkout; PYTHONPATH makes it run this one's code (a worktree's too).
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "COMPANION_DB_KEY": "eval-passphrase", "COMPANION_MODELS_DIR": models_dir, "PYTHONPATH": path}
        for step in case["steps"]:
            base = [CLI, "--home", home, "--today", step["today"]]
            if step.get("assistant") or fast:
                cmd = base + ["memory", "extract", step["user"]]
                if step.get("assistant"):
                    cmd += ["--assistant", step["assistant"]]
            else:
                cmd = base + ["say", step["user"], "--wait-memory", "--json"]
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
            if proc.returncode != 0:
                raise RuntimeError(f"{case['id']}: {' '.join(cmd[-3:])} failed: {proc.stderr.strip()}")
        last = case["steps"][-1]["today"]
        out = subprocess.run([CLI, "--home", home, "--today", last, "memory", "list", "--json"],
                             capture_output=True, text=True, env=env, check=True)
        return json.loads(out.stdout)


def _safe_run(case: dict, models_dir: str, fast: bool) -> list[dict] | None:
    try:
        return run_case(case, models_dir, fast)
    except (RuntimeError, subprocess.SubprocessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None


def _has(text: str, needle: str) -> bool:
    return needle.lower() in text.lower()


def satisfies(m: dict, item: dict) -> bool:
    """Does one memory meet one expect item (README matching rules)?"""
    text = m["content"]
    if item.get("category") and m["category"] != item["category"]:
        return False
    if not all(_has(text, s) for s in item.get("all", [])):
        return False
    if item.get("any") and not any(_has(text, s) for s in item["any"]):
        return False
    return not any(_has(text, s) for s in item.get("none", []))


def score_case(case: dict, memories: list[dict]) -> dict:
    """Per-case counts and pass/fail."""
    expect = case.get("expect", [])
    met = [any(satisfies(m, it) for m in memories) for it in expect]
    useful = [m for m in memories if any(satisfies(m, it) for it in expect)]
    violations = [(f, m["content"]) for f in case.get("forbid", []) for m in memories
                  if any(_has(m["content"], s) for s in f.get("any", []))]
    counts_ok = all(sum(_has(m["content"], w) for m in memories) == n
                    for w, n in (case.get("expect_count") or {}).items())
    return {"id": case["id"], "kind": case["kind"], "lang": case["lang"], "stored": len(memories),
            "useful": len(useful), "expect": len(expect), "met": sum(met), "violations": violations,
            "passed": all(met) and not violations and counts_ok, "memories": memories}


def report(results: list[dict], show_fails: bool) -> None:
    stored = sum(r["stored"] for r in results)
    useful = sum(r["useful"] for r in results)
    expect = sum(r["expect"] for r in results)
    met = sum(r["met"] for r in results)
    precision = useful / stored if stored else 1.0
    recall = met / expect if expect else 1.0
    print(f"cases {len(results)}  passed {sum(r['passed'] for r in results)}")
    print(f"precision {precision:.3f} ({useful}/{stored})  recall {recall:.3f} ({met}/{expect})  "
          f"forbid violations {sum(len(r['violations']) for r in results)}")
    kinds = defaultdict(list)
    for r in results:
        kinds[r["kind"]].append(r["passed"])
        kinds["lang:" + r["lang"]].append(r["passed"])
    for kind, passes in sorted(kinds.items()):
        print(f"  {kind:<14} {sum(passes)}/{len(passes)}")
    if show_fails:
        for r in results:
            if not r["passed"]:
                print(f"FAIL {r['id']}: met {r['met']}/{r['expect']}, violations {r['violations']}")
                for m in r["memories"]:
                    print(f"     [{m['category']}] {m['content']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default=str(DEFAULT_SET))
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only")
    ap.add_argument("--show-fails", action="store_true")
    args = ap.parse_args()
    cases = [json.loads(line) for line in Path(args.set).read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.only:
        cases = [c for c in cases if args.only in c["id"]]
    with tempfile.TemporaryDirectory() as models_dir:
        run_case({"id": "warm-up", "steps": [{"today": "2026-01-01", "user": "hi"}]}, models_dir, True)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            memories = list(pool.map(lambda c: _safe_run(c, models_dir, args.fast), cases))
    results = [score_case(c, m) for c, m in zip(cases, memories) if m is not None]
    failed = [c["id"] for c, m in zip(cases, memories) if m is None]
    if failed:
        print(f"cases that could not run (counted nowhere): {', '.join(failed)}")
    report(results, args.show_fails)
    return 0


if __name__ == "__main__":
    sys.exit(main())
