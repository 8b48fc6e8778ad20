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
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, get_args

from cribcli import __version__, daily
from cribcli.errors import CribbageError
from cribcli.events import Dealt, Event, GameOver, Shown, Skunk
from cribcli.grading import GRADE_WINDOWS, KINDS, Grade
from cribcli.players import Level
from cribcli.record import FORMAT, LOG_LIMIT, GameInfo, loads, replay
from cribcli.store import (
    Places,
    StoreError,
    Warn,
    game_logs,
    load_settings,
    read_table,
    read_text,
    write_atomic,
)
from cribcli.tally import ROLES, Deal, Points, PointSums, Role, deals
from cribcli.workers import spread

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
    """The day, for a daily game (see :func:`cribcli.daily.day_played`); else empty."""
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


# --- the quizzes -----------------------------------------------------------------------

QUIZ_LIMIT = 1 << 20
"""The most bytes the quiz file may hold (a day takes about 40)."""
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


class QuizAnswer(NamedTuple):
    """A day's quiz as answered: what the throw lost and what the lay lost (None until
    answered), and whether it was answered on the day itself (only those make a streak)."""

    throw: float | None
    lay: float | None
    on_the_day: bool

    @classmethod
    def from_json(cls, data: object) -> QuizAnswer | None:
        """Read back from the quiz file, checked."""
        if not isinstance(data, list) or len(data) != 3 or type(data[2]) is not bool:
            return None
        lost = data[:2]
        if not all(n is None or (type(n) in (int, float) and 0 <= n <= 1000) for n in lost):
            return None
        throw, lay = (None if n is None else float(n) for n in lost)
        return cls(throw, lay, data[2])


class QuizDays:
    """The days' quizzes answered (``cribbage quiz``), by day, in the data folder
    (``quiz.json``): each answer is kept as soon as it is graded, and the first counts."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> dict[str, QuizAnswer]:
        """Every day answered, checked entry by entry (the file is not trusted: what is
        not a day's answer is left out)."""
        kept = {}
        for day, entry in read_table(self.path, QUIZ_LIMIT, "days").items():
            answer = QuizAnswer.from_json(entry)
            if _DAY.fullmatch(day) and answer is not None:
                kept[day] = answer
        return kept

    def keep(
        self, day: str, *, throw: float | None = None, lay: float | None = None, today: str
    ) -> QuizAnswer:
        """Keep an answer of a day's quiz (not over an earlier one), and return the day's
        answers. Raises OSError if it cannot be written."""
        days = self.read()
        known = days.get(day, QuizAnswer(None, None, day == today))
        known = known._replace(
            throw=known.throw if known.throw is not None else throw,
            lay=known.lay if known.lay is not None else lay,
        )
        days[day] = known
        table = {
            d: [None if a.throw is None else round(a.throw, 3),
                None if a.lay is None else round(a.lay, 3), a.on_the_day]
            for d, a in days.items()
        }  # fmt: skip
        write_atomic(self.path, json.dumps({"days": table}, separators=(",", ":")))
        return known

    def streak(self, today: str) -> int:
        """Days in a row with the quiz answered whole on the day, up to today (or
        yesterday)."""
        whole = {
            day for day, a in self.read().items() if a.on_the_day and a.lay is not None
        }  # fmt: skip
        return daily.streak(whole, today)


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


# --- the sums -------------------------------------------------------------------------


class Played(NamedTuple):
    """Games played against a level, and won."""

    played: int = 0
    won: int = 0


@dataclass
class History:
    """The sums over many games, and the streak of daily games."""

    games: int = 0
    wins: int = 0
    by_level: dict[str, Played] = field(default_factory=dict)
    skunks_given: int = 0
    skunks_taken: int = 0
    points: PointSums = field(default_factory=PointSums)
    best_hand: int = 0
    best_game: str = ""
    with_takebacks: int = 0
    """Games in which a move was taken back."""
    daily_streak: int = 0
    """Days in a row, up to today, with a finished daily game (of all games, whatever
    ``since``)."""
    reviewed: dict[str, tuple[int, Lost]] = field(default_factory=dict)
    """Reviewed games, and what their decisions lost, summed: ``this month`` and
    ``before``."""
    graded: list[tuple[str, str, Grade]] = field(default_factory=list)
    """Each reviewed game whose decisions were counted: its day, its name and its grade
    (see :meth:`grade`)."""

    def add(self, game: GameRecord, month: str = "") -> None:
        """Count one game in."""
        self.games += 1
        self.wins += game.won
        level = self.by_level.get(game.level or "?", Played())
        self.by_level[game.level or "?"] = Played(level.played + 1, level.won + game.won)
        self.skunks_given += bool(game.skunk_given)
        self.skunks_taken += bool(game.skunk_taken)
        self.with_takebacks += bool(game.takebacks)
        for deal in game.deals:
            self.points.add("dealer" if deal.dealt else "pone", deal.points)
        if game.best_hand > self.best_hand:
            self.best_hand, self.best_game = game.best_hand, game.name
        if game.lost is not None:
            when = "this month" if month and game.day.startswith(month) else "before"
            games, lost = self.reviewed.get(when, (0, Lost()))
            self.reviewed[when] = (games + 1, lost.plus(game.lost))
            if game.lost.grade is not None:
                self.graded.append((game.day, game.name, game.lost.grade))

    def grade(self, last: int | None = None) -> tuple[int, Grade]:
        """The reviewed games of the ``last`` few played (all if None) whose decisions
        were counted, and their grade taken together."""
        chosen = sorted(self.graded)[-last:] if last else self.graded
        total = Grade()
        for _, _, grade in chosen:
            total = total.plus(grade)
        return len(chosen), total

    def lost(self, when: str = "") -> tuple[int, Lost]:
        """Reviewed games and what they lost: ``this month``, ``before``, or all."""
        if when:
            return self.reviewed.get(when, (0, Lost()))
        games, total = 0, Lost()
        for some, lost in self.reviewed.values():
            games, total = games + some, total.plus(lost)
        return games, total

    def per_deal(self, role: Role) -> dict[str, float]:
        """Average points a deal as dealer or pone: deals, pegging, hand, crib, total."""
        return {"deals": self.points.deals(role), **self.points.per_deal(role)}

    def as_json(self) -> dict[str, object]:
        """The history for scripts."""
        return {
            "games": self.games,
            "wins": self.wins,
            "by_level": {
                level: played._asdict() for level, played in sorted(self.by_level.items())
            },
            "skunks_given": self.skunks_given,
            "skunks_taken": self.skunks_taken,
            "per_deal": {role: self.per_deal(role) for role in ROLES},
            "best_hand": {"points": self.best_hand, "game": self.best_game},
            "with_takebacks": self.with_takebacks,
            "daily_streak": self.daily_streak,
            "lost_per_deal": {
                when.replace(" ", "_") or "all": {
                    "games": games,
                    "deals": lost.deals,
                    **{kind: round(n, 3) for kind, n in lost.per_deal().items()},
                }
                for when in ("", "this month", "before")
                for games, lost in [self.lost(when)]
            },
            "decisions": {
                name: {"games": games, "decisions": grade.made, **grade.as_json()}
                for name, last in GRADE_WINDOWS
                for games, grade in [self.grade(last)]
            },
        }


def history(
    games: Sequence[GameRecord], since: str = "", today: str = "", takebacks: bool = True
) -> History:
    """The sums of the games played on or after ``since`` (YYYY-MM-DD; all if empty),
    without the games that had takebacks unless ``takebacks``, and the daily streak up
    to ``today``."""
    total = History(daily_streak=_streak(games, today) if today else 0)
    for game in games:
        if since and (not game.day or game.day < since):
            continue
        if game.takebacks and not takebacks:
            continue
        total.add(game, today[:7])
    return total


def _streak(games: Iterable[GameRecord], today: str) -> int:
    return daily.streak({game.daily for game in games if game.daily}, today)


def history_of(
    places: Places,
    *,
    since: str,
    today: str,
    warn: Warn,
    takebacks: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> History:
    """The player's history: every finished game in their games folder counted (see
    :func:`records`), from the side of the person the settings name (a player of a
    served table), else of the first seat."""
    me = load_settings(places.settings).get("name")
    found = records(
        places.games,
        places.index,
        warn=warn,
        progress=progress,
        reviews=places.reviews,
        me=me if isinstance(me, str) else None,
    )
    return history(found, since, today, takebacks)


class DailyResult(NamedTuple):
    """A finished daily game: the line to share, and the streak of days in a row up to it."""

    share: str
    streak: int

    def as_json(self) -> dict[str, object]:
        """The ``daily`` event of ``--json``."""
        return {"event": "daily", "share": self.share, "streak": self.streak}


def daily_result(places: Places, day: str, warn: Warn) -> DailyResult | None:
    """The day's daily game, if it is finished. Only a log the rules accept counts."""
    found = records(places.games, places.index, warn=warn)
    game = next((g for g in found if g.daily == day), None)
    if game is None:
        return None
    share = daily.share_line(day, game.won, game.scores, game.skunks, game.dealt, game.best_hand)
    return DailyResult(share, _streak(found, day))
