"""Tally how many points each source gives a deal, for the table of winning chances.

    python tools/deal_odds.py --games 4000 --jobs 2

Plays computer games (normal against normal by default; the levels score much alike) and
counts, over every finished deal, how often each score came from: the dealer's pegging
(his heels included), the pone's pegging, the pone's hand, the dealer's hand, the crib.
Writes the counts, by blocks of games (so that a test can play a block again and
compare), to ``cribcli/players/data/deal_points.json``; ``--scheduler`` plays them on a Dask
cluster; ``cribcli/players/odds.py`` adds
them up. Took 3 min on one core.
"""

from __future__ import annotations

import argparse
from collections import Counter

from cribcli.players import measured
from cribcli.services.match import GameSummary, Setup, match_game
from cribcli.services.runner import Where, each

SOURCES = ("dealer pegging", "pone pegging", "pone hand", "dealer hand", "crib")
BLOCK = 100
"""Games a block: a test plays one again and compares its counts."""


def tally(args: tuple[str, str, int]) -> list[tuple[int, ...]]:
    """One game's finished deals, each as its points from the five sources."""
    level, seed, index = args
    game = match_game(Setup((level, level), seed), index)
    assert isinstance(game, GameSummary)  # (levels only: every game has a result)
    rows: list[tuple[int, ...]] = []
    for deal in game.deals:
        dealer, pone = deal.points[deal.dealer], deal.points[1 - deal.dealer]
        rows.append((dealer.pegging, pone.pegging, pone.hand, dealer.hand, dealer.crib))
    return rows


def block_counts(level: str, seed: str, block: int) -> dict[str, list[int]]:
    """How often each source scored 0, 1, 2... points, over one block of games."""
    counts: list[Counter[int]] = [Counter() for _ in SOURCES]
    for index in range(block * BLOCK, (block + 1) * BLOCK):
        for row in tally((level, seed, index)):
            for column, points in enumerate(row):
                counts[column][points] += 1
    return {
        source: [column[points] for points in range(max(column) + 1)]
        for source, column in zip(SOURCES, counts, strict=True)
    }


def _block(args: tuple[str, str, int]) -> dict[str, list[int]]:
    return block_counts(*args)


def table(level: str, seed: str, blocks: list[dict[str, list[int]]]) -> dict[str, object]:
    """The table as written: each block's counts."""
    games = BLOCK * len(blocks)
    return {
        "about": f"how often each source scored 0, 1, 2... points a deal, {level} v {level}",
        "made_by": f"python tools/deal_odds.py --games {games} --level {level} --seed {seed}",
        "blocks": {f"games {i * BLOCK}-{(i + 1) * BLOCK - 1}": b for i, b in enumerate(blocks)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help=f"a multiple of {BLOCK}")
    parser.add_argument("--level", default="normal")
    parser.add_argument("--seed", default="odds")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scheduler", help="a Dask cluster's scheduler (docs/cluster.md)")
    options = parser.parse_args()
    work = [(options.level, options.seed, block) for block in range(options.games // BLOCK)]
    done = dict(each(_block, work, Where(options.jobs, options.scheduler, batch=1)))
    blocks = [done[number] for number in range(len(work))]
    print(measured.write("deal_points.json", table(options.level, options.seed, blocks)))


if __name__ == "__main__":
    main()
