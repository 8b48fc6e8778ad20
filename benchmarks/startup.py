"""Start-up: what `cribbage score` and `cribbage discard-advice` cost against Python
importing Click alone, side by side in one run (each command's code is loaded only when
it runs, so a quick command must stay quick as the house grows).

Run: python benchmarks/startup.py [RUNS]   (prints figures; nothing is asserted)

Each command is run RUNS times (21 by default), the commands taking turns so that a
machine that speeds up or slows down meets them alike; for each, the median CPU time
(user and system, of the process and anything it starts) and its ratio to the median of
`python -c "import click"`. The targets: score at most 1.2 times, discard-advice at most
1.4 times.

The package's bytecode is compiled first (``compileall``), so that the figures are those of
an installed program whatever ``PYTHONDONTWRITEBYTECODE`` says: without it each run would
compile every module again, and count that.
"""

from __future__ import annotations

import compileall
import statistics
import sys
from pathlib import Path

from command import cpu_time, cribbage

COMMANDS = {
    "python -c 'import click'": [sys.executable, "-c", "import click"],
    "cribbage score ...": cribbage("score", "5H", "5S", "JD", "4C", "--starter", "5D"),
    "cribbage discard-advice ...": cribbage(
        "discard-advice", "5H", "5S", "JD", "4C", "2S", "KH", "--dealer"
    ),
    "cribbage --version": cribbage("--version"),
}


def main(runs: int) -> None:
    compileall.compile_dir(Path(__file__).resolve().parent.parent / "cribcli", quiet=1)
    times: dict[str, list[float]] = {label: [] for label in COMMANDS}
    for _ in range(runs):
        for label, argv in COMMANDS.items():
            times[label].append(cpu_time(argv))
    base = statistics.median(times["python -c 'import click'"])
    print(f"CPU time, median of {runs} runs each, taking turns:")
    for label, spent in times.items():
        median = statistics.median(spent)
        print(f"  {label:30} {1000 * median:6.0f} ms  {median / base:4.2f} x import click")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 21)
