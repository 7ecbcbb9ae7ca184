"""Fixed resources: persona texts, icons, stylesheet, translations."""
from __future__ import annotations

from pathlib import Path

ASSETS_DIR = Path(__file__).resolve().parent


def persona_names() -> list[str]:
    """The personas shipped in assets/personas (chosen in Settings only)."""
    return sorted(p.stem for p in (ASSETS_DIR / "personas").glob("*.md"))


def system_prompt(persona: str = "default", name: str = "Companion") -> str:
    """The fixed system prompt: the chosen persona with the companion's name filled in."""
    if persona not in persona_names():
        persona = "default"
    text = (ASSETS_DIR / "personas" / f"{persona}.md").read_text(encoding="utf-8")
    safe_name = " ".join(name.split())[:40] or "Companion"
    return text.replace("{name}", safe_name).strip()
