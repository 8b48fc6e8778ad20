"""What the hard computer reads of the other player in the play: the hands it could hold,
each weighed by how well it fits what the other did this deal (the cards it would have
kept, and laid as it did) for each style its deals shown so far suggest
(:mod:`cribcli.players.habits`). Compiled with the hot modules: a game's review draws and
weighs some 80,000 hands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from cribcli.players.careful import unseen_after
from cribcli.players.habits import Habits, Style, laid_as, likely_keeps
from cribcli.rules.engine import View
from cribcli.rules.stream import SeededStream

KEPT: Final = 10
"""A hand a player of the style read (:class:`~cribcli.players.habits.Habits`; careful
until a deal is shown) would have kept from its six (:func:`likely_keeps`) counting this
many times as much as any other..."""
LAID: Final = 20
"""... and one whose cards laid so far it would have laid as it did, each such a player's
choice (:func:`cribcli.players.habits.laid_as`), this many times. No style keeps and
lays so every time, so no hand is ruled out."""


class Sample(NamedTuple):
    """A hand the other player could hold and the two cards it threw, as ranks."""

    held: tuple[int, ...]
    thrown: tuple[int, ...]


Draws = list[tuple[Sample, float]]
"""Sampled hands, each with its weight."""
Hands = list[tuple[Sample, int]]
"""Sampled hands drawn again by their weights, each weighing 1."""


class Reading(NamedTuple):
    """What the other player did this deal, as one seat saw it, and what its deals shown
    before say of its style: enough to weigh each hand it could hold by how well the hand
    fits."""

    laid: tuple[int, ...]
    """The ranks it laid, in order."""
    plays: tuple[tuple[bool, int], ...]
    """Every card laid this deal, in order, each marked whether it was the other's."""
    starter: int
    dealer: bool
    """Whether the other player deals."""
    habits: Habits = Habits()
    """Each style's chance, from the deals shown so far (:mod:`cribcli.players.habits`)."""

    @classmethod
    def of(cls, view: View) -> Reading:
        """What the other player (two players) did, as ``view``'s seat saw it."""
        other = 1 - view.seat
        assert view.starter is not None
        return cls(
            laid=tuple(card.rank for seat, card in view.plays if seat == other),
            plays=tuple((seat == other, card.rank) for seat, card in view.plays),
            starter=view.starter.rank,
            dealer=not view.is_dealer,
            habits=Habits.of(view),
        )

    def weights(self, sample: Sample) -> tuple[int, ...]:
        """How much a hand it could hold counts for each style the other may play
        (:attr:`Habits.noticed`, in order): :data:`KEPT` times more if a player of that
        style would have kept those four of the six, and :data:`LAID` times more if it
        would have laid its cards so far as it did; for a random player, as much as any
        other hand."""
        kept = tuple(sorted(self.laid + sample.held))
        six = tuple(sorted(kept + sample.thrown))
        # What it could not see as the play began: not its six cards, not the starter.
        hidden = unseen_after((*kept, *sample.thrown, self.starter))
        laid: dict[Style, bool] = {}  # by the style whose lays it makes
        weights = []
        for style, _ in self.habits.noticed:
            if style is Style.RANDOM:
                weights.append(1)
                continue
            keep = KEPT if kept in likely_keeps(six, self.dealer, style) else 1
            lays = style.lays_like
            if lays not in laid:
                laid[lays] = laid_as(lays, self.plays, sample.held, hidden)
            weights.append(keep * (LAID if laid[lays] else 1))
        return tuple(weights)

    def mixed(self, candidates: list[Sample], weights: dict[Sample, tuple[float, ...]]) -> Draws:
        """The candidates weighed by the mixture of styles: each style's weights made a
        share of its own total over the candidates (what that style says of each hand,
        given the candidates drawn), then taken by the style's chance. With one style
        noticed, its weights as they are (the same draws)."""
        noticed = self.habits.noticed
        if len(noticed) == 1:
            return [(sample, weights[sample][0]) for sample in candidates]
        totals = [sum(weights[sample][i] for sample in candidates) for i in range(len(noticed))]
        shares = [chance / total for (_, chance), total in zip(noticed, totals, strict=True)]
        return [
            (sample, sum(s * w for s, w in zip(shares, weights[sample], strict=True)))
            for sample in candidates
        ]

    def hands(
        self, unseen: list[int], pool: list[int], size: int, drawn: int, kept: int,
        stream: SeededStream,
    ) -> Hands:  # fmt: skip
        """``kept`` hands of ``size`` cards the other player could hold, each with the two
        cards it threw, as ranks, each weighing 1: ``drawn`` are drawn, the hand from the
        places ``pool`` of the ``unseen`` ranks (those that fit every go it said), the
        throw from the rest; each is weighed by how well it fits what the other did
        (:meth:`weights`), and ``kept`` are drawn again from them by those weights
        (:func:`resample`), so that the search spends its time on the hands that fit."""
        weights: dict[Sample, tuple[float, ...]] = {}
        candidates = []
        for _ in range(drawn):
            held = stream.sample(pool, size)
            rest = unseen.copy()
            for place in sorted(held, reverse=True):
                del rest[place]
            thrown = tuple(sorted(stream.sample(rest, 2)))
            sample = Sample(tuple(sorted([unseen[place] for place in held])), thrown)
            if sample not in weights:
                weights[sample] = self.weights(sample)
            candidates.append(sample)
        return resample(self.mixed(candidates, weights), kept, stream)


def tally(draws: Iterable[tuple[Sample, int]]) -> Counter[Sample]:
    """Sampled hands, each with its total weight."""
    samples: Counter[Sample] = Counter()
    for sample, weight in draws:
        samples[sample] += weight
    return samples


def resample(draws: Sequence[tuple[Sample, float]], size: int, stream: SeededStream) -> Hands:
    """``size`` draws taken again from ``draws`` in proportion to their weights, each then
    weighing 1 (systematic resampling: one random start, evenly spaced)."""
    total = sum(weight for _, weight in draws)
    step = total / size
    point = stream.below(1 << 30) / (1 << 30) * step
    taken: Hands = []
    reached = 0.0
    for sample, weight in draws:
        reached += weight
        while point < reached and len(taken) < size:
            taken.append((sample, 1))
            point += step
    return taken
