"""The ``cribbage`` command: a thin Click layer that parses, calls the core, renders, exits.

Exit status: 0 success; 1 bad data (a bad line among many on standard input); 2 bad usage
(an unknown card, a duplicate, the wrong number of cards, an unknown option). Every error a
user can cause is one line on stderr, never a traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, cast

import click

from cribcli import __version__
from cribcli.rules.errors import CribbageError, Exit, UsageProblem


class UserError(click.ClickException):
    """Bad usage the user caused: one line on stderr, exit status 2."""

    exit_code = Exit.USAGE


class DataError(click.ClickException):
    """Bad data (a log or a save that cannot be used): one line on stderr, exit status 1."""

    exit_code = Exit.DATA


class PipeClosed(Exception):
    """Standard output's reader went away (``cribbage score - | head``)."""


COMMANDS = {
    "daily": "playing",
    "discard-advice": "advising",
    "engine": "refereeing",
    "match": "refereeing",
    "peg-advice": "advising",
    "play": "playing",
    "quiz": "training",
    "replay": "reviewing",
    "review": "reviewing",
    "score": "counting",
    "serve": "serving",
    "stats": "reviewing",
    "tournament": "refereeing",
    "train": "training",
    "verify": "reviewing",
}
"""Each command, and the module of :mod:`cribcli.commands` it lives in (as its function,
its name with ``_`` for ``-``)."""


def _show_help(ctx: click.Context, param: click.Parameter, asked: bool) -> None:
    if asked and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


class _PlainHelp:
    """``-h``/``--help`` made as Click makes it, but with its text given rather than
    looked up in the translations (Click's lookup loads the locale module at every start:
    a tenth of what ``cribbage score`` adds to ``import click``)."""

    _plain_help: click.Option | None = None

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        command = cast(click.Command, self)
        names = command.get_help_option_names(ctx)
        if not names or not command.add_help_option:
            return None
        if self._plain_help is None:  # one object: Click orders the eager callbacks by it
            self._plain_help = click.Option(
                names,
                is_flag=True,
                expose_value=False,
                is_eager=True,
                help="Show this message and exit.",
                callback=_show_help,
            )
        return self._plain_help


class Command(_PlainHelp, click.Command):
    """Each command's class (``@click.command(cls=Command)``)."""


class Group(_PlainHelp, click.Group):
    """The command group. A command's code is loaded only when it runs (or its help is
    asked for): ``cribbage score`` imports what scoring needs, not the game, the server or
    the searches (Click's lazily loading group).

    An error a user can cause that a command lets through is one line: bad usage (exit
    status 2) or bad data (1). A closed pipe is a normal end for a filter: it reaches
    :func:`main` as :class:`PipeClosed`, not as the status 1 Click gives it."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        loaded = importlib.import_module(f"cribcli.commands.{module}")
        command = getattr(loaded, cmd_name.replace("-", "_"))
        assert isinstance(command, click.Command)
        return command

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
@click.option(
    "-V",
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=lambda ctx, param, value: _version(ctx, value),
    help="Show the version and exit.",
)
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Cribbage for the terminal: play the computer, score hands, advise discards."""
    if ctx.invoked_subcommand is None:  # `cribbage` alone: the help, as git gives it
        click.echo(ctx.get_help())


def _version(ctx: click.Context, asked: bool) -> None:
    """--version: what Click's own option says, without its translation lookups at each
    start (they cost ``cribbage score`` a tenth of its time)."""
    if asked and not ctx.resilient_parsing:
        from cribcli.native import CORE

        click.echo(f"cribbage, version {__version__} ({CORE} core)")
        ctx.exit()


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the command; turn user errors into one line and an exit status."""
    try:
        status = cli.main(args=argv, prog_name="cribbage", standalone_mode=False)
    except click.ClickException as error:
        hint = ""
        if isinstance(error, click.UsageError) and error.ctx is not None:
            hint = f" (see '{error.ctx.command_path} --help')"
        from cribcli.rules.errors import printable

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
