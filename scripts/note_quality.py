#!/usr/bin/env python3
"""How the stored notes read, over a corpus split played as `scripts/eval_corpus.py` plays it: the share of
notes that name their topic, hold one fact, carry no filler word and no stray date (issue 36's yardstick,
goal >= 95 % each), per language, with the failing notes listed.

  .venv/bin/python scripts/note_quality.py --split test            the frozen test split (scored, never tuned on)
  .venv/bin/python scripts/note_quality.py --split train --sample 400 --show 20

What each check reads (the corpus's reference memories are the gold; a stored note is matched to the reference
memories whose quoted evidence its own quote overlaps):
- names its topic: where the reference note says its topic in words ("Loves winter", topic "winter"), the
  stored note says it too. Notes matched to no reference, or to one whose topic is a slot the reference note
  does not spell out ("job" for "Works as a night nurse"), are not counted;
- one fact: no second clause joined with ";" and not the evidence of two reference memories in one note;
- no filler: none of the chat fillers in FILLERS;
- no stray date: an ISO date only in an event's note or a closing "(since DATE)", and never glued to a word
  ("2027-04-16presentation").
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from eval_corpus import play  # noqa: E402
from inner_dev import quoted_from  # noqa: E402
from memory.consolidation.job import _SINCE  # noqa: E402  # the closing '(since DATE)' consolidation writes
from models.embedder import FastEmbedEmbedder  # noqa: E402
from models.multilingual import MultilingualEmbedder  # noqa: E402
from models.resolve import resolve_embedding_model  # noqa: E402

# Words a friend writing a note about you would leave out: said for tone, not for meaning.
FILLERS_EN = ("lol", "lmao", "lmfao", "ngl", "tbh", "bro", "bruh", "ugh", "honestly", "omg", "haha", "hahaha",
              "idk", "smh", "fr", "rn", "lowkey", "highkey", "literally", "dude", "welp", "yeah", "yep", "nah")
FILLERS_ZH = ("哈哈", "呵呵", "嘿嘿", "呜呜", "啊啊", "气死我了", "笑死", "我靠", "卧槽", "hhh", "emmm", "唉")
_FILLER_EN = re.compile(r"\b(?:" + "|".join(FILLERS_EN) + r")\b", re.I)
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_GLUED = re.compile(r"[A-Za-z]\d{4}-\d{2}-\d{2}|\d{4}-\d{2}-\d{2}[A-Za-z]")  # Chinese has no spaces to lose


def has_filler(note: str) -> bool:
    return bool(_FILLER_EN.search(note)) or any(f in note for f in FILLERS_ZH)


def stray_date(note: str, category: str) -> bool:
    """A date glued to a word, or one in the words of a note that is not an event (a closing "(since DATE)" /
    "（自DATE起）" says when a taste or state began and is no stray)."""
    words = _SINCE.sub("", note)
    return bool(_GLUED.search(words)) or (category != "event" and bool(_ISO.search(words)))


def names_topic(note: str, gold: dict) -> bool | None:
    """None where the reference note does not say its topic in words either."""
    topic = (gold.get("topic") or "").strip().casefold()
    if not topic or topic not in (gold.get("content") or "").casefold():
        return None
    return topic in note.casefold()


def judge(memory: dict, case: dict) -> dict:
    """The four checks for one stored note (None: the check does not apply)."""
    note, quote = memory["content"], memory.get("quote") or ""
    golds = [g for g in case.get("memories", []) if g.get("evidence") and quoted_from(quote, g["evidence"])]
    return {"topic": names_topic(note, golds[0]) if len(golds) == 1 else None,
            "one_fact": ";" not in note and "；" not in note and len(golds) <= 1,
            "no_filler": not has_filler(note),
            "no_stray_date": not stray_date(note, memory["category"])}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="test", choices=("train", "test", "test_wave2", "test_wave3", "test_wave4", "test_wave5", "test_wave6"))
    ap.add_argument("--sample", type=int, default=0, metavar="N", help="N cases spread evenly over the split")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="list N failing notes per check")
    args = ap.parse_args()
    path = ROOT / "corpus" / f"{args.split}.jsonl"
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.sample and args.sample < len(cases):
        cases = [cases[i * len(cases) // args.sample] for i in range(args.sample)]
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    fails: dict[str, list[str]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as models_home:
        embedder = FastEmbedEmbedder(resolve_embedding_model(Path(models_home)))
        multilingual = MultilingualEmbedder()
        for case in cases:
            _, memories = play(case, embedder, True, None, multilingual)
            for m in memories:
                row = m.to_json() | {"quote": m.quote}
                for check, ok in judge(row, case).items():
                    if ok is None:
                        continue
                    for lang in (case["lang"], "all"):
                        counts[(lang, check)][0] += ok
                        counts[(lang, check)][1] += 1
                    if not ok:
                        fails[check].append(f"{case['id']}: [{m.category}] {m.content}")
    print(f"{path.name}: {len(cases)} cases")
    for lang in ("all", "en", "zh"):
        cells = [f"{check} {ok / max(1, n):.1%} ({ok}/{n})" for check in ("topic", "one_fact", "no_filler", "no_stray_date")
                 for ok, n in [counts[(lang, check)]]]
        print(f"{lang:<4} " + "  ".join(cells))
    for check, lines in fails.items():
        for line in lines[:args.show]:
            print(f"  {check} fails  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
