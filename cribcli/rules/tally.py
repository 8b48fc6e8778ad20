"""Points by source: what each deal gave each seat from pegging, hand and crib, counted
from the events the rules produce, and their sums by dealer and pone.

``cribbage stats`` adds up a player's deals with it, and ``cribbage match`` each level's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, assert_never

from cribcli.rules.events import (
    CountRestarted,
    CribFromDeck,
    DealerCut,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Pegged,
    Played,
    RoundEnded,
    SaidGo,
    Shown,
    StarterCut,
)

Role = Literal["dealer", "pone"]
ROLES: tuple[Role, ...] = ("dealer", "pone")
SOURCES = ("pegging", "hand", "crib")


class Points(NamedTuple):
    """One seat's points in one deal, by source. Pegging counts every point not made by
    a count of the show: cards laid, gos, the last card, his heels, and muggins taken."""

    pegging: int = 0
    hand: int = 0
    crib: int = 0


class Deal(NamedTuple):
    """A deal played to its end: its dealer, and each seat's points."""

    dealer: int
    points: tuple[Points, ...]


def deals(events: Iterable[Event]) -> Iterator[Deal]:
    """Every deal in ``events`` that reached its end (not the last one, if the game ended
    in it), with each seat's points by source."""
    dealer = 0
    tally: list[list[int]] = []
    for event in events:
        match event:
            case Dealt():
                dealer = event.dealer
                tally = [[0, 0, 0] for _ in event.hands]
            case Played() | Pegged():
                tally[event.seat][0] += event.points
            case Shown():
                tally[event.seat][2 if event.show.is_crib else 1] += event.scored
            case RoundEnded():
                yield Deal(dealer, tuple(Points(*seat) for seat in tally))
            case (
                DealerCut() | Discarded() | CribFromDeck() | StarterCut() | SaidGo()
                | CountRestarted() | GameOver()
            ):  # fmt: skip
                pass  # no points in them
            case _:
                assert_never(event)


def game_points(events: Iterable[Event], sides: int) -> tuple[Points, ...]:
    """Each side's points over a whole game by source, as pegged: the deal it ended in
    included, and nothing past the end (a count that went out scores what it needed)."""
    totals = [[0, 0, 0] for _ in range(sides)]
    before = (0,) * sides
    for event in events:
        if isinstance(event, Played | Pegged | Shown):
            source = 0 if not isinstance(event, Shown) else 2 if event.show.is_crib else 1
            for side, score in enumerate(event.scores):
                totals[side][source] += score - before[side]
            before = event.scores
    return tuple(Points(*side) for side in totals)


@dataclass
class PointSums:
    """Points added up over many deals, apart as dealer and as pone."""

    sums: dict[Role, list[int]] = field(default_factory=dict)
    """role -> [deals, pegging, hand, crib]"""

    def add(self, role: Role, points: Points) -> None:
        """Count one deal's points in."""
        sums = self.sums.setdefault(role, [0, 0, 0, 0])
        sums[0] += 1
        for i, value in enumerate(points, start=1):
            sums[i] += value

    def deals(self, role: Role) -> int:
        """How many deals were counted in this role."""
        return self.sums.get(role, [0])[0]

    def per_deal(self, role: Role) -> dict[str, float]:
        """Average points a deal by source, and in all, to two places (0 with no deals)."""
        count, *totals = self.sums.get(role, [0, 0, 0, 0])
        values = dict(
            zip(SOURCES, (total / count if count else 0.0 for total in totals), strict=True)
        )
        values["total"] = sum(values.values())
        return {source: round(value, 2) for source, value in values.items()}
