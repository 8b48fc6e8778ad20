"""Charts drawn in the terminal's own characters: a game's story (one side's chance to win
after every deal, its costliest mistakes marked under the deals they were made in, as
lichess draws a game's evaluation) and a history's points lost a deal, month by month.
Block characters, or plain ones with ``--ascii``; strings only, nothing prints."""

from __future__ import annotations

from collections.abc import Sequence

from cribcli.review.coach import Decision
from cribcli.review.story import Chance
from cribcli.ui.render import WIDE, Style, fit, possessive

HEIGHT = 8
"""Rows of the story's chart: an eighth of the chance each."""
_EIGHTHS = " ▁▂▃▄▅▆▇█"
_LABEL = 6
"""Columns of the left-hand labels (``100% │``)."""
MARKED = 3
"""How many of the costliest mistakes (or worse) the chart marks."""


def marked(decisions: Sequence[Decision]) -> list[tuple[int, Decision]]:
    """The costliest mistakes and blunders (:data:`MARKED` of them at most), numbered
    from 1, costliest first."""
    costly = [d for d in decisions if d.mark in ("mistake", "blunder")]
    worst = sorted(costly, key=lambda d: -d.lost)[:MARKED]
    return list(enumerate(worst, start=1))


def story_lines(
    chances: Sequence[Chance],
    decisions: Sequence[Decision],
    name: str,
    style: Style,
    width: int = WIDE,
) -> list[str]:
    """The chart of ``name``'s chance to win before the first deal and after each one (a
    column each, the deals numbered below), the costliest of ``decisions`` (mistakes and
    worse) numbered under the deals they were made in, and what each was; empty if there
    is nothing to draw."""
    if len(chances) < 2:
        return []
    marks = marked(decisions)
    room = max(width - _LABEL - 1, 1)
    step = max(1, -(-len(chances) // room))  # (a very long game: every step-th deal)
    shown = list(chances[::step])
    if shown[-1] is not chances[-1]:
        shown.append(chances[-1])
    wide = max(1, min(3, room // len(shown)))
    unicode = style.unicode
    bar, mid, edge = ("│", "┈", "└") if unicode else ("|", ".", "+")
    lines = fit(f"{possessive(name)} chance to win, before the first deal and after each:", width)
    for row in range(HEIGHT - 1, -1, -1):
        label = "100%" if row == HEIGHT - 1 else " 50%" if row == HEIGHT // 2 else ""
        cells = []
        for point in shown:
            fill = point.chance * HEIGHT - row
            if unicode:
                cell = _EIGHTHS[max(0, min(8, round(fill * 8)))]
            else:
                cell = "#" if fill >= 0.5 else " "
            if cell == " " and row == HEIGHT // 2:
                cell = mid  # (the even line, where the bar does not reach it)
            cells.append(cell * wide)
        lines.append(f"{label:>4} {bar}{''.join(cells)}".rstrip())
    axis = "-" if not unicode else "─"
    lines.append(f"  0% {edge}{axis * (wide * len(shown))}")
    numbers = [" "] * (wide * len(shown))
    for place, point in enumerate(shown):
        if point.round % 5 == 0 and point.round:
            text = str(point.round)
            start = place * wide
            if all(c == " " for c in numbers[start : start + len(text)]):
                numbers[start : start + len(text)] = text[: len(numbers) - start]
    lines.append(f"{'deal':>4}  {''.join(numbers)}".rstrip())
    if marks:
        under = [" "] * (wide * len(shown))
        for number, decision in marks:
            column = _place_of(shown, decision.round)
            if column is not None:
                under[column * wide] = str(number)
        lines.append(f"{'':>4}  {''.join(under)}".rstrip())
        for number, decision in marks:
            what = style.cards(decision.chose) if decision.kind != "count" else "count"
            lines += fit(
                f"  {number}: round {decision.round}, {decision.kind} {what}: lost "
                f"{decision.lost:.2f} ({decision.mark})",
                width,
            )
    return lines


def _place_of(shown: Sequence[Chance], round_number: int) -> int | None:
    """The column of the deal a decision was made in (the point after it)."""
    for place, point in enumerate(shown):
        if point.round >= round_number:
            return place
    return None


def lost_lines(
    months: Sequence[tuple[str, int, float]], style: Style, width: int = WIDE
) -> list[str]:
    """Points lost a deal to mistakes, month by month: a bar each (``months``: each its
    month, its reviewed games and the points lost a deal), the longest bar the worst."""
    if len(months) < 2:
        return []
    most = max(lost for _, _, lost in months) or 1.0
    room = max(width - 30, 5)
    lines = fit("Points lost a deal to mistakes, month by month:", width)
    for month, games, lost in months:
        eighths = round(lost / most * room * 8)
        if style.unicode:
            bar = "█" * (eighths // 8) + (_EIGHTHS[eighths % 8] if eighths % 8 else "")
        else:
            bar = "#" * round(eighths / 8)
        played = f"{games} game{'s' if games != 1 else ''}"
        lines.append(f"  {month}  {bar or '.':<{room}} {lost:.2f} ({played})".rstrip())
    return lines
