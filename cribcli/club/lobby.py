"""The room ``cribbage serve`` keeps: its tables, who sits where, and the games at them.

No sockets, clock or files here: the server passes the time in, and saves what each
table's game hands it. A table is opened by a person with its rules and how many seats
the computer fills; people sit in the others; the game starts when every seat is taken.
A person who leaves a game in progress is away, not gone: the seat waits for them, and
after the time the table's creator set, the others may let the computer take it (the log
says after how many actions it did).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from itertools import count

from cribcli.players import Level, computer
from cribcli.record.log import CLOCK_LIMITS, GameInfo, Seat, carried
from cribcli.record.session import Session
from cribcli.rules.engine import Action, Rules, ShownDeal, seats_to_act
from cribcli.rules.errors import CribbageError
from cribcli.rules.events import GameOver, game_points
from cribcli.rules.targets import target_of
from cribcli.services.games import computers

AWAY = 180.0
"""Seconds a person may be away from a game before the others may let the computer play
for them (a table's creator may set another)."""
AWAY_LIMIT = 24 * 3600.0
"""The longest a table may wait for a person who is away."""
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,19}")
"""A person's name at a served table: letters, digits, ``-`` and ``_``, at most 20, so
that it is safe as a folder's name and clean on every screen."""
COMPUTER_NAMES = ("Computer", "Robot", "Automaton")
"""The names of the computers at a served table, seat by seat (numbered if need be)."""


RESERVED = frozenset(name.lower() for name in ("You", *COMPUTER_NAMES))
"""Names the narration gives others: nobody plays under them."""


def player_name(text: str) -> str:
    """A name to play under, checked. Raises CribbageError for one that is not."""
    if not NAME_PATTERN.fullmatch(text):
        raise CribbageError(
            "a name is 1 to 20 letters, digits, - or _, starting with a letter or digit"
        )
    if text.lower() in RESERVED:
        raise CribbageError(f"`{text}` is a name the table gives others: choose another")
    return text


@dataclass(frozen=True, slots=True)
class TableSetup:
    """A table as its creator asks for it."""

    players: int = 2
    short: bool = False
    muggins: bool = False
    computers: int = 0
    """How many seats the computer fills (the last ones)."""
    level: Level = Level.NORMAL
    """The computer's level, in its seats and in any it takes over."""
    away: float = AWAY
    private: bool = False
    """Whether the table forbids watchers."""
    best_of: int = 1
    """Games in the match (1: a single game; 3, 5 or 7: the first to win most of them)."""
    clock: int | None = None
    """Seconds each person has for a decision; then the computer makes it for them."""

    def rules(self, first_dealer: int | None = None) -> Rules:
        """The game's rules: the first deal cut for, or given to ``first_dealer`` (two
        players: the loser of a match's last game deals the next, ACC rule 1.5)."""
        return Rules(
            players=self.players,
            target=target_of(self.short),
            cut_for_deal=first_dealer is None,
            first_dealer=first_dealer or 0,
            muggins=self.muggins,
        )

    def describe(self) -> str:
        """``2 seats, to 121, muggins, hard computer``."""
        parts = [f"{self.players} seats", f"to {self.rules().target}"]
        if self.muggins:
            parts.append("muggins")
        if self.computers:
            computers = f"computer{'s' * (self.computers > 1)}"
            if self.level.named:
                parts.append(f"{self.computers} {self.level} {computers}")
            else:
                parts.append(f"{self.computers} {computers} at {self.level.label}")
        if self.best_of > 1:
            parts.append(f"best of {self.best_of}")
        if self.clock is not None:
            parts.append(f"clock {self.clock} s")
        if self.private:
            parts.append("private")
        return ", ".join(parts)


NEW_USAGE = (
    "new [2|3|4] [61] [muggins] [computers N] [easy|normal|hard|level 1-10] [away MINUTES] "
    "[best-of 3|5|7] [clock SECONDS] [private], e.g. `new 2 best-of 3 clock 60`"
)


def parse_setup(words: list[str]) -> TableSetup:
    """A table from the words after ``new``. Raises CribbageError for words it cannot use."""
    setup = TableSetup()
    rest = [word.lower() for word in words]
    while rest:
        word = rest.pop(0)
        if word in ("2", "3", "4"):
            setup = replace(setup, players=int(word))
        elif word in ("61", "short"):
            setup = replace(setup, short=True)
        elif word == "121":
            setup = replace(setup, short=False)
        elif word == "muggins":
            setup = replace(setup, muggins=True)
        elif word == "private":
            setup = replace(setup, private=True)
        elif word in ("best-of", "bestof") and rest and rest[0] in ("1", "3", "5", "7"):
            setup = replace(setup, best_of=int(rest.pop(0)))
        elif re.fullmatch(r"best-of-[1357]", word):
            setup = replace(setup, best_of=int(word[-1]))
        elif word == "clock" and rest and re.fullmatch(r"[0-9]{1,4}", rest[0]):
            seconds = int(rest.pop(0))
            low, high = CLOCK_LIMITS
            if not low <= seconds <= high:
                raise CribbageError(f"a clock gives each decision {low} to {high} seconds")
            setup = replace(setup, clock=seconds)
        elif Level.parse(word) is not None and not word.isdigit():
            setup = replace(setup, level=Level.parse(word) or setup.level)
        elif word == "level" and rest and Level.parse(rest[0]) is not None:
            setup = replace(setup, level=Level.parse(rest.pop(0)) or setup.level)
        elif word in ("computers", "computer") and rest and re.fullmatch(r"[0-4]", rest[0]):
            setup = replace(setup, computers=int(rest.pop(0)))
        elif word == "away" and rest and _minutes(rest[0]) is not None:
            setup = replace(setup, away=60 * (_minutes(rest.pop(0)) or 0.0))
        else:
            raise CribbageError(f"`{word[:20]}` is not something a table has: {NEW_USAGE}")
    if setup.best_of > 1 and setup.players == 3:
        raise CribbageError("a match is between two sides: two players, or four as partners")
    if not 0 <= setup.computers < setup.players:
        raise CribbageError(f"a table of {setup.players} has 0 to {setup.players - 1} computers")
    return setup


def _minutes(text: str) -> float | None:
    if not re.fullmatch(r"\d{1,4}(\.\d{1,3})?", text):
        return None
    minutes = float(text)
    return minutes if 0 <= minutes * 60 <= AWAY_LIMIT else None


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A finished game of a match: the winning side, the scores and the skunks by side."""

    winner: int
    scores: tuple[int, ...]
    skunks: tuple[str, ...]

    @classmethod
    def of(cls, session: Session) -> GameOutcome:
        over = session.events[-1]
        assert isinstance(over, GameOver)
        return cls(over.winner, over.scores, over.skunks)

    def game_points(self) -> tuple[int, ...]:
        """Each side's game points (:func:`cribcli.rules.events.game_points`)."""
        return game_points(self.winner, self.skunks)


class ServedTable:
    """One table: its seats (a person's name, a computer, or open), and its game once
    every seat is taken; with ``best_of`` more than 1, the games of its match, one after
    another."""

    def __init__(
        self,
        number: int,
        creator: str,
        setup: TableSetup,
        save: Callable[[str], None],
        session: Session | None = None,
    ) -> None:
        self.number = number
        self.creator = creator
        self.setup = setup
        self._save = save
        self.session = session
        people = setup.players - setup.computers
        self.people: list[str | None] = [creator] + [None] * (people - 1)
        """The people's seats (the first ones), by name; None: open."""
        self.away: dict[int, float] = {}
        """The seats whose person has left the game in progress, and since when."""
        self.finished: list[GameOutcome] = []
        """The match's games finished before the one at the table."""
        self.filed: list[str] = []
        """The file names the match's games were filed under, in order."""
        self.adjourning: set[str] = set()
        """The people who asked to adjourn the game (all of them: it is adjourned)."""
        self.deadline: float | None = None
        """With a clock: when the people the game waits for run out of time."""
        self.clocked_at: tuple[Session, int] | None = None
        """The game and its number of actions when the clock was last set."""
        if session is not None:  # a game carried on: its seats say who sits where
            seats = session.info.seats
            self.people = [spec.name for spec in seats if spec.player == "human"]

    @classmethod
    def carried_on(
        cls, number: int, session: Session, setup: TableSetup, save: Callable[[str], None]
    ) -> ServedTable:
        """A table whose game was saved (the server stopped): every person is away, since
        ``0`` (the server's start), until they come back."""
        creator = next(spec.name for spec in session.info.seats if spec.player == "human")
        table = cls(number, creator, setup, save, session)
        table.away = {seat: 0.0 for seat in table.human_seats()}
        return table

    # --- seats ------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def over(self) -> bool:
        """Whether the table is done: its game over, and its match decided."""
        return self.session is not None and self.session.over and self.decided(self.outcomes())

    def outcomes(self) -> list[GameOutcome]:
        """The match's finished games, the one at the table too if it is over."""
        done = list(self.finished)
        if self.session is not None and self.session.over:
            done.append(GameOutcome.of(self.session))
        return done

    def decided(self, outcomes: list[GameOutcome]) -> bool:
        """Whether a side has won the match (more than half of ``best_of``)."""
        sides = self.setup.rules().sides
        wins = [sum(o.winner == side for o in outcomes) for side in range(sides)]
        return max(wins) > self.setup.best_of // 2

    def match_line(self) -> str | None:
        """``Match (best of 3): ann 1 game (2 game points), bob 0 (0)``; None for a single
        game."""
        if self.setup.best_of == 1:
            return None
        outcomes = self.outcomes()
        rules = self.setup.rules()
        names = self.names()
        parts = []
        for side in range(rules.sides):
            name = f"{names[side]} & {names[side + 2]}" if rules.players == 4 else names[side]
            wins = sum(o.winner == side for o in outcomes)
            points = sum(o.game_points()[side] for o in outcomes)
            parts.append(f"{name} {wins} (game points {points})")
        return f"Match, best of {self.setup.best_of}: {', '.join(parts)}"

    def human_seats(self) -> list[int]:
        """The seats people sit in (or will): those the computer took over too."""
        if self.session is not None:
            return [n for n, spec in enumerate(self.session.info.seats) if spec.player == "human"]
        return list(range(len(self.people)))

    def seat_of(self, name: str) -> int | None:
        """The seat ``name`` sits in, if any."""
        if self.session is not None:
            seats = self.session.info.seats
            return next(
                (n for n, s in enumerate(seats) if s.player == "human" and s.name == name), None
            )
        return self.people.index(name) if name in self.people else None

    def open_seats(self) -> int:
        return 0 if self.started else self.people.count(None)

    def sit(self, name: str) -> int:
        """Sit ``name`` at this table (back in their seat, if they have one). Raises
        CribbageError if there is no seat for them."""
        seat = self.seat_of(name)
        if seat is not None:
            self.away.pop(seat, None)
            return seat
        if self.started:
            raise CribbageError(f"table {self.number} is playing: no seat is open")
        if None not in self.people:
            raise CribbageError(f"table {self.number} is full")
        seat = self.people.index(None)
        self.people[seat] = name
        return seat

    def stand(self, name: str, now: float) -> None:
        """``name`` leaves the table: before the game, the seat opens again; during it,
        they are away."""
        seat = self.seat_of(name)
        if seat is None:
            return
        if self.started:
            self.away.setdefault(seat, now)
        else:
            self.people[seat] = None

    @property
    def empty(self) -> bool:
        """Whether nobody sits at a table not yet started (it closes)."""
        return not self.started and all(name is None for name in self.people)

    @property
    def deserted(self) -> bool:
        """Whether every person at a started table is away (the table does not count
        against the room's limit: it waits, saved, for them)."""
        return self.started and all(seat in self.away for seat in self.human_seats())

    @property
    def ready(self) -> bool:
        """Whether every seat is taken and the game can begin."""
        return not self.started and None not in self.people

    def start(self, seed: int | str, started: str) -> Session:
        """Begin the game (every seat taken): its log saved at once."""
        names = [name for name in self.people if name is not None]
        robots = [
            Seat(_robot(n, names), "computer", self.setup.level)
            for n in range(self.setup.computers)
        ]
        return self._begin(tuple(Seat(name) for name in names) + tuple(robots), seed, started)

    def next_game(self, seed: int | str, started: str) -> Session:
        """The match's next game, the game at the table over: the same seats (a person
        the computer played for takes the seat again), the first deal to the loser of the
        last game with two players (ACC rule 1.5), cut for with three or four."""
        assert self.session is not None and self.session.over and not self.over
        self.finished = self.outcomes()
        self.adjourning = set()  # (an ask to adjourn was for the last game)
        seats = tuple(
            replace(spec, level=None, taken=None, returned=None) if spec.player == "human" else spec
            for spec in self.session.info.seats
        )
        loser = 1 - self.finished[-1].winner if self.setup.players == 2 else None
        earlier = carried(self.session.state.past)  # (the computer reads the table's people)
        return self._begin(seats, seed, started, first_dealer=loser, earlier=earlier)

    def _begin(
        self,
        seats: tuple[Seat, ...],
        seed: int | str,
        started: str,
        first_dealer: int | None = None,
        earlier: tuple[ShownDeal, ...] = (),
    ) -> Session:
        game = len(self.finished) + 1
        label = f"served table {self.number}"
        if self.setup.best_of > 1:
            label += f", game {game} of a match, best of {self.setup.best_of}"
        info = GameInfo(
            self.setup.rules(first_dealer),
            seats,
            seed,
            started=started,
            label=label,
            clock=self.setup.clock,
            earlier=earlier,
        )
        self.session = Session.start(info, computers(info), self._save)
        return self.session

    # --- people away ------------------------------------------------------------------

    def can_take_over(self, seat: int, now: float) -> bool:
        """Whether the computer may take the seat: its person has been away long enough,
        the game is on, and no computer plays it yet."""
        if self.session is None or self.session.over or seat not in self.away:
            return False
        if self.session.info.seats[seat].played_by_computer:
            return False
        return now - self.away[seat] >= self.setup.away

    def take_over(self, seat: int) -> None:
        """Let the computer play the seat from now to the end (the log says from when)."""
        assert self.session is not None
        session = self.session
        seats = list(session.info.seats)
        seats[seat] = replace(
            seats[seat], level=self.setup.level, taken=len(session.actions), returned=None
        )
        session.info = replace(session.info, seats=tuple(seats))
        session.computers[seat] = computer(self.setup.level, session.info.seed, seat)
        session.save()

    def give_back(self, seat: int) -> None:
        """The person whose seat the computer took plays it again (the log says from
        when)."""
        assert self.session is not None
        session = self.session
        seats = list(session.info.seats)
        seats[seat] = replace(seats[seat], returned=len(session.actions))
        session.info = replace(session.info, seats=tuple(seats))
        session.computers.pop(seat, None)
        session.save()

    def waiting_for_people(self) -> list[int]:
        """The seats of people (the computer not playing them) the game waits for."""
        session = self.session
        if session is None or session.over:
            return []
        seats = session.info.seats
        return [
            seat
            for seat in seats_to_act(session.state)
            if seats[seat].player == "human" and not seats[seat].played_by_computer
        ]

    def out_of_time(self, seat: int, action: Action) -> None:
        """The computer's ``action`` for ``seat``, whose clock ran out, made and logged."""
        assert self.session is not None
        session = self.session
        session.info = replace(
            session.info, timeouts=(*session.info.timeouts, len(session.actions) + 1)
        )
        session.act(action)

    def clock_line(self, now: float) -> str | None:
        """``Clock: ann 0:42`` while the game waits for people with a clock running."""
        if self.deadline is None or self.setup.clock is None:
            return None
        waiting = self.waiting_for_people()
        if not waiting:
            return None
        left = max(0, int(self.deadline - now + 0.999))
        names = ", ".join(self.names()[seat] for seat in waiting)
        return f"Clock: {names} {left // 60}:{left % 60:02}"

    def taken(self, seat: int) -> bool:
        """Whether the computer plays this person's seat now."""
        return self.session is not None and self.session.info.seats[seat].played_by_computer

    def names(self) -> list[str]:
        """Who sits where, seat by seat (open seats as ``-``)."""
        if self.session is not None:
            return [spec.name for spec in self.session.info.seats]
        robots = [_robot(n, []) for n in range(self.setup.computers)]
        return [name or "-" for name in self.people] + robots

    def describe(
        self, now: float, idle: Mapping[str, float] | None = None, watchers: int = 0
    ) -> str:
        """``Table 2: Ann (idle 3m), Bob v Computer (2 seats, to 121): round 3, Ann 45 Bob 38``:
        ``idle``, each person's seconds since they last typed (shown from a minute), and
        how many watch."""
        idle = idle or {}
        seated = ", ".join(name + _idle(idle.get(name)) for name in self.names())
        line = f"Table {self.number}: {seated} ({self.setup.describe()})"
        if watchers:
            line = f"{line} [{watchers} watching]"
        if self.session is None:
            open_seats = self.open_seats()
            return f"{line}: {open_seats} seat{'s' * (open_seats != 1)} open"
        state = self.session.state
        scores = " ".join(str(score) for score in state.scores)
        away = [self.names()[seat] for seat in self.away if not self.taken(seat)]
        gone = f"; away: {', '.join(away)}" if away else ""
        return f"{line}: round {state.round}, scores {scores}{gone}"


def _idle(seconds: float | None) -> str:
    """`` (idle 3m)`` from a minute without a key typed; nothing before."""
    if seconds is None or seconds < 60:
        return ""
    minutes = int(seconds // 60)
    return f" (idle {minutes}m)" if minutes < 60 else f" (idle {minutes // 60}h{minutes % 60:02}m)"


def _robot(number: int, people: list[str]) -> str:
    name = COMPUTER_NAMES[number % len(COMPUTER_NAMES)]
    return name if name not in people else f"{name} {number + 1}"


class Lobby:
    """Every table, by number."""

    def __init__(self, table_limit: int) -> None:
        self.tables: dict[int, ServedTable] = {}
        self.table_limit = table_limit
        self.reserved: set[int] = set()
        """Numbers not to give a new table (a save there could not be carried on)."""

    def open_table(
        self, creator: str, setup: TableSetup, save: Callable[[int], Callable[[str], None]]
    ) -> ServedTable:
        """A new table with ``creator`` in its first seat. Raises CribbageError if the
        room has as many tables as it may, or the creator sits at one already."""
        if sum(not table.deserted for table in self.tables.values()) >= self.table_limit:
            raise CribbageError(f"the room has {self.table_limit} tables, as many as it may")
        sitting = self.table_of(creator)
        if sitting is not None:
            raise CribbageError(f"you sit at table {sitting.number}: `leave` it first")
        number = next(n for n in count(1) if n not in self.tables and n not in self.reserved)
        table = ServedTable(number, creator, setup, save(number))
        self.tables[number] = table
        return table

    def add(self, table: ServedTable) -> None:
        """A table carried on from its save."""
        self.tables[table.number] = table

    def table_of(self, name: str) -> ServedTable | None:
        """The table, not finished, where ``name`` has a seat."""
        return next(
            (t for t in self.tables.values() if not t.over and t.seat_of(name) is not None), None
        )

    def close(self, number: int) -> None:
        self.tables.pop(number, None)
