"""How much more a crib is worth when the other player throws like a good player (or
like a player of another style).

    python tools/crib_table.py --hands 20000 --jobs 2 [--style greedy]

Deals the other player random six-card hands and lets it throw as the exact analysis
would (the best net: its hand plus the crib when the crib is its own, less the crib when
it is yours), or with ``--style`` as a player of that style does
(:func:`cribcli.players.styles.throw`: greedy, the best hand alone; crib-minded, the
richest crib as dealer, the poorest as pone). Then, for each pair of ranks you could
throw, works out the crib's average (fifteens, pairs, runs) against those throws less its
average against two random cards: what the hard computer adds to the exact crib value.
Writes the throws it counted (by blocks of hands, so that a test can deal a block again
and compare) and those averages to ``cribcli/players/data/cribs.json`` (a style's to its
own file: :attr:`cribcli.players.habits.Style.crib_table`). Took 77 s on one core (each
style's about as long).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from itertools import combinations_with_replacement
from math import comb

from cribcli.players import measured
from cribcli.players.habits import Style
from cribcli.players.styles import throw as style_throw
from cribcli.rules.analysis import analyse
from cribcli.rules.cards import deck
from cribcli.rules.scoring import rank_key, rank_table
from cribcli.services.runner import Where, each

RANKS = range(1, 14)


def throw(args: tuple[int, bool, Style]) -> tuple[int, int]:
    """The ranks one random hand throws, the crib its own (``dealer``) or not, by a
    player of a style."""
    index, dealer, style = args
    hand = random.Random(f"crib table {index}").sample(deck(), 6)
    chosen = style_throw(style, analyse(hand, dealer=dealer), dealer)
    low, high = sorted(card.rank for card in chosen.discard)
    return low, high


def ways(ranks: tuple[int, ...], removed: Counter[int]) -> int:
    """Ways to draw cards of ``ranks`` from a deck without the ``removed`` ranks' cards."""
    wanted = Counter(ranks)
    total = 1
    for rank, number in wanted.items():
        total *= comb(4 - removed[rank], number)
    return total


def crib_average(mine: tuple[int, int], theirs: Counter[tuple[int, int]]) -> float:
    """The crib's fifteens, pairs and runs with ``mine`` and the other's throws weighted
    by how often they come (and by how the cards I threw make them less likely)."""
    table = rank_table()
    mine_count = Counter(mine)
    total = weight = 0.0
    for pair, often in theirs.items():
        chance = often * ways(pair, mine_count) / ways(pair, Counter())
        if not chance:
            continue
        used = mine_count + Counter(pair)
        for starter in RANKS:
            left = 4 - used[starter]
            if left > 0:
                total += chance * left * table[rank_key((*mine, *pair, starter))]
                weight += chance * left
    return total / weight


BLOCK = 1000
"""Hands a block: a test deals one again and compares its throws."""
MEASURED = [style for style in Style if style.crib_table and style.keeps_like is style]
"""The styles with a throw of their own, each with its table: careful, greedy,
crib-minded (the loose throw as careful, the random as the exact analysis assumes)."""
THROWERS = {"pone": False, "dealer": True}
"""Who throws into whose crib: a pone into yours (the crib is not its own), a dealer into
its own."""


def block_throws(
    thrower: str, block: int, style: Style = Style.CAREFUL
) -> Counter[tuple[int, int]]:
    """The ranks thrown by a ``thrower`` ("pone" or "dealer") of ``style`` in one block
    of hands."""
    dealer = THROWERS[thrower]
    hands = range(block * BLOCK, (block + 1) * BLOCK)
    return Counter(throw((index, dealer, style)) for index in hands)


def biases(throws: dict[str, Counter[tuple[int, int]]]) -> dict[str, dict[str, float]]:
    """For each pair of ranks you throw: how much more (or less) the crib is worth against
    the pone's throws (your crib: ``mine``) and the dealer's (theirs: ``theirs``) than
    against random cards."""
    pairs = list(combinations_with_replacement(RANKS, 2))
    uniform = Counter({pair: ways(pair, Counter()) for pair in pairs})
    return {
        measured.ranks_key(pair): {
            side: round(crib_average(pair, throws[thrower]) - crib_average(pair, uniform), 2)
            for side, thrower in (("mine", "pone"), ("theirs", "dealer"))
        }
        for pair in pairs
    }


def table(
    blocks: dict[tuple[str, int], Counter[tuple[int, int]]], style: Style = Style.CAREFUL
) -> dict[str, object]:
    """The table as written: the throws by block, and the biases from all of them."""
    total = {thrower: Counter[tuple[int, int]]() for thrower in THROWERS}
    for (thrower, _), counted in blocks.items():
        total[thrower] += counted
    hands = BLOCK * len({block for _, block in blocks})
    careful = style is Style.CAREFUL
    return {
        "about": "the crib against "
        + ("a good player's throws" if careful else f"a {style} player's throws")
        + ", less against random cards",
        "made_by": f"python tools/crib_table.py --hands {hands}"
        + ("" if careful else f" --style {style}"),
        "throws": {
            f"{thrower} {block}": {
                measured.ranks_key(pair): n for pair, n in sorted(counted.items())
            }
            for (thrower, block), counted in blocks.items()
        },
        "bias": biases(total),
    }


def _block(args: tuple[str, int, Style]) -> tuple[tuple[str, int], Counter[tuple[int, int]]]:
    return args[:2], block_throws(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help=f"a multiple of {BLOCK}")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scheduler", help="a Dask cluster's scheduler (docs/cluster.md)")
    parser.add_argument("--style", type=Style, choices=MEASURED, default=Style.CAREFUL)
    options = parser.parse_args()
    style = options.style
    blocks_made = range(options.hands // BLOCK)
    work = [(thrower, block, style) for thrower in THROWERS for block in blocks_made]
    done = dict(each(_block, work, Where(options.jobs, options.scheduler, batch=1)))
    blocks = dict(done[number] for number in range(len(work)))
    assert style.crib_table is not None
    print(measured.write(style.crib_table, table(blocks, style)))


if __name__ == "__main__":
    main()
