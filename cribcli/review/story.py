"""A game's story as a chart's series: one side's chance to win before the first deal and
after every deal, as the scores then stood and whoever dealt next (the chances the hard
computer plays the end by, :func:`cribcli.players.odds.dealer_chance`). Games of two; pure:
the log's events in, numbers out (drawing, and the costliest mistakes marked on it, is
:mod:`cribcli.ui.chart`'s)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from cribcli.players.odds import dealer_chance
from cribcli.record.log import GameInfo
from cribcli.rules.events import Dealt, Event, GameOver, RoundEnded


class Chance(NamedTuple):
    """Where the game stood after deal ``round`` (0: before the first): the scores by
    side, and the chance the side followed wins from there."""

    round: int
    scores: tuple[int, ...]
    chance: float

    def as_json(self) -> dict[str, object]:
        """For ``review --json``."""
        return {"round": self.round, "scores": list(self.scores), "chance": round(self.chance, 3)}


def chances(info: GameInfo, events: Sequence[Event], side: int) -> list[Chance]:
    """``side``'s chance to win before the first deal and after each deal played (a game
    of two players; empty for three or four). A deal the game ended in gives 1 or 0."""
    rules = info.rules
    if rules.players != 2:
        return []
    target = rules.target
    found: list[Chance] = []
    dealer: int | None = None
    for event in events:
        if isinstance(event, Dealt):
            if not found:  # before the first deal: from nothing, its dealer to deal
                found.append(Chance(0, (0, 0), _of(side, event.dealer, (0, 0), target)))
            dealer = event.dealer
        elif isinstance(event, RoundEnded) and dealer is not None:
            scores = tuple(event.scores)
            found.append(Chance(event.round, scores, _of(side, 1 - dealer, scores, target)))
        elif isinstance(event, GameOver):
            played = found[-1].round + 1 if found else 1
            scores = tuple(event.scores)
            if not found or found[-1].scores != scores:
                found.append(Chance(played, scores, 1.0 if event.winner == side else 0.0))
            else:  # over as the show ended: certain now
                found[-1] = found[-1]._replace(chance=1.0 if event.winner == side else 0.0)
    return found


def _of(side: int, dealer: int, scores: Sequence[int], target: int) -> float:
    """``side``'s chance with ``dealer`` to deal next from ``scores``."""
    needs = [target - score for score in scores]
    dealing = dealer_chance(needs[dealer], needs[1 - dealer])
    return dealing if side == dealer else 1.0 - dealing
