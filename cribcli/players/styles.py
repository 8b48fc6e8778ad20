"""Players of other styles than our levels, for the tests and the benchmarks: what hard
meets across the table when the other player does not play as it assumes (issue 31).

- :class:`GreedyPlayer` keeps the best four for the hand alone (the crib ignored, its own
  or the other's) and lays what scores most now (of those, the highest card);
- :class:`CribMindedPlayer` throws for the crib: its own crib as rich as it can make it,
  the other's as poor, whatever it keeps; it lays as a careful player does;
- the random style is the easy level's (:class:`cribcli.players.easy.EasyPlayer`).

Each sees only its :class:`~cribcli.rules.engine.View`, as every player does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from cribcli.players.base import Player
from cribcli.players.habits import Style
from cribcli.players.normal import NormalPlayer
from cribcli.rules.analysis import analyse
from cribcli.rules.cards import Card
from cribcli.rules.engine import View
from cribcli.rules.scoring import peg_points

if TYPE_CHECKING:
    from cribcli.rules.analysis import DiscardValue


def throw(style: Style, options: Sequence[DiscardValue], dealer: bool) -> DiscardValue:
    """The discard a player of ``style`` makes of ``options`` (:func:`analyse`'s, best
    net first): careful (and loose), the best net; greedy, the best hand alone;
    crib-minded, the richest crib as dealer and the poorest as pone. The random style
    has no throw of its own."""
    if style.keeps_like is Style.CAREFUL:
        return options[0]
    if style is Style.GREEDY:
        return max(options, key=lambda option: option.hand)
    if style is Style.CRIB_MINDED:
        if dealer:
            return max(options, key=lambda option: option.crib)
        return min(options, key=lambda option: option.crib)
    raise ValueError(f"a {style} player throws any two cards")


class GreedyPlayer:
    """Points now: the four that score most in the hand, the card that pegs most."""

    def __init__(self, seed: int | str, seat: int) -> None:
        self.seed, self.seat = seed, seat

    def discard(self, view: View) -> tuple[Card, ...]:
        """The throw whose kept cards average most in the hand, the crib not counted."""
        options = analyse(view.hand, dealer=view.is_dealer, players=view.rules.players)
        return throw(Style.GREEDY, options, view.is_dealer).discard

    def play(self, view: View) -> Card:
        """The card that scores most as it is laid; of those, the highest."""
        return max(
            view.playable(),
            key=lambda card: (sum(i.points for i in peg_points((*view.pile, card))), card.value),
        )


class CribMindedPlayer(NormalPlayer):
    """The crib first: as dealer the two cards that make its crib richest, as pone the
    two that make the other's poorest; the play as the normal level lays."""

    def discard(self, view: View) -> tuple[Card, ...]:
        options = analyse(view.hand, dealer=view.is_dealer, players=view.rules.players)
        return throw(Style.CRIB_MINDED, options, view.is_dealer).discard


STYLES: dict[str, Callable[[int | str, int], Player]] = {
    Style.GREEDY: GreedyPlayer,
    Style.CRIB_MINDED: CribMindedPlayer,
}
"""The styles by name (the random one is the easy level)."""
