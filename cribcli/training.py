"""``cribbage train``: your own costly decisions asked again, from your filed games.

Each review of one of your games (``cribbage review``, or the coach at the end of a game)
keeps the decisions that cost an inaccuracy or more (in ``reviews.json``: which action of
the game, its kind, what it lost). Training takes them worst first (and of equal cost,
the latest), sets each up again from its game's log (the rules replay the game to it),
and asks it as the seat saw it. A position answered right twice in a row rests; the
rest come back, in ``training.json`` beside the games.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from cribcli.engine import Action, State, View, view
from cribcli.record import LOG_LIMIT, GameInfo, replay
from cribcli.stats import Reviews, digest_of
from cribcli.store import Places, StoreError, Warn, read_table, read_text, write_atomic

TRAINING_LIMIT = 1 << 20
"""The most bytes the training file may hold (a position takes about 40)."""
REST_AFTER = 2
"""Answers right in a row that rest a position."""


class Position(NamedTuple):
    """A costly decision of one of your games, to ask again."""

    game: str
    """The log's name in your games folder."""
    at: int
    """Which of the game's actions it was."""
    kind: str
    lost: float

    @property
    def key(self) -> str:
        return f"{self.game}@{self.at}"


class SetUp(NamedTuple):
    """A position set up again from its game: the game, the state before the action,
    the seat's view of it, and what the seat did then."""

    info: GameInfo
    state: State
    seen: View
    action: Action


class Repetitions:
    """How each position has been answered: right in a row, and times asked (the file is
    not trusted: what is not an entry is left out)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> dict[str, tuple[int, int]]:
        return {
            key: (entry[0], entry[1])
            for key, entry in read_table(self.path, TRAINING_LIMIT, "positions").items()
            if len(key) <= 250
            and isinstance(entry, list)
            and len(entry) == 2
            and all(type(n) is int and 0 <= n <= 100_000 for n in entry)
            and entry[0] <= entry[1]
        }

    def answered(self, key: str, right: bool) -> None:
        """Count one answer in. Raises OSError if it cannot be written."""
        known = self.read()
        streak, asked = known.get(key, (0, 0))
        known[key] = (streak + 1 if right else 0, asked + 1)
        positions = {k: list(v) for k, v in known.items()}
        write_atomic(self.path, json.dumps({"positions": positions}, separators=(",", ":")))


def to_train(places: Places, kind: str | None = None) -> list[Position]:
    """Your costly decisions not yet resting, worst first (of equal cost, the latest
    game's first), of one kind if given: from the reviews of your games that are still
    as they were reviewed."""
    resting = {
        key for key, (streak, _) in Repetitions(places.training).read().items()
        if streak >= REST_AFTER
    }  # fmt: skip
    found = []
    for name, (_, lost) in Reviews(places.reviews).read().items():
        for costly in lost.costly:
            position = Position(name, costly.at, costly.kind, costly.lost)
            if (kind is None or costly.kind == kind) and position.key not in resting:
                found.append(position)
    found.sort(key=lambda p: (-p.lost, _reversed(p.game), p.at))
    return found


def _is_kind(action: Action, kind: str) -> bool:
    from cribcli.engine import Claim, Discard, Play

    wanted = {"throw": Discard, "lay": Play, "count": Claim}[kind]
    return isinstance(action, wanted)


def _reversed(name: str) -> tuple[int, ...]:
    """A key that sorts later names first."""
    return tuple(-ord(ch) for ch in name)


def set_up(places: Places, position: Position, warn: Warn) -> SetUp | None:
    """The position set up again from its game's log; None (and said) if the log is gone,
    changed since its review, or does not reach it."""
    path = places.games / position.game
    try:
        text = read_text(path, LOG_LIMIT)
    except StoreError as error:
        warn(str(error))
        return None
    reviewed = Reviews(places.reviews).read().get(position.game)
    if text is None or reviewed is None or reviewed[0] != digest_of(text):
        return None  # gone, or not the game that was reviewed
    try:
        from cribcli.record import loads

        game = replay(loads(text))
    except (StoreError, ValueError) as error:
        warn(f"{position.game}: {error}")
        return None
    if position.at >= len(game.actions) or not _is_kind(game.actions[position.at], position.kind):
        return None
    from cribcli.engine import apply, new_game

    info = game.log.info
    state, _ = new_game(info.rules, info.seed)
    for action in game.actions[: position.at]:
        state, _ = apply(state, action)
    action = game.actions[position.at]
    return SetUp(info, state, view(state, action.seat), action)
