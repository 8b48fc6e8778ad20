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

import contextlib
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn, TypeVar

from cribcli.players.base import NoResult, PlayerFailed
from cribcli.protocol.messages import (
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
from cribcli.record.log import COMMAND_LIMIT, REASON_LIMIT, GameInfo, Seat
from cribcli.record.workers import (
    at_exit,
    become_subreaper,
    children,
    dies_with_parent,
    process_state,
)
from cribcli.rules.cards import Card
from cribcli.rules.engine import Discard, Play, View
from cribcli.rules.errors import CribbageError
from cribcli.rules.events import Event, GameOver

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

    def found(self) -> bool:
        """Whether its program can be found: on the PATH, or at the path given."""
        program = self.argv[0]
        if os.sep in program:
            return os.access(program, os.X_OK) and os.path.isfile(program)
        return shutil.which(program) is not None

    def check_found(self) -> None:
        """Raise CribbageError, naming the program, if it cannot be found (before any game
        is begun or abandoned for it)."""
        if not self.found():
            raise CribbageError(
                f"the engine `{self.command}` cannot play: there is no program `{self.argv[0]}`"
            )


OWN_FAULTS = frozenset(
    int(getattr(signal, name))
    for name in ("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT", "SIGTRAP", "SIGSYS",
                 "SIGXCPU", "SIGXFSZ")
    if hasattr(signal, name)
)  # fmt: skip
"""Signals a program dies of by its own doing (a crash, its own limits): a forfeit."""

SANDBOX = "bwrap"
"""The program that runs an engine in a sandbox of its own (bubblewrap)."""


def sandbox_missing() -> str | None:
    """Why engines cannot be run in a sandbox here (None: they can)."""
    if not sys.platform.startswith("linux"):
        return "--sandbox runs engines with bubblewrap, on Linux only"
    if shutil.which(SANDBOX) is None:
        return (
            "--sandbox needs bubblewrap: install it (Debian and Ubuntu: apt install "
            "bubblewrap; Fedora: dnf install bubblewrap)"
        )
    try:  # there, but allowed to make one? (user namespaces may be turned off)
        tried = subprocess.run([*sandboxed(["true"])], capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap cannot make a sandbox here ({error})"
    if tried.returncode != 0:
        said = tried.stderr.decode(errors="replace").strip().splitlines()
        return f"bubblewrap cannot make a sandbox here ({clean(said[0] if said else '?', 200)})"
    return None


def sandboxed(argv: Sequence[str], hidden: Sequence[str] = ()) -> list[str]:
    """``argv`` run in a sandbox of its own (bubblewrap): its own process ids (it sees
    and can signal nothing outside, and everything in it ends with it), no network, the
    system read-only, a /tmp of its own, and the ``hidden`` folders empty."""
    seen = _seen_folders(argv)
    covered = [os.path.realpath(folder) for folder in hidden if os.path.isdir(folder)]
    # What it must see inside a hidden folder (its program, say) is shown again over it.
    again = [f for f in seen if any(f == c or f.startswith(c + os.sep) for c in covered)]
    return [
        SANDBOX,
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", "/tmp",
        "--tmpfs", "/run",  # no sockets of the session's services (a bus, an agent)
        "--unsetenv", "DBUS_SESSION_BUS_ADDRESS", "--unsetenv", "SSH_AUTH_SOCK",
        "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--cap-drop", "ALL",  # run as root, it could otherwise mount the system writable
        "--die-with-parent", "--new-session",
        # Under the new /tmp or /run too: the folder it runs in, and its program's and
        # files' folders (read-only, as everything is).
        *(word for folder in seen for word in ("--ro-bind", folder, folder)),
        *(word for folder in covered for word in ("--tmpfs", folder)),
        *(word for folder in again for word in ("--ro-bind", folder, folder)),
        "--chdir", os.getcwd(),
        "--", *argv,
    ]  # fmt: skip


def hidden_in_sight(argv: Sequence[str], hidden: Sequence[str]) -> str | None:
    """A folder the engine ``argv`` must see (where it runs, its program's) that lies in
    a ``hidden`` one, which it would then see too; None if there is none."""
    covered = [os.path.realpath(folder) for folder in hidden]
    for folder in _seen_folders(argv):
        if any(folder == c or folder.startswith(c + os.sep) for c in covered):
            return folder
    return None


def _seen_folders(argv: Sequence[str]) -> list[str]:
    """The folders an engine needs to see: where it runs, and those of its program (found
    on the PATH) and of any file its command names."""
    found = [os.getcwd()]
    program = shutil.which(argv[0]) if argv else None
    for path in (program, *argv[1:]):
        if path and os.path.isabs(path) and os.path.exists(path):
            folder = os.path.dirname(os.path.realpath(path))
            if folder not in found:
                found.append(folder)
    return found


class Engine:
    """One running engine program: started, greeted, asked, and stopped."""

    def __init__(
        self,
        command: EngineCommand,
        move_time: float = MOVE_TIME,
        sandbox: bool = False,
        hidden: tuple[str, ...] = (),
    ) -> None:
        self.command = command
        self.move_time = move_time
        self.sandbox = sandbox
        """Whether it runs in a sandbox of its own (:func:`sandboxed`)."""
        self.hidden = hidden
        """Folders it does not see in its sandbox."""
        self.rival_outside = False
        """Whether another program outside a sandbox sits at its table this game (set
        for each game): only then could a signal that kills it be another's doing."""
        self.name = ""
        self.author = ""
        self.failed = ""
        """Why it cannot go on ("" while it can)."""
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def start(self) -> None:
        """Run the program and exchange hellos. Raises PlayerFailed."""
        _adopting()  # before it starts: what it leaves at once is adopted too
        try:
            argv = self.command.argv
            self._process = subprocess.Popen(
                sandboxed(argv, self.hidden) if self.sandbox else argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=_dies_with_parent,
            )
        except OSError as error:
            self._fail(f"it could not be started ({error.strerror or error})")
        _running.add(self)
        _stopped_at_exit()
        assert self._process.stdin is not None
        os.set_blocking(self._process.stdin.fileno(), False)
        limit = max(START_TIME, self.move_time)
        self.name, self.author = self._exchange([hello()], read_hello, limit, "hello")

    @property
    def alive(self) -> bool:
        """Whether it runs and has not failed."""
        return not self.failed and self._process is not None and self._process.poll() is None

    def tell(self, messages: Sequence[dict[str, object]]) -> None:
        """Tell it things that need no answer, within the move time. Raises PlayerFailed."""
        self._send(messages, time.monotonic() + self.move_time, self.move_time)

    def ask(self, seen: View, before: Sequence[dict[str, object]] = ()) -> Discard | Play:
        """Its answer to a decision, checked; ``before``, the events since its last
        answer, are sent first, all within the one move time. Raises PlayerFailed."""

        def read(line: str) -> Discard | Play:
            return read_answer(line, seen)

        return self._exchange([*before, decision(seen)], read, self.move_time, "answer")

    def stop(self) -> None:
        """Ask it to quit, then end its process group (whatever it started too); wait.
        One that has failed is not waited for: it has had its time."""
        _running.discard(self)
        process = self._process
        if process is None:
            return
        assert process.stdin is not None
        if not self.failed:
            with contextlib.suppress(OSError):
                os.write(process.stdin.fileno(), encode(quit_message()))  # if it has room
        with contextlib.suppress(OSError):
            process.stdin.close()
        if not self.failed:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(STOP_TIME)
        _end_group(process)
        if process.stdout is not None:
            process.stdout.close()
        self._process = None
        _end_strays()

    def _exchange(
        self,
        messages: Sequence[dict[str, object]],
        read: Callable[[str], T],
        limit: float,
        what: str,
    ) -> T:
        """Send ``messages``, the last a question, and read its answer, all within
        ``limit`` seconds. An answer written before the question was asked breaks the
        protocol (it would be taken for the answer to the next)."""
        deadline = time.monotonic() + limit
        _reap_adopted()
        self._nothing_unasked()
        self._send(messages, deadline, limit)
        line = self._line(deadline, limit, what)
        try:
            return read(line)
        except ProtocolError as error:
            self._fail(str(error))

    def _send(self, messages: Sequence[dict[str, object]], deadline: float, limit: float) -> None:
        """Write ``messages``, waiting until ``deadline`` at most for it to take them in
        (an engine that stops reading cannot hold the referee)."""
        process = self._running()
        assert process.stdin is not None
        data = b"".join(encode(message) for message in messages)
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdin, selectors.EVENT_WRITE)
            while data:
                try:
                    data = data[os.write(process.stdin.fileno(), data) :]
                    continue
                except BlockingIOError:
                    pass
                except OSError:
                    self._fail(self._stopped("while being told the game", "input"))
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self._held_from_outside()
                    self._fail(f"it took in nothing for {limit:g} s")

    def _nothing_unasked(self) -> None:
        """Before a question: fail if it has written anything since its last answer (it
        would be read as the answer), or has stopped."""
        if not self._buffer.strip() and self._readable(0):
            process = self._running()
            assert process.stdout is not None
            chunk = os.read(process.stdout.fileno(), LINE_LIMIT)
            if not chunk:
                self._fail(self._stopped("before its next question", "output"))
            self._buffer += chunk
        if self._buffer.strip():
            self._fail("it wrote a line nobody asked for")

    def _readable(self, timeout: float) -> bool:
        """Whether it has written something not yet read, waiting ``timeout`` at most."""
        process = self._running()
        assert process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            return bool(selector.select(timeout))

    def _line(self, deadline: float, limit: float, what: str) -> str:
        """The next line it writes (blank lines skipped), by ``deadline``."""
        process = self._running()
        assert process.stdout is not None
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
            if left <= 0 or not self._readable(left):
                self._held_from_outside()
                self._fail(f"no {what} within {limit:g} s")
            chunk = os.read(process.stdout.fileno(), LINE_LIMIT)
            if not chunk:
                self._fail(self._stopped(f"before its {what}", "output"))
            self._buffer += chunk

    def _running(self) -> subprocess.Popen[bytes]:
        if self.failed:
            raise PlayerFailed(self.failed)
        if self._process is None:
            self._fail("it is not running")
        return self._process

    def _stopped(self, when: str, closed: str) -> str:
        """``it stopped (exit status 3) before its answer``, or, if it runs on, that it
        closed its ``closed`` (``input`` or ``output``). Raises NoResult if it was killed
        by a signal the referee did not send, not one of its own faults, while another
        program outside a sandbox sat at the table (which may have sent it); else the
        signal is its own doing, and a forfeit."""
        assert self._process is not None
        try:
            status = self._process.wait(STOP_TIME)
        except subprocess.TimeoutExpired:
            return f"it closed its {closed} {when}"
        if status < 0 and self.rival_outside and -status not in OWN_FAULTS:
            self.failed = f"an engine was killed from outside (signal {-status})"
            self.stop()
            raise NoResult(self.failed)
        how = f"signal {-status}" if status < 0 else f"exit status {status}"
        return f"it stopped ({how}) {when}"

    def _held_from_outside(self) -> None:
        """Out of time: raises NoResult if it is stopped (SIGSTOP, or held by a tracer)
        while another program outside a sandbox sat at the table, which could have done
        it (as :meth:`_stopped` for a signal that kills)."""
        assert self._process is not None
        if self.rival_outside and process_state(self._process.pid) in ("T", "t"):
            self.failed = "an engine was stopped from outside"
            self.stop()
            raise NoResult(self.failed)

    def _fail(self, reason: str) -> NoReturn:
        """Stop it, and raise PlayerFailed for ``reason`` (made printable and short)."""
        self.failed = clean(reason, REASON_LIMIT)
        self.stop()
        raise PlayerFailed(self.failed)


class EnginePlayer:
    """An engine in a seat for one game: asked for its decisions, told the events (those
    since its last decision go with the next, within its move time; the end of the game
    at once)."""

    def __init__(self, engine: Engine, info: GameInfo, seat: int) -> None:
        self.engine = engine
        self.seat = seat
        self.info = info
        self.pending: list[dict[str, object]] = []
        self.begun = False
        """Whether the engine has been told the game began (with its first decision: a
        game carried on tells it the deals shown so far, which the view holds)."""

    def discard(self, view: View) -> tuple[Card, ...]:
        answer = self._ask(view)
        assert isinstance(answer, Discard)
        return answer.cards

    def play(self, view: View) -> Card:
        answer = self._ask(view)
        assert isinstance(answer, Play)
        return answer.card

    def hear(self, events: Sequence[Event]) -> None:
        self.pending.extend(told(event, self.seat) for event in events)
        if any(isinstance(event, GameOver) for event in events):
            with contextlib.suppress(PlayerFailed, NoResult):  # the game is over: nothing to lose
                self.engine.tell(self._told(None))
            self.pending = []

    def _ask(self, view: View) -> Discard | Play:
        return self.engine.ask(view, self._told(view))

    def _told(self, view: View | None) -> list[dict[str, object]]:
        """What the engine has yet to hear, from ``new_game`` if it has not heard that."""
        before, self.pending = self.pending, []
        if not self.begun:
            self.begun = True
            before.insert(0, new_game(self.info, self.seat, view.past if view else None))
        return before


def seat_of(engine: Engine) -> Seat:
    """The log's seat for an engine: the name it gave, and its command."""
    return Seat(engine.name or "Engine", "engine", command=engine.command.command)


_running: set[Engine] = set()
"""Every engine started and not yet stopped, to stop at exit."""
_kept: dict[tuple[EngineCommand, int, float, bool, tuple[str, ...]], Engine] = {}


def kept_engine(
    command: EngineCommand,
    seat: int,
    move_time: float,
    sandbox: bool = False,
    hidden: tuple[str, ...] = (),
) -> Engine:
    """A running engine for ``seat``, kept from game to game in this process (started
    again if it stopped or failed): starting a program for every game costs more than the
    game. Raises nothing: an engine that could not start fails at its first decision."""
    key = (command, seat, move_time, sandbox, hidden)
    engine = _kept.get(key)
    if engine is None or not engine.alive:
        if engine is not None:
            engine.stop()
        engine = _kept[key] = Engine(command, move_time, sandbox, hidden)
        with contextlib.suppress(PlayerFailed, NoResult):
            engine.start()
    return engine


def stop_all() -> None:
    """Stop every engine this process started."""
    _kept.clear()
    for engine in list(_running):
        engine.stop()


_watched = 0
"""The process in which :func:`stop_all` is set to run at exit (a worker is another)."""


def _stopped_at_exit() -> None:
    global _watched
    if _watched != os.getpid():
        _watched = os.getpid()
        at_exit(stop_all)


_adopts = 0
"""The process that adopts its orphaned descendants (see :func:`_adopting`)."""


def _adopting() -> None:
    """Before an engine starts: this process adopts whatever the engine leaves behind
    outside its process group (Linux), to end it when the engine stops. (Only while it
    runs engines: see :func:`_end_strays`.)"""
    global _adopts
    if _adopts != os.getpid() and become_subreaper(True):
        _adopts = os.getpid()


def _end_strays() -> None:
    """End this process's children that are neither an engine it runs nor one of its
    workers: what engines left outside their process groups, adopted when their parents
    died (and what those started, adopted in turn as each is ended)."""
    if _adopts != os.getpid() or _running:
        return  # (while an engine runs, a process it left could be another's helper)
    for _ in range(100):  # each round ends one generation; a bound, not a wait
        kept = _kept_children()
        strays = [pid for pid in children() if pid not in kept]
        if not strays:
            break
        for pid in strays:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)
    _stop_adopting()


def _reap_adopted() -> None:
    """Before each question: the processes engines left behind that this process
    adopted and that have ended are reaped, so that an engine that starts and abandons
    processes all game long cannot fill the machine's table of processes with them. (A
    look without reaping first: an engine's own end, or a worker's, is left to whoever
    waits for it.)"""
    if _adopts != os.getpid():
        return
    ours = {engine._process.pid for engine in _running if engine._process is not None}
    for _ in range(1000):  # a bound, not a wait
        try:
            ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except (ChildProcessError, OSError):
            return
        if ended is None or ended.si_pid in ours or ended.si_pid in _kept_children():
            return
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(ended.si_pid, os.WNOHANG)


def _kept_children() -> set[int]:
    """This process's workers and multiprocessing's helpers: reaped by their owners."""
    import multiprocessing

    kept = {worker.pid for worker in multiprocessing.active_children() if worker.pid}
    return kept | _helpers_of_multiprocessing()


def _helpers_of_multiprocessing() -> set[int]:
    """The processes multiprocessing keeps beside its workers (its resource tracker and
    fork server), which are this process's children too."""
    found: set[int] = set()
    with contextlib.suppress(Exception):  # private parts: none, if they change
        from multiprocessing import forkserver, resource_tracker

        for pid in (
            getattr(resource_tracker._resource_tracker, "_pid", None),
            getattr(forkserver._forkserver, "_forkserver_pid", None),
        ):
            if isinstance(pid, int):
                found.add(pid)
    return found


def _stop_adopting() -> None:
    """Once no engine runs here, this process adopts nothing more: what else it starts
    and leaves (a daemon) is none of the referee's business."""
    global _adopts
    if not _running and _adopts == os.getpid():
        become_subreaper(False)
        _adopts = 0


def _end_group(process: subprocess.Popen[bytes]) -> None:
    """End the engine's process group (it, and whatever it started and left there):
    SIGTERM, a moment, then SIGKILL; whether or not the engine itself has exited."""
    for number in (signal.SIGTERM, signal.SIGKILL):
        deadline = time.monotonic() + STOP_TIME
        try:
            os.killpg(process.pid, number)
            while time.monotonic() < deadline:
                process.poll()  # the engine reaped, so that only the living count
                os.killpg(process.pid, 0)  # raises once the group is empty
                time.sleep(0.02)
        except ProcessLookupError:
            return
        except OSError:
            continue
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(STOP_TIME)


def _dies_with_parent() -> None:  # pragma: no cover - runs in the child, before exec
    """In the engine's process: killed if the program that started it dies (Linux)."""
    dies_with_parent(signal.SIGKILL)
