"""A throwaway environment for scripts that drive the app like the tests do (no real keyring, no user data)."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def isolate(base: Path) -> None:
    """Use the file-backed test keyring under `base` (raw keys, as a real keyring gives), in subprocesses too."""
    os.environ.update({"PYTHON_KEYRING_BACKEND": "tests.support.file_keyring.FileKeyring",
                       "COMPANION_TEST_KEYRING": str(base / "keyring.json"),
                       "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")})
    os.environ.setdefault("COMPANION_MODELS_DIR", str(base / "models"))
    for var in ("COMPANION_DB_KEY", "COMPANION_TODAY", "COMPANION_CHAT_MODEL", "COMPANION_HOME"):
        os.environ.pop(var, None)
    import keyring
    from tests.support.file_keyring import FileKeyring
    keyring.set_keyring(FileKeyring())
