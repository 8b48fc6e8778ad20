"""The daily game: the same cards for everyone on a date, against the hard computer.

A day's game has its own seed, rules and computer, its own save (``save-daily-DATE``),
and is filed as ``games/daily-DATE.toml``, labelled ``daily DATE``; once filed, and
accepted by the rules (``cribbage stats`` replays it), it gives a line to share and counts
towards the streak of days in a row.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from cribcli.players import Level
from cribcli.record.log import GameInfo, Seat
from cribcli.rules.engine import Rules
from cribcli.rules.errors import UsageProblem


def day_of(text: str | None, today: date) -> str:
    """The day asked for (YYYY-MM-DD), today's if none. Raises UsageProblem for a text
    that is not a date, or a day still to come."""
    if text is None:
        return today.isoformat()
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise UsageProblem(
            f"`{text}` is not a date: write it YYYY-MM-DD, e.g. 2026-12-01"
        ) from None
    if day > today:
        raise UsageProblem(f"{day} has not come yet: its deal comes on the day")
    return day.isoformat()


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


def day_played(game: GameInfo) -> str | None:
    """The day of a daily game: a game dealt, labelled and seated as that day's is, with
    no deals carried from games before it (the computer reads everyone alike); None for
    any other game."""
    kind, _, day = (game.label or "").partition(" ")
    if kind != "daily" or not day:
        return None
    made = info(day, game.seats[0].name, game.rules.muggins)
    same = (game.seed, game.seats, game.rules, game.earlier)
    return day if same == (made.seed, made.seats, made.rules, made.earlier) else None


def share_line(
    day: str,
    won: bool,
    scores: Sequence[int],
    skunks: Sequence[str],
    deals: int,
    best_hand: int,
) -> str:
    """``cribbage daily 2026-12-01: won 121-98 in 9 deals, best hand 20`` (the player is
    seat 0, the computer seat 1)."""
    skunk = next((f" ({s})" for s in skunks if s), "")
    outcome = "won" if won else "lost"
    return (
        f"cribbage daily {day}: {outcome} {scores[0]}-{scores[1]}{skunk} in {deals} deals, "
        f"best hand {best_hand}"
    )


def streak(days: set[str], today: str) -> int:
    """Days in a row with a finished daily game, up to today (or yesterday, if today's is
    not finished)."""
    day = date.fromisoformat(today)
    if today not in days:
        day -= timedelta(days=1)
    count = 0
    while day.isoformat() in days:
        count += 1
        day -= timedelta(days=1)
    return count
