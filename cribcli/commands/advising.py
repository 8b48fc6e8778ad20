"""``cribbage discard-advice`` and ``cribbage peg-advice``: every throw, and every card
that could be laid, ranked by what it is worth."""

from __future__ import annotations

import sys

import click

from cribcli.cli import Command, UserError
from cribcli.commands.options import check_whose_crib, complete_cards, style_options
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.errors import CribbageError

ADVICE_EXAMPLES = """\b
Examples:
  cribbage discard-advice 5H 5S JD 4C 2S KH --dealer
  cribbage discard-advice 5h 5s jd 4c 2s kh --pone --top 3
  cribbage discard-advice 5H 5S JD 4C 2S KH --pone --score 100 115
  cribbage discard-advice 5H 5S JD 4C 2S --players 3 --dealer
  cribbage discard-advice 5H 5S JD 4C 2S KH --dealer --json | jq '.[0].discard'
"""


@click.command("discard-advice", cls=Command, epilog=ADVICE_EXAMPLES)
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
    from cribcli.rules.analysis import CRIB_MODEL, advise
    from cribcli.rules.targets import target_of
    from cribcli.ui.coaching import advice_lines
    from cribcli.ui.render import decide_style

    check_whose_crib(dealer, pone)
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
        import json

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


@click.command("peg-advice", cls=Command, epilog=PEG_EXAMPLES)
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
    from cribcli.review.coach import Moment, parse_laid
    from cribcli.review.coach import peg_advice as advise_lay
    from cribcli.ui.coaching import peg_lines
    from cribcli.ui.render import decide_style

    check_whose_crib(dealer, pone)
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
        import json

        click.echo(json.dumps([lay.as_json() for lay in shown]))
        return
    style = decide_style(sys.stdout, ascii_only=ascii_only, no_color=no_color)
    for line in peg_lines(advice, shown, style):
        click.echo(line)
