"""The levels between easy and normal: players who make the mistakes people make.

A person does not choose at random, nor always the best: they see roughly what each
choice is worth and now and then take one that is worth a little less, more often when
two choices are close than when one stands out, more often in the play (a quick choice,
the count moving) than in the throw (which they can study), and never one that throws
away so much that nobody at their level would make it.

So a level of the ladder weighs each legal choice by what the normal computer's own
measure says it loses against the best (the throw: the exact net value of the discard;
the lay: the careful player's points less the expected answer), leaves out the choices
that lose more than the level's *absurd* limit, and picks among the rest with chances that
fall off as ``exp(-loss / temperature)``: a choice a point worse than the best is taken
``exp(-1 / temperature)`` times as often. Each level has a temperature for the throw and a
hotter one for the play, and its limit; lower levels run hotter and allow larger slips.

The levels are calibrated, not guessed (``tools/anchors.py``, ``docs/computer.md``):
each beats the one below it in about 62% of duplicate games, easy (the bottom, random)
to normal; hard sits one such step above normal. Choices come from the game's seed, one
stream a decision, so a game replays exactly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from cribcli.players.base import Level
from cribcli.players.careful import chosen, run_outs, weigh
from cribcli.players.normal import NormalPlayer, careful_position
from cribcli.players.pegging import VALUES
from cribcli.rules.cards import Card
from cribcli.rules.engine import View
from cribcli.rules.scoring import COUNT_LIMIT
from cribcli.rules.stream import SeededStream

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Slips:
    """How one level errs."""

    throw: float
    """The throw's temperature, in points: how far below the best a throw is still taken."""
    play: float
    """The play's temperature, in points (hotter than the throw's)."""
    absurd: float
    """No choice that loses more than this many points against the best is ever made."""


SLIPS: Mapping[Level, Slips] = {
    Level.TWO: Slips(throw=9.23, play=18.46, absurd=12.6),
    Level.THREE: Slips(throw=5.53, play=11.06, absurd=8.1),
    Level.FOUR: Slips(throw=4.02, play=8.04, absurd=6.3),
    Level.FIVE: Slips(throw=3.08, play=6.16, absurd=5.2),
    Level.SIX: Slips(throw=2.13, play=4.26, absurd=4.1),
    Level.SEVEN: Slips(throw=1.36, play=2.72, absurd=3.1),
    Level.EIGHT: Slips(throw=0.56, play=1.12, absurd=2.2),
}
"""How each level between easy (1) and normal (9) slips."""


def chances(
    losses: Sequence[tuple[T, float]], temperature: float, absurd: float
) -> list[tuple[T, float]]:
    """The choices a level would make, each with its loss against the best (the best's
    is 0), and the chance it makes each: those within ``absurd`` points of the best, in
    proportion to ``exp(-loss / temperature)``; the others never."""
    fair = [(choice, math.exp(-loss / temperature)) for choice, loss in losses if loss <= absurd]
    total = sum(weight for _, weight in fair)
    return [(choice, weight / total) for choice, weight in fair]


FRACTION = 1 << 53
"""A draw's resolution: a float's fraction bits."""


def pick(
    losses: Sequence[tuple[T, float]], temperature: float, absurd: float, stream: SeededStream
) -> T:
    """One of the choices, drawn from ``stream`` by its :func:`chances`."""
    fair = chances(losses, temperature, absurd)
    point = stream.below(FRACTION) / FRACTION
    for choice, chance in fair:
        point -= chance
        if point < 0:
            return choice
    return fair[-1][0]  # (what rounding leaves past the last)


def lay_losses(view: View) -> dict[int, float]:
    """Each rank this seat can lay, with what the careful measure says it loses against
    the best: the points now less the answer expected; when the others have said go,
    the points of the best order it can begin (and a tenth of a point for each card
    fewer it lays)."""
    hand, pile, count, unseen, reply, out = careful_position(view)
    if pile and out:
        runs = run_outs(hand, pile, count)
        top_points, top_laid = max(runs.values())
        return {
            rank: top_points - gained + 0.1 * (top_laid - laid)
            for rank, (gained, laid) in sorted(runs.items())
        }
    room = COUNT_LIMIT - count
    ranks = sorted({rank for rank in hand if VALUES[rank] <= room})
    worth = {rank: weigh(rank, pile, count, unseen, reply) for rank in ranks}
    best = chosen(hand, pile, count, unseen, reply, out)
    top = max(worth[rank] for rank in best)
    return {rank: 0.0 if rank in best else max(top - worth[rank], 0.0) for rank in ranks}


class SlippingPlayer(NormalPlayer):
    """A level between easy and normal: the normal computer's measures, chosen by as a
    person of that level chooses."""

    def __init__(self, seed: int | str, seat: int, level: Level) -> None:
        super().__init__(seed, seat)
        self.level = level
        self.slips = SLIPS[level]

    def _stream(self, view: View) -> SeededStream:
        # One stream per decision, named by where the game stands, as easy's are.
        where = f"round {view.round} {view.phase.name.lower()} {len(view.plays)}"
        return SeededStream(self.seed, f"level {self.level} {self.seat} {where}")

    def discard(self, view: View) -> tuple[Card, ...]:
        """A throw near the best, the nearer the likelier."""
        from cribcli.rules.analysis import analyse

        options = analyse(view.hand, dealer=view.is_dealer, players=view.rules.players)
        best = options[0].net
        losses = [(option.discard, best - option.net) for option in options]
        return pick(losses, self.slips.throw, self.slips.absurd, self._stream(view))

    def play(self, view: View) -> Card:
        """A lay near the careful best, the nearer the likelier."""
        losses = lay_losses(view)
        rank = pick(sorted(losses.items()), self.slips.play, self.slips.absurd, self._stream(view))
        return next(card for card in view.playable() if card.rank == rank)
