"""The narration: each event in the words a player reads, one or more lines an event.

A narration is told from a seat's side of the table (a live game: you see your own cards
only) or from above it (a replay: every hand shown).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cribcli.engine import Rules
from cribcli.errors import printable
from cribcli.events import (
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
from cribcli.ui.render import PLAIN, Style, compact_show_lines, show_lines


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits where, how to draw cards, and whose eyes the narration uses."""

    rules: Rules
    names: tuple[str, ...]
    style: Style = PLAIN
    viewer: int | None = None
    """The seat whose cards may be shown; None shows every hand (a replay).

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
    """The lines that tell one event."""
    names, style = table.names, table.style
    if isinstance(event, DealerCut):
        cuts = ", ".join(f"{names[seat]} {style.card(card)}" for seat, card in event.cuts)
        return [f"Cut for deal: {cuts}. {says(names[event.dealer], 'deals')} first."]
    if isinstance(event, Dealt):
        lines = ["", f"Round {event.round}. {says(names[event.dealer], 'deals')}."]
        for seat, hand in enumerate(event.hands):
            if table.sees(seat):
                cards = hand if table.viewer is None else sorted(hand)
                lines.append(f"  {names[seat]}: {style.cards(cards)}")
        return lines
    if isinstance(event, Discarded):
        if table.sees(event.seat):
            cards = event.cards if table.viewer is None else sorted(event.cards)
            return [f"{names[event.seat]} put {style.cards(cards)} in the crib."]
        count = len(event.cards)
        return [f"{names[event.seat]} put {count} card{'s' if count > 1 else ''} in the crib."]
    if isinstance(event, CribFromDeck):
        if table.viewer is None:
            return [f"The crib's fourth card comes off the deck: {style.card(event.card)}."]
        return ["The crib's fourth card comes off the deck."]
    if isinstance(event, StarterCut):
        return [f"Starter: {style.card(event.starter)}."]
    if isinstance(event, Played):
        line = f"{names[event.seat]}: {style.card(event.card)} ({event.count})"
        if event.items:
            line += " \u2014 " + ", ".join(item.describe() for item in event.items)
        return [line]
    if isinstance(event, SaidGo):
        return [f"{names[event.seat]}: go"]
    if isinstance(event, Pegged):
        reasons = ", ".join(item.describe() for item in event.items)
        return [f"{names[event.seat]}: {reasons}"]
    if isinstance(event, CountRestarted):
        return [f"The count starts again. {says(names[event.leader], 'leads')}."]
    if isinstance(event, Shown):
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
    if isinstance(event, RoundEnded):
        return ["", f"Scores after round {event.round}: {table.scores(event.scores)}."]
    if isinstance(event, GameOver):
        return game_over_lines(event, table)
    raise TypeError(f"no narration for {event!r}")  # pragma: no cover


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
            loser = table.side_name(side)
            verb = "are" if table.rules.players == 4 or loser == "You" else "is"
            lines.append(f"{loser} {verb} {skunk}ed.")
    return lines


def possessive(name: str) -> str:
    """``Your`` for you, ``Computer's`` for anyone else."""
    return "Your" if name == "You" else f"{name}'s"


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
