"""Tally how many points each source gives a deal, for the table of winning chances.

    python tools/deal_odds.py --games 4000 --jobs 2 > counts.txt

Plays computer games (normal against normal by default; the levels score much alike) and
prints, over every finished deal, how often each score came from: the dealer's pegging
(his heels included), the pone's pegging, the pone's hand, the dealer's hand, the crib.
``cribcli/players/odds.py`` holds the counts this printed.
"""

from __future__ import annotations

import argparse
import multiprocessing
from collections import Counter

from cribcli.match import play_game


def tally(args: tuple[str, str, int]) -> list[tuple[int, ...]]:
    level, seed, index = args
    game = play_game((level, level), seed, index)
    rows = []
    for deal in game.deals:
        dealer, pone = deal.points[deal.dealer], deal.points[1 - deal.dealer]
        rows.append((dealer.pegging, pone.pegging, pone.hand, dealer.hand, dealer.crib))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--seed", default="odds")
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    names = ("dealer pegging", "pone pegging", "pone hand", "dealer hand", "crib")
    counts: list[Counter[int]] = [Counter() for _ in names]
    work = [(options.level, options.seed, index) for index in range(options.games)]
    with multiprocessing.Pool(options.jobs) as pool:
        for rows in pool.imap_unordered(tally, work, chunksize=20):
            for row in rows:
                for column, points in enumerate(row):
                    counts[column][points] += 1
    deals = sum(counts[0].values())
    print(f"# {deals} deals of {options.level} against {options.level}")
    for name, column in zip(names, counts, strict=True):
        top = max(column)
        print(f"{name}: {tuple(column[points] for points in range(top + 1))}")


if __name__ == "__main__":
    main()
