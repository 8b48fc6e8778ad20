"""What the six cards dealt are worth on average, as dealer and as pone, for the luck of
the deal (``cribcli/review/luck.py``).

    python tools/deal_values.py --deals 20000 --jobs 2

Deals six cards to a dealer and six to a pone from a shuffled deck, many times (seeded),
and for each six takes the throw worth most as ``discard-advice`` counts (hand and crib
exactly, the crib against random cards) and what it brings its own side: the hand's
average, and for the dealer the crib the two throws make, over every starter not dealt.
Writes each role's mean and standard deviation to ``cribcli/players/data/deal_values.json``.
Took 1 min on 2 cores.
"""

from __future__ import annotations

import argparse
import random
import statistics

from cribcli.players import measured
from cribcli.rules.analysis import analyse
from cribcli.rules.cards import Card, deck
from cribcli.rules.scoring import show_total
from cribcli.services.runner import Where, each

BLOCK = 500
"""Deals a piece of work."""


def values(dealer: tuple[Card, ...], pone: tuple[Card, ...]) -> tuple[float, float]:
    """What two sixes bring their own sides, each thrown as well as the exact analysis
    says: the pone's kept hand's average; the dealer's, and the crib the two throws make
    over every starter not dealt."""
    mine, theirs = analyse(dealer, dealer=True)[0], analyse(pone, dealer=False)[0]
    crib = (*mine.discard, *theirs.discard)
    undealt = [card for card in deck() if card not in dealer and card not in pone]
    crib_value = sum(show_total(crib, card, crib=True) for card in undealt) / len(undealt)
    return mine.hand + crib_value, theirs.hand


def block(args: tuple[str, int]) -> list[tuple[float, float]]:
    """(dealer's, pone's) value of each deal of one block."""
    seed, number = args
    cards = list(deck())
    found = []
    for index in range(number * BLOCK, (number + 1) * BLOCK):
        random.Random(f"{seed} {index}").shuffle(cards)
        found.append(values(tuple(cards[:6]), tuple(cards[6:12])))
    return found


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
        "analysis says: the hand's average, and for the dealer the crib both throws make",
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
