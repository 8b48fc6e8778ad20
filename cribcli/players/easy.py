"""The easy computer: throws and plays at random among the legal choices."""

from __future__ import annotations

from itertools import combinations

from cribcli.cards import Card, SeededStream
from cribcli.engine import View


class EasyPlayer:
    """Random, but reproducible: its choices come from its own stream of the game's seed."""

    def __init__(self, seed: int | str, seat: int) -> None:
        self._random = SeededStream(seed, f"easy {seat}")

    def discard(self, view: View) -> tuple[Card, ...]:
        """Any discard, each equally likely."""
        return self._random.choice(list(combinations(view.hand, view.rules.discard_size)))

    def play(self, view: View) -> Card:
        """Any playable card, each equally likely."""
        return self._random.choice(view.playable())
