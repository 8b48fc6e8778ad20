"""``cribbage stats``: real figures from played games; unreadable logs skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cribcli.review.history import history
from cribcli.review.stats import DealRecord, read_game
from cribcli.rules.tally import Points
from tests.conftest import Run
from tests.scripted import moves

LOGS = Path(__file__).parent / "logs"


def test_figures_from_a_known_game() -> None:
    # The twenty-nine fixture, round 1 (checked by hand from its replay): Ann (seat 0) is
    # pone and pegs a go (1) and a fifteen (2), then shows her 29.
    game = read_game("twenty-nine.toml", (LOGS / "twenty-nine.toml").read_text(encoding="utf-8"))
    assert game.best_hand == 29
    assert game.deals[0] == DealRecord(dealt=False, points=Points(pegging=3, hand=29, crib=0))
    total = history([game])
    assert total.games == 1 and total.best_hand == 29


@pytest.mark.slow
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
    total = dealer["pegging"] + dealer["hand"] + dealer["crib"]
    assert dealer["total"] == pytest.approx(total, abs=0.015)  # each rounded to two places
    assert all(round(value, 2) == value for value in (*dealer.values(), *pone.values()))
    assert pone["crib"] == 0
    assert 0 < data["best_hand"]["points"] <= 29
    text = cribbage("stats", "--data-dir", str(tmp_path)).out
    assert text.startswith("Games: 2 played")
    none = cribbage("stats", "--data-dir", str(tmp_path), "--since", "2999-01-01", "--json").out
    assert json.loads(none)["games"] == 0
    bad = cribbage("stats", "--since", "yesterday", "--data-dir", str(tmp_path))
    assert bad.status == 2


def _copies(games: Path, count: int, name: str = "2-players.toml") -> None:
    games.mkdir(parents=True, exist_ok=True)
    text = (LOGS / name).read_text(encoding="utf-8")
    for i in range(count):
        (games / f"game-{i:03}.toml").write_text(text, encoding="utf-8")


def test_a_tampered_log_is_named_and_left_out(cribbage: Run, tmp_path: Path) -> None:
    _copies(tmp_path / "games", 2, "twenty-nine.toml")
    first = json.loads(cribbage("stats", "--json", "--data-dir", str(tmp_path)).out)
    assert first["games"] == 2 and first["best_hand"]["points"] == 29
    tampered = tmp_path / "games" / "game-001.toml"
    text = tampered.read_text(encoding="utf-8")
    assert '"0 hand for 29"' in text
    tampered.write_text(text.replace('"0 hand for 29"', '"0 hand for 28"'), encoding="utf-8")
    result = cribbage("stats", "--json", "--data-dir", str(tmp_path))
    assert result.status == 0
    assert f"skipping {tampered}: round 1, point " in result.err
    assert "the log says `0 hand for 28`, the rules give `0 hand for 29`" in result.err
    assert json.loads(result.out)["games"] == 1


def test_logs_are_replayed_once_and_remembered(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cribcli.review.stats

    _copies(tmp_path / "games", 3)
    replayed: list[str] = []
    real = cribcli.review.stats.read_game

    def counting(name: str, text: str, me: str | None = None) -> cribcli.review.stats.GameRecord:
        replayed.append(name)
        return real(name, text, me)

    monkeypatch.setattr(cribcli.review.stats, "read_game", counting)
    first = cribbage("stats", "--json", "--data-dir", str(tmp_path)).out
    assert sorted(replayed) == ["game-000.toml", "game-001.toml", "game-002.toml"]
    replayed.clear()
    assert cribbage("stats", "--json", "--data-dir", str(tmp_path)).out == first
    assert replayed == []  # remembered
    changed = tmp_path / "games" / "game-001.toml"
    changed.write_text(changed.read_text(encoding="utf-8"), encoding="utf-8")  # same text
    (tmp_path / "games" / "game-002.toml").unlink()
    again = json.loads(cribbage("stats", "--json", "--data-dir", str(tmp_path)).out)
    assert replayed == ["game-001.toml"] and again["games"] == 2  # written again: replayed
    index = json.loads((tmp_path / "stats-index.json").read_text(encoding="utf-8"))
    assert sorted(index["games"]) == ["game-000.toml", "game-001.toml"]  # the gone forgotten


@pytest.mark.slow
def test_a_game_played_here_is_remembered_as_it_is_filed(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cribcli.review.stats

    typed = "\n".join(moves(7)) + "\n"
    assert cribbage("play", "--seed", "7", "--data-dir", str(tmp_path), stdin=typed).status == 0

    def never(name: str, text: str, me: str | None = None) -> None:
        raise AssertionError("replayed a game remembered when it was filed")

    monkeypatch.setattr(cribcli.review.stats, "read_game", never)
    result = cribbage("stats", "--json", "--data-dir", str(tmp_path))
    assert result.status == 0, result.err
    assert json.loads(result.out)["games"] == 1


@pytest.mark.parametrize(
    "index", ["not json {", '{"version": 1, "games": []}', '{"version": 999}', "[1, 2]", ""]
)
def test_an_index_that_cannot_be_used_is_rebuilt(cribbage: Run, tmp_path: Path, index: str) -> None:
    _copies(tmp_path / "games", 2)
    (tmp_path / "stats-index.json").write_text(index, encoding="utf-8")
    result = cribbage("stats", "--json", "--data-dir", str(tmp_path))
    assert result.status == 0 and result.err == ""
    assert json.loads(result.out)["games"] == 2
    assert json.loads((tmp_path / "stats-index.json").read_text())["made_by"].startswith(
        "cribbage "
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("deals", "nonsense"),
        ("deals", [[False, 1e309, 0, 0]]),  # Infinity
        ("deals", [["no", 1, 2, 3]]),
        ("deals", [[False, 1, 2]]),
        ("won", "false"),
        ("winner", "1"),
        ("winner", True),
        ("players", -4),
        ("best_hand", 10**30),
        ("scores", [121, "98"]),
        ("skunks", ["", "skunked"]),
        ("level", "\u001b]0;pwned\u0007"),
        ("name", 5),
        ("daily", ["2026-12-01"]),
        ("digest", "not a digest"),
        ("digest", 5),
    ],
)
def test_records_in_the_index_are_checked_for_shape(
    cribbage: Run, tmp_path: Path, key: str, value: object
) -> None:
    """A record the index holds that is not one a game could give is replayed instead:
    the figures are the log's."""
    _copies(tmp_path / "games", 1, "twenty-nine.toml")
    truth = cribbage("stats", "--json", "--data-dir", str(tmp_path)).out
    path = tmp_path / "stats-index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    index["games"]["game-000.toml"]["record"][key] = value
    path.write_text(json.dumps(index), encoding="utf-8")
    result = cribbage("stats", "--json", "--data-dir", str(tmp_path))
    assert result.status == 0 and result.err == "" and result.out == truth


def test_an_index_made_by_another_version_is_read_afresh(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log this version refused may be one the next reads: what an older index says of
    a log is not kept."""
    _copies(tmp_path / "games", 1)
    path = tmp_path / "stats-index.json"
    cribbage("stats", "--data-dir", str(tmp_path))
    index = json.loads(path.read_text(encoding="utf-8"))
    entry = index["games"]["game-000.toml"]
    entry.pop("record")
    entry["error"] = "refused by an older version"
    index["made_by"] = "cribbage 0.0.1, log format 1, index 1"
    path.write_text(json.dumps(index), encoding="utf-8")
    result = cribbage("stats", "--json", "--data-dir", str(tmp_path))
    assert result.err == "" and json.loads(result.out)["games"] == 1


@pytest.mark.slow
def test_many_logs_are_spread_over_processes_with_the_same_figures(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cribcli.review.stats

    _copies(tmp_path / "many" / "games", 70)
    spread = cribbage("stats", "--json", "--data-dir", str(tmp_path / "many")).out
    monkeypatch.setattr(cribcli.review.stats, "SPREAD_FROM", 10**9)
    _copies(tmp_path / "one" / "games", 70)
    alone = cribbage("stats", "--json", "--data-dir", str(tmp_path / "one")).out
    assert spread == alone and json.loads(spread)["games"] == 70
