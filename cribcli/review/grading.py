"""How well a seat played, in one figure: the error rate (points lost a decision, as the
review measures each decision), the accuracy it makes (0 to 100), and the rating its band
is named by, from novice to world class. The bands are calibrated on the computer levels
(``benchmarks/calibration.py``; ``docs/coach.md`` gives the figures)."""

from __future__ import annotations

import math
from typing import NamedTuple

KINDS = ("throw", "lay", "count")
"""The kinds of decision a review judges, as it names them."""

ACCURACY_SCALE = 1.0
"""The points lost a decision that bring the accuracy down to 100/e (36.8): accuracy is
``100 * exp(-error rate / ACCURACY_SCALE)``, so a game of only best decisions is 100, a
point lost every decision 36.8."""

RATINGS = (
    (0.03, "world class"),
    (0.07, "expert"),
    (0.15, "strong"),
    (0.3, "club player"),
    (0.6, "casual"),
    (1.0, "beginner"),
    (math.inf, "novice"),
)
"""Each rating and the error rate (points lost a decision) a seat's must stay under to
earn it, best first. Where the computer levels land, each reviewed over 100 games
against normal (``benchmarks/calibration.py``): hard 0.006 (95% interval 0.000-0.011:
world class, by its own measure), normal 0.174 (0.160-0.188: club player), easy, which
plays at random, 1.172 (1.115-1.229: novice). The edges between are spaced about twice
apart, so that each band is a step a player can feel."""

GRADE_WINDOWS = (("last_10", 10), ("last_100", 100), ("all", None))
"""The stretches of your latest reviewed games ``stats`` grades your decisions over."""


def accuracy(error_rate: float) -> float:
    """The accuracy, 0 to 100, of a seat whose decisions lost ``error_rate`` points each
    on average (:data:`ACCURACY_SCALE`)."""
    return 100.0 * math.exp(-max(error_rate, 0.0) / ACCURACY_SCALE)


def rating(error_rate: float) -> str:
    """The name of the band an error rate falls in (:data:`RATINGS`)."""
    return next(name for under, name in RATINGS if error_rate < under)


class Grade(NamedTuple):
    """A seat's decisions over one game or many: how many of each kind, and the points
    they lost."""

    decisions: tuple[int, int, int] = (0, 0, 0)
    """Throws, lays (those with a choice) and counts (under muggins)."""
    lost: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """The points each kind lost, in all."""

    def plus(self, other: Grade) -> Grade:
        """The two taken together."""
        (a, b, c), (x, y, z) = self.decisions, other.decisions
        (d, e, f), (u, v, w) = self.lost, other.lost
        return Grade((a + x, b + y, c + z), (d + u, e + v, f + w))

    @property
    def made(self) -> int:
        """The decisions of every kind."""
        return sum(self.decisions)

    def error_rate(self, kind: str = "") -> float:
        """Points lost a decision, of one kind or of all (0 when there were none)."""
        if not kind:
            return sum(self.lost) / self.made if self.made else 0.0
        at = KINDS.index(kind)
        return self.lost[at] / self.decisions[at] if self.decisions[at] else 0.0

    @property
    def accuracy(self) -> float:
        return accuracy(self.error_rate())

    @property
    def rating(self) -> str:
        return rating(self.error_rate())

    def as_json(self) -> dict[str, object]:
        """For scripts: the error rate, accuracy and rating, and the decisions and their
        error rate by kind."""
        return {
            "error_rate": round(self.error_rate(), 3),
            "accuracy": round(self.accuracy, 1),
            "rating": self.rating,
            "by_kind": {
                kind + "s": {"decisions": n, "error_rate": round(self.error_rate(kind), 3)}
                for kind, n in zip(KINDS, self.decisions, strict=True)
            },
        }


def grade_of(decisions: list[tuple[str, float]]) -> Grade:
    """The grade of decisions given as (kind, points lost)."""
    counts = [0, 0, 0]
    lost = [0.0, 0.0, 0.0]
    for kind, points in decisions:
        at = KINDS.index(kind)
        counts[at] += 1
        lost[at] += points
    return Grade((counts[0], counts[1], counts[2]), (lost[0], lost[1], lost[2]))
