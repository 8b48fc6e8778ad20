"""Exact expected values of discards: the hand kept, the crib thrown, and the two together.

For a hand of six (two players) or five (three or four), every discard is valued:

* the kept hand, averaged over every starter that could be cut from the unseen cards;
* the crib, under the stated model: the crib's other cards and the starter are equally
  likely to be any of the unseen cards (his heels is not counted);
* the net for the position: hand plus crib when the crib is yours (or your partner's),
  hand minus crib when it is the other side's.

Exact, not sampled: ranks alone decide fifteens, pairs and runs, so the crib's unknown
cards are summed over multisets of ranks with their multiplicities, and the flush and his
nobs are added by suit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Final

from cribcli.rules.cards import JACK, Card, check_distinct, deck
from cribcli.rules.errors import HandError, UsageProblem
from cribcli.rules.scoring import KEPT_SIZE, MAX_SHOW, rank_key, rank_table, show_totals
from cribcli.rules.targets import FULL_GAME

CRIB_MODEL = (
    "the crib's other cards and the starter are equally likely to be any unseen card; "
    "his heels is not counted"
)


@dataclass(frozen=True, slots=True)
class DiscardValue:
    """What one discard is worth, exactly."""

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand: float
    """Expected points of the kept hand at the show."""
    crib: float
    """Expected points of the crib (under :data:`CRIB_MODEL`)."""
    net: float
    """Hand plus crib for your own crib, hand minus crib for the other side's."""
    hand_scores: tuple[tuple[int, float], ...]
    """Each score the kept hand can make, with its chance, lowest first."""

    @property
    def hand_min(self) -> int:
        """The worst the kept hand can score."""
        return self.hand_scores[0][0]

    @property
    def hand_max(self) -> int:
        """The best the kept hand can score."""
        return self.hand_scores[-1][0]

    def as_json(self, need: int | None = None) -> dict[str, object]:
        """For scripts: the cards (ASCII), the values, each hand score's chance, and with
        ``need``, the chance the hand makes it."""
        out: dict[str, object] = {
            "discard": [str(card) for card in self.discard],
            "keep": [str(card) for card in self.keep],
            "hand": self.hand,
            "crib": self.crib,
            "net": self.net,
            "hand_min": self.hand_min,
            "hand_max": self.hand_max,
            "hand_scores": {str(score): chance for score, chance in self.hand_scores},
        }
        if need is not None:
            out["chance_to_go_out"] = self.chance_at_least(need)
        return out

    def chance_at_least(self, points: int) -> float:
        """The chance the kept hand scores ``points`` or more."""
        return sum(chance for score, chance in self.hand_scores if score >= points)


def unseen_cards(seen: Iterable[Card]) -> list[Card]:
    """The cards of the deck not among ``seen``."""
    known = set(seen)
    return [card for card in deck() if card not in known]


def hand_values(
    keep: Sequence[Card], unseen: Sequence[Card]
) -> tuple[float, tuple[tuple[int, float], ...]]:
    """The kept hand's expected show and its score distribution over the possible starters."""
    scores = show_totals(keep, unseen)
    total = len(unseen)
    mean = sum(score * n for score, n in scores.items()) / total
    return mean, tuple((score, n / total) for score, n in sorted(scores.items()))


class CribModel:
    """Expected crib values for a given pool of unseen cards and number of unknown crib cards.

    The unknown cards (the crib's ``unknown`` other cards and the starter) are a uniformly
    random set drawn from ``unseen``; summing over multisets of their ranks, weighted by how
    many card sets have those ranks, gives the fifteens, pairs and runs exactly.
    """

    def __init__(self, unseen: Sequence[Card], unknown: int) -> None:
        self.unseen = list(unseen)
        self.unknown = unknown
        drawn = unknown + 1  # the unknown crib cards and the starter
        available = [0] * 14
        for card in unseen:
            available[card.rank] += 1
        ways_total = comb(len(unseen), drawn)
        # Each multiset of ranks that could be drawn, in order, with its chance (0.0 for
        # one that cannot: adding 0.0 changes no sum of chances).
        self._weights: list[float] = []
        for ranks in _multisets(drawn):
            ways = 1
            for rank, n in ranks:
                ways *= _CHOOSE[available[rank]][n]
            self._weights.append(ways / ways_total)
        self._suit_counts = Counter(card.suit for card in unseen)
        self._flush_chance = {
            suit: comb(count, drawn) / ways_total for suit, count in self._suit_counts.items()
        }
        size = len(unseen)
        # An unknown crib card is a jack whose suit the starter then matches.
        self._unknown_nobs = sum(
            (self._suit_counts[card.suit] - 1) / (size * (size - 1))
            for card in unseen
            if card.rank == JACK
        )

    def value(self, thrown: Sequence[Card]) -> float:
        """The crib's expected points with ``thrown`` in it."""
        points = self.by_ranks(tuple(card.rank for card in thrown))
        suits = {card.suit for card in thrown}
        if len(suits) == 1:
            points += 5 * self._flush_chance.get(next(iter(suits)), 0.0)
        size = len(self.unseen)
        points += sum(self._suit_counts[card.suit] / size for card in thrown if card.rank == JACK)
        points += self.unknown * self._unknown_nobs
        return points

    def by_ranks(self, thrown: Sequence[int]) -> float:
        """The crib's expected fifteens, pairs and runs with ``thrown`` (ranks) in it:
        each multiset's chance times its points, added in turn."""
        weights, points = self._weights, _crib_points(rank_key(thrown))
        if len(weights) != len(points):
            raise ValueError(f"{len(thrown)} cards thrown into a crib of {self.unknown} unknown")
        total = 0.0
        for at in range(len(weights)):
            total += weights[at] * points[at]
        return total


@cache
def _multisets(drawn: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every multiset of ``drawn`` ranks, in the order of ``combinations_with_replacement``,
    each as its ranks with how many of each."""
    return tuple(
        tuple(sorted(Counter(ranks).items()))
        for ranks in combinations_with_replacement(range(1, 14), drawn)
    )


_CHOOSE: Final = tuple(tuple(comb(left, n) for n in range(6)) for left in range(5))
"""``_CHOOSE[left][n]``: the ways to draw ``n`` of the ``left`` cards of a rank unseen."""

_CRIB_POINTS: Final[dict[int, list[int]]] = {}
""":func:`_crib_points` met, by the thrown ranks' key: at most 91 pairs thrown, or 13
single cards."""


def _crib_points(thrown: int) -> list[int]:
    """The fifteens, pairs and runs of a crib holding the ranks of key ``thrown`` and each
    multiset of the rest (:func:`_multisets`, in order)."""
    points = _CRIB_POINTS.get(thrown)
    if points is None:
        table = rank_table()
        drawn = 5 - sum((thrown >> (3 * rank)) & 7 for rank in range(13))
        points = _CRIB_POINTS[thrown] = [
            table[thrown + rank_key(rank for rank, n in ranks for _ in range(n))]
            for ranks in _multisets(drawn)
        ]
    return points


def analyse(
    hand: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    seen: Sequence[Card] = (),
) -> list[DiscardValue]:
    """Every discard from ``hand``, best net value first.

    ``dealer``: whether the crib is yours (or your partner's). ``seen``: other cards you
    know are not in the deck (none, in a real deal). Raises HandError for a hand of the
    wrong size or with a card twice.
    """
    size = 6 if players == 2 else 5
    if players not in (2, 3, 4):
        raise HandError(f"cribbage is for 2, 3 or 4 players, not {players}")
    if len(hand) != size:
        raise HandError(f"with {players} players a hand is {size} cards, not {len(hand)}")
    check_distinct([*hand, *seen])
    unseen = unseen_cards([*hand, *seen])
    throw = size - KEPT_SIZE
    crib = CribModel(unseen, unknown=KEPT_SIZE - throw)
    values = []
    for discard in combinations(hand, throw):
        keep = tuple(card for card in hand if card not in discard)
        hand_ev, scores = hand_values(keep, unseen)
        crib_ev = crib.value(discard)
        net = hand_ev + crib_ev if dealer else hand_ev - crib_ev
        values.append(DiscardValue(discard, keep, hand_ev, crib_ev, net, scores))
    values.sort(key=lambda value: (-value.net, -value.hand))
    return values


@dataclass(frozen=True, slots=True)
class Advice:
    """Every discard from a hand, ranked: by net value, or, when the hand alone could
    bring home the points still needed, by the chance that it does."""

    values: list[DiscardValue]
    dealer: bool
    need: int | None = None
    """The points still needed to win, when the scores were given."""

    @property
    def by_chance(self) -> bool:
        """Whether the ranking is by the chance of making :attr:`need` (a hand can)."""
        return self.need is not None and self.need <= MAX_SHOW


def advise(
    hand: Sequence[Card],
    *,
    dealer: bool,
    players: int = 2,
    scores: tuple[int, int] | None = None,
    target: int = FULL_GAME,
) -> Advice:
    """Every discard from ``hand`` ranked for the position: ``scores`` are yours and the
    other side's, in a game to ``target``. Raises HandError for a bad hand and
    UsageProblem for scores off the board."""
    values = analyse(hand, dealer=dealer, players=players)
    if scores is None:
        return Advice(values, dealer)
    mine, theirs = scores
    if not (0 <= mine < target and 0 <= theirs < target):
        raise UsageProblem(f"scores run from 0 to {target - 1} in a game to {target}")
    need = target - mine
    if need <= MAX_SHOW:  # the hand alone could bring it home: rank by that chance
        values.sort(key=lambda v: (-v.chance_at_least(need), -v.net))
    return Advice(values, dealer, need)
