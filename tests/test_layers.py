"""Imports point one way: ui → app → memory, models. memory/ and models/ never import Qt, app or ui.

Also: code outside memory/ imports only a memory package's public surface (the names its __init__
lists), and no module imports itself round a circle, not even through an import inside a function.
"""
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
PACKAGES = ("app", "ui", "memory", "models", "assets")
FOLDERS = {"storage": "storage", "learn": "learning", "recall": "recall", "consolidation": "consolidation"}


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str, root: Path) -> bool:
    base = root.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _bound_in_init(package: str, root: Path) -> set[str]:
    """Names a package's __init__ binds at its top level (a name it binds hides a submodule of that name)."""
    init = root.joinpath(*package.split(".")) / "__init__.py"
    if not init.is_file():
        return set()
    names = set()
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _type_checking_only(tree: ast.AST) -> set[int]:
    """Line numbers of imports under `if TYPE_CHECKING:` (never run, so no circle)."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            lines.update(n.lineno for stmt in node.body for n in ast.walk(stmt) if hasattr(n, "lineno"))
    return lines


def import_edges(path: Path, root: Path = ROOT) -> set[str]:
    """The project modules this file imports, anywhere in it (also inside functions): `from a.b import c`
    counts as importing the module a.b.c when a.b's __init__ does not bind c itself, else a.b."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skip = _type_checking_only(tree)
    edges = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            edges.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            bound = _bound_in_init(node.module, root)
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                edges.add(sub if alias.name not in bound and _is_module(sub, root) else node.module)
    return {e for e in edges if e.split(".")[0] in PACKAGES and _is_module(e, root)}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module name → the project modules it imports, for every module of the layers."""
    graph = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            graph[_module_name(path, root)] = import_edges(path, root)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each strongly connected group of modules (Tarjan), as a path back to its start."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1 or v in graph.get(v, ()):
                found.append(_path_round(v, group, graph))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _path_round(start: str, group: set[str], graph: dict[str, set[str]]) -> list[str]:
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(graph.get(path[-1], ())):
            if w == start:
                return path + [start]
            if w in group and w not in seen:
                seen.add(w)
                paths.append(path + [w])
    return [start, start]


def surface_violations(root: Path = ROOT) -> list[str]:
    """Imports from app/ or ui/ that reach past a memory package's __init__ into one of its modules."""
    wrong = []
    for package in ("app", "ui"):
        for path in sorted((root / package).rglob("*.py")):
            for name in import_edges(path, root):
                if name.startswith("memory") and not (root.joinpath(*name.split(".")) / "__init__.py").is_file():
                    wrong.append(f"{path.relative_to(root)} imports {name}")
    return wrong


def test_imports_point_one_way():
    wrong = []
    for package, banned in FORBIDDEN.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            bad = _imported_roots(path) & banned
            if bad:
                wrong.append(f"{path.relative_to(ROOT)} imports {', '.join(sorted(bad))}")
    assert wrong == []


def test_no_import_circles():
    assert [" → ".join(c) for c in circles(import_graph())] == []


def test_app_and_ui_import_only_the_public_surface_of_memory():
    assert surface_violations() == []


def test_every_layer_exists():
    for package in ("app", "ui", "memory", "models", "assets", "tests"):
        assert (ROOT / package).is_dir(), package


def test_memory_is_in_folders_by_responsibility():
    """A reader finds storage, learning, recall and consolidation by folder name; rules live in learn/rules."""
    for folder in [*FOLDERS, "learn/rules"]:
        assert (ROOT / "memory" / folder / "__init__.py").is_file(), folder
    loose = sorted(p.name for p in (ROOT / "memory").glob("*.py"))
    # the date parser and the holiday calendar it reads, shared by learn and consolidation
    assert loose == ["__init__.py", "dates.py", "errors.py", "holidays.py", "protocols.py", "records.py", "text.py"]


def hidden_modules(root: Path = ROOT) -> list[str]:
    """Names a memory package's __init__ binds to something other than its submodule of that name: then
    `import memory.x.y as m` gives that thing instead of the module (a trap for monkeypatching tests)."""
    wrong = []
    for init in sorted((root / "memory").rglob("__init__.py")):
        package = _module_name(init, root)
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.ImportFrom):
                continue
            for alias in node.names:
                name = alias.asname or alias.name
                if _is_module(f"{package}.{name}", root) and f"{node.module}.{alias.name}" != f"{package}.{name}":
                    wrong.append(f"{package}.{name}")
    return wrong


def test_no_public_name_hides_a_module_of_the_same_name():
    assert hidden_modules() == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for package in PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
    return tmp_path


def test_the_circle_check_finds_a_circle_held_together_by_an_import_inside_a_function(tmp_path):
    root = _tree(tmp_path, {
        "app/__init__.py": "", "app/a.py": "from app import b\n",
        "app/b.py": "def f():\n    from app.a import x\n", "app/c.py": "from app.b import f\n",
    })
    assert circles(import_graph(root)) == [["app.a", "app.b", "app.a"]]


def test_the_circle_check_ignores_imports_for_type_checking_only(tmp_path):
    root = _tree(tmp_path, {
        "app/__init__.py": "", "app/a.py": "from app import b\n",
        "app/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app.a import x\n",
    })
    assert circles(import_graph(root)) == []


def test_the_hidden_module_check_finds_a_function_named_like_its_module(tmp_path):
    root = _tree(tmp_path, {
        "memory/__init__.py": "", "memory/recall/search.py": "def search(): ...\n",
        "memory/recall/__init__.py": "from memory.recall.search import search\n",
    })
    assert hidden_modules(root) == ["memory.recall.search"]


def test_the_surface_check_finds_a_reach_into_a_memory_module(tmp_path):
    root = _tree(tmp_path, {
        "memory/__init__.py": "", "memory/storage/__init__.py": "from memory.storage.store import S\n",
        "memory/storage/store.py": "S = 1\n",
        "app/__init__.py": "", "app/ok.py": "from memory.storage import S\n",
        "app/wrong.py": "from memory.storage.store import S\n",
    })
    assert surface_violations(root) == ["app/wrong.py imports memory.storage.store"]
