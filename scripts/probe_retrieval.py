#!/usr/bin/env python3
"""Retrieval probe: are memories found by meaning, in English, in Chinese, and across the two?

  .venv/bin/python scripts/probe_retrieval.py [--data tests/data/retrieval_probe.jsonl] [--misses] [--json]
                                             [--main-only]

Every fact of the data file (one JSON object a line: id, lang, fact, question, and for English facts
a Chinese question_zh) is remembered through the real `memory add` path (MemoryService.add) in one
encrypted store in a temp data folder, with the embedding models the app would use (the bundled MiniLM
unless the temp profile's settings say otherwise, plus the multilingual USE space; `--main-only` searches
without the multilingual space, as before it existed). Then every question runs through the `memory search`
logic (MemoryService.search_many, the hybrid of vectors and BM25 with the app's scoring) and the fact
must come back first (hit@1) or in the top three (hit@3). Groups: English questions about English
facts, Chinese about Chinese, and Chinese questions about English facts (cross-lingual).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.clock import Clock  # noqa: E402
from app.companion import Companion  # noqa: E402
from app.memory_service import MemoryService  # noqa: E402
from memory.text import tokens  # noqa: E402

DEFAULT_DATA = ROOT / "tests" / "data" / "retrieval_probe.jsonl"
GROUPS = (("en", "English → English"), ("zh", "Chinese → Chinese"), ("zh→en", "Chinese → English"))


@dataclass(frozen=True)
class Probe:
    """One question, the fact it is about, and the group it counts in."""

    group: str
    fact_id: str
    fact: str
    question: str


def read_probes(path: Path) -> tuple[list[dict], list[Probe]]:
    """The facts of the data file and every question about them."""
    facts = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    probes = []
    for f in facts:
        probes.append(Probe(f["lang"], f["id"], f["fact"], f["question"]))
        if f.get("question_zh"):
            probes.append(Probe("zh→en", f["id"], f["fact"], f["question_zh"]))
    return facts, probes


def shared_tokens(question: str, fact: str) -> float:
    """Share of the question's search tokens that also occur in the fact (how easy BM25 has it)."""
    q = set(tokens(question))
    return len(q & set(tokens(fact))) / len(q) if q else 0.0


def run(data: Path, k: int = 3, main_only: bool = False) -> tuple[dict, list[dict], str]:
    """Store the facts in a temp profile, search every question; per-group counts, the misses, the model."""
    facts, probes = read_probes(data)
    with tempfile.TemporaryDirectory(prefix="probe-retrieval-") as tmp:
        companion = Companion(Path(tmp), Clock.parse(None), passphrase="retrieval probe")
        if main_only:
            companion.store.multilingual = None
        try:
            service = MemoryService(companion)
            id_of = {f["id"]: service.add(f["fact"]).id for f in facts}
            started = time.perf_counter()
            results = list(service.search_many([p.question for p in probes], k))
            elapsed = time.perf_counter() - started
            model = f"{companion.embedder.model_id} ({companion.embedder.dim} dims)"
            if companion.store.multilingual is not None:
                model += f" + {companion.multilingual.model_id} ({companion.multilingual.dim} dims)"
        finally:
            companion.close()
    stats = {g: {"n": 0, "hit1": 0, "hit3": 0, "shared": 0.0} for g, _ in GROUPS}
    misses = []
    for probe, (_, hits) in zip(probes, results):
        ranked = [h.memory.id for h in hits]
        s = stats[probe.group]
        s["n"] += 1
        s["hit1"] += ranked[:1] == [id_of[probe.fact_id]]
        s["hit3"] += id_of[probe.fact_id] in ranked[:3]
        s["shared"] += shared_tokens(probe.question, probe.fact)
        if ranked[:1] != [id_of[probe.fact_id]]:
            misses.append({"group": probe.group, "question": probe.question, "fact": probe.fact,
                           "got": [h.memory.content for h in hits[:3]]})
    stats["_ms_per_query"] = 1000 * elapsed / max(1, len(probes))
    return stats, misses, model


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--misses", action="store_true", help="list the questions whose fact was not first")
    parser.add_argument("--json", action="store_true", help="print the numbers as one JSON object")
    parser.add_argument("--main-only", action="store_true", help="without the multilingual vector space")
    args = parser.parse_args()
    stats, misses, model = run(args.data, main_only=args.main_only)
    if args.json:
        print(json.dumps({"model": model, "groups": stats, "misses": misses if args.misses else None},
                         ensure_ascii=False))
        return 0
    print(f"embedding models: {model}; {stats['_ms_per_query']:.1f} ms a query (search_many, batched)")
    print(f"{'group':<20} {'n':>3}  {'hit@1':>12}  {'hit@3':>12}  shared tokens")
    for group, label in GROUPS:
        s = stats[group]
        if s["n"]:
            print(f"{label:<20} {s['n']:>3}  {s['hit1']:>3} ({100 * s['hit1'] / s['n']:3.0f}%)  "
                  f"{s['hit3']:>3} ({100 * s['hit3'] / s['n']:3.0f}%)  {100 * s['shared'] / s['n']:.0f}%")
    if args.misses:
        for m in misses:
            print(f"\n[{m['group']}] {m['question']}\n  want: {m['fact']}\n  got:  " + "\n        ".join(m["got"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
