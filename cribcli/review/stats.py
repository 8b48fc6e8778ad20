"""A player's games, from the logs of their finished games, counted from what the rules
give: every log is replayed through the rules (which checks every card and point it
records), never read for its prose.

Replaying takes a few milliseconds a log, so what the history needs of each log is
remembered in an index (``stats-index.json`` in the state folder), stamped with the log's
size, times and inode: a log changed since (edited, replaced) is replayed again, and one
that breaks the rules is named on standard error and left out of the figures. A game
finished with ``cribbage play`` is remembered as it is filed, so only logs that came from
elsewhere are ever replayed here; many of them are spread over the machine's processors.
What each reviewed game's decisions lost is kept beside them (:class:`Reviews`). The sums
over the games are :mod:`cribcli.review.history`'s.

The player is seat 0 (the person who played); with four players, seat 0's side.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields, replace
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, get_args

from cribcli import __version__
from cribcli.players import Level
from cribcli.record import daily
from cribcli.record.log import FORMAT, LOG_LIMIT, GameInfo
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.store import (
    StoreError,
    Warn,
    game_logs,
    read_table,
    read_text,
    write_atomic,
)
from cribcli.record.workers import spread
from cribcli.review.grading import KINDS, Grade
from cribcli.rules.errors import CribbageError
from cribcli.rules.events import Dealt, Event, GameOver, Shown, Skunk
from cribcli.rules.tally import Deal, Points, deals

INDEX_VERSION = 3
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
    points: Points


class Costly(NamedTuple):
    """A decision a review found costly (an inaccuracy or worse), for ``cribbage train``:
    which of the game's actions it was, its kind, and the points it lost."""

    at: int
    kind: str
    lost: float

    @classmethod
    def from_json(cls, data: object) -> Costly | None:
        """Read back from the reviews file, checked."""
        if not isinstance(data, list) or len(data) != 3:
            return None
        at, kind, lost = data
        if not _count(at) or kind not in KINDS:
            return None
        if type(lost) not in (int, float) or not 0 <= lost <= MOST_LOST:
            return None
        return cls(at, kind, float(lost))


COSTLY_KEPT = 100
"""The most costly decisions a review keeps for training (the worst)."""


class Lost(NamedTuple):
    """What a game's review found the player's decisions lost (``cribbage review``, or
    the coach at the table): over how many deals, the points by kind of decision, and
    how many decisions of each kind were judged."""

    deals: int = 0
    throws: float = 0.0
    lays: float = 0.0
    counts: float = 0.0
    decisions: tuple[int, int, int] | None = None
    """Throws, lays and counts judged (None in a review kept before they were counted)."""
    costly: tuple[Costly, ...] = ()
    """The decisions that cost an inaccuracy or more (not summed by :meth:`plus`)."""

    def plus(self, other: Lost) -> Lost:
        """The two summed (the decisions only if both counted them)."""
        decisions = None
        if self.decisions is not None and other.decisions is not None:
            a, b = self.decisions, other.decisions
            decisions = (a[0] + b[0], a[1] + b[1], a[2] + b[2])
        return Lost(
            self.deals + other.deals,
            self.throws + other.throws,
            self.lays + other.lays,
            self.counts + other.counts,
            decisions,
        )

    def per_deal(self) -> dict[str, float]:
        """Points lost a deal, by kind and in all."""
        deals = self.deals or 1
        kinds = {"throws": self.throws, "lays": self.lays, "counts": self.counts}
        per = {kind: lost / deals for kind, lost in kinds.items()}
        return {**per, "total": sum(per.values())}

    @property
    def grade(self) -> Grade | None:
        """The error rate, accuracy and rating, when the decisions were counted."""
        if self.decisions is None:
            return None
        return Grade(self.decisions, (self.throws, self.lays, self.counts))

    def as_json(self) -> list[int | float]:
        """For the reviews file: deals, the three losses, then the three counts."""
        kept: list[int | float] = [self.deals, *(round(n, 3) for n in self[1:4])]
        return kept + list(self.decisions or ())

    @classmethod
    def from_json(cls, data: object) -> Lost | None:
        """Read back from the reviews file: a count of deals and three losses, then
        (since they are kept) three counts of decisions, checked."""
        if not isinstance(data, list) or len(data) not in (4, 7) or not _count(data[0]):
            return None
        losses = data[1:4]
        if not all(type(n) in (int, float) and 0 <= n <= 100_000 for n in losses):
            return None
        decisions = None
        if len(data) == 7:
            deals, made = data[0], data[4:]
            if not all(_count(n) for n in made):
                return None
            # As a review makes them: a throw a deal, at most 4 lays and 2 counts a deal,
            # and no kind losing more than its decisions could.
            if made[0] != deals or made[1] > 4 * deals or made[2] > 2 * deals:
                return None
            if any(lost > MOST_LOST * n for lost, n in zip(losses, made, strict=True)):
                return None
            decisions = (made[0], made[1], made[2])
        throws, lays, counts = (float(n) for n in losses)
        return cls(data[0], throws, lays, counts, decisions)


MOST_LOST = 60
"""More points than one decision can lose (a throw's or a lay's chance of winning, counted
in points, stays well under it): a kept review claiming more is not one."""


OPPONENTS = frozenset({"", "engine", "human", *Level})
"""What a record's ``level`` may be."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The facts of one finished game that the history counts, from the player's side
    (side 0). Each comes from the rules replaying the log, never from its prose."""

    name: str
    day: str
    """The date it was played, YYYY-MM-DD (empty if the log does not say)."""
    daily: str
    """The day, for a daily game (see :func:`cribcli.record.daily.day_played`); else empty."""
    level: str
    """Whom the game was against: the first other seat's level, or ``engine`` (empty if
    there was none)."""
    players: int
    winner: int
    scores: tuple[int, ...]
    """The final scores, by side."""
    skunks: tuple[Skunk, ...]
    """By side: ``""``, ``"skunk"`` or ``"double skunk"``."""
    dealt: int
    """How many deals were begun (the last may have been cut short by the end)."""
    deals: tuple[DealRecord, ...]
    """Each deal played to its end."""
    best_hand: int
    """The most the player's hand was worth at a show."""
    takebacks: int = 0
    """How many moves were taken back (a practice game's ``undo``)."""
    digest: str = ""
    """The log's SHA-256, to match the game's review (see :class:`Reviews`)."""
    lost: Lost | None = None
    """What the player's decisions lost, once the game has been reviewed: from the
    reviews kept, never from the index (which is rebuilt)."""

    @property
    def won(self) -> bool:
        """Whether the player's side won."""
        return self.winner == 0

    @property
    def skunk_taken(self) -> Skunk:
        """The skunk the player's side took ("" if none)."""
        return self.skunks[0]

    @property
    def skunk_given(self) -> Skunk:
        """The skunk the player's side gave ("" if none, or if it lost)."""
        return next((s for s in self.skunks[1:] if s), "") if self.won else ""

    def as_json(self) -> dict[str, Any]:
        """The record as plain data, for the index."""
        data = {item.name: getattr(self, item.name) for item in fields(self)}
        data["deals"] = [[deal.dealt, *deal.points] for deal in self.deals]
        del data["lost"]
        return data

    @classmethod
    def from_json(cls, data: object) -> GameRecord | None:
        """A record read back from the index, or None if it is not one: every value is
        checked for its type and range (the index is a file, and files are not trusted)."""
        if not isinstance(data, dict):
            return None
        try:
            texts = [data[key] for key in ("name", "day", "daily", "level")]
            keys = ("players", "winner", "dealt", "best_hand", "takebacks")
            numbers = [data[key] for key in keys]
            scores, skunks, deals = data["scores"], data["skunks"], data["deals"]
            if not all(type(text) is str and len(text) <= 200 for text in texts):
                return None
            if not all(_count(n) for n in (*numbers, *scores)) or data["level"] not in OPPONENTS:
                return None
            if not all(skunk in get_args(Skunk) for skunk in skunks):
                return None
            records = []
            for deal in deals:
                dealt, *points = deal
                if type(dealt) is not bool or len(points) != 3 or not all(map(_count, points)):
                    return None
                records.append(DealRecord(dealt, Points(*points)))
            digest = data["digest"]
            if not (type(digest) is str and re.fullmatch(r"[0-9a-f]{64}|", digest)):
                return None
            name, day, daily_day, level = texts
            players, winner, dealt, best_hand, takebacks = numbers
            return cls(
                name, day, daily_day, level, players, winner, tuple(scores), tuple(skunks),
                dealt, tuple(records), best_hand, takebacks, digest,
            )  # fmt: skip
        except (KeyError, TypeError, ValueError):
            return None


def _count(value: object) -> bool:
    """Whether ``value`` is a whole number a game could hold (not a bool, not huge)."""
    return type(value) is int and 0 <= value <= 100_000


def game_record(
    name: str, info: GameInfo, events: Sequence[Event], text: str, me: str | None = None
) -> GameRecord:
    """What the history counts of a finished game, from its events (the rules' own facts),
    and its log's ``text`` (for its digest), from the side of the person named ``me`` (at
    a served table: seats of people are told apart by name), else of the first seat.
    Raises StatsError if the game did not end."""
    over = next((e for e in reversed(events) if isinstance(e, GameOver)), None)
    if over is None:
        raise StatsError("not a finished game")
    rules = info.rules
    seat = player_seat(info, me)
    mine = rules.side_of(seat)
    sides = [mine, *(side for side in range(rules.sides) if side != mine)]  # mine first

    def ours(deal: Deal) -> DealRecord:
        points = [p for s, p in enumerate(deal.points) if rules.side_of(s) == mine]
        return DealRecord(
            rules.side_of(deal.dealer) == mine,
            Points(*(sum(column) for column in zip(*points, strict=True))),
        )

    others = [spec for n, spec in enumerate(info.seats) if rules.side_of(n) != mine]
    return GameRecord(
        name=name,
        day=_day(info.started or "", info.label or ""),
        daily=daily.day_played(info) or "",
        level=next(
            (spec.level or spec.player for spec in others if spec.player != "human"),
            "human" if others else "",
        ),
        players=rules.players,
        winner=sides.index(over.winner),
        scores=tuple(over.scores[side] for side in sides),
        skunks=tuple(over.skunks[side] for side in sides),
        dealt=sum(1 for e in events if isinstance(e, Dealt)),
        deals=tuple(ours(deal) for deal in deals(events)),
        best_hand=max(
            (
                e.show.total
                for e in events
                if isinstance(e, Shown) and e.seat == seat and not e.show.is_crib
            ),
            default=0,
        ),
        takebacks=info.takebacks,
        digest=digest_of(text),
    )


def player_seat(info: GameInfo, me: str | None) -> int:
    """The seat of the person named ``me`` (None, or no such person: the first seat)."""
    return next(
        (n for n, spec in enumerate(info.seats) if spec.player == "human" and spec.name == me), 0
    )


def digest_of(text: str) -> str:
    """A log's SHA-256, as hex: what ties a review to the log it reviewed."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _day(started: str, label: str) -> str:
    found = re.search(r"\d{4}-\d{2}-\d{2}", started) or re.search(r"\d{4}-\d{2}-\d{2}", label)
    return found.group(0) if found else ""


def read_game(name: str, text: str, me: str | None = None) -> GameRecord:
    """One log's record (from ``me``'s side: see :func:`game_record`), the log replayed
    and checked. Raises StatsError if it cannot be read, breaks the rules, or does not
    finish its game."""
    try:
        replayed = replay(loads(text))
    except CribbageError as error:
        raise StatsError(str(error)) from None
    return game_record(name, replayed.log.info, replayed.events, text, me)


def _read_path(path: str, me: str | None = None) -> GameRecord | str:
    """A log's record, or why it has none (run in a worker process: it returns, never
    raises, what the parent remembers)."""
    try:
        return read_game(Path(path).name, read_text(Path(path), LOG_LIMIT) or "", me)
    except (StatsError, StoreError) as error:
        return str(error).removeprefix(f"{path}: ")


# --- the index ------------------------------------------------------------------------


def _stamp(path: Path) -> list[int]:
    """What changes when a file is written, replaced or touched (the inode's change time
    cannot be set back)."""
    info = os.stat(path)
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


class Index:
    """The records remembered of each log, by file name, stamped (see :func:`_stamp`).

    The index is rebuilt when it was made by another version of cribbage or for another
    log format (what it found, and what it refused, may differ). Two processes may write
    it at once (``play`` filing a game while ``stats`` counts): each merges its changes
    into the index as it is on disk just before writing, so that neither loses the other's.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.games = self._read()
        self._put: dict[str, dict[str, Any]] = {}
        self._gone: set[str] = set()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(read_text(self.path, INDEX_LIMIT) or "{}")
        except (StoreError, ValueError, RecursionError):
            return {}  # an index that cannot be read is rebuilt
        if not isinstance(data, dict) or data.get("made_by") != _MADE_BY:
            return {}
        games = data.get("games")
        return games if isinstance(games, dict) else {}

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
        self.games[name] = self._put[name] = entry
        self._gone.discard(name)

    def keep_only(self, names: Iterable[str]) -> None:
        """Forget the logs that are gone."""
        present = set(names)
        for name in [name for name in self.games if name not in present]:
            del self.games[name]
            self._gone.add(name)

    def save(self) -> None:
        """Write what changed into the index. An index that cannot be written is only a
        cost: the next count replays again."""
        if not self._put and not self._gone:
            return
        games = self._read() | self._put
        for name in self._gone:
            games.pop(name, None)
        text = json.dumps({"made_by": _MADE_BY, "games": games}, separators=(",", ":"))
        with contextlib.suppress(OSError):
            write_atomic(self.path, text)
        self._put, self._gone = {}, set()


_MADE_BY = f"cribbage {__version__}, log format {FORMAT}, index {INDEX_VERSION}"
"""What an index is made by: another version reads it afresh."""


def remember(
    index: Path,
    log: Path,
    info: GameInfo,
    events: Sequence[Event],
    text: str,
    me: str | None = None,
) -> None:
    """Remember a game filed at ``log`` (its ``text``), from the events it was played with
    (from ``me``'s side), so that the history never has to replay it. Failing to is only a
    cost."""
    with contextlib.suppress(OSError, StatsError):
        remembered = Index(index)
        record = game_record(log.name, info, events, text, me)
        remembered.put(log.name, _stamp(log), record)
        remembered.save()


# --- the reviews ------------------------------------------------------------------------

REVIEWS_LIMIT = 16 << 20
"""The most bytes the reviews file may hold (a game's review takes about 120)."""


class Reviews:
    """What each reviewed game's decisions lost, by log name, with the log's digest: kept
    in the data folder (``reviews.json``), since a review cannot be rebuilt from the logs
    as the index can. A review counts for a log only while the log is the one reviewed."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> dict[str, tuple[str, Lost]]:
        """Every review kept, checked entry by entry (the file is not trusted: what is not
        a review is left out)."""
        kept = {}
        for name, entry in read_table(self.path, REVIEWS_LIMIT, "games").items():
            if not isinstance(entry, dict) or not log_name_ok(name):
                continue
            digest, lost = entry.get("digest"), Lost.from_json(entry.get("lost"))
            if type(digest) is str and re.fullmatch(r"[0-9a-f]{64}", digest) and lost:
                costly = entry.get("costly")
                if isinstance(costly, list):
                    found = (Costly.from_json(item) for item in costly[:COSTLY_KEPT])
                    lost = lost._replace(costly=tuple(c for c in found if c is not None))
                kept[name] = (digest, lost)
        return kept

    def keep(self, name: str, digest: str, lost: Lost) -> None:
        """Keep a game's review (replacing any earlier one). Raises OSError if it cannot
        be written."""
        games = {game: _entry(known, found) for game, (known, found) in self.read().items()}
        games[name] = _entry(digest, lost)
        write_atomic(self.path, json.dumps({"games": games}, separators=(",", ":")))

    def attach(self, games: Iterable[GameRecord]) -> list[GameRecord]:
        """The records, each with its review if it has one (for the log as it is)."""
        kept = self.read()
        return [
            replace(game, lost=kept[game.name][1])
            if game.name in kept and kept[game.name][0] == game.digest
            else game
            for game in games
        ]


def log_name_ok(name: str) -> bool:
    """Whether ``name`` could be a finished game's log's in the games folder: a printable
    ``.toml`` name of at most 200 characters, no folder in it, nothing hidden (a reviews
    file is not trusted: its names are joined to the folder and shown)."""
    return (
        0 < len(name) <= 200
        and name.endswith(".toml")
        and name.isprintable()
        and not name.startswith(".")
        and "/" not in name
        and "\\" not in name
        and not any("\ud800" <= ch <= "\udfff" for ch in name)
    )


def _entry(digest: str, lost: Lost) -> dict[str, object]:
    """A review as the reviews file keeps it: the digest, the losses, the worst decisions."""
    entry: dict[str, object] = {"digest": digest, "lost": lost.as_json()}
    if lost.costly:
        worst = sorted(lost.costly, key=lambda c: -c.lost)[:COSTLY_KEPT]
        entry["costly"] = [list(c) for c in sorted(worst)]
    return entry


def records(
    games: Path,
    index: Path,
    *,
    warn: Warn,
    progress: Callable[[int, int], None] | None = None,
    reviews: Path | None = None,
    me: str | None = None,
) -> list[GameRecord]:
    """The records of every finished game's log in ``games``, by file name. Logs that
    cannot be counted are named to ``warn`` and left out; ``progress`` hears (done, of)
    as logs are replayed; with ``reviews``, each reviewed game carries what it lost; each
    is counted from ``me``'s side (see :func:`game_record`).
    Raises StoreError if the folder cannot be read."""
    remembered = Index(index)
    found: dict[str, GameRecord | str] = {}
    stamps: dict[str, list[int]] = {}
    missing: list[Path] = []
    paths = sorted(game_logs(games, warn))
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
    read = partial(_read_path, me=me)
    with spread(read, [str(path) for path in missing], jobs, chunksize=16) as replayed:
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
    return Reviews(reviews).attach(kept) if reviews is not None else kept
