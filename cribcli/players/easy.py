"""The easy computer: throws and plays at random among the legal choices."""

from __future__ import annotations

from itertools import combinations

from cribcli.rules.cards import Card
from cribcli.rules.engine import View
from cribcli.rules.stream import SeededStream


class EasyPlayer:
    """Random, but reproducible: its choices come from its own stream of the game's seed."""

    def __init__(self, seed: int | str, seat: int) -> None:
        self.seed = seed
        self.seat = seat

    def _stream(self, view: View) -> SeededStream:
        # One stream per decision, named by where the game stands, so a resumed game
        # decides exactly as an unbroken one.
        return SeededStream(self.seed, f"easy {self.seat} round {view.round} {len(view.plays)}")

    def discard(self, view: View) -> tuple[Card, ...]:
        """Any discard, each equally likely."""
        options = list(combinations(view.hand, view.rules.discard_size))
        return self._stream(view).choice(options)

    def play(self, view: View) -> Card:
        """Any playable card, each equally likely."""
        return self._stream(view).choice(view.playable())
