"""`companion models list|get|use|remove|status` through the real console script, downloading from a
local 127.0.0.1 host (tests/support/model_server.py) that serves the bundled model files."""
from __future__ import annotations

import json
import socket
import time

import pytest

from models.resolve import ASSEMBLED_SHA256, EMBEDDING_MODEL_ID, resolve_embedding_model
from tests.support.model_server import (
    FILE,
    FILE_PATH,
    REPO,
    base_url,
    catalog_entry,
    write_catalog,
)


@pytest.fixture
def catalog_env(tmp_path, monkeypatch, model_host, model_script) -> dict:
    """A private catalog with the bundled GGUF as `test-smol`, downloaded through the local mirror."""
    catalog = write_catalog(tmp_path / "catalog.json", catalog_entry("test-smol"))
    monkeypatch.setenv("COMPANION_MODEL_CATALOG", str(catalog))
    monkeypatch.setenv("COMPANION_MODEL_MIRROR", base_url(model_host))
    return {"catalog": catalog}


def listing(cli) -> dict[str, dict]:
    return {item["id"]: item for item in cli.json("models", "list", "--json")}


def one_line_error(proc, after_progress: bool = False) -> str:
    """The error line; before it only progress lines of a download that was under way."""
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert "Traceback" not in proc.stderr and lines[-1].startswith("companion: "), proc.stderr
    assert len(lines) == 1 or after_progress and all(" / " in line for line in lines[:-1]), proc.stderr
    return lines[-1]


def test_list_get_use_say_remove(cli, catalog_env, model_script):
    before = listing(cli)
    assert not before["test-smol"]["installed"] and not before["test-smol"]["in_use"]
    assert before["smollm2-135m"]["in_use"] and before["smollm2-135m"]["installed"]
    assert before["test-smol"]["fit"] in ("fits", "tight", "too large")
    assert "test-smol" in cli.run("models", "list").stdout

    got = cli.run("models", "get", "test-smol", "--json")
    item = json.loads(got.stdout)
    assert item["id"] == "test-smol" and item["installed"] and not item["in_use"]
    downloaded = cli.home / "models" / "test-smol" / FILE
    assert item["path"] == str(downloaded) and downloaded.is_file()
    assert FILE in got.stderr and "MB" in got.stderr  # progress on stderr
    assert [r["range"] for r in model_script.requests if r["path"] == FILE_PATH] == [None]

    cli.run("models", "use", "test-smol")
    assert json.loads((cli.home / "settings.json").read_text())["chat_model_id"] == "test-smol"
    after = listing(cli)
    assert after["test-smol"]["in_use"] and not after["smollm2-135m"]["in_use"]
    status = cli.json("models", "status", "--json")
    assert status[0]["path"] == str(downloaded) and status[0]["source"] == "catalog test-smol"

    reply = cli.json("say", "Hi! My name is Mia.", "--json")
    assert reply["reply"].strip()

    assert "in use" in one_line_error(cli.run("models", "remove", "test-smol", check=False))
    cli.run("models", "use", "smollm2-135m")
    cli.run("models", "remove", "test-smol")
    assert not downloaded.parent.exists()
    gone = listing(cli)
    assert not gone["test-smol"]["installed"] and gone["smollm2-135m"]["in_use"]


def test_the_chosen_model_is_the_downloaded_file(cli, catalog_env):
    cli.run("models", "get", "test-smol")
    cli.run("models", "use", "test-smol")
    (cli.home / "models" / "test-smol" / FILE).unlink()
    err = one_line_error(cli.run("say", "Hi", check=False))
    assert "not downloaded yet" in err and "companion models get test-smol" in err


def test_bad_input_is_one_line_and_changes_nothing(cli, catalog_env, model_script):
    for args, words in ((["models", "get", "nope"], "no model 'nope'"),
                        (["models", "use", "test-smol"], "not downloaded yet"),
                        (["models", "remove", "test-smol"], "not installed"),
                        (["models", "remove", "smollm2-135m"], "built in")):
        assert words in one_line_error(cli.run(*args, check=False)), args
    model_script.actions[FILE_PATH] = ["404"]
    assert "HTTP 404" in one_line_error(cli.run("models", "get", "test-smol", check=False))
    assert not listing(cli)["test-smol"]["installed"]
    assert not (cli.home / "settings.json").exists() or "test-smol" not in (cli.home / "settings.json").read_text()


def test_a_wrong_checksum_exits_non_zero_with_nothing_installed(cli, catalog_env, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_MODEL_CATALOG", str(write_catalog(
        tmp_path / "bad.json", catalog_entry("test-smol", sha256="0" * 64))))
    err = one_line_error(cli.run("models", "get", "test-smol", "--json", check=False), after_progress=True)
    assert "does not match its checksum" in err
    assert not (cli.home / "models" / "test-smol" / FILE).exists() and not listing(cli)["test-smol"]["installed"]


def test_mirror_from_settings(cli, catalog_env, model_host, monkeypatch):
    monkeypatch.delenv("COMPANION_MODEL_MIRROR")
    cli.home.mkdir(parents=True, exist_ok=True)
    (cli.home / "settings.json").write_text(json.dumps({"model_mirror": base_url(model_host)}))
    cli.run("models", "get", "test-smol")
    assert listing(cli)["test-smol"]["installed"]


def test_use_a_downloaded_embedding_model(cli, catalog_env, model_script, models_dir, tmp_path, monkeypatch):
    bundled = resolve_embedding_model(models_dir).path
    for name in ASSEMBLED_SHA256:
        model_script.files[f"/{REPO}/resolve/main/{name}"] = bundled / name
    embedder = catalog_entry("test-minilm", kind="embedding", name="Test MiniLM", file="model.onnx",
                             url=f"https://huggingface.co/{REPO}/resolve/main", size=None, sha256=None,
                             files=[{"file": n, "size": (bundled / n).stat().st_size, "sha256": sha}
                                    for n, sha in ASSEMBLED_SHA256.items()],
                             fastembed_model=EMBEDDING_MODEL_ID, dim=384)
    monkeypatch.setenv("COMPANION_MODEL_CATALOG", str(write_catalog(tmp_path / "emb.json", embedder)))
    cli.run("memory", "add", "My sister Lily lives in Lyon.")
    cli.run("models", "get", "test-minilm")
    cli.run("models", "use", "test-minilm")
    status = cli.json("models", "status", "--json")
    assert status[1]["path"] == str(cli.home / "models" / "test-minilm") and status[1]["dim"] == 384
    found = cli.json("memory", "search", "where does my sister live", "--json")["results"]
    assert found and "Lily" in found[0]["content"]
    assert listing(cli)["test-minilm"]["in_use"] and not listing(cli)["minilm-l6-v2"]["in_use"]


def test_get_with_no_network_says_so_in_one_line_at_once(cli, catalog_env, monkeypatch):
    """Issue 37, item 9: offline, `models get` said a raw errno after six tries, or 'No checksum is known'."""
    with socket.socket() as s:  # nothing listens there: a refused connection, as with no network
        s.bind(("127.0.0.1", 0))
        monkeypatch.setenv("COMPANION_MODEL_MIRROR", f"http://127.0.0.1:{s.getsockname()[1]}")
    for model_id in ("test-smol", "qwen2.5-0.5b-instruct-q4_k_m"):  # a pinned checksum, and one asked of the host
        started = time.monotonic()
        line = one_line_error(cli.run("models", "get", model_id, check=False))
        assert time.monotonic() - started < 5, model_id
        assert line.startswith("companion: Cannot connect to 127.0.0.1:") and "may be offline" in line
        assert "Errno" not in line and "checksum" not in line and "COMPANION_MODEL_MIRROR" in line
