"""``cribbage play`` and ``cribbage daily``: a game against the computer, at the
terminal or from lines."""

from __future__ import annotations

import json
from typing import TextIO

import click

from cribcli.cli import Command, DataError
from cribcli.commands.options import (
    check_name,
    check_seed,
    confirm,
    game_input_options,
    style_options,
)
from cribcli.commands.seating import (
    MOVE_TIME_OPTION,
    OBJECTIVE_OPTION,
    check_engine,
    level_named,
    level_option,
)
from cribcli.players import LEVELS_HELP, Level, Objective
from cribcli.protocol.referee import EngineCommand

PLAY_EXAMPLES = """\b
Examples:
  cribbage play                          resume the saved game, or start one
  cribbage play --level hard --short     to 61 against the hard computer
  cribbage play --players 4              you and a partner against two
  cribbage play --seed 7 --level normal < moves.txt > transcript.txt
  cribbage play --json --new < moves.txt   JSON lines, one event a line
  cribbage play --coach                  after each show, what errors cost
\b
At the prompt, type cards (5H JD to discard, 7S to lay; Tab completes) or a
command: hint, hand, score, log, tips, rules, undo, review, help, quit.
"""


@click.command(cls=Command, epilog=PLAY_EXAMPLES)
@level_option("The computer's strength (remembered)")
@OBJECTIVE_OPTION
@click.option(
    "--seed", callback=check_seed, help="Deal this game from a seed (a number or a short text)."
)
@click.option(
    "--name", default="You", show_default=True, callback=check_name, help="Your name at the table."
)
@click.option("--short", is_flag=True, help="A short game, to 61.")
@click.option("--muggins", is_flag=True, help="Count your own hands; missed points are taken.")
@click.option("--cut", is_flag=True, help="Cut for the first deal (otherwise the computer deals).")
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help="3 or 4: the others are computers; with 4 the one across is your partner.",
)
@style_options
@click.option("--fast", is_flag=True, help="No pause between the computer's moves.")
@click.option(
    "--coach/--no-coach",
    default=None,
    help="After each show, what your costly decisions lost (remembered).",
)
@click.option(
    "--opponent",
    metavar="engine:CMD",
    callback=lambda ctx, param, value: check_engine(value),
    help="Seat a program speaking the engine protocol in the computers' seats.",
)
@MOVE_TIME_OPTION
@click.option("--new", is_flag=True, help="Abandon the saved game (after asking) and start anew.")
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="Also write the game's log here, after every move.",
)
@game_input_options
def play(
    level: str | None,
    objective: str,
    seed: int | str | None,
    name: str,
    short: bool,
    muggins: bool,
    cut: bool,
    players: int,
    ascii_only: bool,
    no_color: bool,
    fast: bool,
    coach: bool | None,
    opponent: EngineCommand | None,
    move_time: float,
    new: bool,
    log_path: str | None,
    script: TextIO | None,
    as_json: bool,
    data_dir: str | None,
) -> None:
    """Play cribbage against the computer.

    On a terminal, a prompt with card completion (Tab) and history, and a peg board below
    it; from a
    pipe or with --script, plain lines in and plain text out, so a game can be scripted
    and its transcript compared. The game is saved after every move: 'cribbage play'
    resumes it, and a finished game's log is kept with your other games.
    """
    from cribcli.services.games import NewGame
    from cribcli.ui.playing import PlayOptions, play_game

    ctx = click.get_current_context()
    new_game_options = [
        option
        for option in ("level", "objective", "seed", "short", "cut", "players", "name", "muggins")
        if ctx.get_parameter_source(option) is click.core.ParameterSource.COMMANDLINE
    ]
    options = PlayOptions(
        new=NewGame(
            level=Level(level) if level else None,
            objective=Objective(objective),
            seed=seed,
            name=name,
            short=short,
            cut=cut,
            players=players,
            muggins=muggins,
            opponent=opponent,
        ),
        new_game_options=new_game_options,
        move_time=move_time,
        abandon=new,
        ascii_only=ascii_only,
        no_color=no_color,
        fast=fast,
        coach=coach,
        log_path=log_path,
        script=script,
        as_json=as_json,
        data_dir=data_dir,
        ask=confirm,
        choose_level=lambda default: click.prompt(
            f"How strong a computer? ({LEVELS_HELP})", default=default, value_proc=level_named
        ),
        another=another_game,
    )
    ctx.exit(play_game(options))


def another_game() -> bool:
    """``Another game? [Y/n]`` once a game is over: Enter says yes; Ctrl-C or Ctrl-D, no."""
    try:
        return click.confirm("Another game?", default=True)
    except click.Abort:
        click.echo("")
        return False


DAILY_EXAMPLES = """\b
Examples:
  cribbage daily                         today's game (or its result, once played)
  cribbage daily --share                 the one-line result, to paste to a friend
  cribbage daily --date 2026-12-01       a past day's deal
  cribbage daily --date 2026-12-01 < moves.txt
"""


@click.command(cls=Command, epilog=DAILY_EXAMPLES)
@click.option("--date", "day", metavar="YYYY-MM-DD", help="Play a past day's deal.")
@click.option("--share", is_flag=True, help="Print only the one-line result of the day's game.")
@click.option("--muggins", is_flag=True, help="Count your own hands; missed points are taken.")
@click.option(
    "--name", default="You", show_default=True, callback=check_name, help="Your name at the table."
)
@style_options
@click.option("--fast", is_flag=True, help="No pause between the computer's moves.")
@game_input_options
def daily(
    day: str | None,
    share: bool,
    muggins: bool,
    name: str,
    ascii_only: bool,
    no_color: bool,
    fast: bool,
    script: TextIO | None,
    as_json: bool,
    data_dir: str | None,
) -> None:
    """Today's game: the same cards for everyone, against the hard computer.

    Everyone who plays the same date gets the same deals, round after round, and the
    same computer, so two players who make the same moves see the same game. One game a
    day, saved and carried on like any other; once it is over, 'cribbage daily' shows the
    result, a line to share, and your streak of days in a row.
    """
    from datetime import date

    from cribcli.record import daily as days
    from cribcli.record.store import Places
    from cribcli.review.history import daily_result
    from cribcli.services.games import NewGame
    from cribcli.ui.console import warn
    from cribcli.ui.playing import PlayOptions, play_game
    from cribcli.ui.reports import daily_lines

    day = days.day_of(day, date.today())
    result = daily_result(Places.find(data_dir), day, warn)
    if share:
        if result is None:
            raise DataError(f"the daily game for {day} is not finished yet")
        click.echo(result.share)
        return
    if result is not None and as_json:
        click.echo(json.dumps(result.as_json()))
        return
    if result is not None:
        for line in daily_lines(result, today=day == date.today().isoformat()):
            click.echo(line)
        return
    options = PlayOptions(
        new=NewGame(name=name, muggins=muggins),
        daily=day,
        today=date.today().isoformat(),
        ascii_only=ascii_only,
        no_color=no_color,
        fast=fast,
        script=script,
        as_json=as_json,
        data_dir=data_dir,
        ask=confirm,
    )
    click.get_current_context().exit(play_game(options))
