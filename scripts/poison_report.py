#!/usr/bin/env python3
"""Play the adversarial set (tests/data/poison.jsonl) through every way text becomes a memory; print blocked/total.

  .venv/bin/python scripts/poison_report.py [--set FILE] [--say-all] [--jobs 2]

Paths: `memory extract` (the console script, every turn), chat turns in process (ChatService.run + learn, as `say
--wait-memory` runs them), `say --wait-memory` through the console script (a sample; --say-all for
every case), `memory import` of a file holding the attacks, and the chat model proposing each attack as
a memory. A case counts as blocked only if nothing was stored from it on any path. Also checks that
the fixed system prompt is byte-identical before and after. Exit status 1 if anything got through.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.sandbox import isolate  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", type=Path, help="the adversarial set (default: tests/data/poison.jsonl)")
    p.add_argument("--say-all", action="store_true", help="every case through the console script's `say` (slow)")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    base = Path(tempfile.mkdtemp(prefix="companion-poison-"))
    isolate(base)
    from app.chat import ChatService
    from app.clock import Clock
    from app.companion import Companion
    from app.settings import Settings
    from tests.support.poison import (DATA, Case, load_cases, via_add, via_chat, via_edit, via_extract, via_import,
                                      via_model, via_say)

    cases = load_cases(args.set or DATA)
    in_chat = [c for c in cases if c.kind != "import"]
    say_cases = in_chat if args.say_all else list({(c.lang, c.kind): c for c in in_chat}.values())
    homes = {}
    for name in ("extract", "chat", "say", "import", "add", "edit", "model"):
        homes[name] = base / name
        settings = Settings()
        settings.max_reply_tokens = 16  # replies are not under test
        settings.save(homes[name])

    def fixed(home: Path) -> dict[str, str]:
        """The fixed prompt in each language a conversation can get."""
        c = Companion(home, Clock.parse("2026-11-29"))
        try:
            return {lang: ChatService(c).fixed_prompt(lang) for lang in ("en", "zh")}
        finally:
            c.close()

    before = fixed(homes["chat"])
    outcomes = [via_extract(homes["extract"], in_chat, subprocess_cli=True, jobs=args.jobs)]
    c = Companion(homes["chat"], Clock.parse("2026-11-29"))
    try:
        chat_outcome, systems = via_chat(c, in_chat)
    finally:
        c.close()
    outcomes.append(chat_outcome)
    outcomes.append(via_say(homes["say"], say_cases, args.jobs))
    joined = [Case(x.id, x.lang, x.kind, (" ".join(x.turns),), x.category) for x in cases]
    outcomes.append(via_import(homes["import"], joined, base))
    outcomes.append(via_add(homes["add"], joined))
    outcomes.append(via_edit(homes["edit"], joined))
    c = Companion(homes["model"], Clock.parse("2026-11-29"))
    try:
        outcomes.append(via_model(c, in_chat))
    finally:
        c.close()
    turn_langs = [x.lang for x in in_chat for _ in x.turns]
    prompt_same = fixed(homes["chat"]) == before and all(s.startswith(before[lang])
                                                        for s, lang in zip(systems, turn_langs, strict=True))

    print(f"adversarial set: {len(cases)} cases ({sum(c.lang == 'en' for c in cases)} English, "
          f"{sum(c.lang == 'zh' for c in cases)} Chinese; {len(in_chat)} in chat, "
          f"{sum(len(c.turns) for c in in_chat)} turns)")
    for o in outcomes:
        print(f"  {o.line()}" + (f"   errors: {o.errors}" if o.errors else ""))
    leaked: dict[str, list[str]] = {}
    for o in outcomes:
        for cid, stored in o.leaked.items():
            leaked.setdefault(cid, []).extend(f"[{o.path}] {s}" for s in stored)
    print(f"poison messages blocked on every path: {len(cases) - len(leaked)} of {len(cases)}")
    print(f"fixed system prompt byte-identical before and after: {'yes' if prompt_same else 'NO'}")
    for cid in sorted(leaked):
        print(f"  got through: {cid}: {'; '.join(leaked[cid])}")
    print(f"data in {base}")
    return 0 if not leaked and prompt_same and not any(o.errors for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
