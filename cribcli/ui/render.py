"""Text rendering: cards, show breakdowns, colour and suit symbols.

Everything here returns strings; nothing prints. Whether to use colour and Unicode suits
is decided once, by :func:`decide_style`, from the flags, the environment and the stream.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TextIO

from cribcli.cards import Card
from cribcli.scoring import ShowScore

_RED = "31"
_BOLD = "1"
_FAINT = "2"
_SUIT_TEST = "\u2660\u2661\u2662\u2663\u2664\u2665\u2666\u2667"


@dataclass(frozen=True, slots=True)
class Style:
    """How text is drawn: Unicode suit symbols or ASCII letters, colour or none."""

    unicode: bool = False
    color: bool = False

    def paint(self, text: str, *codes: str) -> str:
        """``text`` in the given SGR codes when colour is on."""
        if not self.color or not codes:
            return text
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"

    def card(self, card: Card) -> str:
        """One card: ``5H`` or ``5♥``, red hearts and diamonds in colour."""
        text = card.unicode() if self.unicode else card.ascii()
        return self.paint(text, _RED) if card.suit.is_red else text

    def cards(self, cards: Iterable[Card], sep: str = " ") -> str:
        """Several cards."""
        return sep.join(self.card(card) for card in cards)

    def bold(self, text: str) -> str:
        """Emphasis, for totals."""
        return self.paint(text, _BOLD)

    def faint(self, text: str) -> str:
        """De-emphasis."""
        return self.paint(text, _FAINT)


PLAIN = Style()
"""ASCII, no colour: logs, pipes, tests."""


def decide_color(
    stream: TextIO, flag: bool | None = None, env: Mapping[str, str] | None = None
) -> bool:
    """Colour or not: the explicit flag, then NO_COLOR, FORCE_COLOR, TERM=dumb, a terminal."""
    env = os.environ if env is None else env
    if flag is not None:
        return flag
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb":
        return False
    return _isatty(stream)


def decide_unicode(stream: TextIO, ascii_only: bool = False) -> bool:
    """Unicode suits only on a terminal whose encoding can show them, and not with --ascii."""
    if ascii_only or not _isatty(stream):
        return False
    try:
        _SUIT_TEST.encode(stream.encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def decide_style(stream: TextIO, *, ascii_only: bool = False, color: bool | None = None) -> Style:
    """The style for output to ``stream``."""
    return Style(unicode=decide_unicode(stream, ascii_only), color=decide_color(stream, color))


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def show_lines(score: ShowScore, style: Style = PLAIN, *, title: str | None = None) -> list[str]:
    """The full breakdown of a show, one line a scoring combination, with a running total.

    The running total is what a player says aloud: "fifteen 2, fifteen 4, and a pair is 6".
    """
    name = title or ("Crib" if score.is_crib else "Hand")
    lines = [f"{name} {style.cards(score.hand)}  starter {style.card(score.starter)}"]
    # Suit letters and symbols are one column each, so the ASCII text measures both.
    width = max((len(item.describe()) for item in score.items), default=0)
    running = 0
    for item in score.items:
        running += item.points
        pad = width - len(item.describe())
        lines.append(f"  {item.describe(style.card)}{' ' * pad}  {running:>2}")
    if not score.items:
        lines.append('  no points (a "nineteen")')
    subtotals = ", ".join(f"{name} {points}" for name, points in score.subtotals().items())
    lines.append(f"  {subtotals}")
    lines.append(style.bold(f"  total {score.total}"))
    return lines


def show_line(score: ShowScore) -> str:
    """One line for a show, for scripts: the cards, the starter, the total, the subtotals."""
    subtotals = ", ".join(
        f"{name} {points}" for name, points in score.subtotals().items() if points
    )
    cards = " ".join(card.ascii() for card in (*score.hand, score.starter))
    return f"{cards}  {score.total}" + (f"  ({subtotals})" if subtotals else "")
