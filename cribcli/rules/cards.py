"""Cards: ranks, suits, parsing, formatting, the deck and its seeded shuffle.

A card is written ``5H``, ``10D``, ``TD``, ``JS``, ``AC`` (either case) or with a suit
symbol, ``5♥`` / ``5♡``. ASCII is the canonical form: logs and JSON always use it; the
Unicode form is a rendering choice made by the UI.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from functools import total_ordering
from operator import attrgetter
from typing import TypeVar

from cribcli.rules.errors import CardError, HandError
from cribcli.rules.stream import SeededStream

T = TypeVar("T")


class Suit(Enum):
    """The four suits, in the deck's order."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    # Each suit is one object, equal only to itself: hashed by identity, in C, rather
    # than by Enum's hash of its name, which every set and sort of cards paid for.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol (no emoji variation selector)."""
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = {
    Suit.CLUBS: "\u2663",
    Suit.DIAMONDS: "\u2666",
    Suit.HEARTS: "\u2665",
    Suit.SPADES: "\u2660",
}

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank labels, index 0 is the ace (rank 1)."""

JACK = 11


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``rank`` is 1 (ace) to 13 (king); aces are low.

    Cards sort by rank, then suit (clubs, diamonds, hearts, spades).
    """

    rank: int
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)
    """A number 0..51 unique to the card, ordered by rank then suit (its hash too)."""

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise CardError(f"rank {self.rank} is not a card rank (1 = ace ... 13 = king)")
        object.__setattr__(self, "index", (self.rank - 1) * 4 + _SUIT_ORDER[self.suit])

    @property
    def value(self) -> int:
        """The card's value for fifteens and the count: aces 1, faces 10."""
        return min(self.rank, 10)

    @property
    def label(self) -> str:
        """The rank as written: ``A``, ``2`` ... ``10``, ``J``, ``Q``, ``K``."""
        return RANK_NAMES[self.rank - 1]

    def ascii(self) -> str:
        """The canonical ASCII form, ``5H`` or ``10D``."""
        return f"{self.label}{self.suit.value}"

    def unicode(self) -> str:
        """The Unicode form, ``5♥`` or ``10♦``."""
        return f"{self.label}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.ascii()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __hash__(self) -> int:  # the card's index: cheap, and the same in every run
        return self.index

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one card from a token such as ``5H``, ``th``, ``10D`` or ``5♥``.

        Surrounding spaces and commas are ignored. Raises CardError naming the token.
        """
        text = token.strip().strip(",").strip()
        match = _CARD_RE.fullmatch(text)
        if match is None:
            raise CardError(
                f"`{text or token}` is not a card: use a rank A 2-10 J Q K and a suit "
                "C D H S, e.g. 5H or 10D"
            )
        rank_text, suit_text = match.group(1).upper(), match.group(2)
        return _CARDS_BY_KEY[(_RANKS_BY_TEXT[rank_text], _SUITS_BY_TEXT[suit_text.upper()])]


_SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}
_RANKS_BY_TEXT = {name: i + 1 for i, name in enumerate(RANK_NAMES)} | {"T": 10}
_SUITS_BY_TEXT: dict[str, Suit] = {s.value: s for s in Suit}
_SUITS_BY_TEXT.update(
    {
        "\u2663": Suit.CLUBS,
        "\u2667": Suit.CLUBS,
        "\u2666": Suit.DIAMONDS,
        "\u2662": Suit.DIAMONDS,
        "\u2665": Suit.HEARTS,
        "\u2661": Suit.HEARTS,
        "\u2660": Suit.SPADES,
        "\u2664": Suit.SPADES,
    }
)
_CARD_RE = re.compile(r"(10|[2-9]|[AaTtJjQqKk])([CDHScdhs\u2660-\u2667])\ufe0f?")
_CARDS_BY_KEY = {(rank, suit): Card(rank, suit) for suit in Suit for rank in range(1, 14)}


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read several cards, from one string (split on spaces and commas) or from tokens.

    Raises CardError on the first bad token. Duplicates are allowed here; see
    :func:`check_distinct`.
    """
    tokens: Iterable[str] = text.replace(",", " ").split() if isinstance(text, str) else text
    cards: list[Card] = []
    for token in tokens:
        cards.extend(Card.parse(part) for part in token.replace(",", " ").split())
    return cards


def in_order(cards: Iterable[Card]) -> list[Card]:
    """The cards sorted by rank, then suit, as ``sorted`` would, faster (by index)."""
    return sorted(cards, key=_BY_INDEX)


_BY_INDEX = attrgetter("index")


def check_distinct(cards: Iterable[Card]) -> None:
    """Raise HandError if any card appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise HandError(f"{card} appears twice: a deck has one of each card")
        seen.add(card)


def format_cards(cards: Iterable[Card], *, unicode: bool = False, sep: str = " ") -> str:
    """Cards written one after another, ASCII by default."""
    return sep.join(card.unicode() if unicode else card.ascii() for card in cards)


def deck() -> list[Card]:
    """A new 52-card deck in the fixed order clubs, diamonds, hearts, spades, each A to K."""
    return [_CARDS_BY_KEY[(rank, suit)] for suit in Suit for rank in range(1, 14)]


def shuffled_deck(seed: int | str, label: str = "deck") -> list[Card]:
    """The 52 cards of :func:`deck` shuffled by :class:`SeededStream` ``(seed, label)``."""
    cards = deck()
    SeededStream(seed, label).shuffle(cards)
    return cards
