"""Cards: every accepted spelling, bad tokens refused, formatting, the deck, the shuffle."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribcli.rules.cards import (
    Card,
    Suit,
    check_distinct,
    deck,
    format_cards,
    parse_cards,
    shuffled_deck,
)
from cribcli.rules.errors import CardError, HandError
from cribcli.rules.stream import SeededStream

FIVE_HEARTS = Card(5, Suit.HEARTS)


@pytest.mark.parametrize(
    "token", ["5H", "5h", " 5H ", "5H,", ",5h", "5\u2665", "5\u2661", "5\u2665\ufe0f"]
)
def test_five_of_hearts_spellings(token: str) -> None:
    assert Card.parse(token) == FIVE_HEARTS


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("10H", 10, Suit.HEARTS),
        ("TH", 10, Suit.HEARTS),
        ("th", 10, Suit.HEARTS),
        ("JD", 11, Suit.DIAMONDS),
        ("AS", 1, Suit.SPADES),
        ("qc", 12, Suit.CLUBS),
        ("K\u2660", 13, Suit.SPADES),
        ("K\u2664", 13, Suit.SPADES),
        ("2\u2663", 2, Suit.CLUBS),
        ("2\u2667", 2, Suit.CLUBS),
        ("9\u2666", 9, Suit.DIAMONDS),
        ("9\u2662", 9, Suit.DIAMONDS),
    ],
)
def test_ranks_and_suits(token: str, rank: int, suit: Suit) -> None:
    assert Card.parse(token) == Card(rank, suit)


@pytest.mark.parametrize("token", ["1H", "11H", "5X", "H5", "", "5", "10", "JJ", "5HH", "0S", "AA"])
def test_bad_tokens_are_refused_with_the_token_named(token: str) -> None:
    with pytest.raises(CardError) as caught:
        Card.parse(token)
    message = str(caught.value)
    assert "is not a card" in message
    assert "e.g. 5H or 10D" in message
    if token:
        assert f"`{token}`" in message


def test_message_for_1h() -> None:
    with pytest.raises(
        CardError,
        match=r"^`1H` is not a card: use a rank A 2-10 J Q K and a suit C D H S, e.g. 5H or 10D$",
    ):
        Card.parse("1H")


def test_parse_cards_splits_on_spaces_and_commas() -> None:
    assert parse_cards("5H, 5S,JD 4c") == [Card.parse(t) for t in ("5H", "5S", "JD", "4C")]
    assert parse_cards(["5H,5S", "JD"]) == [Card.parse(t) for t in ("5H", "5S", "JD")]


def test_formatting() -> None:
    cards = parse_cards("5H 10D AS KC")
    assert format_cards(cards) == "5H 10D AS KC"
    assert format_cards(cards, unicode=True) == "5\u2665 10\u2666 A\u2660 K\u2663"
    assert str(Card.parse("td")) == "10D"
    assert Card.parse("QH").value == 10
    assert Card.parse("AH").value == 1


@given(st.sampled_from(deck()))
def test_every_card_round_trips_through_both_forms(card: Card) -> None:
    assert Card.parse(card.ascii()) == card
    assert Card.parse(card.unicode()) == card
    assert Card.parse(card.ascii().lower()) == card


def test_deck_has_52_distinct_cards_in_fixed_order() -> None:
    cards = deck()
    assert len(set(cards)) == 52
    assert format_cards(cards[:3]) == "AC 2C 3C"
    assert format_cards(cards[-2:]) == "QS KS"
    assert sorted(cards)[:5] == parse_cards("AC AD AH AS 2C")


def test_duplicates_are_named() -> None:
    with pytest.raises(HandError, match="5H appears twice"):
        check_distinct(parse_cards("5H 6H 5H"))


# The deal for a seed must never change: saved games, replays and daily deals depend on it.
@pytest.mark.parametrize(
    ("seed", "first_cards"),
    [
        (1, "4C 9H 9C 7S 2D 3D 6S AD JS 2C AH 10H"),
        (7, "QH 10S 10D 10H 3H 4D 6C 5S JH 2D 8S 2C"),
        (2026, "7H 9D 6C 3H KS 3C AD KH 2S 5S JS 6D"),
        ("daily/2026-12-01", "8S KH 3C 2S 4C 4H 7S 3H 9D 6H 8D 10C"),
    ],
)
def test_shuffle_is_pinned(seed: int | str, first_cards: str) -> None:
    assert format_cards(shuffled_deck(seed)[:12]) == first_cards


def test_shuffle_follows_its_documented_algorithm() -> None:
    """SHA-256 in counter mode, 64-bit big-endian draws, rejection sampling, Fisher-Yates."""
    key = b"2026/deck"
    words: list[int] = []
    for block in range(40):
        digest = hashlib.sha256(key + b"/" + block.to_bytes(8, "big")).digest()
        words.extend(int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8))
    draws = iter(words)
    cards = deck()
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2**64 - 2**64 % n
        x = next(draws)
        while x >= limit:  # pragma: no cover - astronomically rare
            x = next(draws)
        j = x % n
        cards[i], cards[j] = cards[j], cards[i]
    assert cards == shuffled_deck(2026)


def test_streams_differ_by_label_and_are_uniform_enough() -> None:
    assert shuffled_deck(1, "round 1") != shuffled_deck(1, "round 2")
    stream = SeededStream(99, "test")
    counts = [0] * 6
    for _ in range(6000):
        counts[stream.below(6)] += 1
    assert all(850 < c < 1150 for c in counts)
    with pytest.raises(ValueError):
        stream.below(0)


def test_a_stream_samples_different_items_each_set_alike() -> None:
    """k different items of the given ones, the items themselves untouched; each pair of
    five items comes up about as often as any other, in either order."""
    items = list(range(5))
    stream = SeededStream(7, "sample")
    pairs: Counter[tuple[int, ...]] = Counter()
    for _ in range(4000):
        drawn = stream.sample(items, 2)
        assert len(set(drawn)) == 2 and set(drawn) <= set(items)
        pairs[tuple(drawn)] += 1
    assert items == list(range(5))
    assert len(pairs) == 20 and all(140 < n < 260 for n in pairs.values())
    assert SeededStream(7, "again").sample(items, 5) == SeededStream(7, "again").sample(items, 5)
