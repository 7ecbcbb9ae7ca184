"""Every test gets its own data folder, a file-backed test keyring, and the shared bundled models."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import keyring
import keyring.core
import pytest

from app.cli import main as cli_main
from tests.support.file_keyring import FileKeyring
from tests.support.model_server import FILE_PATH, Script, serving

ROOT = Path(__file__).resolve().parents[1]
CLI = Path(sys.executable).with_name("companion")


def pytest_collection_modifyitems(items) -> None:
    """The long runs (marked slow, longest first by their `minutes`) first: with workers in parallel
    (pytest-xdist hands out tests in this order), a 10-minute test that started last would be the run's tail."""
    def order(item) -> float:
        slow = item.get_closest_marker("slow")
        return 0.0 if slow is None else -float(slow.kwargs.get("minutes", 1))
    items.sort(key=order)


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
    """Runs the `companion` command line in this process: `app.cli.main` with captured streams, the same entry
    the console script calls, so the output, JSON and exit codes asserted are the script's. `env` applies for
    the one command (PYTHON_KEYRING_BACKEND included: the keyring backend is swapped for it). The tests where
    the process itself is the point (the script starting, signals, kill -9, pipes) start it themselves."""

    def __init__(self, home: Path):
        self.home = home

    def run(self, *args: str, today: str | None = None, check: bool = True, env: dict | None = None,
            input: str = "") -> subprocess.CompletedProcess:
        cmd = ["--home", str(self.home)] + (["--today", today] if today else []) + list(args)
        out, err = io.StringIO(), io.StringIO()
        with _environment(env or {}):
            code = cli_main(cmd, stdin=io.StringIO(input), stdout=out, stderr=err)
        proc = subprocess.CompletedProcess(["companion", *cmd], code, out.getvalue(), err.getvalue())
        if check and proc.returncode != 0:
            raise AssertionError(f"{cmd} exited {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}")
        return proc

    def json(self, *args: str, **kw):
        return json.loads(self.run(*args, **kw).stdout)


@contextmanager
def _environment(env: dict[str, str]):
    """os.environ with `env` on top for one command, and the keyring backend it names."""
    saved = {k: os.environ.get(k) for k in env}
    previous = keyring.get_keyring()
    os.environ.update(env)
    if "PYTHON_KEYRING_BACKEND" in env:
        keyring.set_keyring(keyring.core.load_keyring(env["PYTHON_KEYRING_BACKEND"]))
    try:
        yield
    finally:
        keyring.set_keyring(previous)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


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
