"""Playing a game from start to end, for the commands that play (``play`` and ``daily``):
holding its save, carrying it on or starting it, keeping it through a failing disk, and
filing it when it is over. Nothing here draws or asks: the caller does, and decides.

The game lives in memory; its log is saved after every move. A save that fails (a full
disk, a folder made read-only, a save taken by another process) is told once, at once;
every later move tries again, and a save that works again is told too. A game left, or
finished, whose log cannot go where it belongs is written to the system's temporary
folder instead, and the caller says where and exits with a status that says so.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from cribcli.players import Level, Objective, Player, computer
from cribcli.players.base import PlayerFailed
from cribcli.protocol.referee import (
    MOVE_TIME,
    Engine,
    EngineCommand,
    EnginePlayer,
    seat_of,
    stop_all,
)
from cribcli.record import daily
from cribcli.record.log import LOG_LIMIT, NAME_LIMIT, GameInfo, Seat
from cribcli.record.reader import loads
from cribcli.record.replay import Replay, replay
from cribcli.record.session import Session, decide
from cribcli.record.store import (
    Places,
    SaveLock,
    StoreError,
    Warn,
    clean_leftovers,
    file_log,
    keep_elsewhere,
    latest_game,
    load_settings,
    read_stream,
    read_text,
    reason,
    save_settings,
    set_aside,
    write_atomic,
)
from cribcli.review.stats import Lost, Reviews, digest_of, remember
from cribcli.rules.engine import Action, Rules, ShownDeal, State
from cribcli.rules.errors import CribbageError, UsageProblem
from cribcli.rules.targets import target_of

if TYPE_CHECKING:
    from cribcli.review.coach import GameReview

Ask = Callable[[str, bool], bool]
"""Asks the player a yes-or-no question, with the answer taken if they just press Enter."""

NAMES = {2: ("Computer",), 3: ("Left", "Right"), 4: ("Left", "Partner", "Right")}
"""The computers' names at a table of 2, 3 or 4 (with 4, the one across is a partner)."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game as asked for. With no level, the one chosen last is played."""

    level: Level | None = None
    objective: Objective = Objective.WIN
    """What the computers play for near the end."""
    seed: int | str | None = None
    """Checked already (:func:`cribcli.record.log.parse_seed`); None: a random one."""
    name: str = "You"
    short: bool = False
    cut: bool = False
    """Cut for the first deal (with 2 players; 3 and 4 always cut)."""
    players: int = 2
    muggins: bool = False
    opponent: EngineCommand | None = None
    """An engine in the computers' seats, instead of a level."""
    earlier: tuple[ShownDeal, ...] = ()
    """The deals shown in the games just before, at the same table (another game, asked
    for at the end of one): the computer reads the player from them too."""
    first_dealer: int | None = None
    """Who deals first, with two players and no cut: the loser of the game before (the
    ACC's rule); None, a first game: the computer (the game's rules, as the spec says)."""


def remembered_level(places: Places) -> Level:
    """The level chosen last (normal, the first time)."""
    level = load_settings(places.settings).get("level")
    return Level.parse(level) or Level.NORMAL


def first_game(places: Places) -> bool:
    """Whether this is the player's first game here (asked once: it is remembered that it
    was, unless the setting cannot be written)."""
    settings = load_settings(places.settings)
    if settings.get("welcomed") is True:
        return False
    with contextlib.suppress(OSError):
        save_settings(places.settings, {**settings, "welcomed": True})
    return True


@dataclass(frozen=True, slots=True)
class OpenedLog:
    """A game log a command was given, read and replayed through the rules."""

    replayed: Replay
    path: str
    """As given (``-`` for standard input), or the one found for ``--last``."""
    text: str


def open_log(
    log: str | None, last: bool, places: Places, stdin: BinaryIO, what: str, warn: Warn
) -> OpenedLog:
    """The game a command is given, LOG (``-``: ``stdin``) or ``last`` (the one finished
    last among ``places``' games), read (bounded, and only from a regular file) and
    replayed through the rules. Raises UsageProblem for neither or both, and
    CribbageError for a log that cannot be read or breaks the rules (named with where
    it goes wrong). ``what`` says what the log is for (``to review``)."""
    if last and log is not None:
        raise UsageProblem("give a game log or --last, not both")
    if last:
        found = latest_game(places.games, warn)
        if found is None:
            raise CribbageError("no finished game yet: play one with 'cribbage play'")
        log = str(found)
    if log is None:
        raise UsageProblem(f"give a game log {what}, '-' for standard input, or --last")
    text = read_log_text(log, stdin)
    try:
        return OpenedLog(replay(loads(text)), log, text)
    except CribbageError as error:
        raise CribbageError(f"{log}: {error}") from None


def read_log_text(log: str, stdin: BinaryIO) -> str:
    """A game log's text, LOG (``-``: ``stdin``), read bounded and only from a regular
    file. Raises CribbageError if it cannot be read."""
    if log == "-":
        return read_stream(stdin, LOG_LIMIT)
    found = read_text(Path(log), LOG_LIMIT)
    if found is None:
        raise CribbageError(f"{log}: cannot read it (No such file or directory)")
    return found


def keep_review(path: Path, places: Places, text: str, lost: Lost, warn: Warn) -> None:
    """A review of one of ``places``' finished games counts in ``stats``: it is kept (one
    that cannot be kept is said, and the command goes on); a log from elsewhere is not."""
    try:
        if path.resolve().parent != places.games.resolve():
            return
        Reviews(places.reviews).keep(path.name, digest_of(text), lost)
    except OSError as error:
        warn(f"cannot keep the review for 'cribbage stats' in {places.reviews} ({reason(error)})")


def review_log(
    opened: OpenedLog,
    places: Places,
    warn: Warn,
    *,
    seat: int | None = None,
    round_number: int | None = None,
    open_play: bool = False,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
) -> GameReview:
    """A game's decisions judged (:func:`cribcli.review.coach.review_seats`): ``seat``'s in
    detail, by default the seat of the person whose games the log is among, and every
    seat's, by seat, for their grades; a whole game of two, its luck too. A whole
    finished game of theirs, reviewed for them, is kept for ``stats``."""
    from cribcli.review.coach import GameReview, default_seat, lays_lost, review_seats
    from cribcli.review.luck import luck_of
    from cribcli.review.story import chances

    info, replayed = opened.replayed.log.info, opened.replayed
    player = None if opened.path == "-" else player_of(Path(opened.path), places)
    own = default_seat(info, player)
    chosen = own if seat is None else seat
    every = review_seats(
        info,
        replayed.actions,
        [chosen, *(n for n in range(info.rules.players) if n != chosen)],
        round_number=round_number,
        open_play=open_play,
        progress=progress,
        jobs=jobs,
    )
    judged = every[0]
    whole = round_number is None and replayed.finished and opened.path != "-"
    if judged.seat == own and whole:
        keep_review(Path(opened.path), places, opened.text, judged.as_lost(), warn)
    luck = luck_of(replayed.events, lays_lost(every)) if round_number is None else None
    side = info.rules.side_of(judged.seat)
    story = chances(info, replayed.events, side) if round_number is None else []
    every_seat = tuple(sorted(every, key=lambda review: review.seat))
    return GameReview(judged, every_seat, luck, tuple(story))


def player_of(log: Path, places: Places) -> str | None:
    """Whose games ``log`` was filed among, as their folder's settings name them (a served
    table's player: the server keeps a folder for each person); None if not known."""
    folder = log.resolve().parent
    base = folder.parent
    for owner in (places, Places(base, base, base)):
        if owner.games.resolve() == folder:
            name = load_settings(owner.settings).get("name")
            return name if isinstance(name, str) else None
    return None


def coach_wanted(places: Places, asked: bool | None) -> bool:
    """Whether the coach sits with the player: as asked (and remembered for next time),
    else as asked last (not the first time)."""
    settings = load_settings(places.settings)
    if asked is None:
        return settings.get("coach") is True
    if settings.get("coach") != asked:
        with contextlib.suppress(OSError):
            save_settings(places.settings, {**settings, "coach": asked})
    return asked


def game_info(new: NewGame, places: Places) -> GameInfo:
    """What a new game is: its rules, seats, seed and start. The level played is
    remembered for next time (a setting that cannot be written is no reason to stop)."""
    level = new.level or remembered_level(places)
    settings = load_settings(places.settings)
    if settings.get("level") != level:
        with contextlib.suppress(OSError):
            save_settings(places.settings, {**settings, "level": str(level)})
    # 128 random bits, as hexadecimal text (a TOML reader need not hold a number that big):
    # the digest shown before the first card gives nothing away
    seed = new.seed if new.seed is not None else os.urandom(16).hex()
    rules = Rules(
        players=new.players,
        target=target_of(new.short),
        cut_for_deal=new.cut or new.players > 2,
        first_dealer=1 if new.first_dealer is None else new.first_dealer,
        muggins=new.muggins,
    )
    seats = (Seat(new.name, "human"),) + tuple(
        Seat(name, "engine", command=new.opponent.command)
        if new.opponent
        else Seat(
            name,
            "computer",
            level,
            objective=None if new.objective is Objective.WIN else new.objective,
        )
        for name in NAMES[new.players]
    )
    return GameInfo(rules, seats, seed, started=started_now(), earlier=new.earlier)


def started_now() -> str:
    """When a game begins, as its log says it: the local time to the second, ISO 8601."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


def filed_today(what: str) -> str:
    """The name a game finished today is filed under: ``DATE-WHAT``."""
    return f"{datetime.now().strftime('%Y-%m-%d')}-{what}"


@dataclass(frozen=True, slots=True)
class Kind:
    """Which game a command plays: ``play``'s game, or the daily game of ``day``. Each
    has its own save, its way back, how a new one is made, and its name when filed."""

    day: str | None = None

    @property
    def slot(self) -> str:
        """The save's slot: ``game``, or ``daily-DATE``."""
        return daily.name(self.day) if self.day else "game"

    @property
    def command(self) -> str:
        """How the player comes back to the game."""
        return daily.command(self.day) if self.day else "cribbage play"

    def info(self, new: NewGame, places: Places) -> GameInfo:
        """A new game of this kind (a daily game takes only the name and muggins)."""
        return daily.info(self.day, new.name, new.muggins) if self.day else game_info(new, places)

    def filed_name(self, info: GameInfo) -> str:
        """The name the finished game is filed under: ``DATE-seed-SEED`` or ``daily-DATE``."""
        if self.day:
            return daily.name(self.day)
        return filed_today(f"seed-{info.seed}")


def describe(session: Session) -> str:
    """A game in a few words, side by side: ``You 45 v Computer 38 (hard), round 4``
    (with four players, ``You & Partner 45 v Left & Right 38``)."""
    info, state = session.info, session.state
    rules = info.rules
    level = next((seat.level for seat in info.seats if seat.level), None)
    sides = [
        " & ".join(seat.name for s, seat in enumerate(info.seats) if rules.side_of(s) == side)
        for side in range(rules.sides)
    ]
    scores = " v ".join(f"{name} {score}" for name, score in zip(sides, state.scores, strict=True))
    return f"{scores}{f' ({level.label})' if level else ''}, round {state.round}"


def no_takebacks(info: GameInfo) -> str | None:
    """Why moves cannot be taken back in this game (None: they can). A takeback is for
    practice: not in the daily game, which everyone plays alike, nor under muggins."""
    if daily.day_played(info):
        return "no takebacks in the daily game: everyone plays it alike"
    if info.rules.muggins:
        return "no takebacks under muggins"
    if any(seat.player == "engine" for seat in info.seats):
        return "no takebacks against an engine: it has seen the moves"
    return None


def computers(info: GameInfo) -> dict[int, Player]:
    """The computer players of a game, by seat, with the seats they took over (not its
    engines: see :func:`seated`)."""
    return {
        seat: computer(spec.level or Level.NORMAL, info.seed, seat, spec.objective or Objective.WIN)
        for seat, spec in enumerate(info.seats)
        if spec.played_by_computer
    }


def decided_for(info: GameInfo, state: State, seat: int, level: str) -> Action:
    """What the computer at ``level`` would do in a person's ``seat`` now (their clock ran
    out): for a worker process, as :func:`computer_action`."""
    return decide(state, computer(Level(level), info.seed, seat), seat)


def computer_action(info: GameInfo, state: State, seat: int) -> Action:
    """What the computer in ``seat`` (one the game waits for) does now, or its forfeit:
    for a worker process, given only what pickles (a server decides out of its loop)."""
    return decide(state, computers(info)[seat], seat)


def seated(
    info: GameInfo, opponent: EngineCommand | None, move_time: float, *, new: bool
) -> tuple[GameInfo, dict[int, Player]]:
    """The players of a game's computer seats, by seat: a level's computer, or in an
    engine's seat ``opponent``'s program, started now (never the command a log names: a
    file is no reason to run a program). A new game's engine seats take the names the
    engines give. Raises UsageProblem for an engine game without ``opponent``, or
    ``opponent`` for a game without engines, and CribbageError for an engine that cannot
    start."""
    players = computers(info)
    engine_seats = [seat for seat, spec in enumerate(info.seats) if spec.player == "engine"]
    if not engine_seats:
        if opponent is not None:
            raise UsageProblem(
                "the saved game is against the computer, not an engine: leave --opponent "
                "out to carry it on, or add --new to abandon it"
            )
        return info, players
    if opponent is None:
        raise UsageProblem(
            f"the saved game is against the engine {info.seats[engine_seats[0]].name}: "
            "carry it on with --opponent 'engine:CMD', or add --new to abandon it"
        )
    logged = {info.seats[seat].command for seat in engine_seats}
    if not new and logged != {opponent.command}:
        raise UsageProblem(
            f"the saved game is against the engine `{' '.join(sorted(map(str, logged)))}`, "
            f"not `{opponent.command}`: carry it on with that one, or add --new"
        )
    seats = list(info.seats)
    engines = {}
    for seat in engine_seats:
        engine = engines[seat] = Engine(opponent, move_time)
        try:
            engine.start()
        except PlayerFailed as failure:
            stop_all()
            raise CribbageError(f"the engine `{opponent.command}` cannot play: {failure}") from None
        if new:
            seats[seat] = replace(seat_of(engine), name=engine.name or seats[seat].name)
    if new and len(engine_seats) > 1:  # the same program in several seats: told apart
        for seat in engine_seats:
            seats[seat] = replace(seats[seat], name=f"{seats[seat].name[: NAME_LIMIT - 3]} {seat}")
    info = replace(info, seats=tuple(seats))
    players.update({seat: EnginePlayer(engine, info, seat) for seat, engine in engines.items()})
    return info, players


class Resumed(NamedTuple):
    """A save read back: its game and its text; or, if there was something else there,
    why it could not be carried on and where it was set aside (a new game may take its
    place)."""

    session: Session | None
    text: str = ""
    why: str | None = None
    kept: Path | None = None


def resume_or_set_aside(
    path: Path, save: Callable[[str], None], refuse: Callable[[GameInfo], str | None] | None = None
) -> Resumed:
    """The game saved at ``path``, carried on (its computers not yet seated), saving with
    ``save``; nothing if there is no save. Anything there that is not a readable game log
    (or that ``refuse`` gives a reason not to carry on) is set aside, and why said.
    Raises StoreError if it cannot be moved aside."""
    try:
        text = read_text(path, LOG_LIMIT, follow_links=False)
        if text is None:
            return Resumed(None)
        log = loads(text)
        refused = refuse(log.info) if refuse is not None else None
        if refused is not None:
            raise CribbageError(refused)
        return Resumed(Session.resume(log, {}, save), text)
    except (CribbageError, ValueError, RecursionError) as error:  # whatever the save holds
        why = str(error).removeprefix(f"{path}: ")
        try:
            kept = set_aside(path)
        except OSError as problem:
            raise StoreError(
                f"the saved game {path} could not be read ({why}) nor moved aside "
                f"({reason(problem)})"
            ) from None
        return Resumed(None, why=why, kept=kept)


def file_finished(
    places: Places, name: str, text: str, session: Session, player: str | None = None
) -> Path:
    """File a finished game's log (``text``) with ``places``' games as ``NAME``, and
    remember it for ``stats``, from ``player``'s seat (the first person's if None).
    Raises OSError if it cannot be filed."""
    path = file_log(places.games, name, text)
    remember(places.index, path, session.info, session.events, text, player)
    return path


class Saver:
    """Saves the log after every move, and knows whether the save holds the latest."""

    def __init__(
        self,
        path: Path,
        warn: Warn,
        *,
        lock: SaveLock | None = None,
        copy: Path | None = None,
    ) -> None:
        self.path = path
        self.copy = copy
        """Another place the log is written after every move (``--log``)."""
        self.lock = lock
        self.warn = warn
        self.text = ""
        """The latest log, kept in memory whatever happened to its saves."""
        self.failing: dict[Path, str] = {}
        """The places the last save could not be written to, and why."""

    @property
    def saved(self) -> bool:
        """Whether the save holds the latest log."""
        return self.path not in self.failing

    def __call__(self, text: str) -> None:
        self.text = text
        for path in (self.path, self.copy):
            if path is not None:
                self._write(path, text)

    def _write(self, path: Path, text: str) -> None:
        try:
            if path == self.path and self.lock is not None and not self.lock.held():
                raise OSError(
                    errno.EBUSY,
                    f"another cribbage (process {self.lock.taken_by}) took this game "
                    "after its lock file was removed",
                )
            write_atomic(path, text)
        except OSError as error:
            if path not in self.failing:
                self.warn(
                    f"cannot save to {path} ({reason(error)}): the game goes on, and saving "
                    "is tried again after every move"
                )
            self.failing[path] = reason(error)
            return
        if self.failing.pop(path, None) is not None:
            self.warn(f"saving to {path} works again: the game is saved")

    def keep(self, name: str) -> Path | None:
        """For a game left unsaved: write its latest log to the temporary folder and say
        where, and move the out-of-date save aside so that it is not carried on by
        mistake. None if even the temporary folder fails (the caller must show the log)."""
        why = self.failing.get(self.path, "")
        try:
            kept = keep_elsewhere(name, self.text)
        except OSError as error:
            self.warn(
                f"cannot save to {self.path} ({why}) nor to a temporary file ({reason(error)})"
            )
            return None
        stale = ""
        if (self.lock is None or self.lock.held()) and os.path.lexists(self.path):
            try:
                stale = f" (the out-of-date save is kept as {set_aside(self.path, 'stale')})"
            except OSError:
                stale = " (the save there now is out of date)"
        self.warn(
            f"cannot save to {self.path} ({why}): the game is kept in {kept}; "
            f"move it to {self.path} to carry it on{stale}"
        )
        return kept


@dataclass(frozen=True, slots=True)
class Filed:
    """Where a finished game's log went: ``path`` (None if nowhere: show it), and whether
    all went well (filed with the games, and the save put away)."""

    path: Path | None
    ok: bool


def _file(saver: Saver, places: Places, name: str, session: Session) -> Filed:
    """File a finished game's log, written from memory (never the save, which may be
    stale), with ``places``' games (:func:`file_finished`); then remove the save. A log
    that cannot be filed is kept in the temporary folder instead."""
    games = places.games
    if saver.failing.get(saver.path):
        saver.warn(
            f"saving to {saver.path} was failing until the end "
            f"({saver.failing[saver.path]}); the finished game is filed from memory"
        )
    try:
        filed = file_finished(places, name, saver.text, session)
        ok = True
    except OSError as error:
        saver.warn(f"cannot file the finished game in {games} ({reason(error)})")
        try:
            filed = keep_elsewhere(name, saver.text)
        except OSError as problem:
            saver.warn(f"cannot write it to a temporary file either ({reason(problem)})")
            return Filed(None, False)  # the save stays: it may be the only copy on disk
        saver.warn(
            f"the finished game's log is kept in {filed}: move it into {games} for "
            "'cribbage replay --last' and 'cribbage stats'"
        )
        ok = False
    return Filed(filed, _put_away(saver) and ok)


def _put_away(saver: Saver) -> bool:
    """Remove the save of a game filed (unless another process has taken it). False if it
    is left behind, which the player is told."""
    if saver.lock is not None and not saver.lock.held():
        return True
    try:
        with contextlib.suppress(FileNotFoundError):
            saver.path.unlink()
    except OSError as error:
        saver.warn(
            f"the save {saver.path} could not be removed ({reason(error)}): remove it, or "
            "the next game carries on from it"
        )
        return False
    return True


@dataclass(frozen=True, slots=True)
class Left:
    """Where a game left before its end stands: saved where it lives, or kept elsewhere
    (``kept``; None if even that failed: the caller must show ``text``)."""

    saved: bool
    kept: Path | None
    text: str


class HeldGame:
    """A game's save, held by this process (no other ``cribbage`` can play it meanwhile)
    while its game is carried on or started, played, and left or filed.

    Use it as a context manager; :meth:`saved`, then :meth:`start` or the session
    :meth:`saved` gives, then :meth:`leave` or :meth:`finish`.
    """

    def __init__(
        self,
        places: Places,
        kind: Kind,
        warn: Warn,
        copy: Path | None = None,
        *,
        opponent: EngineCommand | None = None,
        move_time: float = MOVE_TIME,
    ) -> None:
        self.places = places
        self.kind = kind
        self.opponent = opponent
        self.move_time = move_time
        self.path = places.save(kind.slot)
        self.warn = warn
        self._lock = SaveLock(self.path, warn=warn)
        self.saver = Saver(self.path, warn, lock=self._lock, copy=copy)

    def __enter__(self) -> HeldGame:
        self._lock.__enter__()
        try:
            clean_leftovers(self.path)
        except BaseException:
            self._lock.__exit__(None, None, None)
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        stop_all()  # the engines at the table, if any
        self._lock.__exit__(kind, error, trace)

    def saved(self) -> Session | None:
        """The game in progress, carried on from its save (its computers not yet
        seated: see :meth:`carry_on`); None if there is none.
        Anything at the save's path that is not a readable game log is set aside (and
        told): a new game can start. Raises StoreError if it cannot be moved aside."""
        resumed = resume_or_set_aside(self.path, self.saver)
        if resumed.kept is not None:
            self.warn(
                f"the saved game could not be read ({resumed.why}); it is kept as "
                f"{resumed.kept}: a new game starts"
            )
        self.saver.text = resumed.text
        return resumed.session

    def carry_on(
        self, *, abandon: bool, new_options: Sequence[str], ask: Ask | None
    ) -> Session | None:
        """The saved game, if there is one and the player carries it on; None to start
        a new one. ``abandon`` (``--new``) throws it away, if ``ask`` agrees (None: there
        is nobody to ask). Options only a new game takes (``new_options``) with a game in
        progress are a UsageProblem, unless ``ask`` agrees to abandon the game. Its
        computers and engines are seated (see :func:`seated`). An engine whose program
        cannot be found is a CribbageError before anything is abandoned."""
        if self.opponent is not None:
            self.opponent.check_found()
        session = self._kept_on(abandon=abandon, new_options=new_options, ask=ask)
        if session is not None:
            _, session.computers = seated(session.info, self.opponent, self.move_time, new=False)
        return session

    def _kept_on(
        self, *, abandon: bool, new_options: Sequence[str], ask: Ask | None
    ) -> Session | None:
        session = self.saved()
        if session is None:
            return None
        if abandon:
            if ask and not ask("Abandon the saved game and start a new one?", False):
                return session
            self.abandon()
            return None
        if new_options:
            if ask is None:
                given = ", ".join(f"--{name}" for name in new_options)
                raise UsageProblem(
                    f"a saved game is in progress, and {given} would start a new one: add "
                    "--new to abandon it, or leave them out to carry it on"
                )
            question = f"A game is in progress: {describe(session)}. Carry it on?"
            if not ask(question, True):
                if not ask("Abandon that game for good, and start a new one?", False):
                    return session
                self.abandon()
                return None
        return session

    def abandon(self) -> None:
        """Throw the saved game away (if it cannot be removed, the next save replaces it)."""
        with contextlib.suppress(OSError):
            self.path.unlink()

    def start(self, info: GameInfo) -> Session:
        """A new game, saved at once."""
        info, players = seated(info, self.opponent, self.move_time, new=True)
        return Session.start(info, players, self.saver)

    def leave(self, name: str) -> Left:
        """The game is left before its end: saved where it lives if it can be (the save is
        tried once more), else kept in the temporary folder as ``save-NAME``."""
        if not self.saver.saved:
            self.saver(self.saver.text)  # the disk may have room now
        if self.saver.saved:
            return Left(True, None, self.saver.text)
        return Left(False, self.saver.keep(f"save-{name}"), self.saver.text)

    def finish(self, session: Session, name: str, lost: Lost | None = None) -> Filed:
        """File the finished game as ``NAME`` with the games (from memory), remember it
        for ``stats`` (with what its review found, if the coach reviewed it), and put the
        save away."""
        filed = _file(self.saver, self.places, name, session)
        if filed.path is not None and lost is not None:
            keep_review(filed.path, self.places, self.saver.text, lost, self.saver.warn)
        return filed
