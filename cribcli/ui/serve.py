"""``cribbage serve``: the game over SSH, so that friends play each other with nothing
to install. Each connection gets the same prompt and table as ``cribbage play``, with its
own seat's view only; a lobby lists who is here and the tables, and starts or joins one.

asyncssh is an optional extra: this module is imported only by ``serve``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import signal
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncssh
from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.application import create_app_session, get_app_or_none, run_in_terminal
from prompt_toolkit.contrib.ssh import PromptToolkitSSHSession
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.styles import Style as PromptStyle

from cribcli import workers
from cribcli.engine import seats_to_act, target_of
from cribcli.errors import CribbageError, UsageProblem, printable
from cribcli.events import GameOver
from cribcli.games import Saver, computer_action, computers
from cribcli.lobby import (
    AWAY_LIMIT,
    NEW_USAGE,
    Lobby,
    ServedTable,
    TableSetup,
    parse_setup,
    player_name,
)
from cribcli.players import Level
from cribcli.record import LOG_LIMIT, loads
from cribcli.session import Session
from cribcli.stats import history_of, remember
from cribcli.store import (
    Places,
    file_log,
    read_text,
    reason,
    save_settings,
    set_aside,
    write_atomic,
)
from cribcli.ui.narrate import Table
from cribcli.ui.play import COMMANDS, Command, GameUI
from cribcli.ui.render import Style, stats_lines
from cribcli.ui.repl import CardCompleter, TableOutput

_ENDS = re.compile(r"\r\n|\r|\n")
KEYS_LIMIT = 1 << 20
"""The most bytes an authorized-keys file may hold."""
META_LIMIT = 4096
CUT_AFTER = 5.0
"""Seconds a closed connection's client has to take its last lines before it is cut."""
"""The most bytes a table's settings file may hold."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one connection, and the room, may do."""

    connections: int = 100
    """Connections at once, in all."""
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


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """What ``cribbage serve`` was asked for."""

    root: Path
    """The server's data folder: host key, tables in play, and each player's folder."""
    host: str = "127.0.0.1"
    port: int = 2222
    authorized_keys: Path | None = None
    open: bool = False
    limits: Limits = Limits()
    pace: float = 0.6
    """Seconds between the computers' moves, so that people can follow them."""


def load_keys(path: Path) -> dict[str, str]:
    """The authorized-keys file: one ``NAME KEY`` a line (``KEY`` as in OpenSSH's
    authorized_keys: type, base64, comment). Returns the names by key fingerprint.
    Raises UsageProblem for a file that cannot be read or a line that is not a key."""
    try:
        text = read_text(path, KEYS_LIMIT)
    except CribbageError as error:
        raise UsageProblem(f"--authorized-keys: {error}") from None
    if text is None:
        raise UsageProblem(f"--authorized-keys: there is no file {printable(str(path))}")
    names: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"--authorized-keys line {number}"
        parts = line.split(None, 1)
        if len(parts) != 2:
            raise UsageProblem(f"{where}: write a name, then the key (`ann ssh-ed25519 AAAA...`)")
        try:
            name = player_name(parts[0])
            key = asyncssh.import_public_key(parts[1].strip())
        except CribbageError as error:
            raise UsageProblem(f"{where}: {error}") from None
        except (asyncssh.KeyImportError, ValueError):
            raise UsageProblem(f"{where}: not a public key") from None
        names[key.get_fingerprint()] = name
    return names


def host_key(root: Path) -> asyncssh.SSHKey:
    """The server's host key: made once, kept in the data folder readable by its owner
    only (mode 0600)."""
    path = root / "host_key"
    try:
        text = read_text(path, 64 << 10, follow_links=False)
    except CribbageError as error:
        raise CribbageError(f"the host key: {error}") from None
    if text is not None:
        if os.stat(path).st_mode & 0o077:
            raise CribbageError(f"the host key {path} can be read by others: chmod 600 it")
        try:
            return asyncssh.import_private_key(text)
        except (asyncssh.KeyImportError, ValueError):
            raise CribbageError(f"{path} is not a private key: move it away") from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    return key


class Room:
    """The server's state: the lobby, the people connected, and each table's computer."""

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.limits = options.limits
        self.lobby = Lobby(self.limits.tables)
        self.visitors: list[Visitor] = []
        self.keys = load_keys(options.authorized_keys) if options.authorized_keys else {}
        self.connections = 0
        self.drivers: dict[int, asyncio.Task[None]] = {}
        self.savers: dict[int, Saver] = {}
        self.gates: set[Gate] = set()
        self.pool = workers.pool(os.cpu_count() or 1)
        """Where the computers decide (each table's, a decision at a time)."""
        self.started = time.monotonic()
        self.told: Callable[[str], None] = lambda line: None
        """The operator's log: a line for each thing that happens in the room."""

    def log(self, line: str) -> None:
        """Tell the operator, with the time: who came and went, what the tables did."""
        self.told(f"{datetime.now().strftime('%Y-%m-%d %H:%M:%S')} {line}")

    # --- places ------------------------------------------------------------------------

    @property
    def tables_folder(self) -> Path:
        return self.options.root / "tables"

    def places(self, name: str) -> Places:
        """A player's own folder (their finished games, their stats), made on first use."""
        base = self.options.root / "players" / player_name(name)
        places = Places(base, base, base)
        if not places.settings.exists():
            base.mkdir(parents=True, exist_ok=True)
            save_settings(places.settings, {"name": name})
        return places

    def saver(self, number: int) -> Saver:
        """What saves table ``number``'s game after every move: a write that fails is told
        to the table at once, and the game goes on in memory."""
        saver = Saver(self.tables_folder / f"table-{number}.toml", self._warn_table(number))
        self.savers[number] = saver
        return saver

    def _warn_table(self, number: int) -> Callable[[str], None]:
        def warn(line: str) -> None:
            table = self.lobby.tables.get(number)
            for visitor in self.at(table) if table else []:
                visitor.tell([f"  the server {line}"])

        return warn

    def now(self) -> float:
        return time.monotonic() - self.started

    # --- carrying on -------------------------------------------------------------------

    def carry_on(self) -> list[str]:
        """Every table saved when the server stopped, back in the room, everyone away.
        Returns what could not be carried on, to be told."""
        problems: list[str] = []
        folder = self.tables_folder
        if not folder.is_dir():
            return problems
        for path in sorted(folder.glob("table-*.toml")):
            stem = path.stem.removeprefix("table-")
            if not re.fullmatch(r"[0-9]{1,6}", stem) or int(stem) in self.lobby.tables:
                continue
            number = int(stem)
            try:
                text = read_text(path, LOG_LIMIT, follow_links=False) or ""
                log = loads(text)
                if not any(spec.player == "human" for spec in log.info.seats):
                    raise CribbageError("no person sits at it")
                save = self.saver(number)
                session = Session.resume(log, computers(log.info), save)
                setup = self._setup_of(number, session)
            except (CribbageError, ValueError, RecursionError) as error:
                self.lobby.reserved.add(number)  # never written over by a new table
                with contextlib.suppress(OSError):
                    kept = set_aside(path)
                    problems.append(
                        f"table {number} could not be carried on ({error}): kept as {kept}"
                    )
                    continue
                problems.append(f"table {number} could not be carried on: {error}")
                continue
            save.text = text
            table = ServedTable.carried_on(number, session, setup, save)
            self.lobby.add(table)
            if session.over:  # it ended as the server stopped: file it now
                self.finish(table)
            else:
                self.drive(number)
        return problems

    def _meta(self, number: int) -> Path:
        return self.tables_folder / f"table-{number}.json"

    def _setup_of(self, number: int, session: Session) -> TableSetup:
        """A carried-on table's setup: its rules and seats from the log; the level and the
        time the creator set to wait for people away from the table's settings file."""
        info = session.info
        robots = [spec for spec in info.seats if spec.player == "computer"]
        setup = TableSetup(
            players=info.rules.players,
            short=info.rules.target == target_of(True),
            muggins=info.rules.muggins,
            computers=len(robots),
            level=robots[0].level if robots and robots[0].level else Level.NORMAL,
        )
        with contextlib.suppress(CribbageError, ValueError, TypeError):
            meta = json.loads(read_text(self._meta(number), META_LIMIT) or "{}")
            away, level = meta.get("away"), meta.get("level")
            if type(away) in (int, float) and 0 <= away <= AWAY_LIMIT:
                setup = replace(setup, away=float(away))
            if isinstance(level, str) and level in set(Level):
                setup = replace(setup, level=Level(level))
        return setup

    def keep_setup(self, table: ServedTable) -> None:
        with contextlib.suppress(OSError):
            self.tables_folder.mkdir(parents=True, exist_ok=True)
            meta = {"away": table.setup.away, "level": str(table.setup.level)}
            write_atomic(self._meta(table.number), json.dumps(meta))

    # --- tables ------------------------------------------------------------------------

    def at(self, table: ServedTable) -> list[Visitor]:
        """The visitors seated at ``table`` (that very table: numbers are used again)."""
        return [v for v in self.visitors if v.table is table]

    def changed(self, table: ServedTable | None = None) -> None:
        """Something happened at ``table``: wake the people at it, and its computer; or
        (None) in the room: wake everyone. A move wakes only its own table: a room of
        many tables must not redraw every prompt for each."""
        for visitor in self.visitors:
            if table is None or visitor.table is table:
                visitor.wake()
        if table is not None:
            self.drive(table.number)

    def start(self, table: ServedTable) -> None:
        """Every seat is taken: the game begins."""
        started = datetime.now().astimezone().isoformat(timespec="seconds")
        self.tables_folder.mkdir(parents=True, exist_ok=True)
        self.keep_setup(table)
        session = table.start(secrets.randbits(32), started)
        names = " v ".join(printable(spec.name) for spec in session.info.seats)
        self.log(f"table {table.number} begins: {names} ({table.setup.describe()})")
        self.changed(table)

    def drive(self, number: int) -> None:
        """Make sure table ``number``'s computers play when the game waits for them."""
        task = self.drivers.get(number)
        if task is None or task.done():
            self.drivers[number] = asyncio.get_running_loop().create_task(self._drive(number))

    async def _drive(self, number: int) -> None:
        while True:
            table = self.lobby.tables.get(number)
            if table is None or table.session is None:
                return
            session = table.session
            if session.over:
                self.finish(table)
                return
            seat = session.computer_to_act()
            if seat is None:
                return
            await asyncio.sleep(self.options.pace)
            state = session.state
            try:  # decided in a worker process: the loop, and the other tables, go on
                loop = asyncio.get_running_loop()
                decided = loop.run_in_executor(
                    self.pool, computer_action, session.info, state, seat
                )
                action = await decided
                if session.state is not state or seat not in session.computers:
                    continue  # a person acted meanwhile, or took the seat back
                session.act(action)
            except Exception as error:  # a bug: say so, and leave the game as it stands
                for visitor in self.at(table):
                    visitor.tell([f"  the computer could not play ({error}): the game is saved"])
                return
            self.changed(table)

    def finish(self, table: ServedTable) -> None:
        """A game is over: its log filed for each person who played it (their ``stats``
        and ``replay`` see it), and the table closed."""
        session = table.session
        assert session is not None
        text = self.savers[table.number].text
        filed_as = f"{datetime.now().strftime('%Y-%m-%d')}-table-{table.number}"
        all_filed = True
        for spec in session.info.seats:
            if spec.player != "human":
                continue
            try:
                places = self.places(spec.name)
                path = file_log(places.games, filed_as, text)
            except (OSError, CribbageError) as error:
                all_filed = False
                why = reason(error) if isinstance(error, OSError) else str(error)
                for visitor in self.named(spec.name):
                    visitor.tell(
                        [
                            f"  your copy of the game could not be filed ({why}): "
                            "the server keeps it and tries again when it starts"
                        ]
                    )
                continue
            remember(places.index, path, session.info, session.events, text, spec.name)
        names = ", ".join(spec.name for spec in session.info.seats if spec.player == "human")
        over = session.events[-1]
        result = ""
        if isinstance(over, GameOver):
            seats = enumerate(session.info.seats)
            rules = session.info.rules
            winner = " & ".join(spec.name for n, spec in seats if rules.side_of(n) == over.winner)
            result = f" ({winner} won, {' to '.join(map(str, over.scores))})"
        self.log(f"table {table.number}'s game is over{result}: filed for {names}")
        if all_filed:  # else the save stays: the next start files it again
            with contextlib.suppress(OSError):
                (self.tables_folder / f"table-{table.number}.toml").unlink()
                self._meta(table.number).unlink()
        self.lobby.close(table.number)
        self.savers.pop(table.number, None)

    def stand(self, visitor: Visitor, table: ServedTable, *, leaving: bool) -> None:
        """``visitor`` goes from ``table``: asked to (``leaving``), or its connection ended.
        A person still there on another connection stays, unless they asked to leave a
        table not started (then the seat opens for all their connections)."""
        name = visitor.name
        others = [v for v in self.named(name) if v is not visitor and v.table is table]
        if others and not (leaving and not table.started):
            return
        for other in others:
            other.seated = None
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

    def tell_table(self, table: ServedTable, line: str, but: Visitor | None = None) -> None:
        """Tell the people at the table (all but one)."""
        for visitor in self.at(table):
            if visitor is not but:
                visitor.tell([f"  {line}"])

    def key_file(self, name: str) -> Path:
        """Where, with --open, the key a name belongs to is kept."""
        return self.options.root / "players" / player_name(name) / "key"

    def named(self, name: str) -> list[Visitor]:
        return [v for v in self.visitors if v.name == name]

    def people_here(self) -> list[str]:
        return sorted({v.name for v in self.visitors})


class Gate(asyncssh.SSHServer):
    """One connection's door: who it is (by key), and the room's limits on connections."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.name: str | None = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self.counted = False
        self.fingerprint = ""
        self.authed = False
        self.session_opened = False
        self.peer = "?"
        self.username: str | None = None
        """The name a client asked to come in under (escaped, for the operator's log)."""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.room.gates.add(self)
        if self.room.connections >= self.room.limits.connections:
            self.room.log(f"a connection from {self.peer} refused: the room is full")
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, "the room is full")
            return
        self.room.connections += 1
        self.counted = True

    def connection_lost(self, exc: Exception | None) -> None:
        self.room.gates.discard(self)
        if self.counted:
            self.room.connections -= 1
            self.counted = False
        if self.authed:
            self.room.log(f"{self.name} went (from {self.peer})")
        elif self.username is not None:
            self.room.log(f"`{self.username}` from {self.peer} refused: no key let in")

    def begin_auth(self, username: str) -> bool:
        self.username = printable(username[:40])
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        fingerprint = key.get_fingerprint()
        room = self.room
        name = room.keys.get(fingerprint) if room.keys else self._open_door(username, fingerprint)
        if name is None:
            return False
        here = [g for g in room.gates if g.authed and g.name == name]
        if len(here) >= room.limits.per_key:
            return False
        self.name, self.fingerprint = name, fingerprint
        return True

    def _open_door(self, username: str, fingerprint: str) -> str | None:
        """With --open: anyone, under the name they give; the first key a name comes with
        is that name's from then on (only read here: nothing is written before the key is
        proved, at :meth:`auth_completed`)."""
        if not self.room.options.open:
            return None
        try:
            name = player_name(username)
            known = read_text(self.room.key_file(name), 4096, follow_links=False)
        except CribbageError:
            return None
        return name if known is None or known.strip() == fingerprint else None

    def auth_completed(self) -> None:
        self.authed = True
        room = self.room
        room.log(f"{self.name} came in from {self.peer}")
        if room.options.open and self.name is not None:
            try:
                kept = room.key_file(self.name)
                if read_text(kept, 4096, follow_links=False) is None:
                    room.places(self.name)
                    write_atomic(kept, self.fingerprint + "\n")
            except (CribbageError, OSError):
                pass  # the name is not held to this key yet: the next login tries again
        asyncio.get_running_loop().call_later(room.limits.login, self._no_session)

    def _no_session(self) -> None:
        """Logged in, but no terminal asked for in time: closed."""
        if not self.session_opened and self.conn is not None:
            self.conn.close()

    def connection_requested(self, *args: object) -> bool:
        return False  # no port forwarding

    def server_requested(self, *args: object) -> bool:
        return False  # no remote forwarding

    def unix_connection_requested(self, *args: object) -> bool:
        return False

    def unix_server_requested(self, *args: object) -> bool:
        return False

    def session_requested(self) -> asyncssh.SSHServerSession[str] | bool:
        if self.name is None or self.session_opened:
            return False  # one terminal a connection: the limits count connections
        self.session_opened = True
        return Connection(self.room, self.name)


class Connection(PromptToolkitSSHSession):
    """One person's terminal: limits on what it sends, then the lobby and the tables."""

    def __init__(self, room: Room, name: str) -> None:
        self.room = room
        self.name = name
        self.visitor: Visitor | None = None
        self.last_input = time.monotonic()
        self.burst: list[float] = []
        self.partial = 0
        super().__init__(self._visit, enable_cpr=False)

    async def _visit(self, ssh: PromptToolkitSSHSession) -> None:
        visitor = self.visitor = Visitor(self.room, self)
        with contextlib.suppress(asyncio.CancelledError):  # the connection went away
            await visitor.run()

    async def _interact(self) -> None:
        """The person's terminal, as prompt_toolkit's SSH session makes it, but for an
        output that draws the board below the prompt at once (never after asking the
        client where its cursor is, which would leave the board out until it answered)."""
        chan = self._chan
        if chan is None:
            return
        if hasattr(chan, "set_line_mode"):
            chan.set_line_mode(False)  # prompt_toolkit edits the line, not asyncssh
        term = chan.get_terminal_type()
        self._output = TableOutput(self.stdout, self._get_size, term=term, enable_cpr=False)
        with (
            create_pipe_input() as self._input,
            create_app_session(input=self._input, output=self._output) as session,
        ):
            self.app_session = session
            try:
                await self.interact(self)
            finally:
                chan.close()
                self._input.close()

    def exec_requested(self, command: str) -> bool:
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def data_received(self, data: str, datatype: object) -> None:
        now = time.monotonic()
        self.last_input = now
        lines = _ENDS.split(data)
        for _ in lines[1:]:
            if not self._within_rate(now):
                self.close("too many lines at once")
                return
        self.partial = len(lines[-1]) + (self.partial if len(lines) == 1 else 0)
        if self.partial > 4 * self.room.limits.line:  # a flood, not typing
            self.close(f"a line longer than {self.room.limits.line} characters")
            return
        super().data_received(data, datatype)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.interact_task is not None:
            self.interact_task.cancel()

    def terminal_size_changed(
        self, width: int, height: int, pixwidth: object, pixheight: object
    ) -> None:
        if not self._within_rate(time.monotonic()):
            self.close("too many window changes")
            return
        super().terminal_size_changed(width, height, pixwidth, pixheight)

    def _within_rate(self, now: float) -> bool:
        window = 3.0
        self.burst = [t for t in self.burst if now - t < window]
        self.burst.append(now)
        return len(self.burst) <= self.room.limits.rate * window

    def close(self, why: str) -> None:
        """Close this connection (only), telling the person why. The person leaves the
        room at once; the connection is cut after a moment even if the client does not
        answer."""
        chan = self._chan
        if self.interact_task is not None:
            self.interact_task.cancel()
        if chan is None:
            return
        with contextlib.suppress(Exception):
            chan.write(f"\r\nClosed: {why}.\r\n")
            chan.exit(1)
        conn = chan.get_extra_info("connection")
        if conn is not None:
            asyncio.get_running_loop().call_later(CUT_AFTER, conn.abort)


@dataclass
class _Seated:
    table: ServedTable
    seat: int
    ui: GameUI | None = None
    shown_at: int = -1
    """How many events had happened when the table was last shown."""


class Visitor:
    """A person in the room: the lobby's commands, then a seat at a table."""

    def __init__(self, room: Room, connection: Connection) -> None:
        self.room = room
        self.connection = connection
        self.name = connection.name
        self.seated: _Seated | None = None
        self._woken = asyncio.Event()
        self._outbox: list[str] = []
        self.prompt: PromptSession[str] | None = None
        self.style = Style(unicode=True, color=True)
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()

    @property
    def table(self) -> ServedTable | None:
        return self.seated.table if self.seated else None

    # --- the loop ---------------------------------------------------------------------

    async def run(self) -> None:
        room = self.room
        room.visitors.append(self)
        self.prompt = PromptSession(
            completer=_Completer(self),
            complete_while_typing=False,
            bottom_toolbar=self._toolbar,
            style=PromptStyle.from_dict({"bottom-toolbar": "noreverse"}),
        )
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
        if not text:
            return True
        try:
            if self.seated is not None and self.seated.ui is not None:
                await self._at_game(text, self.seated.ui)
                return True
            return await self._in_lobby(text)
        except CribbageError as error:
            self.say(f"  {printable(str(error))}")
        except OSError as error:
            self.say(f"  the server cannot do that now ({reason(error)})")
        return True

    def _message(self) -> str:
        seated = self.seated
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
        if seated is None or seated.ui is None:
            return ANSI("")
        return ANSI("\n".join(seated.ui.board(self._width())))

    def _width(self) -> int:
        size = self.connection._get_size()
        return max(size.columns, 20)

    # --- output -----------------------------------------------------------------------

    def say(self, line: str) -> None:
        """A line to this person: now, from this connection's own task; from a worker
        thread (a hint being worked out), above the prompt soon."""
        if threading.get_ident() != self._thread:
            self._loop.call_soon_threadsafe(self.tell, [line])
            return
        print_formatted_text(ANSI(line))

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
        seated = self.seated
        if seated is None:
            return
        if seated.ui is None and seated.table.session is not None:
            self._begin(seated)
            return
        ui = seated.ui
        if ui is not None and ui.told < len(ui.session.events):
            ui.tell()
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
        self.say(f"Here: {', '.join(printable(name) for name in room.people_here())}.")
        tables = list(room.lobby.tables.values())
        if not tables:
            self.say("No tables yet: `new` opens one, `solo` plays the computer.")
        for table in tables:
            self.say(f"  {printable(table.describe(room.now()))}")

    async def _in_lobby(self, text: str) -> bool:
        words = text.split()
        word, rest = words[0].lower(), words[1:]
        room = self.room
        if word in ("quit", "exit", "bye"):
            return False
        if word in ("help", "?"):
            for line in LOBBY_HELP:
                self.say(line)
        elif word in ("tables", "who", "look", "lobby"):
            self.show_lobby()
        elif word == "new":
            self._open(parse_setup(rest))
        elif word == "solo":
            level = Level(rest[0].lower()) if rest and rest[0].lower() in set(Level) else None
            self._open(TableSetup(computers=1, level=level or Level.NORMAL))
        elif word == "join":
            if len(rest) != 1 or not re.fullmatch(r"[0-9]{1,6}", rest[0]):
                raise CribbageError("join a table by its number, e.g. `join 2`")
            table = room.lobby.tables.get(int(rest[0]))
            if table is None or table.over:
                raise CribbageError(f"there is no table {rest[0]}")
            if room.lobby.table_of(self.name) not in (None, table):
                raise CribbageError("you sit at another table: `leave` it first")
            if table.seat_of(self.name) is not None and table.started:
                self._sit_back(table)
                return True
            table.sit(self.name)
            self._sit(table)
            self.say(f"You sit at table {table.number}.")
            if table.ready:
                room.start(table)
            room.changed()
        elif word == "leave" and self.seated is not None:
            self._leave()
        elif word == "stats":
            for line in await asyncio.to_thread(self._stats):
                self.say(line)
        else:
            raise CribbageError(f"`{word[:20]}` is not a lobby command: `help` lists them")
        return True

    def _open(self, setup: TableSetup) -> None:
        room = self.room
        table = room.lobby.open_table(self.name, setup, room.saver)
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
        ui = GameUI(session, seat, table, say=self.say, commands=self._table_commands())
        seated.ui = ui
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
        help_last = game.pop("help")
        return {**game, **{command.name: command for command in own}, "help": help_last}

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
        return stats_lines(total, served=True)

    # --- at a game --------------------------------------------------------------------

    async def _at_game(self, text: str, ui: GameUI) -> None:
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
        if table.taken(ui.seat) and word not in ui.commands:
            self.say("  the computer plays for you now: `sit` takes your seat back")
            return
        ui.table = replace(ui.table, width=self._width())
        self._catch_up()  # what happened since the prompt was drawn, told first, in order
        if word in SLOW:  # a search: in a thread, so that every other table goes on
            error = await asyncio.to_thread(ui.handle, text)
        else:
            error = ui.handle(text)
        if error:
            self.say(f"  {printable(error)}")
        self._show_table()
        room.changed(table)

    def _who(self) -> None:
        table = self.table
        if table is not None:
            self.say(f"  {printable(table.describe(self.room.now()))}")

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


LOBBY_HELP = (
    "In the lobby:",
    f"  {NEW_USAGE}",
    "  solo [easy|normal|hard]   play the computer alone",
    "  join N     sit at table N (or back in your seat)",
    "  tables     who is here and the tables",
    "  stats      your history",
    "  quit       leave (a game in progress waits for you)",
    "At a table, `help` lists what can be typed there.",
)


class _Completer(CardCompleter):
    def __init__(self, visitor: Visitor) -> None:
        self.visitor = visitor

    def get_completions(self, document: Any, event: Any) -> Any:
        seated = self.visitor.seated
        if seated is None or seated.ui is None:
            return iter(())
        self.ui = seated.ui
        return super().get_completions(document, event)


async def serve(
    options: ServeOptions,
    ready: Callable[[str], None] | None = None,
    stop: asyncio.Event | None = None,
    room: Room | None = None,
) -> None:
    """Serve until Ctrl-C or SIGTERM (or ``stop`` is set); every table's game is saved as
    it goes and carried on when the server starts again. ``ready`` hears what there is to
    tell the operator: the host key's fingerprint, tables that could not be carried on,
    the address once it listens, then a line with the time for each thing that happens
    in the room. ``room``: the room to serve (made from ``options`` if not given)."""
    room = room or Room(options)
    if ready is not None:
        room.told = ready
    key = host_key(options.root)
    room.told(
        f"host key {key.get_fingerprint()} ({key.get_algorithm()}): what a friend's ssh "
        "shows the first time it connects, to check it is this server"
    )
    for problem in room.carry_on():
        room.told(problem)
    limits = options.limits
    server = await asyncssh.create_server(
        lambda: Gate(room),
        options.host,
        options.port,
        server_host_keys=[key],
        allow_scp=False,
        agent_forwarding=False,
        x11_forwarding=False,
        login_timeout=limits.login,
        keepalive_interval=60,
        encoding="utf-8",
    )
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    port = server.sockets[0].getsockname()[1]
    room.told(f"listening on {options.host} port {port}")
    try:
        await stop.wait()
    finally:
        room.log("stopping: every game is saved")
        for visitor in list(room.visitors):
            visitor.connection.close("the server is stopping; your game is saved")
        server.close()
        await server.wait_closed()
        connections = [gate.conn for gate in room.gates if gate.conn is not None]
        for conn in connections:
            conn.close()
        for conn in connections:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(conn.wait_closed(), 5)
        for task in room.drivers.values():
            task.cancel()
        room.pool.shutdown(wait=True, cancel_futures=True)
