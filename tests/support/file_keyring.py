"""A keyring backend for tests: a JSON file named by COMPANION_TEST_KEYRING (shared with subprocesses).

Select it with PYTHON_KEYRING_BACKEND=tests.support.file_keyring.FileKeyring. Setting
COMPANION_TEST_KEYRING_LOCKED=1 makes it behave like a locked keyring.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.errors import KeyringLocked, PasswordDeleteError


class FileKeyring(KeyringBackend):
    priority = 1

    def _path(self) -> Path:
        return Path(os.environ["COMPANION_TEST_KEYRING"])

    def _load(self) -> dict:
        if os.environ.get("COMPANION_TEST_KEYRING_LOCKED") == "1":
            raise KeyringLocked("test keyring is locked")
        path = self._path()
        return json.loads(path.read_text()) if path.exists() else {}

    def get_password(self, service, username):
        return self._load().get(f"{service}\n{username}")

    def set_password(self, service, username, password):
        data = self._load()
        data[f"{service}\n{username}"] = password
        self._path().write_text(json.dumps(data))

    def delete_password(self, service, username):
        data = self._load()
        if data.pop(f"{service}\n{username}", None) is None:
            raise PasswordDeleteError("not found")
        self._path().write_text(json.dumps(data))
