"""The peg board, worked out by hand: where each side's pegs stand, and the skunk line."""

from __future__ import annotations

from cribcli.rules.engine import Rules
from cribcli.rules.events import Pegged, RoundEnded
from cribcli.rules.scoring import PegItem, PegKind
from cribcli.ui.board import board_lines, pegs_of
from cribcli.ui.render import Style

ASCII = Style(unicode=False)


def pegged(seat: int, scores: tuple[int, ...]) -> Pegged:
    return Pegged(seat, (PegItem(PegKind.GO, 1),), scores)


def test_the_back_peg_is_the_score_before_the_last_points() -> None:
    events = [
        pegged(0, (2, 0)),
        pegged(1, (2, 7)),
        RoundEnded(1, (2, 7)),  # no points: no peg moves
        pegged(0, (9, 7)),
        pegged(0, (12, 7)),
    ]
    assert pegs_of(events, 2) == [(12, 9), (7, 0)]


def test_a_hole_a_point_at_80_columns() -> None:
    # You: front 14, back 9; Computer: front 97, back 85. Holes 1-60 out, 61-120 back,
    # groups of five; the skunk line between 90 and 91 is the `|` in the back row.
    lines = board_lines([("You", (14, 9)), ("Computer", (97, 85))], 121, 91, ASCII, 80)
    assert lines == [
        "You      ..... ...o. ...O. ..... ..... ..... ..... ..... ..... ..... ..... .....",
        " 14      ..... ..... ..... ..... ..... .....|..... ..... ..... ..... ..... .....",
        "Computer ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....",
        " 97      ..... ..... ..... ..... ....o .....|..... .O... ..... ..... ..... .....",
    ]
    assert all(len(line) == 80 for line in lines)


def test_a_short_game_has_30_holes_out_and_30_back_and_its_scores() -> None:
    lines = board_lines([("You", (44, 39)), ("Computer", (60, 55))], 61, 31, ASCII, 80)
    assert lines == [
        "You      ..... ..... ..... ..... ..... .....",
        " 44      ..... ...o. ...O. ..... ..... .....",
        "Computer ..... ..... ..... ..... ..... .....",
        " 60      ..... ..... ..... ..... ....o ....O",
    ]


def test_a_cell_for_five_holes_below_80_columns() -> None:
    # cells of five: 14 is in the third cell (11-15), 9 in the second; 119 in the last
    lines = board_lines([("You", (14, 9)), ("Computer", (119, 118))], 121, 91, ASCII, 40)
    assert lines == [
        "You       14 .oO... ...... ......|......",
        "Computer 119 ...... ...... ......|.....O",
    ]
    assert all(len(line) <= 40 for line in lines)


def test_a_name_is_never_cut() -> None:
    # partners' names take the margin of cells of five at 80 columns...
    sides = [("You & Partner", (14, 9)), ("Left & Right", (119, 118))]
    assert board_lines(sides, 121, 91, ASCII, 80) == [
        "You & Partner  14 .oO... ...... ......|......",
        "Left & Right  119 ...... ...... ......|.....O",
    ]
    # ...and a line of their own where even that does not fit
    lines = board_lines(sides, 121, 91, ASCII, 40)
    assert lines == [
        "You & Partner 14",
        "  .oO... ...... ......|......",
        "Left & Right 119",
        "  ...... ...... ......|.....O",
    ]


def test_the_skunk_line_is_the_rules() -> None:
    assert Rules().skunk_line == 91 and Rules(target=61).skunk_line == 31
    assert Rules().skunk(90) == "skunk" and Rules().skunk(91) == ""
    assert Rules(target=61).skunk(30) == "skunk" and Rules(target=61).skunk(31) == ""
