"""Where a text still is in a profile's database: each table through SQL, and every decrypted page of the file and
its write-ahead log (freed pages and unused space inside pages included)."""
from __future__ import annotations

from app.companion import Companion
from tests.support.sqlcipher_pages import plaintext, table_text


def traces(c: Companion, needles: list[str]) -> dict[str, list[str]]:
    """Where each needle still is: table names (through SQL) and 'pages' (the decrypted file + WAL)."""
    tables = table_text(c.db.conn)
    pages = plaintext(c.db_path, c.key.key)
    found = {}
    for needle in needles:
        raw = needle.encode("utf-8")
        where = [t for t, blob in tables.items() if raw in blob] + (["pages"] if raw in pages else [])
        if where:
            found[needle] = where
    return found
