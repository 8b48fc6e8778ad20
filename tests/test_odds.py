"""The chance of winning from a score, and the hard computer playing to it near the end."""

from __future__ import annotations

from dataclasses import replace
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribcli.players import computer, cribs, hard, odds, pegs
from cribcli.players.habits import Style
from cribcli.players.hard import shows_after_play
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.engine import Phase, Rules, new_game, view

DEALER_PEG, PONE_PEG, PONE_HAND, DEALER_HAND, CRIB = (
    odds.spread(odds.counts()[source]) for source in odds.SOURCES
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
    assert -1e-12 <= chance <= 1 + 1e-12
    assert odds.dealer_chance(dealer_need + 1, pone_need) <= chance + 1e-12
    assert odds.dealer_chance(dealer_need, pone_need + 1) >= chance - 1e-12


@pytest.mark.parametrize(
    ("dealer_need", "pone_need"),
    [(1, 1), (2, 2), (5, 2), (3, 9), (40, 35), (60, 90), (121, 121), (25, 50)],
)
def test_a_deal_counted_out_agrees_with_the_table(dealer_need: int, pone_need: int) -> None:
    """Two ways to the same number: the table's staged sums, and a deal added up source by
    source (with the tallied hand and crib), from either side."""
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
    # the dealer always pegs a go or the last card: needing 1, it loses only the toss-up
    # when the pone pegs out too
    pone_out = sum(PONE_PEG[1:])
    assert odds.deal_chance(1, 1, True, sure_two, CRIB) == pytest.approx(1 - pone_out / 2)
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


def hard_discard(cards: str, scores: tuple[int, int], *, dealer: bool = False) -> set[Card]:
    """What hard throws from ``cards`` as the pone (seat 1), or as the dealer (seat 0),
    with ``scores``."""
    state, _ = new_game(Rules(), 8)
    hand = tuple(parse_cards(cards))
    seat = 0 if dealer else 1
    hands = (hand, state.hands[1]) if dealer else (state.hands[0], hand)
    state = replace(state, dealer=0, scores=scores, hands=hands)
    return set(computer("hard", 8, seat).discard(view(state, seat)))


def test_hard_keeps_a_sure_hand_when_it_needs_only_that() -> None:
    """From KD 10S 7S KH 7C 9C the pone's best net is to throw KD 10S: KH 7S 7C 9C makes
    3.8 on average (4 or more with half the starters) and the dealer's crib gets little.
    Throwing 10S 9C keeps two pairs, 4 points whatever the starter, and feeds the crib.
    Needing 4, with the dealer needing 11, the pone keeps the sure hand; early in the game,
    the better net."""
    assert hard_discard("KD 10S 7S KH 7C 9C", (110, 117)) == set(parse_cards("10S 9C"))
    assert hard_discard("KD 10S 7S KH 7C 9C", (10, 10)) != set(parse_cards("10S 9C"))


def test_a_good_player_starves_your_crib_and_feeds_its_own() -> None:
    # every pair you throw is worth less in your crib than random cards from the pone
    # would make it, and more in the dealer's, which the dealer feeds
    table = cribs.table()
    assert len(table) == 91  # every two ranks
    assert all(mine < 0 < theirs for mine, theirs in table.values())
    assert cribs.bias(parse_cards("5H 5S"), own_crib=True) == table[5, 5][0]
    assert cribs.bias(parse_cards("KS AD"), own_crib=False) == table[1, 13][1]


def test_each_style_throws_to_a_crib_as_its_table_says() -> None:
    """A greedy pone keeps its best hand whatever it throws you, so your crib gets more
    from it than from a good pone, whatever two you throw; a crib-minded dealer throws its
    own crib its best two, so the crib is worth more than a good dealer's makes it,
    whatever you throw; a crib-minded pone starves your crib (on average) more than a
    good one. A random player's throw is the exact analysis's own assumption."""
    careful, greedy, crib_minded = (
        cribs.table(style.crib_table or "")
        for style in (Style.CAREFUL, Style.GREEDY, Style.CRIB_MINDED)
    )
    assert len(greedy) == len(crib_minded) == 91
    assert all(greedy[two][0] > careful[two][0] for two in careful)
    assert all(crib_minded[two][1] > careful[two][1] + 0.3 for two in careful)
    assert sum(v[0] for v in crib_minded.values()) < sum(v[0] for v in careful.values()) - 20
    fives = parse_cards("5H 5S")
    assert cribs.bias(fives, own_crib=True, name=Style.CRIB_MINDED.crib_table) == -0.12
    assert cribs.bias(fives, own_crib=True, name=Style.RANDOM.crib_table) == 0.0
    assert Style.LOOSE.crib_table == Style.CAREFUL.crib_table == cribs.CAREFUL


def test_a_crib_against_a_mixture_of_styles_is_weighed_by_their_chances() -> None:
    seven_eight = parse_cards("7H 8S")
    greedy, crib_minded = Style.GREEDY.crib_table, Style.CRIB_MINDED.crib_table
    assert cribs.bias(seven_eight, own_crib=False, name=greedy) == 0.0
    assert cribs.bias(seven_eight, own_crib=False, name=crib_minded) == 1.12
    mixed = cribs.mixed_bias(seven_eight, False, [(greedy, 0.3), (crib_minded, 0.1)])
    assert mixed == pytest.approx((3 * 0.0 + 1.12) / 4)
    alone = [(cribs.CAREFUL, 0.97)]  # one style noticed: its own table, exactly
    assert cribs.mixed_bias(seven_eight, False, alone) == cribs.bias(seven_eight, False)


def test_the_dealer_pegs_better_than_the_pone() -> None:
    table = pegs.table()
    assert len(table) == 1820  # every four ranks a player can keep
    as_dealer = sorted(dealer for dealer, _ in table.values())
    as_pone = sorted(pone for _, pone in table.values())
    # the pone leads into the dealer, who also lays the last card more often
    assert sum(as_dealer) / len(as_dealer) > 1
    assert sum(as_pone) / len(as_pone) < -1
    # three or four fives (with a six) are the pone's worst: every lead gives the dealer a
    # fifteen, with a ten on a 5 or a 9 on the 6
    assert pegs.edge(parse_cards("5H 5S 5D 6C"), dealer=False) == as_pone[0]
    assert pegs.edge(parse_cards("5H 5S 5D 5C"), dealer=False) == as_pone[1]
    # low cards lead safely and fit late in a count: better than most as pone
    assert pegs.edge(parse_cards("AH 2S 3D 4C"), dealer=False) > as_pone[len(as_pone) // 2]
    # a run pegs well as dealer: among the top tenth
    assert pegs.edge(parse_cards("4H 5S 6D 7C"), dealer=True) > as_dealer[-len(as_dealer) // 10]


def test_hard_keeps_cards_that_peg() -> None:
    """From 5C 5H 5S 6D 3C AS the pone's best net by the exact analysis throws 3C AS,
    keeping 5-5-5-6 (8.27 with the crib). But 5-5-5-6 is the pone's worst pegging hand:
    whatever it leads, the dealer makes fifteen (-3.91 a play by the table). Keeping
    5-5-5-A nets 7.53, and the ace leads safely (-0.41). Hard keeps the ace; with the
    pegging left out it keeps the net."""
    assert hard_discard("5C 5H 5S 6D 3C AS", (10, 10)) == set(parse_cards("6D 3C"))
    with patch.object(hard, "PEGGING", 0.0):
        without = hard_discard("5C 5H 5S 6D 3C AS", (10, 10))
    assert without == set(parse_cards("3C AS"))


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_shows_to_come_counted_for_each_side(dealer: int) -> None:
    """Seat 0 keeps 5H 5S JD 4C and threw JC 2S; the starter is 5C. Its hand: fifteens
    J5 J5 J5 555 (8), three 5s (6): 14. The other holds A 2 3 K: K5, K23 (4), A23 (3): 7.
    The crib, JC 2S with 6 9 from the other: J5, 96 (4), and his nobs, known (1): 5."""
    state, _ = new_game(Rules(), 1)
    kept, thrown = parse_cards("5H 5S JD 4C"), parse_cards("JC 2S")
    other = parse_cards("AH 2H 3H KH 6D 9D")
    state = replace(
        state,
        phase=Phase.PLAY,
        dealer=dealer,
        dealt=(tuple(kept + thrown), tuple(other)),
        hands=(tuple(kept), tuple(other[:4])),
        discards=(tuple(thrown), tuple(other[4:])),
        crib=tuple(thrown + other[4:]),
        starter=Card.parse("5C"),
        to_play=1 - dealer,
    )
    shows = shows_after_play(view(state, 0), (1, 2, 3, 13), (6, 9))
    assert shows == ((19, 7, True) if dealer == 0 else (14, 12, False))
