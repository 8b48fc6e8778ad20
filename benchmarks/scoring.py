"""Scoring speed: hands per second, the full distribution, and `cribbage score` start-up.

Run: python benchmarks/scoring.py   (prints figures; nothing is asserted)
"""

from __future__ import annotations

import time
from itertools import combinations, islice

from command import cribbage, report_wall_time

from cribcli.rules.cards import Card, deck
from cribcli.rules.scoring import rank_table, score_show, show_distribution, show_total


def deals(count: int) -> list[tuple[tuple[Card, ...], Card]]:
    cards = deck()
    out: list[tuple[tuple[Card, ...], Card]] = []
    for hand in islice(combinations(cards, 4), 0, None, 97):
        for starter in cards[::5]:
            if starter not in hand:
                out.append((hand, starter))
                if len(out) == count:
                    return out
    return out


def rate(function, sample) -> float:  # type: ignore[no-untyped-def]
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        for hand, starter in sample:
            function(hand, starter)
        best = max(best, len(sample) / (time.perf_counter() - start))
    return best


def main() -> None:
    start = time.perf_counter()
    rank_table()
    print(
        f"rank table (6,188 multisets of five ranks): {1000 * (time.perf_counter() - start):.0f} ms"
    )
    sample = deals(200_000)
    print(f"show_total (the number):      {rate(show_total, sample):,.0f} hands/s")
    # The ratio from the same hands, each count timed in turn (the machine's speed wanders).
    few = sample[:20_000]
    totals, breakdowns = [], []
    for _ in range(9):
        totals.append(rate(show_total, few))
        breakdowns.append(rate(score_show, few))
    total, breakdown = max(totals), max(breakdowns)
    print(
        f"score_show (the breakdown):   {breakdown:,.0f} hands/s "
        f"({breakdown / total:.2f} of show_total's rate on the same hands; the target is "
        "0.20 or more)"
    )
    start = time.perf_counter()
    show_distribution()
    print(
        f"distribution of all 12,994,800 deals, hand and crib: {time.perf_counter() - start:.2f} s"
    )
    report_wall_time(
        "cribbage score ...", cribbage("score", "5H", "5S", "JD", "4C", "--starter", "5D")
    )


if __name__ == "__main__":
    main()
