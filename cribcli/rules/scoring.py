"""Scoring: the show (a hand or the crib with the starter) and the points of the play.

Two ways to count a show, kept in agreement by the tests:

* :func:`score_show` names every point (each fifteen, pair and run with its cards) for
  people: the ``score`` command, the show at the end of a round, a replay;
* :func:`show_total` gives only the number, fast, for the analysis and the computer. Ranks
  alone decide fifteens, pairs and runs, and five cards have only 6,188 multisets of ranks,
  so it looks those up in a table and adds the flush and his nobs by suit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import Enum
from functools import cache
from itertools import combinations, combinations_with_replacement, pairwise, product
from operator import attrgetter
from typing import Final, NamedTuple

from cribcli.rules.cards import JACK, Card, check_distinct, deck, in_order, parse_cards
from cribcli.rules.errors import CribbageError, HandError

KEPT_SIZE: Final = 4
"""Cards in a hand or crib at the show (the starter is a fifth)."""

MAX_SHOW: Final = 29
"""The most a hand can score: 5 5 5 J with the fourth 5 of the jack's suit cut."""


class ShowKind(Enum):
    """The five sources of points in the show, in the order they are counted."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    RUN = "run"
    FLUSH = "flush"
    NOBS = "his nobs"


class ShowItem(NamedTuple):
    """One scoring combination of the show: its kind, its cards and its points (a named
    tuple: a show makes several, and they are made for every hand counted)."""

    kind: ShowKind
    cards: tuple[Card, ...]
    points: int

    def describe(self, card_text: Callable[[Card], str] = Card.ascii) -> str:
        """Words a player reads: ``fifteen 5H+JD for 2``, ``run 3C 4D 5S for 3``.

        ``card_text`` draws each card (ASCII by default; the UI passes its own style).
        """
        sep = "+" if self.kind is ShowKind.FIFTEEN else " "
        return f"{self.kind.value} {sep.join(map(card_text, self.cards))} for {self.points}"


class ShowScore(NamedTuple):
    """The full count of a hand or crib: every item, the subtotals and the total (a named
    tuple, made for every hand counted)."""

    hand: tuple[Card, ...]
    starter: Card
    is_crib: bool
    items: tuple[ShowItem, ...]

    def subtotal(self, kind: ShowKind) -> int:
        """Points from one kind of combination."""
        return sum(item.points for item in self.items if item.kind is kind)

    @property
    def fifteens(self) -> int:
        """Points for fifteens."""
        return self.subtotal(ShowKind.FIFTEEN)

    @property
    def pairs(self) -> int:
        """Points for pairs (three of a kind is three pairs)."""
        return self.subtotal(ShowKind.PAIR)

    @property
    def runs(self) -> int:
        """Points for runs, each way of making a run counted."""
        return self.subtotal(ShowKind.RUN)

    @property
    def flush(self) -> int:
        """Points for a flush."""
        return self.subtotal(ShowKind.FLUSH)

    @property
    def nobs(self) -> int:
        """The point for his nobs."""
        return self.subtotal(ShowKind.NOBS)

    @property
    def total(self) -> int:
        """Everything the hand scores."""
        return sum(item.points for item in self.items)

    def as_json(self) -> dict[str, object]:
        """A JSON-ready object: cards, starter, crib, items, subtotals, total (ASCII cards)."""
        return {
            "cards": [card.ascii() for card in self.hand],
            "starter": self.starter.ascii(),
            "crib": self.is_crib,
            "items": [
                {
                    "kind": item.kind.name.lower(),
                    "cards": [card.ascii() for card in item.cards],
                    "points": item.points,
                    "text": item.describe(),
                }
                for item in self.items
            ],
            "subtotals": self.subtotals(),
            "total": self.total,
        }

    def subtotals(self) -> dict[str, int]:
        """The subtotals by name, in counting order: fifteens, pairs, runs, flush, nobs."""
        return {
            "fifteens": self.fifteens,
            "pairs": self.pairs,
            "runs": self.runs,
            "flush": self.flush,
            "nobs": self.nobs,
        }


def check_show(hand: Sequence[Card], starter: Card | None) -> None:
    """Raise HandError unless ``hand`` is four distinct cards and ``starter`` a fifth."""
    if len(hand) != KEPT_SIZE:
        raise HandError(f"a hand has {KEPT_SIZE} cards, not {len(hand)}")
    if starter is None:
        raise HandError("no starter: a hand is counted with the starter card")
    check_distinct([*hand, starter])


def hand_and_starter(
    cards: Sequence[Card], starter: Card | None, *, how: str = "as a fifth card"
) -> tuple[list[Card], Card]:
    """The hand and the starter from cards as a person types them: the four cards of the
    hand with the starter given apart, or five cards, the last of them the starter.
    Raises HandError for anything else (``how``: how the starter may be given)."""
    if not cards:
        raise HandError("no cards: give the four cards of the hand, then the starter")
    hand = list(cards)
    if starter is None and len(hand) == KEPT_SIZE + 1:
        hand, starter = hand[:KEPT_SIZE], hand[KEPT_SIZE]
    if starter is None and len(hand) == KEPT_SIZE:
        raise HandError(f"no starter: add it {how}")
    check_show(hand, starter)
    assert starter is not None  # check_show refuses a missing starter
    return hand, starter


def score_lines(
    lines: Iterable[str], *, crib: bool = False, limit: int
) -> Iterator[tuple[int, ShowScore | CribbageError]]:
    """Hands typed one a line, each four cards then the starter (``#`` begins a comment;
    blank lines are passed over): each line's number with its show, or with what is
    wrong with it (a line longer than ``limit`` is not a hand)."""
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            if len(line.rstrip("\n")) > limit:
                raise HandError(f"longer than {limit} characters: not a hand")
            cards = parse_cards(text)
            if len(cards) != KEPT_SIZE + 1:
                raise HandError(
                    f"{len(cards)} cards: a line is the four cards of the hand, then the starter"
                )
            yield number, score_show(*hand_and_starter(cards, None), crib=crib)
        except CribbageError as error:
            yield number, error


def score_show(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> ShowScore:
    """Count a hand (or, with ``crib``, the crib) with the starter, naming every point.

    Fifteens: every combination adding to 15 scores 2. Pairs: every pair 2. Runs: every
    way of making the longest run of three or more scores its length. Flush: four cards of
    a suit in the hand score 4, 5 with the starter; the crib scores only a five-card flush.
    His nobs: the jack in hand of the starter's suit scores 1.
    """
    five = (*hand, starter)
    if starter is None or len(hand) != KEPT_SIZE or len(set(map(_INDEX, five))) != 5:
        check_show(hand, starter)  # says what is wrong
    cards = sorted(five, key=_INDEX)  # by rank, then suit
    ranks = tuple(map(_RANK, cards))
    items = _RANK_ITEMS[ranks](cards)
    suit = hand[0].suit
    if hand[1].suit is suit and hand[2].suit is suit and hand[3].suit is suit:
        if starter.suit is suit:
            items += (ShowItem(ShowKind.FLUSH, tuple(cards), 5),)
        elif not crib:
            items += (ShowItem(ShowKind.FLUSH, tuple(in_order(hand)), 4),)
    if JACK in ranks:
        for card in hand:
            if card.rank == JACK and card.suit is starter.suit:
                items += (ShowItem(ShowKind.NOBS, (card,), 1),)
    return _made(ShowScore, (tuple(hand), starter, crib, items))


def kept_items(cards: Sequence[Card]) -> tuple[ShowItem, ...]:
    """What cards kept for the show score among themselves, before any starter: their
    fifteens, pairs and runs, and four of one suit a flush of 4. It is what a player means
    by a throw that "keeps fifteen 2 and a run"."""
    ordered = sorted(cards, key=_INDEX)
    items = tuple(
        ShowItem(kind, tuple(ordered[i] for i in where), points)
        for kind, where, points in _rank_places(tuple(map(_RANK, ordered)))
    )
    if len(ordered) == KEPT_SIZE and len({card.suit for card in ordered}) == 1:
        items += (ShowItem(ShowKind.FLUSH, tuple(ordered), 4),)
    return items


def _is_run(cards: Sequence[Card]) -> bool:
    ranks = sorted(card.rank for card in cards)
    return all(b - a == 1 for a, b in pairwise(ranks))


_INDEX, _RANK = attrgetter("index"), attrgetter("rank")
_made = tuple.__new__
"""A named tuple made from its fields in one call in C (a named tuple's own constructor
runs in Python): every hand counted makes a show and its items, and the breakdown is to
keep up with :func:`show_total`."""

ItemMaker = Callable[[Sequence[Card]], tuple[ShowItem, ...]]
"""Makes the fifteens, pairs and runs of five cards sorted by rank, for one multiset of
ranks."""


class _RankItems(dict[tuple[int, ...], ItemMaker]):
    """The fifteens, pairs and runs of five cards sorted by rank, keyed by their ranks: the
    ranks alone decide which card positions make each item (the suits only the flush and
    nobs), and there are 6,188 rank multisets, so each one's maker is written once, when
    first met, as a single expression over the positions, e.g. for 5 5 10 J K::

        lambda c: (made(Item, (FIFTEEN, (c[0], c[2]), 2)), ..., made(Item, (PAIR, ...)), )

    (a loop over position lists per hand costs the breakdown a third of its speed). The
    source is made here from small numbers and the kinds' names, never from input."""

    def __missing__(self, ranks: tuple[int, ...]) -> ItemMaker:
        made = "".join(
            f"made(Item, ({kind.name}, ({''.join(f'c[{i}], ' for i in where)}), {points})), "
            for kind, where, points in _rank_places(ranks)
        )
        names: dict[str, object] = {kind.name: kind for kind in ShowKind}
        names |= {"made": _made, "Item": ShowItem}
        maker: ItemMaker = eval(f"lambda c: ({made})", names)
        self[ranks] = maker
        return maker


_RANK_ITEMS: Final = _RankItems()


def _rank_places(ranks: tuple[int, ...]) -> list[tuple[ShowKind, tuple[int, ...], int]]:
    """The fifteens, pairs and runs of five ranks, sorted, as their positions."""
    items: list[tuple[ShowKind, tuple[int, ...], int]] = []
    values = [min(rank, 10) for rank in ranks]
    places = range(len(ranks))
    for size in range(2, 6):
        for where in combinations(places, size):
            if sum(values[i] for i in where) == 15:
                items.append((ShowKind.FIFTEEN, where, 2))
    for first, second in combinations(places, 2):
        if ranks[first] == ranks[second]:
            items.append((ShowKind.PAIR, (first, second), 2))
    for size in (5, 4, 3):
        runs = [
            where
            for where in combinations(places, size)
            if all(ranks[b] - ranks[a] == 1 for a, b in pairwise(where))
        ]
        if runs:
            items.extend((ShowKind.RUN, where, size) for where in runs)
            break
    return items


# --- the fast count -------------------------------------------------------------------


def rank_key(ranks: Iterable[int]) -> int:
    """A number naming a multiset of ranks: three bits of count per rank."""
    return sum(1 << (3 * (rank - 1)) for rank in ranks)


def rank_points(ranks: Sequence[int]) -> int:
    """Fifteens, pairs and runs of five ranks, counted from the ranks alone.

    Runs are found as stretches of consecutive ranks present; a stretch of three or more
    scores its length times the ways of choosing one card of each rank in it.
    """
    values = [min(rank, 10) for rank in ranks]
    fifteens = sum(
        2
        for size in range(2, len(values) + 1)
        for combo in combinations(values, size)
        if sum(combo) == 15
    )
    counts = Counter(ranks)
    pairs = sum(count * (count - 1) for count in counts.values())  # 2 * C(count, 2)
    runs = 0
    rank = 1
    while rank <= 13:
        length, ways = 0, 1
        while rank + length <= 13 and counts[rank + length]:
            ways *= counts[rank + length]
            length += 1
        if length >= 3:
            runs += length * ways
        rank += max(length, 1)
    return fifteens + pairs + runs


@cache
def rank_table() -> dict[int, int]:
    """Fifteens, pairs and runs for every multiset of five ranks, keyed by :func:`rank_key`:
    :func:`rank_points` of each, counted once by ``tools/rank_points.py`` (a test counts
    them again)."""
    from cribcli.rules.rank_points import POINTS

    bits = (0, *(rank_key((rank,)) for rank in range(1, 14)))  # each rank's part of a key
    multisets = combinations_with_replacement(range(1, 14), 5)
    keys = [bits[a] + bits[b] + bits[c] + bits[d] + bits[e] for a, b, c, d, e in multisets]
    return dict(zip(keys, POINTS, strict=True))


_CARD_KEY: Final = {card: rank_key([card.rank]) for card in deck()}


def show_total(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """The show total of :func:`score_show`, without the breakdown and without checks."""
    key = _CARD_KEY
    points = rank_table()[key[hand[0]] + key[hand[1]] + key[hand[2]] + key[hand[3]] + key[starter]]
    suit = hand[0].suit
    if hand[1].suit is suit and hand[2].suit is suit and hand[3].suit is suit:
        if starter.suit is suit:
            points += 5
        elif not crib:
            points += 4
    for card in hand:
        if card.rank == JACK and card.suit is starter.suit:
            points += 1
    return points


def show_totals(hand: Sequence[Card], starters: Iterable[Card]) -> Counter[int]:
    """How many of ``starters`` give the hand each :func:`show_total` (as a hand, not the
    crib): the fifteens, pairs and runs looked up once for each rank of starter, the flush
    and his nobs added by suit. What the exact analysis asks of each hand it could keep."""
    table = rank_table()
    key = _CARD_KEY
    base = key[hand[0]] + key[hand[1]] + key[hand[2]] + key[hand[3]]
    by_rank = [-1] * 14
    suit = hand[0].suit
    flush = hand[1].suit is suit and hand[2].suit is suit and hand[3].suit is suit
    nobs = {card.suit for card in hand if card.rank == JACK}
    totals: Counter[int] = Counter()
    for starter in starters:
        points = by_rank[starter.rank]
        if points < 0:
            points = by_rank[starter.rank] = table[base + key[starter]]
        if flush:
            points += 5 if starter.suit is suit else 4
        if starter.suit in nobs:
            points += 1
        totals[points] += 1
    return totals


def show_distribution() -> tuple[list[int], list[int]]:
    """How many of the 12,994,800 (four cards, starter) deals score each total 0..29.

    Returns the counts as a hand and as a crib. Counted over multisets of ranks: for each
    multiset of four ranks, every way of giving its cards suits, then every starter; the
    suits matter only for a flush and his nobs, so deals that can have neither are counted
    in bulk.
    """
    table = rank_table()
    hand_counts = [0] * (MAX_SHOW + 1)
    crib_counts = [0] * (MAX_SHOW + 1)
    suits = range(4)
    for ranks in combinations_with_replacement(range(1, 14), KEPT_SIZE):
        hand_key = rank_key(ranks)
        multiplicity = Counter(ranks)
        # (starter rank, fifteens + pairs + runs, starters of that rank left in the deck)
        starters = [
            (rank, table[hand_key + rank_key([rank])], 4 - multiplicity[rank])
            for rank in range(1, 14)
            if multiplicity[rank] < 4
        ]
        distinct = sorted(multiplicity)
        # Every way to give the cards of each rank distinct suits.
        plain_deals = 0
        for choice in product(*(combinations(suits, multiplicity[r]) for r in distinct)):
            used = dict(zip(distinct, choice, strict=True))
            flush_suit = (
                choice[0][0] if len(distinct) == 4 and len({c[0] for c in choice}) == 1 else None
            )
            jack_suits = used.get(JACK, ())
            if flush_suit is None and not jack_suits:
                plain_deals += 1
                continue
            for rank, points, _ in starters:
                taken = used.get(rank, ())
                for suit in suits:
                    if suit in taken:
                        continue
                    nobs = 1 if suit in jack_suits else 0
                    hand_flush = crib_flush = 0
                    if flush_suit is not None:
                        hand_flush = 5 if suit == flush_suit else 4
                        crib_flush = 5 if suit == flush_suit else 0
                    hand_counts[points + nobs + hand_flush] += 1
                    crib_counts[points + nobs + crib_flush] += 1
        if plain_deals:
            for _, points, left in starters:
                hand_counts[points] += plain_deals * left
                crib_counts[points] += plain_deals * left
    return hand_counts, crib_counts


# --- the play ---------------------------------------------------------------------------


class PegKind(Enum):
    """The sources of points in the play, with the words a player says."""

    FIFTEEN = "fifteen"
    THIRTY_ONE = "31"
    PAIR = "pair"
    THREE_OF_A_KIND = "three of a kind"
    FOUR_OF_A_KIND = "four of a kind"
    RUN = "run"
    GO = "go"
    LAST_CARD = "last card"
    HIS_HEELS = "his heels"
    MUGGINS = "muggins"


class PegItem(NamedTuple):
    """Points pegged in the play, with their reason."""

    kind: PegKind
    points: int
    cards: tuple[Card, ...] = ()

    def describe(self) -> str:
        """``fifteen for 2``, ``run of 4 for 4``, ``31 for 2``, ``go for 1``."""
        if self.kind is PegKind.RUN:
            return f"run of {len(self.cards)} for {self.points}"
        return f"{self.kind.value} for {self.points}"


COUNT_LIMIT: Final = 31
"""The count never passes 31."""

HEELS_POINTS: Final = 2
"""His heels: a jack turned as the starter pegs the dealer 2."""

_SAME_RANK: Final = {
    2: (PegKind.PAIR, 2),
    3: (PegKind.THREE_OF_A_KIND, 6),
    4: (PegKind.FOUR_OF_A_KIND, 12),
}


def count_of(pile: Iterable[Card]) -> int:
    """The running total of the cards laid since the count last started from 0."""
    return sum(card.value for card in pile)


def peg_points(pile: Sequence[Card]) -> tuple[PegItem, ...]:
    """The points the last card of ``pile`` makes, each named.

    ``pile`` is every card laid since the count last started from 0, in order. Fifteen and
    31 score 2; a pair 2, three of a kind 6, four of a kind 12 (same ranks in a row at the
    end); a run scores its length, for the longest n such that the last n cards are n
    consecutive ranks in any order. Go and the last card are scored by the engine with
    :func:`go_point`. Raises HandError if the count passes 31.
    """
    if not pile:
        return ()
    count = count_of(pile)
    if count > COUNT_LIMIT:
        raise HandError(f"the count would be {count}: it can never pass {COUNT_LIMIT}")
    items: list[PegItem] = []
    if count == 15:
        items.append(PegItem(PegKind.FIFTEEN, 2))
    elif count == COUNT_LIMIT:
        items.append(PegItem(PegKind.THIRTY_ONE, 2))
    last = pile[-1]
    same = 1
    while same < len(pile) and pile[-1 - same].rank == last.rank:
        same += 1
    if same >= 2:
        kind, points = _SAME_RANK[same]
        items.append(PegItem(kind, points, tuple(pile[-same:])))
    for length in range(len(pile), 2, -1):
        tail = pile[-length:]
        if _is_run(tail):
            items.append(PegItem(PegKind.RUN, length, tuple(tail)))
            break
    return tuple(items)


def go_point(pile: Sequence[Card], *, end_of_play: bool) -> PegItem | None:
    """The point for the last card before the count restarts, if it earns one.

    ``go for 1``, or ``last card for 1`` when it is the last card of the whole play; none
    when the card made 31 (its 2 for 31 already counts) or nothing was laid.
    """
    if not pile or count_of(pile) == COUNT_LIMIT:
        return None
    return PegItem(PegKind.LAST_CARD if end_of_play else PegKind.GO, 1, (pile[-1],))
