"""Hard against players unlike our levels: a greedy pegger and keeper, a crib-minded
thrower, a random player (the easy level) and normal, in duplicate (each deal sequence
played twice, the seats swapped), and hard's share of the games with its 95% interval
over the pairs. The figure to beat for issue 31 (hard reading the player across the
table by how it plays).

Run: python benchmarks/styles.py [PAIRS] [JOBS] [OPPONENT...]   (all four by default;
prints figures, and each pair's wins as a JSON line, to compare two versions of hard pair
by pair; nothing is asserted)
"""

from __future__ import annotations

import json
import sys
import time
from multiprocessing import get_context

from cribcli.engine import Rules
from cribcli.events import GameOver
from cribcli.match import share_interval
from cribcli.players import Level, Player, computer
from cribcli.players.hard import warm
from cribcli.players.styles import STYLES
from cribcli.record import GameInfo, Seat
from cribcli.session import run_game

OPPONENTS = ("greedy", "crib-minded", "easy", "normal")


def opponent(name: str, seed: str, seat: int) -> Player:
    if name in STYLES:
        return STYLES[name](seed, seat)
    return computer(name, seed, seat)


def pair(task: tuple[str, int]) -> tuple[str, int]:
    """Hard's wins in one duplicate pair against ``name`` (0, 1 or 2)."""
    name, index = task
    seed = f"styles {index}"
    wins = 0
    for hard_seat in (0, 1):
        players = [opponent(name, seed, 1 - hard_seat)] * 2
        players[hard_seat] = computer(Level.HARD, seed, hard_seat)
        seats = tuple(Seat(f"seat {n}", "computer", Level.NORMAL) for n in (0, 1))
        info = GameInfo(Rules(first_dealer=index % 2), seats, seed)
        _, events = run_game(info, players)
        over = next(e for e in events if isinstance(e, GameOver))
        wins += over.winner == hard_seat
    return name, wins


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    opponents = sys.argv[3:] or list(OPPONENTS)
    warm(True)  # hard's tables, once, before the workers fork
    start = time.perf_counter()
    tasks = [(name, n) for name in opponents for n in range(pairs)]
    with get_context("fork").Pool(jobs) as pool:
        results = pool.map(pair, tasks, chunksize=4)
    took = time.perf_counter() - start
    print(f"hard against each, {pairs} duplicate pairs ({2 * pairs} games) each, {took:.0f} s")
    for name in opponents:
        units = [(wins, 2) for who, wins in results if who == name]
        share, low, high = share_interval(units)
        print(f"  {name:12} hard wins {100 * share:5.1f}%  ({100 * low:.1f}% to {100 * high:.1f}%)")
    print(json.dumps({name: [w for who, w in results if who == name] for name in opponents}))


if __name__ == "__main__":
    main()
