"""``cribbage quiz`` and ``cribbage train``: the day's problems, the counting drill, and
your own mistakes asked again."""

from __future__ import annotations

import sys

import click

from cribcli.cli import Command
from cribcli.commands.options import check_seed, data_dir_option, style_options

LINE_LIMIT = 200
"""The most characters an answer may hold (the rest of a longer line is not read)."""

QUIZ_EXAMPLES = """\b
Examples:
  cribbage quiz                        today's discard and pegging problems
  cribbage quiz --date 2026-12-01      a past day's
  cribbage quiz --count                ten hands to count, timed
  printf '5H 6S\\n9D\\n' | cribbage quiz --json
"""


DRAIN_LIMIT = 1 << 16
"""The most of an over-long line read past :data:`LINE_LIMIT` before input is taken as
ended (a stream with no line ends, as /dev/zero, is never read to its end)."""


def ask_line(question: str) -> str | None:
    """A line from standard input (the question shown first on a terminal); None at its
    end. Raises CribbageError for a line that is not text or is longer than
    :data:`LINE_LIMIT` (the rest of it is passed over)."""
    from cribcli.rules.errors import CribbageError

    stdin = sys.stdin
    if stdin is None:  # (closed: nothing to read)
        return None
    if stdin.isatty():
        click.echo(question, nl=False)
    try:
        line = stdin.readline(LINE_LIMIT)
        if not line:
            return None
        if line.endswith("\n"):
            return line
        drained = 0
        while (rest := stdin.readline(LINE_LIMIT)) and not rest.endswith("\n"):
            drained += len(rest)
            if drained > DRAIN_LIMIT:
                return None
    except UnicodeDecodeError:
        raise CribbageError("that line is not text (UTF-8)") from None
    if not rest and len(line) < LINE_LIMIT:
        return line  # the last line, with no line end
    raise CribbageError(f"that line is too long: at most {LINE_LIMIT} characters")


def _at_a_terminal() -> bool:
    """Whether a person answers at a terminal (then an answer that cannot be read is asked
    again for as long as they like; from a pipe, a hundred in a row end it)."""
    return sys.stdin is not None and sys.stdin.isatty()


@click.command(cls=Command, epilog=QUIZ_EXAMPLES)
@click.option("--date", "day", metavar="YYYY-MM-DD", help="A past day's problems.")
@click.option("--count", "counting", is_flag=True, help="The counting drill: ten hands, timed.")
@click.option(
    "--seed",
    callback=check_seed,
    metavar="SEED",
    help="The drill's hands from this seed (to count the same ones again).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line.")
@data_dir_option
@style_options
def quiz(
    day: str | None,
    counting: bool,
    seed: int | str | None,
    as_json: bool,
    data_dir: str | None,
    ascii_only: bool,
    no_color: bool,
) -> None:
    """The day's discard problem and pegging problem, or a counting drill.

    The problems are the same for everyone on a date, and chosen to teach: the best throw
    beats the keep that scores most by itself, and the best card to lay beats the one
    that takes most points now, each by half a point or more. A throw is graded by its
    exact value (as discard-advice counts it), a card laid by the play search (as
    peg-advice). Your first answers of a day are kept: a line to share, and your streak
    of days in a row.

    With --count: ten hands and starters, a crib now and then; type each total, and what
    you missed is told item by item; at the end, how many you had right, and the time.

    At the question, `help` says what to type, `hint` how to think about it (not its
    answer), `quit` stops, your answers so far kept; anything else it cannot read is asked
    again (at a terminal for as long as it takes; from a pipe, a hundred times in a row at
    most). Input ending first keeps what was answered, with exit status 2.
    """
    import secrets
    import time
    from datetime import date

    from cribcli.record import daily
    from cribcli.record.store import Places
    from cribcli.review.history import QuizDays
    from cribcli.services.quiz import drill
    from cribcli.ui.console import warn
    from cribcli.ui.quizzing import Quiz, count_drill
    from cribcli.ui.render import decide_style

    style = decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color)
    if counting:
        hands = drill(str(seed) if seed is not None else secrets.token_hex(4))
        status = count_drill(
            hands, ask_line, click.echo, time.monotonic, as_json=as_json, style=style,
            patient=_at_a_terminal(),
        )  # fmt: skip
        click.get_current_context().exit(status)
    today = date.today()
    asked = daily.day_of(day, today)
    book = QuizDays(Places.find(data_dir).quiz)
    status = Quiz(ask_line, click.echo, as_json=as_json, style=style, patient=_at_a_terminal()).day(
        asked, today.isoformat(), book, warn
    )
    click.get_current_context().exit(status)


TRAIN_EXAMPLES = """\b
Examples:
  cribbage train                       your costliest decisions, asked again
  cribbage train --kind lay            only cards laid
  cribbage train --limit 3 --json
"""


@click.command(cls=Command, epilog=TRAIN_EXAMPLES)
@click.option(
    "--kind",
    type=click.Choice(["throw", "lay", "count"]),
    help="Only throws, cards laid, or counts (under muggins).",
)
@click.option(
    "--limit",
    type=click.IntRange(1, 100),
    default=10,
    show_default=True,
    metavar="N",
    help="Ask at most N positions.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line.")
@data_dir_option
@style_options
def train(
    kind: str | None,
    limit: int,
    as_json: bool,
    data_dir: str | None,
    ascii_only: bool,
    no_color: bool,
) -> None:
    """Practise your own mistakes: the decisions of your reviewed games that cost an
    inaccuracy or more, asked again.

    Worst first (of equal cost, the latest game's first), each set up as you saw it: your
    cards, the starter if it was cut, the cards laid, the score. Answer, and you are told
    whether it was the best, what it was worth and why, in the coach's words. A position
    answered right twice in a row rests; the rest come back next time. A game counts once
    it is reviewed ('cribbage review', or the coach at its end). At the question, `help`
    says what to type, `hint` how to think about it, `quit` stops; anything it cannot read
    is asked again.
    """
    from cribcli.record.store import Places
    from cribcli.ui.console import warn
    from cribcli.ui.quizzing import Trainer
    from cribcli.ui.render import decide_style

    style = decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color)
    trainer = Trainer(
        ask_line, click.echo, warn, as_json=as_json, style=style, patient=_at_a_terminal()
    )
    click.get_current_context().exit(trainer.run(Places.find(data_dir), kind, limit))
