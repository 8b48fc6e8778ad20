"""How much room the game-points objective has: hard playing for game points against hard
playing to win, each decision of the game-points seat also asked of hard playing to win
for the same seat; where the two differ, what the game-points model says the difference
is worth, in game points (its own estimate of the most the objective gains there).

Run: python benchmarks/objective.py [GAMES] [JOBS]   (prints figures; nothing is asserted)
"""

from __future__ import annotations

import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from cribcli.players import Level, Objective
from cribcli.players.hard import HardPlayer, discard_options, warm
from cribcli.players.odds import SKUNKING
from cribcli.record.log import GameInfo, Seat
from cribcli.record.session import run_game
from cribcli.rules.cards import Card
from cribcli.rules.engine import Rules, View
from cribcli.rules.events import GameOver

SCALE = 2 * SKUNKING
"""A value of the game-points model (0 to 1) in game points (from -3 to +3)."""


class Shadow(HardPlayer):
    """Hard playing for game points, which asks hard playing to win the same question and
    keeps the difference the game-points model sees between their answers."""

    def __init__(self, seed: str, seat: int) -> None:
        super().__init__(seed, seat, Objective.GAME_POINTS)
        self.to_win = HardPlayer(seed, seat, Objective.WIN)
        self.asked = self.differed = 0
        self.gained = 0.0

    def discard(self, view: View) -> tuple[Card, ...]:
        chosen, other = super().discard(view), self.to_win.discard(view)
        self._count(view, chosen, other, discard=True)
        return chosen

    def play(self, view: View) -> Card:
        chosen, other = super().play(view), self.to_win.play(view)
        self._count(view, chosen, other, discard=False)
        return chosen

    def _count(self, view: View, chosen: object, other: object, discard: bool) -> None:
        if not self._racing(view):
            return
        self.asked += 1
        if chosen == other:
            return
        self.differed += 1
        worth: dict[object, float]
        if discard:
            options = discard_options(view, self.objective)
            worth = {o.value.discard: o.chance or 0.0 for o in options}
        else:
            worth = {card: lay.chance or 0.0 for card, lay in self.lay_values(view).items()}
        if chosen in worth and other in worth:
            self.gained += SCALE * (worth[chosen] - worth[other])


class Game(NamedTuple):
    asked: int
    differed: int
    gained: float
    edge: int
    """Game points of the game-points seat less the other's."""


def one(index: int) -> Game:
    seed = f"objective-room {index}"
    seat = index % 2
    shadow = Shadow(seed, seat)
    players = [HardPlayer(seed, 1 - seat), shadow]
    if seat == 0:
        players.reverse()
    seats = (Seat("Hard 0", "computer", Level.HARD), Seat("Hard 1", "computer", Level.HARD))
    info = GameInfo(Rules(first_dealer=index // 2 % 2), seats, seed)
    _, events = run_game(info, players)
    over = next(e for e in events if isinstance(e, GameOver))
    won = over.game_points()
    edge = won[seat] - won[1 - seat]
    return Game(shadow.asked, shadow.differed, shadow.gained, edge)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    warm(True, (Objective.WIN, Objective.GAME_POINTS))
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(one, range(games), chunksize=4))
    asked = sum(g.asked for g in results)
    differed = sum(g.differed for g in results)
    gains = [g.gained for g in results]
    print(f"{games} games of hard (game points) v hard (to win), the seats taking turns")
    print(f"  decisions near the end (either side needing 60 or less): {asked / games:.1f} a game")
    print(f"  where playing for game points chose otherwise: {differed / games:.2f} a game "
          f"({differed / max(asked, 1):.1%} of them)")  # fmt: skip
    print(f"  worth, as the game-points model sees it: {statistics.fmean(gains):+.4f} game points"
          f" a game (sd {statistics.stdev(gains):.3f})")  # fmt: skip
    print(f"  game points edge measured: {statistics.fmean(g.edge for g in results):+.3f} a game")


if __name__ == "__main__":
    main()
