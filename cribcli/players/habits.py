"""The other player's habits: which way of keeping and laying fits what it has shown.

After each show of a game of two, the hard computer knows all six cards the other player
was dealt (its four are laid face up, and its two are in the crib, beside hard's own
two), which four it kept, and every card it laid and when. Over the deals shown so far it
weighs how well each of five styles would have chosen as the other did:

- **careful**, as the normal computer: it keeps the four worth most with the crib, plus
  or minus, and lays the card with the best points less the answer it fears;
- **greedy**: it keeps the best four for the hand alone, the crib forgotten, and lays
  what scores most now;
- **crib-minded**: it throws for the crib, its own as rich as it can make it, the
  other's as poor, and lays carefully;
- **loose**: careful, but one decision in three or so any other (:data:`LOOSE_STRAY`):
  many people, and the computer's levels 7 and 8 (the levels below stray more often than
  not, and read as random);
- **random**: any choice as likely as any other.

Each style but random makes its own choice (or one of several as good) but for a
:data:`STRAY` share of its decisions (the loose: :data:`LOOSE_STRAY`), when it makes any
other; so a choice unlike a style counts against it, and no style is ever ruled out. The
styles' chances start from :data:`PRIOR` (most players keep and lay with some care) and
move with each keep and each lay that had a choice (Bayes' rule). Hard weighs the hands
it deals the other in its head by the mixture (:attr:`Habits.noticed`; a loose player's
decisions are careful's or random's): what it has seen, never what it may not see.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import StrEnum
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from operator import itemgetter
from typing import Final, NamedTuple

from cribcli.players import cribs
from cribcli.players.careful import Lay, Ranks, Unseen, chosen, lays, unseen_after
from cribcli.players.pegging import VALUES, points
from cribcli.rules.engine import Rules, ShownDeal, View
from cribcli.rules.scoring import COUNT_LIMIT, KEPT_SIZE, rank_key, rank_table


class Style(StrEnum):
    """A way of keeping and laying cards."""

    CAREFUL = "careful"
    GREEDY = "greedy"
    CRIB_MINDED = "crib-minded"
    LOOSE = "loose"
    RANDOM = "random"

    @property
    def lays_like(self) -> Style:
        """The style whose lays it makes (the crib-minded and the loose lay carefully)."""
        return Style.CAREFUL if self in (Style.CRIB_MINDED, Style.LOOSE) else self

    @property
    def keeps_like(self) -> Style:
        """The style whose keeps it makes (the loose keep carefully)."""
        return Style.CAREFUL if self is Style.LOOSE else self

    @property
    def crib_table(self) -> str | None:
        """The table of the crib's worth against this style's throws
        (:mod:`cribcli.players.cribs`, made by ``tools/crib_table.py --style``); None
        for random, whose two cards are the exact analysis's own assumption."""
        if self is Style.RANDOM:
            return None
        throws = self.keeps_like
        return cribs.CAREFUL if throws is Style.CAREFUL else f"cribs-{throws}.json"

    @property
    def stray(self) -> float:
        """The share of its decisions unlike its style's choice."""
        return LOOSE_STRAY if self is Style.LOOSE else STRAY


PRIOR: Final = {
    Style.CAREFUL: 0.9,
    Style.GREEDY: 0.02,
    Style.CRIB_MINDED: 0.02,
    Style.LOOSE: 0.04,
    Style.RANDOM: 0.02,
}
"""What hard believes of a player once it has seen it show a hand, before weighing what
the hand says (until then it reads the other as careful, as it always has: the
normal computer's way is the one measured best against the most players)."""
STRAY: Final = 0.1
"""The share of its decisions a player of a style makes otherwise (a whim, a flush or his
nobs, which the styles' keeps by ranks do not see)."""
LOOSE_STRAY: Final = 0.4
"""The share a loose player makes otherwise. A player who strays from the careful choice
more often than about one time in five, and less than about seven in ten, fits it best."""
KEEP_CLOSE: Final = 0.05
"""Keeps this close to a style's best by ranks are all that style's (suits move them a
little)."""
THROWS: Final = 15
"""The ways to throw two of six."""
STYLES: Final = tuple(Style)
"""The styles in order (a tuple: going through the enumeration itself is slow, and hard
weighs every hand it samples by each style noticed)."""
NOTICED: Final = 0.01
"""A style with less chance than this is left out of the weighing (it would change
nothing): the weighing then costs no more than the careful model's alone."""


# --- the styles' keeps ----------------------------------------------------------------


@lru_cache(maxsize=4096)
def _kept_value(ranks: tuple[int, ...]) -> float:
    table = rank_table()
    key = rank_key(ranks)
    total = weight = 0.0
    for starter, starter_key in _STARTER_KEYS:
        left = 4 - ranks.count(starter)
        total += left * table[key + starter_key]
        weight += left
    return total / weight


_STARTER_KEYS: Final = tuple((rank, rank_key((rank,))) for rank in range(1, 14))
"""Each rank a starter could be, with its :func:`cribcli.rules.scoring.rank_key`."""


def kept_value(four: Iterable[int]) -> float:
    """Four ranks' average show over the starters (fifteens, pairs and runs only)."""
    return _kept_value(tuple(sorted(four)))


_THROWS: Final = tuple(
    (itemgetter(*thrown), itemgetter(*(n for n in range(6) if n not in thrown)))
    for thrown in combinations(range(6), 6 - KEPT_SIZE)
)
"""Each two of six cards to throw, and the four kept, by their places among the six."""


class _KeptValues(dict[tuple[int, ...], float]):
    """:func:`kept_value` of four sorted ranks, each worked out once: a look-up, as
    :func:`likely_keeps` asks it fifteen times a hand."""

    def __missing__(self, four: tuple[int, ...]) -> float:
        self[four] = found = _kept_value(four)
        return found


class _Cribs(dict[tuple[int, ...], float]):
    """:func:`cribcli.players.cribs.random_crib` of two sorted ranks, for the dealer or
    taken off for the pone, each worked out once (a look-up, as :class:`_KeptValues`)."""

    def __init__(self, dealer: bool) -> None:
        super().__init__()
        self.dealer = dealer

    def __missing__(self, two: tuple[int, ...]) -> float:
        crib = cribs.random_crib(two)
        self[two] = found = crib if self.dealer else -crib
        return found


KEPT_VALUES: Final = _KeptValues()
CRIBS: Final = {True: _Cribs(True), False: _Cribs(False)}
_FOURS: Final[dict[tuple[int, ...], tuple[int, ...]]] = {
    four: four for four in combinations_with_replacement(range(1, 14), KEPT_SIZE)
}
"""Each four sorted ranks, as one tuple: :func:`likely_keeps` keeps these, not a copy of
its own for each of the thousands of hands it remembers."""


@lru_cache(maxsize=1 << 14)
def likely_keeps(
    six: tuple[int, ...], dealer: bool, style: Style = Style.CAREFUL
) -> frozenset[tuple[int, ...]]:
    """The fours of ``six`` ranks (sorted) a player of ``style`` would keep, as the dealer
    or not, by ranks alone: those within :data:`KEEP_CLOSE` of the style's best. Careful
    and loose: the best hand plus or minus crib (:func:`kept_value`,
    :func:`cribcli.players.cribs.random_crib`; it names the normal computer's keep nine
    times in ten); greedy: the best hand; crib-minded: the best crib for the dealer, the
    worst for the pone. Every keep for random."""
    crib = CRIBS[dealer]
    nets: dict[tuple[int, ...], float] = {}
    for throw, keep in _THROWS:
        kept = keep(six)
        if kept not in nets:  # a pair thrown as another pair keeps the same ranks
            if style.keeps_like is Style.CAREFUL:
                nets[kept] = KEPT_VALUES[kept] + crib[throw(six)]
            elif style is Style.GREEDY:
                nets[kept] = KEPT_VALUES[kept]
            elif style is Style.CRIB_MINDED:
                nets[kept] = crib[throw(six)]  # (the pone's is the crib taken off)
            else:
                nets[kept] = 0.0
    best = max(nets.values())
    return frozenset(_FOURS[keep] for keep, net in nets.items() if net >= best - KEEP_CLOSE)


# --- the styles' lays -----------------------------------------------------------------


# (1 << 10: read for each lay of a deal shown, and in the search only once the other is
# read as greedy; a lay is worked out in microseconds.)
@lru_cache(maxsize=1 << 10)
def greedy_lays(hand: Ranks, pile: Ranks, count: int) -> frozenset[int]:
    """The ranks a greedy player lays: those that score most now; of those, the highest
    in value."""
    room = COUNT_LIMIT - count
    options = {rank for rank in hand if VALUES[rank] <= room}
    worth = {rank: (points((*pile, rank), count + VALUES[rank]), VALUES[rank]) for rank in options}
    best = max(worth.values())
    return frozenset(rank for rank, key in worth.items() if key == best)


def lay_choices(style: Style, lay: Lay) -> frozenset[int] | None:
    """The ranks a player of ``style`` would lay (None: any card, at random)."""
    if style is Style.RANDOM:
        return None
    if style is Style.GREEDY:
        return greedy_lays(lay.hand, lay.pile, lay.count)
    return chosen(lay.hand, lay.pile, lay.count, lay.unseen, lay.reply, lay.out)


def laid_as(style: Style, plays: tuple[tuple[bool, int], ...], held: Ranks, unseen: Unseen) -> bool:
    """Whether a player of ``style`` holding ``held`` now would have laid its cards of this
    deal's play as it did (see :func:`lays`)."""
    return all(
        (choices := lay_choices(style, lay)) is None or lay.rank in choices
        for lay in lays(plays, held, unseen)
    )


# --- the weighing -------------------------------------------------------------------


def _chance(
    style: Style,
    choices: frozenset[int] | frozenset[tuple[int, ...]] | None,
    made: object,
    share: float,
) -> float:
    """The chance a player of ``style`` makes the choice ``made``, its style's being
    ``choices`` (None: any, at random), ``share`` being the chance of ``made`` at random
    (the share of the cards, or of the throws, that make it)."""
    if choices is None:
        return share
    return (1 - style.stray) * (made in choices) / len(choices) + style.stray * share


def _keep_share(six: Ranks, kept: Ranks) -> float:
    """The share of the fifteen throws of six cards that keep these ranks."""
    throws = [keep(six) for _, keep in _THROWS]
    return throws.count(kept) / len(throws)


def deal_evidence(deal: ShownDeal, other: int) -> dict[Style, float]:
    """How likely each style makes the choices ``other`` made in a deal shown (two
    players; the log of the chance, over its keep and its lays with a choice)."""
    mine = next(thrown for seat, thrown in enumerate(deal.thrown) if seat != other)
    theirs = tuple(card for card in deal.crib if card not in mine)
    assert len(theirs) == 2, "a deal shown to the other seat, with its own throw"
    kept = tuple(sorted(card.rank for card in deal.kept[other]))
    six = tuple(sorted((*kept, *(card.rank for card in theirs))))
    dealer = deal.dealer == other
    plays = tuple((seat == other, card.rank) for seat, card in deal.plays)
    # What it could not see as the play began: neither its six cards nor the starter.
    hidden = unseen_after((*six, deal.starter.rank))
    laid = list(lays(plays, (), hidden))  # (all laid by the end of the play)
    keep_share = _keep_share(six, kept)
    lay_shares = [lay.fitting.count(lay.rank) / len(lay.fitting) for lay in laid]
    evidence = {}
    for style in STYLES:
        keeps = None if style is Style.RANDOM else likely_keeps(six, dealer, style.keeps_like)
        total = math.log(_chance(style, keeps, kept, keep_share))
        for lay, share in zip(laid, lay_shares, strict=True):
            total += math.log(_chance(style, lay_choices(style.lays_like, lay), lay.rank, share))
        evidence[style] = total
    return evidence


TWO: Final = Rules()
"""A game of two, the only one whose deals are read."""
FIRST: Final = ((Style.CAREFUL, 1.0),)
"""The reading before any deal is shown."""


@lru_cache(maxsize=256)
def _mixture(past: tuple[ShownDeal, ...], other: int) -> tuple[tuple[Style, float], ...]:
    """Each style's chance after the deals shown (two players): :data:`PRIOR`, weighed by
    how likely each style makes the choices seen (:data:`FIRST` before any)."""
    seen_by = 1 - other
    shown = [deal for deal in past if deal.problem(TWO, seen_by) is None]
    if not shown:
        return FIRST
    logs = {style: math.log(chance) for style, chance in PRIOR.items()}
    for deal in shown:
        for style, evidence in deal_evidence(deal, other).items():
            logs[style] += evidence
    top = max(logs.values())
    weights = {style: math.exp(value - top) for style, value in logs.items()}
    total = sum(weights.values())
    return tuple((style, weight / total) for style, weight in weights.items())


class Habits(NamedTuple):
    """What the other player's shown deals say of its style: each style's chance."""

    mixture: tuple[tuple[Style, float], ...] = FIRST

    @classmethod
    def of(cls, view: View) -> Habits:
        """The other player's habits (two players), from the deals ``view`` has seen shown."""
        return cls(_mixture(view.past, 1 - view.seat))

    def chance(self, style: Style) -> float:
        return dict(self.mixture)[style]

    @property
    def noticed(self) -> tuple[tuple[Style, float], ...]:
        """The styles a hand is weighed by, each with its chance: a loose player's
        decisions are careful's or (:data:`LOOSE_STRAY` of them) random's, so its chance
        is shared between the two; those with a chance worth weighing (:data:`NOTICED`)."""
        chances = dict.fromkeys(STYLES, 0.0)
        for style, chance in self.mixture:
            if style is Style.LOOSE:
                chances[Style.CAREFUL] += chance * (1 - LOOSE_STRAY)
                chances[Style.RANDOM] += chance * LOOSE_STRAY
            else:
                chances[style] += chance
        return tuple((style, chance) for style, chance in chances.items() if chance >= NOTICED)
