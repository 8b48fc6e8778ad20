"""Why a choice is the best: what the hint says and the coach writes beside a decision,
as values (the words are the renderer's). Light, so that drawing them loads no search."""

from __future__ import annotations

from dataclasses import dataclass

from cribcli.rules.cards import Card
from cribcli.rules.scoring import PegItem, ShowItem


@dataclass(frozen=True, slots=True)
class ThrowWhy:
    """Why a throw is the best, in the measure that chose it: what the cards kept score
    among themselves, and what the throw is worth."""

    keeps: tuple[ShowItem, ...]
    """The kept cards' own fifteens, pairs, runs and flush, before the starter."""
    hand: float
    """The kept hand's average count over the starters that could be cut."""
    crib: float
    """The crib's average, for the thrower: more into its own crib, less into another's
    (with two players, against a good player's throw)."""
    pegging: float
    """What the kept cards are worth in the play, as the hard computer measures it."""
    chance: float | None = None
    """Near the end: the chance of winning with it."""

    def as_json(self) -> dict[str, object]:
        """For scripts."""
        shown: dict[str, object] = {
            "keeps": [item.describe() for item in self.keeps],
            "hand": round(self.hand, 2),
            "crib": round(self.crib, 2),
            "pegging": round(self.pegging, 2),
        }
        if self.chance is not None:
            shown["win_chance"] = round(self.chance, 4)
        return shown


@dataclass(frozen=True, slots=True)
class LayWhy:
    """Why a card is the best to lay, in the measure that chose it: what it scores now,
    the count it leaves, and what it nets for the rest of the play."""

    scores: tuple[PegItem, ...]
    """What it scores as it is laid."""
    any_scores: bool
    """Whether any card that could be laid scores now."""
    count: int
    """The count it leaves."""
    net: float
    """Its points less the other side's for the rest of this play, on average."""
    runner_up: Card | None = None
    """The next best card (of another rank), if any..."""
    runner_up_net: float = 0.0
    """...and its net."""
    chance: float | None = None
    """Near the end: the chance of winning with it."""

    def as_json(self) -> dict[str, object]:
        """For scripts."""
        shown: dict[str, object] = {
            "scores": [item.describe() for item in self.scores],
            "count": self.count,
            "net": round(self.net, 2),
        }
        if self.runner_up is not None:
            shown["next"] = {"card": str(self.runner_up), "net": round(self.runner_up_net, 2)}
        if self.chance is not None:
            shown["win_chance"] = round(self.chance, 4)
        return shown
