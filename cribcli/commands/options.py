"""What the commands share: the options several of them take (their style, where the
games live, where moves come from), and the checks and completions of what is typed.
Who sits at a table (the levels, engines, the move time) is
:mod:`cribcli.commands.seating`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cribcli.cli import UserError
from cribcli.rules.errors import CribbageError

if TYPE_CHECKING:
    import click.shell_completion

    pass


F = TypeVar("F", bound=Callable[..., Any])


def complete_cards(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[click.shell_completion.CompletionItem]:
    """Shell completion of a card: every card starting with what is typed, but none
    already on the command line."""
    from click.shell_completion import CompletionItem

    from cribcli.rules.cards import deck

    typed = {token.upper() for token in ctx.params.get("cards") or ()}
    if ctx.params.get("starter"):
        typed.add(str(ctx.params["starter"]).upper())
    return [
        CompletionItem(str(card))
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


def data_dir_option(command: F) -> F:
    """--data-dir: where the games live (every command that reads or writes them). Made
    as it is applied: its path type looks up a translation, which a command without it
    need not pay for at start."""
    return click.option(
        "--data-dir",
        type=click.Path(file_okay=False),
        metavar="DIR",
        help="Keep saves, games and settings in DIR (also: CRIBBAGE_HOME).",
    )(command)


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


def check_whose_crib(dealer: bool, pone: bool) -> None:
    """--dealer or --pone: one of them, as the advice commands need."""
    if dealer and pone:
        raise UserError("--dealer and --pone contradict each other: give one")
    if not dealer and not pone:
        raise UserError("say whose crib it is: --dealer (yours) or --pone (theirs)")
