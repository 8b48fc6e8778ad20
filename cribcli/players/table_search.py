"""The play searched at a table of three or four, for the review of a card laid there.

Each seat lays for its side: the card after which its side's points, less the other
sides' (their average, with three players), are the most over the rest of the play. The
turns follow the rules as the engine keeps them: a seat that cannot lay says go, the last
to lay takes the go point, and the next count is led by the seat after them. Cards are
ranks, as in :mod:`cribcli.players.pegging`; the other hands are dealt at random from
the cards the seat has not seen, each fitting every go its holder said.
"""

from __future__ import annotations

from functools import lru_cache
from math import sqrt

from cribcli.players.normal import unseen_by
from cribcli.players.pegging import last_point, points, scoring_tail, value
from cribcli.rules.cards import Card
from cribcli.rules.engine import View
from cribcli.rules.scoring import COUNT_LIMIT
from cribcli.rules.stream import SeededStream

Hands = tuple[tuple[int, ...], ...]
Points = tuple[int, ...]

MOST_DEALS = 400
"""The most hands dealt to the other seats for one lay, when twelve cards or fewer are
held; each card more held makes the search about three times as long, so a third as many
for each card more, down to :data:`FEWEST_DEALS` (about two seconds at most a lay)."""
FEWEST_DEALS = 10
"""The fewest dealt (a first lay at a table of four, sixteen cards held, searches about
0.2 s a deal). Hands are dealt in batches of a tenth of the most, at least this many."""
STEADY = 0.2
"""Dealing stops once the standard error of the points the laid card lost against the
best is below this (or the most are dealt): the rest of the play with two or three hands
unknown swings by two or three points a deal."""


def deals_for(held: int) -> int:
    """The most hands to deal the others when ``held`` cards are held at the table."""
    extra = max(held - 12, 0)
    return max(FEWEST_DEALS, MOST_DEALS // int(3**extra))


def lay_values(view: View, seed: int | str, laid: Card) -> dict[Card, float]:
    """What each card the seat can lay nets its side in the rest of the play, on average
    over hands dealt to the other seats that fit what the seat has seen; empty if none
    fits. Hands are dealt until what ``laid`` lost against the best is known to within
    :data:`STEADY` (see :func:`deals_for` for the most)."""
    seat, players = view.seat, view.rules.players
    sides = tuple(view.rules.side_of(n) for n in range(players))
    floors = {
        other: max((COUNT_LIMIT - count for who, count in view.gos if who == other), default=0)
        for other in range(players)
        if other != seat
    }
    unseen = unseen_by(view)
    stream = SeededStream(seed, f"table {seat} round {view.round} play {len(view.plays)}")
    pile = scoring_tail(tuple(card.rank for card in view.pile)) if view.pile else ()
    ranks = sorted({card.rank for card in view.playable()})
    totals = dict.fromkeys(ranks, 0.0)
    squares = dict.fromkeys(ranks, 0.0)
    """Of each rank's net less the laid card's, deal by deal: for the standard error."""
    dealt = 0
    most = deals_for(sum(view.held))
    batch = max(FEWEST_DEALS, most // 10)
    for tried in range(1, most + 1):
        stream.shuffle(unseen)
        hands = _deal(view, unseen, floors)
        if hands is not None:
            dealt += 1
            nets = {
                rank: side_net(
                    lay(hands, seat, rank, pile, view.count, view.passed, sides), seat, sides
                )
                for rank in ranks
            }
            for rank in ranks:
                totals[rank] += nets[rank]
                squares[rank] += (nets[rank] - nets[laid.rank]) ** 2
        if tried % batch == 0 and dealt > 1 and _steady(totals, squares, laid.rank, dealt):
            break
    if not dealt:
        return {}
    return {card: totals[card.rank] / dealt for card in view.playable()}


def _steady(totals: dict[int, float], squares: dict[int, float], laid: int, dealt: int) -> bool:
    """Whether the best rank's lead over ``laid`` is known to within :data:`STEADY`."""
    best = max(totals, key=lambda rank: totals[rank])
    mean = (totals[best] - totals[laid]) / dealt
    spread = max(squares[best] / dealt - mean * mean, 0.0) * dealt / (dealt - 1)
    return sqrt(spread / dealt) <= STEADY


def _deal(view: View, unseen: list[Card], floors: dict[int, int]) -> Hands | None:
    """The other seats' hands from the shuffled unseen cards, each card fitting its
    holder's gos (the strictest first); None if they cannot all be filled."""
    left = list(unseen)
    hands: dict[int, tuple[int, ...]] = {view.seat: tuple(sorted(c.rank for c in view.hand))}
    for other in sorted(floors, key=lambda n: -floors[n]):
        fits = [card for card in left if value(card.rank) > floors[other]]
        size = view.held[other]
        if len(fits) < size:
            return None
        taken = fits[:size]
        for card in taken:
            left.remove(card)
        hands[other] = tuple(sorted(card.rank for card in taken))
    return tuple(hands[n] for n in range(len(view.held)))


def side_net(result: Points, seat: int, sides: tuple[int, ...]) -> float:
    """The seat's side's points less the other sides' (their average, with three)."""
    ours = sum(p for n, p in enumerate(result) if sides[n] == sides[seat])
    theirs = sum(result) - ours
    return ours - theirs / (len(set(sides)) - 1)


def lay(
    hands: Hands,
    seat: int,
    rank: int,
    pile: tuple[int, ...],
    count: int,
    passed: frozenset[int],
    sides: tuple[int, ...],
) -> Points:
    """``seat`` lays ``rank``: the points each seat makes from here to the end of the
    play."""
    new_pile, new_count = pile + (rank,), count + value(rank)
    gained = points(new_pile, new_count)
    new_pile = scoring_tail(new_pile)
    mine = list(hands[seat])
    mine.remove(rank)
    after = hands[:seat] + (tuple(mine),) + hands[seat + 1 :]
    if new_count == COUNT_LIMIT:
        result = _end_count(after, seat, new_pile, new_count, sides)
    else:
        result = _next_turn(after, seat, new_pile, new_count, passed, sides)
    return result[:seat] + (result[seat] + gained,) + result[seat + 1 :]


@lru_cache(maxsize=400_000)
def rest(
    hands: Hands,
    seat: int,
    pile: tuple[int, ...],
    count: int,
    passed: frozenset[int],
    sides: tuple[int, ...],
) -> Points:
    """The rest of the play with ``seat`` to lay (it can), each seat laying for its side."""
    best: Points | None = None
    best_net = 0.0
    for rank in sorted({r for r in hands[seat] if count + value(r) <= COUNT_LIMIT}):
        result = lay(hands, seat, rank, pile, count, passed, sides)
        net = side_net(result, seat, sides)
        if best is None or net > best_net:
            best, best_net = result, net
    assert best is not None
    return best


def _next_turn(
    hands: Hands,
    last: int,
    pile: tuple[int, ...],
    count: int,
    passed: frozenset[int],
    sides: tuple[int, ...],
) -> Points:
    """After ``last`` laid: the next seat that can lay does; those that cannot say go."""
    players = len(hands)
    out = set(passed)
    for step in range(1, players + 1):
        seat = (last + step) % players
        if seat in out or not hands[seat]:
            continue
        if any(count + value(r) <= COUNT_LIMIT for r in hands[seat]):
            return rest(hands, seat, pile, count, frozenset(out), sides)
        if seat != last:
            out.add(seat)
    return _end_count(hands, last, pile, count, sides)


def _end_count(
    hands: Hands, last: int, pile: tuple[int, ...], count: int, sides: tuple[int, ...]
) -> Points:
    """Nobody can lay: the go (or last card) point, then a new count led by the next seat
    after ``last`` that holds cards, or the end of the play."""
    players = len(hands)
    result = [0] * players
    result[last] += last_point(bool(pile), count)
    if not any(hands):
        return tuple(result)
    leader = next(
        (last + step) % players for step in range(1, players + 1) if hands[(last + step) % players]
    )
    after = rest(hands, leader, (), 0, frozenset(), sides)
    return tuple(a + b for a, b in zip(result, after, strict=True))
