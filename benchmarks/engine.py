"""The engine protocol's cost: games a second of a level against `cribbage engine`
(through the pipes, a process kept for the match) and against the same level in-process.

Run: python benchmarks/engine.py [GAMES] [LEVEL...]   (prints figures; nothing is asserted)

Each LEVEL (normal and hard unless given) plays normal, then `cribbage engine --level
normal`. The engine draws its choices from its own seed, so the games are not the same
games: with normal against normal the difference is the protocol's cost; against hard,
whose decisions take most of the time, it is mostly the games'.
"""

from __future__ import annotations

import shlex
import sys
import time

from cribcli.rules.tally import ROLES
from cribcli.services.match import Setup
from cribcli.services.runner import run_match

ENGINE = f"engine:{shlex.quote(sys.executable)} -m cribcli engine --level normal"


def games_per_second(first: str, second: str, games: int) -> tuple[float, int]:
    """Games a second of a match, and the deals played."""
    start = time.perf_counter()
    report = run_match(Setup((first, second), "bench"), games)
    took = time.perf_counter() - start
    assert report.forfeits == [0, 0], report.reasons
    deals = sum(report.points[1].deals(role) for role in ROLES)
    return games / took, deals


def main(games: int, levels: list[str]) -> None:
    for first in levels:
        local, _ = games_per_second(first, "normal", games)
        piped, deals = games_per_second(first, ENGINE, games)
        overhead = (1 / piped - 1 / local) * games / max(deals, 1)
        print(
            f"{first} v normal, {games} games: in-process {local:6.2f} games/s, "
            f"through the protocol {piped:6.2f} games/s "
            f"({100 * (1 - piped / local):.0f}% fewer; {1000 * overhead:.1f} ms a deal)"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20, sys.argv[2:] or ["normal", "hard"])
