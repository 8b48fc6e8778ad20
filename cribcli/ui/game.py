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
from cribcli.players import Player, computer
from cribcli.record import GameInfo, Seat, loads
from cribcli.session import Session
from cribcli.store import (
    Places,
    SaveLock,
    StoreError,
    archive,
    load_settings,
    read_text,
    save_settings,
    set_aside,
    write_atomic,
)
from cribcli.ui.lines import ScriptError, run_lines
from cribcli.ui.narrate import Table
from cribcli.ui.play import GameUI, Quit
from cribcli.ui.render import decide_style

EXIT_OK, EXIT_DATA, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
PACE = 0.6
"""Seconds between the computer's moves on a terminal, so a person can follow them."""

NAMES = {2: ("Computer",), 3: ("Left", "Right"), 4: ("Left", "Partner", "Right")}


@dataclass
class PlayOptions:
    """What ``cribbage play`` was asked for."""

    level: str | None = None
    seed: str | None = None
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
    """Play; return the exit status. Raises CribbageError for a save that cannot be used."""
    places = Places.find(options.data_dir)
    save_path = places.save(f"daily-{options.daily}" if options.daily else "game")
    interactive = options.script is None and options.stdin.isatty() and not options.as_json
    say = _sayer(options.stdout)
    with SaveLock(save_path):
        session = _saved_session(options, save_path, interactive, say)
        fresh = session is None
        if session is None:
            session = _new_session(options, places, save_path, interactive)
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
        try:
            if interactive:
                from cribcli.ui.repl import run_repl

                finished = run_repl(ui, places.history)
            else:
                lines = options.script if options.script is not None else options.stdin
                finished = run_lines(ui, lines, say)
        except Quit:
            say(f"The game is saved: '{options.command}' carries on where you left off.")
            return EXIT_OK
        except ScriptError as error:
            print(f"cribbage: {error}", file=sys.stderr)
            say("The game is saved as it stood before that line.")
            return EXIT_DATA
        except KeyboardInterrupt:
            say("")
            say(f"Interrupted: the game is saved; '{options.command}' carries on.")
            return EXIT_INTERRUPTED
        if not finished:
            return EXIT_OK
        date = datetime.now().strftime("%Y-%m-%d")
        name = f"daily-{options.daily}" if options.daily else f"{date}-seed-{session.info.seed}"
        try:
            kept = archive(save_path, places.games, name)
        except OSError as error:
            print(
                f"cribbage: cannot file the finished game ({error.strerror or error}); "
                f"its log stays in {save_path}",
                file=sys.stderr,
            )
            return EXIT_DATA
        if options.as_json:
            import json

            say(json.dumps({"event": "saved", "path": str(kept)}))
        else:
            say(f"The game's log is in {kept} ('cribbage replay --last' tells it again).")
        if options.daily and not options.as_json:
            from cribcli.ui.daily import result_lines

            for line in result_lines(places.games, options.daily):
                say(line)
        return EXIT_OK


def _sayer(stream: TextIO) -> Callable[[str], None]:
    def say(line: str) -> None:
        stream.write(line + "\n")
        stream.flush()

    return say


def _pacer(enabled: bool) -> Callable[[], None]:
    return (lambda: time.sleep(PACE)) if enabled else (lambda: None)


def _saved_session(
    options: PlayOptions, save_path: Path, interactive: bool, say: Callable[[str], None]
) -> Session | None:
    """The game in progress, if there is one and it is to be carried on."""
    text = read_text(save_path)
    if not text:
        return None
    try:
        log = loads(text)
        session = Session.resume(log, _computers(log.info), _saver(save_path, options.log_path))
    except CribbageError as error:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        try:
            kept = set_aside(save_path, stamp)
        except OSError as problem:
            raise StoreError(
                f"the saved game {save_path} could not be read ({error}) nor moved aside "
                f"({problem.strerror or problem})"
            ) from None
        print(
            f"cribbage: the saved game could not be read ({error}); it is kept as {kept} "
            "and a new game starts",
            file=sys.stderr,
        )
        return None
    if options.new:
        if (
            interactive
            and options.ask
            and not options.ask("Abandon the saved game and start a new one?", False)
        ):
            return session
        os.remove(save_path)
        return None
    if options.new_game_options:
        if not interactive:
            given = ", ".join(f"--{name}" for name in options.new_game_options)
            raise UsageProblem(
                f"a saved game is in progress, and {given} would start a new one: add --new "
                "to abandon it, or leave them out to carry it on"
            )
        if options.ask and not options.ask("A game is in progress. Carry it on?", True):
            os.remove(save_path)
            return None
    say(f"Carrying on your game (round {session.state.round}).")
    return session


def _new_session(
    options: PlayOptions, places: Places, save_path: Path, interactive: bool
) -> Session:
    if options.daily:
        return _daily_session(options.daily, options, save_path)
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
    seed: int | str = (
        options.seed if options.seed is not None else int.from_bytes(os.urandom(4), "big")
    )
    if isinstance(seed, str) and seed.isdigit():
        seed = int(seed)
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
    return Session.start(info, _computers(info), _saver(save_path, options.log_path))


def daily_info(date: str, name: str = "You", muggins: bool = False) -> GameInfo:
    """A day's game: the same seed, rules and computer (hard) for everyone."""
    rules = Rules(muggins=muggins)
    seats = (Seat(name, "human"), Seat("Computer", "computer", "hard"))
    return GameInfo(rules, seats, f"daily/{date}", label=f"daily {date}")


def _daily_session(date: str, options: PlayOptions, save_path: Path) -> Session:
    info = daily_info(date, options.name, options.muggins)
    return Session.start(info, _computers(info), _saver(save_path, options.log_path))


def _computers(info: GameInfo) -> dict[int, Player]:
    return {
        seat: computer(spec.level or "normal", info.seed, seat)
        for seat, spec in enumerate(info.seats)
        if spec.player == "computer"
    }


def _saver(save_path: Path, extra: str | None) -> Callable[[str], None]:
    """Save after every move. A save that fails (a full disk, a folder made read-only)
    leaves the last good save as it was; the game goes on, saying so once, and every
    later move tries again."""
    failing: set[str] = set()

    def save(text: str) -> None:
        for path in (save_path, *([Path(extra)] if extra else [])):
            try:
                write_atomic(path, text)
                failing.discard(str(path))
            except OSError as error:
                if str(path) not in failing:
                    failing.add(str(path))
                    reason = error.strerror or str(error)
                    print(
                        f"cribbage: cannot save to {path} ({reason}): the game goes on, the "
                        "last save is kept, and saving is tried again after every move",
                        file=sys.stderr,
                    )

    return save
