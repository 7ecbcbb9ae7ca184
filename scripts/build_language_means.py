#!/usr/bin/env python3
"""Build models/use_language_means.npz: the mean USE-multilingual vector of English and of Chinese text.

  .venv/bin/python scripts/build_language_means.py

USE multilingual v3 puts every Chinese sentence a little closer to every other Chinese sentence than
to an English one with the same meaning (the language itself is a direction in its space). Subtracting
each language's mean vector before comparing removes most of that direction, so an English question
finds an English or a Chinese fact by meaning rather than by script. The means come from the user
messages and reference memories of the corpus's train split (never the test split, never the
retrieval probe), up to 3,000 texts per language.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.multilingual import LANGUAGE_MEANS, language_of, raw_encoder  # noqa: E402

PER_LANGUAGE = 3000


def corpus_texts(path: Path) -> dict[str, list[str]]:
    texts: dict[str, list[str]] = {"en": [], "zh": []}
    for line in path.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        for text in [s["user"] for s in case["steps"]] + [m["content"] for m in case.get("memories", [])]:
            texts[language_of(text)].append(text)
    return texts


def main() -> int:
    texts = corpus_texts(ROOT / "corpus" / "train.jsonl")
    encoder = raw_encoder()
    means = {lang: np.asarray(encoder.encode(items[:PER_LANGUAGE]), dtype=np.float32).mean(axis=0)
             for lang, items in texts.items()}
    np.savez(LANGUAGE_MEANS, **means)
    print(f"wrote {LANGUAGE_MEANS} from " + ", ".join(f"{min(len(v), PER_LANGUAGE)} {k}" for k, v in texts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
