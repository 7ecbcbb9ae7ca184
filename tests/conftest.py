"""Every test gets its own data folder, a file-backed test keyring, and the shared bundled models."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import keyring
import pytest

from tests.support.file_keyring import FileKeyring
from tests.support.model_server import FILE_PATH, Script, serving

ROOT = Path(__file__).resolve().parents[1]
CLI = Path(sys.executable).with_name("companion")


@pytest.fixture(scope="session")
def models_dir(tmp_path_factory) -> Path:
    """One assembled copy of the bundled embedding model for the whole run."""
    return tmp_path_factory.mktemp("models")


@pytest.fixture(autouse=True)
def companion_env(tmp_path, monkeypatch, models_dir) -> Path:
    """COMPANION_HOME per test, the test keyring (also for subprocesses), nothing from the developer's env."""
    home = tmp_path / "home"
    for var in ("COMPANION_DB_KEY", "COMPANION_TODAY", "COMPANION_CHAT_MODEL", "COMPANION_DEBUG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("COMPANION_HOME", str(home))
    monkeypatch.setenv("COMPANION_MODELS_DIR", str(models_dir))
    monkeypatch.setenv("COMPANION_TEST_KEYRING", str(tmp_path / "keyring.json"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "tests.support.file_keyring.FileKeyring")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    previous = keyring.get_keyring()
    keyring.set_keyring(FileKeyring())
    yield home
    keyring.set_keyring(previous)


class Cli:
    """Runs the installed `companion` console script in a subprocess."""

    def __init__(self, home: Path):
        self.home = home

    def run(self, *args: str, today: str | None = None, check: bool = True, env: dict | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess:
        cmd = [str(CLI), "--home", str(self.home)] + (["--today", today] if today else []) + list(args)
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, **(env or {})})
        if check and proc.returncode != 0:
            raise AssertionError(f"{cmd} exited {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}")
        return proc

    def json(self, *args: str, **kw):
        return json.loads(self.run(*args, **kw).stdout)


@pytest.fixture
def cli(companion_env) -> Cli:
    return Cli(companion_env)


@pytest.fixture(scope="module")
def model_host():
    """A local model host on 127.0.0.1 serving the bundled GGUF (tests/support/model_server.py)."""
    with serving() as httpd:
        yield httpd


@pytest.fixture
def model_script(model_host) -> Script:
    """A fresh script for the model host: well-behaved until a test says otherwise."""
    model_host.script.release.set()  # a stall left by the previous test ends now
    model_host.script = Script(model_host.script.files[FILE_PATH])
    return model_host.script
