"""The options of who sits at a table: a computer's level, an engine's command, a match's
players, the time a move may take, what the computer plays for, and the cluster that plays
the games; their checks and completions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from cribcli.commands.options import F
from cribcli.players import LEVELS_HELP, Level, Objective
from cribcli.rules.errors import CribbageError, printable
from cribcli.rules.targets import MOVE_TIMES

if TYPE_CHECKING:
    import click.shell_completion

    from cribcli.protocol.referee import EngineCommand


def level_named(value: str) -> str:
    """A computer's level as a person gives it (1 to 10, or a name), by its name when it
    has one. Raises click.BadParameter for anything else."""
    level = Level.parse(value)
    if level is None:
        raise click.BadParameter(f"`{printable(value[:20])}` is not a level: {LEVELS_HELP}")
    return str(level)


def check_level(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--level``: 1 to 10, or a name."""
    return None if value is None else level_named(value)


def complete_level(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    """The levels' numbers and names."""
    return level_completions(incomplete)


def level_option(help: str, default: str | None = None) -> Callable[[F], F]:
    """``--level``: 1 to 10 or a name, given back by its name when it has one."""
    return click.option(
        "--level",
        metavar="LEVEL",
        default=default,
        show_default=default is not None,
        callback=check_level,
        shell_complete=complete_level,
        help=f"{help}: {LEVELS_HELP}.",
    )


def level_completions(incomplete: str) -> list[click.shell_completion.CompletionItem]:
    """The levels' names and numbers that begin with ``incomplete``."""
    from click.shell_completion import CompletionItem

    words = [str(level.number) for level in Level] + [level.value for level in Level if level.named]
    return [CompletionItem(word) for word in words if word.startswith(incomplete)]


def _move_time() -> float:
    from cribcli.protocol.referee import MOVE_TIME

    return MOVE_TIME


MOVE_TIME_OPTION = click.option(
    "--move-time",
    type=click.FloatRange(*MOVE_TIMES),
    default=_move_time,
    metavar="SECONDS",
    help="Seconds an engine has for each decision (see the manual); later loses the game.",
)


def check_engine(value: str | None) -> EngineCommand | None:
    """``--opponent engine:CMD``, as an engine's command."""
    from cribcli.protocol.referee import EngineCommand

    if value is None:
        return None
    try:
        command = EngineCommand.parse(value)
    except CribbageError as error:
        raise click.BadParameter(str(error)) from None
    if command is None:
        raise click.BadParameter(f"`{value}` is not engine:CMD, e.g. 'engine:python3 bot.py'")
    return command


def check_player(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A match's player: a level's name, or ``engine:CMD``."""
    from cribcli.services.match import check_player

    try:
        return check_player(value)
    except CribbageError as error:
        raise click.BadParameter(str(error)) from None


def complete_player(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    """The levels, for a match's player."""
    return level_completions(incomplete)


def check_scheduler(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A Dask scheduler's address: ``tcp://host:port`` (or ``tls://``), or ``host:port``."""
    if value is None:
        return None
    if not re.fullmatch(r"((tcp|tls)://)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}", value):
        raise click.BadParameter("give the scheduler's address as tcp://HOST:PORT")
    return value


SCHEDULER_OPTION = click.option(
    "--scheduler",
    metavar="ADDRESS",
    callback=check_scheduler,
    help="Play on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786), "
    "not on this machine's cores (needs cribcli[cluster]; see docs/cluster.md).",
)
"""Where ``match`` and ``tournament`` play: a Dask cluster's scheduler."""


OBJECTIVE_OPTION = click.option(
    "--objective",
    type=click.Choice([str(objective) for objective in Objective]),
    default="win",
    show_default=True,
    help="What the hard computer plays for near the end: the game, game points (2 a "
    "win, 3 a skunk), or spread (points to the end).",
)
"""What the computer plays for (:class:`cribcli.players.Objective`)."""
