"""The play on ranks alone, fast: the points a card makes, and a search of the rest of the
play between two known hands. Suits never matter in the play, so cards are ranks here.
"""

from __future__ import annotations

from functools import lru_cache

LIMIT = 31


def value(rank: int) -> int:
    """A rank's value for the count."""
    return rank if rank < 10 else 10


def points(pile: tuple[int, ...], count: int) -> int:
    """What the last rank of ``pile`` scores (fifteen, 31, pairs, runs); ``count`` includes it."""
    score = 2 if count in (15, LIMIT) else 0
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
        if not pile or count == LIMIT:
            return 0
        return -1 if other_laid_last else 1
    options = [] if mover_out else sorted({r for r in mover if count + value(r) <= LIMIT})
    if not options:
        other_can = not other_out and any(count + value(r) <= LIMIT for r in other)
        if other_can:
            # the mover says go (or has no cards); the other plays on
            return -outcome(other, mover, pile, count, other_out, True, not other_laid_last)
        # nobody can play: the go point to whoever laid last, and a new count led by the
        # player after them
        point = 0 if count in (0, LIMIT) or not pile else 1
        if other_laid_last:
            return -point + _new_count(mover, other)
        return point - _new_count(other, mover)
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
    if new_count == LIMIT:
        # 31: no go point; the count restarts with the other (or the mover, if the other
        # has no cards left)
        return gained - _new_count(other, rest) if other else gained + _new_count(rest, other)
    return gained - outcome(other, rest, new_pile, new_count, other_out, False, True)


def _new_count(leader: tuple[int, ...], other: tuple[int, ...]) -> int:
    """A fresh count led by ``leader`` (or by the other if the leader has no cards)."""
    if not leader:
        return -outcome(other, leader, (), 0, False, False, False) if other else 0
    return outcome(leader, other, (), 0, False, False, False)
