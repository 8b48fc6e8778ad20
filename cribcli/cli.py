"""The ``cribbage`` command: a thin Click layer that parses, calls the core, renders, exits.

Exit status: 0 success; 1 bad data (a bad line among many on standard input); 2 bad usage
(an unknown card, a duplicate, the wrong number of cards, an unknown option). Every error a
user can cause is one line on stderr, never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypeVar

import click
import click.shell_completion

from cribcli import __version__
from cribcli.cards import Card, parse_cards
from cribcli.errors import CribbageError, Exit, UsageProblem
from cribcli.players import Level
from cribcli.scoring import HAND_SIZE, ShowScore, hand_and_starter, score_show

if TYPE_CHECKING:
    from cribcli.coach import Review
    from cribcli.engines import EngineCommand
    from cribcli.record import GameInfo, Replay


class UserError(click.ClickException):
    """Bad usage the user caused: one line on stderr, exit status 2."""

    exit_code = Exit.USAGE


class DataError(click.ClickException):
    """Bad data (a log or a save that cannot be used): one line on stderr, exit status 1."""

    exit_code = Exit.DATA


F = TypeVar("F", bound=Callable[..., Any])


def complete_cards(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    """Shell completion of a card: every card starting with what is typed, but none
    already on the command line."""
    from cribcli.cards import deck

    typed = {token.upper() for token in ctx.params.get("cards") or ()}
    if ctx.params.get("starter"):
        typed.add(str(ctx.params["starter"]).upper())
    return [
        click.shell_completion.CompletionItem(str(card))
        for card in deck()
        if str(card).startswith(incomplete.upper()) and str(card) not in typed
    ]


def check_seed(ctx: click.Context, param: click.Parameter, value: str | None) -> int | str | None:
    """--seed: a whole number or a short printable text, as a log can hold it."""
    from cribcli.record import parse_seed

    if value is None:
        return None
    try:
        return parse_seed(value)
    except CribbageError as error:
        raise click.BadParameter(str(error), ctx, param) from None


def check_name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """--name: a short printable name."""
    from cribcli import record

    try:
        return record.check_name(value)
    except CribbageError as error:
        raise click.BadParameter(str(error), ctx, param) from None


def confirm(question: str, default: bool) -> bool:
    """A yes-or-no question on the terminal, wrapped to its width (and room for ``[Y/n]``)."""
    import shutil

    from cribcli.ui.render import fit

    width = shutil.get_terminal_size().columns - len(" [Y/n]: ")
    return click.confirm("\n".join(fit(question, max(width, 20))), default=default)


def style_options(command: F) -> F:
    """The two options every command that draws cards shares: --ascii and --no-color."""
    command = click.option("--no-color", is_flag=True, help="No colour (also: NO_COLOR set).")(
        command
    )
    return click.option(
        "--ascii", "ascii_only", is_flag=True, help="Write suits as letters: 5H, not 5♥."
    )(command)


data_dir_option = click.option(
    "--data-dir",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Keep saves, games and settings in DIR (also: CRIBBAGE_HOME).",
)
"""--data-dir: where the games live (every command that reads or writes them)."""


def game_input_options(command: F) -> F:
    """Where a game's moves come from and where it lives: --script, --json, --data-dir."""
    for option in reversed(
        (
            click.option(
                "--script",
                type=click.File("r", encoding="utf-8"),
                metavar="FILE",
                help="Read moves from FILE, one a line, as from a pipe.",
            ),
            click.option(
                "--json", "as_json", is_flag=True, help="Line mode: one JSON event a line."
            ),
            data_dir_option,
        )
    ):
        command = option(command)
    return command


class PipeClosed(Exception):
    """Standard output's reader went away (``cribbage score - | head``)."""


class Group(click.Group):
    """The command group. An error a user can cause that a command lets through is one
    line: bad usage (exit status 2) or bad data (1). A closed pipe is a normal end for a
    filter: it reaches :func:`main` as :class:`PipeClosed`, not as the status 1 Click
    gives it."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise PipeClosed from None
        except UsageProblem as error:
            raise UserError(str(error)) from None
        except CribbageError as error:  # the rest: a log, a save, a folder that cannot be used
            raise DataError(str(error)) from None


@click.group(
    cls=Group,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="Run 'cribbage COMMAND --help' for a command's options and examples.",
    invoke_without_command=True,
)
@click.version_option(__version__, "-V", "--version", prog_name="cribbage")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Cribbage for the terminal: play the computer, score hands, advise discards."""
    if ctx.invoked_subcommand is None:  # `cribbage` alone: the help, as git gives it
        click.echo(ctx.get_help())


SCORE_EXAMPLES = """\b
Examples:
  cribbage score 5H 5S JD 4C --starter 5D
  cribbage score 5h 5s jd 4c 5d           (the fifth card is the starter)
  cribbage score 2H 4H 6H 8H -s KC --crib
  cribbage score 5H 5S JD 4C -s 5D --json | jq .total
  printf '5H 5S 5C JD 5D\\n7H 8S 8C 9D 9H\\n' | cribbage score -
"""


@cli.command(epilog=SCORE_EXAMPLES)
@click.argument("cards", nargs=-1, metavar="CARDS...", shell_complete=complete_cards)
@click.option(
    "-s",
    "--starter",
    metavar="CARD",
    help="The starter (the cut card).",
    shell_complete=complete_cards,
)
@click.option("--crib", is_flag=True, help="Count the cards as a crib (only a 5-card flush).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (one object a hand).")
@style_options
def score(
    cards: tuple[str, ...],
    starter: str | None,
    crib: bool,
    as_json: bool,
    ascii_only: bool,
    no_color: bool,
) -> None:
    """Count a hand or crib with the starter, point by point.

    CARDS are the four cards of the hand (5H 10D TD JS AC, any case, or 5♥), and the
    starter comes with --starter or as a fifth card. With '-' instead of cards, read hands
    from standard input, one a line, each four cards then the starter; each line's result
    is one line of output.
    """
    from cribcli.ui.render import decide_style, show_lines

    if cards == ("-",):
        if starter is not None:
            raise UserError("--starter does not go with '-': each line ends with its starter")
        click.get_current_context().exit(_score_lines(sys.stdin, crib=crib, as_json=as_json))
    try:
        cut = Card.parse(starter) if starter is not None else None
        how = "with --starter, e.g. --starter 5D"
        result = score_show(*hand_and_starter(parse_cards(cards), cut, how=how), crib=crib)
    except CribbageError as error:
        raise UserError(str(error)) from None
    if as_json:
        click.echo(json.dumps(result.as_json()))
        return
    style = decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color)
    for line in show_lines(result, style):
        click.echo(line)


def _score_lines(stream: TextIO, *, crib: bool, as_json: bool) -> int:
    """Score one hand a line; report bad lines by number and go on. Returns the exit status."""
    from cribcli.store import LINE_LIMIT, bounded_lines
    from cribcli.ui.render import show_line

    status = Exit.OK
    for number, line in enumerate(bounded_lines(stream), start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            if len(line.rstrip("\n")) > LINE_LIMIT:
                raise CribbageError(f"longer than {LINE_LIMIT} characters: not a hand")
            tokens = parse_cards(text)
            if len(tokens) != HAND_SIZE + 1:
                raise CribbageError(
                    f"{len(tokens)} cards: a line is the four cards of the hand, then the starter"
                )
            result: ShowScore = score_show(*hand_and_starter(tokens, None), crib=crib)
        except CribbageError as error:
            status = Exit.DATA
            click.echo(f"cribbage: line {number}: {error}", err=True)
            if as_json:
                click.echo(json.dumps({"line": number, "error": str(error)}))
            continue
        if as_json:
            click.echo(json.dumps({"line": number, **result.as_json()}))
        else:
            click.echo(show_line(result))
    return status


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

LEVEL_CHOICE = click.Choice([str(level) for level in Level])


def _move_time() -> float:
    from cribcli.engines import MOVE_TIME

    return MOVE_TIME


MOVE_TIME_OPTION = click.option(
    "--move-time",
    type=click.FloatRange(min=0.1, max=3600),
    default=_move_time,
    metavar="SECONDS",
    help="Seconds an engine has for each decision (see the manual); later loses the game.",
)


def check_engine(value: str | None) -> EngineCommand | None:
    """``--opponent engine:CMD``, as an engine's command."""
    from cribcli.engines import EngineCommand

    if value is None:
        return None
    try:
        command = EngineCommand.parse(value)
    except CribbageError as error:
        raise click.BadParameter(str(error)) from None
    if command is None:
        raise click.BadParameter(f"`{value}` is not engine:CMD, e.g. 'engine:python3 bot.py'")
    return command


@cli.command(epilog=PLAY_EXAMPLES)
@click.option("--level", type=LEVEL_CHOICE, help="The computer's strength (remembered).")
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
    from cribcli.games import NewGame
    from cribcli.ui.game import PlayOptions, play_game

    ctx = click.get_current_context()
    new_game_options = [
        option
        for option in ("level", "seed", "short", "cut", "players", "name", "muggins")
        if ctx.get_parameter_source(option) is click.core.ParameterSource.COMMANDLINE
    ]
    options = PlayOptions(
        new=NewGame(
            level=Level(level) if level else None,
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
            "How strong a computer?", type=LEVEL_CHOICE, default=default
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


@cli.command(epilog=DAILY_EXAMPLES)
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

    from cribcli import daily as days
    from cribcli.games import NewGame
    from cribcli.stats import daily_result
    from cribcli.store import Places
    from cribcli.ui.console import warn
    from cribcli.ui.game import PlayOptions, play_game
    from cribcli.ui.render import daily_lines

    day = days.day_of(day, date.today())
    result = daily_result(Places.find(data_dir), day, warn)
    if share:
        if result is None:
            raise DataError(f"the daily game for {day} is not finished yet")
        click.echo(result[0])
        return
    if result is not None and as_json:
        click.echo(json.dumps({"event": "daily", "share": result[0], "streak": result[1]}))
        return
    if result is not None:
        for line in daily_lines(*result, today=day == date.today().isoformat()):
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


STATS_EXAMPLES = """\b
Examples:
  cribbage stats
  cribbage stats --since 2026-12-01
  cribbage stats --json | jq .per_deal.dealer
"""


@cli.command(epilog=STATS_EXAMPLES)
@click.option("--since", metavar="YYYY-MM-DD", help="Only games played on or after this date.")
@click.option(
    "--without-takebacks", is_flag=True, help="Leave out games in which a move was taken back."
)
@click.option("--json", "as_json", is_flag=True, help="Print the history as JSON.")
@data_dir_option
def stats(since: str | None, without_takebacks: bool, as_json: bool, data_dir: str | None) -> None:
    """Your history, from the logs of your finished games.

    Games played and won by computer level, skunks given and taken, your average points a
    deal as dealer and as pone from pegging, hand and crib, your best hand and its game,
    the points your decisions lost a deal in reviewed games (this month and before), and
    your daily streak, counted by replaying each log through the rules (once: what
    is found is remembered). A log that cannot be read, or that breaks the rules, is named
    on standard error and left out.
    """
    from datetime import date

    from cribcli.stats import SPREAD_FROM, history_of
    from cribcli.store import Places
    from cribcli.ui.console import warn
    from cribcli.ui.render import stats_lines

    if since is not None:
        try:
            since = date.fromisoformat(since).isoformat()
        except ValueError:
            raise UserError(f"`{since}` is not a date: write it YYYY-MM-DD") from None
    places = Places.find(data_dir)
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def progress(done: int, of: int) -> None:
            if of < SPREAD_FROM or not sys.stderr.isatty():
                return
            if not bars:
                bar = click.progressbar(length=of, label="Reading games", file=sys.stderr)
                bars.append(stack.enter_context(bar))
            bars[0].update(1)

        total = history_of(
            places,
            since=since or "",
            today=date.today().isoformat(),
            warn=warn,
            takebacks=not without_takebacks,
            progress=progress,
        )
    if as_json:
        click.echo(json.dumps(total.as_json()))
        return
    for line in stats_lines(total):
        click.echo(line)


REPLAY_EXAMPLES = """\b
Examples:
  cribbage replay game.toml                  the whole game, told round by round
  cribbage replay game.toml --round 3        one round
  cribbage replay game.toml --quiet          only check it (exit status 1 if it is wrong)
  cribbage replay game.toml --json | jq -c 'select(.event == "shown")'
  cat game.toml | cribbage replay -
  cribbage replay --last                     the game you finished last
"""


@cli.command(epilog=REPLAY_EXAMPLES)
@click.argument("log", metavar="LOG", required=False, type=click.Path(allow_dash=True))
@click.option("--last", is_flag=True, help="Replay the game you finished last.")
@data_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON event a line.")
@click.option(
    "--round", "round_number", type=click.IntRange(min=1), metavar="N", help="Show only round N."
)
@click.option(
    "-q", "--quiet", is_flag=True, help="Only check the log; print nothing if it is right."
)
@style_options
def replay(
    log: str | None,
    last: bool,
    data_dir: str | None,
    as_json: bool,
    round_number: int | None,
    quiet: bool,
    ascii_only: bool,
    no_color: bool,
) -> None:
    """Replay a game log, checking every card and every point against the rules.

    LOG is a game log (TOML) written by cribbage, or '-' for standard input. A log that
    breaks the rules or disagrees with itself is named with the round and the action where
    it goes wrong (exit status 1). A log that stops mid-game replays as far as it goes.
    """
    from cribcli.events import event_json
    from cribcli.ui.narrate import Table, narrate
    from cribcli.ui.render import decide_style

    replayed = _replayed(log, last, data_dir, "to replay")
    if quiet:
        return
    events = replayed.told(round_number)
    info = replayed.log.info
    table = Table(
        info.rules,
        tuple(seat.name for seat in info.seats),
        decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color),
    )
    if not as_json and round_number is None:
        click.echo(_game_title(info))
    for event in events:
        if as_json:
            click.echo(json.dumps(event_json(event)))
        else:
            for line in narrate(event, table):
                click.echo(line)
    if not replayed.finished:
        stop = f"The log stops in {replayed.where_it_stops()}: the game is not over."
        if as_json:
            click.echo(json.dumps({"event": "stopped", "where": replayed.where_it_stops()}))
        else:
            click.echo("")
            click.echo(stop)


def _replayed(log: str | None, last: bool, data_dir: str | None, what: str) -> Replay:
    """The game a command is given, LOG or --last, read and replayed through the rules
    (a log that breaks them is a data error, named with where it goes wrong)."""
    return _found_and_replayed(log, last, data_dir, what)[0]


def _found_and_replayed(
    log: str | None, last: bool, data_dir: str | None, what: str
) -> tuple[Replay, str, str]:
    """:func:`_replayed`, the log's path as given (or found, for --last), and its text."""
    from cribcli import record

    if last and log is not None:
        raise UserError("give a game log or --last, not both")
    if last:
        from cribcli.store import Places, latest_game
        from cribcli.ui.console import warn

        found = latest_game(Places.find(data_dir).games, warn)
        if found is None:
            raise DataError("no finished game yet: play one with 'cribbage play'")
        log = str(found)
    if log is None:
        raise UserError(f"give a game log {what}, '-' for standard input, or --last")
    text = _read_text(log)
    try:
        return record.replay(record.loads(text)), log, text
    except CribbageError as error:
        raise DataError(f"{log}: {error}") from None


REVIEW_EXAMPLES = """\b
Examples:
  cribbage review --last                 your last game, decision by decision
  cribbage review game.toml --round 3    one round
  cribbage review game.toml --seat 1     another seat's decisions
  cribbage review game.toml --open       lays also judged with all known
  cribbage review --last --json | jq -c 'select(.mark == "blunder")'
  cribbage review --last --json | tail -1 | jq .summary.lost_per_deal
"""


@cli.command(epilog=REVIEW_EXAMPLES)
@click.argument("log", metavar="LOG", required=False, type=click.Path(allow_dash=True))
@click.option("--last", is_flag=True, help="Review the game you finished last.")
@click.option(
    "--seat",
    type=click.IntRange(0, 3),
    metavar="N",
    help="Review seat N's decisions (default: your seat, the first human one).",
)
@click.option(
    "--round", "round_number", type=click.IntRange(min=1), metavar="N", help="Only round N."
)
@click.option(
    "--open",
    "open_play",
    is_flag=True,
    help="Also judge each card laid with every card known, as a second column.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="One JSON object a decision, then the summary."
)
@data_dir_option
@style_options
def review(
    log: str | None,
    last: bool,
    seat: int | None,
    round_number: int | None,
    open_play: bool,
    as_json: bool,
    data_dir: str | None,
    ascii_only: bool,
    no_color: bool,
) -> None:
    """Mark each decision of a game by what it cost.

    Each throw is judged against the best by the hard computer's measure: the hand and the
    crib as discard-advice counts them (the crib against a good player's throw) and the
    pegging the kept cards are worth; near the end, by the chance of winning, a chance
    lost counted in points. Each card laid is judged by the play search over the hands the
    other side could hold given what the seat had seen (never a hidden card); under
    muggins each count is judged by the points given away. Marks: slip, inaccuracy,
    mistake, blunder, by the points lost (see the manual). LOG is a game log, '-' for
    standard input.
    """
    from cribcli.coach import default_seat
    from cribcli.coach import review as review_game
    from cribcli.games import player_of
    from cribcli.store import Places
    from cribcli.ui.render import decide_style, review_lines

    replayed, path, text = _found_and_replayed(log, last, data_dir, "to review")
    info = replayed.log.info
    player = None if path == "-" else player_of(Path(path), Places.find(data_dir))
    own = default_seat(info, player)  # whose games the log is among: theirs, by default
    seat = own if seat is None else seat
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []
        began = time.monotonic()

        def progress(done: int, of: int) -> None:
            if not bars and sys.stderr.isatty() and time.monotonic() - began > 0.5:
                bar = click.progressbar(length=of, label="Reviewing", file=sys.stderr)
                bars.append(stack.enter_context(bar))
                bars[0].update(done - 1)
            if bars:
                bars[0].update(1)

        judged = review_game(
            info,
            replayed.actions,
            seat,
            round_number=round_number,
            open_play=open_play,
            progress=progress,
            jobs=1 if round_number else min(os.cpu_count() or 1, 8),
        )
    if judged.seat == own and round_number is None and replayed.finished and path != "-":
        _keep_review(Path(path), data_dir, text, judged)
    if as_json:
        for decision in judged.decisions:
            click.echo(json.dumps(decision.as_json()))
        click.echo(json.dumps(judged.summary_json()))
        return
    style = decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color)
    click.echo(_game_title(info))
    for line in review_lines(judged, info, style):
        click.echo(line)


def _keep_review(path: Path, data_dir: str | None, text: str, judged: Review) -> None:
    """A review of one of your finished games counts in ``stats``: it is kept (a review
    that cannot be kept is said, and the command goes on)."""
    from cribcli.stats import Reviews, digest_of
    from cribcli.store import Places, reason
    from cribcli.ui.console import warn

    places = Places.find(data_dir)
    try:
        if path.resolve().parent != places.games.resolve():
            return
        Reviews(places.reviews).keep(path.name, digest_of(text), judged.as_lost())
    except OSError as error:
        warn(f"cannot keep the review for 'cribbage stats' in {places.reviews} ({reason(error)})")


def _game_title(info: GameInfo) -> str:
    """``You v Computer (normal), to 121, seed 7``."""
    from cribcli.errors import printable

    seats = " v ".join(
        seat.name + (f" ({seat.level})" if seat.level else "") for seat in info.seats
    )
    title = f"{seats}: to {info.rules.target}, seed {info.seed}"
    if info.label:
        title += f", {info.label}"
    if info.started:
        title += f", {info.started}"
    return printable(title + ".")


def _read_text(path: str) -> str:
    """A log's text, from a file or from standard input for '-': bounded in size, and only
    from a regular file (never a FIFO or a device). Unreadable input is a data error."""
    from cribcli.record import LOG_LIMIT
    from cribcli.store import StoreError, read_stream, read_text

    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # a text stream stands in for standard input (tests)
                return sys.stdin.read(LOG_LIMIT + 1)
            return read_stream(stream, LOG_LIMIT)
        text = read_text(Path(path), LOG_LIMIT)
    except StoreError as error:
        raise DataError(str(error)) from None
    if text is None:
        raise DataError(f"{path}: cannot read it (No such file or directory)")
    return text


def _check_whose_crib(dealer: bool, pone: bool) -> None:
    """--dealer or --pone: one of them, as the advice commands need."""
    if dealer and pone:
        raise UserError("--dealer and --pone contradict each other: give one")
    if not dealer and not pone:
        raise UserError("say whose crib it is: --dealer (yours) or --pone (theirs)")


ADVICE_EXAMPLES = """\b
Examples:
  cribbage discard-advice 5H 5S JD 4C 2S KH --dealer
  cribbage discard-advice 5h 5s jd 4c 2s kh --pone --top 3
  cribbage discard-advice 5H 5S JD 4C 2S KH --pone --score 100 115
  cribbage discard-advice 5H 5S JD 4C 2S --players 3 --dealer
  cribbage discard-advice 5H 5S JD 4C 2S KH --dealer --json | jq '.[0].discard'
"""


@cli.command("discard-advice", epilog=ADVICE_EXAMPLES)
@click.argument("cards", nargs=-1, metavar="CARDS...", shell_complete=complete_cards)
@click.option("--dealer", is_flag=True, help="The crib is yours.")
@click.option("--pone", is_flag=True, help="The crib is the other player's.")
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help="Players at the table (3 or 4: five cards, throw one).",
)
@click.option("--top", type=click.IntRange(min=1), metavar="N", help="Show only the best N.")
@click.option(
    "--score",
    "position",
    type=(int, int),
    metavar="MINE THEIRS",
    help="The scores now: near the end, rank by the chance the hand goes out.",
)
@click.option("--short", is_flag=True, help="With --score: a game to 61, not 121.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole table as JSON.")
@style_options
def discard_advice(
    cards: tuple[str, ...],
    dealer: bool,
    pone: bool,
    players: int,
    top: int | None,
    position: tuple[int, int] | None,
    short: bool,
    as_json: bool,
    ascii_only: bool,
    no_color: bool,
) -> None:
    """Rank every discard by its exact expected value.

    For each way to throw cards to the crib: the kept hand's average over every starter
    that could be cut, the crib's average (its other cards and the starter equally likely
    to be any unseen card; his heels not counted), and the net: hand plus crib with
    --dealer, hand minus crib with --pone. With --score, when the hand alone could take
    you to the target this deal, the discards are ranked by the chance that it does
    (the play's points are not counted); otherwise by net value.
    """
    from cribcli.analysis import CRIB_MODEL, advise
    from cribcli.engine import target_of
    from cribcli.ui.render import advice_lines, decide_style

    _check_whose_crib(dealer, pone)
    if short and position is None:
        raise UserError("--short goes with --score: it says the scores are out of 61")
    try:
        advice = advise(
            parse_cards(cards),
            dealer=dealer,
            players=players,
            scores=position,
            target=target_of(short),
        )
    except CribbageError as error:  # all of it typed on the command line
        raise UserError(str(error)) from None
    shown = advice.values[:top] if top else advice.values
    if as_json:
        click.echo(json.dumps([value.as_json(advice.need) for value in shown]))
        return
    style = decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color)
    for line in advice_lines(advice, shown, style):
        click.echo(line)
    click.echo(f"Crib model: {CRIB_MODEL}.")


PEG_EXAMPLES = """\b
Examples:
  cribbage peg-advice 4H 5S 6D JC --dealer --laid "them 10S" -s 2C -t 9C KD
  cribbage peg-advice 4H 5S 6D JC --pone -s 2C -t 9C KD        (you lead)
  cribbage peg-advice 5S 6D JC --pone --laid "me 4H them 8C" -s 2C -t 9C KD
  cribbage peg-advice 4H 5S --pone --laid "me 10S them 9H me 8C them 3C" \\
      -s 2C -t 9C KD                     (after their go: a new count)
  cribbage peg-advice 4H 5S JC QD --pone -s 2C -t 9C 6D --top 2 --json
"""


@cli.command("peg-advice", epilog=PEG_EXAMPLES)
@click.argument("cards", nargs=-1, metavar="CARDS...", shell_complete=complete_cards)
@click.option("--dealer", is_flag=True, help="The crib is yours (the other player led).")
@click.option("--pone", is_flag=True, help="The crib is the other player's (you led).")
@click.option(
    "--laid",
    default="",
    metavar="PLAYS",
    help='The cards laid this round, in order, each after who laid it: "them 10S me 4H".',
)
@click.option(
    "-s",
    "--starter",
    required=True,
    metavar="CARD",
    help="The starter (the cut card).",
    shell_complete=complete_cards,
)
@click.option(
    "-t",
    "--thrown",
    required=True,
    nargs=2,
    metavar="CARD CARD",
    help="The two cards you put in the crib.",
    shell_complete=complete_cards,
)
@click.option("--top", type=click.IntRange(min=1), metavar="N", help="Show only the best N.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@style_options
def peg_advice(
    cards: tuple[str, ...],
    dealer: bool,
    pone: bool,
    laid: str,
    starter: str,
    thrown: tuple[str, str],
    top: int | None,
    as_json: bool,
    ascii_only: bool,
    no_color: bool,
) -> None:
    """Rank each card you could lay by the points it is expected to net this round.

    CARDS are the cards you still hold; --laid gives the cards laid so far this round,
    yours and theirs, in order (after a go or 31, go on with the next count: the counts
    are worked out). For each card you could lay now: the points it makes as it is laid,
    and its net, your points less theirs for the rest of this round's play, on average
    over the hands the other player could hold given what you have seen (the cards it
    laid, the gos it said, your own cards and the starter), both sides laying their best,
    as the hard computer searches it. Two players only.
    """
    from cribcli.coach import Moment, parse_laid
    from cribcli.coach import peg_advice as advise_lay
    from cribcli.ui.render import decide_style, peg_lines

    _check_whose_crib(dealer, pone)
    try:
        moment = Moment(
            tuple(parse_cards(cards)),
            parse_laid(laid),
            Card.parse(starter),
            tuple(parse_cards(thrown)),
            dealer=dealer,
        )
        advice = advise_lay(moment)
    except CribbageError as error:  # all of it typed on the command line
        raise UserError(str(error)) from None
    shown = advice.values[:top] if top else advice.values
    if as_json:
        click.echo(json.dumps([lay.as_json() for lay in shown]))
        return
    style = decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color)
    for line in peg_lines(advice, shown, style):
        click.echo(line)


MATCH_EXAMPLES = """\b
Examples:
  cribbage match normal easy --games 200
  cribbage match hard normal --games 2000 --seed 1 --jobs 2
  cribbage match hard hard --games 500 --json | jq .per_deal
  cribbage match hard normal --games 10 --log-dir games/
  cribbage match hard 'engine:python3 examples/simple_bot.py' --games 100
  cribbage match hard 'engine:./mybot' --games 1000 --duplicate --jobs 2
"""


def check_player(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A match's player: a level's name, or ``engine:CMD``."""
    from cribcli.match import check_player

    try:
        return check_player(value)
    except CribbageError as error:
        raise click.BadParameter(str(error)) from None


def complete_player(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    """The levels, for a match's player."""
    return [
        click.shell_completion.CompletionItem(str(level))
        for level in Level
        if level.startswith(incomplete)
    ]


@cli.command(epilog=MATCH_EXAMPLES)
@click.argument("first", metavar="FIRST", callback=check_player, shell_complete=complete_player)
@click.argument("second", metavar="SECOND", callback=check_player, shell_complete=complete_player)
@click.option(
    "--games", type=click.IntRange(min=1), default=100, show_default=True, help="How many games."
)
@click.option(
    "--seed",
    callback=check_seed,
    help="The match's seed (1 between levels; with an engine, a random one, reported).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes to spread the games over.",
)
@click.option("--short", is_flag=True, help="Games to 61, not 121.")
@click.option(
    "--duplicate", is_flag=True, help="Play each deal twice, the seats swapped (--games even)."
)
@MOVE_TIME_OPTION
@click.option("--log-dir", type=click.Path(file_okay=False), help="Write every game's log here.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def match(
    first: str,
    second: str,
    games: int,
    seed: int | str | None,
    jobs: int,
    short: bool,
    duplicate: bool,
    move_time: float,
    log_dir: str | None,
    as_json: bool,
) -> None:
    """Play two players against each other and report how they did.

    A player is a computer level, or a program that speaks the engine protocol
    (engine:CMD, see docs/engine-protocol.md): one that breaks the rules, stops, or takes
    longer than --move-time forfeits the game, and the log says why. The two take turns
    to deal first; with --duplicate each deal is played twice, the seats swapped, so that
    the luck of the cards cancels. Each game's seed comes from --seed, so a match can be
    played again exactly. The report gives the wins with a 95% confidence interval,
    skunks, forfeits, how often the first dealer won, and the average points a deal from
    pegging, hand and crib, for each player as dealer and as pone.
    """
    from cribcli.engine import target_of
    from cribcli.match import Setup, run_match
    from cribcli.ui.render import match_lines
    from cribcli.ui.signals import Stopped, stopped_by_signals

    if duplicate and games % 2:
        raise click.BadParameter("in duplicate each deal is played twice: give an even number")
    setup = Setup.of((first, second), seed, target_of(short), duplicate, move_time)
    bar = None
    if sys.stderr.isatty() and not as_json:
        bar = click.progressbar(length=games, label="Playing", file=sys.stderr)
    try:
        with stopped_by_signals(), bar or contextlib.nullcontext():
            report = run_match(
                setup,
                games,
                jobs=jobs,
                log_dir=Path(log_dir) if log_dir else None,
                on_game=(lambda: bar.update(1)) if bar else None,
            )
    except Stopped as stop:
        click.get_current_context().exit(Exit.signalled(stop.signum))
    if as_json:
        click.echo(json.dumps(report.as_json()))
    else:
        for line in match_lines(report):
            click.echo(line)


ENGINE_EXAMPLES = """\b
Examples:
  cribbage engine --level hard            speak the protocol on stdin and stdout
  cribbage match normal 'engine:cribbage engine --level hard' --games 20
"""


@cli.command(epilog=ENGINE_EXAMPLES)
@click.option(
    "--level", type=LEVEL_CHOICE, default="hard", show_default=True, help="The computer's strength."
)
@click.option(
    "--seed", default="engine", show_default=True, callback=check_seed, help="Its choices' seed."
)
def engine(level: str, seed: int | str) -> None:
    """Be a computer player for a referee, through the engine protocol.

    Reads the referee's messages on standard input, one JSON object a line, and answers
    its decisions on standard output (docs/engine-protocol.md), until the referee says
    quit or standard input ends: any program that referees the protocol can seat
    cribcli's computers.
    """
    from cribcli.protocol import ProtocolError, serve

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    try:
        serve(level, seed, sys.stdin, write)
    except ProtocolError as error:
        raise CribbageError(str(error)) from None


SERVE_EXAMPLES = """\b
Examples:
  cribbage serve --authorized-keys friends.txt     friends.txt: `ann ssh-ed25519 AAAA...`
  ssh -p 2222 ann@localhost                        then `new`, `join 1`, `solo hard`
  cribbage serve --open --host 0.0.0.0 --port 2222 anyone, under the name they give
"""


@cli.command(epilog=SERVE_EXAMPLES)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=2222, show_default=True, help="The port."
)
@click.option(
    "--authorized-keys",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Let in the keys in FILE, one `NAME KEY` a line (KEY as in authorized_keys).",
)
@click.option(
    "--open",
    "open_door",
    is_flag=True,
    help="Let anyone in, under the name they give (a name keeps its first key).",
)
@click.option(
    "--max-connections", type=click.IntRange(1), default=100, show_default=True,
    help="Connections at once, in all.",
)  # fmt: skip
@click.option(
    "--per-key", type=click.IntRange(1), default=3, show_default=True,
    help="Connections at once under one name.",
)  # fmt: skip
@click.option(
    "--max-tables", type=click.IntRange(1), default=50, show_default=True,
    help="Tables at once.",
)  # fmt: skip
@click.option(
    "--idle", type=click.FloatRange(10), default=1800.0, show_default=True, metavar="SECONDS",
    help="Close a connection with nothing typed for this long.",
)  # fmt: skip
@click.option(
    "--line-limit", type=click.IntRange(20, 10_000), default=200, show_default=True,
    help="The longest line a person may type.",
)  # fmt: skip
@click.option(
    "--line-rate", type=click.IntRange(1, 1000), default=20, show_default=True,
    help="Lines (and window resizes) a second a connection may send.",
)  # fmt: skip
@data_dir_option
def serve(
    host: str,
    port: int,
    authorized_keys: str | None,
    open_door: bool,
    max_connections: int,
    per_key: int,
    max_tables: int,
    idle: float,
    line_limit: int,
    line_rate: int,
    data_dir: str | None,
) -> None:
    """Let people play each other over SSH: `ssh -p PORT NAME@HOST`.

    A lobby shows who is connected and the tables; a table has 2, 3 or 4 seats, to 121 or
    61, muggins or not, its empty seats filled by people who join or by the computer. Each
    person sees the table as `cribbage play` draws it, with their own hand only. A person
    who drops keeps their seat: connecting again puts them back; after the time the
    table's creator set, the others may let the computer play for them (`takeover`).
    Every game is saved as it is played, carried on when the server starts again, and
    filed for each person who played it (their `stats` count it). People are let in by
    their keys (--authorized-keys), or anyone with --open. Needs the serve extra:
    pip install 'cribcli[serve]'. Ctrl-C or SIGTERM stops it, every game saved.
    """
    import asyncio

    from cribcli.errors import printable
    from cribcli.store import Places, reason

    if authorized_keys is None and not open_door:
        raise UsageProblem("say who may come in: --authorized-keys FILE, or --open for anyone")
    if authorized_keys is not None and open_door:
        raise UsageProblem("--authorized-keys and --open: choose one")
    try:
        from cribcli.ui import serve as served
    except ImportError:
        raise UsageProblem("serving needs asyncssh: pip install 'cribcli[serve]'") from None
    options = served.ServeOptions(
        root=Places.find(data_dir).data / "server",
        host=host,
        port=port,
        authorized_keys=Path(authorized_keys) if authorized_keys else None,
        open=open_door,
        limits=served.Limits(
            connections=max_connections,
            per_key=per_key,
            tables=max_tables,
            idle=idle,
            line=line_limit,
            rate=line_rate,
        ),
    )

    def told(line: str) -> None:
        click.echo(f"cribbage serve: {printable(line)}", err=True)

    try:
        asyncio.run(served.serve(options, told))
    except OSError as error:
        raise CribbageError(f"cannot serve on {host} port {port}: {reason(error)}") from None


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the command; turn user errors into one line and an exit status."""
    try:
        status = cli.main(args=argv, prog_name="cribbage", standalone_mode=False)
    except click.ClickException as error:
        hint = ""
        if isinstance(error, click.UsageError) and error.ctx is not None:
            hint = f" (see '{error.ctx.command_path} --help')"
        from cribcli.errors import printable

        message = printable(error.format_message().rstrip("."))
        click.echo(f"cribbage: {message}{hint}", err=True)
        sys.exit(error.exit_code)
    except click.Abort:
        click.echo("cribbage: interrupted", err=True)
        sys.exit(Exit.INTERRUPTED)
    except (BrokenPipeError, PipeClosed):
        # The reader went away (`cribbage score - | head`): stop quietly, and keep Python
        # from complaining when it flushes stdout on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(Exit.OK)
    sys.exit(status if isinstance(status, int) else Exit.OK)
