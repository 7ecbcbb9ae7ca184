"""User settings, persisted as JSON in the data dir; unknown or bad values fall back to defaults."""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import platformdirs

from app.errors import UserError
from app.private import private_folder, write_private
from memory.learn import MIN_CONFIDENCE, MIN_IMPORTANCE
from models.chat import REPEAT_PENALTY

SETTINGS_FILE = "settings.json"
ENGINE_HANG_RANGE = (5, 1800)  # seconds the Settings dialog offers for engine_hang_seconds


@dataclass
class Settings:
    """Everything the user can change in the Settings dialog."""

    chat_model: str | None = None  # a GGUF file the user picked; wins over chat_model_id
    chat_model_id: str | None = None  # a downloaded catalog model (`companion models use ID`)
    embedding_model_id: str | None = None  # None: the bundled MiniLM
    model_mirror: str | None = None  # base URL replacing the host of catalog downloads
    model_offer_dismissed: bool = False  # the "a better model is available" banner was answered
    n_ctx: int = 4096
    n_threads: int | None = None
    engine_hang_seconds: int = 60  # the chat engine is stopped (and restarted) after this long without progress
    max_reply_tokens: int = 384
    temperature: float = 0.7
    repeat_penalty: float = REPEAT_PENALTY  # llama.cpp's penalty on tokens said in the last 64 (1.0: none)
    companion_name: str = "Companion"
    persona: str = "default"
    language: str = "auto"
    memory_enabled: bool = True
    follow_ups: bool = True  # a new conversation may open by asking about a remembered event (app/follow_ups.py)
    model_extraction: str = "auto"  # auto: only with a chat model bigger than the bundled one
    min_confidence: float = MIN_CONFIDENCE  # memory/learn/thresholds.py says where the two bars come from
    min_importance: float = MIN_IMPORTANCE
    memory_budget_tokens: int = 1500
    weight_relevance: float = 0.5
    weight_importance: float = 0.2
    weight_recency: float = 0.2
    weight_confidence: float = 0.1
    relevance_floor: float = 0.35
    consolidation_enabled: bool = True
    consolidation_hour: int = 3
    key_source: str | None = None

    @classmethod
    def load(cls, home: Path) -> "Settings":
        """Read settings.json; a damaged file is reported, not silently replaced."""
        path = home / SETTINGS_FILE
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise UserError("settings_damaged", f"The settings file {path} is damaged ({exc}); fix or delete it.") from exc
        known = {f.name: f for f in fields(cls)}
        base = cls()
        kept = {}
        for key, value in (data.items() if isinstance(data, dict) else []):
            default = getattr(base, key, None)
            if key in known and (default is None or value is None or isinstance(value, type(default))):
                kept[key] = value
        return cls(**kept)

    def save(self, home: Path) -> None:
        """Write settings.json atomically."""
        private_folder(home)
        tmp = home / (SETTINGS_FILE + ".tmp")
        write_private(tmp, json.dumps(asdict(self), indent=2, ensure_ascii=False))
        os.replace(tmp, home / SETTINGS_FILE)


def resolve_home(explicit: str | None) -> Path:
    """The data dir: --home, else COMPANION_HOME, else the platform's user data dir."""
    chosen = explicit or os.environ.get("COMPANION_HOME")
    home = Path(chosen).expanduser() if chosen else Path(platformdirs.user_data_dir("Companion", "Companion"))
    try:
        private_folder(home)
    except OSError as exc:
        raise UserError("store_unusable", f"Cannot use {home} as the data folder: {exc.strerror}.") from exc
    return home.resolve()
