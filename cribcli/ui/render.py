"""Text rendering: cards, show breakdowns, colour and suit symbols, lines fitted to a width.

Everything here returns strings; nothing prints. Whether to use colour and Unicode suits
is decided once, by :func:`decide_style`, from the flags, the environment and the stream.
The coach's words are :mod:`cribcli.ui.coaching`'s, the peg board
:mod:`cribcli.ui.board`'s, the reports of many games :mod:`cribcli.ui.reports`'.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple, TextIO

from cribcli.rules.cards import Card
from cribcli.rules.errors import printable
from cribcli.rules.scoring import ShowItem, ShowScore

if TYPE_CHECKING:
    from cribcli.record.log import GameInfo


WIDE = 80
"""The width of a full terminal: from it the board has a hole for every point (below it,
a cell for five), and the show is wrapped to it."""

_RED = "31"
_BOLD = "1"
_FAINT = "2"
_SUIT_TEST = "\u2660\u2661\u2662\u2663\u2664\u2665\u2666\u2667"


class Style(NamedTuple):
    """How text is drawn: Unicode suit symbols or ASCII letters, colour or none. (A named
    tuple, not a dataclass: ``cribbage score`` starts without making one.)"""

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


def decide_unicode(
    stream: TextIO, ascii_only: bool = False, env: Mapping[str, str] | None = None
) -> bool:
    """Unicode suits only on a terminal whose locale says UTF-8 and whose stream can
    write them; never with --ascii or TERM=dumb."""
    env = os.environ if env is None else env
    if ascii_only or not _isatty(stream) or env.get("TERM") == "dumb":
        return False
    locale = next((env[name] for name in ("LC_ALL", "LC_CTYPE", "LANG") if env.get(name)), "")
    if "utf-8" not in locale.lower() and "utf8" not in locale.lower():
        return False
    try:
        _SUIT_TEST.encode(stream.encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def decide_style(
    stream: TextIO, *, ascii_only: bool = False, no_color: bool = False, color: bool | None = None
) -> Style:
    """The style for output to ``stream``; --no-color wins over everything else."""
    chosen = False if no_color else color
    return Style(unicode=decide_unicode(stream, ascii_only), color=decide_color(stream, chosen))


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


_PLURALS = {"fifteen": "fifteens", "pair": "pairs", "run": "runs"}


def compact_show_lines(
    score: ShowScore, style: Style, title: str, width: int | None = WIDE
) -> list[str]:
    """A count in a few lines, for the table: ``Your hand 6♥ 8♣ 8♦ 10♦, K♠: 2`` and
    its points by kind, each with its cards (``pair 2: 8♣8♦``), wrapped to ``width``
    so that a whole show fits on a screen."""
    cards = style.cards(sorted(score.hand))
    head = f"{title} {cards}, {style.card(score.starter)}: {style.bold(str(score.total))}"
    kinds: dict[str, list[ShowItem]] = {}
    for item in score.items:
        kinds.setdefault(item.kind.value, []).append(item)
    joined = "" if style.unicode else "-"
    parts = []
    for kind, items in kinds.items():
        name = _PLURALS.get(kind, kind) if len(items) > 1 else kind
        combos = " ".join(style.cards(sorted(item.cards), sep=joined) for item in items)
        label = f"{name} {sum(item.points for item in items)}:".replace(" ", _KEEP)
        parts.append(f"{label} {combos}")
    body = "; ".join(parts) if parts else 'nothing (a "nineteen")'
    if width is None:
        return [head, f"  {body}".replace(_KEEP, " ")]
    lines = _wrap_styled(body, max(width - 1, 30), indent="  ")
    return [head, *(line.replace(_KEEP, " ") for line in lines)]


_KEEP = "\u00a0"
"""Joins words that a line must not part (``his nobs 1:``) while it is wrapped."""


def fit(line: str, width: int) -> list[str]:
    """A line wrapped at spaces to ``width`` seen columns, the lines after the first
    indented two more than it: nothing breaks mid-word at any width."""
    if seen_len(line) <= width:
        return [line]
    body = line.lstrip(" ")
    indent = " " * (len(line) - len(body))
    first, *rest = _wrap_styled(body, width - len(indent), indent="")
    if not rest:
        return [indent + first]
    again = _wrap_styled(" ".join(rest), width - len(indent) - 2, indent="")
    return [indent + first, *(f"{indent}  {part}" for part in again)]


def _wrap_styled(text: str, width: int, indent: str) -> list[str]:
    """Wrap text that may hold colour codes, measuring only what is seen."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else f"{indent}{word}"
        if line and seen_len(trial) > width:
            lines.append(line)
            trial = f"{indent}{word}"
        line = trial
    return lines + [line] if line else lines


def seen_len(text: str) -> int:
    return len(_CODES.sub("", text))


_CODES = re.compile("\x1b\\[[0-9;]*m")


def show_line(score: ShowScore) -> str:
    """One line for a show, for scripts: the cards, the starter, the total, the subtotals."""
    subtotals = ", ".join(
        f"{name} {points}" for name, points in score.subtotals().items() if points
    )
    cards = " ".join(card.ascii() for card in (*score.hand, score.starter))
    return f"{cards}  {score.total}" + (f"  ({subtotals})" if subtotals else "")


def game_title(info: GameInfo) -> str:
    """``You v Computer (normal): to 121, seed 7.``, with its label and start."""
    seats = " v ".join(
        seat.name + (f" ({seat.level.label})" if seat.level else "") for seat in info.seats
    )
    title = f"{seats}: to {info.rules.target}, seed {info.seed}"
    if info.label:
        title += f", {info.label}"
    if info.started:
        title += f", {info.started}"
    return printable(title + ".")


def possessive(name: str) -> str:
    """``Your`` for you, ``Computer's`` for anyone else (``James's``, as the style
    guides have it)."""
    return "Your" if name == "You" else f"{name}'s"


def seed_line(seed: int | str) -> str:
    """The end of a game: the seed its promise was made of."""
    return f"The seed: {printable(str(seed))}; 'cribbage verify' deals every card again from it."
