"""A player's history: the sums over their games' records (:mod:`cribcli.review.stats`),
the daily game's result and streak, and the days' quizzes answered.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from cribcli.record import daily
from cribcli.record.store import (
    Places,
    Warn,
    load_settings,
    read_table,
    write_atomic,
)
from cribcli.review.grading import GRADE_WINDOWS, Grade
from cribcli.review.stats import GameRecord, Lost, records
from cribcli.rules.tally import ROLES, PointSums, Role

# --- the quizzes -----------------------------------------------------------------------

QUIZ_LIMIT = 1 << 20
"""The most bytes the quiz file may hold (a day takes about 40)."""
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def kept_loss(lost: float) -> float:
    """What an answer lost, as the quiz book keeps it and the share line says it: to the
    hundredth, so that the line said at the answer and the line said again from the book
    the same day agree (1.095 is not rounded one way and then the other)."""
    return round(lost, 2)


class QuizAnswer(NamedTuple):
    """A day's quiz as answered: what the throw lost and what the lay lost (None until
    answered), and whether it was answered on the day itself (only those make a streak)."""

    throw: float | None
    lay: float | None
    on_the_day: bool

    @classmethod
    def from_json(cls, data: object) -> QuizAnswer | None:
        """Read back from the quiz file, checked."""
        if not isinstance(data, list) or len(data) != 3 or type(data[2]) is not bool:
            return None
        lost = data[:2]
        if not all(n is None or (type(n) in (int, float) and 0 <= n <= 1000) for n in lost):
            return None
        throw, lay = (None if n is None else float(n) for n in lost)
        return cls(throw, lay, data[2])


class QuizDays:
    """The days' quizzes answered (``cribbage quiz``), by day, in the data folder
    (``quiz.json``): each answer is kept as soon as it is graded, and the first counts."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> dict[str, QuizAnswer]:
        """Every day answered, checked entry by entry (the file is not trusted: what is
        not a day's answer is left out)."""
        kept = {}
        for day, entry in read_table(self.path, QUIZ_LIMIT, "days").items():
            answer = QuizAnswer.from_json(entry)
            if _DAY.fullmatch(day) and answer is not None:
                kept[day] = answer
        return kept

    def keep(
        self, day: str, *, throw: float | None = None, lay: float | None = None, today: str
    ) -> QuizAnswer:
        """Keep an answer of a day's quiz (not over an earlier one), and return the day's
        answers. Raises OSError if it cannot be written."""
        days = self.read()
        known = days.get(day, QuizAnswer(None, None, day == today))
        known = known._replace(
            throw=known.throw if known.throw is not None else throw,
            lay=known.lay if known.lay is not None else lay,
        )
        days[day] = known
        table = {
            d: [None if a.throw is None else kept_loss(a.throw),
                None if a.lay is None else kept_loss(a.lay), a.on_the_day]
            for d, a in days.items()
        }  # fmt: skip
        write_atomic(self.path, json.dumps({"days": table}, separators=(",", ":")))
        return known

    def streak(self, today: str) -> int:
        """Days in a row with the quiz answered whole on the day, up to today (or
        yesterday)."""
        whole = {
            day for day, a in self.read().items() if a.on_the_day and a.lay is not None
        }  # fmt: skip
        return daily.streak(whole, today)


# --- the sums -------------------------------------------------------------------------


class Played(NamedTuple):
    """Games played against a level, and won."""

    played: int = 0
    won: int = 0


@dataclass
class History:
    """The sums over many games, and the streak of daily games."""

    games: int = 0
    wins: int = 0
    by_level: dict[str, Played] = field(default_factory=dict)
    skunks_given: int = 0
    skunks_taken: int = 0
    points: PointSums = field(default_factory=PointSums)
    best_hand: int = 0
    best_game: str = ""
    with_takebacks: int = 0
    """Games in which a move was taken back."""
    daily_streak: int = 0
    """Days in a row, up to today, with a finished daily game (of all games, whatever
    ``since``)."""
    reviewed: dict[str, tuple[int, Lost]] = field(default_factory=dict)
    """Reviewed games, and what their decisions lost, summed: ``this month`` and
    ``before``."""
    months: dict[str, tuple[int, Lost]] = field(default_factory=dict)
    """Reviewed games and what their decisions lost, summed, by the month they were
    played in (``2026-12``)."""
    graded: list[tuple[str, str, Grade]] = field(default_factory=list)
    """Each reviewed game whose decisions were counted: its day, its name and its grade
    (see :meth:`grade`)."""

    def add(self, game: GameRecord, month: str = "") -> None:
        """Count one game in."""
        self.games += 1
        self.wins += game.won
        level = self.by_level.get(game.level or "?", Played())
        self.by_level[game.level or "?"] = Played(level.played + 1, level.won + game.won)
        self.skunks_given += bool(game.skunk_given)
        self.skunks_taken += bool(game.skunk_taken)
        self.with_takebacks += bool(game.takebacks)
        for deal in game.deals:
            self.points.add("dealer" if deal.dealt else "pone", deal.points)
        if game.best_hand > self.best_hand:
            self.best_hand, self.best_game = game.best_hand, game.name
        if game.lost is not None:
            when = "this month" if month and game.day.startswith(month) else "before"
            games, lost = self.reviewed.get(when, (0, Lost()))
            self.reviewed[when] = (games + 1, lost.plus(game.lost))
            if game.day:
                played, summed = self.months.get(game.day[:7], (0, Lost()))
                self.months[game.day[:7]] = (played + 1, summed.plus(game.lost))
            if game.lost.grade is not None:
                self.graded.append((game.day, game.name, game.lost.grade))

    def grade(self, last: int | None = None) -> tuple[int, Grade]:
        """The reviewed games of the ``last`` few played (all if None) whose decisions
        were counted, and their grade taken together."""
        chosen = sorted(self.graded)[-last:] if last else self.graded
        total = Grade()
        for _, _, grade in chosen:
            total = total.plus(grade)
        return len(chosen), total

    def lost(self, when: str = "") -> tuple[int, Lost]:
        """Reviewed games and what they lost: ``this month``, ``before``, or all."""
        if when:
            return self.reviewed.get(when, (0, Lost()))
        games, total = 0, Lost()
        for some, lost in self.reviewed.values():
            games, total = games + some, total.plus(lost)
        return games, total

    def per_deal(self, role: Role) -> dict[str, float]:
        """Average points a deal as dealer or pone: deals, pegging, hand, crib, total."""
        return {"deals": self.points.deals(role), **self.points.per_deal(role)}

    def as_json(self) -> dict[str, object]:
        """The history for scripts."""
        return {
            "games": self.games,
            "wins": self.wins,
            "by_level": {
                level: played._asdict() for level, played in sorted(self.by_level.items())
            },
            "skunks_given": self.skunks_given,
            "skunks_taken": self.skunks_taken,
            "per_deal": {role: self.per_deal(role) for role in ROLES},
            "best_hand": {"points": self.best_hand, "game": self.best_game},
            "with_takebacks": self.with_takebacks,
            "daily_streak": self.daily_streak,
            "lost_per_deal": {
                when.replace(" ", "_") or "all": {
                    "games": games,
                    "deals": lost.deals,
                    **{kind: round(n, 3) for kind, n in lost.per_deal().items()},
                }
                for when in ("", "this month", "before")
                for games, lost in [self.lost(when)]
            },
            "lost_by_month": {
                month: {
                    "games": games,
                    "deals": lost.deals,
                    **{kind: round(n, 3) for kind, n in lost.per_deal().items()},
                }
                for month, (games, lost) in sorted(self.months.items())
            },
            "decisions": {
                name: {"games": games, "decisions": grade.made, **grade.as_json()}
                for name, last in GRADE_WINDOWS
                for games, grade in [self.grade(last)]
            },
        }


def history(
    games: Sequence[GameRecord], since: str = "", today: str = "", takebacks: bool = True
) -> History:
    """The sums of the games played on or after ``since`` (YYYY-MM-DD; all if empty),
    without the games that had takebacks unless ``takebacks``, and the daily streak up
    to ``today``."""
    total = History(daily_streak=_streak(games, today) if today else 0)
    for game in games:
        if since and (not game.day or game.day < since):
            continue
        if game.takebacks and not takebacks:
            continue
        total.add(game, today[:7])
    return total


def _streak(games: Iterable[GameRecord], today: str) -> int:
    return daily.streak({game.daily for game in games if game.daily}, today)


def history_of(
    places: Places,
    *,
    since: str,
    today: str,
    warn: Warn,
    takebacks: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> History:
    """The player's history: every finished game in their games folder counted (see
    :func:`records`), from the side of the person the settings name (a player of a
    served table), else of the first seat."""
    me = load_settings(places.settings).get("name")
    found = records(
        places.games,
        places.index,
        warn=warn,
        progress=progress,
        reviews=places.reviews,
        me=me if isinstance(me, str) else None,
    )
    return history(found, since, today, takebacks)


class DailyResult(NamedTuple):
    """A finished daily game: the line to share, and the streak of days in a row up to it."""

    share: str
    streak: int

    def as_json(self) -> dict[str, object]:
        """The ``daily`` event of ``--json``."""
        return {"event": "daily", "share": self.share, "streak": self.streak}


def daily_result(places: Places, day: str, warn: Warn) -> DailyResult | None:
    """The day's daily game, if it is finished. Only a log the rules accept counts."""
    found = records(places.games, places.index, warn=warn)
    game = next((g for g in found if g.daily == day), None)
    if game is None:
        return None
    share = daily.share_line(day, game.won, game.scores, game.skunks, game.dealt, game.best_hand)
    return DailyResult(share, _streak(found, day))
