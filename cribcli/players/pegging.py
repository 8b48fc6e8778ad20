"""The play on ranks alone, fast: the points a card makes, and a search of the rest of the
play between two known hands. Suits never matter in the play, so cards are ranks here.
"""

from __future__ import annotations

from functools import lru_cache

from cribcli.players import odds
from cribcli.scoring import COUNT_LIMIT


def value(rank: int) -> int:
    """A rank's value for the count."""
    return rank if rank < 10 else 10


def points(pile: tuple[int, ...], count: int) -> int:
    """What the last rank of ``pile`` scores (fifteen, 31, pairs, runs); ``count`` includes it."""
    score = 2 if count in (15, COUNT_LIMIT) else 0
    last = pile[-1]
    same = 1
    while same < len(pile) and pile[-1 - same] == last:
        same += 1
    score += (0, 0, 2, 6, 12)[same]
    for length in range(len(pile), 2, -1):
        tail = sorted(pile[-length:])
        if tail[-1] - tail[0] == length - 1 and len(set(tail)) == length:
            return score + length
    return score


def _without(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    i = hand.index(rank)
    return hand[:i] + hand[i + 1 :]


@lru_cache(maxsize=200_000)
def outcome(
    mover: tuple[int, ...],
    other: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    mover_out: bool,
    other_out: bool,
    other_laid_last: bool,
) -> int:
    """The rest of the play, both sides playing their best: the mover's points minus the
    other's. ``mover_out`` / ``other_out``: said go in this count. ``other_laid_last``:
    whether the last card of this count was the other's (for the go point).
    """
    if not mover and not other:
        # the last card of the play: 1, unless it made 31 (already counted)
        if not pile or count == COUNT_LIMIT:
            return 0
        return -1 if other_laid_last else 1
    options = [] if mover_out else sorted({r for r in mover if count + value(r) <= COUNT_LIMIT})
    if not options:
        other_can = not other_out and any(count + value(r) <= COUNT_LIMIT for r in other)
        if other_can:
            # the mover says go (or has no cards); the other plays on
            return -outcome(other, mover, pile, count, other_out, True, not other_laid_last)
        # nobody can play: the go point to whoever laid last, and a new count led by the
        # player after them
        point = 0 if count in (0, COUNT_LIMIT) or not pile else 1
        if other_laid_last:
            return -point + fresh_count(mover, other)
        return point - fresh_count(other, mover)
    return max(after_play(rank, mover, other, pile, count, other_out) for rank in options)


def after_play(
    rank: int,
    mover: tuple[int, ...],
    other: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    other_out: bool,
) -> int:
    """The mover lays ``rank``: its points, then the rest of the play, mover minus other."""
    new_pile = pile + (rank,)
    new_count = count + value(rank)
    gained = points(new_pile, new_count)
    rest = _without(mover, rank)
    if new_count == COUNT_LIMIT:
        # 31: no go point; the count restarts with the other (or the mover, if the other
        # has no cards left)
        return gained - fresh_count(other, rest) if other else gained + fresh_count(rest, other)
    return gained - outcome(other, rest, new_pile, new_count, other_out, False, True)


def fresh_count(leader: tuple[int, ...], other: tuple[int, ...]) -> int:
    """A fresh count led by ``leader`` (or by the other if the leader has no cards)."""
    if not leader:
        return -outcome(other, leader, (), 0, False, False, False) if other else 0
    return outcome(leader, other, (), 0, False, False, False)


Shows = tuple[int, int, bool]
"""What the play is for near the end: the mover's show, the other's show (hand, and crib
for the dealer), and whether the mover deals."""


def _swap(needs: tuple[int, int], shows: Shows) -> tuple[tuple[int, int], Shows]:
    return (needs[1], needs[0]), (shows[1], shows[0], not shows[2])


@lru_cache(maxsize=200_000)
def win_chance(
    mover: tuple[int, ...],
    other: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    mover_out: bool,
    other_out: bool,
    other_laid_last: bool,
    needs: tuple[int, int],
    shows: Shows,
) -> float:
    """The rest of the play, both sides playing to win: the mover's chance of winning the
    game, needing ``needs[0]`` (the other ``needs[1]``); a side home in the play wins at
    once, and after it the shows decide (:func:`cribcli.players.odds.after_play`)."""
    if not mover and not other:
        if pile and count != COUNT_LIMIT:
            return _scored(1, not other_laid_last, needs, shows)
        return after_show(needs, shows)
    options = [] if mover_out else sorted({r for r in mover if count + value(r) <= COUNT_LIMIT})
    if not options:
        other_can = not other_out and any(count + value(r) <= COUNT_LIMIT for r in other)
        if other_can:
            swapped = _swap(needs, shows)
            return 1 - win_chance(
                other, mover, pile, count, other_out, True, not other_laid_last, *swapped
            )
        point = 0 if count in (0, COUNT_LIMIT) or not pile else 1
        if other_laid_last:
            needs = (needs[0], needs[1] - point)
            if needs[1] <= 0:
                return 0.0
            return _new_count_chance(mover, other, needs, shows)
        needs = (needs[0] - point, needs[1])
        if needs[0] <= 0:
            return 1.0
        return 1 - _new_count_chance(other, mover, *_swap(needs, shows))
    return max(
        lay_chance(rank, mover, other, pile, count, other_out, needs, shows) for rank in options
    )


def lay_chance(
    rank: int,
    mover: tuple[int, ...],
    other: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    other_out: bool,
    needs: tuple[int, int],
    shows: Shows,
) -> float:
    """The mover lays ``rank``, then both play to win: the mover's chance of winning."""
    new_pile = pile + (rank,)
    new_count = count + value(rank)
    gained = points(new_pile, new_count)
    if gained >= needs[0]:
        return 1.0
    needs = (needs[0] - gained, needs[1])
    rest = _without(mover, rank)
    if new_count == COUNT_LIMIT:
        if other:
            return 1 - _new_count_chance(other, rest, *_swap(needs, shows))
        return _new_count_chance(rest, other, needs, shows)
    swapped = _swap(needs, shows)
    return 1 - win_chance(other, rest, new_pile, new_count, other_out, False, True, *swapped)


def _scored(point: int, mover_scores: bool, needs: tuple[int, int], shows: Shows) -> float:
    """The last card's point, then the shows."""
    if mover_scores:
        needs = (needs[0] - point, needs[1])
        return 1.0 if needs[0] <= 0 else after_show(needs, shows)
    needs = (needs[0], needs[1] - point)
    return 0.0 if needs[1] <= 0 else after_show(needs, shows)


def _new_count_chance(
    leader: tuple[int, ...], other: tuple[int, ...], needs: tuple[int, int], shows: Shows
) -> float:
    """A fresh count led by ``leader`` (or by the other if the leader has no cards)."""
    if not leader:
        if not other:
            return after_show(needs, shows)
        return 1 - win_chance(other, leader, (), 0, False, False, False, *_swap(needs, shows))
    return win_chance(leader, other, (), 0, False, False, False, needs, shows)


def after_show(needs: tuple[int, int], shows: Shows) -> float:
    """The play is over: the mover's chance of winning from the shows on."""
    return odds.after_play(needs[0], needs[1], shows[0], shows[1], shows[2])
