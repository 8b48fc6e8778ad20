"""``cribbage daily``: the same cards for everyone on a date, its result, and the streak."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cribcli.record import daily
from cribcli.record.daily import info as daily_info
from cribcli.rules.cards import format_cards
from cribcli.rules.engine import apply, new_game
from tests.conftest import Run
from tests.scripted import moves

DAY = "2026-12-01"


# A change that would give players different cards on the same day must fail here.
@pytest.mark.parametrize(
    ("day", "you", "computer", "starter"),
    [
        ("2026-12-01", "4C 7D 6C 4D 7H QS", "5C QC 4H 2C AS JS", "KH"),
        ("2026-12-02", "4C 6D 5D 8H QC QD", "10S 3H 9H 10C KS 8D", "6S"),
        ("2027-01-01", "6H JS JC 5S 10C 6S", "6C 8S AS 3C 5D 10D", "8H"),
    ],
)
def test_first_deal_is_pinned(day: str, you: str, computer: str, starter: str) -> None:
    info = daily_info(day)
    state, _ = new_game(info.rules, info.seed)
    assert (format_cards(state.dealt[0]), format_cards(state.dealt[1])) == (you, computer)
    assert str(state.deck[12]) == starter


@pytest.mark.slow
def test_two_players_on_two_machines_see_the_same_game(cribbage: Run, tmp_path: Path) -> None:
    typed = "\n".join(moves(f"daily/{DAY}", "hard")) + "\n"
    outs = []
    for machine in ("alice", "bob"):
        home = tmp_path / machine
        result = cribbage("daily", "--date", DAY, "--data-dir", str(home), stdin=typed)
        assert result.status == 0, result.err
        outs.append(result.out.replace(str(home), "HOME"))
    assert outs[0] == outs[1]
    assert "Daily streak: 1 day in a row." in outs[0]
    home = tmp_path / "alice"
    share = cribbage("daily", "--date", DAY, "--share", "--data-dir", str(home))
    assert share.status == 0
    assert share.out.startswith(f"cribbage daily {DAY}: ")
    assert " in " in share.out and "deals, best hand " in share.out
    assert share.out.count("\n") == 1
    # played: the result comes back instead of a new game
    again = cribbage("daily", "--date", DAY, "--data-dir", str(home), stdin="")
    assert again.status == 0 and again.out.splitlines()[0] == share.out.strip()


def test_streak_counts_days_in_a_row() -> None:
    days = {DAY, "2026-11-30", "2026-11-29", "2026-11-27"}
    assert daily.streak(days, DAY) == 3
    assert daily.streak(days, "2026-12-02") == 3  # today's not played yet: counts to yesterday
    assert daily.streak(days, "2026-12-03") == 0


def test_only_a_real_daily_game_counts(cribbage: Run, tmp_path: Path) -> None:
    """A log named like a daily game, or labelled like one, but not dealt as that day's
    is not that day's game; nor is one the rules reject."""
    games = tmp_path / "games"
    games.mkdir()
    finished = (Path(__file__).parent / "logs" / "2-players.toml").read_text(encoding="utf-8")
    (games / f"daily-{DAY}.toml").write_text(finished, encoding="utf-8")  # seed 9
    relabelled = finished.replace('label = "fixture"', f'label = "daily {DAY}"')
    (games / "relabelled.toml").write_text(relabelled, encoding="utf-8")
    (games / "daily-2026-11-30.toml").write_text("not a game log", encoding="utf-8")
    stats = cribbage("stats", "--json", "--data-dir", str(tmp_path))
    assert json.loads(stats.out)["daily_streak"] == 0
    share = cribbage("daily", "--share", "--date", DAY, "--data-dir", str(tmp_path))
    assert share.status == 1 and "not finished yet" in share.err


def test_bad_date(cribbage: Run, tmp_path: Path) -> None:
    result = cribbage("daily", "--date", "2026-13-01", "--data-dir", str(tmp_path))
    assert result.status == 2 and "is not a date" in result.err
    unfinished = cribbage("daily", "--share", "--date", DAY, "--data-dir", str(tmp_path))
    assert unfinished.status == 1 and "not finished yet" in unfinished.err


def test_a_daily_game_carrying_deals_from_other_games_is_not_the_day_s() -> None:
    """The day's game is read by the computer alike for everyone: one given deals of other
    games to read the player by (a save edited so) is not that day's."""
    from dataclasses import replace

    from cribcli.players import computer
    from cribcli.record.log import begin, carried
    from cribcli.record.session import next_action

    made = daily_info(DAY, "You", False)
    assert daily.day_played(made) == DAY
    state, _ = begin(made)
    players = [computer("easy", 1, 0), computer("easy", 1, 1)]
    while not state.past:
        state, _ = apply(state, next_action(state, players))
    assert daily.day_played(replace(made, earlier=carried(state.past))) is None
