"""What a player is: something that chooses a discard and a card to lay from a view."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from cribcli.rules.errors import CribbageError

if TYPE_CHECKING:  # the level's names are wanted where the engine is not (the CLI's choices)
    from cribcli.rules.cards import Card
    from cribcli.rules.engine import View
    from cribcli.rules.events import Event


class Level(StrEnum):
    """How strong a computer plays, weakest first: a ladder of ten, each level beating
    the one below it in about 62% of games (``tools/anchors.py``). Three have names:
    easy is level 1, normal 9, hard 10; a level is written by its name, or by its number
    when it has none."""

    EASY = "easy"
    """Level 1: throws and plays at random."""
    TWO = "2"
    """Levels 2 to 8 play as people do: they see what each choice is worth and slip
    (:mod:`cribcli.players.ladder`), the lower the level the more and the further."""
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NORMAL = "normal"
    """Level 9: keeps the four cards worth most, and pegs one card deep."""
    HARD = "hard"
    """Level 10: also values the crib against good throws, reads the other's hand, and
    searches the play."""

    @property
    def number(self) -> int:
        """Its place on the ladder, 1 to 10."""
        return list(Level).index(self) + 1

    @property
    def named(self) -> bool:
        """Whether it has a name (easy, normal, hard), not only a number."""
        return not self.value.isdigit()

    @property
    def label(self) -> str:
        """How a person reads it: ``level 4``, ``normal``."""
        return self.value if self.named else f"level {self.value}"

    @classmethod
    def parse(cls, given: object) -> Level | None:
        """The level a person or a file names: a name (any case) or a number 1 to 10,
        perhaps after ``level`` (as :attr:`label` writes it); None for anything else,
        anything not a text among it, and any text of more than 20 characters."""
        if not isinstance(given, str) or len(given) > 20:
            return None
        word = given.strip().lower().removeprefix("level").strip()
        if word.isascii() and word.isdigit() and len(word) <= 2 and 1 <= int(word) <= len(cls):
            return list(cls)[int(word) - 1]
        return next((level for level in cls if level.value == word), None)


LEVELS_HELP = "1 to 10, or " + ", ".join(
    f"{level} ({level.number})" for level in Level if level.named
)
"""How to name a level, for messages."""


class Objective(StrEnum):
    """What a computer that plans plays for, near the end of a game."""

    WIN = "win"
    """The game: the chance of winning it, whatever the score."""
    GAME_POINTS = "game-points"
    """Game points, as a match or tournament counts them (2 a win, 3 a skunk): near the
    end it weighs skunking and being skunked, a game point worth half a won game."""
    SPREAD = "spread"
    """Points: as many more than the other side's as it can, as tournaments' tie-breaks
    reward; it plays for points to the end."""


class Player(Protocol):
    """A seat's decisions. It sees only its :class:`View`: no hidden card, by construction."""

    def discard(self, view: View) -> tuple[Card, ...]:
        """The cards to put in the crib (``view.rules.discard_size`` of ``view.hand``)."""
        ...

    def play(self, view: View) -> Card:
        """The card to lay, one of ``view.playable()`` (never called when it is empty)."""
        ...


class PlayerFailed(CribbageError):
    """A player that cannot go on (a program at the table that broke the protocol, stopped
    or ran out of time): its seat forfeits the game, for the reason given."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NoResult(Exception):
    """The game cannot have a result: a program at the table was killed from outside
    (by a signal the referee did not send), which could be the other side's doing."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Listener(Protocol):
    """A player that hears what happens at the table (a program, which is told the events
    its seat saw: the shows, the end of the game)."""

    def hear(self, events: Sequence[Event]) -> None:
        """The events of the latest action, in order."""
        ...
