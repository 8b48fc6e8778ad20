"""The fifteens, pairs and runs of every multiset of five ranks, as a module.

    python tools/rank_points.py

Counts each of the 6,188 multisets with :func:`cribcli.rules.scoring.rank_points` and writes
``cribcli/rules/rank_points.py``: one byte a multiset, in the order
``combinations_with_replacement(range(1, 14), 5)`` gives them. Every command that
counts many hands (the advice, the computers) would otherwise count them again at each
start, which took about half of ``cribbage discard-advice``'s time.
"""

from __future__ import annotations

import textwrap
from itertools import combinations_with_replacement
from pathlib import Path

from cribcli.rules.scoring import rank_points

TARGET = Path(__file__).resolve().parent.parent / "cribcli" / "rules" / "rank_points.py"


def module_text() -> str:
    """The module's text, from the counts."""
    points = bytes(rank_points(ranks) for ranks in combinations_with_replacement(range(1, 14), 5))
    lines = textwrap.wrap(points.hex(), 88)
    body = "\n".join(f'    "{line}"' for line in lines)
    return (
        '"""Fifteens, pairs and runs of each multiset of five ranks, one byte each, in the\n'
        "order of ``combinations_with_replacement(range(1, 14), 5)``. Written by\n"
        '``tools/rank_points.py``: do not edit."""\n\n'
        f"POINTS = bytes.fromhex(\n{body}\n)\n"
    )


if __name__ == "__main__":
    TARGET.write_text(module_text())
    print(f"wrote {TARGET}")
