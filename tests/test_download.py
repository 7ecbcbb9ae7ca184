"""models/download.py and ModelLibrary.get against a real local HTTP server serving the bundled GGUF.

No mocks of the HTTP layer: tests/support/model_server.py serves the real file with Range support
and misbehaves on demand (404, 500, a stall, a dropped connection, Range ignored), plus a fake of
the Hugging Face tree API for entries whose sha256 is null.
"""
from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections import namedtuple
from pathlib import Path

import pytest

from models.chat import ChatModel
from models.download import DownloadCancelled, DownloadPolicy, Expected, Offline, download, part_path
from models.errors import ModelError
from models.library import INSTALLED_NAME, PINS_NAME, ModelLibrary
from models.resolve import BUNDLED_CHAT, sha256_file
from tests.support.model_server import (
    FILE,
    FILE_PATH,
    MB,
    REPO,
    SIZE,
    TREE_PATH,
    Script,
    base_url,
    catalog_entry,
)

Usage = namedtuple("Usage", "total used free")


@pytest.fixture
def script(model_script) -> Script:
    return model_script


@pytest.fixture
def mirror(model_host) -> str:
    return base_url(model_host)


def entry(ident: str = "test-smol", **over) -> dict:
    return catalog_entry(ident, **over)


def library(tmp_path: Path, monkeypatch, mirror: str, *entries: dict, **policy) -> ModelLibrary:
    """A library over the real catalog plus `entries` (via COMPANION_MODEL_CATALOG), on the local mirror."""
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"models": list(entries) or [entry()]}), encoding="utf-8")
    monkeypatch.setenv("COMPANION_MODEL_CATALOG", str(catalog))
    settings = {"timeout_s": 2.0, "retries": 2, "backoff_s": 0.01, **policy}
    return ModelLibrary(tmp_path / "data", mirror=mirror, policy=DownloadPolicy(**settings))


def file_requests(script: Script) -> list[dict]:
    return [r for r in script.requests if r["path"] == FILE_PATH]


def test_download_verifies_and_the_model_replies(tmp_path, monkeypatch, script, mirror):
    lib = library(tmp_path, monkeypatch, mirror)
    reports = []
    path = lib.get("test-smol", progress=reports.append)
    assert path == tmp_path / "data" / "models" / "test-smol" / FILE
    assert sha256_file(path) == BUNDLED_CHAT.sha256
    assert not part_path(path).exists() and (path.parent / INSTALLED_NAME).is_file()
    assert reports[-1].done == SIZE and reports[-1].total == SIZE and reports[-1].bytes_per_s > 0
    assert [r["range"] for r in file_requests(script)] == [None]
    listing = {i["id"]: i for i in lib.list_json()}["test-smol"]
    assert listing["installed"] and not listing["in_use"]
    assert lib.chat_model_path("test-smol") == path
    with ChatModel(lib.chat_model_path("test-smol"), n_ctx=256) as model:
        pieces = list(model.stream([{"role": "user", "content": "Hi"}], max_tokens=4, temperature=0.0))
    assert pieces
    lib.get("test-smol")  # installed: nothing fetched again
    assert len(file_requests(script)) == 1


def test_download_resumes_after_a_restart(tmp_path, monkeypatch, script, mirror):
    # The connection drops at 40 MB; the retry meets a 500 and, with no retries left, gives up.
    script.actions[FILE_PATH] = [f"drop:{40 * MB}", "500"]
    lib = library(tmp_path, monkeypatch, mirror, retries=0)
    with pytest.raises(ModelError, match="Try again later; it will resume"):
        lib.get("test-smol")
    dest = lib.folder("test-smol") / FILE
    kept = part_path(dest).stat().st_size
    assert kept == 40 * MB and not dest.exists() and not lib.is_installed("test-smol")
    # A new process: a new library over the same data folder.
    path = library(tmp_path, monkeypatch, mirror).get("test-smol")
    second = file_requests(script)[-1]
    assert len(file_requests(script)) == 3
    assert second["range"] == f"bytes={kept}-" and second["status"] == 206
    assert second["sent"] == SIZE - kept < SIZE
    assert sha256_file(path) == BUNDLED_CHAT.sha256


def test_dropped_connection_is_resumed_within_one_get(tmp_path, monkeypatch, script, mirror):
    script.actions[FILE_PATH] = [f"drop:{10 * MB}", f"drop:{30 * MB}"]
    path = library(tmp_path, monkeypatch, mirror).get("test-smol")
    ranges = [r["range"] for r in file_requests(script)]
    assert ranges == [None, f"bytes={10 * MB}-", f"bytes={30 * MB}-"]
    assert sum(r["sent"] for r in file_requests(script)) == SIZE
    assert sha256_file(path) == BUNDLED_CHAT.sha256


def test_server_ignoring_range_restarts_from_zero(tmp_path, monkeypatch, script, mirror):
    script.actions[FILE_PATH] = [f"drop:{20 * MB}", "ignore_range"]
    path = library(tmp_path, monkeypatch, mirror).get("test-smol")
    second = file_requests(script)[1]
    assert second["range"] == f"bytes={20 * MB}-" and second["status"] == 200 and second["sent"] == SIZE
    assert path.stat().st_size == SIZE and sha256_file(path) == BUNDLED_CHAT.sha256


def test_wrong_checksum_is_rejected_and_nothing_is_left(tmp_path, monkeypatch, script, mirror):
    lib = library(tmp_path, monkeypatch, mirror, entry(sha256="0" * 64))
    with pytest.raises(ModelError, match="does not match its checksum") as err:
        lib.get("test-smol")
    assert "\n" not in str(err.value)
    folder = lib.folder("test-smol")
    assert not (folder / FILE).exists() and not part_path(folder / FILE).exists()
    assert not lib.is_installed("test-smol")
    with pytest.raises(ModelError, match="not downloaded yet"):
        lib.chat_model_path("test-smol")


def test_missing_file_is_one_sentence_without_retries(tmp_path, monkeypatch, script, mirror):
    script.actions[FILE_PATH] = ["404"]
    with pytest.raises(ModelError, match="HTTP 404") as err:
        library(tmp_path, monkeypatch, mirror).get("test-smol")
    assert "\n" not in str(err.value)
    assert len(file_requests(script)) == 1


def test_server_errors_are_retried(tmp_path, monkeypatch, script, mirror):
    script.actions[FILE_PATH] = ["500", "500"]
    path = library(tmp_path, monkeypatch, mirror).get("test-smol")
    assert [r["status"] for r in file_requests(script)] == [500, 500, 200]
    assert sha256_file(path) == BUNDLED_CHAT.sha256


def test_server_errors_give_up_after_the_retries(tmp_path, monkeypatch, script, mirror):
    script.sticky[FILE_PATH] = "500"
    with pytest.raises(ModelError, match="HTTP 500.*tried 3 times"):
        library(tmp_path, monkeypatch, mirror).get("test-smol")
    assert len(file_requests(script)) == 3


def test_a_stalled_transfer_fails_clearly_after_the_timeout(tmp_path, monkeypatch, script, mirror):
    script.release.clear()
    script.sticky[FILE_PATH] = f"stall:{5 * MB}"
    started = time.monotonic()
    with pytest.raises(ModelError, match=r"stalled \(no data for 0.3 s\)") as err:
        library(tmp_path, monkeypatch, mirror, timeout_s=0.3, retries=1).get("test-smol")
    assert time.monotonic() - started < 8
    assert "\n" not in str(err.value)
    assert part_path(tmp_path / "data" / "models" / "test-smol" / FILE).stat().st_size == 5 * MB


def test_cancel_during_a_stall_ends_the_download_at_once(tmp_path, monkeypatch, script, mirror):
    script.release.clear()
    script.sticky[FILE_PATH] = f"stall:{5 * MB}"
    cancel = threading.Event()
    lib = library(tmp_path, monkeypatch, mirror, timeout_s=30.0, retries=1)
    threading.Timer(1.0, cancel.set).start()  # the user presses Cancel while the server sends nothing
    started = time.monotonic()
    with pytest.raises(DownloadCancelled, match="cancelled"):
        lib.get("test-smol", cancel=cancel)
    script.release.set()
    assert time.monotonic() - started < 15, "Cancel waited for the 30 s read timeout"
    assert not lib.is_installed("test-smol")


def test_cancel_stops_the_download_and_a_later_get_resumes(tmp_path, monkeypatch, script, mirror):
    lib = library(tmp_path, monkeypatch, mirror)
    checks = []

    def stop() -> bool:  # the user presses Stop after a few chunks have arrived
        checks.append(1)
        return len(checks) > 3

    with pytest.raises(DownloadCancelled, match="cancelled"):
        lib.get("test-smol", cancel=stop)
    dest = lib.folder("test-smol") / FILE
    kept = part_path(dest).stat().st_size
    assert not dest.exists() and 0 < kept < SIZE
    lib.get("test-smol", cancel=threading.Event())
    assert file_requests(script)[1]["range"] == f"bytes={kept}-"
    assert sha256_file(dest) == BUNDLED_CHAT.sha256


def test_not_enough_disk_space_is_refused_before_downloading(tmp_path, monkeypatch, script, mirror):
    lib = library(tmp_path, monkeypatch, mirror, disk_usage=lambda p: Usage(10 * SIZE, 9 * SIZE, SIZE - 1))
    with pytest.raises(ModelError, match="Not enough free disk space") as err:
        lib.get("test-smol")
    assert "\n" not in str(err.value)
    assert file_requests(script) == []
    assert {i["id"]: i for i in lib.list_json()}["test-smol"]["fit"] == "too large"


def test_null_checksum_is_taken_from_the_host_and_pinned(tmp_path, monkeypatch, script, mirror):
    script.trees[TREE_PATH] = [
        {"type": "file", "path": "README.md", "size": 10, "oid": "a" * 40},
        {"type": "file", "path": FILE, "size": SIZE, "oid": "b" * 40,
         "lfs": {"oid": BUNDLED_CHAT.sha256, "size": SIZE, "pointerSize": 134}},
    ]
    lib = library(tmp_path, monkeypatch, mirror, entry(sha256=None, size=None))
    path = lib.get("test-smol")
    assert sha256_file(path) == BUNDLED_CHAT.sha256
    pins = json.loads((tmp_path / "data" / "models" / PINS_NAME).read_text())
    assert pins["test-smol/" + FILE]["digest"] == BUNDLED_CHAT.sha256
    assert pins["test-smol/" + FILE]["size"] == SIZE
    record = json.loads((path.parent / INSTALLED_NAME).read_text())
    assert TREE_PATH in record["files"][FILE]["checksum_source"]


def test_host_checksum_that_does_not_match_is_rejected(tmp_path, monkeypatch, script, mirror):
    script.trees[TREE_PATH] = [{"type": "file", "path": FILE, "size": SIZE, "oid": "b" * 40,
                                "lfs": {"oid": "1" * 64, "size": SIZE}}]
    lib = library(tmp_path, monkeypatch, mirror, entry(sha256=None, size=None))
    with pytest.raises(ModelError, match="does not match its checksum"):
        lib.get("test-smol")
    assert not lib.is_installed("test-smol")


@pytest.mark.parametrize("tree", [None, [], [{"type": "file", "path": FILE, "size": SIZE, "oid": "b" * 40,
                                              "lfs": {"size": SIZE}}]])
def test_no_checksum_anywhere_is_refused(tmp_path, monkeypatch, script, mirror, tree):
    if tree is not None:
        script.trees[TREE_PATH] = tree
    lib = library(tmp_path, monkeypatch, mirror, entry(sha256=None, size=None))
    with pytest.raises(ModelError, match="No checksum is known") as err:
        lib.get("test-smol")
    assert "\n" not in str(err.value)
    assert file_requests(script) == []


def test_multi_file_entry_checks_small_files_by_git_blob_id(tmp_path, monkeypatch, script, mirror):
    config = tmp_path / "config.json"
    config.write_bytes(b'{"hidden_size": 8}\n')
    blob_id = hashlib.sha1(b"blob %d\0" % config.stat().st_size + config.read_bytes()).hexdigest()
    script.files[f"/{REPO}/resolve/main/config.json"] = config
    script.trees[TREE_PATH] = [{"type": "file", "path": "config.json", "size": config.stat().st_size,
                                "oid": blob_id}]
    multi = entry("test-embed", kind="embedding", url=f"https://huggingface.co/{REPO}/resolve/main",
                  files=[{"file": FILE, "size": SIZE, "sha256": BUNDLED_CHAT.sha256},
                         {"file": "config.json", "size": None, "sha256": None}])
    lib = library(tmp_path, monkeypatch, mirror, multi)
    folder = lib.get("test-embed")
    assert folder == lib.folder("test-embed")
    assert (folder / "config.json").read_bytes() == config.read_bytes()
    assert sha256_file(folder / FILE) == BUNDLED_CHAT.sha256
    assert lib.is_installed("test-embed")


def test_remove_deletes_the_model_but_not_one_in_use(tmp_path, monkeypatch, script, mirror):
    lib = library(tmp_path, monkeypatch, mirror)
    lib.get("test-smol")
    in_use = ModelLibrary(tmp_path / "data", lib.entries, in_use=["test-smol"])
    with pytest.raises(ModelError, match="in use"):
        in_use.remove("test-smol")
    lib.remove("test-smol")
    assert not lib.folder("test-smol").exists() and not lib.is_installed("test-smol")


def test_mirror_from_the_environment(tmp_path, monkeypatch, script, mirror):
    monkeypatch.setenv("COMPANION_MODEL_MIRROR", mirror)
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"models": [entry()]}), encoding="utf-8")
    monkeypatch.setenv("COMPANION_MODEL_CATALOG", str(catalog))
    path = ModelLibrary(tmp_path / "data", policy=DownloadPolicy(timeout_s=2, retries=0)).get("test-smol")
    assert sha256_file(path) == BUNDLED_CHAT.sha256


def closed_port_url() -> str:
    """A url on 127.0.0.1 where nothing listens: a connection is refused, as with no network (no real network)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def said_offline(err: pytest.ExceptionInfo, started: float) -> None:
    message = str(err.value)
    assert message.startswith("Cannot connect to 127.0.0.1:") and "may be offline" in message
    assert "Errno" not in message and "checksum" not in message and "tried" not in message
    assert err.value.code == "offline" and time.monotonic() - started < 3  # at once, not after retries


@pytest.mark.parametrize("pinned", [True, False])
def test_no_network_is_said_at_once_before_any_checksum_question(tmp_path, monkeypatch, pinned):
    """Issue 37, item 9: offline, one entry failed after ~30 s of retries with a raw errno and another at once
    with "No checksum is known"; both now say the host cannot be reached, at once."""
    one = entry() if pinned else entry(sha256=None, size=None)
    lib = library(tmp_path, monkeypatch, closed_port_url(), one, retries=5, backoff_s=1.0)
    started = time.monotonic()
    with pytest.raises(Offline) as err:
        lib.get("test-smol")
    said_offline(err, started)
    assert not (tmp_path / "data" / "models" / "test-smol").exists()


def test_an_unreachable_metadata_host_is_no_network_not_a_missing_checksum(tmp_path, monkeypatch, script, mirror):
    lib = library(tmp_path, monkeypatch, mirror, entry(sha256=None, size=None))
    lib.api_base = closed_port_url()
    started = time.monotonic()
    with pytest.raises(Offline) as err:
        lib.get("test-smol")
    said_offline(err, started)
    assert file_requests(script) == []


def test_a_connection_that_fails_mid_way_is_checked_for_network_before_retrying(tmp_path):
    started = time.monotonic()
    with pytest.raises(Offline) as err:
        download(closed_port_url() + f"{FILE_PATH}", tmp_path / FILE, Expected("sha256", BUNDLED_CHAT.sha256, SIZE,
                 "the catalog"), DownloadPolicy(timeout_s=2.0, retries=5, backoff_s=1.0))
    said_offline(err, started)
