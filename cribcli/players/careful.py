"""Careful pegging on ranks: how the normal computer chooses a card, from only what it
can know, and a search of the rest of the play against a player who chooses so.

The normal computer lays by :func:`choose`. The hard computer, searching the play over
hands it deals the other player, lets that player choose by it too (:func:`against`):
a player who cannot see hard's cards does not answer as if it could, so a search that
assumes it does never sets a trap and fears plays nobody would make.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from math import comb

from cribcli.players import odds
from cribcli.players.pegging import laid_on, last_point, points, scoring_tail, value, without
from cribcli.scoring import COUNT_LIMIT, HAND_SIZE

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
    return tuple(4 - n for n in unseen_counts(seen))


@lru_cache(maxsize=2048)
def choose(hand: Ranks, pile: Ranks, count: int, unseen: Unseen, reply: int, out: bool) -> int:
    """The rank a careful player lays from ``hand`` (some card of it must fit): one of
    :func:`chosen`, the first in ``hand``."""
    best = chosen(tuple(sorted(hand)), pile, count, unseen, reply, out)
    return next(rank for rank in hand if rank in best)


def chosen(
    hand: Ranks, pile: Ranks, count: int, unseen: Unseen, reply: int, out: bool
) -> frozenset[int]:
    """The ranks a careful player could lay from ``hand`` (sorted; some card of it must
    fit), equal best: those that score most when the others are ``out`` of this count;
    else those with the best points less the expected answer from a player holding
    ``reply`` cards, plus leading sense. ``unseen``: the cards it has not seen."""
    options = {rank for rank in hand if count + value(rank) <= COUNT_LIMIT}
    if len(options) == 1:
        return frozenset(options)
    if pile and out:
        return run_out(hand, pile, count)
    weights = {rank: weigh(rank, pile, count, unseen, reply) for rank in options}
    best = max(weights.values())
    return frozenset(rank for rank, weight in weights.items() if weight == best)


def laid_carefully(plays: tuple[tuple[bool, int], ...], held: Ranks, unseen: Unseen) -> bool:
    """Whether a careful player holding ``held`` now would have laid its cards of this
    deal's play as it did, each one of :func:`chosen` (two players, four cards each).
    ``plays``: the cards laid, in order, each marked whether it was this player's;
    ``unseen``: what it could not see as the play began (neither its own six cards nor
    the starter)."""
    mine = [rank for its, rank in plays if its]
    left = list(unseen)
    theirs_held = HAND_SIZE
    counts = laid_on(tuple(rank for _, rank in plays))
    for i, ((its, rank), (pile, count)) in enumerate(zip(plays, counts, strict=True)):
        if not its:
            left[rank - 1] -= 1
            theirs_held -= 1
            continue
        out = (bool(pile) and plays[i - 1][0]) or not theirs_held  # they said go
        hand = tuple(sorted((*mine, *held)))
        if rank not in chosen(hand, pile, count, tuple(left), 0 if out else theirs_held, out):
            return False
        mine.remove(rank)
    return True


def weigh(rank: int, pile: Ranks, count: int, unseen: Unseen, reply: int) -> float:
    """Points now, less the points an answer would likely take, plus leading sense."""
    laid = pile + (rank,)
    total = count + value(rank)
    score = float(points(laid, total))
    if total < COUNT_LIMIT and reply:
        score -= expected_reply(laid, total, unseen, reply)
    if not pile:
        # Lead low: under 5 nobody can make 15 with one card; never a 5.
        score += 0.4 if value(rank) < 5 else 0.0
        score -= 1.0 if rank == 5 else 0.0
    # Keep low cards for later in the count, where they still fit.
    score += 0.02 * value(rank)
    return score


def expected_reply(pile: Ranks, count: int, unseen: Unseen, held: int) -> float:
    """The points the other side's best answer is worth on average, roughly: each rank's
    points times the chance they hold one of it (a card of each rank among ``held``)."""
    pool = sum(unseen)
    total = 0.0
    for index, gained in _scoring_replies(pile, count):
        number = unseen[index]
        if number:
            total += gained * _holds_one(pool, number, held)
    return total * 0.6


@lru_cache(maxsize=4096)
def _scoring_replies(pile: Ranks, count: int) -> tuple[tuple[int, int], ...]:
    """The ranks (as indexes, ace 0) that would score laid now, with what each scores."""
    replies = []
    for rank in range(1, 14):
        total = count + value(rank)
        if total <= COUNT_LIMIT and pile.count(rank) < 4:  # no fifth card of a rank
            gained = points(pile + (rank,), total)
            if gained:
                replies.append((rank - 1, gained))
    return tuple(replies)


@lru_cache(maxsize=1024)
def _holds_one(pool: int, number: int, held: int) -> float:
    """The chance that ``held`` cards drawn from ``pool`` include one of ``number``."""
    return 1 - comb(pool - number, held) / comb(pool, held) if pool >= held else 0.0


def run_out(hand: Ranks, pile: Ranks, count: int) -> frozenset[int]:
    """The others are out of this count: the first ranks of the orders that score most
    (and lay most, among those)."""
    best: tuple[int, int] = (-1, 0)
    firsts: set[int] = set()
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
        if laid and (gained, laid) > best:
            best = (gained, laid)
            firsts = set()
        if laid and (gained, laid) == best:
            firsts.add(order[0])
    return frozenset(firsts)


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


def against(
    rank: int, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, they_out: bool, unseen: Unseen
) -> int:
    """I lay ``rank`` from ``mine``; then the rest of the play, I at my best and the other
    choosing by :func:`choose` from ``theirs`` and what it has not seen (``unseen``, my
    cards among them): my points less theirs. ``they_out``: they said go in this count."""
    return _lay(rank, mine, theirs, pile, count, False, they_out, True, unseen)


Turn = tuple[Ranks, Ranks, Ranks, int, bool, bool, bool, bool, Unseen]
"""My cards, theirs, the pile's scoring end, the count, whether I and they said go,
whether I laid last, whether it is my turn, and what they have not seen."""


@lru_cache(maxsize=4096)
def _rest(state: Turn) -> int:
    mine, theirs, pile, count, my_go, their_go, mine_last, my_turn, unseen = state
    if not mine and not theirs:
        return last_point(pile, count) * (1 if mine_last else -1)
    hand, gone = (mine, my_go) if my_turn else (theirs, their_go)
    options = [] if gone else [r for r in hand if count + value(r) <= COUNT_LIMIT]
    if not options:
        other, other_gone = (theirs, their_go) if my_turn else (mine, my_go)
        if not other_gone and any(count + value(r) <= COUNT_LIMIT for r in other):
            # a go (or no cards): the other plays on
            if my_turn:
                my_go = True
            else:
                their_go = True
            state = (mine, theirs, pile, count, my_go, their_go, mine_last, not my_turn, unseen)
            return _rest(state)
        # nobody can play: the go point to whoever laid last, and a new count led by the
        # player after them
        point = last_point(pile, count)
        point = point if mine_last else -point
        return point + _fresh(mine, theirs, not mine_last, unseen)
    if my_turn:
        return max(
            _lay(r, mine, theirs, pile, count, my_go, their_go, True, unseen) for r in set(options)
        )
    reply = 0 if my_go else len(mine)
    rank = choose(theirs, pile, count, unseen, reply, my_go or not mine)
    return _lay(rank, mine, theirs, pile, count, my_go, their_go, False, unseen)


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
) -> int:
    laid = pile + (rank,)
    total = count + value(rank)
    gained = points(laid, total)
    if by_me:
        mine = without(mine, rank)
        unseen = _seen(unseen, rank)
    else:
        theirs = without(theirs, rank)
        gained = -gained
    if total == COUNT_LIMIT:
        # 31: no go point; the count restarts with the other (or the same player, if the
        # other has no cards left)
        return gained + _fresh(mine, theirs, not by_me, unseen)
    state = (mine, theirs, scoring_tail(laid), total, my_go, their_go, by_me, not by_me, unseen)
    return gained + _rest(state)


def _seen(unseen: Unseen, rank: int) -> Unseen:
    """What the other has not seen, once I lay a card of ``rank``."""
    left = list(unseen)
    left[rank - 1] -= 1
    return tuple(left)


def _fresh(mine: Ranks, theirs: Ranks, i_lead: bool, unseen: Unseen) -> int:
    """A new count, led by me if ``i_lead`` (or by them if I have no cards), else by them
    (or by me if they have none)."""
    if not (mine if i_lead else theirs):
        i_lead = not i_lead
    return _rest((mine, theirs, (), 0, False, False, False, i_lead, unseen))


# --- the search to win -----------------------------------------------------------------

Shows = tuple[int, int, bool]
"""My show and theirs to come (hand, and the crib for the dealer), and whether I deal."""
Race = tuple[Ranks, Ranks, Ranks, int, bool, bool, bool, bool, Unseen, int, int, Shows]
"""A :data:`Turn` with the points each side still needs and the shows to come."""


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
) -> float:
    """As :func:`against`, but near the end: I lay ``rank`` and then play to win, the other
    laying by :func:`choose` as ever; my chance of winning. A side home in the play wins
    at once; after the play the shows decide, the pone's first
    (:func:`cribcli.players.odds.after_play`)."""
    return _lay_to_win(
        rank, mine, theirs, pile, count, False, they_out, True, unseen, *needs, shows
    )


@lru_cache(maxsize=4096)
def _rest_to_win(state: Race) -> float:
    mine, theirs, pile, count, my_go, their_go, mine_last, my_turn, unseen = state[:9]
    my_need, their_need, shows = state[9:]
    if not mine and not theirs:
        return _scored(last_point(pile, count), mine_last, my_need, their_need, shows)
    hand, gone = (mine, my_go) if my_turn else (theirs, their_go)
    options = [] if gone else [r for r in hand if count + value(r) <= COUNT_LIMIT]
    if not options:
        other, other_gone = (theirs, their_go) if my_turn else (mine, my_go)
        if not other_gone and any(count + value(r) <= COUNT_LIMIT for r in other):
            if my_turn:
                my_go = True
            else:
                their_go = True
            turn = (mine, theirs, pile, count, my_go, their_go, mine_last, not my_turn, unseen)
            return _rest_to_win((*turn, my_need, their_need, shows))
        point = last_point(pile, count)
        if mine_last:
            my_need -= point
        else:
            their_need -= point
        if my_need <= 0 or their_need <= 0:
            return 1.0 if my_need <= 0 else 0.0
        return _fresh_to_win(mine, theirs, not mine_last, unseen, my_need, their_need, shows)
    if my_turn:
        return max(
            _lay_to_win(
                r,
                mine,
                theirs,
                pile,
                count,
                my_go,
                their_go,
                True,
                unseen,
                my_need,
                their_need,
                shows,
            )
            for r in set(options)
        )
    reply = 0 if my_go else len(mine)
    rank = choose(theirs, pile, count, unseen, reply, my_go or not mine)
    return _lay_to_win(
        rank,
        mine,
        theirs,
        pile,
        count,
        my_go,
        their_go,
        False,
        unseen,
        my_need,
        their_need,
        shows,
    )


def _lay_to_win(
    rank: int,
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    my_go: bool,
    their_go: bool,
    by_me: bool,
    unseen: Unseen,
    my_need: int,
    their_need: int,
    shows: Shows,
) -> float:
    laid = pile + (rank,)
    total = count + value(rank)
    gained = points(laid, total)
    if by_me:
        my_need -= gained
        if my_need <= 0:
            return 1.0
        mine = without(mine, rank)
        unseen = _seen(unseen, rank)
    else:
        their_need -= gained
        if their_need <= 0:
            return 0.0
        theirs = without(theirs, rank)
    if total == COUNT_LIMIT:
        return _fresh_to_win(mine, theirs, not by_me, unseen, my_need, their_need, shows)
    turn = (mine, theirs, scoring_tail(laid), total, my_go, their_go, by_me, not by_me, unseen)
    return _rest_to_win((*turn, my_need, their_need, shows))


def _fresh_to_win(
    mine: Ranks,
    theirs: Ranks,
    i_lead: bool,
    unseen: Unseen,
    my_need: int,
    their_need: int,
    shows: Shows,
) -> float:
    if not mine and not theirs:
        return _scored(0, True, my_need, their_need, shows)
    if not (mine if i_lead else theirs):
        i_lead = not i_lead
    turn = (mine, theirs, (), 0, False, False, False, i_lead, unseen)
    return _rest_to_win((*turn, my_need, their_need, shows))


def _scored(point: int, mine: bool, my_need: int, their_need: int, shows: Shows) -> float:
    """The last card's point (to me if ``mine``), then the shows."""
    if mine:
        my_need -= point
    else:
        their_need -= point
    if my_need <= 0 or their_need <= 0:
        return 1.0 if my_need <= 0 else 0.0
    return odds.after_play(my_need, their_need, *shows)
