"""Which core runs: the hot modules compiled to native code (mypyc, from these very files:
``hatch_build.py``), or the Python files themselves. Both give the same answers; the
compiled one is faster.

Decided once, as the package is first imported: ``CRIBBAGE_CORE=interpreted`` asks for the
Python files (CI runs the tests both ways, the benchmarks measure both side by side); in a
source checkout, a compiled module older than its Python file means the file was edited
since ``pip install -e .`` compiled it, and then the whole core runs from the Python files
(a compiled module calls the others compiled beside it: all of them or none), with a line
on standard error saying so.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from importlib.util import spec_from_file_location
    from types import ModuleType

CORE = "interpreted"
"""``compiled`` or ``interpreted``: what ``cribbage --version`` says runs."""

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


class _Sources:
    """Finds cribcli's modules as their Python files, passing over compiled ones (a meta
    path finder: the importing machinery asks it first)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("cribcli.") or path is None:
            return None
        name = fullname.rpartition(".")[2]
        for entry in path:
            base = os.path.join(entry, name)
            if os.path.isfile(base + ".py"):
                return spec_from_file_location(fullname, base + ".py")
            if os.path.isfile(os.path.join(base, "__init__.py")):
                init = os.path.join(base, "__init__.py")
                return spec_from_file_location(fullname, init, submodule_search_locations=[base])
        return None


def _compiled() -> list[tuple[str, str]]:
    """Each compiled module of the package, and its Python file."""
    found = []
    for folder in ("rules", "players"):
        where = os.path.join(_PACKAGE, folder)
        try:
            names = os.listdir(where)
        except OSError:
            continue
        for name in names:
            if name.endswith((".so", ".pyd")):
                source = os.path.join(where, name.split(".")[0] + ".py")
                found.append((os.path.join(where, name), source))
    return found


def choose() -> str:
    """Decide which core runs (once), and return it."""
    global CORE
    compiled = _compiled()
    if not compiled:
        CORE = "interpreted"
        return CORE
    if os.environ.get("CRIBBAGE_CORE") == "interpreted":
        CORE = "interpreted"
    elif os.path.exists(os.path.join(os.path.dirname(_PACKAGE), "hatch_build.py")) and any(
        os.path.getmtime(source) > os.path.getmtime(native)
        for native, source in compiled
        if os.path.exists(source)
    ):
        print(
            "cribbage: the compiled core is older than its Python files (edited since "
            "'pip install -e .'): running them interpreted until it is compiled again",
            file=sys.stderr,
        )
        CORE = "interpreted"
    else:
        CORE = "compiled"
        return CORE
    global spec_from_file_location
    from importlib.util import spec_from_file_location  # (before the finder is asked)

    sys.meta_path.insert(0, _Sources())
    return CORE
