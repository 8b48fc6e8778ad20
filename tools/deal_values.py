"""What the six cards dealt are worth on average, as dealer and as pone, for the luck of
the deal (``cribcli/luck.py``).

    python tools/deal_values.py --deals 20000 --jobs 2

Deals six cards to a dealer and six to a pone from a shuffled deck, many times (seeded),
and for each six takes the throw worth most as ``discard-advice`` counts (hand and crib
exactly, the crib against random cards) and what it brings its own side: the hand's
average, and for the dealer the crib's too. Writes each role's mean and standard
deviation to ``cribcli/players/data/deal_values.json``. Took 2 min on 2 cores.
"""

from __future__ import annotations

import argparse
import random
import statistics

from cribcli.analysis import analyse
from cribcli.cards import deck
from cribcli.players import measured
from cribcli.runner import Where, each

BLOCK = 500
"""Deals a piece of work."""


def own_value(six: tuple[object, ...], dealer: bool) -> float:
    """What six cards bring their own side, thrown as well as the exact analysis says:
    the kept hand's average, and the crib's for the dealer."""
    best = analyse(six, dealer=dealer)[0]  # type: ignore[arg-type]
    return best.hand + (best.crib if dealer else 0.0)


def block(args: tuple[str, int]) -> list[tuple[float, float]]:
    """(dealer's, pone's) value of each deal of one block."""
    seed, number = args
    cards = list(deck())
    values = []
    for index in range(number * BLOCK, (number + 1) * BLOCK):
        random.Random(f"{seed} {index}").shuffle(cards)
        dealer, pone = tuple(cards[:6]), tuple(cards[6:12])
        values.append((own_value(dealer, True), own_value(pone, False)))
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000, help=f"a multiple of {BLOCK}")
    parser.add_argument("--seed", default="deal values")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scheduler", help="a Dask cluster's scheduler (docs/cluster.md)")
    options = parser.parse_args()
    work = [(options.seed, number) for number in range(options.deals // BLOCK)]
    done = dict(each(block, work, Where(options.jobs, options.scheduler, batch=1)))
    rows = [row for number in range(len(work)) for row in done[number]]
    table = {
        "about": "what the six cards dealt bring their own side, thrown as well as the exact "
        "analysis says: the hand's average, and the crib's for the dealer",
        "made_by": f"python tools/deal_values.py --deals {len(rows)} --seed '{options.seed}'",
        "deals": len(rows),
        "roles": {
            role: {"mean": round(statistics.fmean(v), 4), "sd": round(statistics.stdev(v), 4)}
            for role, v in (("dealer", [r[0] for r in rows]), ("pone", [r[1] for r in rows]))
        },
    }
    print(measured.write("deal_values.json", table))


if __name__ == "__main__":
    main()
