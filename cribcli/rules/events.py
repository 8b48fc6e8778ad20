"""What happened in a game, as the engine tells it: one frozen value per happening.

Events carry everything, hidden cards included; who may see what is the reader's business
(the narration of a live game shows a player only their own cards; a replay shows all).
The words a player reads are the narration's (``cribcli.ui.narrate``); the JSON is
:func:`event_json`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Literal

from cribcli.rules.cards import Card
from cribcli.rules.scoring import PegItem, ShowScore

Skunk = Literal["", "skunk", "double skunk"]
"""What a losing score is: nothing, a skunk, or a double skunk."""


@dataclass(frozen=True, slots=True)
class DealerCut:
    """Each seat cut the deck for the first deal (perhaps more than once, after ties)."""

    cuts: tuple[tuple[int, Card], ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class Dealt:
    """A round began: the dealer dealt these hands (seat by seat)."""

    round: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Discarded:
    """A seat put cards in the crib."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CribFromDeck:
    """With three players, the crib's fourth card comes off the deck."""

    card: Card


@dataclass(frozen=True, slots=True)
class StarterCut:
    """The starter was turned up."""

    starter: Card


@dataclass(frozen=True, slots=True)
class Played:
    """A seat laid a card: the count with it, the points it made, the scores after them."""

    seat: int
    card: Card
    count: int
    items: tuple[PegItem, ...]
    scores: tuple[int, ...]

    @property
    def points(self) -> int:
        """All the points the card made."""
        return sum(item.points for item in self.items)


@dataclass(frozen=True, slots=True)
class SaidGo:
    """A seat could not play without passing 31."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class CountRestarted:
    """The count starts again from 0; ``leader`` lays the first card."""

    leader: int


@dataclass(frozen=True, slots=True)
class Pegged:
    """Points not made by laying a card (go, last card, his heels), and the scores after."""

    seat: int
    items: tuple[PegItem, ...]
    scores: tuple[int, ...]

    @property
    def points(self) -> int:
        """All the points of this event."""
        return sum(item.points for item in self.items)


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand or the crib was counted at the show; the scores after it.

    Under muggins, ``claimed`` is what its owner said it was worth: they score that if it
    is too few (the rest is taken by muggins), or the true count if it is too many.
    """

    seat: int
    show: ShowScore
    scores: tuple[int, ...]
    claimed: int | None = None

    @property
    def scored(self) -> int:
        """The points its owner scores from it."""
        if self.claimed is None:
            return self.show.total
        return min(self.claimed, self.show.total)


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The show is over; the scores (by side) going into the next round."""

    round: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    """A side reached the target. ``skunks`` names, by side, "skunk", "double skunk" or "".
    Or a seat forfeited the game (none is skunked then)."""

    winner: int
    scores: tuple[int, ...]
    skunks: tuple[Skunk, ...]
    forfeit: int | None = field(default=None, metadata={"omit_none": True})
    """The seat that forfeited, if one did."""
    reason: str | None = field(default=None, metadata={"omit_none": True})
    """Why it forfeited, in a few words."""

    def game_points(self) -> tuple[int, ...]:
        """Each side's game points: :func:`game_points`."""
        return game_points(self.winner, self.skunks)


def game_points(winner: int, skunks: Sequence[str]) -> tuple[int, ...]:
    """Each side's game points for a game, as the American Cribbage Congress counts them
    in match and tournament play: 2 for a won game, 3 if a side it beat was skunked (or
    double skunked: no more); none for a loss."""
    skunked = any(skunk for side, skunk in enumerate(skunks) if side != winner)
    won = 3 if skunked else 2
    return tuple(won if side == winner else 0 for side in range(len(skunks)))


Event = (
    DealerCut
    | Dealt
    | Discarded
    | CribFromDeck
    | StarterCut
    | Played
    | SaidGo
    | CountRestarted
    | Pegged
    | Shown
    | RoundEnded
    | GameOver
)


def event_json(event: Event) -> dict[str, object]:
    """The event as a JSON-ready object: ``{"event": "played", ...}``, ASCII cards."""
    out: dict[str, object] = {"event": _snake(type(event).__name__)}
    for item in fields(event):
        value = getattr(event, item.name)
        if value is not None or not item.metadata.get("omit_none"):
            out[item.name] = _json_value(value)
    if isinstance(event, Pegged | Played):
        out["items"] = [
            {"kind": item.kind.name.lower(), "points": item.points, "text": item.describe()}
            for item in event.items
        ]
    return out


def _json_value(value: object) -> object:
    if isinstance(value, Card):
        return value.ascii()
    if isinstance(value, ShowScore):
        return value.as_json()
    if isinstance(value, tuple):
        return [_json_value(item) for item in value]
    return value


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
