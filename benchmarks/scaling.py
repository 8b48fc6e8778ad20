"""Games a second of a match at 1 and 2 processes, and on a Dask cluster of 2 and 4
workers started here on 127.0.0.1 (the cluster's overhead on the same machine).

Run: python benchmarks/scaling.py [GAMES]   (prints figures; nothing is asserted)
Needs the cluster extra (distributed) for the cluster's rows.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from cribcli.services.match import Setup
from cribcli.services.runner import run_match

PAIRS = (("hard", "normal"), ("normal", "normal"))


def rate(
    players: tuple[str, str], games: int, jobs: int = 1, scheduler: str | None = None
) -> float:
    """Games a second, wall time, of a match played as asked."""
    start = time.perf_counter()
    run_match(Setup(players, "scaling"), games, jobs=jobs, scheduler=scheduler)
    return games / (time.perf_counter() - start)


@contextlib.contextmanager
def cluster(workers: int) -> Iterator[str]:
    """A scheduler and ``workers`` one-thread workers here: the scheduler's address."""
    dask = shutil.which("dask", path=str(Path(sys.executable).parent)) or "dask"
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder) / "scheduler.json"
        started = [
            subprocess.Popen(
                [dask, "scheduler", "--host", "127.0.0.1", "--port", "0",
                 "--scheduler-file", str(where), "--no-dashboard"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
        ]  # fmt: skip
        try:
            address = None
            deadline = time.monotonic() + 120  # (a ceiling: the scheduler did not start)
            while address is None:
                if time.monotonic() > deadline or started[0].poll() is not None:
                    raise SystemExit("the Dask scheduler did not start")
                with contextlib.suppress(OSError, ValueError, KeyError):  # (not yet, or half)
                    address = json.loads(where.read_text(encoding="utf-8"))["address"]
                time.sleep(0.05)
            started.append(
                subprocess.Popen(
                    [dask, "worker", address, "--nworkers", str(workers), "--nthreads", "1",
                     "--no-dashboard"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
            )  # fmt: skip
            from distributed import Client

            with Client(address, set_as_default=False) as client:  # type: ignore[no-untyped-call]
                client.wait_for_workers(workers, timeout=120)
            yield address
        finally:
            for process in started:
                process.terminate()
                process.wait()


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    print(f"{os.cpu_count()} cores; games a second (wall time), {games} games a match")
    for players in PAIRS:
        count = games if "hard" in players else 5 * games
        one = rate(players, count, jobs=1)
        two = rate(players, count, jobs=2)
        print(
            f"  {' v '.join(players):<16} 1 job {one:6.2f}   2 jobs {two:6.2f} ({two / one:.2f}x)"
        )
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("  (no cluster figures: pip install 'cribcli[cluster]')")
        return
    for workers in (2, 4):
        with cluster(workers) as address:
            for players in PAIRS:
                count = games if "hard" in players else 5 * games
                rate(players, 4, scheduler=address)  # each worker's tables, once
                there = rate(players, count, scheduler=address)
                print(f"  {' v '.join(players):<16} cluster of {workers} workers {there:6.2f}")


if __name__ == "__main__":
    main()
