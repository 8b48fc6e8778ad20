"""The chance of winning from a score, and the hard computer playing to it near the end."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribcli.cards import Card, parse_cards
from cribcli.engine import Rules, new_game, view
from cribcli.players import computer, odds

DEALER_PEG, PONE_PEG, PONE_HAND, DEALER_HAND, CRIB = (
    odds.spread(counts)
    for counts in (
        odds.DEALER_PEGGING,
        odds.PONE_PEGGING,
        odds.PONE_HAND,
        odds.DEALER_HAND,
        odds.CRIB,
    )
)


def test_the_first_dealer_wins_as_published() -> None:
    # between equal players the first dealer wins about 55-56% (Colvert; Chambers)
    assert 0.54 < odds.dealer_chance(121, 121) < 0.57


def test_the_tallies_are_like_published_averages() -> None:
    # dealer 16.2 a deal (pegging 3.5, hand 8.0, crib 4.7), pone 10.2 (pegging 2.0, hand 8.1)
    assert odds.mean(DEALER_PEG) == pytest.approx(3.5, abs=0.4)
    assert odds.mean(PONE_PEG) == pytest.approx(2.0, abs=0.4)
    assert odds.mean(PONE_HAND) == pytest.approx(8.1, abs=0.4)
    assert odds.mean(DEALER_HAND) == pytest.approx(8.0, abs=0.4)
    assert odds.mean(CRIB) == pytest.approx(4.7, abs=0.4)


@given(st.integers(1, 120), st.integers(1, 120))
def test_needing_less_is_never_worse(dealer_need: int, pone_need: int) -> None:
    chance = odds.dealer_chance(dealer_need, pone_need)
    assert 0.0 <= chance <= 1.0
    assert odds.dealer_chance(dealer_need + 1, pone_need) <= chance + 1e-12
    assert odds.dealer_chance(dealer_need, pone_need + 1) >= chance - 1e-12


@pytest.mark.parametrize(("dealer_need", "pone_need"), [(40, 35), (60, 90), (121, 121), (25, 50)])
def test_a_deal_counted_out_agrees_with_the_table(dealer_need: int, pone_need: int) -> None:
    """Two ways to the same number: the table's staged sums, and a deal added up source by
    source (with the tallied hand and crib), from either side. (Needs too large for both to
    peg out, where the two break that tie differently.)"""
    table = odds.dealer_chance(dealer_need, pone_need)
    as_dealer = odds.deal_chance(dealer_need, pone_need, True, DEALER_HAND, CRIB)
    as_pone = odds.deal_chance(pone_need, dealer_need, False, PONE_HAND, CRIB)
    assert as_dealer == pytest.approx(table, abs=1e-9)
    assert as_pone == pytest.approx(1 - table, abs=1e-9)


def test_the_pone_counts_first() -> None:
    # both home at the show: the pone's hand is counted first and wins
    assert odds.after_play(5, 5, 10, 10, dealer=True) == 0.0
    assert odds.after_play(5, 5, 10, 10, dealer=False) == 1.0
    # the pone short: the dealer's hand and crib take it
    assert odds.after_play(5, 9, 10, 3, dealer=True) == 1.0
    # nobody home: the pone deals next, needing 2 to the other's 10
    assert odds.after_play(20, 5, 10, 3, dealer=True) == 1 - odds.dealer_chance(2, 10)


def test_a_sure_thing() -> None:
    sure_two = tuple(1.0 if points == 2 else 0.0 for points in range(3))
    # the dealer pegs at least the last card or a go: needing 1, it cannot lose to a pone
    # too far off to peg out
    assert odds.deal_chance(1, 25, True, sure_two, CRIB) == pytest.approx(1.0)
    # a pone sure of two in its hand, needing two, wins unless the dealer pegs out; if
    # both could peg out, it is a toss-up who gets there first
    chance = odds.deal_chance(2, 6, False, sure_two, CRIB)
    dealer_out = sum(DEALER_PEG[6:])
    assert chance == pytest.approx(1 - dealer_out + dealer_out * sum(PONE_PEG[2:]) / 2)


def test_shifted_moves_the_average() -> None:
    assert odds.mean(odds.shifted(CRIB, 0.6)) == pytest.approx(odds.mean(CRIB) + 0.6)
    # down, nothing falls below zero, so the average falls a little less
    lower = odds.mean(odds.shifted(CRIB, -1.25))
    assert odds.mean(CRIB) - 1.25 < lower < odds.mean(CRIB) - 1.1
    assert odds.shifted((1.0,), -3) == (1.0, 0.0)


def discard_as_pone(cards: str, scores: tuple[int, int]) -> tuple[Card, ...]:
    """What hard throws from ``cards`` as the pone (seat 1) with ``scores``."""
    state, _ = new_game(Rules(), 8)
    hand = tuple(parse_cards(cards))
    state = replace(state, dealer=0, scores=scores, hands=(state.hands[0], hand))
    return computer("hard", 8, 1).discard(view(state, 1))


def test_hard_keeps_a_sure_hand_when_it_needs_only_that() -> None:
    """KD 10S 7S KH 7C 9C: 7S KH 7C 9C is worth most on average (8.8 points, but only half
    the starters bring it 4), KD KH 7S 7C is sure of 4 (two pairs). Needing 4 at the end,
    the pone keeps the sure hand; early in the game, the one worth most."""
    assert set(discard_as_pone("KD 10S 7S KH 7C 9C", (60, 117))) == set(parse_cards("10S 9C"))
    early = discard_as_pone("KD 10S 7S KH 7C 9C", (10, 10))
    assert set(early) != set(parse_cards("10S 9C"))
