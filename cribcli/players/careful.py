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
from math import comb
from typing import Final

from cribcli.players import odds
from cribcli.players.base import Objective
from cribcli.players.pegging import (
    VALUES,
    laid_on,
    last_point,
    laying,
    pack,
    pack_pile,
    packed_next,
    packed_points,
    packed_without,
    points,
    unpack,
    value,
    without,
)
from cribcli.rules.scoring import COUNT_LIMIT, KEPT_SIZE

_VALUES: Final = VALUES
"""Each rank's value for the count (:data:`cribcli.players.pegging.VALUES`), as a constant
of this module: compiled, it is read without a look-up in the module's names."""

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


# The searches keep what a player has not seen as one integer too: four bits a rank, ace
# lowest, each the count plus :data:`_BIAS` (a count below 0 never comes of a real deal,
# but the arithmetic holds for it all the same).
_BIAS: Final = 8


def _pack_unseen(unseen: Unseen) -> int:
    """:data:`Unseen` counts as one integer."""
    if min(unseen) < -_BIAS or max(unseen) >= 16 - _BIAS:
        raise ValueError(f"{unseen}: a count of cards unseen out of range")
    packed = 0
    for number in reversed(unseen):
        packed = packed << 4 | (number + _BIAS)
    return packed


def _pool(unseen: int) -> int:
    """How many cards a packed :data:`Unseen` counts."""
    pool = 0
    while unseen:
        pool += (unseen & 15) - _BIAS
        unseen >>= 4
    return pool


def _size(hand: int) -> int:
    """How many cards a packed hand holds."""
    size = 0
    while hand:
        size += 1
        hand >>= 4
    return size


def _lowest(hand: int) -> int:
    """The lowest rank of a packed hand (not empty)."""
    lowest = 13
    while hand:
        if hand & 15 < lowest:
            lowest = hand & 15
        hand >>= 4
    return lowest


def _fitting(hand: int, room: int) -> int:
    """The ranks of a packed hand whose value is at most ``room``, as bits (bit ``rank``)."""
    ranks = 0
    while hand:
        rank = hand & 15
        if _VALUES[rank] <= room:
            ranks |= 1 << rank
        hand >>= 4
    return ranks


def _ranks_of(bits: int, hand: Ranks) -> frozenset[int]:
    """The ranks of ``hand`` whose bits are set."""
    return frozenset(rank for rank in hand if bits >> rank & 1)


_choices: Final[dict[int, int]] = {}
"""The careful player's choices met (a decision's searches meet the same again and
again), by position packed as one number; started afresh when it holds
:data:`_CHOICES_LIMIT`."""
_CHOICES_LIMIT: Final = 1 << 14


def choose(hand: Ranks, pile: Ranks, count: int, unseen: Unseen, reply: int, out: bool) -> int:
    """The rank a careful player lays from ``hand`` (some card of it must fit): one of
    :func:`chosen`, the first in ``hand``."""
    return _choose(pack(hand), pack_pile(pile), count, _pack_unseen(unseen), reply, out)


def _choose(hand: int, pile: int, count: int, unseen: int, reply: int, out: bool) -> int:
    """:func:`choose`, of packed cards."""
    key = ((pile << 52 | unseen) << 24 | hand) << 9 | count << 4 | reply << 1 | out
    rank = _choices.get(key, 0)
    if rank:
        return rank
    best = _chosen(hand, pile, count, unseen, reply, out)
    cards = hand
    while cards:
        rank = cards & 15
        if best >> rank & 1:
            if len(_choices) >= _CHOICES_LIMIT:
                _choices.clear()
            _choices[key] = rank
            return rank
        cards >>= 4
    raise ValueError(f"no card of {unpack(hand)} fits on {count}")


def chosen(
    hand: Ranks, pile: Ranks, count: int, unseen: Unseen, reply: int, out: bool
) -> frozenset[int]:
    """The ranks a careful player could lay from ``hand`` (sorted; some card of it must
    fit), equal best: those that score most when the others are ``out`` of this count;
    else those with the best points less the expected answer from a player holding
    ``reply`` cards, plus leading sense. ``unseen``: the cards it has not seen."""
    packed = _chosen(pack(hand), pack_pile(pile), count, _pack_unseen(unseen), reply, out)
    return _ranks_of(packed, hand)


def _chosen(hand: int, pile: int, count: int, unseen: int, reply: int, out: bool) -> int:
    """:func:`chosen`, of packed cards, as bits (bit ``rank``)."""
    options = _fitting(hand, COUNT_LIMIT - count)
    if options & (options - 1) == 0:  # one rank (or none)
        return options
    if pile and out:
        return _run_out(hand, pile, count)
    pool = _pool(unseen)  # the same for every option: counted once
    best = 0.0
    ranks = 0
    for rank in range(1, 14):
        if options >> rank & 1:
            weight = _weigh(rank, pile, count, unseen, reply, pool)
            if not ranks or weight > best:
                best, ranks = weight, 1 << rank
            elif weight == best:
                ranks |= 1 << rank
    return ranks


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
    packed = _pack_unseen(unseen)
    return _weigh(rank, pack_pile(pile), count, packed, reply, _pool(packed))


def _weigh(rank: int, pile: int, count: int, unseen: int, reply: int, pool: int) -> float:
    """:func:`weigh`, of packed cards, the cards unseen counted (``pool``)."""
    laid = pile << 4 | rank
    worth = _VALUES[rank]
    total = count + worth
    score = float(packed_points(laid) + (2 if total == 15 or total == COUNT_LIMIT else 0))
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
    packed = _pack_unseen(unseen)
    return _expected(pack_pile(pile), count, packed, held, _pool(packed))


def _expected(pile: int, count: int, unseen: int, held: int, pool: int) -> float:
    """:func:`expected_reply`, of packed cards, the cards unseen counted (``pool``)."""
    chances = _chances(pool, held)
    total = 0.0
    replies = _scoring_replies(pile, count)
    for at in range(0, len(replies), 2):
        index, gained = replies[at], replies[at + 1]
        number = ((unseen >> (4 * index)) & 15) - _BIAS
        if number:
            if 0 < number < len(chances):
                total += gained * chances[number]
            else:  # never in a real deal (a count below 0); worked out all the same
                total += gained * _holds_one(pool, number, held)
    return total * 0.6


_replies: Final[dict[int, list[int]]] = {}
""":func:`_scoring_replies` met, by pile and count (the pile ends and counts met most; a
match meets a few more a deal); started afresh when it holds :data:`_REPLIES_LIMIT`."""
_REPLIES_LIMIT: Final = 1 << 12


def _scoring_replies(pile: int, count: int) -> list[int]:
    """The ranks (as indexes, ace 0) that would score laid now on a packed pile, each
    followed by what it scores."""
    key = pile << 5 | count
    found = _replies.get(key)
    if found is not None:
        return found
    made = packed_next(pile)
    laid = [0] * 14
    rest = pile
    while rest:
        laid[rest & 15] += 1
        rest >>= 4
    replies = []
    for rank in range(1, 14):
        total = count + _VALUES[rank]
        if total <= COUNT_LIMIT and laid[rank] < 4:  # no fifth card of a rank
            gained = made[rank] + (2 if total == 15 or total == COUNT_LIMIT else 0)
            if gained:
                replies += [rank - 1, gained]
    if len(_replies) >= _REPLIES_LIMIT:
        _replies.clear()
    _replies[key] = replies
    return replies


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
    return _ranks_of(_run_out(pack(hand), pack_pile(pile), count), hand)


def run_outs(hand: Ranks, pile: Ranks, count: int) -> dict[int, tuple[int, int]]:
    """The others are out of this count: for each rank that fits, the most its best order
    laid first scores (and lays, among those), as (points, cards)."""
    packed, laid = pack(hand), pack_pile(pile)
    return {
        rank: _laid_first(rank, packed, laid, count)
        for rank in sorted(_ranks_of(_fitting(packed, COUNT_LIMIT - count), hand))
    }


def _run_out(hand: int, pile: int, count: int) -> int:
    """:func:`run_out`, of packed cards, as bits (bit ``rank``)."""
    firsts = _fitting(hand, COUNT_LIMIT - count)
    best_points = best_cards = -1
    ranks = 0
    for rank in range(1, 14):
        if firsts >> rank & 1:
            gained, laid = _laid_first(rank, hand, pile, count)
            if gained > best_points or (gained == best_points and laid > best_cards):
                best_points, best_cards, ranks = gained, laid, 1 << rank
            elif gained == best_points and laid == best_cards:
                ranks |= 1 << rank
    return ranks


def _laid_first(rank: int, hand: int, pile: int, count: int) -> tuple[int, int]:
    """The others out of this count, ``rank`` laid first from a packed hand, then the
    best order of the rest: what it scores and how many cards it lays. (An order stops at
    a card that does not fit; the best order never stops while a card still fits, since
    a card more lays more and scores no less.)"""
    pile = pile << 4 | rank
    count += _VALUES[rank]
    gained = packed_points(pile) + (2 if count == 15 or count == COUNT_LIMIT else 0)
    hand = packed_without(hand, rank)
    most_points, most_cards = 0, 0
    nexts = _fitting(hand, COUNT_LIMIT - count)
    for after in range(1, 14):
        if nexts >> after & 1:
            more, cards = _laid_first(after, hand, pile, count)
            if more > most_points or (more == most_points and cards > most_cards):
                most_points, most_cards = more, cards
    return gained + most_points, 1 + most_cards


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
            net[last] += last_point(bool(pile), count)
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
    net[last] += last_point(bool(pile), count)  # the last card
    return net[0] - net[1]


Shows = tuple[int, int, bool]
"""My show and theirs to come (hand, and the crib for the dealer), and whether I deal."""

# The search to win near the end keeps its race as one integer too (0: no race, the
# search for points): the points I still need and they still need (each plus
# :data:`_NEED_BIAS`, nine bits), the shows to come (six bits each), whether I deal, and
# what the end of the game is worth (winning, or game points: the objective's place).
_OBJECTIVES: Final = tuple(Objective)
_NEED_BIAS: Final = 256
_MY_NEED: Final = 16
_THEIR_NEED: Final = 25
_NOT_HOME: Final = -1.0
"""What :func:`_home` says while the race goes on (an end is worth 0 to 1)."""


def _race(needs: tuple[int, int], shows: Shows, objective: Objective) -> int:
    """A race as one integer: the needs, the shows to come and the objective."""
    (my_need, their_need), (my_show, their_show, dealer) = needs, shows
    if not (0 <= my_show < 64 and 0 <= their_show < 64):
        raise ValueError(f"shows of {my_show} and {their_show} points")
    if not (-_NEED_BIAS < my_need < _NEED_BIAS and -_NEED_BIAS < their_need < _NEED_BIAS):
        raise ValueError(f"needs of {my_need} and {their_need} points")
    race = (their_need + _NEED_BIAS) << 9 | (my_need + _NEED_BIAS)
    race = ((race << 6 | their_show) << 6 | my_show) << 1 | dealer
    return (race << 2 | _OBJECTIVES.index(objective)) << 1 | 1


def against(
    rank: int, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, they_out: bool, unseen: Unseen
) -> float:
    """I lay ``rank`` from ``mine``; then the rest of the play, I at my best and the other
    choosing by :func:`choose` from ``theirs`` and what it has not seen (``unseen``, my
    cards among them): my points less theirs (a whole number). ``they_out``: they said go
    in this count."""
    return _lay(
        rank, pack(mine), pack(theirs), pack_pile(pile), count, False, they_out, True,
        _pack_unseen(unseen), 0,
    )  # fmt: skip


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
    return _lay(
        rank, pack(mine), pack(theirs), pack_pile(pile), count, False, they_out, True,
        _pack_unseen(unseen), _race(needs, shows, objective),
    )  # fmt: skip


# One search serves both: with ``race`` 0 it adds up my points less theirs; with a
# race it takes each side's points off what that side needs, stops when one is home, and
# is my chance of winning. The cards are packed (:mod:`cribcli.players.pegging`), and the
# pile is its scoring end.


def _rest(
    mine: int,
    theirs: int,
    pile: int,
    count: int,
    my_go: bool,
    their_go: bool,
    mine_last: bool,
    my_turn: bool,
    unseen: int,
    race: int,
) -> float:
    """The rest of the play from a turn: my cards, theirs, the pile's scoring end, the
    count, whether I and they said go, whether I laid last, whether it is my turn, what
    they have not seen, and the race if the search is to win. (Not cached: positions
    seldom recur within a search, and hashing each costs more than the few met again
    save.)"""
    if not mine and not theirs:
        return _ended(last_point(bool(pile), count) * (1 if mine_last else -1), race)
    room = COUNT_LIMIT - count
    if my_turn:
        if not my_go:
            options = _fitting(mine, room)
            if options:
                best = 0.0
                for rank in range(1, 14):
                    if options >> rank & 1:
                        laid = _lay(rank, mine, theirs, pile, count, my_go, their_go, True,
                                    unseen, race)  # fmt: skip
                        if laid > best or options & ((1 << rank) - 1) == 0:  # the first
                            best = laid
                return best
        other, other_gone = theirs, their_go
    else:
        if not their_go and theirs and _VALUES[_lowest(theirs)] <= room:
            reply = 0 if my_go else _size(mine)
            rank = _choose(theirs, pile, count, unseen, reply, my_go or not mine)
            return _lay(rank, mine, theirs, pile, count, my_go, their_go, False, unseen, race)
        other, other_gone = mine, my_go
    if not other_gone and other and _VALUES[_lowest(other)] <= room:
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
    point = last_point(bool(pile), count) * (1 if mine_last else -1)
    if not race:
        return point + _fresh(mine, theirs, not mine_last, unseen, 0)
    race = _pegged(point, race)
    home = _home(race)
    return home if home != _NOT_HOME else _fresh(mine, theirs, not mine_last, unseen, race)


def _lay(
    rank: int,
    mine: int,
    theirs: int,
    pile: int,
    count: int,
    my_go: bool,
    their_go: bool,
    by_me: bool,
    unseen: int,
    race: int,
) -> float:
    """A card of ``rank`` laid, by me if ``by_me``, then the rest of the play."""
    gained, tail = laying(pile << 4 | rank)
    total = count + _VALUES[rank]
    if total == 15 or total == COUNT_LIMIT:
        gained += 2
    if by_me:
        mine = packed_without(mine, rank)
        unseen -= 1 << (4 * (rank - 1))  # they see it
    else:
        theirs = packed_without(theirs, rank)
        gained = -gained
    if race:
        race = _pegged(gained, race)
        home = _home(race)
        if home != _NOT_HOME:
            return home
    if total == COUNT_LIMIT:
        # 31: no go point; the count restarts with the other (or the same player, if the
        # other has no cards left)
        rest = _fresh(mine, theirs, not by_me, unseen, race)
    else:
        rest = _rest(mine, theirs, tail, total, my_go, their_go, by_me, not by_me, unseen, race)
    return rest if race else gained + rest


_counts: Final[dict[int, float]] = {}
"""New counts met, by the cards and the race packed as one number: a new count is met
again by another order of the cards before it, and the rest of the play from it is the
most to search. Started afresh when it holds :data:`_COUNTS_LIMIT`."""
_COUNTS_LIMIT: Final = 1 << 13


def _fresh(mine: int, theirs: int, i_lead: bool, unseen: int, race: int) -> float:
    """A new count, led by me if ``i_lead`` (or by them if I have no cards), else by them
    (or by me if they have none)."""
    key = (((unseen << 16 | theirs) << 17 | mine << 1 | i_lead) << 36) | race
    known = _counts.get(key)
    if known is None:
        known = _fresh_count(mine, theirs, i_lead, unseen, race)
        if len(_counts) >= _COUNTS_LIMIT:
            _counts.clear()
        _counts[key] = known
    return known


def _fresh_count(mine: int, theirs: int, i_lead: bool, unseen: int, race: int) -> float:
    """:func:`_fresh`, worked out."""
    if not mine and not theirs:
        return _ended(0, race)
    if not (mine if i_lead else theirs):
        i_lead = not i_lead
    return _rest(mine, theirs, 0, 0, False, False, False, i_lead, unseen, race)


def _pegged(points: int, race: int) -> int:
    """The race once ``points`` are pegged: mine if more than 0, theirs if less."""
    if points > 0:
        return race - (points << _MY_NEED)
    return race + (points << _THEIR_NEED)


def _home(race: int) -> float:
    """1 if I am home, 0 if they are (for game points, what that end is worth), else
    :data:`_NOT_HOME`: the race goes on."""
    my_need = ((race >> _MY_NEED) & 511) - _NEED_BIAS
    their_need = ((race >> _THEIR_NEED) & 511) - _NEED_BIAS
    if my_need <= 0:
        return odds.end_value(_OBJECTIVES[(race >> 1) & 3], True, their_need)
    if their_need <= 0:
        return odds.end_value(_OBJECTIVES[(race >> 1) & 3], False, my_need)
    return _NOT_HOME


def _ended(point: int, race: int) -> float:
    """The play over, the last card's point pegged (mine if more than 0, theirs if less):
    that point; in a race, the shows then decide."""
    if not race:
        return point
    race = _pegged(point, race)
    home = _home(race)
    if home != _NOT_HOME:
        return home
    return odds.after_play(
        ((race >> _MY_NEED) & 511) - _NEED_BIAS,
        ((race >> _THEIR_NEED) & 511) - _NEED_BIAS,
        (race >> 4) & 63,
        (race >> 10) & 63,
        bool(race >> 3 & 1),
        _OBJECTIVES[(race >> 1) & 3],
    )
