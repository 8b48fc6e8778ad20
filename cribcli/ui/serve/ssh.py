"""The server's SSH side: who may come in (by key), the room's limits on connections,
and each person's terminal, on which the room's :class:`~cribcli.ui.serve.person.Person`
runs. The only module that imports asyncssh (an optional extra: ``cribcli[serve]``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import random
import signal
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from prompt_toolkit.application import create_app_session

with warnings.catch_warnings():
    # asyncssh still names DSA, which cryptography 51 deprecates with a warning at import;
    # the server neither offers nor accepts a DSA key (load_keys), so the player need not read it.
    warnings.filterwarnings("ignore", message="DSA is deprecated")
    import asyncssh
    from prompt_toolkit.contrib.ssh import PromptToolkitSSHSession

from cribcli.club.lobby import player_name
from cribcli.club.served import catch_up
from cribcli.record.store import StoreError, read_text
from cribcli.rules.errors import CribbageError, UsageProblem, printable
from cribcli.ui.repl import TableOutput
from cribcli.ui.serve.capacity import BY_FILES, collect_rarely
from cribcli.ui.serve.guard import Flood, KeyGuard, OutputWatch
from cribcli.ui.serve.keys import ChannelInput, TooManyKeys
from cribcli.ui.serve.person import Person
from cribcli.ui.serve.room import Limits, Room, ServeOptions
from cribcli.ui.serve.share import charge_to, metered

KEYS_LIMIT = 1 << 20
"""The most bytes an authorized-keys file may hold."""
CUT_AFTER = 3.0
"""Seconds a closed connection's client has to take its last lines before it is cut."""
STOP_WITHIN = 5.0
"""Seconds the server has to stop after SIGTERM or Ctrl-C before it simply ends."""
TRIES = 10
"""Keys a client may offer in vain before it is cut off (OpenSSH's own client gives up
after six)."""
ASKED = 3 * TRIES
"""Keys a client may offer at all, let in or not (each is asked about, then signed: a
client that signs badly again and again is cut off too)."""


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
            with warnings.catch_warnings():  # (a DSA key warns as it is read: refused below)
                warnings.filterwarnings("ignore", message="DSA is deprecated")
                key = asyncssh.import_public_key(parts[1].strip())
        except CribbageError as error:
            raise UsageProblem(f"{where}: {error}") from None
        except (asyncssh.KeyImportError, ValueError):
            raise UsageProblem(f"{where}: not a public key") from None
        if key.algorithm == b"ssh-dss":
            raise UsageProblem(f"{where}: a DSA key is no longer safe: use ssh-ed25519")
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


@dataclass
class Door:
    """Who may come in, and who is coming and going: the authorized keys (none: anyone,
    with --open), and every connection, logged in or not."""

    keys: dict[str, str]
    """The names by key fingerprint."""
    gates: set[Gate] = field(default_factory=set)
    connections: int = 0
    """The logged-in connections, counted against the room's limit."""
    starting: Counter[str] = field(default_factory=Counter)
    """Connections not yet logged in, by address: places of their own, so that silent
    sockets cannot take the people's."""
    chance: Callable[[], float] = random.random
    """Where the random early drop draws (a test gives its own)."""
    named: dict[str, list[float]] = field(default_factory=dict)
    """With --open: when each address gave a new name, over the last hour."""
    names: int = 0
    """With --open: the names kept (counted at the start, then kept up to date)."""
    closed: int = 0
    """The connections closed since the server started (for the garbage collector:
    :func:`~cribcli.ui.serve.capacity.collect_rarely`)."""
    claims: dict[str, str] = field(default_factory=dict)
    """With --open: new names logged in with a key not yet written down, by name (in
    lower case): the key each was claimed with, so that no other key takes it meanwhile."""

    def may_name(self, peer: str, now: float, limits: Limits) -> bool:
        """Whether ``peer`` may give one more new name now."""
        recent = [when for when in self.named.get(peer, []) if now - when < 3600.0]
        if recent:
            self.named[peer] = recent
        else:
            self.named.pop(peer, None)
        return len(recent) < limits.new_names_per_hour and self.names < limits.names

    def new_name(self, peer: str, now: float) -> None:
        """``peer`` gave a new name (its key now kept), at ``now``."""
        self.named.setdefault(peer, []).append(now)
        self.names += 1

    def let_start(self, peer: str, limits: Limits) -> str | None:
        """Whether a new connection from ``peer`` may try to log in: None, or why not."""
        waiting = self.starting.total()
        if self.starting[peer] >= limits.starting_per_address:
            return "too many connections from one address waiting to log in"
        if waiting >= limits.starting_full:
            return "too many connections waiting to log in"
        if waiting >= limits.starting:
            share = (waiting - limits.starting) / max(1, limits.starting_full - limits.starting)
            if self.chance() < 0.3 + 0.7 * share:
                return "too many connections waiting to log in"
        self.starting[peer] += 1
        return None

    def started(self, peer: str) -> None:
        """A connection from ``peer`` is no longer waiting to log in."""
        self.starting[peer] -= 1
        if self.starting[peer] <= 0:
            del self.starting[peer]


def address_key(address: str) -> str:
    """Where a connection comes from, as its limits count it: an IPv4 address (also when
    mapped into IPv6), or an IPv6 address's /64 (one network hands out a whole /64)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Gate(asyncssh.SSHServer):
    """One connection's door: who it is (by key), and the room's limits on connections."""

    def __init__(self, room: Room, door: Door) -> None:
        self.room = room
        self.door = door
        self.name: str | None = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self.counted = False
        """Whether it holds one of the room's places (logged in)."""
        self.starting = False
        """Whether it holds one of the places of those waiting to log in."""
        self.fingerprint = ""
        self.authed = False
        self.session_opened = False
        self.peer = "?"
        self.username: str | None = None
        self.tries = 0
        """Keys refused so far."""
        self.asked = 0
        """Keys offered so far, let in or not."""
        self.naming = ""
        """A new name this connection was let in under (in lower case), counted."""
        self.holding: asyncio.Task[None] | None = None
        """With --open: the name's key being written down."""
        self.refused = ""
        """Why its login was last refused: ``key`` (not a key let in), ``many`` (its
        name has as many connections as it may), ``names`` (no more new names from its
        address), ``store`` (the club's store failed); empty if it never was."""
        self.store_error = ""
        """The name a client asked to come in under (escaped, for the operator's log)."""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = address_key(str(peer[0])) if isinstance(peer, tuple) and peer else "?"
        self.door.gates.add(self)
        why = self.door.let_start(self.peer, self.room.limits)
        if why is not None:
            self.room.log(f"a connection from {self.peer} refused: {why}")
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, why)
            return
        self.starting = True

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.gates.discard(self)
        self.door.closed += 1
        if self.starting:
            self.door.started(self.peer)
            self.starting = False
        if self.counted:
            self.door.connections -= 1
            self.counted = False
        if self.authed:
            self.room.log(f"{self.name} went (from {self.peer})")
        elif self.refused:
            why = {
                "key": "no key let in",
                "many": "as many connections as a name may",
                "names": "no more new names from there for now",
                "store": f"the club's store failed ({self.store_error})",
            }[self.refused]
            self.room.log(f"`{self.username}` from {self.peer} refused: {why}")
        else:
            self.room.log(f"a connection from {self.peer} went before logging in")

    def begin_auth(self, username: str) -> bool:
        self.username = printable(username[:40])
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Whether ``key`` may come in under ``username`` (the files it takes are read off
        the event loop). A client refused :data:`TRIES` times is cut off."""
        self.asked += 1
        if self.asked > ASKED and self.conn is not None:  # (a key sent with bad signatures)
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "too many tries")
            return False
        if await self._let_in(username, key.get_fingerprint()):
            return True
        self.tries += 1
        if self.tries >= TRIES and self.conn is not None:
            self.room.log(f"`{self.username}` from {self.peer} cut off: {TRIES} keys refused")
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "too many tries")
        return False

    async def _let_in(self, username: str, fingerprint: str) -> bool:
        room = self.room
        keys = self.door.keys
        try:
            if keys:
                name = keys.get(fingerprint)
            else:
                name = await self._open_door(username, fingerprint)
            if name is None:
                self.refused = self.refused or "key"
                return False
            # one person whatever the case, as first written
            name = await asyncio.to_thread(room.games.known_as, name)
        except StoreError as error:  # the club's store, not the key: said so, both ways
            self._store_failed(error)
            return False
        # (those let in a moment ago and not yet logged in count too: logins in parallel)
        here = [g for g in self.door.gates if g.name == name and g is not self]
        if len(here) >= room.limits.per_key:
            self.refused = "many"
            return False
        self.name, self.fingerprint = name, fingerprint
        return True

    async def _open_door(self, username: str, fingerprint: str) -> str | None:
        """With --open: anyone, under the name they give; the first key a name comes with
        is that name's from then on (only read here: nothing is written before the key is
        proved, at :meth:`auth_completed`)."""
        if not self.room.options.open:
            return None
        room = self.room
        try:
            name = player_name(username)
        except CribbageError:
            return None
        known = await asyncio.to_thread(room.games.key_of, name)  # (StoreError: the caller's)
        if known is not None:
            return name if known == fingerprint else None
        claimed = self.door.claims.get(name.lower())
        if claimed is not None:  # logged in a moment ago, its key not yet written down
            return name if claimed == fingerprint else None
        if self.naming != name.lower():  # (asked twice a key: counted once)
            if not self.door.may_name(self.peer, time.monotonic(), room.limits):
                self.refused = "names"
                return None
            # Counted now, not once the key is written: logins in parallel cannot each
            # find room for one more new name.
            self.door.new_name(self.peer, time.monotonic())
            self.naming = name.lower()
        return name

    def _store_failed(self, error: StoreError) -> None:
        """The club's store could not say whom a key belongs to: the person is told the
        club cannot let them in now, and the operator why."""
        self.refused = "store"
        self.store_error = str(error)
        if self.conn is not None:
            self.conn.disconnect(
                asyncssh.DISC_SERVICE_NOT_AVAILABLE,
                "the club cannot let you in now: try again in a while",
            )

    def auth_completed(self) -> None:
        room = self.room
        if self.starting:
            self.door.started(self.peer)
            self.starting = False
        if self.door.connections >= room.limits.connections:
            room.log(f"{self.name} from {self.peer} refused: the room is full")
            if self.conn is not None:
                self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, "the room is full")
            return
        name = self.name
        if name is not None:
            if room.options.open:
                claimed = self.door.claims.setdefault(name.lower(), self.fingerprint)
                if claimed != self.fingerprint:  # another key took the new name meanwhile
                    room.log(f"{name} from {self.peer} refused: the name was just taken")
                    if self.conn is not None:
                        self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "taken")
                    return
            self.holding = asyncio.get_running_loop().create_task(self._hold_name(name))
        self.door.connections += 1
        self.counted = True
        self.authed = True
        room.log(f"{name} came in from {self.peer}")
        asyncio.get_running_loop().call_later(room.limits.login, self._no_session)

    async def _hold_name(self, name: str) -> None:
        """The name noted as seen now in the club's accounts (made if new); with
        --open, held by this key if it is new (its folder made); off the event loop."""
        claim = self.room.options.open
        try:
            held = await asyncio.to_thread(
                self.room.games.arrive, name, self.fingerprint, claim=claim
            )
            if held == "taken" and self.conn is not None:  # another key, a moment before
                self.room.log(f"{name} from {self.peer} cut off: the name was just taken")
                self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "taken")
        except (CribbageError, OSError) as error:
            # Not noted: with --open the name is not held yet, and the next login tries
            # again; the person plays on meanwhile.
            self.room.log(f"{name}'s arrival could not be noted: {error}")
        finally:
            if claim and self.door.claims.get(name.lower()) == self.fingerprint:
                del self.door.claims[name.lower()]

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
        self.visitor: Person | None = None
        self.last_input = time.monotonic()
        self.guard = KeyGuard(room.limits.line, room.limits.rate)
        self.share = room.share_of(name)  # one a person: a new connection is no fresh start
        super().__init__(self._visit, enable_cpr=False)

    async def _visit(self, session: PromptToolkitSSHSession) -> None:
        visitor = self.visitor = Person(self.room, self)
        with contextlib.suppress(asyncio.CancelledError):  # the connection went away
            await visitor.run()

    async def _interact(self) -> None:
        """The person's terminal, as prompt_toolkit's SSH session makes it, but for an
        output that draws the board below the prompt at once (never after asking the
        client where its cursor is, which would leave the board out until it answered)."""
        chan = self._chan
        if chan is None:
            return
        charge_to(self.share)  # all this task does and asks for, from here on
        term = chan.get_terminal_type()
        if term is None:  # no terminal asked for (`ssh -T`): nothing to draw the table on
            with contextlib.suppress(Exception):
                chan.write("A terminal is needed to play: connect with `ssh -t`.\r\n")
                chan.exit(1)
            return
        chan.set_line_mode(False)  # prompt_toolkit edits the line, not asyncssh
        self._output = TableOutput(self.stdout, self._get_size, term=term, enable_cpr=False)
        self._input = ChannelInput()  # (no descriptor: the socket is the connection's one)
        with create_app_session(input=self._input, output=self._output) as session:
            self.app_session = session
            watch = asyncio.create_task(self._watch_output(chan))
            try:
                await self.interact(self)
            finally:
                watch.cancel()
                chan.close()
                self._input.close()

    async def _watch_output(self, chan: asyncssh.SSHServerChannel[str]) -> None:
        """Cut the connection once its client stops taking what is sent
        (:class:`~cribcli.ui.serve.guard.OutputWatch`)."""
        watch = OutputWatch(self.room.limits.output)
        conn = chan.get_extra_info("connection")
        transport = getattr(conn, "_transport", None)  # below the channel: the socket's
        while True:
            await asyncio.sleep(0.5)
            waiting = chan.get_write_buffer_size()
            with contextlib.suppress(Exception):
                waiting += transport.get_write_buffer_size() if transport is not None else 0
            if watch.stopped_reading(waiting, time.monotonic()):
                self.room.log(f"{self.name}'s terminal stopped reading: closed")
                self.abort()
                return

    def columns(self) -> int:
        """The terminal's width, as the client last said."""
        return self._get_size().columns

    def exec_requested(self, command: str) -> bool:
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def data_received(self, data: str, datatype: object) -> None:
        """Keys from the client: through the guard, then to the editor without ever
        waiting (a connection whose editor is that far behind is closed)."""
        now = time.monotonic()
        self.last_input = now
        before = self.guard.undecodable
        try:
            keys = self.guard.keys_in(data, now)
        except Flood as flood:
            self.close(str(flood))
            return
        if before == 0 and self.guard.undecodable and self.visitor is not None:
            self.visitor.tell(["  Your terminal sent bytes that are not UTF-8 text: left out."])
        if not keys or self._input is None:
            return
        try:
            self._input.send_text(keys)
        except TooManyKeys:
            self.close("typing faster than the table can read")

    def connection_lost(self, exc: Exception | None) -> None:
        if self.interact_task is not None:
            self.interact_task.cancel()

    def terminal_size_changed(
        self, width: int, height: int, pixwidth: object, pixheight: object
    ) -> None:
        try:
            self.guard.resized(time.monotonic())
        except Flood as flood:
            self.close(str(flood))
            return
        super().terminal_size_changed(width, height, pixwidth, pixheight)

    def abort(self) -> None:
        """Cut the connection at once, nothing more said (it is not being read)."""
        if self.interact_task is not None:
            self.interact_task.cancel()
        chan = self._chan
        conn = chan.get_extra_info("connection") if chan is not None else None
        if conn is not None:
            conn.abort()

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
            # From the prompt's line down, the board and the toolbar rubbed out first: the
            # last words, and the shell's prompt after them, land on a clear screen.
            chan.write(f"\r\x1b[J\r\nClosed: {why}.\r\n")
            chan.exit(1)
        conn = chan.get_extra_info("connection")
        if conn is not None:
            asyncio.get_running_loop().call_later(CUT_AFTER, conn.abort)


async def serve(
    options: ServeOptions,
    ready: Callable[[str], None] | None = None,
    stop: asyncio.Event | None = None,
    room: Room | None = None,
) -> int | None:
    """Serve until Ctrl-C or SIGTERM (or ``stop`` is set); every table's game is saved as
    it goes and carried on when the server starts again. ``ready`` hears what there is to
    tell the operator: the host key's fingerprint, tables that could not be carried on,
    the address once it listens, then a line with the time for each thing that happens
    in the room. ``room``: the room to serve (made from ``options`` if not given). Returns
    the signal that stopped it (None: ``stop``)."""
    room = room or Room(options)
    capacity = room.capacity
    if ready is not None:
        room.told = ready
    # asyncio warns on the server's output of each write to a client that vanished
    # ("socket.send() raised exception."): the connection is gone, nothing to tell.
    logging.getLogger("asyncio").setLevel(logging.ERROR)
    door = Door(load_keys(options.authorized_keys) if options.authorized_keys else {})
    key = host_key(options.root)
    room.told(
        f"host key {key.get_fingerprint()} ({key.get_algorithm()}): what a friend's ssh "
        "shows the first time it connects, to check it is this server"
    )
    for problem in room.carry_on():
        room.told(problem)
    rerated = await asyncio.to_thread(catch_up, room.club, options.root)
    if rerated:
        room.told(
            f"ratings worked out again from the logs ({rerated} rated games): "
            "a game was filed but not rated"
        )
    if options.open:
        for problem in room.games.fold_names():
            room.told(problem)
    taken, written = await asyncio.to_thread(room.games.settle_accounts)
    if taken:
        room.told(
            f"the club's accounts: {taken} names' keys taken from the players' folders "
            "(the store did not hold them)"
        )
    if written:
        room.told(f"the club's accounts: {written} names' keys written to their folders too")
    await room.elsewhere.start()  # (a scheduler asked for and not reached: said, and stop)
    if room.wire is not None:
        await room.wire.start()
        room.told(
            f"the club is shared with its other servers in {room.club.name} "
            f"(this server's folder is known there as {room.club.home})"
        )
    limits = options.limits
    server = await asyncssh.create_server(
        lambda: Gate(room, door),
        options.host,
        options.port,
        server_host_keys=[key],
        allow_scp=False,
        agent_forwarding=False,
        x11_forwarding=False,
        login_timeout=limits.login,
        keepalive_interval=60,
        encoding="utf-8",
        errors="replace",  # (bytes that are not UTF-8: told, not a dropped connection)
    )
    stop = stop or asyncio.Event()
    watchdog = Watchdog(asyncio.get_running_loop(), stop)
    port = server.sockets[0].getsockname()[1]
    room.told(f"listening on {options.host} port {port}")
    if capacity.raised_from is not None:
        room.told(f"open files: raised to {capacity.files} (from {capacity.raised_from})")
    most = room.limits.connections
    room.told(
        f"connections: at most {most}"
        + (f" (what {capacity.bounded_by})" if most == capacity.connections else "")
    )
    if most > capacity.connections and capacity.bounded_by == BY_FILES:
        room.told(f"warning: the open files hold about {capacity.connections} connections")
    room.told(f"the computers decide, and hints are worked out, in {room.elsewhere.where}")
    door.names = room.games.names()
    forgetting = asyncio.create_task(_forget_names(room, door)) if options.open else None
    collecting = asyncio.create_task(collect_rarely(lambda: door.closed, lambda: len(door.gates)))
    with watchdog, metered(asyncio.get_running_loop()):
        try:
            await stop.wait()
        finally:
            collecting.cancel()
            if forgetting is not None:
                forgetting.cancel()
            await _close_room(room, door, server)
    return watchdog.signum


async def _forget_names(room: Room, door: Door) -> None:
    """With --open, now and every hour: the names that never finished a game and were
    not seen for the room's time (and are not here, nor seated) are forgotten, their
    folders removed."""
    while True:
        here = {gate.name.lower() for gate in door.gates if gate.name}
        here |= {name.lower() for table in room.lobby.tables.values() for name in table.names()}
        gone = await asyncio.to_thread(
            room.games.forget, room.limits.forget_after, time.time(), frozenset(here)
        )
        door.names -= len(gone)
        for name in gone:
            room.log(f"forgot the name {name}: not seen for a while, and no game finished")
        await asyncio.sleep(3600.0)


async def _close_room(room: Room, door: Door, server: asyncssh.SSHAcceptor) -> None:
    """Everyone told and let go, the tables' computers stopped (every game is saved as
    it goes: nothing is left to write)."""
    room.log("stopping: every game is saved")
    for visitor in list(room.visitors):
        table = visitor.table
        playing = table is not None and table.started and not table.over
        visitor.close("the server is stopping" + ("; your game is saved" if playing else ""))
    server.close()
    await server.wait_closed()
    connections = [gate.conn for gate in door.gates if gate.conn is not None]
    for conn in connections:
        conn.close()
    if connections:  # all at once, a moment at most: a client that hangs is cut
        waits = asyncio.gather(*(conn.wait_closed() for conn in connections))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(waits, CUT_AFTER)
    for task in [*room.drivers.values(), *room.rating]:
        task.cancel()  # (a game not yet rated is rated as the server next starts)
    for clock in room.clocks.values():
        clock.cancel()
    await room.elsewhere.close()
    if room.wire is not None:
        await room.wire.close()
        with contextlib.suppress(CribbageError):  # (else gone with its connection anyway)
            await asyncio.to_thread(room.club.all_present, [], "")
    room.club.close()


class Watchdog:
    """Within: SIGTERM and Ctrl-C (SIGINT) stop the server, and if it has not stopped
    STOP_WITHIN seconds later (whatever a connection does), the process ends there: every
    game was saved as it went. The handlers are Python's own, which run even while the
    event loop is held up."""

    def __init__(self, loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
        self.loop, self.stop = loop, stop
        self.timer: threading.Timer | None = None
        self.old: dict[int, object] = {}
        self.signum: int | None = None
        """The signal that stopped the server, if one did."""

    def __enter__(self) -> Watchdog:
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):
                self.old[signum] = signal.signal(signum, self._signalled)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self.old.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]
        if self.timer is not None:
            self.timer.cancel()

    def _signalled(self, signum: int, frame: object) -> None:
        self.signum = self.signum or signum
        if self.timer is None:
            self.timer = threading.Timer(STOP_WITHIN, self._too_long, (signum,))
            self.timer.daemon = True
            self.timer.start()
        self.loop.call_soon_threadsafe(self.stop.set)

    def _too_long(self, signum: int) -> None:
        # Said without waiting (a full stderr must not hold the end up), then ended.
        line = (
            f"cribbage serve: not stopped within {STOP_WITHIN:g} s: ending now "
            "(every game is saved)\n"
        )
        with contextlib.suppress(Exception):
            os.set_blocking(2, False)
            os.write(2, line.encode())
        os._exit(128 + signum)
