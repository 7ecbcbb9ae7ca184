"""One open encrypted database shared by the store and the transcript, with serialized transactions."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator

from memory.storage.sqlcipher import DbKey, checkpoint, connect

Clock = Callable[[], datetime]


class Database:
    """An open connection plus the lock that serializes every transaction on it."""

    def __init__(self, path: Path, key: DbKey, clock: Clock):
        self.path = path
        self.clock = clock
        self.conn = connect(path, key)
        self.lock = threading.RLock()
        self._depth = 0

    def now(self) -> str:
        """The app clock's current time as ISO 8601 (seconds)."""
        return self.clock().replace(microsecond=0).isoformat()

    @contextmanager
    def transaction(self) -> Iterator:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any error; nested calls join the outer one."""
        with self.lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            self.conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self.conn
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            finally:
                self._depth = 0

    def read(self, sql: str, params: tuple = ()) -> list:
        """Run a read query under the lock and return all rows."""
        with self.lock:
            return self.conn.execute(sql, params).fetchall()

    def checkpoint(self) -> bool:
        """Flush the WAL into the main file and truncate it; False if another connection's reader prevented it."""
        with self.lock:
            return checkpoint(self.conn)

    def close(self) -> None:
        """Checkpoint and close."""
        with self.lock:
            try:
                checkpoint(self.conn)
            finally:
                self.conn.close()
