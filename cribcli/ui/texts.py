"""The words the game says at length: the rules in brief and the tips.

Each is written a paragraph a line (a leading ``- `` makes a point of a list, leading
spaces indent it); :func:`page` wraps them to the terminal's width when they are shown.
"""

from __future__ import annotations

import textwrap

_RULES = """\
The rules, in brief
  Each round the dealer gives six cards each (five each with three or four players). Everyone throws cards face down to the crib until it holds four: it is the dealer's extra hand. The starter is turned up; a jack gives the dealer 2 for his heels.
  The play: from the dealer's left, lay cards in turn, saying the count, never past 31.
    15 or 31 scores 2; a pair 2, three of a kind 6, four 12; a run of three or more among the last cards laid, in any order, 1 a card. If you cannot play, you say go (cribbage says it for you); the last card before the count starts again scores 1, and so does the last card of all, unless it made 31.
  The show: each hand is counted with the starter, from the dealer's left, the dealer last, then the crib. Every set of cards making 15 scores 2, every pair 2, every run its length, four cards of one suit in hand 4 (5 with the starter; the crib needs all five), the jack of the starter's suit 1 (his nobs).
  The first to {target} wins at once, even in the middle of the play, and points past it are not pegged. Aces are low, face cards count 10, and a run never turns the corner from king to ace."""  # noqa: E501


def rules(target: int) -> str:
    """The rules in brief, for a game to ``target``."""
    return _RULES.format(target=target)


TIPS = """\
Tips
  - A five is the best card to hold: sixteen cards count ten, so a five finds a fifteen more often than anything else. Keep fives with tens and face cards.
  - Keep runs and pairs together: a run of three with a pair is a double run.
  - Your own crib: throw cards that work together, a pair, two cards making five or fifteen, a five. The other player's crib: throw cards far apart, like a king with a nine, and a five only when you must.
  - Lead a card under five: no single card can make fifteen on it. A four is a classic lead.
  - Do not leave the count at 5 or 21: one of the sixteen ten-cards makes 15 or 31.
  - Think before pairing: the other player may hold the third card, for 6. Leading from a pair turns that around: if they pair you, your third card takes 6.
  - Play for the go and the last card: a point is a point, and close games turn on it.
  - Count the same way every time: fifteens, pairs, runs, flush, nobs.
  - Dealing is worth about 16 points a round with the crib, being pone about 10: about 26 points change hands a deal, so from level scores you each need about four or five more deals to finish a game.
  - Near the end, count what you need before you throw: a safe hand that goes out beats a greedy one, and do not feed a crib that can put them out."""  # noqa: E501

PAGE = 80
"""The width a page is wrapped to where there is no terminal (a pipe)."""


def page(text: str, width: int | None = None) -> str:
    """A text of this module wrapped to ``width`` columns (at most :data:`PAGE`), each
    paragraph at its indent, a point of a list hanging after its ``- ``."""
    width = min(width or PAGE, PAGE)
    lines = []
    for paragraph in text.splitlines():
        body = paragraph.lstrip(" ")
        indent = " " * (len(paragraph) - len(body))
        hang = indent + "  " if body.startswith("- ") else indent
        lines.extend(
            textwrap.wrap(body, width - 1, initial_indent=indent, subsequent_indent=hang) or [""]
        )
    return "\n".join(lines)
