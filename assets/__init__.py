"""Fixed resources: persona texts, icons, stylesheet, translations."""
from __future__ import annotations

from pathlib import Path

ASSETS_DIR = Path(__file__).resolve().parent
PERSONA_LANGUAGES = ("en", "zh")  # en: personas/NAME.md; zh: its Simplified-Chinese rendering personas/NAME.zh.md


def persona_names() -> list[str]:
    """The personas shipped in assets/personas (chosen in Settings only); a language rendering is not another one."""
    return sorted(p.stem for p in (ASSETS_DIR / "personas").glob("*.md") if "." not in p.stem)


def system_prompt(persona: str = "default", name: str = "Companion", language: str = "en") -> str:
    """The fixed system prompt: the chosen persona, in English or Chinese, with the companion's name filled in.

    `language` only picks between the shipped files (an unknown language, or a persona without a Chinese
    rendering, gives the English text); nothing else about the text can vary.
    """
    if persona not in persona_names():
        persona = "default"
    folder = ASSETS_DIR / "personas"
    path = folder / f"{persona}.{language}.md"
    if language == "en" or language not in PERSONA_LANGUAGES or not path.exists():
        path = folder / f"{persona}.md"
    safe_name = " ".join(name.split())[:40] or "Companion"
    return path.read_text(encoding="utf-8").replace("{name}", safe_name).strip()
