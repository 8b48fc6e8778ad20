"""The bots of other styles than our levels (for the benchmarks of issue 31): each plays
its style, legally, from its view alone."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cribcli.players.styles import CribMindedPlayer, GreedyPlayer
from cribcli.record.log import GameInfo, Seat
from cribcli.record.session import run_game
from cribcli.rules.analysis import analyse
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.engine import Phase, Rules, new_game, view
from cribcli.rules.events import GameOver


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split()))


def test_the_greedy_player_takes_the_points_now() -> None:
    state, _ = new_game(Rules(first_dealer=1), 1)
    # On a 7 laid, the 8 makes 15 and the 7 a pair, 2 each: greedy lays the higher.
    playing = replace(
        state,
        phase=Phase.PLAY,
        hands=(cards("7H 8C KD AS"), cards("2C 3C 4C")),
        pile=cards("7S"),
        plays=((1, cards("7S")[0]),),
        to_play=0,
        starter=cards("9D")[0],
        discards=(cards("QC JC"), cards("5D 6D")),
    )
    assert GreedyPlayer(1, 0).play(view(playing, 0)) == cards("8C")[0]


def test_the_greedy_player_keeps_for_the_hand_alone() -> None:
    state, _ = new_game(Rules(first_dealer=0), 1)
    dealt = cards("JD 5C KH JH QD 9D")
    seen = view(replace(state, hands=(dealt, state.hands[1])), 0)
    thrown = GreedyPlayer(1, 0).discard(seen)
    options = analyse(dealt, dealer=True)
    assert next(o for o in options if set(o.discard) == set(thrown)).hand == max(
        o.hand for o in options
    )


def test_the_crib_minded_pone_starves_the_crib() -> None:
    state, _ = new_game(Rules(first_dealer=0), 1)
    dealt = cards("5H 5S 10D 4C 9S KH")
    seen = view(replace(state, hands=(state.hands[0], dealt)), 1)
    thrown = CribMindedPlayer(1, 1).discard(seen)
    assert not {card.rank for card in thrown} & {5}  # never a five to the other's crib
    options = analyse(dealt, dealer=False)
    chosen = next(o for o in options if set(o.discard) == set(thrown))
    assert chosen.crib == min(o.crib for o in options)


@pytest.mark.slow
def test_the_styles_play_whole_games_legally() -> None:
    seats = (Seat("a", "computer"), Seat("b", "computer"))
    info = GameInfo(Rules(target=61), seats, "styles")
    _, events = run_game(info, [GreedyPlayer("styles", 0), CribMindedPlayer("styles", 1)])
    assert isinstance(events[-1], GameOver) and max(events[-1].scores) >= 61
