"""The compiled core against the interpreted one, side by side in one run.

Run: python benchmarks/compiled.py [GAMES]   (prints figures; nothing is asserted)

Each figure is measured twice, in processes of their own: with the core as installed
(compiled where ``pip install`` found a C compiler: ``cribbage --version`` says) and with
``CRIBBAGE_CORE=interpreted``, which runs the very same Python files. All times are CPU
times (user and system), the steadier figure on a shared machine: counting a show (the
total, and the itemised breakdown), the exact analysis of a six-card hand, the hard
computer's decisions against normal over GAMES games (10 by default; median and p99),
`peg-advice` on a lead and `review` of a game to 121 (whole commands), and the games a
CPU second of `match hard normal`.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from command import cpu_time, cribbage

HERE = Path(__file__).resolve().parent
GAME_121 = HERE.parent / "tests" / "logs" / "2-players.toml"

INSIDE = """
import json, statistics, sys, time
from itertools import combinations, islice
from cribcli import native
from cribcli.players import computer
from cribcli.rules.analysis import analyse
from cribcli.rules.cards import deck, parse_cards
from cribcli.rules.engine import Discard, Phase, Play, Rules, apply, new_game, seats_to_act, view
from cribcli.rules.scoring import score_show, show_total

cards = deck()
hands = []
for hand in islice(combinations(cards, 4), 0, None, 97):
    hands += [(hand, s) for s in cards[::5] if s not in hand]
    if len(hands) >= 50_000:
        break

def rate(count):
    best = 0.0
    for _ in range(3):
        start = time.process_time()
        for hand, starter in hands:
            count(hand, starter)
        best = max(best, len(hands) / (time.process_time() - start))
    return best

six = parse_cards("5H 5S JD 4C 2S KH".split())
analyse(six, dealer=True)
took = []
for _ in range(30):
    start = time.process_time()
    analyse(six, dealer=True)
    took.append(time.process_time() - start)

decisions = []
for seed in range(int(sys.argv[1])):
    players = [computer("hard", seed, 0), computer("normal", seed, 1)]
    state, _ = new_game(Rules(), seed)
    while state.phase is not Phase.OVER:
        seat = seats_to_act(state)[0]
        seen = view(state, seat)
        start = time.process_time()
        if state.phase is Phase.DISCARD:
            action = Discard(seat, players[seat].discard(seen))
        else:
            action = Play(seat, players[seat].play(seen))
        if seat == 0:
            decisions.append(time.process_time() - start)
        state, _ = apply(state, action)
decisions.sort()
print(json.dumps({
    "core": native.CORE,
    "show_total": rate(show_total),
    "score_show": rate(score_show),
    "analysis": statistics.median(took),
    "hard median": statistics.median(decisions),
    "hard p99": decisions[int(0.99 * (len(decisions) - 1))],
}))
"""


@contextlib.contextmanager
def running(core: str) -> Iterator[None]:
    """The processes started within run the core as installed, or interpreted."""
    kept = os.environ.pop("CRIBBAGE_CORE", None)
    if core == "interpreted":
        os.environ["CRIBBAGE_CORE"] = "interpreted"
    try:
        yield
    finally:
        os.environ.pop("CRIBBAGE_CORE", None)
        if kept is not None:
            os.environ["CRIBBAGE_CORE"] = kept


def measured(core: str, games: int) -> dict[str, float | str]:
    with running(core):
        inside = subprocess.run(
            [sys.executable, "-c", INSIDE, str(games)], check=True, capture_output=True,
            text=True,
        )  # fmt: skip
        found: dict[str, float | str] = json.loads(inside.stdout)
        found["peg-advice"] = statistics.median(
            cpu_time(cribbage("peg-advice", "4H", "5S", "6D", "JC", "--pone", "-s", "2C",
                              "--thrown", "9C", "KD"))
            for _ in range(5)
        )  # fmt: skip
        found["review 121"] = cpu_time(cribbage("review", str(GAME_121)))
        played = max(games, 4)
        spent = cpu_time(cribbage("match", "hard", "normal", "--games", str(played),
                                  "--jobs", "1", "--seed", "5"))  # fmt: skip
        found["match games/s"] = played / spent
    return found


def main(games: int) -> None:
    compiled = measured("installed", games)
    interpreted = measured("interpreted", games)
    print(f"as installed: the {compiled['core']} core; against it, the interpreted one")
    print(f"  {'':32}{'compiled':>14}{'interpreted':>14}{'faster':>9}")
    rows = [
        ("show_total, hands/s", "show_total", True, "{:,.0f}"),
        ("score_show (breakdown), hands/s", "score_show", True, "{:,.0f}"),
        ("analysis of six cards, ms", "analysis", False, "{:.1f}"),
        (f"hard decision median, ms ({games})", "hard median", False, "{:.1f}"),
        ("hard decision p99, ms", "hard p99", False, "{:.1f}"),
        ("peg-advice on a lead, s", "peg-advice", False, "{:.3f}"),
        ("review of a 121 game, s", "review 121", False, "{:.2f}"),
        ("match hard normal, games/s", "match games/s", True, "{:.2f}"),
    ]
    for label, key, more_is_better, shape in rows:
        fast, slow = float(compiled[key]), float(interpreted[key])
        scale = 1000 if "ms" in label else 1
        ratio = fast / slow if more_is_better else slow / fast
        print(
            f"  {label:32}{shape.format(fast * scale):>14}{shape.format(slow * scale):>14}"
            f"{ratio:>8.2f}x"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
