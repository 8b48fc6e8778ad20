"""``cribbage play`` from start to end: find or start the game, hold its save, play it at
the prompt or from lines, and file it away when it is over.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TextIO

from cribcli.engine import Rules
from cribcli.errors import CribbageError, UsageProblem
from cribcli.games import Saver, file_game
from cribcli.players import Player, computer
from cribcli.record import LOG_LIMIT, GameInfo, Seat, loads
from cribcli.session import Session
from cribcli.stats import remember
from cribcli.store import (
    Places,
    SaveLock,
    StoreError,
    clean_leftovers,
    load_settings,
    read_text,
    reason,
    save_settings,
    set_aside,
)
from cribcli.ui.console import warn
from cribcli.ui.lines import SCRIPT_ENDED, ScriptError, run_lines
from cribcli.ui.narrate import Table
from cribcli.ui.play import GameUI, Quit
from cribcli.ui.render import decide_style
from cribcli.ui.signals import Stopped, stopped_by_signals

EXIT_OK, EXIT_DATA, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
PACE = 0.6
"""Seconds between the computer's moves on a terminal, so a person can follow them."""

NAMES = {2: ("Computer",), 3: ("Left", "Right"), 4: ("Left", "Partner", "Right")}


@dataclass
class PlayOptions:
    """What ``cribbage play`` was asked for."""

    level: str | None = None
    seed: int | str | None = None
    """Checked already (:func:`cribcli.record.parse_seed`)."""
    name: str = "You"
    short: bool = False
    cut: bool = False
    players: int = 2
    ascii_only: bool = False
    no_color: bool = False
    fast: bool = False
    new: bool = False
    log_path: str | None = None
    script: TextIO | None = None
    as_json: bool = False
    data_dir: str | None = None
    new_game_options: list[str] = field(default_factory=list)
    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    ask: Callable[[str, bool], bool] | None = None
    """Asks a yes/no question on a terminal (None: there is nobody to ask)."""
    choose_level: Callable[[str], str] | None = None
    """Asks for the level on a terminal, given the default."""
    daily: str | None = None
    """The date (YYYY-MM-DD) of a daily game: its own save, seed, level and name."""
    muggins: bool = False

    @property
    def command(self) -> str:
        """How the player comes back to this game."""
        return f"cribbage daily --date {self.daily}" if self.daily else "cribbage play"


def play_game(options: PlayOptions) -> int:
    """Play; return the exit status. Raises CribbageError for a save that cannot be used.

    SIGTERM and SIGHUP end it as Ctrl-C does, at any moment: status 128 + the signal."""
    with stopped_by_signals():
        try:
            return _play(options)
        except Stopped as stop:  # before the game began (at a question) or after it ended
            return 128 + stop.signum


def _play(options: PlayOptions) -> int:
    places = Places.find(options.data_dir)
    save_path = places.save(f"daily-{options.daily}" if options.daily else "game")
    interactive = options.script is None and options.stdin.isatty() and not options.as_json
    say = _sayer(options.stdout)
    with SaveLock(save_path, warn=warn) as lock:
        clean_leftovers(save_path)
        saver = Saver(
            save_path,
            warn,
            lock=lock,
            copy=Path(options.log_path) if options.log_path else None,
        )
        session = _saved_session(options, save_path, saver, interactive, say)
        fresh = session is None
        if session is None:
            session = _new_session(options, places, saver, interactive)
        human = 0
        style = decide_style(
            options.stdout,
            ascii_only=options.ascii_only or options.as_json,
            color=False if (options.no_color or not interactive) else None,
        )
        table = Table(
            session.info.rules, tuple(s.name for s in session.info.seats), style, viewer=human
        )
        pause = _pacer(interactive and not options.fast)
        if interactive:
            from cribcli.ui import repl

            say = repl.say
        ui = GameUI(session, human, table, say=say, pause=pause, as_json=options.as_json)
        if fresh:
            ui.tell(session.events)  # the cut for deal and the first deal
        name = _log_name(options, session)
        try:
            if interactive:
                from cribcli.ui.repl import run_repl

                finished = run_repl(ui, places.history, warn=warn)
            else:
                lines = options.script if options.script is not None else options.stdin
                finished = run_lines(ui, lines, say)
        except Quit:
            return _left(
                saver,
                name,
                say,
                f"The game is saved: '{options.command}' carries on where you left off.",
            )
        except ScriptError as error:
            warn(str(error))
            _left(saver, name, say, "The game is saved as it stood before that line.")
            return EXIT_DATA
        except KeyboardInterrupt:
            say("")
            carry_on = f"the game is saved; '{options.command}' carries on."
            return _left(saver, name, say, f"Interrupted: {carry_on}") or EXIT_INTERRUPTED
        except Stopped as stop:
            carry_on = f"the game is saved; '{options.command}' carries on."
            with contextlib.suppress(OSError):  # after a hangup there is no terminal
                return _left(saver, name, say, f"Stopped: {carry_on}") or 128 + stop.signum
            return 128 + stop.signum
        if not finished:
            return _left(saver, name, say, None if options.as_json else SCRIPT_ENDED)
        filed = file_game(saver, places.games, name)
        if filed.path is not None and filed.path.parent == places.games:
            remember(places.index, filed.path, session.info, session.events)
        if filed.path is None:
            _show_log(saver.text, say, options.as_json)
        elif options.as_json:
            import json

            say(json.dumps({"event": "saved", "path": str(filed.path)}))
        elif filed.path.parent == places.games:
            say(f"The game's log is in {filed.path} ('cribbage replay --last' tells it again).")
        if options.daily and not options.as_json and filed.ok:
            from cribcli.ui.daily import result_lines

            for line in result_lines(places.games, options.daily):
                say(line)
        return EXIT_OK if filed.ok else EXIT_DATA


def _log_name(options: PlayOptions, session: Session) -> str:
    """The name a finished game is filed under: ``daily-DATE`` or ``DATE-seed-SEED``."""
    if options.daily:
        return f"daily-{options.daily}"
    return f"{datetime.now().strftime('%Y-%m-%d')}-seed-{session.info.seed}"


def _left(saver: Saver, name: str, say: Callable[[str], None], saved: str | None) -> int:
    """The player leaves a game before its end: say ``saved`` if the save holds the game,
    else keep the game elsewhere and say where. Returns the exit status: 1 if the game
    could not be saved where it lives, whatever ended it."""
    if not saver.saved:
        saver(saver.text)  # once more: the disk may have room now
    if saver.saved:
        if saved:
            say(saved)
        return EXIT_OK
    if saver.keep(f"save-{name}") is None:
        _show_log(saver.text, say, as_json=False)
    return EXIT_DATA


def _show_log(text: str, say: Callable[[str], None], as_json: bool) -> None:
    """The last resort for a log that could be written nowhere: show it whole."""
    if as_json:
        import json

        say(json.dumps({"event": "log", "text": text}))
        return
    say("The game's log, which could not be written to any file:")
    for line in text.splitlines():
        say(line)


def _sayer(stream: TextIO) -> Callable[[str], None]:
    def say(line: str) -> None:
        stream.write(line + "\n")
        stream.flush()

    return say


def _pacer(enabled: bool) -> Callable[[], None]:
    return (lambda: time.sleep(PACE)) if enabled else (lambda: None)


def _saved_session(
    options: PlayOptions,
    save_path: Path,
    saver: Saver,
    interactive: bool,
    say: Callable[[str], None],
) -> Session | None:
    """The game in progress, if there is one and it is to be carried on. Anything at the
    save's path that is not a readable game log is set aside, and a new game starts."""
    try:
        text = read_text(save_path, LOG_LIMIT, follow_links=False)
        if text is None:
            return None
        log = loads(text)
        session = Session.resume(log, _computers(log.info), saver)
    except (CribbageError, ValueError, RecursionError) as error:  # whatever the save holds
        try:
            kept = set_aside(save_path)
        except OSError as problem:
            raise StoreError(
                f"the saved game {save_path} could not be read ({error}) nor moved aside "
                f"({reason(problem)})"
            ) from None
        why = str(error).removeprefix(f"{save_path}: ")
        warn(f"the saved game could not be read ({why}); it is kept as {kept}: a new game starts")
        return None
    saver.text = text
    if options.new:
        if (
            interactive
            and options.ask
            and not options.ask("Abandon the saved game and start a new one?", False)
        ):
            return session
        _abandon(save_path)
        return None
    if options.new_game_options:
        if not interactive:
            given = ", ".join(f"--{name}" for name in options.new_game_options)
            raise UsageProblem(
                f"a saved game is in progress, and {given} would start a new one: add --new "
                "to abandon it, or leave them out to carry it on"
            )
        if options.ask and not options.ask("A game is in progress. Carry it on?", True):
            _abandon(save_path)
            return None
    say(f"Carrying on your game (round {session.state.round}).")
    return session


def _abandon(save_path: Path) -> None:
    """Throw the saved game away (if it cannot be removed, the new game's save replaces it)."""
    with contextlib.suppress(OSError):
        save_path.unlink()


def _new_session(options: PlayOptions, places: Places, saver: Saver, interactive: bool) -> Session:
    if options.daily:
        return _daily_session(options.daily, options, saver)
    settings = load_settings(places.settings)
    level = options.level
    default = (
        settings.get("level") if settings.get("level") in ("easy", "normal", "hard") else "normal"
    )
    if level is None and interactive and options.choose_level is not None:
        level = options.choose_level(str(default))
    level = level or str(default)
    if level != settings.get("level"):
        # a setting not remembered is no reason to stop a game
        with contextlib.suppress(OSError):
            save_settings(places.settings, {**settings, "level": level})
    seed = options.seed if options.seed is not None else int.from_bytes(os.urandom(4), "big")
    players = options.players
    rules = Rules(
        players=players,
        target=61 if options.short else 121,
        cut_for_deal=options.cut or players > 2,
        first_dealer=1,
        muggins=options.muggins,
    )
    seats = (Seat(options.name, "human"),) + tuple(
        Seat(name, "computer", level) for name in NAMES[players]
    )
    info = GameInfo(
        rules, seats, seed, started=datetime.now().astimezone().isoformat(timespec="seconds")
    )
    return Session.start(info, _computers(info), saver)


def daily_info(date: str, name: str = "You", muggins: bool = False) -> GameInfo:
    """A day's game: the same seed, rules and computer (hard) for everyone."""
    rules = Rules(muggins=muggins)
    seats = (Seat(name, "human"), Seat("Computer", "computer", "hard"))
    return GameInfo(rules, seats, f"daily/{date}", label=f"daily {date}")


def _daily_session(date: str, options: PlayOptions, saver: Saver) -> Session:
    info = daily_info(date, options.name, options.muggins)
    return Session.start(info, _computers(info), saver)


def _computers(info: GameInfo) -> dict[int, Player]:
    return {
        seat: computer(spec.level or "normal", info.seed, seat)
        for seat, spec in enumerate(info.seats)
        if spec.player == "computer"
    }
