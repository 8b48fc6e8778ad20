"""The chance of winning the game from a score, for playing to the score near the end.

How many points a deal gives (each side's pegging, the pone's hand, the dealer's hand, the
crib) is taken from many computer games (``tools/deal_odds.py`` counted them, in
``data/deal_points.json``).
From those, a table gives the chance that the dealer of the next deal wins, for every pair
of points still needed: the pegging comes first (where both could peg out, either is as
likely to get there first), then the pone's hand, then the dealer's hand and crib, and if
nobody is home the deal passes. Sources are taken as independent, except that a deal
never pegs nothing for both (the last card always scores).

The hard computer uses it in the last deals: to choose the discard with the best chance of
winning rather than the most points, and to search the play for the card that wins most
often.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from operator import mul
from typing import Final, NamedTuple

from cribcli.players import measured
from cribcli.players.base import Objective
from cribcli.rules.engine import SKUNK_MARGIN
from cribcli.rules.events import game_points
from cribcli.rules.targets import FULL_GAME

Spread = tuple[float, ...]
"""A score's chances: ``spread[points]``."""

SOURCES: Final = ("dealer pegging", "pone pegging", "pone hand", "dealer hand", "crib")
"""The five sources of a deal's points, in the order they come."""


@cache
def counts() -> dict[str, tuple[int, ...]]:
    """How often each source scored 0, 1, 2... points a deal, over the games tallied by
    ``tools/deal_odds.py`` (``data/deal_points.json``, added up over its blocks)."""
    blocks = measured.read("deal_points.json")["blocks"].values()
    totals: dict[str, list[int]] = {source: [] for source in SOURCES}
    for block in blocks:
        for source in SOURCES:
            total = totals[source]
            for points, n in enumerate(block[source]):
                if points == len(total):
                    total.append(0)
                total[points] += n
    return {source: tuple(total) for source, total in totals.items()}


GAME: Final = FULL_GAME
"""The longest game the table covers; a longer need is read as this one."""


def spread(counts: Sequence[float]) -> Spread:
    """Counts (or weights) of each score as chances."""
    total = sum(counts)
    return tuple(count / total for count in counts)


def combined(first: Spread, second: Spread) -> Spread:
    """The spread of the sum of two independent scores."""
    out = [0.0] * (len(first) + len(second) - 1)
    for i, p in enumerate(first):
        if p:
            for j, q in enumerate(second):
                out[i + j] += p * q
    return tuple(out)


def shifted(chances: Spread, by: float) -> Spread:
    """The spread moved ``by`` points (a fraction splits between the two neighbours);
    nothing falls below zero."""
    whole = int(by // 1)
    part = by - whole
    out = [0.0] * (len(chances) + max(whole, 0) + 1)
    for points, p in enumerate(chances):
        for moved, weight in ((points + whole, 1 - part), (points + whole + 1, part)):
            out[min(max(moved, 0), len(out) - 1)] += p * weight
    return tuple(out)


def mean(chances: Spread) -> float:
    """The average score."""
    return sum(points * p for points, p in enumerate(chances))


@lru_cache(maxsize=1)
def _spreads() -> tuple[Spread, Spread, Spread, Spread, Spread]:
    dealer_peg, pone_peg, pone_hand, dealer_hand, crib = (spread(counts()[s]) for s in SOURCES)
    return dealer_peg, pone_peg, pone_hand, dealer_hand, crib


def typical_crib() -> Spread:
    """The crib's score spread over the games tallied."""
    return _spreads()[4]


@lru_cache(maxsize=1)
def _table() -> list[list[float]]:
    """``table[a][b]``: the chance the dealer wins, needing ``a``, the pone needing ``b``."""
    dealer_peg, pone_peg, pone_hand, dealer_hand, crib = _spreads()
    dealer_show = combined(dealer_hand, crib)
    nothing = dealer_peg[0] * pone_peg[0]
    size = GAME + 1
    win = [[0.0] * size for _ in range(size)]  # [a][b]
    lose = [[0.0] * size for _ in range(size)]  # [a][b]: 1 - win[a][b], as it is filled in
    after_pegging = [[0.0] * size for _ in range(size)]  # [a][b], before the pone's hand
    after_pone = [[0.0] * size for _ in range(size)]  # [a][b], before the dealer's show
    pone_pegs = [[0.0] * size for _ in range(size)]  # [b][a], pone's pegging to come
    pone_scores = [[0.0] * size for _ in range(size)]  # [a][b], the part where it scores
    dealer_out = [sum(dealer_peg[points:]) for points in range(size)]
    pone_out = [sum(pone_peg[points:]) for points in range(size)]
    show_out = [sum(dealer_show[points:]) for points in range(size)]
    # The sums below take the same products in the same order as sums over zip() would
    # (map stops at the shorter too), without a generator's cost for each.
    dealer_scored, pone_scored = dealer_peg[1:], pone_peg[1:]  # a point or more
    for total in range(2, 2 * GAME + 1):
        pairs = [(a, total - a) for a in range(max(1, total - GAME), min(GAME, total - 1) + 1)]
        for a, b in pairs:
            pone_scores[a][b] = sum(map(mul, pone_scored, after_pegging[a][b - 1 : 0 : -1]))
        for a, b in pairs:
            rest = sum(map(mul, dealer_scored, pone_pegs[b][a - 1 : 0 : -1]))
            rest += dealer_peg[0] * pone_scores[a][b]
            # both home in the play: a toss-up who gets there first
            home = dealer_out[a] * (1 - pone_out[b] / 2)
            win[a][b] = (home + rest) / (1 - nothing)
            lose[a][b] = 1 - win[a][b]
        for a, b in pairs:
            after_pone[a][b] = show_out[a] + sum(map(mul, dealer_show, lose[b][a:0:-1]))
        for a, b in pairs:
            after_pegging[a][b] = sum(map(mul, pone_hand, after_pone[a][b:0:-1]))
            pone_pegs[b][a] = pone_peg[0] * after_pegging[a][b] + pone_scores[a][b]
    return win


@lru_cache(maxsize=1)
def _losing() -> list[list[float]]:
    """``1 - table[a][b]``: the chance the pone wins (each worked out once)."""
    return [[1 - chance for chance in row] for row in _table()]


def warm(objectives: Iterable[Objective] = (Objective.WIN,)) -> None:
    """Work out the table of chances now (else the first chance asked of it does), and
    those of the other ``objectives``: before worker processes fork, so that each
    inherits them rather than working them out again."""
    _losing()
    for objective in objectives:
        _values(objective)


# --- the outcomes: skunks too ---------------------------------------------------------

SKUNKED: Final = SKUNK_MARGIN
"""A side still needing more than this when the other goes out is skunked (under 91 of
121, under 31 of 61)."""
WON, SKUNKING = game_points(0, ("", ""))[0], game_points(0, ("", "skunk"))[0]
"""Game points for a win, and for a win with a skunk (the ACC's 2 and 3; a double skunk
counts no more)."""


def end_value(objective: Objective, won: bool, loser_need: int) -> float:
    """What the end of a game is worth to a side, from 0 to 1, as ``objective`` counts:
    winning 1 and losing 0; for game points, the game points won less those lost, made
    to run from 0 (skunked) to 1 (skunking): a win 5/6, a skunk 1, a loss 1/6."""
    if objective is not Objective.GAME_POINTS:
        return 1.0 if won else 0.0
    points = SKUNKING if loser_need > SKUNKED else WON
    return (SKUNKING + (points if won else -points)) / (2 * SKUNKING)


@lru_cache(maxsize=1)
def _skunks() -> tuple[list[list[float]], list[list[float]]]:
    """``skunks[a][b]``: the chance the dealer wins with the pone skunked, needing ``a``,
    the pone ``b``; ``skunked[a][b]``: the chance the pone wins with the dealer skunked.
    Worked out as :func:`_table` works out the chance of winning, from the same sources
    taken alike (where both could peg out, neither is skunked; a side that pegs out
    finds the other needing what it needed less all it pegs in the deal), each end of
    the game marked by whether the loser needs more than :data:`SKUNKED`. A side
    needing :data:`SKUNKED` or less can no longer be skunked, so those cells are 0."""
    dealer_peg, pone_peg, pone_hand, dealer_hand, crib = _spreads()
    dealer_show = combined(dealer_hand, crib)
    nothing = dealer_peg[0] * pone_peg[0]
    size = GAME + 1
    skunks = [[0.0] * size for _ in range(size)]  # [a][b]
    skunked = [[0.0] * size for _ in range(size)]  # [a][b]
    peg_s = [[0.0] * size for _ in range(size)]  # [b][a]: the pone's pegging to come, ...
    peg_t = [[0.0] * size for _ in range(size)]  # ... then the rest (all its pegging)
    scored_s = [[0.0] * size for _ in range(size)]  # [a][b]: the part where the pone scores
    scored_t = [[0.0] * size for _ in range(size)]
    after_peg_s = [[0.0] * size for _ in range(size)]  # [a][b], before the pone's hand
    after_peg_t = [[0.0] * size for _ in range(size)]
    after_pone_s = [[0.0] * size for _ in range(size)]  # [a][b], before the dealer's show
    after_pone_t = [[0.0] * size for _ in range(size)]
    dealer_out = [sum(dealer_peg[points:]) for points in range(size)]
    pone_out = [sum(pone_peg[points:]) for points in range(size)]
    show_out = [sum(dealer_show[points:]) for points in range(size)]
    hand_out = [sum(pone_hand[points:]) for points in range(size)]
    below = [sum(pone_peg[:points]) for points in range(size)]  # pegging under so many
    dealer_below = [sum(dealer_peg[:points]) for points in range(size)]
    dealer_scored, pone_scored = dealer_peg[1:], pone_peg[1:]
    for total in range(2, 2 * GAME + 1):
        pairs = [(a, total - a) for a in range(max(1, total - GAME), min(GAME, total - 1) + 1)]
        for a, b in pairs:
            scored_s[a][b] = sum(map(mul, pone_scored, after_peg_s[a][b - 1 : 0 : -1]))
            scored_t[a][b] = sum(map(mul, pone_scored, after_peg_t[a][b - 1 : 0 : -1]))
        for a, b in pairs:
            # the dealer pegs out, the pone still short by more than SKUNKED
            home_s = dealer_out[a] * below[max(b - SKUNKED, 0)]
            # the pone pegs out, the dealer still short by more than SKUNKED
            home_t = pone_out[b] * dealer_below[max(a - SKUNKED, 0)]
            rest_s = sum(map(mul, dealer_scored, peg_s[b][a - 1 : 0 : -1]))
            rest_s += dealer_peg[0] * scored_s[a][b]
            rest_t = sum(map(mul, dealer_scored, peg_t[b][a - 1 : 0 : -1]))
            rest_t += dealer_peg[0] * scored_t[a][b]
            skunks[a][b] = (home_s + rest_s) / (1 - nothing)
            skunked[a][b] = (home_t + rest_t) / (1 - nothing)
        for a, b in pairs:
            # the dealer's show home (the pone skunked if it needs more), or the next
            # deal, dealt by the pone: its skunks are the old dealer's skunked
            home = show_out[a] if b > SKUNKED else 0.0
            after_pone_s[a][b] = home + sum(map(mul, dealer_show, skunked[b][a:0:-1]))
            after_pone_t[a][b] = sum(map(mul, dealer_show, skunks[b][a:0:-1]))
        for a, b in pairs:
            after_peg_s[a][b] = sum(map(mul, pone_hand, after_pone_s[a][b:0:-1]))
            home = hand_out[b] if a > SKUNKED else 0.0  # the pone's hand home
            after_peg_t[a][b] = home + sum(map(mul, pone_hand, after_pone_t[a][b:0:-1]))
            peg_s[b][a] = pone_peg[0] * after_peg_s[a][b] + scored_s[a][b]
            peg_t[b][a] = pone_peg[0] * after_peg_t[a][b] + scored_t[a][b]
    return skunks, skunked


class Outcomes(NamedTuple):
    """The chances of a game's ends, for the dealer of the next deal."""

    win: float
    skunk: float
    """That it wins with the other side skunked (a part of ``win``)."""
    skunked: float
    """That it loses, skunked."""


def outcomes(dealer_need: int, pone_need: int) -> Outcomes:
    """The chances of each end of the game for the dealer of a deal about to be dealt:
    winning, winning with a skunk, being skunked (losing is ``1 - win``)."""
    if dealer_need <= 0:
        return Outcomes(1.0, float(pone_need > SKUNKED), 0.0)
    if pone_need <= 0:
        return Outcomes(0.0, 0.0, float(dealer_need > SKUNKED))
    a, b = min(dealer_need, GAME), min(pone_need, GAME)
    skunks, skunked = _skunks()
    return Outcomes(_table()[a][b], skunks[a][b], skunked[a][b])


@lru_cache(maxsize=2)
def _values(objective: Objective) -> tuple[list[list[float]], list[list[float]]]:
    """``values[a][b]``: what the game is worth to the dealer of the next deal as
    ``objective`` counts (:func:`end_value`), needing ``a``, the pone ``b``; and
    ``1 - values`` (to the pone). For winning, the table of chances itself."""
    if objective is not Objective.GAME_POINTS:
        return _table(), _losing()
    skunks, skunked = _skunks()
    extra = SKUNKING - WON  # a skunk's game point more

    def worth(win: float, skunk: float, skunked: float) -> float:
        return (WON * (2 * win - 1) + extra * (skunk - skunked) + SKUNKING) / (2 * SKUNKING)

    values = [
        [worth(*cell) for cell in zip(*rows, strict=True)]
        for rows in zip(_table(), skunks, skunked, strict=True)
    ]
    return values, [[1 - value for value in row] for row in values]


def dealer_chance(dealer_need: int, pone_need: int, objective: Objective = Objective.WIN) -> float:
    """The chance the dealer of a deal about to be dealt wins the game (for game points,
    what the game is worth to it: :func:`end_value`)."""
    if dealer_need <= 0:
        return end_value(objective, True, pone_need)
    if pone_need <= 0:
        return end_value(objective, False, dealer_need)
    return _values(objective)[0][min(dealer_need, GAME)][min(pone_need, GAME)]


def after_play(
    mine: int,
    theirs: int,
    my_show: int,
    their_show: int,
    dealer: bool,
    objective: Objective = Objective.WIN,
) -> float:
    """The chance of winning once the play is over, needing ``mine`` (the other side
    ``theirs``), with the shows known: the pone counts first, then the dealer, and if
    neither is home the other side deals next (for game points, what the game is worth:
    :func:`end_value`)."""
    if dealer:
        if their_show >= theirs:
            return end_value(objective, False, mine)
        if my_show >= mine:
            return end_value(objective, True, theirs - their_show)
        return 1 - dealer_chance(theirs - their_show, mine - my_show, objective)
    if my_show >= mine:
        return end_value(objective, True, theirs)
    if their_show >= theirs:
        return end_value(objective, False, mine - my_show)
    return dealer_chance(mine - my_show, theirs - their_show, objective)


def deal_chance(
    mine: int,
    theirs: int,
    dealer: bool,
    hand: Spread,
    crib: Spread,
    objective: Objective = Objective.WIN,
) -> float:
    """The chance of winning a deal about to be played, needing ``mine`` (the other side
    ``theirs``), with ``hand`` the spread of the hand kept and ``crib`` of the crib (for
    game points, what the game is worth: :func:`end_value`).

    The pegging and the other side's hand are the tallied ones.
    """
    dealer_peg, pone_peg, pone_hand, dealer_hand, _ = _spreads()
    if dealer:
        my_peg, their_peg = dealer_peg, pone_peg
        my_show, their_show = combined(hand, crib), pone_hand
    else:
        my_peg, their_peg = pone_peg, dealer_peg
        my_show, their_show = hand, combined(dealer_hand, crib)
    first, second = (their_show, my_show) if dealer else (my_show, their_show)
    pone_shows = [(points, p) for points, p in enumerate(first) if p]

    losing = _values(objective)[1]
    shown: dict[int, float] = {}  # the dealer's show, by the needs (see _after_pegging)
    pegged: dict[int, float] = {}  # the shows, by the needs once the pegging is over
    total = 0.0
    for my_points, p in enumerate(my_peg):
        for their_points, q in enumerate(their_peg):
            weight = p * q
            if not weight:
                continue
            dealer_home = my_points >= mine if dealer else their_points >= theirs
            pone_home = their_points >= theirs if dealer else my_points >= mine
            if dealer_home and pone_home:
                total += weight / 2  # who is home first: a toss-up
            elif dealer_home:  # (the other side short by all it pegged)
                left = theirs - their_points if dealer else mine - my_points
                total += weight * end_value(objective, dealer, left)
            elif pone_home:
                left = mine - my_points if dealer else theirs - their_points
                total += weight * end_value(objective, not dealer, left)
            else:
                # each pair of needs once: the dictionaries stand in for a cache
                needs = (mine - my_points) << 16 | (theirs - their_points)
                chance = pegged.get(needs)
                if chance is None:
                    chance = _after_pegging(
                        mine - my_points, theirs - their_points, dealer, objective,
                        pone_shows, second, losing, shown,
                    )  # fmt: skip
                    pegged[needs] = chance
                total += weight * chance
    return total


def _after_pegging(
    mine: int,
    theirs: int,
    dealer: bool,
    objective: Objective,
    pone_shows: list[tuple[int, float]],
    second: Spread,
    losing: list[list[float]],
    shown: dict[int, float],
) -> float:
    """The pegging over, neither side home, needing ``mine`` and ``theirs``: the pone's
    show (``pone_shows``: each score it can make, with its chance), then the dealer's
    (``second``: its spread), as chances of winning for me. ``shown`` keeps the dealer's
    show's chances met, by the needs."""
    pone_need, dealer_need = (theirs, mine) if dealer else (mine, theirs)
    if_pone_home = end_value(objective, not dealer, dealer_need)  # mine
    chance = 0.0
    for points, p in pone_shows:
        if points >= pone_need:
            chance += p * if_pone_home
            continue
        # the dealer's hand and crib, then the next deal, dealt by the pone: the pone
        # deals needing what it still needs (> 0), so its row of the table gives the chances
        still = pone_need - points
        needs = still << 16 | dealer_need
        dealt = shown.get(needs)
        if dealt is None:
            home = end_value(objective, True, still)
            dealt = _dealer_shows(second, losing[min(still, GAME)], dealer_need, home)
            dealt = dealt if dealer else 1 - dealt
            shown[needs] = dealt
        chance += p * dealt
    return chance


def _dealer_shows(shown: Spread, lose: list[float], need: int, home: float = 1.0) -> float:
    """The chance the dealer, needing ``need``, wins by its show (``shown``: its spread),
    or else later, ``lose`` giving the chance that the pone, dealing next, loses from
    each need of the dealer's (for game points, the worth of each: ``home`` that of
    going out on the show).

    Added up in the order of the points shown, each score that falls short first (the
    chance of it times ``lose`` at what is still needed), then each that is home: the
    same sum, bit for bit, as adding each nonzero term in turn (a score never shown adds
    0.0, which changes no sum of chances), and the same on every Python (``sum()`` from
    Python 3.12 compensates for rounding, which changes the last bit)."""
    falls_short = min(need, len(shown))
    total = 0.0
    if need <= GAME:
        for points in range(falls_short):
            total += shown[points] * lose[need - points]
    else:  # a need the table does not reach: read as the longest game
        for points in range(falls_short):
            total += shown[points] * lose[min(need - points, GAME)]
    for points in range(falls_short, len(shown)):
        total += shown[points] * home
    return total


@cache
def point_chance(target: int = GAME) -> float:
    """What one point is worth in the chance of winning at the start of a game to
    ``target`` (the table's, dealer and pone alike): how many points a chance lost near the
    end is worth."""
    dealer = dealer_chance(target - 1, target) - dealer_chance(target, target)
    pone = dealer_chance(target, target) - dealer_chance(target, target - 1)
    return (dealer + pone) / 2
