"""The rating bands, calibrated on the computer levels: GAMES games of each level against
normal (taking turns to sit first), the level's seat reviewed as `cribbage review` reviews
it (the game's own seed for the sampled hands), and for each level its error rate (points
lost a decision) with its 95% interval, over all its decisions and by kind, its accuracy
and the band it lands in, and how often a throw and a lay lose half a point or more (an
inaccuracy or worse). The error rate must fall, and the accuracy rise, with the level.

Run: python benchmarks/calibration.py [GAMES] [JOBS] [LEVEL...]   (all ten by default;
prints figures; nothing is asserted)
"""

from __future__ import annotations

import sys
import time
from multiprocessing import Pool

from cribcli.players import Level, computer
from cribcli.record.log import GameInfo, Seat
from cribcli.record.session import run_game
from cribcli.review.coach import review
from cribcli.review.grading import KINDS, RATINGS, Grade, accuracy, rating
from cribcli.rules.engine import Rules
from cribcli.services.match import mean_interval

INACCURACY = 0.5
"""A decision that loses this much or more is an inaccuracy or worse (the coach's marks)."""


def graded(task: tuple[Level, int]) -> tuple[Level, Grade, dict[str, tuple[int, int]]]:
    """One game of ``level`` against normal, its seat's decisions graded."""
    level, index = task
    seed = f"calibration {level} {index}"
    mine = index % 2
    levels = [Level.NORMAL, Level.NORMAL]
    levels[mine] = level
    seats = tuple(Seat(f"{lv} {n}", "computer", lv) for n, lv in enumerate(levels))
    info = GameInfo(Rules(first_dealer=index // 2 % 2), seats, seed)
    players = [computer(lv, seed, n) for n, lv in enumerate(levels)]
    _, events = run_game(info, players)
    from cribcli.record.log import dumps
    from cribcli.record.reader import loads
    from cribcli.record.replay import replay

    replayed = replay(loads(dumps(info, events)))
    judged = review(replayed.log.info, replayed.actions, mine)
    wrong = {
        kind: (
            sum(d.kind == kind and d.lost >= INACCURACY for d in judged.decisions),
            sum(d.kind == kind for d in judged.decisions),
        )
        for kind in ("throw", "lay")
    }
    return level, judged.grade(), wrong


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    levels = [Level.parse(word) or Level.NORMAL for word in sys.argv[3:]] or list(Level)
    start = time.perf_counter()
    tasks = [(level, n) for level in levels for n in range(games)]
    with Pool(jobs) as pool:
        results = pool.map(graded, tasks, chunksize=2)
    took = time.perf_counter() - start
    print(
        f"{games} games of each level against normal, its seat reviewed ({took:.0f} s, {jobs} jobs)"
    )
    kinds = "".join(f"{kind + 's':>8}" for kind in KINDS)
    print(
        f"  {'level':8}{'decisions':>10}{'error rate (95% interval)':>30}{kinds}  accuracy"
        f"  band  (throws, lays losing {INACCURACY} or more)"
    )
    for level in levels:
        grades = [grade for lv, grade, _ in results if lv == level]
        shares = []
        for kind in ("throw", "lay"):
            wrong = sum(counts[kind][0] for lv, _, counts in results if lv == level)
            made = sum(counts[kind][1] for lv, _, counts in results if lv == level)
            shares.append(f"{100 * wrong / max(made, 1):.0f}%")
        total = Grade()
        for grade in grades:
            total = total.plus(grade)
        rate, low, high = mean_interval([(sum(g.lost), g.made) for g in grades])
        kinds = "".join(f"{total.error_rate(kind):8.3f}" for kind in KINDS)
        print(
            f"  {level.number:<3}{level:5}{total.made:10}"
            f"{rate:12.3f} ({low:.3f} to {high:.3f}){'':>5}{kinds}"
            f"{accuracy(rate):10.1f}  {rating(rate)} ({rating(low)} to {rating(high)})"
            f"  ({', '.join(shares)})"
        )
    print("  bands: " + ", ".join(f"{name} under {under:g}" for under, name in RATINGS[:-1]))


if __name__ == "__main__":
    main()
