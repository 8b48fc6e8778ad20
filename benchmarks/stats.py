"""`cribbage stats` over 10,000 finished games' logs.

Run: python benchmarks/stats.py [LOGS]   (prints figures; nothing is asserted)

The logs are real games (easy against normal) written into a temporary folder, each
game copied under many names to make up the number. The first run replays every log
(none is remembered yet: logs copied in from elsewhere); the later runs read what it
remembered, as after games played with `cribbage play`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from command import cribbage

from cribcli.players import Level, computer
from cribcli.record.log import GameInfo, Seat, dumps
from cribcli.record.session import run_game
from cribcli.rules.engine import Rules


def main(count: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="cribbage-stats-"))
    games = folder / "games"
    games.mkdir()
    texts = []
    for seed in range(20):
        info = GameInfo(
            Rules(),
            (Seat("You"), Seat("Computer", "computer", Level.NORMAL)),
            seed,
            started=f"2026-11-{1 + seed:02d}T20:00:00+00:00",
        )
        _, events = run_game(info, [computer("easy", seed, 0), computer("normal", seed, 1)])
        texts.append(dumps(info, events))
    for i in range(count):
        (games / f"game-{i:05}.toml").write_text(texts[i % len(texts)], encoding="utf-8")
    argv = cribbage("stats", "--data-dir", str(folder))
    times = []
    for _ in range(4):
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    print(f"`cribbage stats` over {count:,} logs, none remembered: {times[0]:.2f} s")
    print(f"`cribbage stats` over {count:,} logs, remembered: best {min(times[1:]):.2f} s of 3")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
