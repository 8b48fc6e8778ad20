"""What the commands share: the options several of them take (their style, where the
games live, where moves come from), and the checks and completions of what is typed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click
import click.shell_completion

from cribcli.cli import UserError
from cribcli.players import LEVELS_HELP, Level, Objective
from cribcli.rules.errors import CribbageError, printable
from cribcli.rules.targets import MOVE_TIMES

if TYPE_CHECKING:
    from cribcli.protocol.referee import EngineCommand


F = TypeVar("F", bound=Callable[..., Any])


def complete_cards(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    """Shell completion of a card: every card starting with what is typed, but none
    already on the command line."""
    from cribcli.rules.cards import deck

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
    from cribcli.record.log import parse_seed

    if value is None:
        return None
    try:
        return parse_seed(value)
    except CribbageError as error:
        raise click.BadParameter(str(error), ctx, param) from None


def check_name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """--name: a short printable name."""
    from cribcli.record import log as record

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
    words = [str(level.number) for level in Level] + [level.value for level in Level if level.named]
    return [
        click.shell_completion.CompletionItem(word) for word in words if word.startswith(incomplete)
    ]


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


def check_whose_crib(dealer: bool, pone: bool) -> None:
    """--dealer or --pone: one of them, as the advice commands need."""
    if dealer and pone:
        raise UserError("--dealer and --pone contradict each other: give one")
    if not dealer and not pone:
        raise UserError("say whose crib it is: --dealer (yours) or --pone (theirs)")


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
