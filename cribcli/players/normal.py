"""The normal computer: keeps the four cards worth most, and pegs carefully.

The discard is the exact analysis's best net value (hand, plus or minus the crib). In the
play it takes the points on offer and weighs each card against what the other side could
answer with: a count left at 5 or 21 invites a ten-card for 15 or 31, a second card of a
rank invites three of a kind. It leads low and never a 5 when it can help it, and when the
other side has said go it plays the cards it holds in the order that scores most.
"""

from __future__ import annotations

from cribcli.players.careful import Ranks, Unseen, choose, unseen_counts
from cribcli.rules.cards import Card, deck
from cribcli.rules.engine import View


def unseen_by(view: View) -> list[Card]:
    """The cards this seat has not seen: not its own, not laid, not the starter."""
    seen = set(view.hand) | set(view.discards) | set(view.kept)
    seen.update(card for _, card in view.plays)
    if view.starter is not None:
        seen.add(view.starter)
    return [card for card in deck() if card not in seen]


def others_out(view: View) -> bool:
    """Whether every other seat still in the play has said go (or holds nothing)."""
    return all(
        seat in view.passed or view.held[seat] == 0
        for seat in range(view.rules.players)
        if seat != view.seat
    )


def pile_ranks(view: View) -> tuple[int, ...]:
    """The current count's cards as ranks."""
    return tuple(card.rank for card in view.pile)


class NormalPlayer:
    """Exact discards; careful, one-card-deep pegging."""

    def __init__(self, seed: int | str, seat: int) -> None:
        self.seed = seed
        self.seat = seat

    def discard(self, view: View) -> tuple[Card, ...]:
        """The discard with the best exact net value."""
        from cribcli.rules.analysis import analyse

        return analyse(view.hand, dealer=view.is_dealer, players=view.rules.players)[0].discard

    def play(self, view: View) -> Card:
        """The playable card with the best points less the expected reply
        (:func:`cribcli.players.careful.choose`)."""
        rank = choose(*careful_position(view, in_order=True))
        return next(card for card in view.playable() if card.rank == rank)


def careful_position(
    view: View, in_order: bool = False
) -> tuple[Ranks, Ranks, int, Unseen, int, bool]:
    """What a careful player weighs a lay by, from a view: its hand's ranks (sorted,
    unless ``in_order``: as held), the count's cards and total, the ranks it has not
    seen, how many cards the answer could come from, and whether the others are out."""
    reply = max(
        (
            view.held[s]
            for s in range(view.rules.players)
            if s != view.seat and s not in view.passed
        ),
        default=0,
    )
    unseen = unseen_counts(tuple(card.rank for card in unseen_by(view)))
    hand = tuple(card.rank for card in view.hand)
    return (
        hand if in_order else tuple(sorted(hand)),
        pile_ranks(view),
        view.count,
        unseen,
        reply,
        others_out(view),
    )
