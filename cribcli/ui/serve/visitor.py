"""A person in the served room: the lobby's words, a seat at a table and its words, each
from one command table (its help and its dispatch), and what happens elsewhere told above
the prompt. The terminal it runs on is :class:`cribcli.ui.serve.ssh.Connection`."""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app_or_none, run_in_terminal
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import InMemoryHistory

from cribcli.club.lobby import NEW_USAGE, ServedTable, TableSetup, parse_setup
from cribcli.club.ratings import anchors as anchor_marks
from cribcli.players import LEVELS_HELP, Level
from cribcli.record.log import LOG_LIMIT
from cribcli.record.reader import loads
from cribcli.record.replay import Replay, replay
from cribcli.record.store import read_text, reason
from cribcli.review.history import history_of
from cribcli.rules.engine import seats_to_act
from cribcli.rules.errors import CribbageError, printable
from cribcli.rules.events import Dealt
from cribcli.ui import PACE
from cribcli.ui.narrate import WATCHER, Table
from cribcli.ui.playback import moves_of
from cribcli.ui.render import Style
from cribcli.ui.repl import TOOLBAR_STYLE, CardCompleter, say
from cribcli.ui.reports import stats_lines
from cribcli.ui.seat import COMMANDS, Command, SeatUI
from cribcli.ui.serve.share import in_thread

if TYPE_CHECKING:
    from cribcli.ui.serve.room import Room
    from cribcli.ui.serve.ssh import Connection


@dataclass
class _Seated:
    table: ServedTable
    seat: int
    ui: SeatUI | None = None
    shown_at: int = -1
    """How many events had happened when the table was last shown."""


@dataclass
class _Watching:
    table: ServedTable
    ui: SeatUI | None = None
    """The watcher's view, once the table's game has begun."""


class Visitor:
    """A person in the room: the lobby's commands, then a seat at a table."""

    def __init__(self, room: Room, connection: Connection) -> None:
        self.room = room
        self.connection = connection
        self.name = connection.name
        self.seated: _Seated | None = None
        self.watching: _Watching | None = None
        self.playback: asyncio.Task[None] | None = None
        """A finished game being played back (``replay N``)."""
        self._woken = asyncio.Event()
        self._outbox: list[str] = []
        self.prompt: PromptSession[str] | None = None
        self.style = Style(unicode=True, color=True)
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()

    @property
    def table(self) -> ServedTable | None:
        return self.seated.table if self.seated else None

    @property
    def watched(self) -> ServedTable | None:
        """The table this person watches, if any."""
        return self.watching.table if self.watching else None

    @property
    def idle(self) -> float:
        """Seconds since this person last typed a key (not since the screen was drawn)."""
        return time.monotonic() - self.connection.last_input

    # --- the loop ---------------------------------------------------------------------

    async def run(self) -> None:
        room = self.room
        room.visitors.append(self)
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
                self._sit_back(table)
            else:
                self.show_lobby()
            room.changed()
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
            room.visitors.remove(self)
            table = self.table
            if table is not None and not table.over:
                room.stand(self, table, leaving=False)
            room.changed()

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
            self._stop_watching()
            return True
        if self.playback is not None and not self.playback.done():  # any line stops it
            self.playback.cancel()
            self.say("  The replay stops there.")
            return True
        if not text:
            return True
        try:
            if self._talked(text):
                return True
            if self.seated is not None and self.seated.ui is not None:
                await self._at_game(text, self.seated.ui)
                return True
            if self.watching is not None:
                self._at_watch(text)
                return True
            return await self._in_lobby(text)
        except CribbageError as error:
            self.say(f"  {printable(str(error))}")
        except OSError as error:
            self.say(f"  the server cannot do that now ({reason(error)})")
        return True

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
        lines = ui.board(self._width())
        extra = [table.match_line(), table.clock_line(self.room.now())]
        return ANSI("\n".join([*lines, *(line for line in extra if line)]))

    def _width(self) -> int:
        size = self.connection._get_size()
        return max(size.columns, 20)

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
        say(line)  # (now: no prompt is drawn, or this is above it, in run_in_terminal)

    def tell(self, lines: Iterable[str]) -> None:
        """Lines to this person from anywhere: shown above the prompt soon."""
        self._outbox.extend(lines)
        self.wake()

    def wake(self) -> None:
        self._woken.set()

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
            await run_in_terminal(self._catch_up)
            app = get_app_or_none()  # the prompt as it stands now, whoever's turn it is
            if app is not None and app.is_running:
                app.invalidate()

    def _catch_up(self) -> None:
        lines, self._outbox = self._outbox, []
        for line in lines:
            self.say(line)
        watching = self.watching
        if watching is not None:
            table = watching.table
            if self.room.lobby.tables.get(table.number) is not table and not table.started:
                self.say(f"Table {table.number} closed before its game began.")
                self._stop_watching()
                return
            if watching.ui is None and watching.table.session is not None:
                watching.ui = self._watcher_ui(watching.table)
            if watching.ui is not None:
                watching.ui.table = replace(watching.ui.table, width=self._width())
                watching.ui.tell()
                if watching.ui.session is not table.session and table.session is not None:
                    self.say("")
                    self.say(table.match_line() or "")
                    watching.ui = self._watcher_ui(table)
                    watching.ui.told = 0
                    watching.ui.tell()
            return
        seated = self.seated
        if seated is None:
            return
        if seated.ui is None and seated.table.session is not None:
            self._begin(seated)
            return
        ui = seated.ui
        if ui is not None and ui.told < len(ui.session.events):
            ui.tell()
        if ui is not None and ui.session is not seated.table.session:  # a match goes on
            self._next_game(seated)
            return
        self._show_table()

    async def _idle(self) -> None:
        limit = self.room.limits.idle
        while True:
            await asyncio.sleep(min(limit, 30.0))
            if time.monotonic() - self.connection.last_input > limit:
                self.connection.close(f"nothing typed for {limit:.0f} seconds")
                return

    # --- the lobby --------------------------------------------------------------------

    def show_lobby(self) -> None:
        room = self.room
        idle = room.idle_times()
        here = [
            name
            + _idle_words(idle.get(name))
            + (f" (watching {v.watched.number})" if v.watched else "")
            for name, v in room.people()
        ]
        self.say(f"Here: {', '.join(printable(name) for name in here)}.")
        tables = list(room.lobby.tables.values())
        if not tables:
            self.say("No tables yet: `new` opens one, `solo` plays the computer.")
        for table in tables:
            watchers = len(room.watching(table))
            self.say(f"  {printable(table.describe(room.now(), idle, watchers))}")

    async def _in_lobby(self, text: str) -> bool:
        """Do what a line typed in the lobby says (by :data:`LOBBY`); False to leave."""
        words = text.split()
        word, rest = words[0].lower(), words[1:]
        command = next((c for c in LOBBY if word == c.name or word in c.aliases), None)
        if command is None or (command.name == "leave" and self.seated is None):
            raise CribbageError(f"`{word[:20]}` is not a lobby command: `help` lists them")
        if command.name == "quit":
            return False
        if command.name in ("adjourned", "resume"):  # read logs: in a thread
            await (self._adjourned(rest) if command.name == "adjourned" else self._resume(rest))
            return True
        if command.name == "top":  # reads the store: in a thread
            for line in await in_thread(self._top):
                self.say(line)
            return True
        if command.name == "replay":  # reads logs: in a thread
            await self._replay(rest)
            return True
        if command.name == "stats":  # may read many logs: in a thread
            for line in await in_thread(self._stats):
                self.say(line)
            return True
        command.run(self, rest)
        return True

    def _help(self, rest: list[str]) -> None:
        for line in lobby_help():
            self.say(line)

    def _new(self, rest: list[str]) -> None:
        self._open(parse_setup(rest))

    def _solo(self, rest: list[str]) -> None:
        level = Level.parse(" ".join(rest)) if rest else Level.NORMAL
        if level is None:
            self.say(f"solo LEVEL: {LEVELS_HELP}.")
            return
        self._open(TableSetup(computers=1, level=level))

    def _table_named(self, rest: list[str], verb: str) -> ServedTable:
        """The table ``rest`` names by its number (for ``join`` or ``watch``). Raises
        CribbageError if it names none that plays or waits."""
        if len(rest) != 1 or not re.fullmatch(r"[0-9]{1,6}", rest[0]):
            raise CribbageError(f"{verb} a table by its number, e.g. `{verb} 2`")
        table = self.room.lobby.tables.get(int(rest[0]))
        if table is None or table.over:
            raise CribbageError(f"there is no table {rest[0]}")
        return table

    def _join(self, rest: list[str]) -> None:
        room = self.room
        table = self._table_named(rest, "join")
        if room.lobby.table_of(self.name) not in (None, table):
            raise CribbageError("you sit at another table: `leave` it first")
        if any(v.watched is table for v in room.named(self.name)):
            raise CribbageError(f"you watch table {table.number}: a watcher does not sit at it")
        if table.seat_of(self.name) is not None and table.started:
            self._sit_back(table)
            return
        table.sit(self.name)
        self._sit(table)
        self.say(f"You sit at table {table.number}.")
        if table.ready:
            room.start(table)
        room.changed()

    def _open(self, setup: TableSetup) -> None:
        room = self.room
        table = room.lobby.open_table(self.name, setup, room.games.saver)
        room.log(f"{self.name} opens table {table.number} ({setup.describe()})")
        self._sit(table)
        if table.ready:
            self.say(f"Table {table.number}: you and the computer.")
            room.start(table)
        else:
            self.say(
                f"Table {table.number} is open ({setup.describe()}): the others join with "
                f"`join {table.number}`; `leave` gives it up."
            )
        room.changed()

    def _sit_back(self, table: ServedTable) -> None:
        """Back in one's seat at a game in progress, the others told (unless this person
        was there all along, on another connection)."""
        seat = table.seat_of(self.name)
        away = seat in table.away
        self.say(f"Back at table {table.number}.")
        self._sit(table)
        if seat is not None and table.taken(seat):
            self.say("The computer plays your seat while you were away: `sit` takes it back.")
        if away:
            self.room.tell_table(table, f"{self.name} is back.", but=self)
            self.room.log(f"{self.name} is back at table {table.number}")
        self.room.changed(table)

    def _sit(self, table: ServedTable) -> None:
        seat = table.sit(self.name)
        self.seated = _Seated(table, seat)
        if table.session is not None:
            self._begin(self.seated)

    def _next_game(self, seated: _Seated) -> None:
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
        self._begin(seated)

    def _begin(self, seated: _Seated) -> None:
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
        width = self._width()
        table = Table(session.info.rules, names, self.style, viewer=seat, width=width)
        ui = SeatUI(session, seat, table, say=self.say, commands=self._table_commands())
        seated.ui = ui
        ui.voice.promise(session.info.promise)  # (again on coming back: to compare)
        if not session.actions:  # a new game: from the cut for the deal
            ui.told = 0
            ui.tell()
        self._show_table(always=True)  # (back at a game: whoever's turn it is)

    def _table_commands(self) -> dict[str, Command]:
        """What can be typed at a served table besides cards, for its help and its
        dispatch: the game's words (no takebacks: the others have seen the moves; `quit`
        leaves the table, as `leave` does), and the table's own."""
        game = {name: command for name, command in COMMANDS.items() if name not in ("undo", "quit")}
        own = (
            Command("who", "who sits where, and who is away", lambda ui: self._who()),
            Command(
                "takeover",
                "let the computer play for someone away long enough",
                lambda ui: self._take_over(),
            ),
            Command("sit", "take your seat back from the computer", lambda ui: self._take_back()),
            Command(
                "leave", "back to the lobby (your seat waits for you)", lambda ui: self._leave()
            ),
        )
        talk = (
            Command("adjourn", "put the game away for another day, if all agree", lambda ui: None),
            Command("say", "say TEXT: to the players and the watchers", lambda ui: None),
            Command("tell", "tell NAME TEXT: to one person, anywhere", lambda ui: None),
            Command("mute", "mute [NAME]: what NAME says no longer reaches you", lambda ui: None),
        )
        help_last = game.pop("help")
        mine = {command.name: command for command in (*own, *talk)}
        return {**game, **mine, "help": help_last}

    def _show_table(self, *, always: bool = False) -> None:
        """The table above the prompt when the game waits for you and has moved on since
        it was last shown (as ``play`` shows it: the board stays below the prompt), or
        ``always``."""
        seated = self.seated
        ui = seated.ui if seated is not None else None
        if ui is None or seated is None or ui.session.over:
            return
        if not always and (
            not ui.my_turn
            or seated.shown_at == len(ui.session.events)
            or seated.table.taken(ui.seat)
        ):
            return
        seated.shown_at = len(ui.session.events)
        self.say("")
        for line in ui.table_lines(board=False):
            self.say(line)

    def _leave(self) -> None:
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

    def _stats(self) -> list[str]:
        """Your history (worked out in a thread: it may read many logs)."""
        from datetime import date

        warnings: list[str] = []
        total = history_of(
            self.room.places(self.name),
            since="",
            today=date.today().isoformat(),
            warn=warnings.append,
        )
        lines = stats_lines(total, served=True)
        account = self.room.club.account(self.name)
        if account is not None:
            lines.append(f"A member since {account.first_seen[:10]}.")
        standing = self.room.club.standing(self.name)
        if standing is not None:
            recent = " ".join(str(step.rating) for step in standing.history[-10:])
            lines += [
                f"Your rating: {standing.rating} ±{standing.uncertainty} after "
                f"{standing.games} rated game{'s' * (standing.games != 1)} "
                f"(the computer's levels are fixed marks; `top` shows the ladder).",
                f"  after each of your last games: {recent}",
            ]
        if warnings:  # (which files, and why, is the server's business: how many is yours)
            left_out = len(warnings)
            lines.append(f"{left_out} of your games could not be read, and are left out.")
        return lines

    # --- recordings -------------------------------------------------------------------

    async def _replay(self, rest: list[str]) -> None:
        """``replay``: your last games, numbered; ``replay N``: game N played back as the
        table showed it, every hand seen, a move every so often (``2x``: twice as often);
        any line typed stops it."""
        words = [word.lower() for word in rest]
        speed = 2.0 if "2x" in words else 1.0
        numbers = [word for word in words if word != "2x" and word != "1x"]
        if len(numbers) > 1 or (numbers and not re.fullmatch(r"[0-9]{1,2}", numbers[0])):
            raise CribbageError("replay one of your last games by its number, e.g. `replay 1`")
        games = await in_thread(self._last_games)
        if not games:
            raise CribbageError("no finished games yet: `solo` plays the computer")
        if not numbers:
            for number, (_, line) in enumerate(games, start=1):
                self.say(f"  {number}: {printable(line)}")
            self.say("  `replay N` plays one back (`replay N 2x` twice as fast).")
            return
        number = int(numbers[0])
        if not 1 <= number <= len(games):
            raise CribbageError(f"there is no game {number}: `replay` lists your last games")
        replayed = await in_thread(_replayed, games[number - 1][0])
        info = replayed.log.info
        names = tuple(seat.name for seat in info.seats)
        table = Table(info.rules, names, self.style, width=self._width())
        moves = moves_of(replayed.events, table)
        self.say(f"Game {number}, played back ({len(moves)} moves); type anything to stop.")
        self.playback = asyncio.create_task(self._play_back([m.lines for m in moves], speed))

    async def _play_back(self, moves: list[tuple[str, ...]], speed: float) -> None:
        for lines in moves:
            self.tell(lines)
            await asyncio.sleep(PACE / speed)
        self.tell(["  The replay is over."])

    def _top(self) -> list[str]:
        """(In a thread.) The ladder, its first twenty, and your place on it."""
        rungs = self.room.club.ladder()
        if not rungs:
            return ["  Nobody is rated yet: every finished game rates its people."]
        lines = [f"  {'':>3} {'name':<20} {'rating':>6} {'±':>4} {'games':>5}  last seen"]
        mine = [r for r in rungs if r.name.lower() == self.name.lower()]
        for rung in rungs[:TOP] + [r for r in mine if r not in rungs[:TOP]]:
            account = self.room.club.account(rung.name)  # (the last login, else game)
            seen = (account.last_seen if account else rung.last_seen or "")[:10]
            lines.append(
                f"  {rung.place:>3} {printable(rung.name):<20} {rung.rating:>6} "
                f"{rung.uncertainty:>4} {rung.games:>5}  {seen}"
            )
        anchors = ", ".join(f"{level.label} {a.rating}" for level, a in anchor_marks().items())
        lines.append(f"  The computer's fixed marks: {anchors}.")
        return lines

    def _last_games(self) -> list[tuple[Path, str]]:
        """(In a thread.) Your last finished games, newest first: each one's file and a
        line saying what it was."""
        games = self.room.places(self.name).games
        found = []
        with contextlib.suppress(OSError):
            paths = sorted(games.glob("*.toml"), reverse=True)[:LAST_GAMES]
            for path in paths:
                with contextlib.suppress(CribbageError, ValueError, RecursionError):
                    log = loads(read_text(path, LOG_LIMIT, follow_links=False) or "")
                    names = " v ".join(seat.name for seat in log.info.seats)
                    result = log.result
                    told = f", {' - '.join(map(str, result.scores))}" if result is not None else ""
                    found.append((path, f"{path.stem}: {names}{told}"))
        return found

    # --- adjourned games --------------------------------------------------------------

    async def _adjourned(self, rest: list[str]) -> None:
        games = await in_thread(self.room.games.adjourned, self.name)
        if not games:
            self.say("  No adjourned games: at a table, `adjourn` puts one away.")
            return
        for number, game in enumerate(games, start=1):
            names = " v ".join(game.names)
            score = "-".join(map(str, game.scores))
            when = game.adjourned[:10]
            self.say(f"  {number}: {printable(names)}, to {game.target}, {score} (put away {when})")
        self.say("  `resume N` carries one on when its people are here.")

    async def _resume(self, rest: list[str]) -> None:
        if len(rest) != 1 or not re.fullmatch(r"[0-9]{1,4}", rest[0]):
            raise CribbageError("resume an adjourned game by its number, e.g. `resume 1`")
        if self.seated is not None:
            raise CribbageError("you sit at a table: `leave` it first")
        self._sit_back(await self.room.resume(self, int(rest[0])))

    # --- watching -------------------------------------------------------------------

    def _watch_table(self, rest: list[str]) -> None:
        room = self.room
        table = self._table_named(rest, "watch")
        if self.seated is not None or table.seat_of(self.name) is not None:
            raise CribbageError("you sit at a table: a player does not watch (`leave` first)")
        if table.setup.private:
            raise CribbageError(f"table {table.number} is private: nobody watches it")
        self.watching = _Watching(table)
        if table.session is not None:
            self.watching.ui = self._watcher_ui(table)
        self.say(
            f"You watch table {table.number}: every card laid and every show, no hand before "
            "it is shown. `say` talks to the other watchers; `leave` for the lobby."
        )
        room.log(f"{self.name} watches table {table.number}")
        room.changed(table)

    def _watcher_ui(self, table: ServedTable) -> SeatUI:
        """A watcher's view of the table: the narration with no seat's hidden cards, told
        from the start of the round in play, and the board."""
        session = table.session
        assert session is not None
        view = Table(session.info.rules, tuple(table.names()), self.style, viewer=WATCHER)
        ui = SeatUI(session, WATCHER, replace(view, width=self._width()), say=self.say, commands={})
        dealt = [n for n, event in enumerate(session.events) if isinstance(event, Dealt)]
        ui.told = dealt[-1] if dealt else 0
        ui.voice.promise(session.info.promise)
        return ui

    def _at_watch(self, text: str) -> None:
        word = text.split()[0].lower()
        if word in ("leave", "quit", "lobby"):
            self._stop_watching()
        elif word in ("who", "tables"):
            self._who()
        elif word in ("help", "?"):
            for line in WATCH_HELP:
                self.say(line)
        else:
            raise CribbageError(
                f"`{word[:20]}` is not something a watcher does: `help` lists what is"
            )

    def _stop_watching(self) -> None:
        table = self.watched
        self.watching = None
        self.show_lobby()
        if table is not None:
            self.room.changed(table)

    # --- talking ----------------------------------------------------------------------

    def _talked(self, text: str) -> bool:
        """``say``, ``tell``, ``mute`` and ``unmute``, wherever this person is: whether
        ``text`` was one of them."""
        word, _, rest = text.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word not in ("say", "tell", "mute", "unmute"):
            return False
        if word in ("mute", "unmute"):
            self._mute(rest, word == "mute")
            return True
        if not rest or (word == "tell" and " " not in rest):
            raise CribbageError(
                f"what to say: `{'say TEXT' if word == 'say' else 'tell NAME TEXT'}`"
            )
        if not self.room.may_talk(self.name):
            raise CribbageError("you talk faster than anyone can read: wait a moment")
        if word == "say":
            self._say_aloud(rest)
        else:
            whom, _, said = rest.partition(" ")
            self._tell(whom, said.strip())
        return True

    def _say_aloud(self, text: str) -> None:
        """To the table (its players and watchers), from a player; to the other watchers
        only, from a watcher while the game runs; to the lobby, from the lobby."""
        room = self.room
        said = printable(text)
        table = self.table or self.watched
        if table is None:
            hearers = [
                v
                for v in room.visitors
                if v.table is None
                and v.watched is None
                and room.kept_apart(self.name, v.name) is None
            ]
            where = "in the lobby"
        elif self.watched is not None and table.started and not table.over:
            hearers = [v for v in room.watching(table) if table.seat_of(v.name) is None]
            where = "to the watchers"
        else:
            hearers = room.at(table) + room.watching(table)
            where = f"at table {table.number}"
        for hearer in hearers:
            if hearer.name == self.name:
                continue
            if not room.muted(hearer.name, self.name):
                hearer.tell([f"{self.name} says: {said}"])
        self.say(f"You say {where}: {said}")

    def _tell(self, whom: str, text: str) -> None:
        room = self.room
        hearers = [v for v in room.visitors if v.name.lower() == whom.lower()]
        if not hearers:
            raise CribbageError(f"nobody called `{printable(whom[:20])}` is here")
        apart = room.kept_apart(self.name, hearers[0].name)
        if apart is not None:
            raise CribbageError(apart)
        said = printable(text)
        if not room.muted(hearers[0].name, self.name):
            for hearer in hearers:
                hearer.tell([f"{self.name} tells you: {said}"])
        self.say(f"You tell {hearers[0].name}: {said}")

    def _mute(self, whom: str, mute: bool) -> None:
        room = self.room
        muted = room.mutes.setdefault(self.name.lower(), set())
        if not whom:
            listed = ", ".join(sorted(muted)) or "nobody"
            self.say(f"  muted: {printable(listed)}")
            return
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,19}", whom):
            raise CribbageError("mute a person by their name, e.g. `mute bob`")
        if mute:
            if len(muted) >= MUTES_LIMIT:
                raise CribbageError(f"you mute {MUTES_LIMIT} people already: `unmute` one first")
            muted.add(whom.lower())
            self.say(f"  What {whom} says no longer reaches you (`unmute {whom}` undoes it).")
        else:
            muted.discard(whom.lower())
            self.say(f"  What {whom} says reaches you again.")

    # --- at a game --------------------------------------------------------------------

    async def _at_game(self, text: str, ui: SeatUI) -> None:
        seated = self.seated
        assert seated is not None
        table, room = seated.table, self.room
        word = text.split()[0].lower()
        if word in ("quit", "lobby"):  # (what people type for `leave`)
            self._leave()
            return
        if word == "undo":
            self.say("  no takebacks at a served table: the others have seen the moves")
            return
        if word == "adjourn":
            await self.room.adjourn(self, table)
            return
        if table.taken(ui.seat) and word not in ui.commands:
            self.say("  the computer plays for you now: `sit` takes your seat back")
            return
        ui.table = replace(ui.table, width=self._width())
        self._catch_up()  # what happened since the prompt was drawn, told first, in order
        if word in SLOW:  # a search: in a thread, so that every other table goes on
            error = await in_thread(ui.handle, text)
        else:
            error = ui.handle(text)
        if error:
            self.say(f"  {error}")  # escaped and styled by the seat
        self._show_table()
        room.changed(table)

    def _who(self) -> None:
        table = self.table or self.watched
        if table is None:
            return
        room = self.room
        watchers = room.watching(table)
        self.say(f"  {printable(table.describe(room.now(), room.idle_times(), len(watchers)))}")
        if watchers:
            names = sorted({v.name for v in watchers})
            self.say(f"  watching: {printable(', '.join(names))}")

    def _take_back(self) -> None:
        """``sit``: back in one's own seat after the computer took it over."""
        seated = self.seated
        if seated is None:
            return
        table = seated.table
        if not table.taken(seated.seat):
            self.say("  you play your own seat: the computer does not")
            return
        table.give_back(seated.seat)
        self.say("  Your seat is yours again.")
        self.room.tell_table(table, f"{self.name} plays again.", but=self)
        self.room.log(f"{self.name} takes the seat back at table {table.number}")
        seated.shown_at = -1
        self._show_table()
        self.room.changed(table)

    def _take_over(self) -> None:
        table = self.table
        if table is None:
            return
        now = self.room.now()
        seats = [seat for seat in table.away if table.can_take_over(seat, now)]
        if not seats:
            waits = [
                table.setup.away - (now - since)
                for seat, since in table.away.items()
                if not table.taken(seat)
            ]
            if waits:
                self.say(f"  wait {max(min(waits), 0):.0f} more seconds for them to come back")
            else:
                self.say("  nobody is away")
            return
        for seat in seats:
            table.take_over(seat)
            whom = table.names()[seat]
            self.room.tell_table(table, f"the computer plays for {whom} from now")
            self.room.log(
                f"the computer plays for {whom} at table {table.number} ({self.name} asked)"
            )
        self.room.changed(table)


SLOW = frozenset({"hint", "review"})
"""Commands that search (the hard computer's play, a round's review): run off the event
loop."""


@dataclass(frozen=True, slots=True)
class LobbyCommand:
    """A word the lobby understands: how it is typed, what it does, and its other
    spellings."""

    name: str
    usage: str
    help: str
    run: Callable[[Visitor, list[str]], None]
    aliases: tuple[str, ...] = ()


LOBBY = (
    LobbyCommand("new", NEW_USAGE, "open a table", Visitor._new),
    LobbyCommand("solo", "solo [LEVEL]", "play the computer alone", Visitor._solo),
    LobbyCommand("join", "join N", "sit at table N (or back in your seat)", Visitor._join),
    LobbyCommand(
        "watch", "watch N", "watch table N (its cards laid and shows)", Visitor._watch_table
    ),
    LobbyCommand("top", "top", "the ladder: the club's ratings", lambda v, rest: None),
    LobbyCommand("adjourned", "adjourned", "your adjourned games", lambda v, rest: None),
    LobbyCommand(
        "replay", "replay [N] [2x]", "your last games; game N played back", lambda v, rest: None
    ),
    LobbyCommand("resume", "resume N", "carry on adjourned game N", lambda v, rest: None),
    LobbyCommand("say", "say TEXT", "to everyone in the lobby", lambda visitor, rest: None),
    LobbyCommand("tell", "tell NAME TEXT", "to one person, anywhere", lambda visitor, rest: None),
    LobbyCommand(
        "mute", "mute [NAME]", "what NAME says no longer reaches you", lambda visitor, rest: None
    ),
    LobbyCommand(
        "tables",
        "tables",
        "who is here and the tables",
        lambda visitor, rest: visitor.show_lobby(),
        ("who", "look", "lobby"),
    ),
    LobbyCommand(
        "leave",
        "leave",
        "give up your seat at a table not yet begun",
        lambda visitor, rest: visitor._leave(),
    ),
    LobbyCommand("stats", "stats", "your history", lambda visitor, rest: None),
    LobbyCommand("help", "help", "this list", Visitor._help, ("?",)),
    LobbyCommand(
        "quit",
        "quit",
        "leave (a game in progress waits for you)",
        lambda visitor, rest: None,
        ("exit", "bye"),
    ),
)
"""The lobby's words, for its help and its dispatch (``stats`` and ``quit`` are run by
:meth:`Visitor._in_lobby` itself: one reads in a thread, the other ends the visit)."""


def lobby_help() -> list[str]:
    """What can be typed in the lobby, from :data:`LOBBY`."""
    lines = ["In the lobby:"]
    for command in LOBBY:
        if len(command.usage) > 24:  # (``new``'s options take lines of their own)
            lines += [f"  {command.name:<24} {command.help}:", f"    {command.usage}"]
        else:
            lines.append(f"  {command.usage:<24} {command.help}")
    return [*lines, "At a table, `help` lists what can be typed there."]


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

TOP = 20
"""The ladder's rows ``top`` shows (and yours, if lower)."""
LAST_GAMES = 10
"""The games ``replay`` lists."""


def _replayed(path: Path) -> Replay:
    """(In a thread.) A filed game, read and replayed through the rules."""
    text = read_text(path, LOG_LIMIT, follow_links=False)
    if text is None:
        raise CribbageError("that game is no longer there")
    return replay(loads(text))


MUTES_LIMIT = 100
"""The most people one person may mute."""

WATCH_HELP = (
    "Watching a table:",
    "  say TEXT         to the other watchers (to the players too once the game is over)",
    "  tell NAME TEXT   to one person (not to a player of this game while it runs)",
    "  mute [NAME]      what NAME says no longer reaches you; `unmute NAME` undoes it",
    "  who              who plays, and who watches",
    "  leave            back to the lobby",
)
"""What a watcher can type."""


def _idle_words(seconds: float | None) -> str:
    """`` (idle 3m)`` from a minute without a key typed."""
    if seconds is None or seconds < 60:
        return ""
    return f" (idle {int(seconds // 60)}m)"
