"""How much more a crib is worth when the other player throws like a good player.

    python tools/crib_table.py --hands 20000 --jobs 2

Deals the other player random six-card hands and lets it throw as the exact analysis
would (the best net: its hand plus the crib when the crib is its own, less the crib when
it is yours). Then, for each pair of ranks you could throw, prints the crib's average
(fifteens, pairs, runs) against those throws less its average against two random cards:
what the hard computer adds to the exact crib value (``cribcli/players/cribs.py``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from collections import Counter
from itertools import combinations_with_replacement
from math import comb

from cribcli.analysis import analyse
from cribcli.cards import deck
from cribcli.scoring import rank_key, rank_table

RANKS = range(1, 14)


def throw(args: tuple[int, bool]) -> tuple[int, int]:
    """The ranks one random hand throws, the crib its own (``dealer``) or not."""
    index, dealer = args
    hand = random.Random(f"crib table {index}").sample(deck(), 6)
    low, high = sorted(card.rank for card in analyse(hand, dealer=dealer)[0].discard)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    pairs = list(combinations_with_replacement(RANKS, 2))
    uniform = Counter({pair: ways(pair, Counter()) for pair in pairs})
    with multiprocessing.Pool(options.jobs) as pool:
        for crib, dealer in (("MY_CRIB", False), ("THEIR_CRIB", True)):
            work = [(index, dealer) for index in range(options.hands)]
            throws = Counter(pool.imap_unordered(throw, work, chunksize=200))
            bias = [round(crib_average(p, throws) - crib_average(p, uniform), 2) for p in pairs]
            print(f"{crib} = {tuple(bias)}")


if __name__ == "__main__":
    main()
