"""``cribbage replay --watch``: a game played back as the table showed it, move by move.

Each move is told as the replay tells it (every hand seen: the game is over, or stopped),
and on a terminal the board ``play`` draws stays below, drawn again under each move; the
moves come at the computer's pace (:data:`cribcli.ui.PACE`, or faster), or a move each
time the watcher presses Enter. Without a terminal, every move at once.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import termios
import time
import tty
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

from cribcli.record.replay import Replay
from cribcli.record.session import Session
from cribcli.rules.errors import Exit
from cribcli.rules.events import CountRestarted, CribFromDeck, Event, GameOver, Pegged, RoundEnded
from cribcli.rules.tally import game_points
from cribcli.ui import PACE
from cribcli.ui.narrate import WATCHER, Table, narrate, summary_lines
from cribcli.ui.render import WIDE, fit, game_title
from cribcli.ui.seat import SeatUI
from cribcli.ui.signals import Stopped, stopped_by_signals

FOLLOWS = (CribFromDeck, Pegged, CountRestarted, RoundEnded)
"""What comes of a move with no one acting, shown with it: the crib's card off the deck
(after the discards), points pegged (a go, the last card, his heels), the count starting
again, and the round's scores (after its last show)."""

NEXT = "Press Enter for the next move, q to stop."
"""What ``--step`` says below the board while it waits."""

Wait = Callable[[], bool]
"""Between two moves: True to go on, False to stop there (the watcher asked to)."""


@dataclass(frozen=True, slots=True)
class Move:
    """What the table shows at once: a move (a deal, a discard, the starter, a card laid,
    a go, a count of the show, the end of the game) and what follows from it."""

    lines: tuple[str, ...]
    told: int
    """How many of the game's events are told once it is shown: the board shows them."""


def moves_of(events: Sequence[Event], table: Table, before: int = 0) -> list[Move]:
    """The events, told move by move (``before``: how many of the game's events come
    before them)."""
    moves: list[Move] = []
    for told, event in enumerate(events, start=before + 1):
        lines = tuple(narrate(event, table))
        if moves and isinstance(event, FOLLOWS):
            moves[-1] = Move(moves[-1].lines + lines, told)
        else:
            moves.append(Move(lines, told))
    return moves


class Screen:
    """Where a game is played back: lines told one after another and, on a terminal that
    moves its cursor, lines kept below them (the board), drawn again under each move.
    Elsewhere (a pipe, a dumb terminal) the lines alone, as they are."""

    def __init__(
        self, write: Callable[[str], None], columns: Callable[[], int] | None = None
    ) -> None:
        self.write = write
        self.columns = columns
        """The terminal's width, asked at each move (it may be resized); None: no terminal
        to draw on."""
        self.below = 0
        """The rows that what is kept below takes on the screen now."""

    @property
    def width(self) -> int:
        """The width to draw the board to."""
        return WIDE if self.columns is None else self.columns()

    def show(self, lines: Sequence[str], below: Sequence[str] = ()) -> None:
        """Tell ``lines``, and keep ``below`` under them in place of what was kept there."""
        if self.columns is None:
            self.write("".join(f"{line}\n" for line in lines))
            return
        width = self.columns()
        told = [row for line in lines for row in fit(line, width)]
        kept = [row for line in below for row in fit(line, width)]
        erase = f"\r\x1b[{self.below}A\x1b[J" if self.below else ""  # (what was kept below)
        self.write(erase + "".join(f"{row}\n" for row in [*told, *kept]))
        self.below = len(kept)


def paced(seconds: float, sleep: Callable[[float], None] = time.sleep) -> Wait:
    """A move every ``seconds``."""

    def wait() -> bool:
        sleep(seconds)
        return True

    return wait


def stepped(key: Callable[[], str]) -> Wait:
    """A move each time Enter (or space) is pressed: ``key`` reads a key. ``q`` or the end
    of input (Ctrl-D) stops; other keys are passed over."""

    def wait() -> bool:
        while True:
            try:
                pressed = key()
            except EOFError:
                return False
            if pressed in ("\r", "\n", " "):
                return True
            if pressed in ("q", "Q", "\x04"):
                return False
            if pressed == "\x03":  # (Ctrl-C read as a key, on a raw terminal)
                raise KeyboardInterrupt

    return wait


def play_back(
    replayed: Replay,
    table: Table,
    screen: Screen,
    wait: Wait,
    *,
    round_number: int | None = None,
    stopped: str | None = None,
    below: Sequence[str] = (),
) -> None:
    """Show the game (or round ``round_number``) move by move with the board below,
    waiting between moves; then leave the board where it stands and, unless the watcher
    stopped before the end, say how the game ended, or where its log stops (``stopped``).
    ``below``: what is said under the board while it waits."""
    events = replayed.told(round_number)
    before = next((i for i, event in enumerate(replayed.events) if event is events[0]), 0)
    board = _board(replayed, table)
    board.told = before
    if round_number is None:
        screen.show([game_title(replayed.log.info)], ["", *board.board(screen.width), *below])
    try:
        for number, move in enumerate(moves_of(events, table, before)):
            if number and not wait():
                return
            board.told = move.told
            screen.show(move.lines, ["", *board.board(screen.width), *below])
    finally:
        screen.show(["", *board.board(screen.width)])  # it stays, without what was below
    over = events[-1]
    if isinstance(over, GameOver):  # summed up as at the end of a game of ``play``
        points = game_points(replayed.events, table.rules.sides)
        screen.show(summary_lines(over, board.session.state.round, None, points, table))
    if stopped is not None:
        screen.show(["", stopped])


def _board(replayed: Replay, table: Table) -> SeatUI:
    """The board as ``play`` draws it, over the replayed game (as far as it is told)."""
    state = replayed.state
    assert state is not None  # (a log replayed through the rules has its last state)
    session = Session(replayed.log.info, state, replayed.events, {}, actions=replayed.actions)
    return SeatUI(session, WATCHER, table, say=lambda line: None, commands={})


def watch(
    replayed: Replay,
    table: Table,
    *,
    speed: float = 1.0,
    step: bool = False,
    round_number: int | None = None,
    stopped: str | None = None,
    stream: TextIO | None = None,
    sleep: Callable[[float], None] = time.sleep,
    keys: Callable[[], str] | None = None,
) -> int:
    """Play the game back on ``stream`` (standard output). On a terminal, a move every
    :data:`PACE` / ``speed`` seconds (``sleep`` waits), or with ``step`` a move each time
    Enter is pressed (``keys`` reads a key; None: the terminal's, which meanwhile does not
    echo them); elsewhere, every move at once. Returns the exit status: 0 (played to the
    end, or stopped with ``q``), 130 for Ctrl-C, 128 + the signal for SIGTERM or SIGHUP."""
    out = sys.stdout if stream is None else stream

    def write(text: str) -> None:
        out.write(text)
        out.flush()

    if not _isatty(out):
        play_back(
            replayed, table, Screen(write), lambda: True, round_number=round_number, stopped=stopped
        )
        return Exit.OK
    from prompt_toolkit.utils import is_dumb_terminal

    screen = Screen(write, None if is_dumb_terminal() else lambda: _columns(out))
    with stopped_by_signals(), _keyboard(keys) as key:
        wait = stepped(key) if step else paced(PACE / speed, sleep)
        below = [NEXT] if step and screen.columns is not None else []
        try:
            play_back(
                replayed,
                table,
                screen,
                wait,
                round_number=round_number,
                stopped=stopped,
                below=below,
            )
        except KeyboardInterrupt:
            return Exit.INTERRUPTED
        except Stopped as stop:
            return Exit.signalled(stop.signum)
    return Exit.OK


@contextlib.contextmanager
def _keyboard(keys: Callable[[], str] | None) -> Iterator[Callable[[], str]]:
    """The keys the watcher presses, one at a time, the terminal echoing none of them
    meanwhile (nor waiting for a whole line; Ctrl-C still interrupts): from standard input
    if it is the terminal, else from the terminal itself (a log read from standard input).
    ``keys`` instead, if given."""
    if keys is not None:
        yield keys
        return
    with contextlib.ExitStack() as stack:
        fd: int | None = None
        if _isatty(sys.stdin):
            fd = sys.stdin.fileno()
        else:
            with contextlib.suppress(OSError):
                fd = os.open("/dev/tty", os.O_RDONLY)
                stack.callback(os.close, fd)
        if fd is None:
            yield _no_keys
            return
        try:
            was = termios.tcgetattr(fd)
        except termios.error:
            yield _no_keys
            return
        tty.setcbreak(fd)
        stack.callback(termios.tcsetattr, fd, termios.TCSAFLUSH, was)  # (keys left: dropped)
        yield _Keys(fd)


class _Keys:
    """The keys read from a terminal, one at a time (an arrow's or a function key's
    sequence is passed over whole)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = ""

    def __call__(self) -> str:
        while not self.pending:
            chunk = os.read(self.fd, 64).decode("utf-8", "replace")
            if not chunk:
                raise EOFError
            if not chunk.startswith("\x1b"):
                self.pending = chunk
        key, self.pending = self.pending[0], self.pending[1:]
        return key


def _no_keys() -> str:
    """No terminal to read keys from: as at the end of input."""
    raise EOFError


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _columns(stream: TextIO) -> int:
    """The terminal's width, as the terminal says it (not a stale $COLUMNS)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError):
        return shutil.get_terminal_size().columns
