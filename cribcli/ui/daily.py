"""The daily game's result: a line to share, and the streak of days in a row."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from cribcli.errors import CribbageError
from cribcli.events import Dealt, GameOver, Shown
from cribcli.record import LOG_LIMIT, loads, replay
from cribcli.store import is_file, read_text


def finished_daily(games: Path, day: str) -> Path | None:
    """The finished log of a day's game, if it has been played to the end."""
    path = games / f"daily-{day}.toml"
    return path if is_file(path) else None


def share_line(games: Path, day: str) -> str:
    """``cribbage daily 2026-12-01: won 121-98 in 9 deals, best hand 20``."""
    path = finished_daily(games, day)
    if path is None:
        raise CribbageError(f"the daily game for {day} is not finished yet")
    replayed = replay(loads(read_text(path, LOG_LIMIT) or ""))
    if not replayed.finished:
        raise CribbageError(f"{path}: the log does not finish the game")
    events = replayed.events
    over = next(e for e in reversed(events) if isinstance(e, GameOver))
    deals = sum(1 for e in events if isinstance(e, Dealt))
    best = max(
        (
            e.show.total
            for e in events
            if isinstance(e, Shown) and e.seat == 0 and not e.show.is_crib
        ),
        default=0,
    )
    mine, theirs = over.scores[0], over.scores[1]
    outcome = "won" if over.winner == 0 else "lost"
    skunk = f" ({over.skunks[1 - over.winner]})" if over.skunks[1 - over.winner] else ""
    return (
        f"cribbage daily {day}: {outcome} {mine}-{theirs}{skunk} in {deals} deals, best hand {best}"
    )


def streak(games: Path, today: str) -> int:
    """Days in a row, up to today (or yesterday, if today's is not finished), with a
    finished daily game."""
    day = date.fromisoformat(today)
    if finished_daily(games, today) is None:
        day -= timedelta(days=1)
    count = 0
    while finished_daily(games, day.isoformat()) is not None:
        count += 1
        day -= timedelta(days=1)
    return count


def result_lines(games: Path, day: str) -> list[str]:
    """What ``cribbage daily`` shows once the day's game is over."""
    days = streak(games, day)
    return [
        share_line(games, day),
        f"Daily streak: {days} day{'s' if days != 1 else ''} in a row.",
        "A new deal comes tomorrow; 'cribbage daily --share' prints the line above alone.",
    ]
