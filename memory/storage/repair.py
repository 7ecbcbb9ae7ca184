"""Start-up consistency check: memories, their full-text rows and their vectors agree row for row.

Every write keeps the three in step inside one transaction, so a crash cannot split them; this check
proves that at each start, and repairs whatever still disagrees (a bug, a file restored from a backup
by hand, an interrupted tool) by re-indexing, instead of ignoring it. Messages and their full-text
rows are checked the same way. The caller logs the one-line summary.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from memory.protocols import Embedder
from memory.storage import vectors
from memory.storage.database import Database
from memory.text import index_text


@dataclass
class Consistency:
    """Row ids that disagree between a table and its indexes (empty lists: all is well)."""

    fts_missing: list[int] = field(default_factory=list)      # memories without a full-text row
    fts_extra: list[int] = field(default_factory=list)        # full-text rows without a memory
    fts_stale: list[int] = field(default_factory=list)        # full-text rows with other text (deep check)
    vectors_missing: list[int] = field(default_factory=list)  # memories without a vector
    vectors_extra: list[int] = field(default_factory=list)    # vectors without a memory
    multilingual_missing: list[int] = field(default_factory=list)  # memories without a multilingual vector
    multilingual_extra: list[int] = field(default_factory=list)    # multilingual vectors without a memory
    messages_fts_missing: list[int] = field(default_factory=list)
    messages_fts_extra: list[int] = field(default_factory=list)
    messages_fts_stale: list[int] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not any(getattr(self, f.name) for f in fields(self))

    def summary(self) -> str:
        """One line saying what disagreed (and, after a repair, was fixed)."""
        labels = {
            "fts_missing": "memories missing from the full-text index",
            "fts_extra": "orphan full-text rows",
            "fts_stale": "stale full-text rows",
            "vectors_missing": "memories without a vector",
            "vectors_extra": "orphan vectors",
            "multilingual_missing": "memories without a multilingual vector",
            "multilingual_extra": "orphan multilingual vectors",
            "messages_fts_missing": "messages missing from the transcript index",
            "messages_fts_extra": "orphan transcript index rows",
            "messages_fts_stale": "stale transcript index rows",
        }
        parts = [f"{len(getattr(self, name))} {label}" for name, label in labels.items() if getattr(self, name)]
        return "; ".join(parts) if parts else "memories, full-text index and vectors agree"


def check(conn, deep: bool = False, multilingual: bool = True) -> Consistency:
    """Compare the tables row for row (read only); `deep` also compares the indexed text itself.

    Memories missing from the multilingual vector table count only if `multilingual` (its model is there
    to embed them) and the table exists (`vectors.ensure_model` made it).
    """
    memories, fts = _rows(conn, "memories", "rid", "content", deep), _rows(conn, "memories_fts", "rowid", "text", deep)
    vecs = vectors.stored_rids(conn)
    messages = _rows(conn, "messages", "rid", "content", deep)
    messages_fts = _rows(conn, "messages_fts", "rowid", "text", deep)
    found = Consistency(
        fts_missing=sorted(set(memories) - set(fts)), fts_extra=sorted(set(fts) - set(memories)),
        vectors_missing=sorted(set(memories) - vecs), vectors_extra=sorted(vecs - set(memories)),
        messages_fts_missing=sorted(set(messages) - set(messages_fts)),
        messages_fts_extra=sorted(set(messages_fts) - set(messages)),
    )
    if vectors.table_exists(conn, vectors.MULTILINGUAL):
        multi = vectors.stored_rids(conn, vectors.MULTILINGUAL)
        found.multilingual_extra = sorted(multi - set(memories))
        if multilingual:
            found.multilingual_missing = sorted(set(memories) - multi)
    if deep:
        found.fts_stale = sorted(r for r in set(memories) & set(fts) if fts[r] != index_text(memories[r]))  # type: ignore[arg-type]
        found.messages_fts_stale = sorted(r for r in set(messages) & set(messages_fts)
                                          if messages_fts[r] != index_text(messages[r]))  # type: ignore[arg-type]
    return found


def _rows(conn, table: str, key: str, text: str, with_text: bool) -> dict[int, str | None]:
    """Row id → text (or None: the quick check at each start reads ids only).

    Real tables are scanned NOT INDEXED: walking the table itself (not a smaller index that also holds
    the row ids) means a damaged page is met here, at start-up, rather than in the middle of some command.
    """
    scan = f"{table} NOT INDEXED" if not table.endswith("_fts") else table
    if with_text:
        return dict(conn.execute(f"SELECT {key}, {text} FROM {scan}").fetchall())
    return dict.fromkeys(r[0] for r in conn.execute(f"SELECT {key} FROM {scan}").fetchall())


def repair(db: Database, embedder: Embedder, deep: bool = False, multilingual: Embedder | None = None) -> Consistency:
    """Check, and re-index whatever disagrees in one transaction; returns what was found (and fixed)."""
    if check(db.conn, deep, multilingual is not None).clean:  # the usual case: a read, no write lock
        return Consistency()
    with db.transaction() as conn:
        found = check(conn, deep, multilingual is not None)  # again under the write lock: another process may have fixed it
        _fix_fts(conn, "memories", "memories_fts", found.fts_missing + found.fts_stale, found.fts_extra)
        _fix_fts(conn, "messages", "messages_fts", found.messages_fts_missing + found.messages_fts_stale,
                 found.messages_fts_extra)
        for rid in found.vectors_extra:
            vectors.delete(conn, rid, [vectors.MAIN])
        for rid in found.multilingual_extra:
            vectors.delete(conn, rid, [vectors.MULTILINGUAL])
        _embed_missing(conn, embedder, found.vectors_missing, vectors.MAIN)
        if multilingual is not None:
            _embed_missing(conn, multilingual, found.multilingual_missing, vectors.MULTILINGUAL)
    return found


def _embed_missing(conn, embedder: Embedder, missing: list[int], space: vectors.Space) -> None:
    if not missing:
        return
    marks = ",".join("?" * len(missing))
    rows = conn.execute(f"SELECT rid, content FROM memories WHERE rid IN ({marks}) ORDER BY rid", missing).fetchall()
    for (rid, _), vec in zip(rows, embedder.embed([r[1] for r in rows])):
        vectors.put(conn, rid, vec, space)


def _fix_fts(conn, table: str, fts: str, reindex: list[int], orphans: list[int]) -> None:
    for rid in orphans + reindex:
        conn.execute(f"DELETE FROM {fts} WHERE rowid = ?", (rid,))
    for rid in reindex:
        (content,) = conn.execute(f"SELECT content FROM {table} WHERE rid = ?", (rid,)).fetchone()
        conn.execute(f"INSERT INTO {fts}(rowid, text) VALUES (?, ?)", (rid, index_text(content)))
