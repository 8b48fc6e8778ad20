"""The daily game: the same cards for everyone on a date, against the hard computer.

A day's game has its own seed, rules and computer, its own save (``save-daily-DATE``),
and is filed as ``games/daily-DATE.toml``; once filed, it gives a line to share and
counts towards the streak of days in a row.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from cribcli.engine import Rules
from cribcli.errors import CribbageError, UsageProblem
from cribcli.events import Dealt, GameOver, Shown
from cribcli.players import Level
from cribcli.record import LOG_LIMIT, GameInfo, Seat, loads, replay
from cribcli.store import is_file, read_text


def day_of(text: str | None, today: date) -> str:
    """The day asked for (YYYY-MM-DD), today's if none. Raises UsageProblem for a text
    that is not a date."""
    if text is None:
        return today.isoformat()
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise UsageProblem(
            f"`{text}` is not a date: write it YYYY-MM-DD, e.g. 2026-12-01"
        ) from None


def info(day: str, name: str = "You", muggins: bool = False) -> GameInfo:
    """A day's game: the same seed, rules and computer (hard) for everyone."""
    seats = (Seat(name, "human"), Seat("Computer", "computer", Level.HARD))
    return GameInfo(Rules(muggins=muggins), seats, f"daily/{day}", label=f"daily {day}")


def name(day: str) -> str:
    """A day's game's name: its save's slot and its finished log's name."""
    return f"daily-{day}"


def command(day: str) -> str:
    """How the player comes back to a day's game."""
    return f"cribbage daily --date {day}"


def finished(games: Path, day: str) -> Path | None:
    """The finished log of a day's game, if it has been played to the end. Raises
    StoreError if the games folder cannot be read."""
    path = games / f"{name(day)}.toml"
    return path if is_file(path) else None


def share_line(games: Path, day: str) -> str:
    """``cribbage daily 2026-12-01: won 121-98 in 9 deals, best hand 20``."""
    path = finished(games, day)
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
    if finished(games, today) is None:
        day -= timedelta(days=1)
    count = 0
    while finished(games, day.isoformat()) is not None:
        count += 1
        day -= timedelta(days=1)
    return count
