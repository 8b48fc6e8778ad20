"""Match play as the American Cribbage Congress scores it (``cribbage match --best-of``):
game points (2 a win, 3 a skunk), skunks, double skunks and spread, each with its 95%
interval, worked out by hand; the first deal of each game (cut, then the loser's)."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from cribcli.record.log import GameInfo, dumps
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.rules.events import Event, game_points
from cribcli.services.match import (
    GameSummary,
    Report,
    Setup,
    Tally,
    match_game,
    mean_interval,
    play_unit,
    t95,
)
from tests.conftest import Run


def game(
    index: int,
    winner: int,
    scores: tuple[int, int],
    skunk: str = "",
    *,
    swapped: bool = False,
    number: int = 0,
) -> GameSummary:
    return GameSummary(index, "s", 0, winner, scores, skunk, (), (), swapped, game=number)


def test_game_points_are_two_a_win_three_a_skunk() -> None:
    assert game_points(0, ("", "")) == (2, 0)
    assert game_points(1, ("skunk", "")) == (0, 3)
    assert game_points(0, ("", "double skunk")) == (3, 0)  # no more than a skunk
    assert game_points(2, ("skunk", "", "", "")) == (0, 0, 3, 0)


def test_a_best_of_three_report_worked_by_hand() -> None:
    """Two matches of best of 3, the first player in seat 0:
    match 1: A 121-100, B 121-85 (a skunk: A under 91), A 121-110: A wins it 2-1;
    match 2: B 121-95, B 121-50 (a double skunk: A under 61): B wins it 2-0."""
    report = Report(("a", "b"), best_of=3)
    report.add_unit(
        (
            game(0, 0, (121, 100)),
            game(0, 1, (85, 121), "skunk", number=1),
            game(0, 0, (121, 110), number=2),
        )
    )
    report.add_unit((game(1, 1, (95, 121)), game(1, 1, (50, 121), "double skunk", number=1)))
    assert report.games == 5 and report.wins == [2, 3]
    assert report.matches == 2 and report.match_wins == [1, 1]
    assert report.game_points == [2 + 2, 3 + 2 + 3]
    assert report.skunks == [0, 2] and report.double_skunks == [0, 1]
    assert report.spread == 21 - 36 + 11 - 26 - 71
    # A's game points a game over the two matches (4 in 3 games, 0 in 2): 0.8, and the
    # interval from the two matches' residuals from 0.8 a game, a match being 2.5 games
    # on average: (4 - 2.4) / 2.5 and (0 - 1.6) / 2.5, Student's t with 1 freedom.
    mean, low, high = report.per_game("game points", 0)
    residuals = (1.6 / 2.5, -1.6 / 2.5)
    half = 12.706 * math.sqrt(sum(r * r for r in residuals)) / math.sqrt(2)
    assert (mean, low, high) == pytest.approx((0.8, 0.8 - half, 0.8 + half))
    assert report.per_game("game points", 1)[0] == pytest.approx(8 / 5)
    assert report.per_game("spread", 0)[0] == pytest.approx(-101 / 5)
    assert report.per_game("spread", 1)[0] == pytest.approx(101 / 5)
    assert report.per_game("skunks", 1)[0] == pytest.approx(2 / 5)
    assert report.per_game("double skunks", 1)[0] == pytest.approx(1 / 5)
    told = report.as_json()
    assert told["game_points"] == [4, 8] and told["match_wins"] == [1, 1]
    assert told["skunks"] == [0, 2] and told["double_skunks"] == [0, 1]
    assert told["spread"] == -101
    spreads = told["spread_a_game"]
    assert isinstance(spreads, list)
    first, second = spreads
    assert first["mean"] == pytest.approx(-20.2) and second["mean"] == pytest.approx(20.2)
    assert first["low"] == pytest.approx(-second["high"])  # one interval, seen from each side


def test_an_interval_from_one_unit_is_none() -> None:
    report = Report(("a", "b"))
    report.add(game(0, 0, (121, 80), "skunk"))
    assert report.per_game("spread", 0) == (41.0, -math.inf, math.inf)
    told = report.as_json()
    assert told["spread_a_game"][0] == {"mean": 41.0, "low": None, "high": None}  # type: ignore[index]
    json.dumps(told, allow_nan=False)  # (valid JSON: no Infinity)


def test_twin_matches_in_duplicate_are_one_unit() -> None:
    """In duplicate each match is played twice, the seats swapped: the twins' games are
    counted together for the intervals, and from the first player's side."""
    report = Report(("a", "b"), duplicate=True, best_of=3)
    report.add_unit((game(0, 0, (121, 100)), game(0, 0, (121, 90), number=1)))  # a 2-0
    twin = (
        game(1, 0, (121, 100), swapped=True),
        game(1, 1, (100, 121), swapped=True, number=1),
        game(1, 0, (121, 70), "skunk", swapped=True, number=2),
    )
    report.add_unit(twin)  # b (in seat 0) wins 2-1, a skunk
    assert report.tallies == [
        Tally(
            games=5,
            wins=[3, 2],
            game_points=[6, 5],
            skunks=[0, 1],
            double_skunks=[0, 0],
            spread=21 + 31 - 21 + 21 - 51,
            matches=2,
            match_wins=[1, 1],
        )
    ]


def test_the_student_t_table_and_series_meet() -> None:
    assert t95(1) == 12.706 and t95(29) == 2.045
    assert abs(t95(30) - 2.042) < 0.002 and abs(t95(120) - 1.980) < 0.002
    assert mean_interval([(1.0, 1), (1.0, 1)]) == (1.0, 1.0, 1.0)  # no spread


def test_a_match_ends_when_it_is_won_and_the_loser_deals_next() -> None:
    setup = Setup(("easy", "normal"), "acc", target=61, best_of=5)
    logs: dict[int, tuple[GameInfo, list[Event]]] = {}
    played = play_unit(setup, 0, lambda number, info, events: logs.update({number: (info, events)}))
    assert all(isinstance(g, GameSummary) for g in played)
    games = [g for g in played if isinstance(g, GameSummary)]
    wins = [sum(g.winner == seat for g in games) for seat in (0, 1)]
    assert max(wins) == 3 and len(games) == sum(wins) <= 5  # over once won
    assert [g.game for g in games] == list(range(len(games)))
    assert len({g.seed for g in games}) == len(games)
    for before, after in itertools.pairwise(games):
        assert after.first_dealer == 1 - before.winner  # ACC rule 1.5
    first_info = logs[0][0]
    assert first_info.rules.cut_for_deal  # the first game's deal is cut for
    assert play_unit(setup, 0) == played  # the same seed: the same match
    # each game carries the deals shown in the match so far, the last 24: the computer
    # reads the other player from the match, not from one game
    assert not first_info.earlier
    for number, before in enumerate(games[:-1]):
        after_info = logs[number + 1][0]
        info, events = logs[number]
        shown = replay(loads(dumps(info, events))).state
        assert shown is not None and len(shown.past) > len(info.earlier)
        assert after_info.earlier == before.carries == shown.past[-24:]
    single = match_game(Setup(("easy", "easy"), "acc", target=61), 0)
    assert isinstance(single, GameSummary) and not single.carries  # a game on its own


def test_match_best_of_three_json_agrees_with_its_logs(cribbage: Run, tmp_path: Path) -> None:
    result = cribbage(
        "match", "easy", "normal", "--short", "--best-of", "3", "--games", "4",
        "--seed", "9", "--json", "--log-dir", str(tmp_path),
    )  # fmt: skip
    assert result.status == 0, result.err
    report = json.loads(result.out)
    assert report["matches"] == 4 and sum(report["match_wins"]) == 4
    logs = sorted(tmp_path.glob("match-*-game-*.toml"))
    assert len(logs) == report["games"]
    points, spread = [0, 0], 0
    for path in logs:
        log = loads(path.read_text(encoding="utf-8"))
        assert replay(log).finished and log.result is not None
        side = 0 if log.info.seats[log.result.winner].level == "easy" else 1
        won = 3 if any(log.result.skunks) else 2
        points[side] += won
        easy = 0 if log.info.seats[0].level == "easy" else 1
        spread += log.result.scores[easy] - log.result.scores[1 - easy]
    assert report["game_points"] == points and report["spread"] == spread
    again = ("--short", "--best-of", "3", "--games", "4", "--seed", "9")
    text = cribbage("match", "easy", "normal", *again)
    assert "4 matches of best of 3" in text.out and "game points" in text.out
    bad = cribbage("match", "easy", "normal", "--best-of", "4")
    assert bad.status == 2 and "4" in bad.err


def test_a_match_report_as_a_person_reads_it(cribbage: Run, snapshot: SnapshotAssertion) -> None:
    best_of = ("--best-of", "3", "--games", "4", "--short", "--seed", "3")
    shown = cribbage("match", "normal", "easy", *best_of)
    assert shown.status == 0, shown.err
    assert shown.out == snapshot
