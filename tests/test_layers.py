"""Imports point one way: ui → app → memory, models. memory/ and models/ never import Qt, app or ui."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "memory": {"PySide6", "app", "ui", "models"},
    "models": {"PySide6", "app", "ui", "memory"},
    "app": {"ui", "PySide6"},
    "assets": {"PySide6", "app", "ui", "memory", "models"},
}


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_imports_point_one_way():
    wrong = []
    for package, banned in FORBIDDEN.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            bad = _imported_roots(path) & banned
            if bad:
                wrong.append(f"{path.relative_to(ROOT)} imports {', '.join(sorted(bad))}")
    assert wrong == []


def test_every_layer_exists():
    for package in ("app", "ui", "memory", "models", "assets", "tests"):
        assert (ROOT / package).is_dir(), package
