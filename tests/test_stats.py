"""``cribbage stats``: real figures from played games; unreadable logs skipped."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from cribcli.stats import _from_toml, _scan, history, read_game
from tests.conftest import Run
from tests.scripted import moves

LOGS = Path(__file__).parent / "logs"
FINISHED = sorted(p for p in LOGS.glob("*.toml") if p.stem != "stops-mid-game")


@pytest.mark.parametrize("path", FINISHED, ids=lambda p: p.name)
def test_the_fast_reader_agrees_with_the_toml_parser(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert _scan(path.name, text) == _from_toml(path.name, tomllib.loads(text))


def test_figures_from_a_known_game() -> None:
    # The twenty-nine fixture, round 1 (checked by hand from its replay): Ann (seat 0) is
    # pone and pegs a go (1) and a fifteen (2), then shows her 29.
    game = read_game("twenty-nine.toml", (LOGS / "twenty-nine.toml").read_text(encoding="utf-8"))
    assert game.best_hand == 29
    assert game.deals[0] == (False, 3, 29, 0)
    total = history([game])
    assert total.games == 1 and total.best_hand == 29


def test_stats_of_played_games(cribbage: Run, tmp_path: Path) -> None:
    for seed in (7, 8):
        typed = "\n".join(moves(seed)) + "\n"
        result = cribbage("play", "--seed", str(seed), "--data-dir", str(tmp_path), stdin=typed)
        assert result.status == 0, result.err
    (tmp_path / "games" / "broken.toml").write_text("format = 1\nnot toml [[[\n")
    result = cribbage("stats", "--data-dir", str(tmp_path), "--json")
    assert result.status == 0
    assert "skipping" in result.err and "broken.toml" in result.err
    data = json.loads(result.out)
    assert data["games"] == 2
    assert data["by_level"]["normal"]["played"] == 2
    dealer, pone = data["per_deal"]["dealer"], data["per_deal"]["pone"]
    assert dealer["deals"] > 0 and pone["deals"] > 0
    assert dealer["total"] == pytest.approx(dealer["pegging"] + dealer["hand"] + dealer["crib"])
    assert pone["crib"] == 0
    assert 0 < data["best_hand"]["points"] <= 29
    text = cribbage("stats", "--data-dir", str(tmp_path)).out
    assert text.startswith("Games: 2 played")
    none = cribbage("stats", "--data-dir", str(tmp_path), "--since", "2999-01-01", "--json").out
    assert json.loads(none)["games"] == 0
    bad = cribbage("stats", "--since", "yesterday", "--data-dir", str(tmp_path))
    assert bad.status == 2
