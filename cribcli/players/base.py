"""What a player is: something that chooses a discard and a card to lay from a view."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # the level's names are wanted where the engine is not (the CLI's choices)
    from cribcli.cards import Card
    from cribcli.engine import View


class Level(StrEnum):
    """How strong a computer plays, weakest first."""

    EASY = "easy"
    """Throws and plays at random."""
    NORMAL = "normal"
    """Keeps the four cards worth most, and pegs one card deep."""
    HARD = "hard"
    """Also values the crib against good throws, and searches the play."""


class Player(Protocol):
    """A seat's decisions. It sees only its :class:`View`: no hidden card, by construction."""

    def discard(self, view: View) -> tuple[Card, ...]:
        """The cards to put in the crib (``view.rules.discard_size`` of ``view.hand``)."""
        ...

    def play(self, view: View) -> Card:
        """The card to lay, one of ``view.playable()`` (never called when it is empty)."""
        ...
