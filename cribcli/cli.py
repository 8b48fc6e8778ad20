"""The ``cribbage`` command: a thin Click layer that parses, calls the core, renders, exits.

Exit status: 0 success; 1 bad data (a bad line among many on standard input); 2 bad usage
(an unknown card, a duplicate, the wrong number of cards, an unknown option). Every error a
user can cause is one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn, TextIO

import click

from cribcli import __version__
from cribcli.cards import Card, parse_cards
from cribcli.errors import CribbageError
from cribcli.scoring import HAND_SIZE, ShowScore, check_show, score_show

if TYPE_CHECKING:
    from cribcli.record import GameInfo

EXIT_OK = 0
EXIT_DATA = 1
EXIT_USAGE = 2


class UserError(click.ClickException):
    """Bad usage the user caused: one line on stderr, exit status 2."""

    exit_code = EXIT_USAGE


class DataError(click.ClickException):
    """Bad data (a log or a save that cannot be used): one line on stderr, exit status 1."""

    exit_code = EXIT_DATA


@click.group(
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="Run 'cribbage COMMAND --help' for a command's options and examples.",
)
@click.version_option(__version__, "-V", "--version", prog_name="cribbage")
def cli() -> None:
    """Cribbage for the terminal: score hands, replay games."""


SCORE_EXAMPLES = """\b
Examples:
  cribbage score 5H 5S JD 4C --starter 5D
  cribbage score 5h 5s jd 4c 5d           (the fifth card is the starter)
  cribbage score 2H 4H 6H 8H -s KC --crib
  cribbage score 5H 5S JD 4C -s 5D --json | jq .total
  printf '5H 5S 5C JD 5D\\n7H 8S 8C 9D 9H\\n' | cribbage score -
"""


@cli.command(epilog=SCORE_EXAMPLES)
@click.argument("cards", nargs=-1, metavar="CARDS...")
@click.option("-s", "--starter", metavar="CARD", help="The starter (the cut card).")
@click.option("--crib", is_flag=True, help="Count the cards as a crib (only a 5-card flush).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (one object a hand).")
@click.option("--ascii", "ascii_only", is_flag=True, help="Write suits as letters: 5H, not 5♥.")
@click.option("--no-color", is_flag=True, help="No colour (also: NO_COLOR set).")
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
        result = score_show(*_read_hand(cards, starter), crib=crib)
    except CribbageError as error:
        raise UserError(str(error)) from None
    if as_json:
        click.echo(json.dumps(result.as_json()))
        return
    style = decide_style(sys.stdout, ascii_only=ascii_only, color=False if no_color else None)
    for line in show_lines(result, style):
        click.echo(line)


def _read_hand(tokens: Sequence[str], starter: str | None) -> tuple[list[Card], Card]:
    """The hand and the starter from the command line or one line of input."""
    if not tokens:
        raise CribbageError("no cards: give the four cards of the hand, e.g. 5H 5S JD 4C -s 5D")
    hand = parse_cards(tokens)
    cut = Card.parse(starter) if starter is not None else None
    if cut is None and len(hand) == HAND_SIZE + 1:
        hand, cut = hand[:HAND_SIZE], hand[HAND_SIZE]
    if cut is None and len(hand) == HAND_SIZE:
        raise CribbageError("no starter: add it with --starter, e.g. --starter 5D")
    check_show(hand, cut)
    assert cut is not None  # check_show refuses a missing starter
    return hand, cut


def _score_lines(stream: TextIO, *, crib: bool, as_json: bool) -> int:
    """Score one hand a line; report bad lines by number and go on. Returns the exit status."""
    from cribcli.ui.render import show_line

    status = EXIT_OK
    for number, line in enumerate(stream, start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            tokens = parse_cards(text)
            if len(tokens) != HAND_SIZE + 1:
                raise CribbageError(
                    f"{len(tokens)} cards: a line is the four cards of the hand, then the starter"
                )
            result: ShowScore = score_show(tokens[:HAND_SIZE], tokens[HAND_SIZE], crib=crib)
        except CribbageError as error:
            status = EXIT_DATA
            click.echo(f"cribbage: line {number}: {error}", err=True)
            if as_json:
                click.echo(json.dumps({"line": number, "error": str(error)}))
            continue
        if as_json:
            click.echo(json.dumps({"line": number, **result.as_json()}))
        else:
            click.echo(show_line(result))
    return status


REPLAY_EXAMPLES = """\b
Examples:
  cribbage replay game.toml                  the whole game, told round by round
  cribbage replay game.toml --round 3        one round
  cribbage replay game.toml --quiet          only check it (exit status 1 if it is wrong)
  cribbage replay game.toml --json | jq -c 'select(.event == "shown")'
  cat game.toml | cribbage replay -
"""


@cli.command(epilog=REPLAY_EXAMPLES)
@click.argument("log", metavar="LOG", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON event a line.")
@click.option(
    "--round", "round_number", type=click.IntRange(min=1), metavar="N", help="Show only round N."
)
@click.option(
    "-q", "--quiet", is_flag=True, help="Only check the log; print nothing if it is right."
)
@click.option("--ascii", "ascii_only", is_flag=True, help="Write suits as letters: 5H, not 5♥.")
@click.option("--no-color", is_flag=True, help="No colour (also: NO_COLOR set).")
def replay(
    log: str,
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
    from cribcli import record
    from cribcli.events import Dealt, event_json
    from cribcli.ui.narrate import Table, narrate
    from cribcli.ui.render import decide_style

    text = _read_text(log)
    try:
        replayed = record.replay(record.loads(text))
    except CribbageError as error:
        raise DataError(f"{log}: {error}") from None
    if quiet:
        return
    info = replayed.log.info
    current_round = 0
    table = Table(
        info.rules,
        tuple(seat.name for seat in info.seats),
        decide_style(sys.stdout, ascii_only=ascii_only, color=False if no_color else None),
    )
    if not as_json and round_number is None:
        click.echo(_game_title(info))
    for event in replayed.events:
        if isinstance(event, Dealt):
            current_round = event.round
        if round_number is not None and current_round != round_number:
            continue
        if as_json:
            click.echo(json.dumps(event_json(event)))
        else:
            for line in narrate(event, table):
                click.echo(line)
    if round_number is not None and round_number > current_round:
        raise UserError(f"the game has {current_round} rounds, not {round_number}")
    if not replayed.finished:
        stop = f"The log stops in {replayed.where_it_stops()}: the game is not over."
        if as_json:
            click.echo(json.dumps({"event": "stopped", "where": replayed.where_it_stops()}))
        else:
            click.echo("")
            click.echo(stop)


def _game_title(info: GameInfo) -> str:
    """``You v Computer (normal), to 121, seed 7``."""
    seats = " v ".join(
        seat.name + (f" ({seat.level})" if seat.level else "") for seat in info.seats
    )
    title = f"{seats}: to {info.rules.target}, seed {info.seed}"
    if info.label:
        title += f", {info.label}"
    if info.started:
        title += f", {info.started}"
    return title + "."


def _read_text(path: str) -> str:
    """A file's text, or standard input's for '-'. Unreadable input is a data error."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as stream:
            return stream.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise DataError(f"{path}: cannot read it ({reason})") from None


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the command; turn user errors into one line and an exit status."""
    try:
        status = cli.main(args=argv, prog_name="cribbage", standalone_mode=False)
    except click.ClickException as error:
        hint = ""
        if isinstance(error, click.UsageError) and error.ctx is not None:
            hint = f" (see '{error.ctx.command_path} --help')"
        click.echo(f"cribbage: {error.format_message().rstrip('.')}{hint}", err=True)
        sys.exit(error.exit_code)
    except click.Abort:
        click.echo("cribbage: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (`cribbage score - | head`): stop quietly, and keep Python
        # from complaining when it flushes stdout on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(EXIT_OK)
    sys.exit(status if isinstance(status, int) else EXIT_OK)
