"""Measure the computer levels' anchors for the club's ratings, once.

    python tools/anchors.py --games 300 --jobs 2

Plays a match between each level and the one below it (2 v easy, 3 v 2, ... hard v
normal) and normal v easy, in duplicate (each deal twice, the seats swapped) to 121, each
from the same seed (so the pairs play the same deals), and fits the ten levels' skills
to the results with the rating model's own chance of winning
(:func:`cribcli.club.ratings.fit_levels`: normal at the centre, each pair's record given half
a game more won by each side, so that a clean sweep gives a finite gap). Writes the
matches (games, wins of the first level, its win rate with a 95% interval, and its wins
in each block of games, so that a test can play a block again and compare) and the
levels' ``mu`` and display rating to ``cribcli/players/data/anchors.json``.
Took 12 min 20 s on two cores with --games 300 (another test run sharing them; nearly
all of it the hard computer's games).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from typing import Any

from cribcli.club import ratings
from cribcli.players import Level, measured
from cribcli.services.match import Report, Setup
from cribcli.services.runner import run_match

LADDER = tuple(Level)
PAIRS = (
    *((stronger, weaker) for weaker, stronger in itertools.pairwise(LADDER)),
    (Level.NORMAL, Level.EASY),
)
"""The matches, the stronger level first: each level against the one below it (the
ladder's calibration: each step should be won 55% to 65% of the time), and normal
against easy, the ladder's span."""
BLOCK = 20
"""Games a block (ten deals, each played twice): a test plays one again and compares."""


def play(
    pair: tuple[Level, Level], games: int, seed: str, jobs: int, scheduler: str | None = None
) -> Report:
    """A duplicate match between two levels."""
    setup = Setup.of((pair[0].value, pair[1].value), seed, duplicate=True)
    return run_match(setup, games, jobs=jobs, scheduler=scheduler)


def blocks(report: Report) -> list[int]:
    """The first level's wins in each block of games (its pairs of twin games in order)."""
    per_block = BLOCK // 2
    return [sum(report.pairs[i : i + per_block]) for i in range(0, len(report.pairs), per_block)]


def made_by(games: int, seed: str) -> str:
    """How the table was made (each match ``games`` games from ``seed``)."""
    return f"python tools/anchors.py --games {games} --seed {seed}"


def match_key(pair: tuple[Level, Level]) -> str:
    return f"{pair[0]} v {pair[1]}"


def entry(report: Report) -> dict[str, Any]:
    """A match as the table writes it."""
    rate, low, high = report.win_rate()
    return {
        "games": report.games,
        "wins": report.wins[0],
        "win rate": round(rate, 4),
        "95% interval": [round(low, 4), round(high, 4)],
        "blocks": blocks(report),
    }


def table(matches: dict[tuple[Level, Level], dict[str, Any]], seed: str) -> dict[str, object]:
    """The table as written: the matches (each as :func:`entry` writes it), and the
    levels fitted to them."""
    games = {match["games"] for match in matches.values()}
    assert len(games) == 1
    fitted = ratings.fit_levels({pair: (m["games"], m["wins"]) for pair, m in matches.items()})
    levels = {
        str(level): {
            "mu": round(mu, 2),
            "rating": ratings.rating_of(round(mu, 2), ratings.ANCHOR_SIGMA),
        }
        for level, mu in sorted(fitted.items(), key=lambda item: item[1])
    }
    return {
        "about": "the computer levels' fixed ratings for the club's ladder, fitted to "
        "duplicate matches between them to 121",
        "made_by": made_by(games.pop(), seed),
        "matches": {match_key(pair): match for pair, match in matches.items()},
        "levels": levels,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help=f"each match: a multiple of {BLOCK}")
    parser.add_argument("--seed", default="anchors")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scheduler", help="a Dask cluster's scheduler (docs/cluster.md)")
    parser.add_argument(
        "--again",
        action="append",
        choices=[match_key(pair) for pair in PAIRS],
        help="play only this match again (repeatable), keeping the table's others: after "
        "a change to one level",
    )
    options = parser.parse_args()
    if options.games <= 0 or options.games % BLOCK:
        parser.error(f"--games: a multiple of {BLOCK}")
    began = time.monotonic()
    matches: dict[tuple[Level, Level], dict[str, Any]] = {}
    if options.again:
        kept = measured.read(ratings.ANCHORS)
        if kept["made_by"] != made_by(options.games, options.seed):
            parser.error(f"--again: the table was made by `{kept['made_by']}`")
        matches = {pair: kept["matches"][match_key(pair)] for pair in PAIRS}
    for pair in PAIRS:
        if options.again and match_key(pair) not in options.again:
            continue
        report = play(pair, options.games, options.seed, options.jobs, options.scheduler)
        matches[pair] = entry(report)
        elapsed = time.monotonic() - began
        print(
            f"{match_key(pair)}: {report.wins[0]} of {options.games} won ({elapsed:.0f} s)",
            file=sys.stderr,
        )
    print(measured.write(ratings.ANCHORS, table(matches, options.seed)))
    print(f"took {time.monotonic() - began:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
