"""Luck that averages nothing: GAMES games of normal against normal (first deals taking
turns), each deal's luck weighed by part and role, and the mean of each with its 95%
interval. Each part should be 0 within its interval: the deal's, if the average sixes
(``tools/deal_values.py``) are right; the starter's exactly, by construction; the play's,
if the pegging table's edges are a fair expectation. Lays are not reviewed here (the two
sides lose alike on average), so the play's part also holds both sides' errors.

Run: python benchmarks/luck.py [GAMES] [JOBS]   (prints figures; nothing is asserted)
"""

from __future__ import annotations

import math
import statistics
import sys
from multiprocessing import Pool

from cribcli.players import Level, computer
from cribcli.record.log import GameInfo, Seat
from cribcli.record.session import run_game
from cribcli.review.luck import luck_of
from cribcli.rules.engine import Rules
from cribcli.rules.events import Dealt


def deals(index: int) -> list[tuple[str, float, float, float]]:
    """(role, deal, starter, play) of each seat's every weighed deal of one game."""
    seed = f"luck {index}"
    seats = (Seat("a", "computer", Level.NORMAL), Seat("b", "computer", Level.NORMAL))
    info = GameInfo(Rules(first_dealer=index % 2), seats, seed)
    _, events = run_game(info, [computer(Level.NORMAL, seed, n) for n in (0, 1)])
    luck = luck_of(events, {})
    if luck is None:
        return []
    dealers = {e.round: e.dealer for e in events if isinstance(e, Dealt)}
    return [
        ("dealer" if dealers[d.round] == d.seat else "pone", d.deal, d.starter, d.play)
        for d in luck.deals
    ]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    with Pool(jobs) as pool:
        rows = [row for game in pool.map(deals, range(games), chunksize=8) for row in game]
    print(f"{games} games of normal v normal, {len(rows) // 2} deals weighed")
    print(f"  {'role':8}{'part':9}{'mean':>8}  95% interval    sd")
    for role in ("dealer", "pone"):
        for column, part in enumerate(("deal", "starter", "play"), start=1):
            values = [float(row[column]) for row in rows if row[0] == role]
            mean, sd = statistics.fmean(values), statistics.stdev(values)
            half = 1.96 * sd / math.sqrt(len(values))
            print(
                f"  {role:8}{part:9}{mean:+8.3f}  {mean - half:+.3f} to {mean + half:+.3f}{sd:6.2f}"
            )


if __name__ == "__main__":
    main()
