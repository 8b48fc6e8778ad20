"""What a crib is worth, against how a good player throws rather than at random.

The exact analysis values the crib as if the other player's two cards were random. They
are not: a pone throws the dealer cards that help a crib least, a dealer throws its own
crib the cards that help it most. ``tools/crib_table.py`` dealt 20,000 hands to each side,
let each throw as the exact analysis would, and measured for every pair of ranks thrown
how much the crib's fifteens, pairs and runs move against those throws: less in your own
crib (by about half a point), more in the other's (by about a third). The table is
``data/cribs.json``.

Players of other styles throw otherwise (:mod:`cribcli.players.habits`): a greedy player
keeps its best hand whatever it gives the crib, a crib-minded one throws for the crib
alone. Each has its own table, measured the same way from the same hands
(:attr:`cribcli.players.habits.Style.crib_table`); a random player's two cards are the
exact analysis's own assumption.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Final

from cribcli.players import measured
from cribcli.rules.cards import Card
from cribcli.rules.scoring import rank_key, rank_table

CAREFUL: Final = "cribs.json"
"""The table against a good player's throws; each style has its own
(:attr:`cribcli.players.habits.Style.crib_table`), or None for a random player's two
cards: the exact analysis's own assumption, nothing to add."""


@cache
def table(name: str = CAREFUL) -> dict[tuple[int, ...], tuple[float, float]]:
    """For each two ranks thrown (in order): how much more the crib is worth than the
    exact analysis says, in your own crib and in the other player's, the other throwing
    as the table ``name`` was measured against."""
    bias = measured.read(name)["bias"]
    return {measured.key_ranks(key): (e["mine"], e["theirs"]) for key, e in bias.items()}


def bias(thrown: Iterable[Card], own_crib: bool, name: str | None = CAREFUL) -> float:
    """How much more (or less) the crib is worth with ``thrown`` in it than the exact
    analysis says, the other player throwing well (or as the table ``name`` says; None:
    at random)."""
    if name is None:
        return 0.0
    mine, theirs = table(name)[tuple(sorted(card.rank for card in thrown))]
    return mine if own_crib else theirs


def mixed_bias(
    thrown: Iterable[Card], own_crib: bool, tables: Sequence[tuple[str | None, float]]
) -> float:
    """:func:`bias` against a player who throws as each of ``tables`` says with its
    chance (the chances need not add to 1: those left out are shared among the rest).
    One table: its bias as it is, to the last bit."""
    if len(tables) == 1:
        return bias(thrown, own_crib, tables[0][0])
    thrown = tuple(thrown)
    total = sum(chance for _, chance in tables)
    return sum(chance * bias(thrown, own_crib, name) for name, chance in tables) / total


@cache
def random_crib(thrown: tuple[int, int]) -> float:
    """The crib's fifteens, pairs and runs on average with these two ranks (sorted) in it,
    its other two cards and the starter any of the 50 others: the exact analysis's crib
    (:class:`cribcli.rules.analysis.CribModel`) by ranks alone, as another player who throws by
    it would reckon it, roughly (its own other four cards unknown). Worked out as the
    model does, to the last bit, but from the three drawn cards' ranks listed once: the
    hard computer asks it of every pair of ranks when it reads a hand."""
    available = [4] * 14
    for rank in thrown:
        available[rank] -= 1
    held = (1 << thrown[0]) | (1 << thrown[1])
    table = rank_table()
    known = rank_key(thrown)
    total = 0.0
    for key, counts, ranks, share in _three_ranks():
        if ranks & held:  # fewer of a thrown rank are left to draw
            ways = 1
            for rank, n in counts:
                ways *= _CHOOSE[available[rank]][n]
            if not ways:
                continue
            share = ways / _DRAWS
        total += share * table[known + key]
    return total


_DRAWS: Final = comb(50, 3)
"""The ways to draw the crib's other two cards and the starter."""
_CHOOSE: Final = tuple(tuple(comb(left, n) for n in range(4)) for left in range(5))
"""``_CHOOSE[left][n]``: the ways to draw ``n`` of the ``left`` cards of a rank."""


@cache
def _three_ranks() -> tuple[tuple[int, tuple[tuple[int, int], ...], int, float], ...]:
    """Every multiset of three ranks, in the model's order: its key, each rank with how
    many times it comes, the ranks as bits (``1 << rank``), and its share of the draws
    when none of its ranks was thrown (the same division as for any other)."""
    found = []
    for ranks in combinations_with_replacement(range(1, 14), 3):
        counts = tuple(Counter(ranks).items())
        ways = prod(comb(4, n) for _, n in counts)
        bits = sum(1 << rank for rank, _ in counts)
        found.append((rank_key(ranks), counts, bits, ways / _DRAWS))
    return tuple(found)
