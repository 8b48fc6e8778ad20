"""``cribbage replay``, ``cribbage review`` and ``cribbage stats``: your games told
again, judged, and added up."""

from __future__ import annotations

import io
import json
import os
import sys
from typing import TYPE_CHECKING

import click

from cribcli.cli import Command, UserError
from cribcli.commands.options import data_dir_option, style_options
from cribcli.rules.errors import CribbageError, Exit, UsageProblem, printable

if TYPE_CHECKING:
    from cribcli.services.games import OpenedLog

STATS_EXAMPLES = """\b
Examples:
  cribbage stats
  cribbage stats --since 2026-12-01
  cribbage stats --json | jq .per_deal.dealer
"""


@click.command(cls=Command, epilog=STATS_EXAMPLES)
@click.option("--since", metavar="YYYY-MM-DD", help="Only games played on or after this date.")
@click.option(
    "--without-takebacks", is_flag=True, help="Leave out games in which a move was taken back."
)
@click.option("--json", "as_json", is_flag=True, help="Print the history as JSON.")
@data_dir_option
@style_options
def stats(
    since: str | None,
    without_takebacks: bool,
    as_json: bool,
    data_dir: str | None,
    ascii_only: bool,
    no_color: bool,
) -> None:
    """Your history, from the logs of your finished games.

    Games played and won by computer level, skunks given and taken, your average points a
    deal as dealer and as pone from pegging, hand and crib, your best hand and its game,
    the points your decisions lost a deal in reviewed games (this month and before, and
    once they span months, a chart of them month by month), and your daily streak,
    counted by replaying each log through the rules (once: what is found is remembered).
    A log that cannot be read, or that breaks the rules, is named on standard error and
    left out.
    """
    from datetime import date

    from cribcli.record.store import Places
    from cribcli.review.history import history_of
    from cribcli.review.stats import SPREAD_FROM
    from cribcli.ui.console import progress, warn
    from cribcli.ui.reports import stats_lines

    if since is not None:
        try:
            since = date.fromisoformat(since).isoformat()
        except ValueError:
            raise UserError(f"`{since}` is not a date: write it YYYY-MM-DD") from None
    places = Places.find(data_dir)
    with progress("Reading games", least=SPREAD_FROM) as told:
        total = history_of(
            places,
            since=since or "",
            today=date.today().isoformat(),
            warn=warn,
            takebacks=not without_takebacks,
            progress=told,
        )
    if as_json:
        click.echo(json.dumps(total.as_json()))
        return
    from cribcli.ui.render import decide_style

    style = decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color)
    for line in stats_lines(total, style=style, width=_width()):
        click.echo(line)


REPLAY_EXAMPLES = """\b
Examples:
  cribbage replay game.toml                  the whole game, told round by round
  cribbage replay game.toml --round 3        one round
  cribbage replay game.toml --quiet          only check it (exit status 1 if it is wrong)
  cribbage replay game.toml --json | jq -c 'select(.event == "shown")'
  cat game.toml | cribbage replay -
  cribbage replay --last                     the game you finished last
  cribbage replay --last --watch             played back as the table showed it
  cribbage replay --last --watch --speed 2   twice as fast
  cribbage replay game.toml --watch --step   a move each time you press Enter
"""


@click.command(cls=Command, epilog=REPLAY_EXAMPLES)
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
@click.option(
    "--watch",
    is_flag=True,
    help="Play the game back as the table showed it, move by move, the board below.",
)
@click.option(
    "--speed",
    type=click.FloatRange(0.1, 100),
    metavar="X",
    help="Watch at X times the computer's pace in play (default 1; 2: twice as fast).",
)
@click.option("--step", is_flag=True, help="Watch a move at a time: Enter shows the next, q stops.")
@style_options
def replay(
    log: str | None,
    last: bool,
    data_dir: str | None,
    as_json: bool,
    round_number: int | None,
    quiet: bool,
    watch: bool,
    speed: float | None,
    step: bool,
    ascii_only: bool,
    no_color: bool,
) -> None:
    """Replay a game log, checking every card and every point against the rules.

    LOG is a game log (TOML) written by cribbage, or '-' for standard input. A log that
    breaks the rules or disagrees with itself is named with the round and the action where
    it goes wrong (exit status 1). A log that stops mid-game replays as far as it goes.

    With --watch (or --speed, or --step) the game is played back on the terminal as the
    table showed it, every hand seen: each move at the computer's pace in play, the board
    below; Ctrl-C stops (exit status 130). Without a terminal, every move at once.
    """
    from cribcli.rules.events import event_json
    from cribcli.ui.narrate import Table, narrate
    from cribcli.ui.render import decide_style, game_title

    watching = watch or step or speed is not None
    if watching and (as_json or quiet):
        raise UsageProblem(
            f"--watch shows the game to people: not with {'--json' if as_json else '--quiet'}"
        )
    if step and speed is not None:
        raise UsageProblem("give --step or --speed, not both")
    replayed = opened(log, last, data_dir, "to replay").replayed
    if quiet:
        return
    events = replayed.told(round_number)
    info = replayed.log.info
    table = Table(
        info.rules,
        tuple(seat.name for seat in info.seats),
        decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color),
    )
    stop = None
    if not replayed.finished:
        stop = f"The log stops in {replayed.where_it_stops()}: the game is not over."
    if watching:
        from cribcli.ui import playback

        status = playback.watch(
            replayed, table, speed=speed or 1.0, step=step, round_number=round_number, stopped=stop
        )
        click.get_current_context().exit(status)
    if not as_json and round_number is None:
        click.echo(game_title(info))
    for event in events:
        if as_json:
            click.echo(json.dumps(event_json(event)))
        else:
            for line in narrate(event, table):
                click.echo(line)
    if stop is not None:
        if as_json:
            click.echo(json.dumps({"event": "stopped", "where": replayed.where_it_stops()}))
        else:
            click.echo("")
            click.echo(stop)


VERIFY_EXAMPLES = """\b
Examples:
  cribbage verify game.toml        fair, or what differs from the seed's deal
  cribbage verify --last           the game you finished last
  cribbage verify game.toml --json | jq .fair
"""


@click.command(cls=Command, epilog=VERIFY_EXAMPLES)
@click.argument("log", metavar="LOG", required=False, type=click.Path(allow_dash=True))
@click.option("--last", is_flag=True, help="Check the game you finished last.")
@data_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
def verify(log: str | None, last: bool, data_dir: str | None, as_json: bool) -> None:
    """Check that a game was dealt fairly: from the seed promised before its first card.

    Before the first deal every game shows a digest of its secret seed (SHA-256); when the
    game ends it shows the seed. This checks the seed against the digest the log recorded,
    deals every card again from the seed (the cut for deal, each hand, the crib's card at
    three, each starter) and compares them with the log's, then the rest of the game
    through the rules. It says "fair", or exactly what differs (exit status 1); a log
    written before games promised their deal cannot be checked (exit status 3). A game
    not over is not checked: its seed is the cards still to come. Compare the digest it
    prints with the one you were shown.
    """
    from cribcli.record.reader import loads
    from cribcli.record.replay import verify as check
    from cribcli.record.store import Places, latest_game
    from cribcli.rules.stream import seed_digest
    from cribcli.services.games import read_log_text
    from cribcli.ui.console import warn

    if last and log is not None:
        raise UsageProblem("give a game log or --last, not both")
    if last:
        found = latest_game(Places.find(data_dir).games, warn)
        if found is None:
            raise CribbageError("no finished game yet: play one with 'cribbage play'")
        log = str(found)
    if log is None:
        raise UsageProblem("give a game log to check, '-' for standard input, or --last")
    stdin = getattr(sys.stdin, "buffer", None) or io.BytesIO(sys.stdin.read().encode())
    try:
        game = loads(read_log_text(log, stdin))
    except CribbageError as error:
        raise CribbageError(f"{log}: {error}") from None
    info = game.info
    try:
        verdict = check(game)
    except CribbageError as error:
        raise CribbageError(f"{log}: {error}") from None
    digest = seed_digest(info.seed)
    if as_json:
        said = {
            "fair": verdict.fair,
            "seed": info.seed,
            "digest": digest,
            "promised": info.commitment or False,
            "rounds": len(game.rounds),
            "differences": verdict.differences,
        }
        click.echo(json.dumps(said))
    else:
        rounds = f"{len(game.rounds)} round{'s' if len(game.rounds) != 1 else ''}"
        if verdict.fair:
            click.echo(f"Fair: every card of its {rounds} is the seed's deal.")
        elif verdict.fair is None:
            click.echo(
                f"Cannot be checked: every card of its {rounds} is the seed's deal, but the "
                "log is from before games promised their deal, so the seed could have been "
                "chosen after it."
            )
        else:
            many = len(verdict.differences)
            things = f"{many} thing{'s' if many != 1 else ''}"
            differ = "differs" if many == 1 else "differ"
            click.echo(f"Not fair: {things} {differ} from the seed's deal.")
            for line in verdict.differences:
                click.echo(f"  {printable(line)}")  # (names and cards come from the log)
        click.echo(f"Seed:   {printable(str(info.seed))}")
        promised = "" if info.commitment else " (the seed's: no promise was recorded)"
        click.echo(f"Digest: {info.commitment or digest}{promised}")
    if verdict.fair is None:
        click.get_current_context().exit(Exit.UNCHECKED)
    if not verdict.fair:
        click.get_current_context().exit(Exit.DATA)


REVIEW_EXAMPLES = """\b
Examples:
  cribbage review --last                 your last game, decision by decision
  cribbage review game.toml --round 3    one round
  cribbage review game.toml --seat 1     another seat's decisions
  cribbage review game.toml --open       lays also judged with all known
  cribbage review --last --json | jq -c 'select(.mark == "blunder")'
  cribbage review --last --json | tail -1 | jq .summary.lost_per_deal
"""


@click.command(cls=Command, epilog=REVIEW_EXAMPLES)
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
    from cribcli.record.store import Places
    from cribcli.services.games import review_log
    from cribcli.ui.chart import story_lines
    from cribcli.ui.coaching import luck_lines, review_lines, seat_grades_lines
    from cribcli.ui.console import progress, warn
    from cribcli.ui.render import decide_style, game_title

    found = opened(log, last, data_dir, "to review")
    with progress("Reviewing", after=0.5) as told:
        reviewed = review_log(
            found,
            Places.find(data_dir),
            warn,
            seat=seat,
            round_number=round_number,
            open_play=open_play,
            progress=told,
            jobs=1 if round_number else min(os.cpu_count() or 1, 8),
        )
    info = found.replayed.log.info
    if as_json:
        for decision in reviewed.seat.decisions:
            click.echo(json.dumps(decision.as_json()))
        click.echo(json.dumps(reviewed.summary_json([seat.name for seat in info.seats])))
        return
    style = decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color)
    lines = [game_title(info), *review_lines(reviewed.seat, info, style)]
    lines += ["", *seat_grades_lines(reviewed.every, info)]
    if reviewed.luck is not None:
        lines += ["", *luck_lines(reviewed.luck, info)]
    name = info.seats[reviewed.seat.seat].name
    chart = story_lines(reviewed.chances, reviewed.seat.decisions, name, style, _width())
    lines += ["", *chart] if chart else []
    for line in lines:
        click.echo(line)


def _width() -> int:
    """The terminal's width, or a full one's when written to a file or a pipe."""
    import shutil

    from cribcli.ui.render import WIDE

    return max(shutil.get_terminal_size().columns, 20) if sys.stdout.isatty() else WIDE


def opened(log: str | None, last: bool, data_dir: str | None, what: str) -> OpenedLog:
    """The game a command is given, LOG or --last, read and replayed through the rules."""
    from cribcli.record.log import LOG_LIMIT
    from cribcli.record.store import Places
    from cribcli.services.games import open_log
    from cribcli.ui.console import warn

    stdin = getattr(sys.stdin, "buffer", None)
    if stdin is None:  # a text stream stands in for standard input (tests)
        stdin = io.BytesIO(sys.stdin.read(LOG_LIMIT + 1).encode("utf-8"))
    return open_log(log, last, Places.find(data_dir), stdin, what, warn)
