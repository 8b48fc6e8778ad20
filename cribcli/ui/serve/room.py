"""The room of ``cribbage serve``: the people connected, what happens at each table told
to the people at it, and the computers playing their seats, each decision in a worker
process so that no table waits for another's search. Its games on disk are
:class:`cribcli.club.served.ServedGames`'; its people's terminals, :mod:`cribcli.ui.serve.ssh`'s.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import time
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Protocol

from cribcli.club.database import digest_of
from cribcli.club.lobby import Lobby, ServedTable
from cribcli.club.served import ServedGames, open_club
from cribcli.club.wire import Told, Wire
from cribcli.record.reader import loads
from cribcli.record.store import Places, StoreError, reason
from cribcli.rules.errors import CribbageError, printable
from cribcli.rules.events import GameOver
from cribcli.services.elsewhere import Elsewhere
from cribcli.services.games import computer_action, decided_for
from cribcli.ui import PACE
from cribcli.ui.serve.capacity import measure
from cribcli.ui.serve.guard import OUTPUT_LIMIT, Bucket
from cribcli.ui.serve.share import CPU_A_SECOND, CPU_AT_ONCE, Share

ADJOURNED_EACH = 20
"""The most adjourned games one person may have."""
TALK_A_SECOND = 0.5
"""Things a person may say (`say`, `tell`) a second, on average."""
TALK_AT_ONCE = 5
"""Things a person may say at once."""
RATE_AGAIN_FIRST = 1.0
"""Seconds before a game's rating is tried again, the store having been busy (doubled
each time, to :data:`RATE_AGAIN_MOST`)."""
RATE_AGAIN_MOST = 15.0


class Present(Protocol):
    """A person connected to the room, as the room sees them: where they sit or watch,
    and what it may tell them or do to their connection (the visitor is
    :class:`cribcli.ui.serve.visitor.Visitor`, which the room does not import)."""

    @property
    def name(self) -> str: ...

    @property
    def table(self) -> ServedTable | None:
        """The table this person sits at, if any."""

    @property
    def watched(self) -> ServedTable | None:
        """The table this person watches, if any."""

    @property
    def idle(self) -> float:
        """Seconds since this person last typed a key."""

    def say(self, line: str) -> None:
        """A line to this person, from their own connection's task."""

    def tell(self, lines: Iterable[str]) -> None:
        """Lines to this person from anywhere, shown above their prompt soon."""

    def wake(self) -> None:
        """Something changed where this person is: their screen is brought up to date."""

    def unseat(self) -> None:
        """This person no longer sits at their table (it closed, or they left it on
        another connection)."""

    def unwatch(self) -> None:
        """This person no longer watches the table (it closed)."""

    def close(self, why: str) -> None:
        """Close this person's connection, telling them why."""


AS_MANY_AS_FIT = 0
"""``Limits.connections`` when not given: as many as the machine holds, worked out as the
room opens."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one connection, and the room, may do."""

    connections: int = AS_MANY_AS_FIT
    """Connections at once, in all (:data:`AS_MANY_AS_FIT`: what the open files and the
    memory hold, :mod:`~cribcli.ui.serve.capacity`)."""
    per_key: int = 3
    """Connections at once under one name (one key)."""
    tables: int = 50
    idle: float = 1800.0
    """Seconds without a key pressed before a connection is closed."""
    line: int = 200
    """The longest line a person may type."""
    rate: int = 20
    """The most lines (and window resizes) a second, over a few seconds."""
    login: float = 30.0
    """Seconds a new connection has to log in."""
    starting: int = 10
    """Connections not yet logged in, beyond which new ones are dropped at random (30%
    at first, more as they grow), as OpenSSH's ``MaxStartups 10:30:100``; they have
    their own places, apart from the people's."""
    starting_full: int = 100
    """Connections not yet logged in beyond which every new one is dropped."""
    starting_per_address: int = 10
    """Connections not yet logged in from one address."""
    new_names_per_hour: int = 5
    """With --open: new names one address may give in an hour."""
    names: int = 10_000
    """With --open: the most names the server keeps."""
    forget_after: float = 30 * 86_400.0
    """With --open: seconds after which a name that never finished a game is forgotten."""
    output: int = OUTPUT_LIMIT
    """Bytes of one connection's output that may wait unsent: a client that stops
    reading is cut, not fed."""
    cpu: float = CPU_A_SECOND
    """CPU seconds a second one connection's work may take, on average."""
    cpu_at_once: float = CPU_AT_ONCE
    """CPU seconds it may take at once."""


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """What ``cribbage serve`` was asked for."""

    root: Path
    """The server's data folder: host key, tables in play, and each player's folder."""
    host: str = "127.0.0.1"
    port: int = 2222
    authorized_keys: Path | None = None
    open: bool = False
    scheduler: str | None = None
    """The Dask scheduler whose cluster decides for the computers (None: this machine's
    worker processes)."""
    store: str | None = None
    """The PostgreSQL store the club shares with other servers (None: the folder's own)."""
    limits: Limits = Limits()
    pace: float = PACE
    """Seconds between the computers' moves, so that people can follow them."""


class Room:
    """The server's state: the lobby, the people connected, and each table's computer."""

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.capacity = measure()  # (the open files raised as the room opens)
        self.limits = options.limits
        if self.limits.connections == AS_MANY_AS_FIT:
            self.limits = replace(self.limits, connections=self.capacity.connections)
        self.lobby = Lobby(self.limits.tables)
        self.club = open_club(options.root, options.store)
        """The accounts, the ratings, the indexes of games (the logs stay the truth)."""
        self.games = ServedGames(options.root, self.lobby, self._warn_table, self.club)
        self.visitors: list[Present] = []
        self.drivers: dict[int, asyncio.Task[None]] = {}
        self.elsewhere = Elsewhere(scheduler=options.scheduler, told=lambda line: self.log(line))
        """Where the computers decide, and hints and reviews are worked out: off the event
        loop, in worker processes or on a cluster."""
        self.started = time.monotonic()
        self.told: Callable[[str], None] = lambda line: None
        """The operator's log: a line for each thing that happens in the room."""
        self.mutes: dict[str, set[str]] = {}
        """Whom each person (by name in lower case) has muted, while the server runs."""
        self.talk: dict[str, Bucket] = {}
        """What each person may still say at once (by name in lower case)."""
        self.shares: dict[str, Share] = {}
        """Each person's share of the CPU (by name in lower case)."""
        self.clocks: dict[int, asyncio.TimerHandle] = {}
        """Each clocked table's running clock."""
        self.rating: set[asyncio.Task[None]] = set()
        """The finished games being rated (tried again while the store is busy)."""
        self.around: dict[int, list[Present]] = {}
        """Who sits at or watches each table, by the table's id (kept while anyone does,
        so the id is the table's alone): see :meth:`placed`."""
        self.here: set[int] = set()
        """The ids of the visitors in the room (whose places :attr:`around` keeps)."""
        self.errands: set[asyncio.Task[None]] = set()
        """Things on their way that nobody waits for (a word to another server)."""
        self.wire: Wire | None = None
        """The line to the club's other servers, in a shared store."""
        if self.club.shared and options.store is not None:
            self.wire = Wire(self.club, options.store, self._heard, self.people_here, self.log)

    def log(self, line: str) -> None:
        """Tell the operator, with the time: who came and went, what the tables did."""
        self.told(f"{datetime.now().strftime('%Y-%m-%d %H:%M:%S')} {line}")

    def places(self, name: str) -> Places:
        """A person's own folder (see :meth:`ServedGames.places`)."""
        return self.games.places(name)

    def _warn_table(self, number: int) -> Callable[[str], None]:
        def warn(line: str) -> None:
            self.log(f"table {number}: {line}")
            table = self.lobby.tables.get(number)
            for visitor in self.at(table) if table else []:
                visitor.tell([f"  the server {line}"])

        return warn

    def for_people(self, text: str) -> str:
        """``text`` as a person connected may read it: the server's own folders named
        from its data folder, never by their whole path (which is the operator's)."""
        root = str(self.options.root)
        return text.replace(root + os.sep, "").replace(root, "the server's folder")

    def now(self) -> float:
        return time.monotonic() - self.started

    def carry_on(self) -> list[str]:
        """Every table saved when the server stopped, back in the room, everyone away, its
        computers playing (one that ended as the server stopped is filed now). Returns
        what could not be carried on, to be told."""
        tables, problems = self.games.carry_on()
        for table in tables:
            assert table.session is not None
            if table.session.over:
                self.finish(table)
            else:
                self.drive(table.number)
        return problems

    # --- tables ------------------------------------------------------------------------

    def at(self, table: ServedTable) -> list[Present]:
        """The visitors seated at ``table`` (that very table: numbers are used again)."""
        return [v for v in self.around.get(id(table), ()) if v.table is table]

    def watching(self, table: ServedTable) -> list[Present]:
        """The visitors watching ``table``."""
        return [v for v in self.around.get(id(table), ()) if v.watched is table]

    def placed(
        self, visitor: Present, before: ServedTable | None, after: ServedTable | None
    ) -> None:
        """``visitor`` sat at or watched ``before`` and now ``after`` (either None): the
        index of who is at each table kept, so that a move at one wakes its own people
        without a look at everyone in the room."""
        if before is after or id(visitor) not in self.here:
            return
        if before is not None:
            around = self.around.get(id(before), [])
            if visitor in around:
                around.remove(visitor)
            if not around:
                self.around.pop(id(before), None)
        if after is not None:
            self.around.setdefault(id(after), []).append(visitor)

    def kept_apart(self, speaker: str, hearer: str) -> str | None:
        """Why what ``speaker`` says privately may not reach ``hearer`` now (None: it
        may), by person, whatever connections they use. While a game runs, its watchers
        and its players do not tell each other anything, either way (a watcher's word
        could help a player; a player's invites one back): they talk again when it is
        over. Players of one game that runs talk only where the whole table hears
        (partners hold cards in common)."""
        for watcher, player in ((speaker, hearer), (hearer, speaker)):
            for visitor in self.named(watcher):
                table = visitor.watched
                running = table is not None and table.started and not table.over
                if running and table is not None and table.seat_of(player) is not None:
                    if watcher == speaker:
                        return f"{hearer} plays at the table you watch: not while the game runs"
                    return f"{hearer} watches your game: not while it runs"
        mine = self.lobby.table_of(speaker)
        if mine is not None and mine.started and mine is self.lobby.table_of(hearer):
            return f"{hearer} plays at your table: `say` there, and the whole table hears"
        return None

    def share_of(self, name: str) -> Share:
        """A person's share of the server's CPU, whatever connections they use: over it,
        every one of them is closed."""
        key = name.lower()
        if key not in self.shares:

            def over() -> None:
                self.log(f"{name} used more of the server than anyone may: closed")
                for visitor in self.named(name):
                    visitor.close("using more of the server than anyone may")

            self.shares[key] = Share(over, self.limits.cpu, self.limits.cpu_at_once)
        return self.shares[key]

    def muted(self, listener: str, speaker: str) -> bool:
        """Whether ``listener`` has muted ``speaker`` (names, whatever their case)."""
        return speaker.lower() in self.mutes.get(listener.lower(), set())

    def may_talk(self, name: str) -> bool:
        """Whether ``name`` may say one more thing now (:data:`TALK_A_SECOND`, a few at
        once): talk is for people, not a flood."""
        bucket = self.talk.setdefault(name.lower(), Bucket(TALK_A_SECOND, TALK_AT_ONCE))
        return bucket.take(1, time.monotonic())

    def changed(self, table: ServedTable | None = None) -> None:
        """Something happened at ``table``: wake the people at it, and its computer; or
        (None) in the room: wake everyone. A move wakes only its own table: a room of
        many tables must not redraw every prompt for each."""
        for visitor in self.visitors if table is None else self.around.get(id(table), ()):
            if table is None or visitor.table is table or visitor.watched is table:
                visitor.wake()
        if table is not None and table.setup.clock is not None:
            self._set_clock(table)
        if table is not None:
            self.drive(table.number)

    def start(self, table: ServedTable) -> None:
        """Every seat is taken: the game begins."""
        session = self.games.start(table)
        names = " v ".join(printable(spec.name) for spec in session.info.seats)
        self.log(f"table {table.number} begins: {names} ({table.setup.describe()})")
        self.changed(table)

    def drive(self, number: int) -> None:
        """Make sure table ``number``'s computers play when the game waits for them."""
        task = self.drivers.get(number)
        if task is None or task.done():
            self.drivers[number] = asyncio.get_running_loop().create_task(
                self._drive(number),
                context=contextvars.Context(),  # (the room's: nobody's)
            )

    async def _drive(self, number: int) -> None:
        while True:
            table = self.lobby.tables.get(number)
            if table is None or table.session is None:
                return
            session = table.session
            if session.over:
                self.finish(table)
                if table.over or table.session is session:
                    return
                continue  # a match's next game: its computers play on
            if session.computer_to_act() is None:
                return
            await asyncio.sleep(self.options.pace)  # (meanwhile a person may act, or sit)
            if self.lobby.tables.get(number) is not table:
                return  # adjourned (or closed) meanwhile
            seat = session.computer_to_act()
            if seat is None or table.session is not session:
                continue
            state = session.state
            try:  # decided elsewhere: the loop, and the other tables, go on
                action = await self.elsewhere.run(computer_action, session.info, state, seat)
                if self.lobby.tables.get(number) is not table:
                    return  # adjourned (or closed) meanwhile
                if session.state is not state or seat not in session.computers:
                    continue  # a person acted meanwhile, or took the seat back
                session.act(action)
            except Exception as error:  # a bug: say so, and leave the game as it stands
                for visitor in self.at(table):
                    visitor.tell([f"  the computer could not play ({error}): the game is saved"])
                return
            self.changed(table)

    # --- adjourning --------------------------------------------------------------------

    async def adjourn(self, visitor: Present, table: ServedTable) -> None:
        """``visitor`` asks to adjourn ``table``'s game: once every person in it has, the
        game is put away (``adjourned`` lists it, ``resume`` carries it on) and the table
        closes; until then the others are asked."""
        if table.session is None or table.session.over:
            raise CribbageError("no game is going on at this table: nothing to adjourn")
        seats = table.session.info.seats
        people = {spec.name for spec in seats if spec.player == "human"}
        if len(people) < 2:
            raise CribbageError(
                "a game against the computer waits for you anyway: `leave` it and `join` "
                "it again (it is not adjourned, so it is rated when it ends)"
            )
        kept = await asyncio.to_thread(self.games.adjourned, visitor.name)
        if len(kept) >= ADJOURNED_EACH:
            raise CribbageError(
                f"you have {ADJOURNED_EACH} adjourned games: finish one (`resume`) first"
            )
        if self.lobby.tables.get(table.number) is not table or table.session.over:
            raise CribbageError("the game is over, or adjourned already: nothing to adjourn")
        table.adjourning.add(visitor.name)
        waiting = sorted(people - table.adjourning)
        if waiting:
            visitor.say(f"  You ask to adjourn; waiting for {', '.join(waiting)} to agree.")
            self.tell_table(
                table, f"{visitor.name} asks to adjourn the game: `adjourn` agrees.", but=visitor
            )
            return
        for task in (self.drivers.pop(table.number, None), self.clocks.pop(table.number, None)):
            if task is not None:
                task.cancel()  # a computer's move or a clock on its way stops here
        try:
            key = self.games.adjourn(table)
        except (OSError, CribbageError) as error:
            asked = set(table.adjourning)
            table.adjourning.clear()
            why = reason(error) if isinstance(error, OSError) else str(error)
            self.log(f"table {table.number}'s game could not be adjourned: {why}")
            line = f"  The game could not be put away ({why}): it plays on."
            for other in self.at(table):
                if other is not visitor and other.name in asked:
                    other.tell([line])
            raise CribbageError(f"the game could not be put away ({why}): it plays on") from None
        self.log(f"table {table.number} adjourned as {key} ({', '.join(sorted(people))})")
        line = (
            f"  Table {table.number} is adjourned, its game saved: `adjourned` lists it, "
            "`resume` carries it on when its people are here."
        )
        for seated in self.at(table):
            seated.unseat()
            seated.tell([line])
        for watcher in self.watching(table):
            watcher.unwatch()
            watcher.tell([f"  Table {table.number} is adjourned."])
        self.changed()

    async def resume(self, visitor: Present, number: int) -> ServedTable:
        """``visitor`` carries on their adjourned game ``number`` (of :meth:`adjourned`)
        when every person in it is here: at a table of its own, its people joining it."""
        games = await asyncio.to_thread(self.games.adjourned, visitor.name)
        if not 1 <= number <= len(games):
            raise CribbageError(f"you have no adjourned game {number}: `adjourned` lists them")
        key, people = games[number - 1].key, games[number - 1].people
        seated = [name for name in people if self.lobby.table_of(name) is not None]
        if seated:
            raise CribbageError(
                f"{', '.join(seated)} {'has' if len(seated) == 1 else 'have'} a seat at a "
                "table now: an adjourned game goes on when its people have none"
            )
        if sum(not t.deserted for t in self.lobby.tables.values()) >= self.limits.tables:
            raise CribbageError(f"the room has {self.limits.tables} tables, as many as it may")
        here = {name.lower() for name in self.people_here()}
        missing = [name for name in people if name.lower() not in here]
        if missing:
            raise CribbageError(
                f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not here: an "
                "adjourned game goes on when its people are"
            )
        table = self.games.resume(key, self.now())
        self.log(f"{visitor.name} resumes {key} at table {table.number}")
        for name in people:
            if name != visitor.name:
                for other in self.named(name):
                    other.tell(
                        [
                            f"  {visitor.name} resumes your adjourned game at table "
                            f"{table.number}: `join {table.number}`."
                        ]
                    )
        self.drive(table.number)
        return table

    # --- the clock --------------------------------------------------------------------

    def _set_clock(self, table: ServedTable) -> None:
        """After a move at a table with a clock: the people the game now waits for have
        the clock's seconds from now (nothing else that happens sets it again)."""
        session = table.session
        if session is None or session.over:
            table.deadline = None
            return
        moved = (session, len(session.actions))
        if table.clocked_at == moved:
            return
        table.clocked_at = moved
        handle = self.clocks.pop(table.number, None)
        if handle is not None:
            handle.cancel()
        if not table.waiting_for_people():
            table.deadline = None
            return
        assert table.setup.clock is not None
        table.deadline = self.now() + table.setup.clock
        self.clocks[table.number] = asyncio.get_running_loop().call_later(
            table.setup.clock, self._ran_out, table, moved, context=contextvars.Context()
        )

    def _ran_out(self, table: ServedTable, moved: tuple[object, int]) -> None:
        if table.clocked_at == moved and self.lobby.tables.get(table.number) is table:
            asyncio.get_running_loop().create_task(self._move_for_them(table, moved))

    async def _move_for_them(self, table: ServedTable, moved: tuple[object, int]) -> None:
        """The clock ran out: the computer decides for each person the game waits for
        (in a worker, as the tables' computers do), the log saying so."""
        session = table.session
        for seat in table.waiting_for_people():
            if session is None or table.session is not session or session.over:
                return
            state = session.state
            level = table.setup.level
            try:
                action = await self.elsewhere.run(
                    decided_for, session.info, state, seat, str(level)
                )
            except CribbageError:  # (the server stopping: the clock runs again on its return)
                return
            if session.state is not state or table.clocked_at != moved:
                return  # they moved in time after all
            if self.lobby.tables.get(table.number) is not table:
                return  # adjourned meanwhile
            table.out_of_time(seat, action)
            name = table.names()[seat]
            self.tell_table(table, f"{name}'s clock ran out: the computer moved for them.")
            for watcher in self.watching(table):
                watcher.tell([f"  {name}'s clock ran out: the computer moved for them."])
            self.log(f"{name}'s clock ran out at table {table.number}: the computer moved")
            moved = (session, len(session.actions))
            table.clocked_at = moved
        table.clocked_at = None
        self.changed(table)

    def finish(self, table: ServedTable) -> None:
        """A game is over: its log filed for each person who played it (their ``stats``
        and ``replay`` see it), and the table closed."""
        session = table.session
        assert session is not None
        saver = self.games.savers.get(table.number)
        text = saver.text if saver is not None else ""
        failed = self.games.finish(table)
        if text:
            filed = [str(path.relative_to(self.options.root)) for path in self.games.last_filed]
            task = asyncio.get_running_loop().create_task(
                self._rate(table, text, filed), context=contextvars.Context()
            )
            self.rating.add(task)  # (held until done; at a stop, the next start rates it)
            task.add_done_callback(self.rating.discard)
        for name, why in failed.items():
            for visitor in self.named(name):
                visitor.tell(
                    [
                        f"  your copy of the game could not be filed ({why}): "
                        "the server keeps it and tries again when it starts"
                    ]
                )
        people = ", ".join(
            printable(spec.name) for spec in session.info.seats if spec.player == "human"
        )
        over = session.events[-1]
        result = ""
        if isinstance(over, GameOver):
            seats, rules = enumerate(session.info.seats), session.info.rules
            winner = " & ".join(
                printable(spec.name) for n, spec in seats if rules.side_of(n) == over.winner
            )
            result = f" ({winner} won, {' to '.join(map(str, over.scores))})"
        self.log(f"table {table.number}'s game is over{result}: filed for {people}")
        if not table.over:  # a match goes on: its next game, at once
            self.games.next_game(table)
            self.log(f"table {table.number}: {table.match_line()}; the next game begins")
            self.changed(table)

    async def _rate(self, table: ServedTable, text: str, filed: list[str]) -> None:
        """A finished game rated (off the event loop), each person told their rating; the
        files it was filed as noted, so that the next start need not read them. A store
        that is busy (locked by another program, or failing) is tried again, more and
        more seldom, until the game is rated: nothing waits for the next start."""
        wait = RATE_AGAIN_FIRST
        told = False
        digest = digest_of(text)
        while True:
            try:
                changed = await asyncio.to_thread(self.club.rate, loads(text), digest, None, text)
                for path in filed:
                    await asyncio.to_thread(self.club.note_file, path, digest)
                break
            except StoreError as error:
                if not told:
                    self.log(
                        f"table {table.number}'s game is not rated yet ({error}): it is tried "
                        "again until the store is free"
                    )
                    told = True
                await asyncio.sleep(wait)
                wait = min(wait * 2, RATE_AGAIN_MOST)
            except (CribbageError, OSError) as error:
                self.log(f"table {table.number}'s game could not be rated: {error}")
                return
        if told:
            self.log(f"table {table.number}'s game is rated now")
        for standing in changed.values():
            step = standing.history[-1]
            before = standing.history[-2].rating if len(standing.history) > 1 else None
            moved = "" if before is None else f" ({step.rating - before:+d})"
            line = f"  Your rating: {standing.rating} ±{standing.uncertainty}{moved}."
            for visitor in self.named(standing.name):
                visitor.tell([line])
        if changed:
            names = ", ".join(f"{s.name} {s.rating}" for s in changed.values())
            self.log(f"rated: {names}")

    def stand(self, visitor: Present, table: ServedTable, *, leaving: bool) -> None:
        """``visitor`` goes from ``table``: asked to (``leaving``), or its connection ended.
        A person still there on another connection stays, unless they asked to leave a
        table not started (then the seat opens for all their connections)."""
        name = visitor.name
        others = [v for v in self.named(name) if v is not visitor and v.table is table]
        if others and not (leaving and not table.started):
            return
        for other in others:
            other.unseat()
            other.tell([f"  You left table {table.number}."])
        table.stand(name, self.now())
        if table.empty:
            self.lobby.close(table.number)
            self.log(f"table {table.number} closes: nobody sits at it")
        elif table.started:
            why = "left the table" if leaving else "the connection ended"
            self.tell_table(table, f"{name} is away ({why}).", but=visitor)
            self.log(f"{name} is away from table {table.number} ({why})")
        self.changed(table)

    def tell_table(self, table: ServedTable, line: str, but: Present | None = None) -> None:
        """Tell the people at the table (all but one)."""
        for visitor in self.at(table):
            if visitor is not but:
                visitor.tell([f"  {line}"])

    def tell_lobby(self, line: str, but: Present | None = None) -> None:
        """Tell the people in the lobby (neither seated nor watching), all but one."""
        for visitor in self.visitors:
            if visitor is not but and visitor.table is None and visitor.watched is None:
                visitor.tell([f"  {line}"])

    def later(self, errand: Coroutine[object, object, None]) -> None:
        """``errand`` done on the event loop, nobody waiting for it."""
        task = asyncio.get_running_loop().create_task(errand)
        self.errands.add(task)
        task.add_done_callback(self.errands.discard)

    def came(self, visitor: Present) -> None:
        """A connection is in the room (noted for the club's other servers)."""
        self.visitors.append(visitor)
        self.here.add(id(visitor))
        self.placed(visitor, None, visitor.table)
        self.placed(visitor, None, visitor.watched)
        if self.wire is not None:
            self.wire.came_or_went(visitor.name)

    def went(self, visitor: Present) -> None:
        """A connection left the room."""
        self.visitors.remove(visitor)
        self.placed(visitor, visitor.table, None)
        self.placed(visitor, visitor.watched, None)
        self.here.discard(id(visitor))
        if self.wire is not None:
            self.wire.came_or_went(visitor.name)

    def _heard(self, told: Told) -> None:
        """A ``tell`` from a person on another server of the club."""
        for hearer in self.visitors:
            heard = hearer.name.lower() == told.hearer.lower()
            if heard and not self.muted(hearer.name, told.speaker):
                hearer.tell([f"{told.speaker} tells you: {told.text}"])

    def named(self, name: str) -> list[Present]:
        return [v for v in self.visitors if v.name == name]

    def people_here(self) -> list[str]:
        return sorted({v.name for v in self.visitors})

    def people(self) -> list[tuple[str, Present]]:
        """Each person here (one connection of theirs: a watching one first), by name."""
        found: dict[str, Present] = {}
        for visitor in self.visitors:
            if visitor.name not in found or visitor.watched is not None:
                found[visitor.name] = visitor
        return sorted(found.items())

    def idle_times(self) -> dict[str, float]:
        """Each person's seconds since they last typed (the least over their connections)."""
        idle: dict[str, float] = {}
        for visitor in self.visitors:
            idle[visitor.name] = min(idle.get(visitor.name, visitor.idle), visitor.idle)
        return idle
