"""``cribbage discard-advice`` and ``cribbage match`` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.services.match import wilson
from tests.conftest import Run

HAND = ("5H", "5S", "JD", "4C", "2S", "KH")


def test_advice_table(cribbage: Run, snapshot: SnapshotAssertion) -> None:
    result = cribbage("discard-advice", *HAND, "--dealer")
    assert result.status == 0
    lines = result.out.splitlines()
    assert lines[2].startswith(" * 4C 2S")
    assert len(lines) == 2 + 15 + 1
    assert result.out == snapshot


def test_advice_top_and_pone(cribbage: Run, snapshot: SnapshotAssertion) -> None:
    result = cribbage("discard-advice", *HAND, "--pone", "--top", "3")
    assert result.status == 0
    assert len(result.out.splitlines()) == 2 + 3 + 1
    assert result.out == snapshot


def test_advice_json(cribbage: Run) -> None:
    rows = json.loads(cribbage("discard-advice", *HAND, "--dealer", "--json").out)
    assert len(rows) == 15
    assert rows[0]["discard"] == ["4C", "2S"]
    assert rows[0]["net"] == pytest.approx(rows[0]["hand"] + rows[0]["crib"])
    assert [r["net"] for r in rows] == sorted((r["net"] for r in rows), reverse=True)
    assert sum(rows[0]["hand_scores"].values()) == pytest.approx(1.0)


def test_advice_with_the_score(cribbage: Run) -> None:
    near = json.loads(
        cribbage("discard-advice", *HAND, "--pone", "--score", "110", "100", "--json").out
    )
    chances = [row["chance_to_go_out"] for row in near]
    assert chances == sorted(chances, reverse=True)
    far = cribbage("discard-advice", *HAND, "--pone", "--score", "10", "100")
    assert "more than a hand can make: ranked by net" in far.out


def test_advice_three_players(cribbage: Run) -> None:
    rows = json.loads(
        cribbage(
            "discard-advice", "5H", "5S", "JD", "4C", "2S", "--players", "3", "--dealer", "--json"
        ).out
    )
    assert len(rows) == 5 and all(len(row["discard"]) == 1 for row in rows)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (HAND, "say whose crib it is"),
        ((*HAND[:5], "--dealer"), "with 2 players a hand is 6 cards, not 5"),
        ((*HAND[:5], "5H", "--dealer"), "5H appears twice"),
        ((*HAND[:5], "1H", "--dealer"), "`1H` is not a card"),
        ((*HAND, "--players", "3", "--dealer"), "with 3 players a hand is 5 cards, not 6"),
        ((*HAND, "--dealer", "--score", "130", "0"), "scores run from 0 to 120"),
    ],
)
def test_advice_bad_input(cribbage: Run, args: tuple[str, ...], message: str) -> None:
    result = cribbage("discard-advice", *args)
    assert result.status == 2
    assert message in result.err and result.err.count("\n") == 1


def test_wilson_interval() -> None:
    share, low, high = wilson(55, 100)
    assert share == 0.55
    assert low == pytest.approx(0.4524, abs=1e-4)
    assert high == pytest.approx(0.6438, abs=1e-4)


def test_match_json_and_logs(cribbage: Run, tmp_path: Path) -> None:
    result = cribbage(
        "match",
        "normal",
        "easy",
        "--games",
        "6",
        "--seed",
        "5",
        "--json",
        "--log-dir",
        str(tmp_path),
    )
    assert result.status == 0, result.err
    report = json.loads(result.out)
    assert report["games"] == 6 == sum(report["wins"])
    low, high = report["win_rate_95"]
    assert low <= report["win_rate"] <= high
    dealer = report["per_deal"]["normal 0 as dealer"]
    assert dealer["total"] == pytest.approx(dealer["pegging"] + dealer["hand"] + dealer["crib"])
    logs = sorted(tmp_path.glob("*.toml"))
    assert len(logs) == 6
    for log in logs:
        assert replay(loads(log.read_text(encoding="utf-8"))).finished


@pytest.mark.slow
def test_match_is_reproducible_and_jobs_agree(cribbage: Run) -> None:
    one = cribbage("match", "easy", "easy", "--games", "8", "--seed", "3", "--json").out
    two = cribbage(
        "match", "easy", "easy", "--games", "8", "--seed", "3", "--json", "--jobs", "2"
    ).out
    assert json.loads(one) == json.loads(two)
    text = cribbage("match", "easy", "easy", "--games", "8", "--seed", "3").out
    assert "easy (seat 0) v easy (seat 1): 8 games" in text
