"""What a crib is worth, against how a good player throws rather than at random.

The exact analysis values the crib as if the other player's two cards were random. They
are not: a pone throws the dealer cards that help a crib least, a dealer throws its own
crib the cards that help it most. ``tools/crib_table.py`` dealt 20,000 hands to each side,
let each throw as the exact analysis would, and measured for every pair of ranks thrown
how much the crib's fifteens, pairs and runs move against those throws: less in your own
crib (by about half a point), more in the other's (by about a third). The table is
``data/cribs.json``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from cribcli.analysis import CribModel
from cribcli.cards import Card, deck
from cribcli.players import tables


@cache
def table() -> dict[tuple[int, ...], tuple[float, float]]:
    """For each two ranks thrown (in order): how much more the crib is worth than the
    exact analysis says, in your own crib and in the other player's."""
    bias = tables.read("cribs.json")["bias"]
    return {tables.key_ranks(key): (e["mine"], e["theirs"]) for key, e in bias.items()}


def bias(thrown: Iterable[Card], own_crib: bool) -> float:
    """How much more (or less) the crib is worth with ``thrown`` in it than the exact
    analysis says, the other player throwing well."""
    mine, theirs = table()[tuple(sorted(card.rank for card in thrown))]
    return mine if own_crib else theirs


@cache
def random_crib(thrown: tuple[int, int]) -> float:
    """The crib's fifteens, pairs and runs on average with these two ranks (sorted) in it,
    its other two cards and the starter any of the 50 others: the exact analysis's crib
    (:class:`cribcli.analysis.CribModel`) by ranks alone, as another player who throws by
    it would reckon it, roughly (its own other four cards unknown)."""
    others = deck()
    for rank in thrown:
        others.remove(next(card for card in others if card.rank == rank))
    return CribModel(others, unknown=2).by_ranks(thrown)
