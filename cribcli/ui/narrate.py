"""The narration: each event in the words a player reads, one or more lines an event.

A narration is told from a seat's side of the table (a live game: you see your own cards
only) or from above it (a replay: every hand shown).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import assert_never

from cribcli.rules.cards import Card
from cribcli.rules.engine import Rules
from cribcli.rules.errors import printable
from cribcli.rules.events import (
    CountRestarted,
    CribFromDeck,
    DealerCut,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Pegged,
    Played,
    RoundEnded,
    SaidGo,
    Shown,
    StarterCut,
)
from cribcli.rules.tally import Points
from cribcli.ui.render import PLAIN, Style, compact_show_lines, possessive, show_lines

WATCHER = -1
"""The viewer of a watcher's narration: it sees every card laid, every starter and every
show, and no seat's hidden cards (hands, discards) before they are shown."""


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits where, how to draw cards, and whose eyes the narration uses."""

    rules: Rules
    names: tuple[str, ...]
    style: Style = PLAIN
    viewer: int | None = None
    """The seat whose cards may be shown; None shows every hand (a replay);
    :data:`WATCHER` none before it is shown (a served table's watcher).

    At a seat (a game being played), hands are sorted and each count of the show is told
    in a few lines (the replay tells the log as it is, item by item)."""
    width: int | None = None
    """The terminal's width, which what is said is wrapped to; None (a pipe): no wrapping."""

    def __post_init__(self) -> None:
        # Names come from logs, which anyone can write: never let one reach the terminal raw.
        object.__setattr__(self, "names", tuple(printable(name) for name in self.names))

    def side_name(self, side: int) -> str:
        """A side's name: a player's, or two partners' with four players."""
        if self.rules.players == 4:
            return f"{self.names[side]} & {self.names[side + 2]}"
        return self.names[side]

    def scores(self, scores: Sequence[int]) -> str:
        """``You 45, Computer 38``."""
        return ", ".join(f"{self.side_name(side)} {score}" for side, score in enumerate(scores))

    def whose(self, seat: int) -> str:
        """``Your`` or ``Computer's``."""
        return possessive(self.names[seat])

    def sees(self, seat: int) -> bool:
        """Whether this narration may show the seat's hidden cards."""
        return self.viewer is None or self.viewer == seat


def narrate(event: Event, table: Table) -> list[str]:
    """The lines that tell one event (every kind of event is told: a new one must be)."""
    names, style = table.names, table.style
    match event:
        case DealerCut():
            return [cut_line(event, table)]
        case Dealt():
            lines = ["", f"Round {event.round}. {says(names[event.dealer], 'deals')}."]
            if table.viewer is None:  # a replay shows every hand; at a seat, the table does
                lines.extend(
                    f"  {names[seat]}: {style.cards(hand)}" for seat, hand in enumerate(event.hands)
                )
            return lines
        case Discarded():
            if table.sees(event.seat):
                cards = event.cards if table.viewer is None else sorted(event.cards)
                return [f"{names[event.seat]} put {style.cards(cards)} in the crib."]
            count = len(event.cards)
            return [f"{names[event.seat]} put {count} card{'s' * (count > 1)} in the crib."]
        case CribFromDeck():
            if table.viewer is None:
                return [f"The crib's fourth card comes off the deck: {style.card(event.card)}."]
            return ["The crib's fourth card comes off the deck."]
        case StarterCut():
            return [f"Starter: {style.card(event.starter)}."]
        case Played():
            line = f"{names[event.seat]}: {style.card(event.card)} ({event.count})"
            if event.items:
                line += " \u2014 " + ", ".join(item.describe() for item in event.items)
            return [line]
        case SaidGo():
            return [f"{names[event.seat]}: go"]
        case Pegged():
            return [f"{names[event.seat]}: {', '.join(i.describe() for i in event.items)}"]
        case CountRestarted():
            return [f"The count starts again. {says(names[event.leader], 'leads')}."]
        case Shown():
            return shown_lines(event, table)
        case RoundEnded():
            return ["", f"Scores after round {event.round}: {table.scores(event.scores)}."]
        case GameOver():
            return game_over_lines(event, table)
        case _:
            assert_never(event)


def shown_lines(event: Shown, table: Table) -> list[str]:
    """A count of the show: at a seat, in a few lines; in a replay, item by item."""
    names, style = table.names, table.style
    whose = f"{table.whose(event.seat)} {'crib' if event.show.is_crib else 'hand'}"
    claim = [] if event.claimed is None else [claim_line(event, names[event.seat])]
    if table.viewer is not None:
        return [*compact_show_lines(event.show, style, whose, table.width), *claim]
    lines = show_lines(event.show, style, title=whose)
    return [
        "",
        *lines[:1],
        *(f"  {line}" for line in lines[1:]),
        *claim,
        table.scores(event.scores),
    ]


def cut_line(event: DealerCut, table: Table) -> str:
    """``Cut for deal: You 5♠, Computer 9♦. You deal first.``, each tie for low card told,
    and the cut made again between the seats tied."""
    names, style = table.names, table.style
    rounds: list[list[tuple[int, Card]]] = [[]]
    for seat, card in event.cuts:  # a seat cuts once a round: a seat seen again is a recut
        if any(seat == cut for cut, _ in rounds[-1]):
            rounds.append([])
        rounds[-1].append((seat, card))
    parts = []
    for number, cuts in enumerate(rounds):
        told = ", ".join(f"{names[seat]} {style.card(card)}" for seat, card in cuts)
        if number + 1 < len(rounds) and len(rounds[number + 1]) == len(cuts):
            told += ": a tie, so the cut is made again"
        elif number + 1 < len(rounds):
            tied = " and ".join(names[seat] for seat, _ in rounds[number + 1])
            told += f": {tied} tie for low card, and cut again"
        parts.append(told)
    return f"Cut for deal: {'; '.join(parts)}. {says(names[event.dealer], 'deals')} first."


def game_over_lines(event: GameOver, table: Table) -> list[str]:
    """The end of the game: the winner, the final scores, any skunks."""
    winner = table.side_name(event.winner)
    plural = table.rules.players == 4 or winner == "You"
    lines = [""]
    if event.forfeit is not None:
        gone = table.names[event.forfeit]
        lines.append(f"{says(gone, 'forfeits')} the game: {printable(event.reason or '')}.")
    lines.append(f"{winner} win{'' if plural else 's'}: {table.scores(event.scores)}.")
    for side, skunk in enumerate(event.skunks):
        if skunk:
            verb = "are" if _plural(table, side) else "is"
            lines.append(f"{table.side_name(side)} {verb} {skunk}ed.")
    return lines


def summary_lines(
    over: GameOver,
    deals: int,
    minutes: int | None,
    points: Sequence[Points],
    table: Table,
    cards_luck: Sequence[float] = (),
) -> list[str]:
    """A finished game summed up: who won and by what, skunk or not, its length, each
    side's points by source, and (a game of two) what the cards dealt and cut gave each
    side against the average (:mod:`cribcli.review.luck`'s deal and starter)."""
    rules = table.rules
    winner = table.side_name(over.winner)
    others = " and ".join(
        str(score) for side, score in enumerate(over.scores) if side != over.winner
    )
    skunks = [(side, skunk) for side, skunk in enumerate(over.skunks) if skunk]
    if not skunks:
        skunked = "no skunk"
    elif rules.sides == 2:
        skunked = f"a {skunks[0][1]}"
    else:
        skunked = ", ".join(f"{table.side_name(side)} {skunk}ed" for side, skunk in skunks)
    length = f"{deals} deal{'s' if deals != 1 else ''}"
    if minutes is not None:
        length += f" in {minutes} minute{'s' * (minutes > 1)}" if minutes else " in under a minute"
    won = winner + " win" if _plural(table, over.winner) else says(winner, "wins")
    lines = [f"{won} {over.scores[over.winner]} to {others}, {skunked}, after {length}."]
    width = max(len(table.side_name(side)) for side in range(rules.sides)) + 2
    lines.append(f"{'Points':<{width}}{'pegging':>8}{'hand':>6}{'crib':>6}{'total':>7}")
    for side, got in enumerate(points):
        name = table.side_name(side)
        lines.append(
            f"  {name:<{width - 2}}{got.pegging:>8}{got.hand:>6}{got.crib:>6}{sum(got):>7}"
        )
    if cards_luck:
        each = ", ".join(
            f"{'you' if table.side_name(side) == 'You' else table.side_name(side)} {luck:+.1f}"
            for side, luck in enumerate(cards_luck)
        )
        lines.append(f"The cards' luck (dealt and cut, against the average): {each}.")
    return lines


def _plural(table: Table, side: int) -> bool:
    """Whether a side is spoken of in the plural: you, or partners."""
    return table.rules.players == 4 or table.side_name(side) == "You"


def says(name: str, verb: str) -> str:
    """``Computer deals``, but ``You deal``."""
    return f"{name} {verb[:-1] if name == 'You' else verb}"


def claim_line(event: Shown, name: str) -> str:
    """Under muggins: what the owner claimed against the true count."""
    claimed, total = event.claimed, event.show.total
    said = f"{says(name, 'claims')} {claimed}"
    if claimed == total:
        return f"{said}: right."
    if claimed is not None and claimed < total:
        return f"{said}: {total - claimed} missed."
    return f"{said}, but it is {total}: {total} scored."
