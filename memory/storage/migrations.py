"""Append-only, named schema migrations. Never edit one that has shipped; add a new one."""
from __future__ import annotations

from typing import Callable

Migration = Callable[[], str]


def m001_initial() -> str:
    """Sessions, messages, memories, history, key/value meta and their full-text indexes."""
    return """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
        );
        CREATE TABLE messages (
            rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
            content TEXT NOT NULL, created_at TEXT NOT NULL, memories_used TEXT NOT NULL DEFAULT '[]'
        );
        CREATE INDEX messages_session ON messages(session_id, rid);
        CREATE TABLE memories (
            rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
            category TEXT NOT NULL CHECK (category IN ('profile','preference','relationship','event','feedback')),
            content TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','superseded','expired','deleted')),
            confidence REAL NOT NULL, importance REAL NOT NULL, strength REAL NOT NULL DEFAULT 1.0,
            source TEXT NOT NULL CHECK (source IN ('explicit','stated','inferred')),
            event_date TEXT, valid_from TEXT, valid_to TEXT,
            created_at TEXT NOT NULL, updated_at TEXT NOT NULL, last_used_at TEXT,
            hit_count INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0,
            disabled INTEGER NOT NULL DEFAULT 0, superseded_by TEXT,
            topic TEXT, quote TEXT, session_id TEXT, message_id TEXT
        );
        CREATE INDEX memories_status ON memories(status, category);
        CREATE INDEX memories_topic ON memories(topic);
        CREATE TABLE memory_history (
            rid INTEGER PRIMARY KEY, memory_id TEXT NOT NULL, action TEXT NOT NULL,
            before TEXT, after TEXT, at TEXT NOT NULL, reason TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX memory_history_memory ON memory_history(memory_id, rid);
        CREATE VIRTUAL TABLE memories_fts USING fts5(text, tokenize = 'unicode61');
        CREATE VIRTUAL TABLE messages_fts USING fts5(text, tokenize = 'unicode61');
        INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', 1);
        INSERT INTO messages_fts(messages_fts, rank) VALUES ('secure-delete', 1);
        """


def m002_consolidation_log() -> str:
    """A readable log of what each consolidation run changed."""
    return """
        CREATE TABLE consolidation_log (
            rid INTEGER PRIMARY KEY, started_at TEXT NOT NULL, finished_at TEXT,
            summary TEXT NOT NULL DEFAULT '{}', details TEXT NOT NULL DEFAULT '[]'
        );
        """


def m003_memory_changes() -> str:
    """A log of which memories changed (row ids only), so search keeps its copy of their standing current
    (memory/storage/standing.py). It keeps its last 10,000 entries."""
    return """
        CREATE TABLE memory_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, rid INTEGER NOT NULL);
        CREATE TRIGGER memories_logged_insert AFTER INSERT ON memories
            BEGIN INSERT INTO memory_changes(rid) VALUES (new.rid); END;
        CREATE TRIGGER memories_logged_update
            AFTER UPDATE OF status, disabled, importance, confidence, last_used_at, updated_at, created_at, content
            ON memories BEGIN INSERT INTO memory_changes(rid) VALUES (new.rid); END;
        CREATE TRIGGER memories_logged_delete AFTER DELETE ON memories
            BEGIN INSERT INTO memory_changes(rid) VALUES (old.rid); END;
        CREATE TRIGGER memory_changes_pruned AFTER INSERT ON memory_changes WHEN new.seq % 1000 = 0
            BEGIN DELETE FROM memory_changes WHERE seq <= new.seq - 10000; END;
        """


def m004_follow_ups() -> str:
    """Which remembered events the companion has followed up, so each is brought up once (app/follow_ups.py).
    Keyed by the memory, the kind of follow-up and the day it was about (a birthday comes back every year)."""
    return """
        CREATE TABLE follow_ups (
            memory_id TEXT NOT NULL, kind TEXT NOT NULL, occasion TEXT NOT NULL, asked_at TEXT NOT NULL,
            session_id TEXT, message_id TEXT, PRIMARY KEY (memory_id, kind, occasion)
        );
        """


def m005_memory_sources() -> str:
    """Every conversation a memory was learned or heard again in (memory/storage/sources.py), so forgetting a
    conversation takes exactly the memories it alone supports. Filled from each memory's first source."""
    return """
        CREATE TABLE memory_sources (
            rid INTEGER PRIMARY KEY, memory_id TEXT NOT NULL, session_id TEXT NOT NULL, message_id TEXT,
            quote TEXT, at TEXT NOT NULL, UNIQUE (memory_id, session_id, message_id)
        );
        CREATE INDEX memory_sources_session ON memory_sources(session_id);
        CREATE INDEX memory_sources_memory ON memory_sources(memory_id);
        INSERT INTO memory_sources(memory_id, session_id, message_id, quote, at)
            SELECT id, session_id, message_id, quote, created_at FROM memories WHERE session_id IS NOT NULL;
        """


MIGRATIONS: list[Migration] = [m001_initial, m002_consolidation_log, m003_memory_changes, m004_follow_ups,
                               m005_memory_sources]


def migrate(db) -> list[str]:
    """Apply every migration not yet recorded, each in its own transaction; return the names applied."""
    db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    done = {row[0] for row in db.execute("SELECT name FROM _migrations")}
    applied = []
    for migration in MIGRATIONS:
        if migration.__name__ in done:
            continue
        # One script = one transaction: a crash mid-migration leaves the previous schema intact.
        script = (
            "BEGIN IMMEDIATE;\n" + migration() + "\nINSERT INTO _migrations(name, applied_at) "
            f"VALUES ('{migration.__name__}', datetime('now'));\nCOMMIT;"
        )
        try:
            db.executescript(script)
        except Exception:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        applied.append(migration.__name__)
    return applied
