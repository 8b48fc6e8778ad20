"""Timing a whole `cribbage` command, Python start-up included (used by the other scripts)."""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time


def cribbage(*args: str) -> list[str]:
    """The command line to run cribbage with ``args`` (the installed command if there is one)."""
    command = shutil.which("cribbage")
    return [*([command] if command else [sys.executable, "-m", "cribcli"]), *args]


def report_wall_time(label: str, argv: list[str], runs: int = 15) -> float:
    """Run ``argv`` ``runs`` times, print the median and best wall time, and return the
    median."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    print(
        f"`{label}` wall time: median {1000 * statistics.median(times):.0f} ms, "
        f"best {1000 * min(times):.0f} ms over {runs} runs"
    )
    return statistics.median(times)
