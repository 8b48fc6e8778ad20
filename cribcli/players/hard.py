"""The hard computer: deals out the crib in its head, and searches the rest of the play.

Discarding, it values each discard's crib against what the other player would likely
throw (it deals the other player many hands from the unseen cards and lets each throw the
two cards that keep its best hand), not only against random cards, and it weighs how the
kept cards will peg. In the play (two players) it deals the other player many hands that
fit everything seen so far (the cards laid, and every go: a go means each card then held
would have passed 31), plays the rest of the play out against each with both sides at
their best, and lays the card with the best average.

Near the end (either side within :data:`ENDGAME` points) it plays to win, not for points:
it takes a sure point that wins; it discards for the best chance of winning (the chance of
each score its hand can make, against the pegging, hand and crib a deal usually brings:
:mod:`cribcli.players.odds`); and it searches the play for the card that wins most often,
each side playing to win, the shows after it counted in order (the pone first). Among
cards that win equally often it takes the one worth most points. With three or four
players it pegs like the normal computer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations

from cribcli.analysis import DiscardValue, analyse
from cribcli.cards import Card, SeededStream
from cribcli.engine import View
from cribcli.players import odds
from cribcli.players.normal import NormalPlayer, pile_ranks, unseen_by
from cribcli.players.pegging import LIMIT, after_play, lay_chance, points, value
from cribcli.scoring import rank_key, rank_table, show_total

CRIB_DEALS = 24
"""Hands dealt to the other player, in its head, to see what it throws."""
PLAY_DEALS = 60
"""Hands dealt to the other player, in its head, for the search of the play."""
ENDGAME = 60
"""Within this many points of the end (either side), it plays to win, not for points."""


class HardPlayer(NormalPlayer):
    """Discards against a likely crib; pegs by searching sampled hands."""

    def _stream(self, view: View, what: str) -> SeededStream:
        # One stream per decision, named by where the game stands, so a resumed game
        # decides exactly as an unbroken one.
        return SeededStream(
            self.seed, f"hard {self.seat} round {view.round} {what} {len(view.plays)}"
        )

    def discard(self, view: View) -> tuple[Card, ...]:
        """The discard with the best hand, likely crib and pegging, taken together; near
        the end, the one most likely to win."""
        values = analyse(view.hand, dealer=view.is_dealer, players=view.rules.players)
        if view.rules.players != 2:
            return values[0].discard
        unseen = unseen_by(view)
        throws = self._likely_throws(view, unseen)
        options = []
        for option in values[:8]:  # the rest are far behind on exact value
            crib = _crib_against(option.discard, throws, unseen)
            # Half the crib from the other's likely throws, half the exact uniform model:
            # the throws are a sample, and players are not all alike.
            crib = (crib + option.crib) / 2
            net = option.hand + (crib if view.is_dealer else -crib)
            net += pegging_value(option.keep, view.is_dealer)
            options.append((net, crib, option))
        mine, theirs = needs(view)
        if min(mine, theirs) <= ENDGAME:
            typical = odds.typical_crib()

            def chance(net: float, crib: float, option: DiscardValue) -> float:
                hand = odds.spread([dict(option.hand_scores).get(n, 0.0) for n in range(30)])
                crib_spread = odds.shifted(typical, crib - odds.mean(typical))
                return odds.deal_chance(mine, theirs, view.is_dealer, hand, crib_spread)

            return max(options, key=lambda o: (round(chance(*o), 6), o[0]))[2].discard
        return max(options, key=lambda o: o[0])[2].discard

    def _likely_throws(self, view: View, unseen: list[Card]) -> list[tuple[Card, ...]]:
        """What the other player might throw: deal it hands and keep its best four."""
        stream = self._stream(view, "crib")
        throws = []
        for _ in range(CRIB_DEALS):
            pool = list(unseen)
            stream.shuffle(pool)
            hand = pool[:6]
            rest = [card for card in unseen if card not in hand]
            keep = max(combinations(hand, 4), key=lambda four: _quick_hand(four, rest))
            throws.append(tuple(card for card in hand if card not in keep))
        return throws

    def play(self, view: View) -> Card:
        """The card with the best average over sampled hands of the other player."""
        options = view.playable()
        if len(options) == 1 or view.rules.players != 2:
            return super().play(view)
        mine, theirs = needs(view)
        pile = pile_ranks(view)
        winners = [
            c for c in options if points(pile + (c.rank,), view.count + value(c.rank)) >= mine
        ]
        if winners:
            return winners[0]
        samples = self._sample_hands(view)
        if not samples:
            return super().play(view)
        other_out = (1 - view.seat) in view.passed
        held = tuple(sorted(card.rank for card in view.hand))
        ranks = sorted({card.rank for card in options})
        if min(mine, theirs) <= ENDGAME:
            ranks = self._likeliest_wins(view, samples, ranks)
        hands: Counter[tuple[int, ...]] = Counter()
        for (their_held, _), weight in samples.items():
            hands[their_held] += weight
        totals: Counter[int] = Counter()
        for their_held, weight in hands.items():
            for rank in ranks:
                totals[rank] += weight * after_play(
                    rank, held, their_held, pile, view.count, other_out
                )
        best_rank = max(ranks, key=lambda rank: (totals[rank], -rank))
        return next(card for card in options if card.rank == best_rank)

    def _likeliest_wins(
        self,
        view: View,
        samples: Counter[tuple[tuple[int, ...], tuple[int, ...]]],
        ranks: list[int],
    ) -> list[int]:
        """The ranks that win the game most often, playing to win against each sample."""
        assert view.starter is not None
        starter = view.starter.rank
        table = rank_table()
        my_show = show_total(view.kept, view.starter)
        thrown = tuple(card.rank for card in view.discards)
        laid = tuple(card.rank for seat, card in view.plays if seat != view.seat)
        held = tuple(sorted(card.rank for card in view.hand))
        pile = pile_ranks(view)
        other_out = (1 - view.seat) in view.passed
        chances = dict.fromkeys(ranks, 0.0)
        for (their_held, their_thrown), weight in samples.items():
            their_show = table[rank_key((*laid, *their_held, starter))]
            crib = table[rank_key((*thrown, *their_thrown, starter))]
            shows = (
                (my_show + crib, their_show, True)
                if view.is_dealer
                else (my_show, their_show + crib, False)
            )
            for rank in ranks:
                chances[rank] += weight * lay_chance(
                    rank, held, their_held, pile, view.count, other_out, needs(view), shows
                )
        best = max(chances.values())
        return [rank for rank in ranks if chances[rank] >= best - 1e-9 * sum(samples.values())]

    def _sample_hands(self, view: View) -> Counter[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Hands the other player could hold and what it threw, as ranks, with how likely
        each is.

        Each is drawn to fit every go it said, with two more unseen cards for what it
        threw; a hand it would have kept from those six (its best four, by ranks) counts
        in full, any other a little, since players do not all keep alike.
        """
        other = 1 - view.seat
        size = view.held[other]
        # A go at count c means every card it held then (so every card it holds now) had a
        # value over 31 - c.
        floor = max((LIMIT - count for seat, count in view.gos if seat == other), default=0)
        unseen = unseen_by(view)
        pool = [card for card in unseen if value(card.rank) > floor]
        if len(pool) < size:
            return Counter()
        laid = tuple(card.rank for seat, card in view.plays if seat == other)
        stream = self._stream(view, "play")
        samples: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
        for _ in range(PLAY_DEALS):
            stream.shuffle(pool)
            held = pool[:size]
            rest = [card for card in unseen if card not in held]
            first = stream.below(len(rest))
            second = stream.below(len(rest) - 1)
            second += second >= first  # two different cards
            thrown = (rest[first].rank, rest[second].rank)
            kept = laid + tuple(card.rank for card in held)
            likely = sorted(max(combinations(kept + thrown, 4), key=kept_value)) == sorted(kept)
            samples[tuple(sorted(card.rank for card in held)), tuple(sorted(thrown))] += (
                10 if likely else 1
            )
        return samples


def needs(view: View) -> tuple[int, int]:
    """The points this seat's side still needs, and the other side's (two players)."""
    side = view.rules.side_of(view.seat)
    return (
        view.rules.target - view.scores[side],
        view.rules.target - view.scores[1 - side],
    )


@lru_cache(maxsize=4096)
def _kept_value(ranks: tuple[int, ...]) -> float:
    table = rank_table()
    key = rank_key(ranks)
    counts = Counter(ranks)
    total = weight = 0.0
    for starter in range(1, 14):
        left = 4 - counts[starter]
        total += left * table[key + rank_key((starter,))]
        weight += left
    return total / weight


def kept_value(four: Iterable[int]) -> float:
    """Four ranks' average show over the starters (fifteens, pairs and runs only)."""
    return _kept_value(tuple(sorted(four)))


def _quick_hand(four: tuple[Card, ...], starters: list[Card]) -> float:
    """A hand's average show over a few starters: enough to guess what a player keeps."""
    return sum(show_total(four, starter) for starter in starters[::4])


def _crib_against(
    thrown: tuple[Card, ...], throws: list[tuple[Card, ...]], unseen: list[Card]
) -> float:
    """The crib's average with ``thrown`` and each likely throw, over the possible starters."""
    total = 0.0
    count = 0
    for theirs in throws:
        crib = [*thrown, *theirs]
        for starter in unseen[::3]:
            if starter in theirs:
                continue
            total += show_total(crib, starter, crib=True)
            count += 1
    return total / count if count else 0.0


def pegging_value(keep: tuple[Card, ...], dealer: bool) -> float:
    """A small allowance for how kept cards peg: low cards and pairs peg well; a pone
    holding a 5 has a poor lead, and the dealer pegs last, which suits high cards less."""
    ranks = Counter(card.rank for card in keep)
    low = sum(1 for card in keep if card.value <= 4)
    pairs = sum(n * (n - 1) // 2 for n in ranks.values())
    value_ = 0.12 * low + 0.2 * pairs
    if not dealer and all(card.rank == 5 or card.value >= 10 for card in keep):
        value_ -= 0.3
    return value_
