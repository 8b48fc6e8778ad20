"""A bot that sits at the table in-process, with no pipes: a class with ``discard`` and
``play``, each given the seat's view (docs/engine-protocol.md, "In Python").

It keeps the four cards worth most with the average starter, and lays the card that
scores most now (the highest, on a tie). Against the hard computer, to 61:

    python3 examples/in_process.py [SEED] [--log]
"""

import sys
from itertools import combinations

from cribcli.players import Level, computer
from cribcli.record.log import GameInfo, Seat, dumps
from cribcli.record.session import run_game
from cribcli.rules.cards import Card, deck
from cribcli.rules.engine import Rules, View
from cribcli.rules.events import GameOver
from cribcli.rules.scoring import peg_points, show_total


class GreedyBot:
    def discard(self, view: View) -> tuple[Card, ...]:
        starters = [card for card in deck() if card not in view.hand]

        def worth(kept: tuple[Card, ...]) -> float:
            return sum(show_total(kept, starter) for starter in starters) / len(starters)

        keep = max(combinations(view.hand, len(view.hand) - view.rules.discard_size), key=worth)
        return tuple(card for card in view.hand if card not in keep)

    def play(self, view: View) -> Card:
        def now(card: Card) -> tuple[int, int]:
            return sum(item.points for item in peg_points((*view.pile, card))), card.value

        return max(view.playable(), key=now)


def main() -> None:
    seed = next((arg for arg in sys.argv[1:] if not arg.startswith("-")), "1")
    seats = (Seat("Hard", "computer", Level.HARD), Seat("Greedy", "engine", command="in-process"))
    info = GameInfo(Rules(target=61, first_dealer=0), seats, seed)
    _, events = run_game(info, [computer("hard", seed, 0), GreedyBot()])
    over = events[-1]
    assert isinstance(over, GameOver)
    if "--log" in sys.argv:  # the game's log, for 'cribbage replay -'
        print(dumps(info, events), end="")
    else:
        print(f"{seats[over.winner].name} wins, {over.scores[0]} to {over.scores[1]}.")


if __name__ == "__main__":
    main()
