"""The hard computer: values the crib against the other's throws, and searches the play.

Discarding, it values each discard's crib against what a good player throws (a pone
throws the cards that help a crib least, a dealer those that help its own most:
:mod:`cribcli.players.cribs`), not against random cards, or, once the deals shown tell
it the other throws otherwise (greedy, crib-minded, at random), against that player's
throws; and it weighs how the kept cards peg (:mod:`cribcli.players.pegs`: a table of
plays between careful players, counted at the share of it that hard's plays show,
:data:`PEGGING`). In the play (two players) it deals the other player many hands that
fit everything seen so far (the cards laid, and every go: a go means each card then held
would have passed 31), weighing most those it would have kept and laid its cards from as
it did, were it to discard by the exact analysis and lay carefully (a careful lead and
answers tell much), or, once the deals shown tell it the other plays otherwise (greedy,
crib-minded or at random: :mod:`cribcli.players.habits`), as a player of that style
would; plays the rest of the play out against each, itself at its best and the other
laying as a careful player does from what it can see (it cannot see hard's cards, so it
does not answer as if it could), and lays the card with the best average.

Near the end (either side within :data:`ENDGAME` points) it plays to win, not for points:
it takes a sure point that wins; it discards for the best chance of winning (the chance of
each score its hand can make, against the pegging, hand and crib a deal usually brings:
:mod:`cribcli.players.odds`); and it searches the play for the card that wins most often,
itself playing to win and the other laying as a careful player does, as in the search for
points, the shows after it counted in order (the pone first). It lays the card worth
most points unless another is really likelier to win (:func:`surer`). With three or four
players it pegs like the normal computer.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, NamedTuple

from cribcli.players import cribs, odds, pegs
from cribcli.players.base import Objective
from cribcli.players.careful import against, unseen_after, win_against
from cribcli.players.habits import CRIBS, KEPT_VALUES, Habits, Style
from cribcli.players.normal import NormalPlayer, pile_ranks, unseen_by
from cribcli.players.pegging import points, value
from cribcli.players.reading import Hands, Reading, Sample, tally
from cribcli.rules.cards import JACK, Card
from cribcli.rules.engine import View
from cribcli.rules.scoring import COUNT_LIMIT, KEPT_SIZE, MAX_SHOW, rank_key, rank_table, show_total
from cribcli.rules.stream import SeededStream

if TYPE_CHECKING:  # the exact analysis is loaded to discard: advice on a lay does without
    from cribcli.rules.analysis import DiscardValue

PLAY_DEALS = 200
"""Hands dealt to the other player, in its head, for the search of the play."""
CANDIDATES = 3
"""The hands are drawn from this many times as many, by how well each fits what the other
player did: the cards it would have kept, and laid as it did
(:class:`~cribcli.players.reading.Reading`)."""
WIN_DEALS = 60
"""The first this many of them make the search to win near the end, which is slower (the
scores are part of what it searches)..."""
FEW_CARDS = 5
"""... unless this many cards or fewer are left in the two hands together: then the
search is quick, and all of them make it, so that a hand the other holds one time in
twenty (the card that would peg it home) is not missed."""
ENDGAME = 60
"""Within this many points of the end (either side), it plays to win, not for points."""
PEGGING = 0.7
"""How much of the pegging table's edge hard's play shows (the table's players lay by the
normal computer's rule). Measured over 3,882 deals of hard against normal, as the slope of
the pegging on the table's value for the cards kept: 0.66 as dealer, 0.80 as pone (each
± 0.13)."""


class Option(NamedTuple):
    """A discard as hard values it: hand, crib and pegging together, and the crib alone."""

    net: float
    crib: float
    value: DiscardValue
    chance: float | None = None
    """Near the end: the chance of winning the game with it (else None)."""


class LayWorth(NamedTuple):
    """A card to lay as hard values it: the points it nets, near the end its chance of
    winning (else None), and whether it is the one hard lays (the most points, unless
    another is really likelier to win: see :func:`surer`)."""

    net: float
    chance: float | None
    chosen: bool


CLOSE = 0.002
"""Chances of winning this close are taken as equal (the table is a model): points decide."""


class HardPlayer(NormalPlayer):
    """Discards against the other's throws (a good player's until it reads otherwise);
    pegs by searching sampled hands; near the end plays for ``objective``: the game (to
    win it), game points, or spread (points to the end, as before the last deals)."""

    def __init__(self, seed: int | str, seat: int, objective: Objective = Objective.WIN) -> None:
        super().__init__(seed, seat)
        self.objective = objective

    def _racing(self, view: View) -> bool:
        """Whether it plays for the end of the game now, not for points."""
        return self.objective is not Objective.SPREAD and min(needs(view)) <= ENDGAME

    def _stream(self, view: View, what: str) -> SeededStream:
        # One stream per decision, named by where the game stands, so a resumed game
        # decides exactly as an unbroken one.
        return SeededStream(
            self.seed, f"hard {self.seat} round {view.round} {what} {len(view.plays)}"
        )

    def discard(self, view: View) -> tuple[Card, ...]:
        """The discard with the best hand, crib and pegging, taken together, the crib
        valued against how the other throws (:func:`discard_options`); near the end, the
        one most likely to win."""
        return pick_throw(discard_options(view, self.objective)).value.discard

    def play(self, view: View) -> Card:
        """A sure point that wins; else the card worth most points over sampled hands of
        the other player, or near the end the one really likelier to win
        (:meth:`lay_values`)."""
        options = view.playable()
        if len(options) == 1 or view.rules.players != 2:
            return super().play(view)
        mine = needs(view)[0]
        pile = pile_ranks(view)
        winners = [
            c for c in options if points(pile + (c.rank,), view.count + value(c.rank)) >= mine
        ]
        if winners:
            return winners[0]
        values = self.lay_values(view)
        if not values:
            return super().play(view)
        return next(card for card, worth in values.items() if worth.chosen)

    def lay_values(self, view: View, win_deals: int = WIN_DEALS) -> dict[Card, LayWorth]:
        """What each card that can be laid is worth in the rest of this play (two
        players), over the hands the other could hold given what this seat has seen: its
        points less the other player's, it at its best and the other laying as a careful
        player does; and near the end the chance of winning, it playing to win and the
        other as carefully as ever (over the first ``win_deals`` hands: more
        than hard's own :data:`WIN_DEALS` make it steadier; over all of them when
        :data:`FEW_CARDS` are left). Empty if no hand fits what was seen."""
        options = view.playable()
        draws = self._sample_hands(view)
        if not draws:
            return {}
        samples = tally(draws)
        ranks = sorted({card.rank for card in options})
        totals = _lay_totals(view, samples, ranks)
        weight = sum(samples.values())
        chosen = max(ranks, key=lambda rank: (totals[rank], -rank))
        chances: dict[int, float] = {}
        if self._racing(view):
            if len(view.hand) + view.held[1 - view.seat] <= FEW_CARDS:
                win_deals = len(draws)
            weights, each = self._win_chances(view, tally(draws[:win_deals]), ranks)
            chances = {rank: _mean(each[rank], weights) for rank in ranks}
            chosen = surer(chosen, each, weights)
        first = next(card for card in options if card.rank == chosen)
        return {
            card: LayWorth(totals[card.rank] / weight, chances.get(card.rank), card == first)
            for card in options
        }

    def _win_chances(
        self, view: View, samples: Counter[Sample], ranks: list[int]
    ) -> tuple[list[float], dict[int, list[float]]]:
        """The samples' weights, and each rank's chance of winning against each sample,
        playing to win against a careful player
        (:func:`cribcli.players.careful.win_against`)."""
        held = tuple(sorted(card.rank for card in view.hand))
        pile = pile_ranks(view)
        other_out = (1 - view.seat) in view.passed
        score_needs = needs(view)
        seen = _seen_ranks(view)
        weights: list[float] = []
        chances: dict[int, list[float]] = {rank: [] for rank in ranks}
        for (their_held, their_thrown), weight in samples.items():
            weights.append(weight)
            shows = shows_after_play(view, their_held, their_thrown)
            unseen = unseen_after((*seen, *their_held, *their_thrown))
            for rank in ranks:
                chances[rank].append(
                    win_against(
                        rank,
                        held,
                        their_held,
                        pile,
                        view.count,
                        other_out,
                        unseen,
                        score_needs,
                        shows,
                        self.objective,
                    )
                )
        return weights, chances

    def _sample_hands(self, view: View) -> Hands:
        """:data:`PLAY_DEALS` hands the other player could hold and what it threw, as
        ranks, each weighing 1.

        Each is drawn to fit every go it said, with two more unseen cards for what it
        threw; :data:`CANDIDATES` times as many are drawn, each weighed by how well it fits
        what the other did (:meth:`Reading.weights`), and :data:`PLAY_DEALS` are drawn
        again from them by those weights, so that the search spends its time on the
        hands that fit.
        """
        other = 1 - view.seat
        size = view.held[other]
        # A go at count c means every card it held then (so every card it holds now) had a
        # value over 31 - c.
        floor = max((COUNT_LIMIT - count for seat, count in view.gos if seat == other), default=0)
        unseen = [card.rank for card in unseen_by(view)]
        # The cards are drawn by their places among those unseen: the same draws as of
        # the cards themselves, and what is left for the throw is a copy less a few.
        pool = [place for place, rank in enumerate(unseen) if value(rank) > floor]
        if len(pool) < size:
            return []
        stream = self._stream(view, "play")
        reading = Reading.of(view)
        return reading.hands(unseen, pool, size, PLAY_DEALS * CANDIDATES, PLAY_DEALS, stream)


def pick_throw(options: Sequence[Option]) -> Option:
    """The throw hard makes of ``options``: the most points, or near the end (when they
    have chances) the most points of those within :data:`CLOSE` of the best chance."""
    if options[0].chance is not None:
        best = max(option.chance or 0.0 for option in options)
        options = [o for o in options if (o.chance or 0.0) >= best - CLOSE]
    return max(options, key=lambda o: o.net)


def discard_options(
    view: View, objective: Objective = Objective.WIN, habits: Habits | None = None
) -> list[Option]:
    """Every discard as hard values it, in the order of :func:`analyse` (best exact net
    first): with two players, hand, crib against the other's throw (as the other has
    been read to throw, :mod:`cribcli.players.habits`, or as ``habits`` say: a good
    player's until a deal is shown), and pegging, and
    near the end the chance of winning too (for game points, what the game is worth; for
    spread, never); with three or four, the exact net alone."""
    from cribcli.rules.analysis import analyse

    values = analyse(view.hand, dealer=view.is_dealer, players=view.rules.players)
    if view.rules.players != 2:
        return [Option(value.net, value.crib, value) for value in values]
    options = []
    read = Habits.of(view) if habits is None else habits
    throwers = [(style.crib_table, chance) for style, chance in read.noticed]
    for option in values:
        crib = option.crib + cribs.mixed_bias(option.discard, view.is_dealer, throwers)
        net = option.hand + (crib if view.is_dealer else -crib)
        net += PEGGING * pegs.edge(option.keep, dealer=view.is_dealer)
        options.append(Option(net, crib, option))
    mine, theirs = needs(view)
    if min(mine, theirs) > ENDGAME or objective is Objective.SPREAD:
        return options
    typical = odds.typical_crib()

    def chance(option: Option) -> float:
        scores = dict(option.value.hand_scores)
        hand = odds.spread([scores.get(n, 0.0) for n in range(MAX_SHOW + 1)])
        crib_spread = odds.shifted(typical, option.crib - odds.mean(typical))
        return odds.deal_chance(mine, theirs, view.is_dealer, hand, crib_spread, objective)

    return [option._replace(chance=chance(option)) for option in options]


def _lay_totals(view: View, samples: Counter[Sample], ranks: list[int]) -> dict[int, float]:
    """Each rank's net points over the sampled hands, weighted (the sum, not the mean),
    the other laying as a careful player does from what it can know: its own cards, what
    it threw, and the cards laid (:func:`cribcli.players.careful.against`)."""
    held = tuple(sorted(card.rank for card in view.hand))
    pile = pile_ranks(view)
    other_out = (1 - view.seat) in view.passed
    seen = _seen_ranks(view)
    totals = dict.fromkeys(ranks, 0.0)
    for (their_held, their_thrown), weight in samples.items():
        unseen = unseen_after((*seen, *their_held, *their_thrown))
        for rank in ranks:
            net = against(rank, held, their_held, pile, view.count, other_out, unseen)
            totals[rank] += weight * net
    return totals


def _seen_ranks(view: View) -> tuple[int, ...]:
    """The ranks the other player has seen besides its own cards: the starter and the
    cards laid (its own among them; the sampled hands add the rest of its own)."""
    assert view.starter is not None
    return (view.starter.rank, *(card.rank for _, card in view.plays))


SURE = 2.0
"""Near the end, a card is laid for its chance of winning over the card worth most points
only when its chance is really higher: by more than :data:`CLOSE`, and by more than this
many standard errors or in no sampled hand lower. Over 60 sampled hands, a difference
within the sampling's own wobble would throw points away on noise."""


def surer(by_points: int, chances: dict[int, list[float]], weights: list[float]) -> int:
    """The rank to lay near the end: the one worth most points (``by_points``), unless
    another's chance of winning, sample by sample against the same hands, is really
    higher (see :data:`SURE`); then the likeliest to win of those."""
    gains = {}
    for rank, theirs in chances.items():
        differences = [a - b for a, b in zip(theirs, chances[by_points], strict=True)]
        gain = _mean(differences, weights)
        real = gain > SURE * _error(differences, weights) or min(differences) > -1e-9
        if rank != by_points and gain > CLOSE and real:
            gains[rank] = gain
    return max(gains, key=lambda rank: (gains[rank], -rank)) if gains else by_points


def _mean(values: list[float], weights: list[float]) -> float:
    return sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)


def _error(values: list[float], weights: list[float]) -> float:
    """The standard error of the weighted mean of ``values`` (as many samples as the
    weights are worth: Kish's effective size)."""
    mean = _mean(values, weights)
    spread = _mean([(v - mean) ** 2 for v in values], weights)
    effective = sum(weights) ** 2 / sum(w * w for w in weights)
    return math.sqrt(spread / max(effective - 1, 1))


def shows_after_play(
    view: View, their_held: tuple[int, ...], their_thrown: tuple[int, ...]
) -> tuple[int, int, bool]:
    """What the shows will bring, if the other player holds ``their_held`` and threw
    ``their_thrown`` (ranks): this seat's show, the other's, and whether this seat deals
    (the crib counted with the dealer's hand). Its own hand is counted in full; the other
    cards' suits are unknown, so the other hand and the crib count fifteens, pairs and
    runs, and his nobs only for a jack this seat threw."""
    assert view.starter is not None
    starter = view.starter
    table = rank_table()
    laid = tuple(card.rank for seat, card in view.plays if seat != view.seat)
    their_show = table[rank_key((*laid, *their_held, starter.rank))]
    thrown = tuple(card.rank for card in view.discards)
    crib = table[rank_key((*thrown, *their_thrown, starter.rank))]
    if any(card.rank == JACK and card.suit is starter.suit for card in view.discards):
        crib += 1  # his nobs, known
    my_show = show_total(view.kept, starter)
    if view.is_dealer:
        return my_show + crib, their_show, True
    return my_show, their_show + crib, False


def needs(view: View) -> tuple[int, int]:
    """The points this seat's side still needs, and the other side's (two players)."""
    side = view.rules.side_of(view.seat)
    return (
        view.rules.target - view.scores[side],
        view.rules.target - view.scores[1 - side],
    )


def warm(endgame: bool, objectives: Iterable[Objective] = (Objective.WIN,)) -> None:
    """Work out now the tables the hard computer reads in every deal of two players (the
    values of the throws and keeps, the pegging; near the end, ``endgame``, the chances
    of winning too, for each of ``objectives``): before worker processes fork, so that
    each inherits them rather than working them out again."""
    for style in Style:
        if style.crib_table is not None:
            cribs.table(style.crib_table)
    pegs.table()
    # Each is worked out as it is first read.
    for two in combinations_with_replacement(range(1, 14), 6 - KEPT_SIZE):
        _ = CRIBS[True][two], CRIBS[False][two]
    for four in combinations_with_replacement(range(1, 14), KEPT_SIZE):
        _ = KEPT_VALUES[four]
    if endgame:
        odds.warm(objectives)
