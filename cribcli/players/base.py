"""What a player is: something that chooses a discard and a card to lay from a view."""

from __future__ import annotations

from typing import Protocol

from cribcli.cards import Card
from cribcli.engine import View


class Player(Protocol):
    """A seat's decisions. It sees only its :class:`View`: no hidden card, by construction."""

    def discard(self, view: View) -> tuple[Card, ...]:
        """The cards to put in the crib (``view.rules.discard_size`` of ``view.hand``)."""
        ...

    def play(self, view: View) -> Card:
        """The card to lay, one of ``view.playable()`` (never called when it is empty)."""
        ...
