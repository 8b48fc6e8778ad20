"""Programs at the table: a command that speaks the engine protocol (docs/engine-protocol.md)
in a seat, as a player.

The referee never hangs on an engine and never leaves one running: every answer is awaited
for at most the move time, a line is read to at most :data:`LINE_LIMIT` bytes, and an
engine is stopped (asked, then its process group ended) when its games are over, when it
fails, and when the program that runs it dies (on Linux, at once). An engine that fails
(an illegal or unreadable answer, a crash, no answer in time) raises
:class:`~cribcli.players.base.PlayerFailed`: its seat forfeits the game, and the reason is
in the log. What it writes on standard error is not read.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn, TypeVar

from cribcli.cards import Card
from cribcli.engine import Discard, Play, View
from cribcli.errors import CribbageError
from cribcli.events import Event
from cribcli.players.base import PlayerFailed
from cribcli.protocol import (
    ProtocolError,
    clean,
    decision,
    encode,
    hello,
    new_game,
    quit_message,
    read_answer,
    read_hello,
    told,
)
from cribcli.record import COMMAND_LIMIT, REASON_LIMIT, GameInfo, Seat

PREFIX = "engine:"
"""How a seat is given as an engine on the command line: ``engine:python3 mybot.py``."""
MOVE_TIME = 10.0
"""Seconds an engine has for each decision, unless told otherwise (``--move-time``)."""
START_TIME = 10.0
"""Seconds it has to start and say hello (at least the move time)."""
STOP_TIME = 1.0
"""Seconds it has to exit when told to quit, before it is ended."""
LINE_LIMIT = 1 << 16
"""The longest line an engine may write (64 KiB)."""

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class EngineCommand:
    """An engine as given: its command line and the words it is run with (no shell)."""

    command: str
    argv: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> EngineCommand | None:
        """``engine:CMD`` as a command; None for anything else (a level's name). Raises
        CribbageError for an engine with no command, or one that cannot be split."""
        if not text.startswith(PREFIX):
            return None
        command = text[len(PREFIX) :].strip()
        try:
            argv = tuple(shlex.split(command))
        except ValueError as error:
            raise CribbageError(f"the engine command `{command}` cannot be read: {error}") from None
        if not argv:
            raise CribbageError("no engine command: give one, e.g. engine:'python3 mybot.py'")
        if len(command) > COMMAND_LIMIT:
            raise CribbageError(f"the engine command is longer than {COMMAND_LIMIT} characters")
        return cls(command, argv)


class Engine:
    """One running engine program: started, greeted, asked, and stopped."""

    def __init__(self, command: EngineCommand, move_time: float = MOVE_TIME) -> None:
        self.command = command
        self.move_time = move_time
        self.name = ""
        self.author = ""
        self.failed = ""
        """Why it cannot go on ("" while it can)."""
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def start(self) -> None:
        """Run the program and exchange hellos. Raises PlayerFailed."""
        try:
            self._process = subprocess.Popen(
                self.command.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=_dies_with_parent,
            )
        except OSError as error:
            self._fail(f"it could not be started ({error.strerror or error})")
        _running.add(self)
        assert self._process.stdin is not None
        os.set_blocking(self._process.stdin.fileno(), False)
        self.name, self.author = self._exchange(
            hello(), read_hello, max(START_TIME, self.move_time), "hello"
        )

    @property
    def alive(self) -> bool:
        """Whether it runs and has not failed."""
        return not self.failed and self._process is not None and self._process.poll() is None

    def send(self, message: dict[str, object]) -> None:
        """Tell it something, waiting at most the move time for it to take the line in
        (an engine that stops reading cannot hold the referee). Raises PlayerFailed."""
        process = self._running()
        assert process.stdin is not None
        data = encode(message)
        deadline = time.monotonic() + self.move_time
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdin, selectors.EVENT_WRITE)
            while data:
                try:
                    data = data[os.write(process.stdin.fileno(), data) :]
                    continue
                except BlockingIOError:
                    pass
                except OSError:
                    self._fail(self._stopped("while being told the game"))
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self._fail(f"it took in nothing for {self.move_time:g} s")

    def ask(self, seen: View) -> Discard | Play:
        """Its answer to a decision, checked. Raises PlayerFailed."""
        return self._exchange(
            decision(seen), lambda line: read_answer(line, seen), self.move_time, "answer"
        )

    def stop(self) -> None:
        """Ask it to quit, then end its process group if it has not; wait for it."""
        _running.discard(self)
        process = self._process
        if process is None:
            return
        assert process.stdin is not None
        with contextlib.suppress(OSError):
            os.write(process.stdin.fileno(), encode(quit_message()))  # if it has room
        with contextlib.suppress(OSError):
            process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(STOP_TIME)
        for number in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(OSError):
                os.killpg(process.pid, number)  # its children too
            try:
                process.wait(STOP_TIME)
                break
            except subprocess.TimeoutExpired:
                continue
        if process.stdout is not None:
            process.stdout.close()
        self._process = None

    def _exchange(
        self, message: dict[str, object], read: Callable[[str], T], limit: float, what: str
    ) -> T:
        self.send(message)
        line = self._line(limit, what)
        try:
            return read(line)
        except ProtocolError as error:
            self._fail(str(error))

    def _line(self, limit: float, what: str) -> str:
        """The next line it writes (blank lines skipped), within ``limit`` seconds."""
        process = self._running()
        assert process.stdout is not None
        deadline = time.monotonic() + limit
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            while True:
                line, newline, rest = self._buffer.partition(b"\n")
                if newline:
                    self._buffer = rest
                    if line.strip():
                        return line.decode("utf-8", "replace")
                    continue
                if len(self._buffer) > LINE_LIMIT:
                    self._fail(f"it wrote a line longer than {LINE_LIMIT // 1024} KiB")
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self._fail(f"no {what} within {limit:g} s")
                chunk = os.read(process.stdout.fileno(), LINE_LIMIT)
                if not chunk:
                    self._fail(self._stopped(f"before its {what}"))
                self._buffer += chunk

    def _running(self) -> subprocess.Popen[bytes]:
        if self.failed:
            raise PlayerFailed(self.failed)
        if self._process is None:
            self._fail("it is not running")
        return self._process

    def _stopped(self, when: str) -> str:
        """``it stopped (exit status 3) before an answer``."""
        assert self._process is not None
        try:
            status = self._process.wait(STOP_TIME)
        except subprocess.TimeoutExpired:
            return f"it closed its output {when}"
        how = f"signal {-status}" if status < 0 else f"exit status {status}"
        return f"it stopped ({how}) {when}"

    def _fail(self, reason: str) -> NoReturn:
        """Stop it, and raise PlayerFailed for ``reason`` (made printable and short)."""
        self.failed = clean(reason, REASON_LIMIT)
        self.stop()
        raise PlayerFailed(self.failed)


class EnginePlayer:
    """An engine in a seat for one game: asked for its decisions, told the events."""

    def __init__(self, engine: Engine, info: GameInfo, seat: int) -> None:
        self.engine = engine
        self.seat = seat
        with contextlib.suppress(PlayerFailed):  # told at its first decision
            engine.send(new_game(info, seat))

    def discard(self, view: View) -> tuple[Card, ...]:
        answer = self.engine.ask(view)
        assert isinstance(answer, Discard)
        return answer.cards

    def play(self, view: View) -> Card:
        answer = self.engine.ask(view)
        assert isinstance(answer, Play)
        return answer.card

    def hear(self, events: Sequence[Event]) -> None:
        with contextlib.suppress(PlayerFailed):  # a failure is told at its next decision
            for event in events:
                self.engine.send(told(event, self.seat))


def seat_of(engine: Engine) -> Seat:
    """The log's seat for an engine: the name it gave, and its command."""
    return Seat(engine.name or "Engine", "engine", command=engine.command.command)


_running: set[Engine] = set()
"""Every engine started and not yet stopped, to stop at exit."""
_kept: dict[tuple[EngineCommand, int, float], Engine] = {}


def kept_engine(command: EngineCommand, seat: int, move_time: float) -> Engine:
    """A running engine for ``seat``, kept from game to game in this process (started
    again if it stopped or failed): starting a program for every game costs more than the
    game. Raises nothing: an engine that could not start fails at its first decision."""
    key = (command, seat, move_time)
    engine = _kept.get(key)
    if engine is None or not engine.alive:
        if engine is not None:
            engine.stop()
        engine = _kept[key] = Engine(command, move_time)
        with contextlib.suppress(PlayerFailed):
            engine.start()
    return engine


def stop_all() -> None:
    """Stop every engine this process started."""
    _kept.clear()
    for engine in list(_running):
        engine.stop()


atexit.register(stop_all)


def _linux_prctl() -> Callable[[int, int], int] | None:
    """prctl(2), looked up before any child is forked (a child between fork and exec
    should only call what is loaded already)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl: Callable[[int, int], int] = ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        return None
    return prctl


_prctl = _linux_prctl()


def _dies_with_parent() -> None:  # pragma: no cover - runs in the child, before exec
    """In the engine's process: end it if the program that started it dies (Linux)."""
    if _prctl is not None:
        _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
