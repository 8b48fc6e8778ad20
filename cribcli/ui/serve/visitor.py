"""A person in the served room, as their screen shows it: the prompt and the board below
it, what happens elsewhere told above the prompt, a seat at a table (its view of the
game) or a table watched, and the lobby. What the person types is the words'
(:mod:`~cribcli.ui.serve.person`, which makes a visitor whole); the terminal it runs on is
any :class:`Terminal` (the SSH side's connection)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app_or_none, run_in_terminal
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import InMemoryHistory

from cribcli.club.lobby import ServedTable
from cribcli.record.store import reason
from cribcli.rules.engine import seats_to_act
from cribcli.rules.errors import CribbageError, printable
from cribcli.rules.events import Dealt
from cribcli.ui.narrate import WATCHER, Table
from cribcli.ui.render import WIDE, Style, fit
from cribcli.ui.repl import TOOLBAR_STYLE, CardCompleter, say
from cribcli.ui.seat import Command, SeatUI

if TYPE_CHECKING:
    from cribcli.ui.serve.room import Room


LOBBY_PEOPLE = 40
"""The people the lobby names when it is shown; past them, how many more."""
LOBBY_TABLES = 30
"""The tables it lists (those with a seat open first); past them, how many more."""


class Terminal(Protocol):
    """The terminal a visitor runs on: who logged in on it, when they last typed a key,
    how wide it is, and closing it."""

    @property
    def name(self) -> str: ...

    @property
    def last_input(self) -> float:
        """When a key was last typed (``time.monotonic()``)."""

    def columns(self) -> int:
        """The terminal's width."""

    def close(self, why: str) -> None:
        """Close the connection, telling the person why."""


@dataclass
class Seated:
    table: ServedTable
    seat: int
    ui: SeatUI | None = None
    shown: tuple[str, ...] = ()
    """The table as it was last shown (shown again only when it has changed)."""


@dataclass
class Watching:
    table: ServedTable
    ui: SeatUI | None = None
    """The watcher's view, once the table's game has begun."""


class Visitor:
    """A person in the room, as their screen shows it; what they type is :meth:`line`'s,
    which :class:`~cribcli.ui.serve.person.Person` gives."""

    def __init__(self, room: Room, connection: Terminal) -> None:
        self.room = room
        self.connection = connection
        self.name = connection.name
        self._seated: Seated | None = None
        self._watching: Watching | None = None
        self.playback: asyncio.Task[None] | None = None
        """A finished game being played back (``replay N``)."""
        self._woken = asyncio.Event()
        self._outbox: list[str] = []
        self.prompt: PromptSession[str] | None = None
        self.style = Style(unicode=True, color=True)
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()

    @property
    def seated(self) -> Seated | None:
        """Where this person sits, if they do."""
        return self._seated

    @seated.setter
    def seated(self, seated: Seated | None) -> None:
        before = self.table
        self._seated = seated
        self.room.placed(self, before, self.table)  # (kept by the room while here)

    @property
    def watching(self) -> Watching | None:
        """What this person watches, if they do."""
        return self._watching

    @watching.setter
    def watching(self, watching: Watching | None) -> None:
        before = self.watched
        self._watching = watching
        self.room.placed(self, before, self.watched)

    @property
    def table(self) -> ServedTable | None:
        return self._seated.table if self._seated else None

    @property
    def watched(self) -> ServedTable | None:
        """The table this person watches, if any."""
        return self._watching.table if self._watching else None

    @property
    def idle(self) -> float:
        """Seconds since this person last typed a key (not since the screen was drawn)."""
        return time.monotonic() - self.connection.last_input

    # --- the loop ---------------------------------------------------------------------

    async def run(self) -> None:
        room = self.room
        room.came(self)
        self.prompt = PromptSession(
            completer=_Completer(self),
            complete_while_typing=False,
            bottom_toolbar=self._toolbar,
            style=TOOLBAR_STYLE,
            history=_ShortHistory(),
        )
        # The line itself is kept within the longest line, however it was made (a paste,
        # the editor's own keys): what the guard counts is a guess, this is the rule.
        self.prompt.default_buffer.on_text_changed += self._within_line
        watcher = asyncio.create_task(self._watch())
        idle = asyncio.create_task(self._idle())
        try:
            self.say(f"Welcome to cribbage, {self.name}. Type `help` for what you can do.")
            table = room.lobby.table_of(self.name)
            if table is not None:
                self.sit_back(table)
            else:
                self.show_lobby()
            # Only this screen is drawn for an arrival (sit_back woke the table this person
            # is back at): in a room of thousands, nobody else's need be redrawn.
            self.wake()
            while True:
                try:  # Ctrl-C is this person's, never a signal to the server
                    text = await self.prompt.prompt_async(self._message, handle_sigint=False)
                except KeyboardInterrupt:
                    continue
                except EOFError:
                    break
                if not await self._line(text):
                    break
        finally:
            watcher.cancel()
            idle.cancel()
            if self.playback is not None:
                self.playback.cancel()
            room.went(self)
            table = self.table
            if table is not None and not table.over:
                room.stand(self, table, leaving=False)  # (which wakes that table)

    async def _line(self, text: str) -> bool:
        """Do what a typed line says; False to leave."""
        text = text.strip()
        if len(text) > self.room.limits.line:
            self.say(f"  a line is at most {self.room.limits.line} characters")
            return True
        seated = self.seated
        if seated is not None and seated.table.over:  # Enter (or anything): the lobby
            self.seated = None
            self.show_lobby()
            if not text:
                return True
        watched = self.watched
        if watched is not None and watched.over and not text:  # Enter: the lobby
            self.stop_watching()
            return True
        if self.playback is not None and not self.playback.done():  # any line stops it
            self.playback.cancel()
            self.say("  The replay stops there.")
            return True
        if not text:
            return True
        try:
            return await self.line(text)
        except CribbageError as error:
            self.say(f"  {printable(str(error))}")
        except OSError as error:
            self.say(f"  the server cannot do that now ({reason(error)})")
        return True

    async def line(self, text: str) -> bool:
        """Do what a line the person typed says (stripped, not empty); False to leave.
        Raises CribbageError for a line that cannot be done, told as one line."""
        raise NotImplementedError

    def table_commands(self) -> dict[str, Command]:
        """What can be typed at a served table besides cards, for its help and its
        dispatch."""
        raise NotImplementedError

    def _message(self) -> str:
        seated = self.seated
        watching = self.watching
        if seated is None and watching is not None:
            if watching.table.over:
                return "game over: press Enter for the lobby> "
            return f"watching table {watching.table.number}> "
        if seated is None:
            return "lobby> "
        table, ui = seated.table, seated.ui
        if ui is None:
            return f"table {table.number}, waiting for players> "
        if table.over:
            return "game over: press Enter for the lobby> "
        if table.taken(ui.seat):
            return "the computer plays for you> "
        if ui.my_turn:
            return f"{ui.prompt()}> "
        names = table.names()
        whom = [
            names[s] + (" (away)" if s in table.away and not table.taken(s) else "")
            for s in seats_to_act(ui.session.state)
        ]
        return f"waiting for {', '.join(whom) or 'nobody'}> "

    def _toolbar(self) -> ANSI:
        seated = self.seated
        ui = seated.ui if seated is not None else self.watching.ui if self.watching else None
        table = self.table or self.watched
        if ui is None or table is None:
            return ANSI("")
        lines = ui.board(self.width())
        extra = [table.match_line(), table.clock_line(self.room.now())]
        return ANSI("\n".join([*lines, *(line for line in extra if line)]))

    def width(self) -> int:
        """The terminal's width (20 at the least; a full one's if the client says none)."""
        columns = self.connection.columns()
        return max(columns, 20) if columns > 0 else WIDE

    def _within_line(self, buffer: Buffer) -> None:
        limit = self.room.limits.line
        if len(buffer.text) > limit:
            buffer.document = Document(buffer.text[:limit], min(buffer.cursor_position, limit))

    # --- output -----------------------------------------------------------------------

    def say(self, line: str) -> None:
        """A line to this person: now, from this connection's own task; from a worker
        thread (a hint being worked out), above the prompt soon."""
        if threading.get_ident() != self._thread:
            self._loop.call_soon_threadsafe(self.tell, [line])
            return
        # (now: no prompt is drawn, or this is above it, in run_in_terminal), wrapped to
        # the terminal as it is now (the server's own text as much as the game's)
        for part in fit(self.room.for_people(line), self.width()):
            say(part)

    def tell(self, lines: Iterable[str]) -> None:
        """Lines to this person from anywhere: shown above the prompt soon."""
        self._outbox.extend(lines)
        self.wake()

    def wake(self) -> None:
        """Bring this person's screen up to date soon (something changed where they are)."""
        self._woken.set()

    def unseat(self) -> None:
        """No longer at the table (it closed, or the person left it on another
        connection): the room tells them why."""
        self.seated = None

    def unwatch(self) -> None:
        """No longer watching the table (it closed): the room tells them why."""
        self.watching = None

    def close(self, why: str) -> None:
        """Close this person's connection, telling them why."""
        self.connection.close(why)

    async def _watch(self) -> None:
        """Show what happened elsewhere (other people's moves, the computers'), above the
        prompt, and redraw the prompt for whose turn it is."""
        while True:
            table = self.table or self.watched
            if table is not None and table.deadline is not None:  # a clock counts down
                try:
                    await asyncio.wait_for(self._woken.wait(), 1.0)
                except TimeoutError:
                    app = get_app_or_none()
                    if app is not None and app.is_running:
                        app.invalidate()  # the toolbar's clock, a second less
                    continue
            else:
                await self._woken.wait()
            self._woken.clear()
            if not self._outbox and self.seated is None and self.watching is None:
                continue  # in the lobby with nothing to tell: the prompt stands as it was
            # what happened, above the prompt; the prompt is drawn again as it leaves, as it
            # stands now (whoever's turn it is): one drawing a wake, not two
            await run_in_terminal(self.catch_up)

    def catch_up(self) -> None:
        lines, self._outbox = self._outbox, []
        for line in lines:
            self.say(line)
        watching = self.watching
        if watching is not None:
            table = watching.table
            if self.room.lobby.tables.get(table.number) is not table and not table.started:
                self.say(f"Table {table.number} closed before its game began.")
                self.stop_watching()
                return
            if watching.ui is None and watching.table.session is not None:
                watching.ui = self.watcher_ui(watching.table)
            if watching.ui is not None:
                watching.ui.table = replace(watching.ui.table, width=self.width())
                watching.ui.tell()
                if watching.ui.session is not table.session and table.session is not None:
                    self.say("")
                    self.say(table.match_line() or "")
                    watching.ui = self.watcher_ui(table)
                    watching.ui.told = 0
                    watching.ui.tell()
            return
        seated = self.seated
        if seated is None:
            return
        if seated.ui is None and seated.table.session is not None:
            self.begin(seated)
            return
        ui = seated.ui
        if ui is not None and ui.told < len(ui.session.events):
            ui.tell()
        if ui is not None and ui.session is not seated.table.session:  # a match goes on
            self.next_game(seated)
            return
        self.show_table()

    async def _idle(self) -> None:
        limit = self.room.limits.idle
        while True:
            await asyncio.sleep(min(limit, 30.0))
            if time.monotonic() - self.connection.last_input > limit:
                self.close(f"nothing typed for {limit:.0f} seconds")
                return

    # --- the lobby --------------------------------------------------------------------

    def show_lobby(self, *, whole: bool = False) -> None:
        """Who is here and the tables: in a room of many, the first :data:`LOBBY_PEOPLE`
        people and :data:`LOBBY_TABLES` tables (those with a seat open first), and how
        many more; ``whole``: every one (``tables all``)."""
        room = self.room
        idle = room.idle_times()
        people = room.people()
        shown = people if whole else people[:LOBBY_PEOPLE]
        here = [
            name
            + _idle_words(idle.get(name))
            + (f" (watching {v.watched.number})" if v.watched else "")
            for name, v in shown
        ]
        more = len(people) - len(shown)
        others = f", and {more} more (`tables all` lists everyone)" if more else ""
        self.say(f"Here: {', '.join(printable(name) for name in here)}{others}.")
        tables = list(room.lobby.tables.values())
        if not tables:
            self.say("No tables yet: `new` opens one, `solo` plays the computer.")
        if not whole and len(tables) > LOBBY_TABLES:
            tables.sort(key=lambda table: table.started)  # (stable: those with seats open first)
            more, tables = len(tables) - LOBBY_TABLES, tables[:LOBBY_TABLES]
        else:
            more = 0
        for table in tables:
            watchers = len(room.watching(table))
            self.say(f"  {printable(table.describe(room.now(), idle, watchers))}")
        if more:
            self.say(f"  and {more} more tables playing (`tables all` lists them)")

    def sit_back(self, table: ServedTable) -> None:
        """Back in one's seat at a game in progress, the others told (unless this person
        was there all along, on another connection)."""
        seat = table.seat_of(self.name)
        away = seat in table.away
        self.say(f"Back at table {table.number}.")
        self.sit(table)
        if seat is not None and table.taken(seat):
            self.say("The computer plays your seat while you were away: `sit` takes it back.")
        if away:
            self.room.tell_table(table, f"{self.name} is back.", but=self)
            self.room.log(f"{self.name} is back at table {table.number}")
        self.room.changed(table)

    def sit(self, table: ServedTable) -> None:
        seat = table.sit(self.name)
        self.seated = Seated(table, seat)
        if table.session is not None:
            self.begin(self.seated)

    def next_game(self, seated: Seated) -> None:
        """The match's last game is told to its end: the match so far, then the next."""
        table = seated.table
        self.say("")
        self.say(table.match_line() or "")
        if table.setup.players == 2 and table.session is not None:
            dealer = table.names()[table.session.info.rules.first_dealer]
            whom = (
                "You"
                if table.seat_of(self.name) == table.session.info.rules.first_dealer
                else dealer
            )
            deals = "deal" if whom == "You" else "deals"
            self.say(f"The next game: {whom} {deals} first (the loser of a game deals the next).")
        seated.ui = None
        self.begin(seated)

    def begin(self, seated: Seated) -> None:
        """The game at the table is on: this seat's view of it, from here (the seat as
        the table has it now: never one this person no longer holds)."""
        session = seated.table.session
        assert session is not None
        seat = seated.table.seat_of(self.name)
        if seat is None:
            self.seated = None
            self.say(f"You no longer sit at table {seated.table.number}.")
            return
        seated.seat = seat
        names = tuple(
            "You" if n == seat else spec.name for n, spec in enumerate(session.info.seats)
        )
        width = self.width()
        table = Table(session.info.rules, names, self.style, viewer=seat, width=width)
        ui = SeatUI(session, seat, table, say=self.say, commands=self.table_commands())
        seated.ui = ui
        ui.promise()  # (again on coming back: to compare)
        if not session.actions:  # a new game: from the cut for the deal
            ui.told = 0
            ui.tell()
        self.show_table(always=True)  # (back at a game: whoever's turn it is)

    def show_table(self, *, always: bool = False) -> None:
        """The table above the prompt when the game waits for you and it has changed since
        it was last shown (as ``play`` shows it: the board stays below the prompt), or
        ``always``: another seat's move that leaves your cards and the count as they were
        (the computer's throw to the crib) does not show it again."""
        seated = self.seated
        ui = seated.ui if seated is not None else None
        if ui is None or seated is None or ui.session.over:
            return
        lines = tuple(ui.table_lines(board=False))
        if not always and (not ui.my_turn or seated.shown == lines or seated.table.taken(ui.seat)):
            return
        seated.shown = lines
        self.say("")
        for line in lines:
            self.say(line)

    def leave(self) -> None:
        table = self.table
        if table is None:
            return
        self.seated = None
        if table.started:
            self.say("You leave the table; your seat waits for you (`join` it again).")
        else:
            self.say("You leave the table.")
        self.room.stand(self, table, leaving=True)
        self.show_lobby()

    # --- watching -------------------------------------------------------------------

    def watcher_ui(self, table: ServedTable) -> SeatUI:
        """A watcher's view of the table: the narration with no seat's hidden cards, told
        from the start of the round in play, and the board."""
        session = table.session
        assert session is not None
        view = Table(session.info.rules, tuple(table.names()), self.style, viewer=WATCHER)
        ui = SeatUI(session, WATCHER, replace(view, width=self.width()), say=self.say, commands={})
        dealt = [n for n, event in enumerate(session.events) if isinstance(event, Dealt)]
        ui.told = dealt[-1] if dealt else 0
        ui.promise()
        return ui

    def stop_watching(self) -> None:
        table = self.watched
        self.watching = None
        self.show_lobby()
        if table is not None:
            self.room.changed(table)


class _Completer(CardCompleter):
    def __init__(self, visitor: Visitor) -> None:
        self.visitor = visitor

    def get_completions(self, document: Any, event: Any) -> Any:
        seated = self.visitor.seated
        if seated is None or seated.ui is None:
            return iter(())
        self.ui = seated.ui
        return super().get_completions(document, event)


class _ShortHistory(InMemoryHistory):
    """The lines typed this visit, the last few only (a line past the longest is not
    one of them): what Up recalls, kept small."""

    def store_string(self, string: str) -> None:
        super().store_string(string)
        del self._storage[:-HISTORY_KEPT]


HISTORY_KEPT = 50
"""The lines a visitor's Up recalls."""


def _idle_words(seconds: float | None) -> str:
    """`` (idle 3m)`` from a minute without a key typed."""
    if seconds is None or seconds < 60:
        return ""
    return f" (idle {int(seconds // 60)}m)"
