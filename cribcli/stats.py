"""A player's history, from the logs of their finished games, counted from what the rules
give: every log is replayed through the rules (which checks every card and point it
records), never read for its prose.

Replaying takes a few milliseconds a log, so what the history needs of each log is
remembered in an index (``stats-index.json`` in the state folder), stamped with the log's
size, times and inode: a log changed since (edited, replaced) is replayed again, and one
that breaks the rules is named on standard error and left out of the figures. A game
finished with ``cribbage play`` is remembered as it is filed, so only logs that came from
elsewhere are ever replayed here; many of them are spread over the machine's processors.

The player is seat 0 (the person who played); with four players, seat 0's side.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from cribcli.errors import CribbageError
from cribcli.events import Event, GameOver, Shown
from cribcli.record import LOG_LIMIT, GameInfo, loads, replay
from cribcli.store import StoreError, Warn, game_logs, read_text, write_atomic
from cribcli.tally import ROLES, Deal, Points, PointSums, Role, deals
from cribcli.workers import spread

INDEX_VERSION = 1
"""Bumped whenever what is remembered of a game changes: an older index is rebuilt."""
INDEX_LIMIT = 256 << 20
"""The most bytes the index may hold (a game takes about 300)."""
SPREAD_FROM = 64
"""How many logs to replay before it is worth spreading them over processes."""


class StatsError(CribbageError):
    """A log that cannot be counted in the history: unreadable, or not a finished game."""


class DealRecord(NamedTuple):
    """One finished deal from the player's side: whether it dealt, and its points."""

    dealt: bool
    pegging: int
    hand: int
    crib: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What the history needs of one finished game, from the player's side."""

    name: str
    day: str
    """The date it was played, YYYY-MM-DD (empty if the log does not say)."""
    level: str
    """The computer's level (the first computer seat's; empty if none)."""
    players: int
    won: bool
    skunk_given: str
    skunk_taken: str
    deals: tuple[DealRecord, ...]
    best_hand: int

    def as_json(self) -> dict[str, Any]:
        """The record as plain data, for the index."""
        return {
            "name": self.name,
            "day": self.day,
            "level": self.level,
            "players": self.players,
            "won": self.won,
            "skunk_given": self.skunk_given,
            "skunk_taken": self.skunk_taken,
            "deals": [list(deal) for deal in self.deals],
            "best_hand": self.best_hand,
        }

    @classmethod
    def from_json(cls, data: object) -> GameRecord | None:
        """A record read back from the index, or None if it is not one (the index is a
        file, and files are not trusted)."""
        if not isinstance(data, dict):
            return None
        try:
            deals = tuple(
                DealRecord(bool(dealt), int(pegging), int(hand), int(crib))
                for dealt, pegging, hand, crib in data["deals"]
            )
            fields = (data[key] for key in ("name", "day", "level", "skunk_given", "skunk_taken"))
            name, day, level, given, taken = (str(value) for value in fields)
            return cls(
                name=name,
                day=day,
                level=level,
                players=int(data["players"]),
                won=bool(data["won"]),
                skunk_given=given,
                skunk_taken=taken,
                deals=deals,
                best_hand=int(data["best_hand"]),
            )
        except (KeyError, TypeError, ValueError):
            return None


def game_record(name: str, info: GameInfo, events: Sequence[Event]) -> GameRecord:
    """What the history counts of a finished game, from its events (the rules' own facts).
    Raises StatsError if the game did not end."""
    over = next((e for e in reversed(events) if isinstance(e, GameOver)), None)
    if over is None:
        raise StatsError("not a finished game")
    rules = info.rules
    mine = 0

    def ours(deal: Deal) -> DealRecord:
        points = [p for seat, p in enumerate(deal.points) if rules.side_of(seat) == mine]
        return DealRecord(
            rules.side_of(deal.dealer) == mine,
            sum(p.pegging for p in points),
            sum(p.hand for p in points),
            sum(p.crib for p in points),
        )

    best = max(
        (e.scored for e in events if isinstance(e, Shown) and e.seat == 0 and not e.show.is_crib),
        default=0,
    )
    won = over.winner == mine
    given = next((s for other, s in enumerate(over.skunks) if other != mine and s), "")
    return GameRecord(
        name=name,
        day=_day(info.started or "", info.label or ""),
        level=next((seat.level or "" for seat in info.seats if seat.player == "computer"), ""),
        players=rules.players,
        won=won,
        skunk_given=given if won else "",
        skunk_taken=over.skunks[mine],
        deals=tuple(ours(deal) for deal in deals(events)),
        best_hand=best,
    )


def _day(started: str, label: str) -> str:
    found = re.search(r"\d{4}-\d{2}-\d{2}", started) or re.search(r"\d{4}-\d{2}-\d{2}", label)
    return found.group(0) if found else ""


def read_game(name: str, text: str) -> GameRecord:
    """One log's record, the log replayed and checked. Raises StatsError if it cannot be
    read, breaks the rules, or does not finish its game."""
    try:
        replayed = replay(loads(text))
    except CribbageError as error:
        raise StatsError(str(error)) from None
    return game_record(name, replayed.log.info, replayed.events)


def _read_path(path: str) -> GameRecord | str:
    """A log's record, or why it has none (run in a worker process: it returns, never
    raises, what the parent remembers)."""
    try:
        return read_game(Path(path).name, read_text(Path(path), LOG_LIMIT) or "")
    except (StatsError, StoreError) as error:
        return str(error).removeprefix(f"{path}: ")


# --- the index ------------------------------------------------------------------------


def _stamp(path: Path) -> list[int]:
    """What changes when a file is written, replaced or touched (the inode's change time
    cannot be set back)."""
    info = os.stat(path)
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


class Index:
    """The records remembered of each log, by file name, stamped (see :func:`_stamp`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.games: dict[str, dict[str, Any]] = {}
        self.changed = False
        try:
            data = json.loads(read_text(path, INDEX_LIMIT) or "{}")
        except (StoreError, ValueError, RecursionError):
            return  # an index that cannot be read is rebuilt
        if isinstance(data, dict) and data.get("version") == INDEX_VERSION:
            games = data.get("games")
            if isinstance(games, dict):
                self.games = games

    def get(self, name: str, stamp: list[int]) -> GameRecord | str | None:
        """The record remembered for this log as it is now, or why it has none; None if
        it is not remembered as it is now."""
        entry = self.games.get(name)
        if not isinstance(entry, dict) or entry.get("stamp") != stamp:
            return None
        if isinstance(entry.get("error"), str):
            return str(entry["error"])
        return GameRecord.from_json(entry.get("record"))

    def put(self, name: str, stamp: list[int], found: GameRecord | str) -> None:
        """Remember a log's record, or why it has none."""
        entry: dict[str, Any] = {"stamp": stamp}
        if isinstance(found, str):
            entry["error"] = found
        else:
            entry["record"] = found.as_json()
        self.games[name] = entry
        self.changed = True

    def keep_only(self, names: Iterable[str]) -> None:
        """Forget the logs that are gone."""
        present = set(names)
        for name in [name for name in self.games if name not in present]:
            del self.games[name]
            self.changed = True

    def save(self) -> None:
        """Write the index if it changed. An index that cannot be written is only a cost:
        the next count replays again."""
        if self.changed:
            text = json.dumps(
                {"version": INDEX_VERSION, "games": self.games}, separators=(",", ":")
            )
            with contextlib.suppress(OSError):
                write_atomic(self.path, text)
            self.changed = False


def remember(index: Path, log: Path, info: GameInfo, events: Sequence[Event]) -> None:
    """Remember a game just filed at ``log``, from the events it was played with, so that
    the history never has to replay it. Failing to is only a cost."""
    with contextlib.suppress(OSError, StatsError):
        remembered = Index(index)
        remembered.put(log.name, _stamp(log), game_record(log.name, info, events))
        remembered.save()


def records(
    games: Path,
    index: Path,
    *,
    warn: Warn,
    progress: Callable[[int, int], None] | None = None,
) -> list[GameRecord]:
    """The records of every finished game's log in ``games``, oldest first. Logs that
    cannot be counted are named to ``warn`` and left out; ``progress`` hears (done, of)
    as logs are replayed. Raises StoreError if the folder cannot be read."""
    remembered = Index(index)
    found: dict[str, GameRecord | str] = {}
    stamps: dict[str, list[int]] = {}
    missing: list[Path] = []
    paths = game_logs(games, warn)
    for path in paths:
        try:
            stamps[path.name] = _stamp(path)
        except OSError:
            continue  # gone since it was listed
        known = remembered.get(path.name, stamps[path.name])
        if known is None:
            missing.append(path)
        else:
            found[path.name] = known
    jobs = min(os.cpu_count() or 1, 8) if len(missing) >= SPREAD_FROM else 1
    with spread(_read_path, [str(path) for path in missing], jobs, chunksize=16) as replayed:
        for done, (path, result) in enumerate(zip(missing, replayed, strict=True), start=1):
            found[path.name] = result
            remembered.put(path.name, stamps[path.name], result)
            if progress:
                progress(done, len(missing))
    remembered.keep_only(stamps)
    remembered.save()
    kept = []
    for path in paths:
        known = found.get(path.name)
        if isinstance(known, str):
            warn(f"skipping {path}: {known}")
        elif known is not None:
            kept.append(known)
    return kept


# --- the sums -------------------------------------------------------------------------


@dataclass
class History:
    """The sums over many games."""

    games: int = 0
    wins: int = 0
    by_level: dict[str, list[int]] = field(default_factory=dict)
    """level -> [played, won]"""
    skunks_given: int = 0
    skunks_taken: int = 0
    points: PointSums = field(default_factory=PointSums)
    best_hand: int = 0
    best_game: str = ""

    def add(self, game: GameRecord) -> None:
        """Count one game in."""
        self.games += 1
        self.wins += game.won
        level = self.by_level.setdefault(game.level or "?", [0, 0])
        level[0] += 1
        level[1] += game.won
        self.skunks_given += bool(game.skunk_given)
        self.skunks_taken += bool(game.skunk_taken)
        for deal in game.deals:
            role: Role = "dealer" if deal.dealt else "pone"
            self.points.add(role, Points(deal.pegging, deal.hand, deal.crib))
        if game.best_hand > self.best_hand:
            self.best_hand, self.best_game = game.best_hand, game.name

    def per_deal(self, role: Role) -> dict[str, float]:
        """Average points a deal as dealer or pone: deals, pegging, hand, crib, total."""
        return {"deals": self.points.deals(role), **self.points.per_deal(role)}

    def as_json(self) -> dict[str, object]:
        """The history for scripts."""
        return {
            "games": self.games,
            "wins": self.wins,
            "by_level": {
                level: {"played": played, "won": won}
                for level, (played, won) in sorted(self.by_level.items())
            },
            "skunks_given": self.skunks_given,
            "skunks_taken": self.skunks_taken,
            "per_deal": {role: self.per_deal(role) for role in ROLES},
            "best_hand": {"points": self.best_hand, "game": self.best_game},
        }


def history(games: Iterable[GameRecord], since: str = "") -> History:
    """The sums of the games played on or after ``since`` (YYYY-MM-DD; all if empty)."""
    total = History()
    for game in games:
        if since and (not game.day or game.day < since):
            continue
        total.add(game)
    return total
