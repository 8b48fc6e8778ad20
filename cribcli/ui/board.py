"""The peg board: each side's front and back peg, drawn in the width there is, and the hand
line under it. Strings only; nothing prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cribcli.rules.cards import Card
from cribcli.rules.scoring import COUNT_LIMIT
from cribcli.ui.render import WIDE, Style

Pegs = tuple[int, int]
"""A side's front peg (its score) and back peg (its score before the last points)."""


def pegs_of(events: Iterable[object], sides: int) -> list[Pegs]:
    """Each side's pegs after ``events``: the front peg moves on when the side scores, and
    the back peg takes its old hole, as on a board."""
    pegs = [(0, 0)] * sides
    for event in events:
        scores = getattr(event, "scores", None)
        if scores is None:
            continue
        for side, score in enumerate(scores):
            if score != pegs[side][0]:
                pegs[side] = (score, pegs[side][0])
    return pegs


_HOLES = {True: ("\u00b7", "\u25cf", "\u25cb"), False: (".", "O", "o")}
"""A hole, the front peg and the back peg: Unicode, or ASCII."""


def board_lines(
    sides: Sequence[tuple[str, Pegs]],
    target: int,
    skunk_line: int,
    style: Style,
    width: int = WIDE,
) -> list[str]:
    """The peg board: each side's pegs on its street of holes, in groups of five.

    Where the names and two rows of holes fit (at ``WIDE`` columns with names of eight
    letters), a hole a point in two rows, out and back (60 holes a row to 121, 30 to 61),
    a side's name and score in the margin; narrower, a cell for five holes, in groups of
    six cells, on one row of 40 columns. A name is never cut. The skunk line (the first
    hole that is not a skunk) is drawn ``|`` where it falls inside a row."""
    hole, front_peg, back_peg = _HOLES[style.unicode]
    label = max(8, *(len(name) for name, _ in sides))  # a name is never cut
    per_cell, group = 1, 5
    row_size = (target - 1) // 2
    wide = width >= label + 1 + row_size + row_size // group - 1
    if not wide:
        per_cell, group, row_size = 5, 6, target
    cells = -(-(target - 1) // per_cell)
    own_line = not wide and label + 5 + cells + (cells - 1) // group > width
    lines = []
    for name, (front, back) in sides:
        street = []
        for first in range(1, target, per_cell):  # the target's own hole is the game
            holes = range(first, first + per_cell)
            peg = style.bold(front_peg) if front in holes else back_peg if back in holes else hole
            street.append((first, peg))
        for start in range(0, len(street), row_size // per_cell):
            row = street[start : start + row_size // per_cell]
            text = ""
            for i in range(0, len(row), group):
                if i:
                    text += "|" if row[i][0] == skunk_line else " "
                text += "".join(peg for _, peg in row[i : i + group])
            if own_line:  # the names on lines of their own
                lines.extend([f"{name} {front}", f"  {text}"])
            elif not wide:
                lines.append(f"{name:<{label}}{front:>4} {text}")
            elif start == 0:
                lines.append(f"{name:<{label}} {text}")
            else:
                lines.append(f"{front:>3}{'':<{label - 3}} {text}")
    return lines


def hand_line(hand: Sequence[Card], count: int | None, style: Style) -> str:
    """A hand, with cards that would take the count past 31 dimmed (or in brackets)."""
    parts = []
    for card in hand:
        text = style.card(card)
        if count is not None and count + card.value > COUNT_LIMIT:
            text = style.faint(f"[{card.ascii() if not style.unicode else card.unicode()}]")
        parts.append(text)
    return " ".join(parts)
