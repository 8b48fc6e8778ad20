"""The exact analysis against a slow brute force over actual cards."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from cribcli.rules.analysis import analyse, unseen_cards
from cribcli.rules.cards import Card, deck, parse_cards
from cribcli.rules.errors import HandError
from cribcli.rules.scoring import score_show, show_total


def brute_force(hand: list[Card], discard: tuple[Card, ...], players: int) -> tuple[float, float]:
    """Hand and crib expectations by visiting every starter and every set of crib cards."""
    unseen = unseen_cards(hand)
    keep = [card for card in hand if card not in discard]
    hand_ev = sum(score_show(keep, starter).total for starter in unseen) / len(unseen)
    unknown = 4 - len(discard)
    total = 0
    count = 0
    for starter in unseen:
        rest = [card for card in unseen if card != starter]
        for others in combinations(rest, unknown):
            total += show_total([*discard, *others], starter, crib=True)
            count += 1
    return hand_ev, total / count


def random_hands(count: int, size: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    return [rng.sample(deck(), size) for _ in range(count)]


@pytest.mark.slow
@pytest.mark.parametrize("hand", random_hands(30, 6, 1), ids=lambda h: " ".join(map(str, h)))
def test_two_player_analysis_equals_brute_force(hand: list[Card]) -> None:
    values = analyse(hand, dealer=True)
    assert len(values) == 15
    # every discard's hand value; the crib value for two discards per hand (each costs
    # 45,540 cribs by brute force), chosen to include the best
    for value in values:
        hand_ev, _ = brute_force_hand(hand, value.discard)
        assert value.hand == pytest.approx(hand_ev, abs=1e-9)
    for value in (values[0], values[7]):
        hand_ev, crib_ev = brute_force(hand, value.discard, 2)
        assert value.crib == pytest.approx(crib_ev, abs=1e-9)
        assert value.net == pytest.approx(hand_ev + crib_ev, abs=1e-9)


def brute_force_hand(hand: list[Card], discard: tuple[Card, ...]) -> tuple[float, None]:
    unseen = unseen_cards(hand)
    keep = [card for card in hand if card not in discard]
    return sum(score_show(keep, s).total for s in unseen) / len(unseen), None


@pytest.mark.slow
@pytest.mark.parametrize("hand", random_hands(3, 5, 2), ids=lambda h: " ".join(map(str, h)))
def test_three_player_analysis_equals_brute_force(hand: list[Card]) -> None:
    values = analyse(hand, dealer=False, players=3)
    assert len(values) == 5
    value = values[0]
    hand_ev, crib_ev = brute_force(hand, value.discard, 3)
    assert value.hand == pytest.approx(hand_ev, abs=1e-9)
    assert value.crib == pytest.approx(crib_ev, abs=1e-9)
    assert value.net == pytest.approx(hand_ev - crib_ev, abs=1e-9)


def test_flush_and_nobs_in_the_crib_model() -> None:
    # Throwing two hearts including the jack: a crib flush and nobs are both possible;
    # check against the brute force, which counts them card by card.
    hand = parse_cards("JH 9H 2C 3D 7S KC")
    value = next(
        v for v in analyse(hand, dealer=True) if set(v.discard) == set(parse_cards("JH 9H"))
    )
    _, crib_ev = brute_force(hand, value.discard, 2)
    assert value.crib == pytest.approx(crib_ev, abs=1e-9)


def test_known_hand() -> None:
    # 5 5 J 4 2 K as dealer: keep 5 5 J K, throw 4 2. The hand makes at least
    # 5+J, 5+K, 5+J, 5+K (8) and a pair (2) = 10 with any starter.
    values = analyse(parse_cards("5H 5S JD 4C 2S KH"), dealer=True)
    best = values[0]
    assert {str(c) for c in best.discard} == {"4C", "2S"}
    assert best.hand_min == 10
    assert sum(chance for _, chance in best.hand_scores) == pytest.approx(1.0)
    assert best.chance_at_least(0) == pytest.approx(1.0)
    # net is hand plus crib for the dealer, hand minus crib for the pone
    pone = {v.discard: v for v in analyse(parse_cards("5H 5S JD 4C 2S KH"), dealer=False)}
    assert pone[best.discard].net == pytest.approx(best.hand - best.crib)


@pytest.mark.parametrize(
    ("cards", "players", "message"),
    [
        ("5H 5S JD 4C 2S", 2, "with 2 players a hand is 6 cards, not 5"),
        ("5H 5S JD 4C 2S KH", 3, "with 3 players a hand is 5 cards, not 6"),
        ("5H 5S JD 4C 2S 5H", 2, "5H appears twice"),
    ],
)
def test_bad_hands(cards: str, players: int, message: str) -> None:
    with pytest.raises(HandError, match=message):
        analyse(parse_cards(cards), dealer=True, players=players)
