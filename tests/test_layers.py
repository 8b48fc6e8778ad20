"""The house's layers, as docs/design.md draws them, held against the code's imports: each
folder of ``cribcli/`` is a floor, and a module imports only from its own floor and the
floors below it (every import counts, those made inside a function too); no modules import
each other in a circle; and no module is past :data:`ROOM_LIMIT` lines."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "cribcli"

FLOORS = {
    "native": 0,
    "rules": 1,
    "players": 2,
    "record": 3,
    "protocol": 4,
    "review": 4,
    "services": 5,
    "club": 6,
    "ui": 7,
    "commands": 8,
    "cli": 8,
    "__main__": 8,
}
"""Each folder (and the package's own modules: which core runs, the command line's two)
and its floor, from the ground up."""

APART = {("protocol", "review"), ("review", "protocol")}
"""Folders of one floor that know nothing of each other."""

ROOM_LIMIT = 800
"""The most lines a module may have."""


def _module(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, root: Path = PACKAGE) -> set[str]:
    """The cribcli modules ``path`` (of the package at ``root``) imports, wherever in it
    (a name imported from a package is the module of that name, if there is one)."""
    module = _module(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("cribcli")}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            if not base.startswith("cribcli"):
                continue
            for alias in node.names:
                named = f"{base}.{alias.name}"
                as_path = root.parent / named.replace(".", "/")
                is_module = as_path.with_suffix(".py").exists() or as_path.is_dir()
                found.add(named if is_module else base)
    return found - {module}


def _graph() -> dict[str, set[str]]:
    return {_module(path): _imports(path) for path in sorted(PACKAGE.rglob("*.py"))}


def _folder(module: str) -> str | None:
    """The floor's name of a module: its folder under cribcli/ (None: the package's own
    face, which holds only the version and may be imported from anywhere)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def test_every_module_stands_on_a_floor() -> None:
    loose = [m for m in _graph() if _folder(m) is not None and _folder(m) not in FLOORS]
    assert not loose, f"modules in no layer's folder: {loose} (docs/design.md, FLOORS)"


def test_no_import_runs_up() -> None:
    up = []
    for module, imported in _graph().items():
        mine = _folder(module)
        if mine is None:
            continue
        for other in imported:
            theirs = _folder(other)
            if theirs is None or theirs == mine:
                continue
            if FLOORS[theirs] > FLOORS[mine] or (mine, theirs) in APART:
                up.append(f"{module} -> {other}")
    assert not up, "imports that run up (or across a floor):\n" + "\n".join(up)


def test_no_modules_import_each_other_in_a_circle() -> None:
    graph = _graph()
    circles: list[list[str]] = []
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph.get(module, ()):
            if other not in graph:
                continue
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            found = []
            while True:
                other = stack.pop()
                found.append(other)
                if other == module:
                    break
            if len(found) > 1:
                circles.append(sorted(found))

    for module in graph:
        if module not in index:
            visit(module)
    assert not circles, f"modules that import each other in a circle: {circles}"


def test_no_module_is_over_the_limit() -> None:
    long = {
        str(path.relative_to(PACKAGE.parent)): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > ROOM_LIMIT
    }
    assert not long, f"modules over {ROOM_LIMIT} lines: {long}"


def test_the_checks_see_an_import_made_in_a_function(tmp_path: Path) -> None:
    """The reader above finds an import made inside a function, relative or not."""
    package = tmp_path / "cribcli"
    (package / "rules").mkdir(parents=True)
    (package / "ui").mkdir()
    (package / "ui" / "render.py").write_text("")
    sample = package / "rules" / "sample.py"
    sample.write_text("def f():\n    from ..ui import render\n    import cribcli.club.lobby\n")
    assert _imports(sample, package) == {"cribcli.ui.render", "cribcli.club.lobby"}
