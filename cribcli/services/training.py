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
import re
from pathlib import Path
from typing import NamedTuple

from cribcli.record.log import LOG_LIMIT, GameInfo
from cribcli.record.replay import replay
from cribcli.record.store import Places, StoreError, Warn, read_table, read_text, write_atomic
from cribcli.review.stats import Reviews, digest_of
from cribcli.rules.engine import Action, State, View, view
from cribcli.rules.errors import printable

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
    digest: str
    """The digest of the log as it was reviewed: a log changed since is not asked."""

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

    def answered(self, key: str, right: bool) -> bool:
        """Count one answer in; whether the position rests now. Raises OSError if it
        cannot be written."""
        known = self.read()
        streak, asked = known.get(key, (0, 0))
        known[key] = (streak + 1 if right else 0, asked + 1)
        positions = {k: list(v) for k, v in known.items()}
        write_atomic(self.path, json.dumps({"positions": positions}, separators=(",", ":")))
        return known[key][0] >= REST_AFTER


def to_train(places: Places, kind: str | None = None) -> list[Position]:
    """Your costly decisions not yet resting, worst first (of equal cost, the latest
    game's first), of one kind if given: from the reviews of your games whose logs are
    still as they were reviewed."""
    resting = {
        key for key, (streak, _) in Repetitions(places.training).read().items()
        if streak >= REST_AFTER
    }  # fmt: skip
    found = []
    when: dict[str, tuple[str, float]] = {}
    for name, (digest, lost) in Reviews(places.reviews).read().items():
        wanted = [c for c in lost.costly if kind is None or c.kind == kind]
        if not wanted or _log_text(places, name, digest) is None:
            continue
        when[name] = _played(places.games / name)
        for costly in wanted:
            position = Position(name, costly.at, costly.kind, costly.lost, digest)
            if position.key not in resting:
                found.append(position)
    found.sort(key=lambda p: p.at)
    found.sort(key=lambda p: when[p.game], reverse=True)
    found.sort(key=lambda p: -p.lost)
    return found


def _played(path: Path) -> tuple[str, float]:
    """When a game was played, to sort by: the date in its name, then its log's time."""
    day = re.search(r"\d{4}-\d{2}-\d{2}", path.name)
    try:
        stamp = path.stat().st_mtime
    except OSError:
        stamp = 0.0
    return (day.group(0) if day else "", stamp)


def _log_text(places: Places, name: str, digest: str) -> str | None:
    """A reviewed game's log, if it is still the one reviewed (by its digest)."""
    try:
        text = read_text(places.games / name, LOG_LIMIT)
    except StoreError:
        return None
    return text if text is not None and digest_of(text) == digest else None


def _is_kind(action: Action, kind: str) -> bool:
    from cribcli.rules.engine import Claim, Discard, Play

    wanted = {"throw": Discard, "lay": Play, "count": Claim}[kind]
    return isinstance(action, wanted)


def set_up(places: Places, position: Position, warn: Warn) -> SetUp | None:
    """The position set up again from its game's log, as the player saw it; None if the
    log is gone, changed since its review, or the action is not the player's own of that
    kind (a reviews file is not trusted)."""
    text = _log_text(places, position.game, position.digest)
    if text is None:
        return None
    from cribcli.record.log import begin
    from cribcli.record.reader import loads
    from cribcli.review.coach import default_seat
    from cribcli.rules.engine import apply
    from cribcli.services.games import player_of

    try:
        game = replay(loads(text))
    except ValueError as error:  # (CribbageError: a log the rules refuse)
        warn(f"{printable(position.game)}: {error}")
        return None
    info = game.log.info
    if position.at >= len(game.actions):
        return None
    action = game.actions[position.at]
    mine = default_seat(info, player_of(places.games / position.game, places))
    if action.seat != mine or not _is_kind(action, position.kind):
        return None
    state, _ = begin(info)
    for earlier in game.actions[: position.at]:
        state, _ = apply(state, earlier)
    return SetUp(info, state, view(state, action.seat), action)
