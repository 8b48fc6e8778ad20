"""The play on ranks alone, fast: the points a card makes, and a search of the rest of the
play between two known hands. Suits never matter in the play, so cards are ranks here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Final, TypeVar

from cribcli.rules.scoring import COUNT_LIMIT


def value(rank: int) -> int:
    """A rank's value for the count."""
    return rank if rank < 10 else 10


VALUES: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Each rank's value for the count, by rank: :func:`value` looked up, for the searches,
which ask it most."""

_SAME: Final = (0, 0, 2, 6, 12)
"""Pairs: what the last of 1 to 4 cards of a rank in a row scores."""


def points(pile: tuple[int, ...], count: int) -> int:
    """What the last rank of ``pile`` scores (fifteen, 31, pairs, runs); ``count`` includes it."""
    return (2 if count in (15, COUNT_LIMIT) else 0) + pile_points(pile)


def last_point(laid: bool, count: int) -> int:
    """The point for the last card of a count (a go, or the end of the play): 1, unless
    nothing was ``laid`` or the count is 31 (which scored 2 as it was laid)."""
    return 1 if laid and count != COUNT_LIMIT else 0


@lru_cache(maxsize=1 << 12)
def pile_points(pile: tuple[int, ...]) -> int:
    """What the last rank of ``pile`` scores by pairs and runs."""
    return packed_points(pack_pile(pile))


def next_points(pile: tuple[int, ...]) -> list[int]:
    """What a card of each rank laid next on ``pile`` would score by pairs and runs,
    by rank (``[0]`` unused): :func:`pile_points` of each, at most four cards of a rank
    laid."""
    return packed_next(pack_pile(pile))


@lru_cache(maxsize=16_384)
def scoring_tail(pile: tuple[int, ...]) -> tuple[int, ...]:
    """The end of the pile that decides what later cards of the count can score: a
    trailing pair (or more) whole, else the longest end of distinct ranks that could
    still be part of a run. Positions that differ only before it play alike, so the
    search meets them once."""
    return unpack_pile(packed_tail(pack_pile(pile)))


# --- packed cards -------------------------------------------------------------------
# The searches keep cards as one integer, not a tuple: a rank (1 to 13) is four bits, so
# a hand is its ranks from the lowest four bits up, in the hand's order, and a pile its
# ranks from the last laid up (a card laid is ``pile << 4 | rank``); 0 is no cards.
# Compiled, these are machine integers, and the search of the play makes no objects.


def pack(ranks: tuple[int, ...]) -> int:
    """A hand as one integer: its first rank in the lowest four bits."""
    packed = 0
    for rank in reversed(ranks):
        packed = packed << 4 | rank
    return packed


def unpack(packed: int) -> tuple[int, ...]:
    """The ranks of a packed hand, in its order."""
    ranks = []
    while packed:
        ranks.append(packed & 15)
        packed >>= 4
    return tuple(ranks)


def pack_pile(pile: tuple[int, ...]) -> int:
    """A pile as one integer: the last card laid in the lowest four bits."""
    packed = 0
    for rank in pile:
        packed = packed << 4 | rank
    return packed


def unpack_pile(packed: int) -> tuple[int, ...]:
    """The ranks of a packed pile, the first laid first."""
    return unpack(packed)[::-1]


def packed_without(hand: int, rank: int) -> int:
    """A packed hand less its first card of ``rank`` (which it holds)."""
    shift = 0
    while (hand >> shift) & 15 != rank:
        shift += 4
    return (hand & ((1 << shift) - 1)) | (hand >> (shift + 4) << shift)


def packed_points(pile: int) -> int:
    """What the last card of a packed pile scores by pairs and runs: a pair 2, three of a
    kind 6, four 12 (the same rank in a row at the end), and the longest run the last
    cards make in any order, its length."""
    last = pile & 15
    same = 1
    while (pile >> (4 * same)) & 15 == last:
        same += 1
    seen = 0
    low = high = last
    length = run = 0
    while pile:
        rank = pile & 15
        if seen >> rank & 1:
            break  # a longer end holds a pair: no longer run
        seen |= 1 << rank
        if rank < low:
            low = rank
        elif rank > high:
            high = rank
        length += 1
        if length >= 3 and high - low == length - 1:
            run = length
        pile >>= 4
    return _SAME[same] + run


def packed_tail(pile: int) -> int:
    """:func:`scoring_tail` of a packed pile (not empty)."""
    last = pile & 15
    kept = 1
    if (pile >> 4) & 15 == last:
        while (pile >> (4 * kept)) & 15 == last:
            kept += 1
    else:
        seen = 1 << last
        low = high = last
        while True:
            rank = (pile >> (4 * kept)) & 15
            if not rank or seen >> rank & 1:
                break
            if rank < low:
                low = rank
            elif rank > high:
                high = rank
            if high - low > 6:
                break
            seen |= 1 << rank
            kept += 1
    return pile & ((1 << (4 * kept)) - 1)


_laid: Final[dict[int, tuple[int, int]]] = {}
""":func:`laying`'s answers met (the searches lay cards on the same few pile ends again
and again), started afresh when it holds :data:`_LAID_LIMIT`."""
_LAID_LIMIT: Final = 1 << 14


def laying(laid: int) -> tuple[int, int]:
    """A card laid on a packed pile's scoring end (``laid``, the card in it): what it
    scores by pairs and runs, and the pile's scoring end after it."""
    known = _laid.get(laid)
    if known is None:
        known = packed_points(laid), packed_tail(laid)
        if len(_laid) >= _LAID_LIMIT:
            _laid.clear()
        _laid[laid] = known
    return known


def packed_next(pile: int) -> list[int]:
    """:func:`next_points` of a packed pile."""
    found = [0] * 14
    if not pile:
        return found
    last = pile & 15
    same = 1
    while (pile >> (4 * same)) & 15 == last:
        same += 1
    found[last] = _SAME[min(same + 1, 4)]  # (no fifth card of a rank is laid)
    # A run ends at the card laid when the cards before it, back to the run's start, are
    # distinct and all but it of a stretch of ranks: the rank just beyond either end of
    # a stretch they fill, or the one missing from a stretch they fill but for one.
    seen = 0
    low = high = last
    total = back = 0
    while pile:
        rank = pile & 15
        pile >>= 4
        if seen >> rank & 1:
            break  # a longer stretch back holds a pair: no run
        seen |= 1 << rank
        back += 1
        low, high, total = min(low, rank), max(high, rank), total + rank
        if back < 2:
            continue
        if high - low == back - 1:
            if low > 1:
                found[low - 1] = back + 1
            if high < 13:
                found[high + 1] = back + 1
        elif high - low == back:
            found[(low + high) * (back + 1) // 2 - total] = back + 1
    return found


@lru_cache(maxsize=256)
def laid_on(ranks: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The count each card of a deal's play was laid on, as the pile before it and its
    total, from the cards alone: a new count began after 31, and before any card that
    would not fit (a card is laid whenever one fits, so the old count had ended in gos)."""
    before = []
    pile: tuple[int, ...] = ()
    count = 0
    for rank in ranks:
        if count == COUNT_LIMIT or count + value(rank) > COUNT_LIMIT:
            pile, count = (), 0
        before.append((pile, count))
        pile, count = pile + (rank,), count + value(rank)
    return tuple(before)


def without(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    """``hand`` less one card of ``rank``."""
    i = hand.index(rank)
    return hand[:i] + hand[i + 1 :]


K = TypeVar("K")
V = TypeVar("V", int, float)

Position = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, bool, bool, bool]
"""Who is to lay and the other's cards, the pile's scoring end, the count, who has said
go, and whether the other laid last: what :func:`outcome` takes."""
Bounds = tuple[int, int]
"""What the search knows of a position's value: at least the first, at most the second."""
_known: Final[dict[Position, Bounds]] = {}
"""The search's table of positions met (their bounds), shared by every search."""
KNOWN_LIMIT: Final = 25_000
"""The most positions each search's table holds; it starts again empty when full (about
12 MB). Positions rarely recur from one decision to the next (the other hands sampled
are new), so a bigger table buys little time for much memory."""
WIDE: Final = 1_000
"""Wider than any net a play can make: the window of an exact search."""


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
    state = (mover, other, pile, count, mover_out, other_out, other_laid_last)
    return _outcome(state, -WIDE, WIDE)


def _outcome(state: Position, alpha: int, beta: int) -> int:
    """:func:`outcome` searched with alpha-beta in the window (``alpha``, ``beta``)."""
    return _windowed(_known, state, alpha, beta, _search, (-WIDE, WIDE))


def _windowed(
    table: dict[K, tuple[V, V]],
    state: K,
    alpha: V,
    beta: V,
    search: Callable[[K, V, V], V],
    widest: tuple[V, V],
) -> V:
    """A position's value searched in the window (``alpha``, ``beta``): exact inside it;
    outside, a bound on the right side of it. ``table`` keeps what each search found
    (bounds), so that a position met again is searched no wider than it must be."""
    lower, upper = table.get(state, widest)
    if lower >= beta:
        return lower
    if upper <= alpha or lower == upper:
        return upper
    low, high = max(alpha, lower), min(beta, upper)
    value = search(state, low, high)
    if value <= low:
        upper = value
    elif value >= high:
        lower = value
    else:
        lower = upper = value
    if len(table) >= KNOWN_LIMIT:
        table.clear()
    table[state] = (lower, upper)
    return value


def _search(state: Position, alpha: int, beta: int) -> int:
    mover, other, pile, count, mover_out, other_out, other_laid_last = state
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
            turn = (other, mover, pile, count, other_out, True, not other_laid_last)
            return -_outcome(turn, -beta, -alpha)
        # nobody can play: the go point to whoever laid last, and a new count led by the
        # player after them
        point = last_point(bool(pile), count)
        if other_laid_last:
            return -point + _fresh(mover, other, alpha + point, beta + point)
        return point - _fresh(other, mover, point - beta, point - alpha)
    best = -WIDE
    for rank in _likeliest_first(options, pile, count):
        best = max(best, _after(rank, mover, other, pile, count, other_out, max(alpha, best), beta))
        if best >= beta:
            break
    return best


def _likeliest_first(options: list[int], pile: tuple[int, ...], count: int) -> list[int]:
    """The ranks to try, those that score now first: the best is usually among them, and
    the search prunes more the sooner it meets it."""
    if len(options) < 2:
        return options
    return sorted(options, key=lambda rank: -points(pile + (rank,), count + value(rank)))


def after_play(
    rank: int,
    mover: tuple[int, ...],
    other: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    other_out: bool,
) -> int:
    """The mover lays ``rank``: its points, then the rest of the play, mover minus other."""
    return _after(rank, mover, other, pile, count, other_out, -WIDE, WIDE)


def _after(
    rank: int,
    mover: tuple[int, ...],
    other: tuple[int, ...],
    pile: tuple[int, ...],
    count: int,
    other_out: bool,
    alpha: int,
    beta: int,
) -> int:
    new_pile = pile + (rank,)
    new_count = count + value(rank)
    gained = points(new_pile, new_count)
    rest = without(mover, rank)
    if new_count == COUNT_LIMIT:
        # 31: no go point; the count restarts with the other (or the mover, if the other
        # has no cards left)
        if other:
            return gained - _fresh(other, rest, gained - beta, gained - alpha)
        return gained + _fresh(rest, other, alpha - gained, beta - gained)
    turn = (other, rest, scoring_tail(new_pile), new_count, other_out, False, True)
    return gained - _outcome(turn, gained - beta, gained - alpha)


def fresh_count(leader: tuple[int, ...], other: tuple[int, ...]) -> int:
    """A fresh count led by ``leader`` (or by the other if the leader has no cards)."""
    return _fresh(leader, other, -WIDE, WIDE)


def _fresh(leader: tuple[int, ...], other: tuple[int, ...], alpha: int, beta: int) -> int:
    if not leader:
        if not other:
            return 0
        return -_outcome((other, leader, (), 0, False, False, False), -beta, -alpha)
    return _outcome((leader, other, (), 0, False, False, False), alpha, beta)
