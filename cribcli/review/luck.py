"""Luck told apart from skill, at a table of two: what the cards gave each seat against
what they give on average, in points of its own.

For each deal played to its end, each seat's luck has three parts:

- **the deal**: what the six cards dealt bring their own side, thrown as well as the
  exact analysis says, against the average six for that role (``tools/deal_values.py``
  measured it): the kept hand's average, and for the dealer the crib the two sixes make
  when both sides throw their best (a throw against the best is skill, in the review);
- **the starter**: what the starter brought the hand kept (and the dealer's crib, and his
  heels) against the average of every card it could have been (the cards not dealt);
- **the play**: what the other side's cards gave the play against what was expected: the
  play's points, one side's less the other's, against what the two hands kept peg on
  average (``cribcli/players/pegs.py``), with what each side's lays lost (the review's
  measure) taken out, since that is skill; shared between the two, half each way.

A seat's score less its luck is its **skill-only** score: who would have been ahead had
luck been even. The deal the game ended in is not weighed (its points stop at the end).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from cribcli.players import measured, pegs
from cribcli.rules.analysis import analyse
from cribcli.rules.cards import JACK, Card, deck
from cribcli.rules.events import (
    Dealt,
    Discarded,
    Event,
    GameOver,
    Pegged,
    Played,
    RoundEnded,
    Shown,
    StarterCut,
)
from cribcli.rules.scoring import HEELS_POINTS, PegKind, show_total


def average_six(dealer: bool) -> float:
    """What the average six cards dealt bring their own side, thrown well (as dealer or
    as pone): measured by ``tools/deal_values.py``."""
    roles = measured.read("deal_values.json")["roles"]
    return float(roles["dealer" if dealer else "pone"]["mean"])


class DealLuck(NamedTuple):
    """One seat's luck in one deal, in its own points."""

    round: int
    seat: int
    deal: float
    starter: float
    play: float

    @property
    def total(self) -> float:
        return self.deal + self.starter + self.play


class SeatLuck(NamedTuple):
    """One seat's luck over a game, by part, and its score with and without it."""

    seat: int
    deal: float
    starter: float
    play: float
    score: int

    @property
    def total(self) -> float:
        return self.deal + self.starter + self.play

    @property
    def skill_only(self) -> float:
        """The score less the luck: what skill alone made of an even run of cards."""
        return self.score - self.total


class Luck(NamedTuple):
    """A game's luck, deal by deal and seat by seat."""

    deals: tuple[DealLuck, ...]
    scores: tuple[int, ...]

    def seat(self, seat: int) -> SeatLuck:
        """One seat's luck summed over the game's deals."""
        own = [d for d in self.deals if d.seat == seat]
        return SeatLuck(
            seat,
            sum(d.deal for d in own),
            sum(d.starter for d in own),
            sum(d.play for d in own),
            self.scores[seat],
        )

    def seats(self) -> tuple[SeatLuck, ...]:
        return tuple(self.seat(n) for n in range(len(self.scores)))

    def skill_margin(self, seat: int) -> float:
        """How far ``seat`` would have been ahead (behind, if less than 0) of the other
        had luck been even: the skill-only scores' difference."""
        return self.seat(seat).skill_only - self.seat(1 - seat).skill_only

    def as_json(self, names: Sequence[str]) -> dict[str, object]:
        """For scripts: each seat's luck by part, its score and skill-only score; each
        deal's luck, seat by seat."""
        return {
            "seats": [
                {
                    "seat": luck.seat,
                    "name": names[luck.seat],
                    "deal": round(luck.deal, 2),
                    "starter": round(luck.starter, 2),
                    "play": round(luck.play, 2),
                    "total": round(luck.total, 2),
                    "score": luck.score,
                    "skill_only": round(luck.skill_only, 2),
                }
                for luck in self.seats()
            ],
            "skill_margin": round(self.skill_margin(0), 2),
            "deals": [
                {
                    "round": d.round,
                    "seat": d.seat,
                    "deal": round(d.deal, 2),
                    "starter": round(d.starter, 2),
                    "play": round(d.play, 2),
                }
                for d in self.deals
            ],
        }


def luck_of(events: Sequence[Event], lays_lost: Mapping[tuple[int, int], float]) -> Luck | None:
    """The luck of a game of two, from its events; ``lays_lost`` is what each seat's lays
    lost in each round, by (round, seat) (the review's measure; missing is none). None
    at a table of three or four, or before a deal has been played to its end."""
    deals: list[DealLuck] = []
    scores: tuple[int, ...] = ()
    dealt: Dealt | None = None
    thrown: dict[int, tuple[Card, ...]] = {}
    starter: Card | None = None
    pegged = [0, 0]
    for event in events:
        match event:
            case Dealt():
                if len(event.hands) != 2:
                    return None
                dealt, thrown, starter, pegged = event, {}, None, [0, 0]
            case Discarded():
                thrown[event.seat] = event.cards
            case StarterCut():
                starter = event.starter
            case Played():
                pegged[event.seat] += event.points
            case Pegged() if all(i.kind in (PegKind.GO, PegKind.LAST_CARD) for i in event.items):
                pegged[event.seat] += event.points
            case Shown() | GameOver():
                scores = event.scores
            case RoundEnded():
                scores = event.scores
                if dealt is not None and starter is not None and len(thrown) == 2:
                    deals.extend(_deal_luck(dealt, thrown, starter, pegged, lays_lost))
            case _:
                pass
    if not deals:
        return None
    return Luck(tuple(deals), scores)


def _deal_luck(
    dealt: Dealt,
    thrown: Mapping[int, tuple[Card, ...]],
    starter: Card,
    pegged: Sequence[int],
    lays_lost: Mapping[tuple[int, int], float],
) -> list[DealLuck]:
    """Both seats' luck in one deal played to its end."""
    crib = (*thrown[0], *thrown[1])
    kept = [tuple(c for c in dealt.hands[seat] if c not in thrown[seat]) for seat in (0, 1)]
    undealt = [card for card in deck() if not any(card in hand for hand in dealt.hands)]

    def average(cards: Sequence[Card], is_crib: bool) -> float:
        """The show's average over every starter it could have had."""
        return sum(show_total(cards, c, crib=is_crib) for c in undealt) / len(undealt)

    def starter_luck(cards: Sequence[Card], is_crib: bool) -> float:
        return show_total(cards, starter, crib=is_crib) - average(cards, is_crib)

    jacks = sum(card.rank == JACK for card in undealt)
    heels = HEELS_POINTS * ((starter.rank == JACK) - jacks / len(undealt))
    edges = [pegs.edge(kept[seat], dealer=seat == dealt.dealer) for seat in (0, 1)]
    lost = [lays_lost.get((dealt.round, seat), 0.0) for seat in (0, 1)]
    shared = (pegged[0] - pegged[1]) + (lost[0] - lost[1]) - (edges[0] - edges[1]) / 2
    bests = [analyse(dealt.hands[seat], dealer=seat == dealt.dealer)[0] for seat in (0, 1)]
    found = []
    for seat in (0, 1):
        dealer = seat == dealt.dealer
        deal = bests[seat].hand - average_six(dealer)
        starter_part = starter_luck(kept[seat], False)
        if dealer:
            # The crib the two sixes make, each side throwing its best: what the deal gave
            # the crib (a side's throw against its best is its skill, in its review).
            deal += average((*bests[0].discard, *bests[1].discard), True)
            starter_part += starter_luck(crib, True) + heels
        play = shared / 2 if seat == 0 else -shared / 2
        found.append(DealLuck(dealt.round, seat, deal, starter_part, play))
    return found
