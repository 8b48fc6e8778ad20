"""``cribbage play`` and ``cribbage daily`` at the terminal or from lines: ask what must be
asked, draw the table, read the moves, and say how the game was left or where it was
filed. What a game is, and keeping it, is the games service's (``cribcli.services.games``).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from cribcli.players import Level
from cribcli.protocol.referee import MOVE_TIME, PREFIX
from cribcli.record.log import carried
from cribcli.record.session import Session
from cribcli.record.store import Places
from cribcli.review.history import daily_result
from cribcli.review.luck import luck_of
from cribcli.rules.errors import Exit, printable
from cribcli.rules.events import GameOver
from cribcli.rules.tally import game_points
from cribcli.rules.targets import target_of
from cribcli.services.games import (
    Filed,
    HeldGame,
    Kind,
    Left,
    NewGame,
    coach_wanted,
    first_game,
    remembered_level,
)
from cribcli.ui import PACE
from cribcli.ui.console import warn
from cribcli.ui.lines import run_lines
from cribcli.ui.narrate import Table
from cribcli.ui.render import decide_style
from cribcli.ui.reports import daily_opening
from cribcli.ui.seat import Quit, SeatUI
from cribcli.ui.signals import Stopped, stopped_by_signals
from cribcli.ui.voice import ScriptError


@dataclass
class PlayOptions:
    """What ``cribbage play`` or ``cribbage daily`` was asked for."""

    new: NewGame = field(default_factory=NewGame)
    """The game to start, if none is carried on (a daily game ignores all but the name
    and muggins)."""
    new_game_options: list[str] = field(default_factory=list)
    """The options given that only a new game can take (``level``, ``seed``...)."""
    abandon: bool = False
    """--new: abandon the saved game (after asking, on a terminal)."""
    daily: str | None = None
    """The date (YYYY-MM-DD) of a daily game: its own save, seed, level and name."""
    today: str = ""
    """Today's date, YYYY-MM-DD (the command line reads the clock)."""
    ascii_only: bool = False
    no_color: bool = False
    fast: bool = False
    log_path: str | None = None
    script: TextIO | None = None
    as_json: bool = False
    data_dir: str | None = None
    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    ask: Callable[[str, bool], bool] | None = None
    """Asks a yes/no question on a terminal (None: there is nobody to ask)."""
    choose_level: Callable[[str], str] | None = None
    """Asks for the level on a terminal, given the default (Enter takes it)."""
    another: Callable[[], bool] | None = None
    """Asks on a terminal whether to play another game once one is over (Enter: yes)."""
    coach: bool | None = None
    """--coach or --no-coach (remembered); None: as chosen last."""
    move_time: float = MOVE_TIME
    """Seconds an engine at the table (``new.opponent``) has for each decision."""

    @property
    def kind(self) -> Kind:
        """Which game is played: ``play``'s, or a day's."""
        return Kind(self.daily)


def play_game(options: PlayOptions) -> int:
    """Play; return the exit status. Raises CribbageError for a save that cannot be used.

    At a terminal, a finished game is summed up and another offered (Enter starts it).
    SIGTERM and SIGHUP end it as Ctrl-C does, at any moment: status 128 + the signal."""
    with stopped_by_signals():
        try:
            while True:
                status, again = _play(options)
                if again is None:
                    return status
                # another game like the one just played, a new deal: no --log copy (it
                # would be written over), nothing to abandon or to ask
                options = replace(
                    options, new=again, new_game_options=[], abandon=False, log_path=None
                )
        except Stopped as stop:  # before the game began (at a question) or after it ended
            return Exit.signalled(stop.signum)


def _play(options: PlayOptions) -> tuple[int, NewGame | None]:
    """One game: the exit status, and the next game if the player wants another."""
    places = Places.find(options.data_dir)
    interactive = options.script is None and options.stdin.isatty() and not options.as_json
    copy = None if options.log_path is None else Path(options.log_path)
    kind = options.kind
    held_game = HeldGame(
        places, kind, warn, copy, opponent=options.new.opponent, move_time=options.move_time
    )
    with held_game as held:
        session = held.carry_on(
            abandon=options.abandon,
            new_options=options.new_game_options,
            ask=options.ask if interactive else None,
        )
        fresh = session is None
        if session is None:
            session = held.start(kind.info(_new_game(options, places, interactive), places))
        began = time.monotonic() if fresh and interactive else None  # how long it took
        ui = _seat(options, places, session, interactive)
        _opening(ui, options, places, fresh, interactive)
        status = _played(ui, held, options, interactive, began)
    if status is not None:  # left before its end, or not filed as it should be
        return status, None
    if interactive and not options.daily and options.another is not None and options.another():
        return Exit.OK, _like(session, options.new)
    return Exit.OK, None


def _like(session: Session, asked: NewGame) -> NewGame:
    """A new game like the session's (its rules, its name, its level), a new deal, the
    deals shown so far carried (:func:`cribcli.record.log.carried`)."""
    info = session.info
    rules = info.rules
    level = next((seat.level for seat in info.seats if seat.level), None)
    return replace(
        asked,
        seed=None,
        level=level or asked.level,
        name=info.seats[0].name,
        short=rules.target == target_of(True),
        players=rules.players,
        muggins=rules.muggins,
        cut=rules.cut_for_deal,
        earlier=carried(session.state.past),
        first_dealer=_loser(session),
    )


def _loser(session: Session) -> int | None:
    """The seat that lost the game, with two players: it deals the next (the ACC's rule
    1.5, as a served table's match does)."""
    winner = session.state.winner
    if session.info.rules.players != 2 or winner is None:
        return None
    return 1 - winner


def _seat(options: PlayOptions, places: Places, session: Session, interactive: bool) -> SeatUI:
    """The person's seat: drawn for the terminal, or for lines (plain, or JSON)."""
    style = decide_style(
        options.stdout,
        ascii_only=options.ascii_only or options.as_json,
        color=False if (options.no_color or not interactive) else None,
    )
    width = _columns(options.stdout) if interactive else None
    names = tuple(seat.name for seat in session.info.seats)
    table = Table(session.info.rules, names, style, viewer=0, width=width)
    say: Callable[[str], None] = _sayer(options.stdout)
    if interactive:
        from cribcli.ui import repl

        say = repl.say
    coach = coach_wanted(places, options.coach)
    return SeatUI(session, 0, table, say=say, as_json=options.as_json, coach=coach)


def _opening(
    ui: SeatUI, options: PlayOptions, places: Places, fresh: bool, interactive: bool
) -> None:
    """Before the first move: which day's deal, the cut and the deal (or that the game is
    carried on), and, once ever, how to play."""
    if options.daily:
        ui.say(daily_opening(options.daily, today=options.daily == options.today))
    if _promising(options):
        ui.voice.promise(ui.session.info.promise)
    if fresh:
        ui.told = 0
        ui.tell()  # the cut for deal and the first deal
    else:
        ui.say(f"Carrying on your game (round {ui.session.state.round}).")
    if interactive and first_game(places):
        for line in WELCOME:
            ui.say(line)


def _promising(options: PlayOptions) -> bool:
    """Whether the deal's promise is shown before the first card and its seed at the end:
    where the deal is everyone's to check (the daily game), and to a program (``--json``).
    A person playing the computer on their own machine has nobody to distrust: the
    promise is in the log, for ``verify``."""
    return options.daily is not None or options.as_json


def _played(
    ui: SeatUI, held: HeldGame, options: PlayOptions, interactive: bool, began: float | None
) -> int | None:
    """Play the game to its end, or until it is left; then file it, or leave it saved.
    The exit status, or None if the game is over and filed."""
    kind = held.kind
    name = kind.filed_name(ui.session.info)
    carry_on = f"'{kind.command}' carries on"
    if held.opponent is not None:
        again = f"{kind.command} --opponent {shlex.quote(PREFIX + held.opponent.command)}"
        carry_on = f"{printable(again)} carries on"
    try:
        if interactive:
            from cribcli.ui.repl import run_repl

            pace = 0.0 if options.fast else PACE
            finished = run_repl(ui, held.places.history, pace=pace, warn=warn)
        else:
            finished = run_lines(ui, options.script or options.stdin)
    except Quit:
        return _left(held.leave(name), ui, f"The game is saved: {carry_on} where you left off.")
    except ScriptError as error:
        warn(str(error))
        _left(held.leave(name), ui, "The game is saved as it stood before that line.")
        return Exit.DATA
    except KeyboardInterrupt:
        ui.say("")
        saved = f"Interrupted: the game is saved; {carry_on}."
        return _left(held.leave(name), ui, saved) or Exit.INTERRUPTED
    except Stopped as stop:
        with contextlib.suppress(OSError):  # after a hangup there is no terminal
            saved = f"Stopped: the game is saved; {carry_on}."
            return _left(held.leave(name), ui, saved) or Exit.signalled(stop.signum)
        return Exit.signalled(stop.signum)
    if not finished:
        ended = f"The script ended before the game did: the game is saved; {carry_on}."
        return _left(held.leave(name), ui, None if options.as_json else ended)
    judged = ui.coach.game_review
    filed = held.finish(ui.session, name, judged.as_lost() if judged is not None else None)
    _sum_up(ui, began)
    if _promising(options):
        ui.voice.revealed(ui.session.info.seed, ui.session.info.promise)
    status = _filed(filed, held, options, ui)
    return None if status == Exit.OK else status


WELCOME = (
    "To throw, type two cards (5H JD); to lay, one (7S). Tab completes a card.",
    "`help` lists the commands. A card in [brackets], dimmed, would pass 31.",
)
"""What a first game says once, under the first deal."""


def _sum_up(ui: SeatUI, began: float | None) -> None:
    """The end of a game, summed up: at a terminal, the board that stood below the
    prompt; then who won and by what, the game's length, each side's points by source,
    and in a game of two what the cards dealt and cut gave each side."""
    session = ui.session
    over = session.events[-1]
    assert isinstance(over, GameOver)
    board = [] if ui.table.width is None else ui.pegs(ui.table.width)  # (at a terminal)
    minutes = None if began is None else round((time.monotonic() - began) / 60)
    points = game_points(session.events, session.info.rules.sides)
    luck = luck_of(session.events, {})  # the deal's and the starter's need no judging
    cards_luck = [seat.deal + seat.starter for seat in luck.seats()] if luck else []
    ui.voice.summary(over, session.state.round, minutes, points, board, cards_luck)


def _new_game(options: PlayOptions, places: Places, interactive: bool) -> NewGame:
    """The new game asked for, its level asked on a terminal if not given."""
    new = options.new
    if new.level is None and interactive and options.choose_level is not None and not options.daily:
        new = replace(new, level=Level(options.choose_level(str(remembered_level(places)))))
    return new


def _left(left: Left, ui: SeatUI, saved: str | None) -> int:
    """Say how a game left before its end stands. Returns the exit status: 1 if it could
    not be saved where it lives (it was kept elsewhere, and that was told)."""
    if left.saved:
        if saved:
            ui.say(saved)
        return Exit.OK
    if left.kept is None:
        ui.voice.whole_log(left.text)
    return Exit.DATA


def _filed(filed: Filed, held: HeldGame, options: PlayOptions, ui: SeatUI) -> int:
    """Say where a finished game's log went; for a daily game, its result."""
    if filed.path is None:
        ui.voice.whole_log(held.saver.text)
    else:
        ui.voice.filed(filed.path, filed.path.parent == held.places.games)
    if options.daily and filed.ok:
        result = daily_result(held.places, options.daily, warn)
        if result is not None:
            ui.voice.daily(result, today=options.daily == options.today)
    return Exit.OK if filed.ok else Exit.DATA


def _columns(stream: TextIO) -> int:
    """The terminal's width, as the terminal says it (not a stale $COLUMNS)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError):
        return shutil.get_terminal_size().columns


def _sayer(stream: TextIO) -> Callable[[str], None]:
    def say(line: str) -> None:
        stream.write(line + "\n")
        stream.flush()

    return say
