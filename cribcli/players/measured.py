"""The hard computer's measured tables: package data in ``cribcli/players/data/``, made by
the tools in ``tools/`` (which write them with :func:`dumps`, so that what is shipped is
exactly what a tool wrote and what is read here).

Each table is a JSON object keyed by what it describes, ranks written as a player says
them (``"4 5 6 7"``, ``"A K"``), with ``about`` (what it holds) and ``made_by`` (the
command that made it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

FOLDER = Path(__file__).parent / "data"
"""Where the tables are, in the source tree (for the tools that write them)."""


def ranks_key(ranks: Iterable[int]) -> str:
    """Ranks as a table's key: ``(4, 5, 6, 7)`` is ``"4 5 6 7"``, in order."""
    return " ".join(RANK_NAMES[rank - 1] for rank in sorted(ranks))


def key_ranks(key: str) -> tuple[int, ...]:
    """A table's key as ranks, in order."""
    return tuple(sorted(RANK_NAMES.index(name) + 1 for name in key.split()))


@cache
def read(name: str) -> dict[str, Any]:
    """A table, as shipped with the package (read once)."""
    path = FOLDER / name
    if path.is_file():  # installed as files, as usual: importing importlib.resources
        text = path.read_text(encoding="utf-8")  # costs more than reading the table
    else:
        from importlib import resources

        text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    table = json.loads(text)
    assert isinstance(table, dict)
    return table


def dumps(table: dict[str, Any]) -> str:
    """A table as its file's text: one top-level key a line, and each entry of a table
    within it on a line of its own, so that a change to a table reads as a change."""
    lines = ["{"]
    for i, (key, value) in enumerate(table.items()):
        end = "," if i < len(table) - 1 else ""
        if isinstance(value, dict) and value:
            lines.append(f"  {json.dumps(key)}: {{")
            entries = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items()]
            lines.append(",\n".join(entries))
            lines.append(f"  }}{end}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write(name: str, table: dict[str, Any]) -> Path:
    """Write a table into the source tree (run by a tool). Returns its path."""
    path = FOLDER / name
    path.write_text(dumps(table), encoding="utf-8")
    return path
