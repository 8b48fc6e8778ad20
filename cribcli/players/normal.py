"""The normal computer: keeps the four cards worth most, and pegs carefully.

The discard is the exact analysis's best net value (hand, plus or minus the crib). In the
play it takes the points on offer and weighs each card against what the other side could
answer with: a count left at 5 or 21 invites a ten-card for 15 or 31, a second card of a
rank invites three of a kind. It leads low and never a 5 when it can help it, and when the
other side has said go it plays the cards it holds in the order that scores most.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from math import comb

from cribcli.analysis import analyse
from cribcli.cards import Card, deck
from cribcli.engine import View
from cribcli.players.pegging import points, value
from cribcli.scoring import COUNT_LIMIT


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
        return analyse(view.hand, dealer=view.is_dealer, players=view.rules.players)[0].discard

    def play(self, view: View) -> Card:
        """The playable card with the best points less the expected reply."""
        options = view.playable()
        if len(options) == 1:
            return options[0]
        if view.pile and others_out(view):
            return run_out(view, options)
        unseen = unseen_by(view)
        reply_holders = [
            view.held[s]
            for s in range(view.rules.players)
            if s != view.seat and s not in view.passed
        ]
        held = max(reply_holders, default=0)
        return max(options, key=lambda card: self.weigh(view, card, unseen, held))

    def weigh(self, view: View, card: Card, unseen: list[Card], held: int) -> float:
        """Points now, less the points an answer would likely take, plus leading sense."""
        pile = pile_ranks(view) + (card.rank,)
        count = view.count + value(card.rank)
        score = float(points(pile, count))
        if count < COUNT_LIMIT and held:
            score -= expected_reply(pile, count, unseen, held)
        if not view.pile:
            # Lead low: under 5 nobody can make 15 with one card; never a 5.
            score += 0.4 if value(card.rank) < 5 else 0.0
            score -= 1.0 if card.rank == 5 else 0.0
        # Keep low cards for later in the count, where they still fit.
        score += 0.02 * value(card.rank)
        return score


def expected_reply(pile: tuple[int, ...], count: int, unseen: list[Card], held: int) -> float:
    """The points the other side's best answer is worth on average, roughly: each rank's
    points times the chance they hold one of it (a card of each rank among ``held``)."""
    ranks = Counter(card.rank for card in unseen)
    pool = len(unseen)
    total = 0.0
    for rank, number in ranks.items():
        if count + value(rank) > COUNT_LIMIT:
            continue
        gained = points(pile + (rank,), count + value(rank))
        if gained:
            chance = 1 - comb(pool - number, held) / comb(pool, held) if pool >= held else 0.0
            total += gained * chance
    return total * 0.6


def run_out(view: View, options: tuple[Card, ...]) -> Card:
    """The other side is out of this count: lay the cards in the order that scores most."""
    best: tuple[int, int] = (-1, 0)
    choice = options[0]
    for order in permutations(view.hand):
        pile = pile_ranks(view)
        count = view.count
        gained = laid = 0
        for card in order:
            if count + value(card.rank) > COUNT_LIMIT:
                break
            pile += (card.rank,)
            count += value(card.rank)
            gained += points(pile, count)
            laid += 1
        if laid and (gained, laid) > best:
            best = (gained, laid)
            choice = order[0]
    return choice
