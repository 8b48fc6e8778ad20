"""``cribbage match`` and ``cribbage engine``: players against each other, and our
computers as players for other referees."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from cribcli.cli import Command
from cribcli.commands.options import check_seed
from cribcli.commands.seating import (
    MOVE_TIME_OPTION,
    OBJECTIVE_OPTION,
    SCHEDULER_OPTION,
    check_player,
    complete_player,
    level_option,
)
from cribcli.rules.errors import CribbageError, Exit, UsageProblem, printable
from cribcli.rules.targets import MATCH_LENGTHS, TOURNAMENT_GAMES

MATCH_EXAMPLES = """\b
Examples:
  cribbage match normal easy --games 200
  cribbage match hard normal --games 2000 --seed 1 --jobs 2
  cribbage match hard hard --games 500 --json | jq .per_deal
  cribbage match hard normal --games 10 --log-dir games/
  cribbage match hard 'engine:python3 examples/simple_bot.py' --games 100
  cribbage match hard 'engine:./mybot' --games 1000 --duplicate --jobs 2
  cribbage match hard normal --best-of 3 --games 200 --json | jq .match_win_rate
"""


@click.command(cls=Command, epilog=MATCH_EXAMPLES)
@click.argument("first", metavar="FIRST", callback=check_player, shell_complete=complete_player)
@click.argument("second", metavar="SECOND", callback=check_player, shell_complete=complete_player)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="How many games (with --best-of, how many matches).",
)
@click.option(
    "--best-of",
    type=click.Choice([str(n) for n in MATCH_LENGTHS]),
    default="1",
    help="Play matches of this many games, the first to win most of them (ACC match play).",
)
@OBJECTIVE_OPTION
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
@SCHEDULER_OPTION
@click.option(
    "--duplicate", is_flag=True, help="Play each deal twice, the seats swapped (--games even)."
)
@MOVE_TIME_OPTION
@click.option(
    "--sandbox",
    is_flag=True,
    help="Run each engine in a sandbox of its own (bubblewrap): no network, the system "
    "read-only, and no sight of other processes.",
)
@click.option("--log-dir", type=click.Path(file_okay=False), help="Write every game's log here.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def match(
    first: str,
    second: str,
    games: int,
    best_of: str,
    objective: str,
    seed: int | str | None,
    jobs: int,
    short: bool,
    scheduler: str | None,
    duplicate: bool,
    move_time: float,
    sandbox: bool,
    log_dir: str | None,
    as_json: bool,
) -> None:
    """Play two players against each other and report how they did.

    A player is a computer level, or a program that speaks the engine protocol
    (engine:CMD, see docs/engine-protocol.md): one that breaks the rules, stops, or takes
    longer than --move-time forfeits the game, and the log says why. The two take turns
    to deal first; with --duplicate each deal is played twice, the seats swapped, so that
    the luck of the cards cancels. Each game's seed comes from --seed, so a match can be
    played again exactly. With --best-of 3 (5, 7) the games come in matches as the
    American Cribbage Congress plays them: the first game's deal cut for, the loser of
    each game dealing first in the next (ACC rule 1.5). The report gives the wins, game
    points (2 a win, 3 a skunk), skunks, double skunks and spread (points won by less
    points lost by), each with a 95% confidence interval (and with --best-of, the
    matches won), forfeits, how often the first dealer won, and the average points a
    deal from pegging, hand and crib, for each player as dealer and as pone.
    """
    from cribcli.rules.targets import target_of
    from cribcli.services.match import Report, Setup
    from cribcli.services.runner import run_match
    from cribcli.ui.console import progress
    from cribcli.ui.reports import match_lines
    from cribcli.ui.signals import Stopped, stopped_by_signals

    if duplicate and games % 2:
        raise click.BadParameter("in duplicate each deal is played twice: give an even number")
    hidden = _hidden((first, second), sandbox, log_dir)
    from cribcli.players import Objective
    from cribcli.services.match import with_objective

    first, second = (with_objective(p, Objective(objective)) for p in (first, second))
    setup = Setup.of(
        (first, second),
        seed,
        target_of(short),
        duplicate,
        move_time,
        sandbox,
        hidden,
        best_of=int(best_of),
    )
    report = Report.of(setup)
    stopped: Stopped | KeyboardInterrupt | None = None
    try:
        shown = games + 1 if as_json else 1  # (no bar under --json)
        with stopped_by_signals(), progress("Playing", least=shown) as told:
            run_match(
                setup,
                games,
                jobs=jobs,
                scheduler=scheduler,
                log_dir=Path(log_dir) if log_dir else None,
                on_game=lambda done: told(done, games),
                report=report,
            )
    except (Stopped, KeyboardInterrupt) as stop:  # the games finished so far are told
        stopped = stop
        done = (
            f"{report.matches} of {games} matches"
            if setup.best_of > 1
            else f"{report.games} of {games} games"
        )
        click.echo(f"cribbage: stopped after {done}", err=True)
    if report.games or stopped is None:
        if as_json:
            click.echo(json.dumps(report.as_json()))
        else:
            for line in match_lines(report):
                click.echo(line)
    _exit_if(stopped)


def _hidden(players: tuple[str, ...], sandbox: bool, log_dir: str | None) -> tuple[str, ...]:
    """With --sandbox: the folders the engines must not see (the logs'). Raises
    UsageProblem if there is no sandbox here, or an engine must see the logs' folder."""
    if sandbox:
        from cribcli.protocol.referee import sandbox_missing

        if (missing := sandbox_missing()) is not None:
            raise UsageProblem(missing)
    hidden = (os.path.realpath(log_dir),) if log_dir and sandbox else ()
    if hidden:
        from cribcli.protocol.referee import EngineCommand, hidden_in_sight

        for player in players:
            command = EngineCommand.parse(player)
            seen = hidden_in_sight(command.argv, hidden) if command is not None else None
            if seen is not None:
                raise UsageProblem(
                    f"with --sandbox, --log-dir must be a folder of its own: {seen}, which "
                    "an engine must see, is in it (the logs show the deals)"
                )
    return hidden


TOURNAMENT_EXAMPLES = """\b
Examples:
  cribbage tournament easy normal hard --games 20 --jobs 2
  cribbage tournament easy normal normal hard hard easy --format acc --short
  cribbage tournament hard 'engine:./mybot' normal --duplicate --games 100 --json
  cribbage tournament easy normal hard --games 50 --log-dir t1/   (then, if stopped:)
  cribbage tournament --resume t1/
"""


@click.command(cls=Command, epilog=TOURNAMENT_EXAMPLES)
@click.argument("players", nargs=-1, metavar="PLAYER...", shell_complete=complete_player)
@click.option(
    "--format",
    "kind",
    type=click.Choice(["round-robin", "acc"]),
    default="round-robin",
    show_default=True,
    help="Every pair plays; or (acc) that is the qualifying round, and the top quarter "
    "play a knockout.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1, max=TOURNAMENT_GAMES),
    default=2,
    show_default=True,
    help="Games each pair plays.",
)
@click.option(
    "--best-of",
    type=click.Choice([str(n) for n in MATCH_LENGTHS[1:]]),
    default="3",
    show_default=True,
    help="The knockout's matches (--format acc).",
)
@click.option("--duplicate", is_flag=True, help="Each pair plays each deal twice, seats swapped.")
@OBJECTIVE_OPTION
@click.option("--seed", callback=check_seed, help="The tournament's seed (as for match).")
@click.option("--short", is_flag=True, help="Games to 61, not 121.")
@click.option(
    "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Processes to use."
)
@SCHEDULER_OPTION
@MOVE_TIME_OPTION
@click.option("--sandbox", is_flag=True, help="Run each engine in a sandbox (as for match).")
@click.option(
    "--log-dir",
    type=click.Path(file_okay=False),
    help="Write every game's log, and what the tournament is, here (--resume carries it on).",
)
@click.option(
    "--resume",
    type=click.Path(file_okay=False, exists=True),
    metavar="DIR",
    help="Carry on the tournament whose --log-dir was DIR, playing only what it had not.",
)
@click.option(
    "--trust-engines",
    is_flag=True,
    help="With --resume: run the programs DIR names without naming them again.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def tournament(
    players: tuple[str, ...],
    kind: str,
    games: int,
    best_of: str,
    duplicate: bool,
    objective: str,
    seed: int | str | None,
    short: bool,
    jobs: int,
    scheduler: str | None,
    move_time: float,
    sandbox: bool,
    log_dir: str | None,
    resume: str | None,
    trust_engines: bool,
    as_json: bool,
) -> None:
    """Play a tournament of 2 to 64 players and report it.

    A player is a level or engine:CMD, as for match (a level may play more than once).
    round-robin: every pair plays --games games (with --duplicate, each deal twice, the
    seats swapped). acc: as the American Cribbage Congress runs a tournament, that
    round-robin is the qualifying round, ranked by game points (2 a win, 3 a skunk), then
    games won, then spread; one in four players, rounded up, and two at least, go on to a
    knockout of
    best-of-3 (or --best-of 5, 7) matches, seeded by qualifying place on the ACC's
    bracket, the top qualifiers getting byes so that the second round is full. The
    report gives the crosstable, the standings with the tie-break that decided each
    place, the bracket, and each player's rating (Elo, against the field's average) with
    its 95% interval, fitted to every game. With --log-dir, a stopped tournament is
    carried on with --resume DIR: no finished game is played again. A resume checks the
    folder first: every log must be a game of the tournament DIR describes (its seed,
    rules and seats), or nothing is played and nothing changes (exit status 1); a log
    that cannot be read is set aside and its game played again. Programs (engine:CMD) the
    folder names are run only if the same players are named after --resume DIR, or with
    --trust-engines.
    """
    from dataclasses import replace

    from cribcli.rules.targets import target_of
    from cribcli.services.match import Setup
    from cribcli.services.match import check_player as checked
    from cribcli.services.tournament import (
        FEWEST,
        MOST,
        Tournament,
        TournamentSetup,
        local_play,
        run_tournament,
    )
    from cribcli.services.tournament import as_json as json_of
    from cribcli.services.tournament_folder import NotThisTournament, resumed, start_folder
    from cribcli.ui.console import stages
    from cribcli.ui.render import WIDE
    from cribcli.ui.reports import tournament_lines
    from cribcli.ui.signals import Stopped, stopped_by_signals

    folder = resume or log_dir
    if resume is not None:
        if log_dir and os.path.realpath(log_dir) != os.path.realpath(resume):
            raise UsageProblem(
                "with --resume, the games are the stopped tournament's: give --resume DIR "
                "and its players if you like (and --jobs, --scheduler, --json)"
            )
        try:
            named = tuple(checked(player) for player in players)
        except CribbageError as error:
            raise click.BadParameter(str(error), param_hint="PLAYER") from None
        try:
            carried = resumed(Path(resume), named, trust_engines=trust_engines)
        except NotThisTournament as refused:  # the headline, then what differs
            click.echo(f"cribbage: {printable(str(refused))}", err=True)
            for line in refused.differences:
                click.echo(f"  {line}", err=True)
            click.get_current_context().exit(Exit.DATA)
        # With a sandbox, its engines must not see the logs (a twin game's deal) either.
        hidden = _hidden(carried.setup.players, carried.setup.sandbox, resume)
        carried.setup = setup = replace(carried.setup, hidden=hidden)
    else:
        if not FEWEST <= len(players) <= MOST:
            raise UsageProblem(
                f"a tournament has {FEWEST} to {MOST} players: name them (levels or engine:CMD)"
            )
        if duplicate and games % 2:
            raise UsageProblem("in duplicate each deal is played twice: give an even --games")
        try:  # (a level by its name when it has one: 10 and hard are one player)
            players = tuple(checked(player) for player in players)
        except CribbageError as error:
            raise click.BadParameter(str(error), param_hint="PLAYER") from None
        hidden = _hidden(players, sandbox, log_dir)
        from cribcli.players import Objective
        from cribcli.services.match import with_objective

        players = tuple(with_objective(p, Objective(objective)) for p in players)
        if seed is None and Setup.engines_in(players):
            import secrets

            seed = secrets.token_hex(8)
        setup = TournamentSetup(
            players,
            kind,
            games,
            1 if seed is None else seed,
            target_of(short),
            duplicate,
            int(best_of),
            move_time,
            sandbox,
            hidden,
        )
        if log_dir is not None:
            setup = start_folder(setup, Path(log_dir))
        carried = Tournament(setup)
    if scheduler is None:  # (on a cluster the workers' programs are not to be seen here)
        from cribcli.protocol.referee import EngineCommand

        for spec in setup.players:
            command = EngineCommand.parse(spec)
            if command is not None:
                command.check_found()
    stopped: Stopped | KeyboardInterrupt | None = None
    try:
        with stopped_by_signals(), stages("Playing", least=1 if not as_json else 10**9) as told:
            run_tournament(
                setup,
                local_play(jobs, scheduler),
                log_dir=Path(folder) if folder else None,
                on_unit=told,
                tournament=carried,
            )
    except (Stopped, KeyboardInterrupt) as stop:
        stopped = stop
        more = f": `cribbage tournament --resume {folder}` carries it on" if folder else ""
        click.echo(f"cribbage: the tournament stopped{more}", err=True)
    if stopped is None:
        if as_json:
            click.echo(json.dumps(json_of(carried)))
        else:
            import shutil

            # (the terminal's width, or a full one's when written to a file or a pipe)
            width = shutil.get_terminal_size().columns if sys.stdout.isatty() else WIDE
            for line in tournament_lines(carried, max(width, 20)):
                click.echo(line)
    _exit_if(stopped)


def _exit_if(stopped: BaseException | None) -> None:
    """Stopped by a signal or Ctrl-C: the exit status that says so."""
    from cribcli.ui.signals import Stopped

    if isinstance(stopped, Stopped):
        click.get_current_context().exit(Exit.signalled(stopped.signum))
    if stopped is not None:
        click.get_current_context().exit(Exit.INTERRUPTED)


ENGINE_EXAMPLES = """\b
Examples:
  cribbage engine --level hard            speak the protocol on stdin and stdout
  cribbage match normal 'engine:cribbage engine --level hard' --games 20
"""


@click.command(cls=Command, epilog=ENGINE_EXAMPLES)
@level_option("The computer's strength", default="hard")
@click.option(
    "--seed", default="engine", show_default=True, callback=check_seed, help="Its choices' seed."
)
@OBJECTIVE_OPTION
def engine(level: str, seed: int | str, objective: str) -> None:
    """Be a computer player for a referee, through the engine protocol.

    Reads the referee's messages on standard input, one JSON object a line, and answers
    its decisions on standard output (docs/engine-protocol.md), until the referee says
    quit or standard input ends: any program that referees the protocol can seat
    cribcli's computers.
    """
    from cribcli.protocol.messages import ProtocolError, serve

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    try:
        serve(level, seed, sys.stdin, write, objective)
    except ProtocolError as error:
        raise CribbageError(str(error)) from None
