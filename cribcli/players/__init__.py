"""Computer players. Each is given a :class:`~cribcli.engine.View`, never the state."""

from cribcli.players.base import Player
from cribcli.players.easy import EasyPlayer

__all__ = ["EasyPlayer", "Player"]
