"""The error rate, accuracy and rating of a seat's decisions: worked by hand, kept across
games for ``stats``, and shown by ``review`` for every seat."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from cribcli.review.coach import Decision, Review
from cribcli.review.grading import RATINGS, Grade, accuracy, grade_of, rating
from cribcli.review.history import history
from cribcli.review.stats import Lost, Reviews, read_game
from cribcli.rules.cards import parse_cards
from cribcli.ui.coaching import review_summary_lines
from cribcli.ui.reports import stats_lines
from tests.conftest import Run

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "logs" / "2-players.toml"


def decision(kind: str, lost: float, round_number: int = 1) -> Decision:
    cards = tuple(parse_cards("5H") if kind == "lay" else parse_cards("5H 5S"))
    return Decision(round_number, kind, cards, cards, lost)


def test_a_game_of_only_best_decisions_is_100() -> None:
    review = Review(0, (decision("throw", 0.0), decision("lay", 0.0)), 1)
    grade = review.grade()
    assert grade.error_rate() == 0 and grade.accuracy == 100.0
    assert grade.rating == "world class"


def test_an_error_rate_worked_by_hand() -> None:
    # Four decisions: a throw lost nothing, a lay half a point, a lay two points, a count
    # (muggins) nothing: 2.5 points over 4 decisions, 0.625 a decision.
    review = Review(
        0,
        (decision("throw", 0.0), decision("lay", 0.5), decision("lay", 2.0), decision("count", 0)),
        1,
    )
    grade = review.grade()
    assert grade.decisions == (1, 2, 1)
    assert grade.error_rate() == pytest.approx(0.625)
    assert grade.error_rate("lay") == pytest.approx(1.25)
    assert grade.error_rate("throw") == 0.0 and grade.error_rate("count") == 0.0
    assert grade.accuracy == pytest.approx(100 * math.exp(-0.625))  # 53.5
    assert grade.rating == "beginner"  # 0.6 or more, under 1.2
    line = next(line for line in review_summary_lines(review) if line.startswith("Accuracy"))
    assert line == (
        "Accuracy 53.5, beginner: 0.62 points lost a decision (throws 0.00, lays 1.25, "
        "counts 0.00)."
    )
    assert review.as_lost() == Lost(1, 0.0, 2.5, 0.0, (1, 2, 1))


def test_the_bands_run_from_world_class_to_novice() -> None:
    edges = [under for under, _ in RATINGS]
    assert edges == sorted(edges) and edges[-1] == math.inf
    assert rating(0.0) == "world class" and rating(0.029) == "world class"
    assert rating(0.03) == "expert"  # an edge belongs to the band below
    assert rating(5.0) == "novice"
    assert [accuracy(rate) for rate in (0.0, 1.0)] == [100.0, pytest.approx(100 / math.e)]
    assert all(accuracy(a) > accuracy(b) for a, b in itertools.pairwise(edges[:-1]))


def test_grades_add_up() -> None:
    one = grade_of([("throw", 1.0), ("lay", 0.5)])
    two = grade_of([("throw", 0.0), ("lay", 0.1), ("lay", 0.3)])
    both = one.plus(two)
    assert both.decisions == (2, 3, 0) and both.lost == pytest.approx((1.0, 0.9, 0.0))
    assert both.error_rate() == pytest.approx(1.9 / 5)
    assert Grade().error_rate() == 0.0 and Grade().accuracy == 100.0


def test_the_reviews_file_keeps_the_counts_and_reads_older_reviews(tmp_path: Path) -> None:
    path = tmp_path / "reviews.json"
    digest = "ab" * 32
    kept = Reviews(path)
    kept.keep("new.toml", digest, Lost(12, 1.0, 2.0, 0.0, (12, 30, 0)))
    older = {"digest": digest, "lost": [10, 1.5, 2.5, 0.0]}
    data = json.loads(path.read_text(encoding="utf-8"))
    data["games"]["old.toml"] = older
    hostile = [  # not a review: left out
        [10, 1.0, 1.0, 0.0, -1, 2, 0],
        [10, 1.0, 1.0, 0.0, True, 2, 0],
        [10, 1.0, 1.0, 0.0, 1, 2],
        [10, 1.0, 1.0, 0.0, 1.5, 2, 0],
        [10, 1.0, 1.0, 0.0, 10**9, 2, 0],
        [1, 500, 0, 0, 0, 0, 0],  # points lost with no decision made
        [1, 0, 0, 0, 100000, 100000, 100000],  # more decisions than deals allow
        [10, 1.0, 1.0, 0.0, 10, 41, 0],  # more than 4 lays a deal
        [10, 1000.0, 1.0, 0.0, 10, 20, 0],  # more lost than 10 throws could lose
    ]
    for n, lost in enumerate(hostile):
        data["games"][f"bad{n}.toml"] = {"digest": digest, "lost": lost}
    path.write_text(json.dumps(data), encoding="utf-8")
    read = kept.read()
    assert set(read) == {"new.toml", "old.toml"}
    assert read["new.toml"][1].grade == Grade((12, 30, 0), (1.0, 2.0, 0.0))
    assert read["old.toml"][1].grade is None  # counted per deal, not graded


def test_stats_grade_the_last_10_the_last_100_and_all() -> None:
    game = read_game("game.toml", FIXTURE.read_text(encoding="utf-8"))
    # Twelve reviewed games, a day apart: the first two lost 1 point a decision, the
    # last ten 0.1 (each 10 decisions: 2 throws, 8 lays).
    games = []
    for day in range(1, 13):
        each = 1.0 if day <= 2 else 0.1
        lost = Lost(2, 2 * each, 8 * each, 0.0, (2, 8, 0))
        games.append(replace(game, name=f"g{day:02}.toml", day=f"2026-11-{day:02}", lost=lost))
    total = history(games[::-1], today="2026-12-15")  # in any order: the days decide
    games_10, last_10 = total.grade(10)
    assert games_10 == 10 and last_10.decisions == (20, 80, 0)
    assert last_10.lost == pytest.approx((2.0, 8.0, 0.0))
    games_all, every = total.grade()
    assert games_all == 12 and every.error_rate() == pytest.approx(30 / 120)
    lines = stats_lines(total)
    at = lines.index(next(line for line in lines if line.startswith("Your decisions")))
    assert lines[at : at + 4] == [
        "Your decisions in reviewed games: points lost a decision, accuracy, rating",
        "                  games  throws   lays  counts   all  accuracy",
        "  last 10            10    0.10   0.10       -  0.10      90.5  strong",
        "  all                12    0.25   0.25       -  0.25      77.9  club player",
    ]  # (no "last 100" row: the same games as "all")
    assert total.as_json()["decisions"]["last_10"] == {  # type: ignore[index]
        "games": 10,
        "decisions": 100,
        "error_rate": 0.1,
        "accuracy": 90.5,
        "rating": "strong",
        "by_kind": {
            "throws": {"decisions": 20, "error_rate": 0.1},
            "lays": {"decisions": 80, "error_rate": 0.1},
            "counts": {"decisions": 0, "error_rate": 0.0},
        },
    }


def test_a_review_grades_every_seat(cribbage: Run) -> None:
    shown = cribbage("review", str(FIXTURE), "--round", "2")
    assert shown.status == 0
    lines = shown.out.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("Every seat")))
    assert [line.split()[0] for line in lines[at + 1 :]] == ["Ann", "Bob"]
    summary = json.loads(
        cribbage("review", str(FIXTURE), "--round", "2", "--json").out.splitlines()[-1]
    )
    seats = summary["summary"]["seats"]
    assert [seat["name"] for seat in seats] == ["Ann", "Bob"]
    mine = summary["summary"]
    assert seats[0]["error_rate"] == mine["error_rate"]
    assert mine["accuracy"] == pytest.approx(100 * math.exp(-mine["error_rate"]), abs=0.1)
    kinds = mine["by_kind"]
    assert sum(kind["decisions"] for kind in kinds.values()) == mine["decisions"]
