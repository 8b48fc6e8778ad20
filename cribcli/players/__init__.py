"""Computer players. Each is given a :class:`~cribcli.engine.View`, never the state."""

from __future__ import annotations

from collections.abc import Callable

from cribcli.errors import CribbageError
from cribcli.players.base import Player
from cribcli.players.easy import EasyPlayer
from cribcli.players.hard import HardPlayer
from cribcli.players.normal import NormalPlayer

LEVELS: dict[str, Callable[[int | str, int], Player]] = {
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "hard": HardPlayer,
}
"""The computer's levels, weakest first."""


def computer(level: str, seed: int | str, seat: int) -> Player:
    """A computer player of the given level, its choices drawn from the game's seed."""
    try:
        return LEVELS[level](seed, seat)
    except KeyError:
        raise CribbageError(f"no level `{level}`: choose easy, normal or hard") from None


__all__ = ["LEVELS", "EasyPlayer", "HardPlayer", "NormalPlayer", "Player", "computer"]
