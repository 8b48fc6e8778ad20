"""Computer players. Each is given a :class:`~cribcli.rules.engine.View`, never the state.

Importing this package is light (the levels' names, for the command line's choices); a
level's player and its tables are loaded when one is first made.
"""

from __future__ import annotations

from cribcli.players.base import LEVELS_HELP, Level, Objective, Player
from cribcli.rules.errors import CribbageError


def computer(
    level: str, seed: int | str, seat: int, objective: Objective = Objective.WIN
) -> Player:
    """A computer player of the given level, its choices drawn from the game's seed,
    playing for ``objective`` (the hard computer: the others play for points to the end
    whatever it is)."""
    chosen = Level.parse(level)
    if chosen is None:
        raise CribbageError(f"no level `{level}`: choose {LEVELS_HELP}")
    if chosen is Level.EASY:
        from cribcli.players.easy import EasyPlayer

        return EasyPlayer(seed, seat)
    if chosen is Level.NORMAL:
        from cribcli.players.normal import NormalPlayer

        return NormalPlayer(seed, seat)
    if chosen is not Level.HARD:
        from cribcli.players.ladder import SlippingPlayer

        return SlippingPlayer(seed, seat, chosen)
    from cribcli.players.hard import HardPlayer

    return HardPlayer(seed, seat, objective)


__all__ = ["LEVELS_HELP", "Level", "Objective", "Player", "computer"]
