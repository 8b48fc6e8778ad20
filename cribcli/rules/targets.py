"""How far a game goes: to 121 (a full game) or 61 (a short one), and how many games a
match may be the best of. Its own room, so that a command that only needs the target
(advice on a throw) does without the rules engine."""

from __future__ import annotations

FULL_GAME = 121
SHORT_GAME = 61
TARGETS = (FULL_GAME, SHORT_GAME)
"""A full game to 121, or a short game to 61."""


def target_of(short: bool) -> int:
    """The target of a short game (61) or a full one (121)."""
    return SHORT_GAME if short else FULL_GAME


MATCH_LENGTHS = (1, 3, 5, 7)
"""How many games a match may be the best of (1: a game on its own)."""
TOURNAMENT_GAMES = 10_000
"""The most games a pair may play in a tournament."""
MOVE_TIMES = (0.1, 3600.0)
"""The least and the most seconds an engine may be given for a decision."""
