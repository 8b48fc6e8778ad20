"""Playing for game points or spread (``--objective``): the chances of each end of a game
(skunks too) are those of the model they come from, simulated apart; the ends are worth
what the ACC's game points say; hard playing to win plays as it did."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cribcli.players import Objective, odds
from cribcli.players.odds import SKUNKED, after_play, dealer_chance, end_value, outcomes
from tests.conftest import Run


def simulated(dealer_need: int, pone_need: int, games: int, seed: int) -> tuple[float, ...]:
    """The model the tables are worked out from, played ``games`` times with random
    draws: each deal the dealer's and the pone's pegging (never both nothing; both home
    is a toss-up; one home finds the other short by what it needed less all it pegged),
    then the pone's hand, then the dealer's hand and crib, else the pone deals next.
    The dealer's chances of winning, of winning with a skunk, of being skunked."""
    dealer_peg, pone_peg, pone_hand, dealer_hand, crib = (
        odds.spread(odds.counts()[source]) for source in odds.SOURCES
    )
    dealer_show = odds.combined(dealer_hand, crib)
    stream = random.Random(seed)

    def draw(chances: tuple[float, ...]) -> int:
        return stream.choices(range(len(chances)), weights=chances)[0]

    won = skunks = skunked = 0
    for _ in range(games):
        needs = [dealer_need, pone_need]  # the first dealer's, the first pone's
        dealer = 0
        while True:
            pone = 1 - dealer
            while True:
                d, p = draw(dealer_peg), draw(pone_peg)
                if d or p:
                    break
            winner, loser_need = None, 0
            if d >= needs[dealer] and p >= needs[pone]:
                winner = stream.choice((dealer, pone))
            elif d >= needs[dealer]:
                winner, loser_need = dealer, needs[pone] - p
            elif p >= needs[pone]:
                winner, loser_need = pone, needs[dealer] - d
            else:
                needs[dealer] -= d
                needs[pone] -= p
                hand = draw(pone_hand)
                if hand >= needs[pone]:
                    winner, loser_need = pone, needs[dealer]
                else:
                    needs[pone] -= hand
                    show = draw(dealer_show)
                    if show >= needs[dealer]:
                        winner, loser_need = dealer, needs[pone]
                    else:
                        needs[dealer] -= show
                        dealer = pone
                        continue
            won += winner == 0
            skunks += winner == 0 and loser_need > SKUNKED
            skunked += winner == 1 and loser_need > SKUNKED
            break
    return won / games, skunks / games, skunked / games


@pytest.mark.parametrize(("dealer_need", "pone_need"), [(121, 121), (40, 70), (75, 35), (95, 121)])
def test_the_chances_of_each_end_are_the_models(dealer_need: int, pone_need: int) -> None:
    games = 10_000
    chances = simulated(dealer_need, pone_need, games, seed=dealer_need * 1000 + pone_need)
    worked = outcomes(dealer_need, pone_need)
    for simulated_chance, table in zip(chances, worked, strict=True):
        spread = (table * (1 - table) / games) ** 0.5
        assert abs(simulated_chance - table) <= 4.5 * spread + 1e-3  # (4.5 sigma: a ceiling)


def test_a_side_that_needs_little_can_no_longer_be_skunked() -> None:
    assert outcomes(100, 30).skunk == 0.0 and outcomes(30, 100).skunked == 0.0
    assert outcomes(10, 100).skunk > 0.9  # home soon, the other far off
    assert outcomes(121, 121).skunk > outcomes(121, 121).skunked  # the dealer's edge


def test_game_points_are_worth_what_the_acc_counts() -> None:
    """Game points won less lost, from 0 (skunked, -3) to 1 (skunking, +3): a win +2 is
    5/6, a loss 1/6."""
    gp = Objective.GAME_POINTS
    assert end_value(gp, True, SKUNKED + 1) == 1.0
    assert end_value(gp, True, SKUNKED) == pytest.approx(5 / 6)
    assert end_value(gp, False, SKUNKED) == pytest.approx(1 / 6)
    assert end_value(gp, False, SKUNKED + 1) == 0.0
    assert end_value(Objective.WIN, True, 99) == 1.0 and end_value(Objective.WIN, False, 99) == 0.0
    # The pone counts first: it goes out with 6 of the 5 it needs; the dealer, needing 40,
    # is skunked (0), or needing 25 only loses (1/6); playing to win, a loss is a loss.
    assert after_play(40, 5, 10, 6, True, gp) == 0.0
    assert after_play(25, 5, 10, 6, True, gp) == pytest.approx(1 / 6)
    assert after_play(25, 5, 10, 6, True) == after_play(40, 5, 10, 6, True) == 0.0
    # Before a deal: the game's worth is the chances of its ends, weighed.
    ends = outcomes(50, 60)
    worth = (2 * ends.win - 1 + 0.5 * (ends.skunk - ends.skunked) + 1.5) / 3
    assert dealer_chance(50, 60, gp) == pytest.approx(worth)
    assert dealer_chance(50, 60) == ends.win


def test_objectives_in_the_log_and_at_the_command_line(cribbage: Run, tmp_path: Path) -> None:
    from cribcli.record.reader import loads
    from cribcli.record.replay import replay
    from cribcli.services.match import level_of, with_objective

    assert level_of("hard:game-points") == ("hard", Objective.GAME_POINTS)
    assert with_objective("hard", Objective.SPREAD) == "hard:spread"
    assert with_objective("hard:win", Objective.SPREAD) == "hard:win"
    result = cribbage(
        "match", "normal:spread", "easy", "--games", "2", "--short", "--objective",
        "game-points", "--log-dir", str(tmp_path), "--json",
    )  # fmt: skip
    assert result.status == 0, result.err
    log = loads((tmp_path / "game-00000.toml").read_text(encoding="utf-8"))
    assert [seat.objective for seat in log.info.seats] == [Objective.SPREAD, Objective.GAME_POINTS]
    assert replay(log).finished
    bad = cribbage("match", "hard:nothing", "easy")
    assert bad.status == 2 and "LEVEL:OBJECTIVE" in bad.err
