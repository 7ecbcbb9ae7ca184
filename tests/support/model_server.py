"""A local model host for tests: a ThreadingHTTPServer on 127.0.0.1 serving the bundled GGUF.

It serves real bytes with Range support and misbehaves on demand (404, 500, a stall, a dropped
connection, Range ignored), plus a fake of the Hugging Face tree API for entries whose sha256 is
null. Used by tests/test_download.py (the downloader) and tests/test_models_cli.py (the CLI).
"""
from __future__ import annotations

import json
import re
import threading
from collections import defaultdict
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

from models.resolve import BUNDLED_CHAT, locate_bundled

REPO = "acme/smol-GGUF"
FILE = BUNDLED_CHAT.name
FILE_PATH = f"/{REPO}/resolve/main/{FILE}"
TREE_PATH = f"/api/models/{REPO}/tree/main"
SIZE = BUNDLED_CHAT.size
MB = 1024 * 1024


class Script:
    """What the server serves and how it misbehaves; every file request is recorded."""

    def __init__(self, gguf: Path) -> None:
        self.files = {FILE_PATH: gguf}
        self.actions: dict[str, list[str]] = defaultdict(list)  # consumed one per request
        self.sticky: dict[str, str] = {}  # applies to every request
        self.trees: dict[str, list] = {}
        self.requests: list[dict] = []
        self.release = threading.Event()

    def next_action(self, path: str) -> str:
        return self.actions[path].pop(0) if self.actions[path] else self.sticky.get(path, "ok")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # keep pytest output clean
        pass

    def do_GET(self) -> None:
        script: Script = self.server.script  # type: ignore[attr-defined]
        path = urlsplit(self.path).path
        if path.startswith("/api/"):
            return self._tree(script, path)
        action = script.next_action(path)
        record = {"path": path, "range": self.headers.get("Range"), "status": None, "sent": 0}
        script.requests.append(record)
        if path not in script.files or action == "404":
            return self._plain(record, 404, b"not found")
        if action == "500":
            return self._plain(record, 500, b"server error")
        self._body(script, record, action, script.files[path])

    def _tree(self, script: Script, path: str) -> None:
        if path not in script.trees:
            self.send_error(404)
            return
        body = json.dumps(script.trees[path]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _plain(self, record: dict, status: int, body: bytes) -> None:
        record["status"] = status
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _body(self, script: Script, record: dict, action: str, file: Path) -> None:
        size = file.stat().st_size
        match = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range") or "")
        start = int(match.group(1)) if match and action != "ignore_range" else 0
        record["status"] = 206 if start else 200
        self.send_response(record["status"])
        if start:
            self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
        self.send_header("Content-Length", str(size - start))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        kind, _, at = action.partition(":")
        limit = int(at) if at else None
        with open(file, "rb") as f:
            f.seek(start)
            pos = start
            while True:
                if limit is not None and pos >= limit:
                    if kind == "stall":
                        script.release.wait(10)
                    self.close_connection = True  # "drop": the client sees the body end early
                    return
                chunk = f.read(MB if limit is None else min(MB, limit - pos))
                if not chunk:
                    return
                try:
                    self.wfile.write(chunk)
                except OSError:
                    return
                pos += len(chunk)
                record["sent"] += len(chunk)



@contextmanager
def serving() -> Iterator[ThreadingHTTPServer]:
    """A running server for the bundled GGUF; its `script` attribute says how it behaves."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.script = Script(locate_bundled(BUNDLED_CHAT))  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.script.release.set()  # type: ignore[attr-defined]
        httpd.shutdown()
        httpd.server_close()


def base_url(httpd: ThreadingHTTPServer) -> str:
    """The server's address, to be used as the model mirror."""
    return f"http://127.0.0.1:{httpd.server_address[1]}"


def catalog_entry(ident: str = "test-smol", **over) -> dict:
    """A catalog entry for the bundled GGUF under a Hugging Face style url (served through the mirror)."""
    base = {"id": ident, "kind": "chat", "name": "Test Smol", "file": FILE,
            "url": f"https://huggingface.co{FILE_PATH}", "size": SIZE, "sha256": BUNDLED_CHAT.sha256,
            "languages": ["en"], "license": "apache-2.0", "context": 2048, "ram_gb": 0.5}
    return {**base, **over}


def write_catalog(path: Path, *entries: dict) -> Path:
    """A private catalog file (COMPANION_MODEL_CATALOG) holding `entries`."""
    path.write_text(json.dumps({"models": list(entries)}), encoding="utf-8")
    return path
