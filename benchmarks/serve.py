"""`cribbage serve` under load: the time from a move typed by one person to the other
person's screen showing it, with idle connections in the lobby and tables of computers
playing.

Run: python benchmarks/serve.py [IDLE] [TABLES] [LEVEL] [attack]   (defaults 100 20 normal;
prints figures, asserts nothing)

Ann and Bob play a game to 121 over SSH (asyncssh's client, on this machine), each typing
the move the hint gives; for each of Ann's moves, the time from the line sent to Bob's
screen receiving the narration of it. Meanwhile IDLE more connections sit in the lobby and
TABLES tables have the computer in every seat (LEVEL), a move each 0.6 s as people see.
With ``attack``, one more person types `tables` as fast as the server's limits allow (98
keys a second, 14 lines), all game long. The process's memory (server and clients alike)
is given at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

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


async def main(idle: int, tables: int, level: Level, attack: bool = False) -> None:
    root = Path(tempfile.mkdtemp())
    limits = Limits(
        connections=idle + 10, per_key=idle + 10, tables=tables + 5, new_names_per_hour=idle + 10
    )
    options = ServeOptions(root=root, port=0, open=True, limits=limits)
    room = Room(options)
    told: list[str] = []
    stop = asyncio.Event()
    server = asyncio.create_task(serve(options, told.append, stop, room))
    while not any("listening on" in line for line in told):
        await asyncio.sleep(0.05)
    port = int(next(line for line in told if "listening on" in line).split()[-1])
    idlers = [await connect(port, f"idle{n}") for n in range(idle)]
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
    began = time.perf_counter()
    await asyncio.gather(play(ann, bob, "ann", delays), play(bob, ann, "bob", []))
    took = time.perf_counter() - began
    closed = ""
    if attacking is not None:
        attacking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            closed = await attacking
    moves = len(delays)
    stop.set()
    await server
    delays.sort()
    p99 = delays[min(len(delays) - 1, round(0.99 * (len(delays) - 1)))]
    print(
        f"{idle} idle connections, {tables} tables of {level} computers playing: "
        f"{moves} moves by Ann, shown on Bob's screen after median "
        f"{1000 * statistics.median(delays):.0f} ms, p99 {1000 * p99:.0f} ms, "
        f"max {1000 * delays[-1]:.0f} ms (the game took {took:.0f} s)"
        + (", one person typing as fast as the limits allow" if attack else "")
        + (f" (it was closed: {closed})" if closed else "")
        + f"; memory {resident_mb():.0f} MB"
    )
    del idlers


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
    idle = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    tables = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    level = (Level.parse(sys.argv[3]) if len(sys.argv) > 3 else None) or Level.NORMAL
    asyncio.run(main(idle, tables, level, sys.argv[4:] == ["attack"]))
