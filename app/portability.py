"""Export and import of memories: a JSON file for machines, Markdown for people."""
from __future__ import annotations

import json
import math
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from app.errors import UserError
from memory import CATEGORIES, InvalidInput, Memory, clean
from memory.learn import instruction_reason
from memory.storage import MAX_CONTENT, MemoryStore, new_id

FORMAT = "companion-memories"
VERSION = 1
MAX_IMPORT_BYTES = 50 * 1024 * 1024
_FIELDS = set(Memory.JSON_FIELDS)
_EMBED_BATCH = 64


def export_json(store: MemoryStore) -> str:
    """Every memory, all statuses, in the stable export format."""
    data = {"format": FORMAT, "version": VERSION, "memories": [m.to_json() for m in store.list(status="all")]}
    return json.dumps(data, ensure_ascii=False, indent=2)


# The words the desktop app uses for a memory's status (never the internal names).
STATUS_WORDS = {"active": "current", "superseded": "replaced", "expired": "expired"}


def export_markdown(store: MemoryStore) -> str:
    """A readable page: active memories grouped by category, then the older ones."""
    lines = ["# What Companion remembers", ""]
    for category in CATEGORIES:
        items = store.list(category=category)
        if not items:
            continue
        lines += [f"## {category.capitalize()}", ""]
        for m in items:
            extra = f" ({m.event_date})" if m.event_date and m.event_date not in m.content else ""
            flags = "".join([" 📌" if m.pinned else "", " (off)" if m.disabled else ""])
            lines.append(f"- {m.content}{extra}{flags}")
        lines.append("")
    older = [m for m in store.list(status="all") if m.status != "active"]
    if older:
        lines += ["## No longer current", ""] + [f"- ~~{m.content}~~ ({STATUS_WORDS.get(m.status, m.status)})"
                                                  for m in older] + [""]
    return "\n".join(lines)


def read_import(path: Path) -> list[dict]:
    """The memory dicts of an export file, or UserError saying what is wrong with it."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise UserError("file_unreadable", f"Cannot read {path}: {exc.strerror}.") from exc
    if size > MAX_IMPORT_BYTES:
        raise UserError("file_unreadable", f"{path} is {size // (1024 * 1024)} MB; imports are limited to 50 MB.")
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))  # -sig: a byte-order mark is fine
    except UnicodeDecodeError as exc:
        raise UserError("file_unreadable", f"{path} is not UTF-8 text, so it is not a Companion export.") from exc
    except json.JSONDecodeError as exc:  # the parser's own wording ("Expecting value: …") means nothing to users
        raise UserError("file_unreadable", f"{path} is not valid JSON, so it is not a Companion export. "
                                           f"The first problem is on line {exc.lineno}.") from exc
    except ValueError as exc:
        raise UserError("file_unreadable", f"{path} is not valid JSON, so it is not a Companion export.") from exc
    except RecursionError as exc:
        raise UserError("file_unreadable", f"{path} is nested too deeply to be a Companion export.") from exc
    except OSError as exc:  # a folder, a file that vanished, no permission
        raise UserError("file_unreadable", f"Cannot read {path}: {exc.strerror or exc}.") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("memories"), list):
        raise UserError("file_unreadable", f"{path} is not a Companion memory export (expected format \"{FORMAT}\").")
    if data.get("version") != VERSION:
        raise UserError("file_unreadable", f"{path} has export version {data.get('version')!r}; this Companion reads version {VERSION}.")
    return [m for m in data["memories"] if isinstance(m, dict)]


def import_memories(store: MemoryStore, items: list[dict]) -> tuple[list[Memory], list[tuple[str, str]]]:
    """Add each valid memory (keeping its id when free, and its dates); return (imported, [(content, reason)])."""
    imported, skipped = [], []
    existing = {m.content.casefold() for m in store.list(status="all")}
    for start in range(0, len(items), _EMBED_BATCH):
        batch = []
        for item in items[start:start + _EMBED_BATCH]:
            memory, reason = _to_memory(item)
            if memory is None:
                skipped.append((str(item.get("content", ""))[:80], reason))
            else:
                batch.append(memory)
        # Embedded a batch at a time (several times faster than one by one); each memory is still added
        # in its own transaction, so an import cut short keeps what it had added.
        texts = [" ".join(clean(m.content).split()) for m in batch]
        main = store.embedder.embed(texts) if batch else []
        multi = store.multilingual.embed(texts) if batch and store.multilingual is not None else [None] * len(batch)
        for memory, vector, multi_vector in zip(batch, main, multi):
            if memory.content.casefold() in existing:
                skipped.append((memory.content[:80], "already remembered"))
                continue
            try:
                with store.db.transaction():
                    added = store.add(memory, reason="imported", vector=vector, multilingual_vector=multi_vector)
            except InvalidInput as exc:  # e.g. too long: this one is skipped, the rest still come in
                skipped.append((memory.content[:80], str(exc)))
                continue
            existing.add(added.content.casefold())
            imported.append(added)
    return imported, skipped


def _to_memory(item: dict) -> tuple[Memory | None, str]:
    content = item.get("content")
    if not isinstance(content, str) or not content.strip():
        return None, "no content"
    if len(content) > MAX_CONTENT:  # refused before it is embedded: the encoder took 6 GB for a 1 MB text
        return None, f"A memory is at most {MAX_CONTENT} characters; this one has {len(content)}."
    if item.get("category") not in CATEGORIES:
        return None, f"unknown category {item.get('category')!r}"
    reason = instruction_reason(content)
    if reason:
        return None, reason
    fields = {k: v for k, v in item.items() if k in _FIELDS and v is not None}
    fields.setdefault("id", new_id())
    if not isinstance(fields["id"], str) or not fields["id"].strip():
        fields["id"] = new_id()
    if fields.get("status") not in ("active", "superseded", "expired"):
        fields["status"] = "active"
    if fields.get("source") not in ("explicit", "stated", "inferred"):
        fields["source"] = "stated"
    for name in _DATE_FIELDS:  # dates that do not parse are dropped (the store fills created/updated in)
        if name in fields and not _iso(fields[name]):
            del fields[name]
    try:
        memory = Memory(**fields)
        memory = replace(memory, confidence=float(memory.confidence), importance=float(memory.importance),
                         strength=float(memory.strength), hit_count=int(memory.hit_count),
                         pinned=_flag(memory.pinned), disabled=_flag(memory.disabled))
    except (TypeError, ValueError, OverflowError) as exc:
        return None, f"malformed fields ({exc})"
    if not all(math.isfinite(x) for x in (memory.confidence, memory.importance, memory.strength)):
        return None, "malformed fields (a number is not finite)"
    return memory, ""


_DATE_FIELDS = ("event_date", "valid_from", "valid_to", "created_at", "updated_at", "last_used_at")


def _iso(value) -> bool:
    try:
        datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return False
    return True


def _flag(value) -> bool:
    if isinstance(value, bool) or value in (0, 1):
        return bool(value)
    raise ValueError(f"{value!r} is not true or false")
