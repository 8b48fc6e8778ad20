"""Decision times of the computer levels, and the analysis of one hand.

Run: python benchmarks/players.py [GAMES] [OPPONENT]   (hard's decisions against normal,
or a level or a style of `cribcli.players.styles`; prints figures; nothing is asserted)
"""

from __future__ import annotations

import statistics
import sys
import time

from command import cribbage, report_wall_time

from cribcli.players import computer
from cribcli.players.styles import STYLES
from cribcli.rules.analysis import analyse
from cribcli.rules.cards import parse_cards
from cribcli.rules.engine import Discard, Phase, Play, Rules, apply, new_game, seats_to_act, view


def analysis_time() -> None:
    hand = parse_cards("5H 5S JD 4C 2S KH")
    analyse(hand, dealer=True)  # build the rank table once, as a process does
    times = []
    for _ in range(50):
        start = time.perf_counter()
        analyse(hand, dealer=True)
        times.append(time.perf_counter() - start)
    print(
        f"analysis of a six-card hand (15 discards, hand and crib): "
        f"median {1000 * statistics.median(times):.1f} ms, max {1000 * max(times):.1f} ms"
    )


def decision_times(games: int, opponent: str = "normal") -> None:
    discards: list[float] = []
    plays: list[float] = []
    for seed in range(games):
        other = STYLES[opponent](seed, 1) if opponent in STYLES else computer(opponent, seed, 1)
        players = [computer("hard", seed, 0), other]
        state, _ = new_game(Rules(), seed)
        while state.phase is not Phase.OVER:
            seat = seats_to_act(state)[0]
            seen = view(state, seat)
            start = time.process_time()  # the CPU the decision took
            action: Discard | Play
            if state.phase is Phase.DISCARD:
                action = Discard(seat, players[seat].discard(seen))
                took = time.process_time() - start
                if seat == 0:
                    discards.append(took)
            else:
                action = Play(seat, players[seat].play(seen))
                took = time.process_time() - start
                if seat == 0:
                    plays.append(took)
            state, _ = apply(state, action)
    every = discards + plays
    print(f"hard, {games} games against {opponent}: {len(every)} decisions (CPU time)")
    for name, times in (("discard", discards), ("play", plays), ("all", every)):
        print(
            f"  {name:8} median {1000 * statistics.median(times):6.1f} ms   "
            f"p99 {1000 * sorted(times)[int(0.99 * (len(times) - 1))]:6.1f} ms   "
            f"max {1000 * max(times):6.1f} ms"
        )


def advice_command_time() -> None:
    score = report_wall_time(
        "cribbage score ...", cribbage("score", "5H", "5S", "JD", "4C", "--starter", "5D")
    )
    advice = report_wall_time(
        "cribbage discard-advice ...",
        cribbage("discard-advice", "5H", "5S", "JD", "4C", "2S", "KH", "--dealer"),
    )
    print(f"discard-advice takes {advice / score:.2f} times score's time (the target: 1.5)")
    report_wall_time(
        "cribbage peg-advice ... (a lead: four cards each to search)",
        cribbage(
            "peg-advice", "4H", "5S", "6D", "JC", "--pone", "-s", "2C", "--thrown", "9C", "KD"
        ),
    )


if __name__ == "__main__":
    analysis_time()
    advice_command_time()
    decision_times(int(sys.argv[1]) if len(sys.argv) > 1 else 10, *sys.argv[2:3])
