"""Timing a whole `cribbage` command, Python start-up included (used by the other scripts)."""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import time


def cribbage(*args: str) -> list[str]:
    """The command line to run cribbage with ``args`` (the installed command if there is one)."""
    command = shutil.which("cribbage")
    return [*([command] if command else [sys.executable, "-m", "cribcli"]), *args]


def cpu_time(argv: list[str]) -> float:
    """The CPU seconds of one run of ``argv`` (user and system, its children's too)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def report_wall_time(label: str, argv: list[str], runs: int = 15) -> float:
    """Run ``argv`` ``runs`` times, print the median and best wall time and the median CPU
    time (the steadier figure on a shared machine), and return the median wall time."""
    times = []
    spent = []
    for _ in range(runs):
        start = time.perf_counter()
        spent.append(cpu_time(argv))
        times.append(time.perf_counter() - start)
    print(
        f"`{label}` wall time: median {1000 * statistics.median(times):.0f} ms, "
        f"best {1000 * min(times):.0f} ms; CPU time: median "
        f"{1000 * statistics.median(spent):.0f} ms, over {runs} runs"
    )
    return statistics.median(times)
