"""The memory index: one short line per active memory, grouped by category, capped in lines and bytes.

It is the always-on summary the prompt can carry. It lives in meta 'memory_index' (forgetting deletes
that key; it is rebuilt lazily). When the caps force a cut, the weakest lines go first and a warning is
recorded in meta 'index_warning'; the next consolidation acts on it by tightening.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from memory.records import Memory
from memory.storage.store import MemoryStore
from memory.storage.vectors import _meta, _set_meta  # the one pair of key/value helpers for the meta table

MAX_LINES = 200
MAX_BYTES = 25_000
LINE_CHARS = 160
TIGHT_LINE_CHARS = 80
INDEX_KEY = "memory_index"
STATE_KEY = "memory_index_state"
WARNING_KEY = "index_warning"
# Who the user is and how they want to be treated come first, both in the index and when cutting it.
CATEGORY_ORDER = ("profile", "feedback", "relationship", "preference", "event")
_HEADINGS = {"profile": "## Who they are", "feedback": "## How they want to be treated",
             "relationship": "## People and feelings", "preference": "## Likes and dislikes",
             "event": "## Dates"}
_NOTE = "(… {n} more memories not shown: the index is full)"


@dataclass
class IndexBuild:
    """A rendered index and what it left out."""

    text: str
    lines: int
    bytes: int
    total: int
    shown: int

    @property
    def cut(self) -> bool:
        return self.shown < self.total


def line_for(m: Memory, max_chars: int = LINE_CHARS) -> str:
    """The index line of one memory: its content on one line, shortened, with the date of an event."""
    text = " ".join(m.content.split())
    if m.category == "event" and m.event_date and m.event_date not in text:
        text = f"{m.event_date}: {text}"
    if len(text) > max_chars:
        text = text[: max_chars - 1].rstrip() + "…"
    return "- " + text


def _weight(m: Memory) -> tuple:
    always = m.category in ("profile", "feedback")
    return (m.pinned, always, m.importance * (0.5 + 0.5 * m.strength), m.confidence, m.updated_at or "")


def ranked_for_index(memories: list[Memory]) -> list[Memory]:
    """Active, enabled memories, strongest first: the order the index keeps them in."""
    return sorted((m for m in memories if m.status == "active" and not m.disabled), key=_weight, reverse=True)


def build_index(memories: list[Memory], tight: bool = False) -> IndexBuild:
    """Render the index of these memories (active, not disabled ones only), strongest kept when capped.

    Lines are capped first, then bytes; the cut keeps a prefix of the memories ranked by weight, so
    what goes is always the weakest.
    """
    usable = ranked_for_index(memories)
    width = TIGHT_LINE_CHARS if tight else LINE_CHARS
    lines = [line_for(m, width) for m in usable]
    note_bytes = len(_NOTE.format(n=len(usable)).encode()) + 1
    kept, n_lines, n_bytes, seen = 0, 0, 0, set()
    for m, line in zip(usable, lines):
        heading = m.category not in seen
        add_lines = 1 + heading
        add_bytes = len(line.encode()) + 1 + (len(_HEADINGS[m.category].encode()) + 1 if heading else 0)
        reserve_lines, reserve_bytes = (1, note_bytes) if kept + 1 < len(usable) else (0, 0)
        if n_lines + add_lines + reserve_lines > MAX_LINES or n_bytes + add_bytes + reserve_bytes > MAX_BYTES:
            break
        kept, n_lines, n_bytes = kept + 1, n_lines + add_lines, n_bytes + add_bytes
        seen.add(m.category)
    text = _render(usable[:kept], lines[:kept], len(usable) - kept)
    return IndexBuild(text, text.count("\n") + 1 if text else 0, len(text.encode()), len(usable), kept)


def _render(memories: list[Memory], lines: list[str], left_out: int) -> str:
    out: list[str] = []
    for category in CATEGORY_ORDER:
        group = [line for m, line in zip(memories, lines) if m.category == category]
        if group:
            out.append(_HEADINGS[category])
            out.extend(group)
    if left_out:
        out.append(_NOTE.format(n=left_out))
    return "\n".join(out)


def _fingerprint(conn) -> str:
    """Changes whenever an active memory is added, edited, pinned, disabled or leaves the active set."""
    row = conn.execute(
        "SELECT count(*), coalesce(max(rid), 0), coalesce(max(updated_at), ''), total(length(content) * rid), "
        "total(pinned * rid), total(length(category) * rid), total(importance * rid) "
        "FROM memories WHERE status = 'active' AND disabled = 0").fetchone()
    return json.dumps(list(row))


def warning(store: MemoryStore) -> dict | None:
    """The truncation warning left by the last rebuild that had to cut, or None."""
    rows = store.db.read("SELECT value FROM meta WHERE key = ?", (WARNING_KEY,))
    return json.loads(rows[0][0]) if rows else None


def rebuild(store: MemoryStore, tight: bool = False) -> IndexBuild:
    """Build the index from the active memories and store it; record or clear the truncation warning."""
    with store.db.transaction() as conn:
        build = build_index(store.list(), tight)
        _set_meta(conn, INDEX_KEY, build.text)
        _set_meta(conn, STATE_KEY, json.dumps({"fingerprint": _fingerprint(conn), "tight": tight,
                                               "built_at": store.db.now()}))
        if build.cut:
            _set_meta(conn, WARNING_KEY, json.dumps({
                "at": store.db.now(), "memories": build.total, "shown": build.shown, "lines": build.lines,
                "bytes": build.bytes, "max_lines": MAX_LINES, "max_bytes": MAX_BYTES}))
        else:
            conn.execute("DELETE FROM meta WHERE key = ?", (WARNING_KEY,))
    return build


def current_index(store: MemoryStore) -> str:
    """The stored index, rebuilt first if it is missing (e.g. after forgetting) or stale."""
    with store.db.lock:
        conn = store.db.conn
        text, state = _meta(conn, INDEX_KEY), _meta(conn, STATE_KEY)
        saved = json.loads(state) if state else {}
        if text is not None and saved.get("fingerprint") == _fingerprint(conn):
            return text
    return rebuild(store, tight=bool(saved.get("tight"))).text
