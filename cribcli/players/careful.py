"""Careful pegging on ranks: how the normal computer chooses a card, from only what it
can know, and a search of the rest of the play against a player who chooses so.

The normal computer lays by :func:`choose`. The hard computer, searching the play over
hands it deals the other player, lets that player choose by it too (:func:`against`):
a player who cannot see hard's cards does not answer as if it could, so a search that
assumes it does never sets a trap and fears plays nobody would make.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from math import comb

from cribcli.players import odds
from cribcli.players.base import Objective
from cribcli.players.pegging import (
    VALUES,
    laid_on,
    last_point,
    laying,
    next_points,
    pile_points,
    points,
    value,
    without,
)
from cribcli.rules.scoring import COUNT_LIMIT, KEPT_SIZE

Ranks = tuple[int, ...]
Unseen = tuple[int, ...]
"""How many cards of each rank (ace first) a player has not seen."""


def unseen_counts(ranks: Ranks) -> Unseen:
    """The :data:`Unseen` counts of these ranks."""
    counts = [0] * 13
    for rank in ranks:
        counts[rank - 1] += 1
    return tuple(counts)


def unseen_after(seen: Ranks) -> Unseen:
    """What a player who has seen these ranks (its own cards among them) has not seen."""
    left = [4] * 13
    for rank in seen:
        left[rank - 1] -= 1
    return tuple(left)


# Room for a decision's choices: the search to win near the end meets again those the
# search for points met, hand by hand. (A decision makes at most some 7,000; the choices
# of a deal before are seldom met again, its unseen cards being others: 1 << 12 misses
# 2.5% more than 1 << 14 did, about 0.5% of a match's time, and keeps a match process
# within 60 MB.)
@lru_cache(maxsize=1 << 12)
def choose(hand: Ranks, pile: Ranks, count: int, unseen: Unseen, reply: int, out: bool) -> int:
    """The rank a careful player lays from ``hand`` (some card of it must fit): one of
    :func:`chosen`, the first in ``hand``."""
    best = _chosen(hand, pile, count, unseen, reply, out)
    for rank in hand:
        if rank in best:
            return rank
    raise ValueError(f"no card of {hand} fits on {count}")


def chosen(
    hand: Ranks, pile: Ranks, count: int, unseen: Unseen, reply: int, out: bool
) -> frozenset[int]:
    """The ranks a careful player could lay from ``hand`` (sorted; some card of it must
    fit), equal best: those that score most when the others are ``out`` of this count;
    else those with the best points less the expected answer from a player holding
    ``reply`` cards, plus leading sense. ``unseen``: the cards it has not seen."""
    return frozenset(_chosen(hand, pile, count, unseen, reply, out))


def _chosen(
    hand: Ranks, pile: Ranks, count: int, unseen: Unseen, reply: int, out: bool
) -> set[int] | frozenset[int]:
    """:func:`chosen`, from ``hand`` in any order."""
    room = COUNT_LIMIT - count
    options = {rank for rank in hand if VALUES[rank] <= room}
    if len(options) == 1:
        return options
    if pile and out:
        return run_out(tuple(sorted(hand)), pile, count)
    pool = sum(unseen)  # the same for every option: counted once
    weights = {rank: _weigh(rank, pile, count, unseen, reply, pool) for rank in options}
    best = max(weights.values())
    return {rank for rank, weight in weights.items() if weight == best}


@dataclass(frozen=True, slots=True)
class Lay:
    """One of a player's lays that had a choice of rank, with what it knew then."""

    hand: Ranks
    """All it held before laying (sorted)."""
    pile: Ranks
    count: int
    unseen: Unseen
    reply: int
    """How many cards the other held, if it could still answer on this count (else 0)."""
    out: bool
    """Whether the other had said go on this count."""
    rank: int
    """The rank it laid."""

    @property
    def fitting(self) -> Ranks:
        """The cards of its hand that fitted (ranks, one for each card)."""
        return tuple(rank for rank in self.hand if VALUES[rank] <= COUNT_LIMIT - self.count)


def lays(plays: tuple[tuple[bool, int], ...], held: Ranks, unseen: Unseen) -> Iterator[Lay]:
    """The lays of a deal's play that had a choice of rank, for the player whose cards are
    those marked in ``plays`` (every card laid, in order, each marked whether it was this
    player's), holding ``held`` still, who could not see ``unseen`` as the play began
    (neither its own six cards nor the starter; two players, four cards each)."""
    mine = [rank for its, rank in plays if its]
    left = list(unseen)
    theirs_held = KEPT_SIZE
    counts = laid_on(tuple(rank for _, rank in plays))
    for i, ((its, rank), (pile, count)) in enumerate(zip(plays, counts, strict=True)):
        if not its:
            left[rank - 1] -= 1
            theirs_held -= 1
            continue
        hand = tuple(sorted((*mine, *held)))
        if len({r for r in hand if VALUES[r] <= COUNT_LIMIT - count}) > 1:
            out = (bool(pile) and plays[i - 1][0]) or not theirs_held  # they said go
            yield Lay(hand, pile, count, tuple(left), 0 if out else theirs_held, out, rank)
        mine.remove(rank)


def laid_carefully(plays: tuple[tuple[bool, int], ...], held: Ranks, unseen: Unseen) -> bool:
    """Whether a careful player holding ``held`` now would have laid its cards of this
    deal's play as it did, each one of :func:`chosen` (see :func:`lays`)."""
    return all(
        lay.rank in chosen(lay.hand, lay.pile, lay.count, lay.unseen, lay.reply, lay.out)
        for lay in lays(plays, held, unseen)
    )


def weigh(rank: int, pile: Ranks, count: int, unseen: Unseen, reply: int) -> float:
    """Points now, less the points an answer would likely take, plus leading sense."""
    return _weigh(rank, pile, count, unseen, reply, sum(unseen))


def _weigh(rank: int, pile: Ranks, count: int, unseen: Unseen, reply: int, pool: int) -> float:
    """:func:`weigh`, the cards unseen counted (``pool``)."""
    laid = pile + (rank,)
    worth = VALUES[rank]
    total = count + worth
    score = float(pile_points(laid) + (2 if total == 15 or total == COUNT_LIMIT else 0))
    if total < COUNT_LIMIT and reply:
        score -= _expected(laid, total, unseen, reply, pool)
    if not pile:
        # Lead low: under 5 nobody can make 15 with one card; never a 5. (Adding or
        # taking nothing instead would only turn a -0.0 into 0.0, and the sum below makes
        # them alike.)
        if worth < 5:
            score += 0.4
        elif rank == 5:
            score -= 1.0
    # Keep low cards for later in the count, where they still fit.
    score += 0.02 * worth
    return score


def expected_reply(pile: Ranks, count: int, unseen: Unseen, held: int) -> float:
    """The points the other side's best answer is worth on average, roughly: each rank's
    points times the chance they hold one of it (a card of each rank among ``held``)."""
    return _expected(pile, count, unseen, held, sum(unseen))


def _expected(pile: Ranks, count: int, unseen: Unseen, held: int, pool: int) -> float:
    """:func:`expected_reply`, the cards unseen counted (``pool``)."""
    chances = _chances(pool, held)
    total = 0.0
    for index, gained in _scoring_replies(pile, count):
        number = unseen[index]
        if number:
            if 0 < number < len(chances):
                total += gained * chances[number]
            else:  # never in a real deal (a count below 0); worked out all the same
                total += gained * _holds_one(pool, number, held)
    return total * 0.6


# (1 << 12: the pile ends and counts met most; a match misses a few more a deal.)
@lru_cache(maxsize=1 << 12)
def _scoring_replies(pile: Ranks, count: int) -> tuple[tuple[int, int], ...]:
    """The ranks (as indexes, ace 0) that would score laid now, with what each scores."""
    made = next_points(pile)
    replies = []
    for rank in range(1, 14):
        total = count + VALUES[rank]
        if total <= COUNT_LIMIT and pile.count(rank) < 4:  # no fifth card of a rank
            gained = made[rank] + (2 if total == 15 or total == COUNT_LIMIT else 0)
            if gained:
                replies.append((rank - 1, gained))
    return tuple(replies)


@lru_cache(maxsize=1024)
def _holds_one(pool: int, number: int, held: int) -> float:
    """The chance that ``held`` cards drawn from ``pool`` include one of ``number``."""
    return 1 - comb(pool - number, held) / comb(pool, held) if pool >= held else 0.0


@lru_cache(maxsize=1024)
def _chances(pool: int, held: int) -> tuple[float, ...]:
    """:func:`_holds_one` for 1 to 4 of a rank unseen (at most ``pool``), by how many
    (``[0]`` unused): looked up once for every rank an answer could score with."""
    return (0.0, *(_holds_one(pool, number, held) for number in range(1, min(pool, 4) + 1)))


def run_out(hand: Ranks, pile: Ranks, count: int) -> frozenset[int]:
    """The others are out of this count: the first ranks of the orders that score most
    (and lay most, among those)."""
    runs = run_outs(hand, pile, count)
    best = max(runs.values())
    return frozenset(first for first, run in runs.items() if run == best)


def run_outs(hand: Ranks, pile: Ranks, count: int) -> dict[int, tuple[int, int]]:
    """The others are out of this count: for each rank that fits, the most its best order
    laid first scores (and lays, among those), as (points, cards)."""
    best: dict[int, tuple[int, int]] = {}
    for order in permutations(hand):
        laid_pile = pile
        total = count
        gained = laid = 0
        for rank in order:
            if total + value(rank) > COUNT_LIMIT:
                break
            laid_pile += (rank,)
            total += value(rank)
            gained += points(laid_pile, total)
            laid += 1
        if laid and (gained, laid) > best.get(order[0], (-1, 0)):
            best[order[0]] = (gained, laid)
    return best


def play_out(pone: Ranks, dealer: Ranks) -> int:
    """The whole play between two careful players, each choosing by :func:`choose` from
    its own four cards and the cards laid: the pone's points less the dealer's. (The
    normal computer also knows its two discards and the starter; the pegging table,
    ``tools/pegging_table.py``, is made with this, before any starter.)"""
    hands = [pone, dealer]
    unseen = [list(unseen_after(hand)) for hand in hands]
    net = [0, 0]
    pile: Ranks = ()
    count, gone, turn, last = 0, [False, False], 0, 0
    while hands[0] or hands[1]:
        other = 1 - turn
        options = [] if gone[turn] else [r for r in hands[turn] if count + value(r) <= COUNT_LIMIT]
        if not options:
            if not gone[other] and any(count + value(r) <= COUNT_LIMIT for r in hands[other]):
                gone[turn], turn = True, other  # a go: the other plays on
                continue
            # Nobody can lay: the go point to the last to lay; the next leads a new count.
            net[last] += last_point(pile, count)
            pile, count, gone = (), 0, [False, False]
            turn = 1 - last if hands[1 - last] else last
            continue
        out = gone[other] or not hands[other]
        rank = choose(
            hands[turn], pile, count, tuple(unseen[turn]), 0 if out else len(hands[other]), out
        )
        hands[turn] = without(hands[turn], rank)
        unseen[other][rank - 1] -= 1
        pile, count, last = pile + (rank,), count + value(rank), turn
        net[turn] += points(pile, count)
        turn = other
        if count == COUNT_LIMIT:  # no go point; the other leads a new count (if it can)
            pile, count, gone = (), 0, [False, False]
            turn = other if hands[other] else last
    net[last] += last_point(pile, count)  # the last card
    return net[0] - net[1]


Shows = tuple[int, int, bool]
"""My show and theirs to come (hand, and the crib for the dealer), and whether I deal."""

Race = tuple[int, int, Shows, Objective]
"""The search to win near the end: the points I still need, the points they still need,
the shows to come, and what the end of the game is worth (winning, or game points)."""


def against(
    rank: int, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, they_out: bool, unseen: Unseen
) -> float:
    """I lay ``rank`` from ``mine``; then the rest of the play, I at my best and the other
    choosing by :func:`choose` from ``theirs`` and what it has not seen (``unseen``, my
    cards among them): my points less theirs (a whole number). ``they_out``: they said go
    in this count."""
    return _lay(rank, mine, theirs, pile, count, False, they_out, True, unseen, None)


def win_against(
    rank: int,
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    they_out: bool,
    unseen: Unseen,
    needs: tuple[int, int],
    shows: Shows,
    objective: Objective = Objective.WIN,
) -> float:
    """As :func:`against`, but near the end: I lay ``rank`` and then play to win, the other
    laying by :func:`choose` as ever; my chance of winning (for game points, what the game
    is worth: :func:`cribcli.players.odds.end_value`). A side home in the play wins at
    once; after the play the shows decide, the pone's first
    (:func:`cribcli.players.odds.after_play`)."""
    race = (*needs, shows, objective)
    return _lay(rank, mine, theirs, pile, count, False, they_out, True, unseen, race)


# One search serves both: with ``race`` None it adds up my points less theirs; with a
# race it takes each side's points off what that side needs, stops when one is home, and
# is my chance of winning.


def _rest(
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    my_go: bool,
    their_go: bool,
    mine_last: bool,
    my_turn: bool,
    unseen: Unseen,
    race: Race | None,
) -> float:
    """The rest of the play from a turn: my cards, theirs, the pile's scoring end, the
    count, whether I and they said go, whether I laid last, whether it is my turn, what
    they have not seen, and the race if the search is to win. (Not cached: positions
    seldom recur within a search, and hashing each costs more than the few met again
    save.)"""
    if not mine and not theirs:
        return _ended(last_point(pile, count) * (1 if mine_last else -1), race)
    room = COUNT_LIMIT - count
    if my_turn:
        if not my_go:
            options = {r for r in mine if VALUES[r] <= room}
            if options:
                return max(
                    [_lay(r, mine, theirs, pile, count, my_go, their_go, True, unseen, race)
                     for r in options]
                )  # fmt: skip
        other, other_gone = theirs, their_go
    else:
        if not their_go and theirs and VALUES[min(theirs)] <= room:
            reply = 0 if my_go else len(mine)
            rank = choose(theirs, pile, count, unseen, reply, my_go or not mine)
            return _lay(rank, mine, theirs, pile, count, my_go, their_go, False, unseen, race)
        other, other_gone = mine, my_go
    if not other_gone and other and VALUES[min(other)] <= room:
        # a go (or no cards): the other plays on
        if my_turn:
            my_go = True
        else:
            their_go = True
        return _rest(
            mine, theirs, pile, count, my_go, their_go, mine_last, not my_turn, unseen, race
        )
    # nobody can play: the go point to whoever laid last, and a new count led by the
    # player after them
    point = last_point(pile, count) * (1 if mine_last else -1)
    if race is None:
        return point + _fresh(mine, theirs, not mine_last, unseen, None)
    race = _pegged(point, race)
    home = _home(race)
    return home if home is not None else _fresh(mine, theirs, not mine_last, unseen, race)


def _lay(
    rank: int,
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    my_go: bool,
    their_go: bool,
    by_me: bool,
    unseen: Unseen,
    race: Race | None,
) -> float:
    """A card of ``rank`` laid, by me if ``by_me``, then the rest of the play."""
    gained, tail = laying(pile, rank)
    total = count + VALUES[rank]
    if total == 15 or total == COUNT_LIMIT:
        gained += 2
    if by_me:
        mine = without(mine, rank)
        unseen = _seen(unseen, rank)
    else:
        theirs = without(theirs, rank)
        gained = -gained
    if race is not None:
        race = _pegged(gained, race)
        home = _home(race)
        if home is not None:
            return home
    if total == COUNT_LIMIT:
        # 31: no go point; the count restarts with the other (or the same player, if the
        # other has no cards left)
        rest = _fresh(mine, theirs, not by_me, unseen, race)
    else:
        rest = _rest(mine, theirs, tail, total, my_go, their_go, by_me, not by_me, unseen, race)
    return rest if race is not None else gained + rest


def _seen(unseen: Unseen, rank: int) -> Unseen:
    """What the other has not seen, once I lay a card of ``rank``."""
    return unseen[: rank - 1] + (unseen[rank - 1] - 1,) + unseen[rank:]


# Room for both searches' new counts (each had 1 << 13 when they were two). A new count
# is met again within a decision, near where it was first met: 1 << 11 misses no more
# than 1 << 14 did (24 more in ten games of hard v normal, of 150,000), in an eighth of
# the memory.
@lru_cache(maxsize=1 << 11)
def _fresh(mine: Ranks, theirs: Ranks, i_lead: bool, unseen: Unseen, race: Race | None) -> float:
    """A new count, led by me if ``i_lead`` (or by them if I have no cards), else by them
    (or by me if they have none). Cached: a new count is met again by another order of
    the cards before it, and the rest of the play from it is the most to search."""
    if not mine and not theirs:
        return _ended(0, race)
    if not (mine if i_lead else theirs):
        i_lead = not i_lead
    return _rest(mine, theirs, (), 0, False, False, False, i_lead, unseen, race)


def _pegged(points: int, race: Race) -> Race:
    """The race once ``points`` are pegged: mine if more than 0, theirs if less."""
    my_need, their_need, shows, objective = race
    if points > 0:
        return my_need - points, their_need, shows, objective
    return my_need, their_need + points, shows, objective


def _home(race: Race) -> float | None:
    """1 if I am home, 0 if they are (for game points, what that end is worth), else
    None: the race goes on."""
    if race[0] <= 0:
        return odds.end_value(race[3], True, race[1])
    return odds.end_value(race[3], False, race[0]) if race[1] <= 0 else None


def _ended(point: int, race: Race | None) -> float:
    """The play over, the last card's point pegged (mine if more than 0, theirs if less):
    that point; in a race, the shows then decide."""
    if race is None:
        return point
    race = _pegged(point, race)
    home = _home(race)
    if home is not None:
        return home
    my_need, their_need, shows, objective = race
    return odds.after_play(my_need, their_need, *shows, objective)
