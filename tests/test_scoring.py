"""Scoring: hand-checked shows, the published distribution, and every pegging rule.

Expected values here are worked out by hand from the rules, not copied from the code.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribcli.rules.cards import JACK, Card, Suit, deck, parse_cards
from cribcli.rules.errors import HandError
from cribcli.rules.scoring import (
    PegKind,
    ShowKind,
    count_of,
    go_point,
    peg_points,
    rank_key,
    rank_points,
    rank_table,
    score_show,
    show_distribution,
    show_total,
    show_totals,
)


def show(hand: str, starter: str, *, crib: bool = False) -> int:
    cards = parse_cards(hand)
    cut = Card.parse(starter)
    total = score_show(cards, cut, crib=crib).total
    assert show_total(cards, cut, crib=crib) == total
    return total


# --- the show, hand-checked -----------------------------------------------------------


def test_twenty_nine() -> None:
    # four fifteens of 5+J, four of 5+5+5 (16); six pairs (12); his nobs (1)
    result = score_show(parse_cards("5H 5S 5C JD"), Card.parse("5D"))
    assert (result.fifteens, result.pairs, result.runs, result.flush, result.nobs) == (
        16,
        12,
        0,
        0,
        1,
    )
    assert result.total == 29


def test_twenty_eight_with_jack_starter() -> None:
    # the same cards with the jack cut: no nobs (a cut jack is his heels, in the play)
    assert show("5H 5S 5C 5D", "JD") == 28


def test_issue_example_fifteen() -> None:
    result = score_show(parse_cards("5H 5S JD 4C"), Card.parse("5D"))
    assert [item.describe() for item in result.items] == [
        "fifteen 5D+JD for 2",
        "fifteen 5H+JD for 2",
        "fifteen 5S+JD for 2",
        "fifteen 5D+5H+5S for 2",
        "pair 5D 5H for 2",
        "pair 5D 5S for 2",
        "pair 5H 5S for 2",
        "his nobs JD for 1",
    ]
    assert result.subtotals() == {"fifteens": 8, "pairs": 6, "runs": 0, "flush": 0, "nobs": 1}
    assert result.total == 15


def test_crib_four_flush_does_not_count() -> None:
    # all even values: no fifteen; no pairs or runs; so only a flush could score
    assert show("2H 4H 6H 8H", "KC", crib=True) == 0
    assert show("2H 4H 6H 8H", "KC") == 4
    assert show("2H 4H 6H 8H", "10H", crib=True) == 5
    assert show("2H 4H 6H 8H", "10H") == 5


def test_four_flush_needs_the_hand_not_the_starter() -> None:
    # three hearts in hand and a heart cut is no flush
    assert show("2H 4H 6H 8S", "10H") == 0


def test_double_run_of_three_with_pairs() -> None:
    # 7-8 twice (4), pair of 8s and of 9s (4), run 7-8-9 four ways (12)
    assert show("7H 8S 8C 9D", "9H") == 20


def test_ace_to_five() -> None:
    # A+2+3+4+5 = 15 (2) and a run of five (5)
    assert show("AH 2S 3C 4D", "5H") == 7


def test_double_double_run() -> None:
    # 3 3 4 4 5: runs 3-4-5 four ways (12), two pairs (4), 3+3+4+5 two ways (4)
    result = score_show(parse_cards("3H 3S 4C 4D"), Card.parse("5H"))
    assert (result.fifteens, result.pairs, result.runs) == (4, 4, 12)
    assert [item.describe() for item in result.items if item.kind is ShowKind.RUN] == [
        "run 3H 4C 5H for 3",
        "run 3H 4D 5H for 3",
        "run 3S 4C 5H for 3",
        "run 3S 4D 5H for 3",
    ]


def test_triple_run() -> None:
    # 3 3 3 4 5: three runs (9), three pairs (6), 3+3+4+5 three ways (6)
    assert show("3H 3S 3C 4D", "5H") == 21


def test_double_run_of_four() -> None:
    # 5 6 7 8 8: two runs of four (8), a pair (2), 7+8 twice (4)
    assert show("5H 6S 7C 8D", "8H") == 14


def test_no_wrapping_from_king_to_ace() -> None:
    # Q K A 2 3: only A-2-3 runs (3); Q+2+3 and K+2+3 make 15 (4)
    assert show("QH KS AC 2D", "3H") == 7


def test_nobs_only_from_the_hand() -> None:
    # JH in hand, heart cut: nobs. 2+3+J=15 (2). A cut jack is not nobs.
    assert show("JH 2C 3D 8S", "6H") == 3
    assert show("6H 2C 3D 8S", "JH") == 2
    assert show("JC 2C 3D 8S", "6H") == 2


def test_nineteen_hand() -> None:
    result = score_show(parse_cards("2H 4S 6C 8D"), Card.parse("KH"))
    assert result.total == 0 and result.items == ()


@pytest.mark.parametrize(
    ("hand", "starter", "message"),
    [
        ("5H 5S JD", "4C", "a hand has 4 cards, not 3"),
        ("5H 5S JD 4C", "5H", "5H appears twice"),
        ("5H 5S 5H 4C", "6C", "5H appears twice"),
    ],
)
def test_bad_hands_are_refused(hand: str, starter: str, message: str) -> None:
    with pytest.raises(HandError, match=message):
        score_show(parse_cards(hand), Card.parse(starter))


# --- the fast count against the breakdown ---------------------------------------------


@pytest.mark.slow
def test_rank_points_agree_with_the_breakdown_for_every_multiset() -> None:
    """Every one of the 6,188 multisets of five ranks, counted both ways."""
    checked = 0
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        # Give each card the next suit in turn: a rank's cards get distinct suits, and the
        # first four cards are never one suit.
        cards = [Card(rank, list(Suit)[i % 4]) for i, rank in enumerate(ranks)]
        breakdown = score_show(cards[:4], cards[4])
        assert rank_points(ranks) == breakdown.fifteens + breakdown.pairs + breakdown.runs, ranks
        assert rank_table()[rank_key(ranks)] == rank_points(ranks)
        checked += 1
    assert checked == 6188 - 13  # five of a rank does not exist


five_cards = st.lists(st.sampled_from(deck()), min_size=5, max_size=5, unique=True)
one_suit_hand = st.sampled_from(list(Suit)).flatmap(
    lambda suit: st.lists(st.integers(1, 13), min_size=4, max_size=4, unique=True).map(
        lambda ranks: [Card(rank, suit) for rank in ranks]
    )
)


@given(five_cards, st.booleans())
def test_fast_total_equals_breakdown(cards: list[Card], crib: bool) -> None:
    assert (
        show_total(cards[:4], cards[4], crib=crib)
        == score_show(cards[:4], cards[4], crib=crib).total
    )


@given(one_suit_hand, st.sampled_from(deck()), st.booleans())
def test_fast_total_equals_breakdown_for_flushes(
    hand: list[Card], starter: Card, crib: bool
) -> None:
    if starter in hand:
        return
    assert show_total(hand, starter, crib=crib) == score_show(hand, starter, crib=crib).total


@given(st.one_of(one_suit_hand, st.permutations(deck()).map(lambda cards: cards[:4])))
def test_the_totals_over_every_starter_are_each_starters_breakdown(hand: list[Card]) -> None:
    """:func:`show_totals`, the analysis's count of a hand over every starter left (its
    fifteens, pairs and runs looked up once a rank), gives each starter's full count."""
    starters = [card for card in deck() if card not in hand]
    by_breakdown = Counter(score_show(hand, starter).total for starter in starters)
    assert show_totals(hand, starters) == by_breakdown


def items_by_definition(hand: list[Card], starter: Card) -> Counter[tuple[str, frozenset[Card]]]:
    """Every fifteen, pair and run of a show straight from the rules, over the cards
    themselves: each set of cards adding to 15, each two of a rank, and each set of cards
    making a run of the longest length that makes one."""
    five = [*hand, starter]
    found: Counter[tuple[str, frozenset[Card]]] = Counter()
    for size in range(2, 6):
        for combo in combinations(five, size):
            if sum(card.value for card in combo) == 15:
                found["fifteen", frozenset(combo)] += 2
    for a, b in combinations(five, 2):
        if a.rank == b.rank:
            found["pair", frozenset((a, b))] += 2
    for size in (5, 4, 3):
        runs = [
            combo
            for combo in combinations(five, size)
            if sorted(card.rank for card in combo)
            == list(range(min(c.rank for c in combo), min(c.rank for c in combo) + size))
        ]
        for run in runs:
            found["run", frozenset(run)] += size
        if runs:
            break
    return found


@given(five_cards, st.booleans())
def test_breakdown_names_the_cards_of_every_item(cards: list[Card], crib: bool) -> None:
    """Each fifteen, pair and run named, with its own cards and points, as the rules make
    them: the items are worked out by rank position, so the cards they name are checked."""
    show = score_show(cards[:4], cards[4], crib=crib)
    named: Counter[tuple[str, frozenset[Card]]] = Counter()
    for item in show.items:
        if item.kind in (ShowKind.FIFTEEN, ShowKind.PAIR, ShowKind.RUN):
            assert len(set(item.cards)) == len(item.cards)
            named[item.kind.value, frozenset(item.cards)] += item.points
    assert named == items_by_definition(cards[:4], cards[4])


# --- the published distribution -------------------------------------------------------

# S. Lumetta, "Amusing Cribbage Facts", as reproduced in Wikipedia's "Cribbage statistics":
# how many of the C(52,4) * 48 = 12,994,800 (hand, starter) deals score each total.
PUBLISHED_HAND = [
    1009008,
    99792,
    2813796,
    505008,
    2855676,
    697508,
    1800268,
    751324,
    1137236,
    361224,
    388740,
    51680,
    317340,
    19656,
    90100,
    9168,
    58248,
    11196,
    2708,
    0,
    8068,
    2496,
    444,
    356,
    3680,
    0,
    0,
    0,
    76,
    4,
]
PUBLISHED_CRIB_ZEROES = 1022208

# Derived here (only the zero count is published) and confirmed by the brute force below.
CRIB = [
    1022208,
    99792,
    2839800,
    508908,
    2868960,
    703496,
    1787176,
    755320,
    1118336,
    358368,
    378240,
    43880,
    310956,
    16548,
    88132,
    9072,
    57288,
    11196,
    2264,
    0,
    7828,
    2472,
    444,
    356,
    3680,
    0,
    0,
    0,
    76,
    4,
]


@pytest.mark.slow
def test_distribution_matches_the_published_table() -> None:
    hand, crib = show_distribution()
    assert hand == PUBLISHED_HAND
    assert crib[0] == PUBLISHED_CRIB_ZEROES
    assert crib == CRIB
    assert sum(hand) == sum(crib) == 12994800
    assert [score for score in range(30) if hand[score] == 0] == [19, 25, 26, 27]
    mean = sum(score * n for score, n in enumerate(hand)) / sum(hand)
    assert round(mean, 3) == 4.769


@pytest.mark.slow
def test_distribution_by_brute_force_over_cards() -> None:
    """Every five-card set, each of its cards in turn the starter, counted over the cards."""
    table = rank_table()
    key = {card: rank_key([card.rank]) for card in deck()}
    hand_counts = [0] * 30
    crib_counts = [0] * 30
    for five in combinations(deck(), 5):
        base = table[key[five[0]] + key[five[1]] + key[five[2]] + key[five[3]] + key[five[4]]]
        suits = Counter(card.suit for card in five)
        jack_suits = [card.suit for card in five if card.rank == JACK]
        flush_suit, flush_size = suits.most_common(1)[0]
        for starter in five:
            # his nobs: a jack among the other four of the starter's suit
            nobs = sum(1 for s in jack_suits if s is starter.suit) - (
                1 if starter.rank == JACK else 0
            )
            hand_flush = crib_flush = 0
            if flush_size == 5:
                hand_flush = crib_flush = 5
            elif flush_size == 4 and starter.suit is not flush_suit:
                hand_flush = 4
            hand_counts[base + nobs + hand_flush] += 1
            crib_counts[base + nobs + crib_flush] += 1
    assert hand_counts == PUBLISHED_HAND
    assert crib_counts == CRIB


# --- the play ---------------------------------------------------------------------------


def peg(cards: str) -> list[str]:
    return [item.describe() for item in peg_points(parse_cards(cards))]


@pytest.mark.parametrize(
    ("pile", "expected"),
    [
        ("5H", []),
        ("5H 10S", ["fifteen for 2"]),
        ("KH 10S", []),
        ("10H 10S", ["pair for 2"]),
        ("7H 7S 7C", ["three of a kind for 6"]),
        ("4H 4S 4C 4D", ["four of a kind for 12"]),
        ("5H 5S 5C", ["fifteen for 2", "three of a kind for 6"]),
        ("4H 6S 5C", ["fifteen for 2", "run of 3 for 3"]),
        ("3H 5S 4C 6D", ["run of 4 for 4"]),
        ("AH 2S 3C 4D", ["run of 4 for 4"]),
        ("KH QS JC", ["run of 3 for 3"]),
        ("QH KS AC", []),
        ("10H JS QC AD", ["31 for 2"]),
        ("7H 7S 8C 6D", ["run of 3 for 3"]),
        ("3H 4S 5C 3D", ["fifteen for 2", "run of 3 for 3"]),
        ("2H 3S 2C", []),
        ("6H 5S 5C", ["pair for 2"]),
        ("5S 6H 5C", []),
        ("9H 6S 8C 7D", ["run of 4 for 4"]),
        ("2H 3S 4C 5D 6H", ["run of 5 for 5"]),
        ("AH 2S 3C 4D 5H", ["fifteen for 2", "run of 5 for 5"]),
        ("KH 8C 8D", ["pair for 2"]),
        ("10H 10S 5C 3D 3C", ["31 for 2", "pair for 2"]),
        ("9H 10S 2C 3D", []),
        ("8H 7S 8C", []),
    ],
)
def test_pegging(pile: str, expected: list[str]) -> None:
    assert peg(pile) == expected


def test_run_after_pair_broke_it() -> None:
    # after 7, 7, 8 the 6 scores a run of 3 (7 8 6), not 4
    items = peg_points(parse_cards("7H 7S 8C 6D"))
    assert [(item.kind, item.points) for item in items] == [(PegKind.RUN, 3)]
    assert [str(c) for c in items[0].cards] == ["7S", "8C", "6D"]


def test_three_of_a_kind_scores_only_when_in_a_row() -> None:
    # 9 9 A 9: the last 9 follows an ace, so no pair at all
    assert peg("9H 9S AC 9D") == []


def test_count_cannot_pass_31() -> None:
    assert count_of(parse_cards("KH QS JC AD")) == 31
    with pytest.raises(HandError, match="never pass 31"):
        peg_points(parse_cards("KH QS JC 2D"))


def test_go_and_last_card() -> None:
    pile = parse_cards("10H 9S 8C")
    go = go_point(pile, end_of_play=False)
    assert go is not None and go.describe() == "go for 1"
    last = go_point(pile, end_of_play=True)
    assert last is not None and last.describe() == "last card for 1"
    # 31 already scored 2: no go and no last-card point on top
    assert go_point(parse_cards("10H JS QC AD"), end_of_play=True) is None
    assert go_point([], end_of_play=False) is None
