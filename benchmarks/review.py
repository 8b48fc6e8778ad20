"""`cribbage review`: how long a whole game takes, and how much the computers' decisions
lose (the figures the marks' thresholds were chosen from).

Run: python benchmarks/review.py [GAMES]   (prints figures; nothing is asserted)

Timing: a game to 121 between the hard and normal computers is written to a file and
reviewed with the whole command (Python start-up included), seat 0 and then with --open.

Losses: GAMES games of hard against normal (taking turns to sit first) are reviewed for
both seats. Hard's lays are judged with other sampled hands than its own (a different
seed), so what it loses shows the noise of the measure; normal's show what a sound but
shallow player loses. For each level and kind, the share of decisions that lose at least
each threshold, and the spread of the losses.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

from command import cribbage, report_wall_time

from cribcli.players import Level, computer
from cribcli.record.log import GameInfo, Seat, dumps
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.session import run_game
from cribcli.review.coach import MARKS, review
from cribcli.rules.engine import Rules


def game_log(seed: int, levels: tuple[Level, Level]) -> str:
    """A finished game's log between two computer levels."""
    seats = tuple(Seat(f"{level} {n}", "computer", level) for n, level in enumerate(levels))
    info = GameInfo(Rules(), seats, seed)
    _, events = run_game(info, [computer(level, seed, n) for n, level in enumerate(levels)])
    return dumps(info, events)


def losses(seed: int) -> list[tuple[str, str, float]]:
    """(level, kind, loss) for every decision of both seats of one game; the kind has
    ``, end`` when it was judged by the chance of winning (near the end)."""
    levels = (Level.HARD, Level.NORMAL) if seed % 2 else (Level.NORMAL, Level.HARD)
    replayed = replay(loads(game_log(seed, levels)))
    found: list[tuple[str, str, float]] = []
    for seat, level in enumerate(levels):
        judged = review(replayed.log.info, replayed.actions, seat, samples=f"other {seed}")
        found.extend(
            (str(level), d.kind + (", end" if d.chance is not None else ""), d.lost)
            for d in judged.decisions
        )
    return found


def loss_figures(games: int) -> None:
    start = time.perf_counter()
    with Pool(2) as pool:
        rows = [row for game in pool.imap_unordered(losses, range(games)) for row in game]
    took = time.perf_counter() - start
    print(f"Losses over {games} games of hard against normal ({took:.0f} s on 2 cores):")
    thresholds = [at for at, _ in reversed(MARKS)]
    print(
        f"  {'level':7}{'kind':11}{'decisions':>10}{'median':>8}{'p90':>7}{'p99':>7}"
        + "".join(f"{'>=' + format(at, 'g'):>8}" for at in thresholds)
    )
    for level in ("hard", "normal"):
        for kind in ("throw", "lay", "throw, end", "lay, end"):
            lost = sorted(loss for lv, k, loss in rows if lv == level and k == kind)
            if not lost:
                continue
            shares = "".join(
                f"{100 * sum(loss >= at - 1e-9 for loss in lost) / len(lost):7.1f}%"
                for at in thresholds
            )
            print(
                f"  {level:7}{kind:11}{len(lost):10}{statistics.median(lost):8.2f}"
                f"{lost[int(0.9 * (len(lost) - 1))]:7.2f}{lost[int(0.99 * (len(lost) - 1))]:7.2f}"
                + shares
            )


def timing() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.toml"
        path.write_text(game_log(7, (Level.HARD, Level.NORMAL)), encoding="utf-8")
        rounds = len(loads(path.read_text(encoding="utf-8")).rounds)
        print(f"A game to 121 of {rounds} rounds (hard against normal, seed 7):")
        report_wall_time("cribbage review game.toml", cribbage("review", str(path)), runs=3)
        report_wall_time(
            "cribbage review game.toml --open", cribbage("review", str(path), "--open"), runs=3
        )


if __name__ == "__main__":
    timing()
    loss_figures(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
