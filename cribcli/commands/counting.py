"""``cribbage score``: a hand or crib counted point by point, or many, one a line."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from cribcli.cli import Command, UserError
from cribcli.commands.options import complete_cards, style_options
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.errors import CribbageError, Exit
from cribcli.rules.scoring import hand_and_starter, score_show

SCORE_EXAMPLES = """\b
Examples:
  cribbage score 5H 5S JD 4C --starter 5D
  cribbage score 5h 5s jd 4c 5d           (the fifth card is the starter)
  cribbage score 2H 4H 6H 8H -s KC --crib
  cribbage score 5H 5S JD 4C -s 5D --json | jq .total
  printf '5H 5S 5C JD 5D\\n7H 8S 8C 9D 9H\\n' | cribbage score -
"""


@click.command(cls=Command, epilog=SCORE_EXAMPLES)
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
        click.get_current_context().exit(score_each_line(sys.stdin, crib=crib, as_json=as_json))
    try:
        cut = Card.parse(starter) if starter is not None else None
        how = "with --starter, e.g. --starter 5D"
        result = score_show(*hand_and_starter(parse_cards(cards), cut, how=how), crib=crib)
    except CribbageError as error:
        raise UserError(str(error)) from None
    if as_json:
        import json

        click.echo(json.dumps(result.as_json()))
        return
    style = decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color)
    for line in show_lines(result, style):
        click.echo(line)


def score_each_line(stream: TextIO, *, crib: bool, as_json: bool) -> int:
    """Score one hand a line; report bad lines by number and go on. Returns the exit status."""
    import json

    from cribcli.record.store import LINE_LIMIT, bounded_lines
    from cribcli.rules.scoring import score_lines
    from cribcli.ui.render import show_line

    status = Exit.OK
    for number, result in score_lines(bounded_lines(stream), crib=crib, limit=LINE_LIMIT):
        if isinstance(result, CribbageError):
            status = Exit.DATA
            click.echo(f"cribbage: line {number}: {result}", err=True)
            if as_json:
                click.echo(json.dumps({"line": number, "error": str(result)}))
        elif as_json:
            click.echo(json.dumps({"line": number, **result.as_json()}))
        else:
            click.echo(show_line(result))
    return status
