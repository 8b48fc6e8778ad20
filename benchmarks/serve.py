"""`cribbage serve` under load: the time from a move typed by one person to the other
person's screen showing it, with a crowd connected and tables of computers playing.

Run: python benchmarks/serve.py [IDLE] [TABLES] [LEVEL] [attack|crowd [SOLO] [PROCESSES]]
(defaults 100 20 normal; prints figures, asserts nothing)

Ann and Bob play a game to 121 over SSH (asyncssh's client, on 127.0.0.1), each typing
the move the hint gives; for each of Ann's moves, the time from the line sent to Bob's
screen receiving the narration of it. Meanwhile IDLE more connections sit in the lobby and
TABLES tables have the computer in every seat (LEVEL), a move each 0.6 s as people see.
With ``attack``, one more person types `tables` as fast as the server's limits allow (98
keys a second, 14 lines), all game long; the idle connections are in this process.

With ``crowd``, the IDLE connections are made by PROCESSES client processes (4 by
default), not this one, and SOLO of them (200 by default) play the easy computer at
tables of their own, a move every 3 s by the hint; the server's memory is measured before
and after the crowd connects (what a connection costs), the connections refused are
counted, and the process's CPU time is given. Everything listens and connects on
127.0.0.1, and every wait has a ceiling.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import re
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

with warnings.catch_warnings():  # (imported as the server imports it: cryptography's
    warnings.filterwarnings("ignore", message="DSA is deprecated")  # DSA warning quiet)
    import asyncssh

from cribcli.club.lobby import TableSetup
from cribcli.players import Level
from cribcli.ui.serve import Limits, Room, ServeOptions, serve

CONTROLS = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>]|\r")
MOVE = re.compile(r"(Put \d in the crib|Your play, count \d+|game over[^>]*|waiting for [^>]*)>")


class Screen:
    """One client's screen as text, with when each piece arrived."""

    def __init__(self, process: asyncssh.SSHClientProcess[str], keep: int = 0) -> None:
        self.process = process
        self.keep = keep
        """If not 0: only the last ``keep`` characters are kept (a flood's screen)."""
        self.text = ""
        self.arrived: list[tuple[int, float]] = []  # (length of text, time)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.text += CONTROLS.sub("", chunk)
            if self.keep:
                self.text = self.text[-self.keep :]
                continue
            self.arrived.append((len(self.text), time.perf_counter()))

    async def wait_for(self, pattern: str, start: int = 0) -> re.Match[str]:
        """The pattern, once it is on the screen (looked for every few milliseconds: when
        it arrived is taken from the reader, not from the looking)."""
        deadline = time.perf_counter() + 120
        while not (match := re.compile(pattern).search(self.text, start)):
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no {pattern!r} on the screen:\n{self.text[-1500:]}")
            await asyncio.sleep(0.005)
        return match

    async def more(self) -> None:
        length = len(self.text)
        await self.wait_for(r"[\s\S]", length)

    def when(self, end: int) -> float:
        """When the text up to ``end`` had arrived."""
        return next(at for length, at in self.arrived if length >= end)

    async def settle(self) -> None:
        """Until nothing new comes for 0.15 s."""
        while True:
            length = len(self.text)
            await asyncio.sleep(0.15)
            if len(self.text) == length:
                return

    def type(self, line: str) -> None:
        self.process.stdin.write(line + "\r")


async def connect(port: int, name: str, keep: int = 0) -> Screen:
    key = asyncssh.generate_private_key("ssh-ed25519")
    connection = await asyncssh.connect(
        "127.0.0.1", port, username=name, client_keys=[key], known_hosts=None
    )
    process = await connection.create_process(term_type="xterm", term_size=(100, 40))
    screen = Screen(process, keep)
    await screen.wait_for(r"lobby>")
    return screen


async def play(me: Screen, other: Screen, name: str, delays: list[float]) -> None:
    """Play by the hint to the end; for each move, how long the other screen took to
    show it."""
    while True:
        await me.settle()
        prompts = MOVE.findall(me.text)
        last = prompts[-1] if prompts else "waiting"
        if last.startswith("game over"):
            return
        if last.startswith("waiting"):
            await me.more()
            continue
        start = len(me.text)
        me.type("hint")
        answer = await me.wait_for(
            r"Hint: (?:throw ([^:]+):|lay ([^:\s]+):)|Nothing to hint at now|not your turn", start
        )
        cards = answer.group(1) or answer.group(2)
        if not cards:
            continue
        seen_from = len(other.text)
        sent = time.perf_counter()
        me.type(cards)
        told = rf"{name}: {re.escape(cards)} \(" if answer.group(2) else rf"{name} put \d cards"
        shown = await other.wait_for(told, seen_from)
        delays.append(other.when(shown.end()) - sent)


async def main(
    idle: int, tables: int, level: Level, attack: bool = False, crowd: tuple[int, int] | None = None
) -> None:
    root = Path(tempfile.mkdtemp())
    solo = crowd[0] if crowd else 0
    limits = Limits(
        connections=idle + 10, per_key=idle + 10, tables=tables + solo + 5,
        new_names_per_hour=idle + 10, starting=200, starting_full=400, starting_per_address=400,
        idle=3600.0,
    )  # fmt: skip
    options = ServeOptions(root=root, port=0, open=True, limits=limits)
    room = Room(options)
    told: list[str] = []
    stop = asyncio.Event()
    server = asyncio.create_task(serve(options, told.append, stop, room))
    while not any("listening on" in line for line in told):
        await asyncio.sleep(0.05)
    port = int(next(line for line in told if "listening on" in line).split()[-1])
    before = resident_mb()
    if crowd is None:
        idlers = [await connect(port, f"idle{n}") for n in range(idle)]
        clients: list[asyncio.subprocess.Process] = []
        refused = 0
    else:
        idlers = []
        clients, refused = await gather_crowd(port, idle, *crowd)
    crowded = resident_mb()
    for number in range(tables):  # every seat the computer's: a person away, taken over
        name = f"robot{number}"
        table = room.lobby.open_table(name, TableSetup(computers=1, level=level), room.games.saver)
        room.start(table)
        table.away[0] = 0.0
        table.take_over(0)
        room.drive(table.number)
    ann, bob = await connect(port, "ann"), await connect(port, "bob")
    ann.type("new 2")
    await ann.wait_for(r"join (\d+)")
    number = re.findall(r"Table (\d+) is open", ann.text)[-1]
    bob.type(f"join {number}")
    delays: list[float] = []
    attacking = asyncio.create_task(attacker(port)) if attack else None
    lags: list[float] = []
    probe = asyncio.create_task(lag_probe(lags))
    collections: list[tuple[int, float]] = []
    gc.callbacks.append(collection_timer(collections))
    began = time.perf_counter()
    await asyncio.gather(play(ann, bob, "ann", delays), play(bob, ann, "bob", []))
    took = time.perf_counter() - began
    probe.cancel()
    lags.sort()
    closed = ""
    if attacking is not None:
        attacking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            closed = await attacking
    moves = len(delays)
    cpu = time.process_time()
    stop.set()
    await server
    for client in clients:
        with contextlib.suppress(ProcessLookupError):
            client.terminate()
        await client.wait()
    delays.sort()
    p90 = delays[round(0.9 * (len(delays) - 1))]
    p99 = delays[min(len(delays) - 1, round(0.99 * (len(delays) - 1)))]
    print(
        f"{idle} idle connections, {tables} tables of {level} computers playing: "
        f"{moves} moves by Ann, shown on Bob's screen after median "
        f"{1000 * statistics.median(delays):.0f} ms, p90 {1000 * p90:.0f} ms, "
        f"p99 {1000 * p99:.0f} ms, "
        f"max {1000 * delays[-1]:.0f} ms (the game took {took:.0f} s)"
        + (", one person typing as fast as the limits allow" if attack else "")
        + (f" (it was closed: {closed})" if closed else "")
        + f"; memory {resident_mb():.0f} MB"
    )
    print(
        f"  the event loop late by median {1000 * statistics.median(lags):.0f} ms, p90 "
        f"{1000 * lags[round(0.9 * (len(lags) - 1))]:.0f} ms, p99 "
        f"{1000 * lags[round(0.99 * (len(lags) - 1))]:.0f} ms, max {1000 * lags[-1]:.0f} ms "
        "(a timer of 50 ms, measured throughout the game)"
    )
    for generation in range(3):
        times = sorted(took for gen, took in collections if gen == generation)
        if times:
            print(
                f"  garbage collections of generation {generation}: {len(times)}, the "
                f"longest {1000 * times[-1]:.0f} ms, {sum(times):.1f} s in all"
            )
    if crowd is not None:
        print(
            f"  the crowd in {crowd[1]} other processes, {solo} of them playing the computer: "
            f"{refused} connections refused; the server {before:.0f} MB before it, "
            f"{crowded:.0f} MB with it: {1024 * (crowded - before) / idle:.0f} KB a "
            f"connection; the server's CPU {cpu:.0f} s"
        )
    del idlers


def collection_timer(
    collections: list[tuple[int, float]],
) -> Callable[[str, dict[str, int]], None]:
    """A gc callback that keeps each collection's generation and how long it took."""
    began = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            collections.append((info["generation"], time.perf_counter() - began[0]))

    return timed


async def lag_probe(lags: list[float]) -> None:
    """How late the event loop runs a timer of 50 ms, again and again: what every
    connection's screen waits for besides its own work."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(0.05)
        lags.append(time.perf_counter() - start - 0.05)


async def gather_crowd(
    port: int, people: int, solo: int, processes: int
) -> tuple[list[asyncio.subprocess.Process], int]:
    """``people`` connections made by ``processes`` client processes, ``solo`` of them
    playing the computer; once all are in, the processes and how many were refused."""
    clients = []
    each = -(-people // processes)
    for number in range(processes):
        first = number * each
        count = max(0, min(each, people - first))
        playing = max(0, min(count, solo - first))
        started = asyncio.create_subprocess_exec(
            sys.executable, __file__, "client", str(port), str(first), str(count),
            str(playing), stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        clients.append(await started)
    refused = 0
    for client in clients:
        assert client.stdout is not None
        line = await asyncio.wait_for(client.stdout.readline(), 900)
        refused += int(line.split()[0]) if line else people
    return clients, refused


async def client(port: int, first: int, count: int, playing: int) -> None:
    """One client process of the crowd: ``count`` connections, the first ``playing`` of
    them at a solo table against easy; prints how many were refused once all are in,
    then keeps them until it is ended."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    at_once = asyncio.Semaphore(8)
    screens: list[Screen] = []

    async def one(number: int) -> bool:
        async with at_once:
            try:
                connection = await asyncio.wait_for(
                    asyncssh.connect(
                        "127.0.0.1", port, username=f"crowd{number}", client_keys=[key],
                        known_hosts=None,
                    ),
                    120,
                )  # fmt: skip
                process = await connection.create_process(term_type="xterm", term_size=(100, 40))
                screen = Screen(process, keep=4000)
                await screen.wait_for(r"lobby>")
            except (OSError, asyncssh.Error, TimeoutError):
                return False
            screens.append(screen)
            return True

    made = await asyncio.gather(*(one(first + n) for n in range(count)))
    print(made.count(False), flush=True)
    players = [asyncio.create_task(solo_player(screen)) for screen in screens[:playing]]
    await asyncio.gather(*players)
    await asyncio.Event().wait()


async def solo_player(me: Screen) -> None:
    """Play easy at a table of one's own, a move every 3 s by the hint, game after game."""
    with contextlib.suppress(Exception):
        me.type("solo easy")
        while True:
            await asyncio.sleep(3)
            me.type("hint")
            await asyncio.sleep(0.5)
            hints = re.findall(r"Hint: (?:throw ([^:]+):|lay ([^:\s]+):)", me.text)
            if "game over" in me.text[-300:]:
                me.text = ""
                me.type("")
                me.type("solo easy")
            elif hints:
                me.text = ""
                me.type(hints[-1][0] or hints[-1][1])


async def attacker(port: int) -> str:
    """Type `tables` as fast as the limits allow, until cancelled; what closed it, if
    anything did."""
    eve = await connect(port, "eve", keep=10_000)
    while True:
        eve.type("tables")
        await asyncio.sleep(1 / 14)
        if "Closed:" in eve.text:
            return eve.text[eve.text.index("Closed:") :].splitlines()[0]


def resident_mb() -> float:
    """This process's resident memory now, in MB (Linux; 0 elsewhere)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


if __name__ == "__main__":
    if sys.argv[1:2] == ["client"]:
        asyncio.run(client(*(int(arg) for arg in sys.argv[2:6])))
        sys.exit()
    idle = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    tables = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    level = (Level.parse(sys.argv[3]) if len(sys.argv) > 3 else None) or Level.NORMAL
    crowd = None
    if sys.argv[4:5] == ["crowd"]:
        numbers = [int(arg) for arg in sys.argv[5:7]]
        crowd = (numbers[0] if numbers else 200, numbers[1] if len(numbers) > 1 else 4)
    asyncio.run(main(idle, tables, level, sys.argv[4:] == ["attack"], crowd))
