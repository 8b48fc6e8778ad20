"""``cribbage tournament``: the ACC's bracket and byes, standings ranked by game points,
games won and spread (each deciding once), ratings fitted to the games, and a tournament
stopped part way carried on to the same result, no finished game played again."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from cribcli.record.log import dumps
from cribcli.services.match import (
    GameSummary,
    Played,
    Setup,
    VoidGame,
    log_name,
    play_unit,
    unit_over,
)
from cribcli.services.tournament import (
    MatchUp,
    Results,
    TournamentSetup,
    bracket_order,
    bracket_size,
    first_round,
    qualifiers,
    ratings_of,
    round_robin,
    run_tournament,
    standings,
)
from tests.conftest import Run


def pairs(size: int) -> list[tuple[int, int]]:
    order = bracket_order(size)
    return [(min(a, b), max(a, b)) for a, b in zip(order[::2], order[1::2], strict=True)]


def test_the_bracket_is_the_accs_approved_one() -> None:
    # The approved 16 bracket, top to bottom; 1 and 2 meet only in the final.
    assert pairs(16) == [
        (1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15),
    ]  # fmt: skip
    assert pairs(8) == [(1, 8), (4, 5), (3, 6), (2, 7)]
    # As the ACC's rule reads its chart: 5-60 below 8-57, 3-62 below 4-61, 7-58 below 6-59
    # (its example is from the 256 bracket; the 64 bracket's pairings read alike).
    sixty_four = pairs(64)
    for upper, lower in (((8, 57), (5, 60)), ((4, 61), (3, 62)), ((6, 59), (7, 58))):
        assert sixty_four.index(lower) == sixty_four.index(upper) + 1
    assert all(a + b == 65 for a, b in sixty_four)


@pytest.mark.parametrize(
    ("entrants", "qualified", "bracket", "byes"),
    [
        (6, 2, 2, 0),  # two qualifiers: the final, at once
        (9, 3, 4, 1),
        (16, 4, 4, 0),
        (33, 9, 16, 7),
        (60, 15, 16, 1),  # the ACC's own example: the top qualifier has a bye
        (64, 16, 16, 0),
    ],
)
def test_one_in_four_qualify_and_the_top_have_byes(
    entrants: int, qualified: int, bracket: int, byes: int
) -> None:
    assert qualifiers(entrants) == qualified
    assert bracket_size(qualified) == bracket
    first = first_round(qualified)
    assert sorted(p.high for p in first if p.low is None) == list(range(1, byes + 1))
    playing = sorted(seed for p in first if p.low is not None for seed in (p.high, p.low))
    assert playing == list(range(byes + 1, qualified + 1))
    assert len(first) == bracket // 2  # the second round is full


def won(first: int, second: int, scores: tuple[int, int], skunk: str = "") -> GameSummary:
    """A game between round-robin players ``first`` and ``second`` (in seats 0 and 1)."""
    winner = 0 if scores[0] > scores[1] else 1
    return GameSummary(0, "s", 0, winner, scores, skunk, (), ())


def test_standings_by_game_points_then_games_won_then_spread() -> None:
    """Five players, a game each pair (worked by hand):
    P1 beats X 121-100, Y 121-80 (a skunk), W 121-110, and loses to Z 111-121;
    X beats Y 121-101, Z 121-105, W 121-95; Y beats Z 121-85 and W 121-70 (skunks);
    W beats Z 121-119. Game points: P1 7; X 6 (three wins), Y 6 (two skunks); Z 2, W 2;
    spread: Z +10-16-36-2 = -44, W -11-26-51+2 = -86."""
    setup = TournamentSetup(("easy",) * 5, games=1)
    p1, x, y, z, w = range(5)
    games = {
        (p1, x): (121, 100, ""), (p1, y): (121, 80, "skunk"), (p1, z): (111, 121, ""),
        (p1, w): (121, 110, ""), (x, y): (121, 101, ""), (x, z): (121, 105, ""),
        (x, w): (121, 95, ""), (y, z): (121, 85, "skunk"), (y, w): (121, 70, "skunk"),
        (z, w): (119, 121, ""),
    }  # fmt: skip
    results = Results()
    matches = round_robin(setup)
    for match in matches:
        first, second, skunk = games[match.players]
        results.keep(match, 0, (won(*match.players, (first, second), skunk),))
    ranked = standings(5, matches, results)
    assert [s.player for s in ranked] == [p1, x, y, z, w]
    assert [s.game_points for s in ranked] == [7, 6, 6, 2, 2]
    assert [s.wins for s in ranked] == [3, 3, 2, 1, 1]
    spreads = [21 + 41 - 10 + 11, -21 + 20 + 16 + 26, -41 - 20 + 36 + 51, -44, -86]
    assert [s.spread for s in ranked] == spreads
    assert [s.decided_by for s in ranked] == [
        "game points",  # P1 7, X 6
        "games won",  # X and Y 6 each; X won 3, Y 2
        "game points",  # Y 6, Z 2
        "spread",  # Z and W 2 points and 1 win each; -44 against -86
        "",
    ]


def test_ratings_are_the_bradley_terry_fit() -> None:
    """A beat B in 3 of 4 games. With the prior (a win and a loss each against an
    opponent of strength 0), the fit has A at +t and B at -t where A's wins (3, and 1
    from the prior) equal their expectation: 4 s(2t) + 2 s(t), s the logistic. Solved
    here by bisection, apart from the program's Newton steps."""

    def s(x: float) -> float:
        return 1 / (1 + math.exp(-x))

    low, high = 0.0, 5.0
    for _ in range(200):
        t = (low + high) / 2
        low, high = (t, high) if 4 * s(2 * t) + 2 * s(t) < 4 else (low, t)
    a, b = ratings_of(2, [(0, 1), (0, 1), (0, 1), (1, 0)])
    assert a.elo == pytest.approx(t * 400 / math.log(10)) and b.elo == pytest.approx(-a.elo)
    assert a.within == pytest.approx(b.within) and a.within > 0
    even = ratings_of(3, [(0, 1), (1, 2), (2, 0)])
    assert [r.elo for r in even] == pytest.approx([0, 0, 0], abs=1e-9)
    more = ratings_of(2, [(0, 1), (0, 1), (0, 1), (1, 0)] * 25)  # more games: surer
    assert more[0].within < a.within


def test_a_small_acc_tournament_plays_to_its_winner(cribbage: Run, tmp_path: Path) -> None:
    result = cribbage(
        "tournament", "easy", "normal", "easy", "normal", "easy", "normal",
        "--format", "acc", "--short", "--games", "1", "--json", "--log-dir", str(tmp_path),
    )  # fmt: skip
    assert result.status == 0, result.err
    told = json.loads(result.out)
    assert [s["place"] for s in told["standings"]] == [1, 2, 3, 4, 5, 6]
    first, second = (told["standings"][n]["player"] for n in (0, 1))
    knockout = told["knockout"]
    assert [(m["round"], m["seeds"]) for m in knockout] == [(1, [1, 2])]  # the final: no byes
    assert knockout[0]["players"] == [first, second]
    assert told["champion"] == knockout[0]["winner"] in (first, second)
    assert max(knockout[0]["score"]) == 2  # best of 3
    assert len(told["ratings"]) == 6 and len(told["crosstable"]) == 6
    logs = sorted(p.name for p in tmp_path.glob("*.toml"))
    assert "tournament.toml" in logs and len(logs) == 1 + 15 + sum(knockout[0]["score"])
    again = cribbage("tournament", "easy", "normal", "--log-dir", str(tmp_path))
    assert again.status == 1 and "--resume" in again.err  # (a folder holds one)
    assert cribbage("tournament", "easy").status == 2


@pytest.mark.slow
def test_a_tournament_killed_part_way_is_carried_on_to_the_same_result(
    cribbage: Run, tmp_path: Path
) -> None:
    """A round-robin is killed (SIGKILL) once some of its games are logged; carried on
    with --resume, it plays only what it had not (the logs written before are the same
    files, untouched) and ends as an unbroken one does."""
    args = ["easy", "normal", "easy", "normal", "--short", "--games", "30", "--seed", "7"]
    whole = cribbage("tournament", *args, "--format", "acc", "--json")
    assert whole.status == 0, whole.err
    folder = tmp_path / "t"
    process = subprocess.Popen(
        [sys.executable, "-m", "cribcli", "tournament", *args, "--format", "acc",
         "--log-dir", str(folder), "--json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
    )  # fmt: skip
    deadline = time.monotonic() + 120  # a ceiling: only a hang meets it
    while len(list(folder.glob("round-robin-*.toml"))) < 40 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(60)
    before = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.glob("*.toml")}
    assert 40 <= len(before) < 1 + 6 * 30
    carried = cribbage("tournament", "--resume", str(folder), "--json")
    assert carried.status == 0, carried.err
    assert json.loads(carried.out) == json.loads(whole.out)
    after = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.glob("*.toml")}
    assert all(after[name] == kept for name, kept in before.items())  # none played again
    assert len(after) > len(before)
    refused = cribbage("tournament", "easy", "hard", "--resume", str(folder))
    assert refused.status == 2 and "not the tournament's: it is `easy`, `normal`" in refused.err


def _first_seat_wins(
    units: list[tuple[MatchUp, int, Played]],
) -> Iterator[tuple[int, Played, tuple[tuple[str, str], ...]]]:
    """Plays nothing: in every game the match's first player (the lower number in the
    round-robin, the higher seed in the knockout) wins 121 to 100."""
    for number, (match, unit, done) in enumerate(units):
        played: list[GameSummary | VoidGame] = list(done)
        while not unit_over(match.setup, played):
            played.append(GameSummary(unit, "s", 0, 0, (121, 100), "", (), (), game=len(played)))
        yield number, tuple(played), ()


def test_the_knockout_goes_round_by_round_the_higher_seed_first() -> None:
    """20 players: 5 qualify, a bracket of 8, byes for seeds 1-3; seed 4 plays seed 5,
    then 1 meets 4 and 2 meets 3 (each pairing named higher seed first), then the final."""
    setup = TournamentSetup(("easy",) * 20, "acc", games=1)
    played = run_tournament(setup, _first_seat_wins)
    assert [s.player for s in played.standings()][:5] == [0, 1, 2, 3, 4]
    assert played.seeds == [0, 1, 2, 3, 4]
    rounds = [(m.round, m.seeds, m.winner) for m in played.knockout]
    assert rounds == [
        (1, (1, None), 1), (1, (4, 5), 4), (1, (3, None), 3), (1, (2, None), 2),
        (2, (1, 4), 1), (2, (2, 3), 2),
        (3, (1, 2), 1),
    ]  # fmt: skip
    assert played.champion == 0
    assert all(m.score == (2, 0) for m in played.knockout if m.seeds[1] is not None)


def test_a_log_that_is_not_the_games_is_played_again(tmp_path: Path) -> None:
    """A tournament's folder with, under a game's name, the log of another game (another
    seed): it is not counted as that game."""
    from cribcli.services.tournament import Tournament, _read_unit

    setup = TournamentSetup(("easy", "easy"), games=2, target=61)
    match = round_robin(setup)[0]
    other = Setup(("easy", "easy"), "not this tournament", target=61)
    logs: list[tuple[str, str]] = []
    play_unit(other, 0, lambda n, info, events: logs.append(("", dumps(info, events))))
    (tmp_path / log_name(match.setup, 0, 0)).write_text(logs[0][1], encoding="utf-8")
    results = Results()
    assert _read_unit(tmp_path, results, match, 0) == 0
    assert results.played(match, 0) == ()
    real: list[str] = []
    play_unit(match.setup, 1, lambda n, info, events: real.append(dumps(info, events)))
    (tmp_path / log_name(match.setup, 1, 0)).write_text(real[0], encoding="utf-8")
    _read_unit(tmp_path, results, match, 1)
    assert len(results.played(match, 1)) == 1
    assert Tournament(setup).voids == 0


def test_a_best_of_match_carried_on_from_its_logs_is_the_unbroken_one(tmp_path: Path) -> None:
    """A knockout's best-of match stopped after its first game and carried on from the
    logs plays its next games as the unbroken match did: what the first game carries to
    the next (the deals shown, which hard reads the other by) is read back from its log
    (normal and easy, which do not read them, keep the test quick: the deals are the
    point)."""
    from cribcli.services.tournament import _read_unit

    setup = TournamentSetup(("normal", "easy"), games=1, target=61)
    match = MatchUp("knockout 1 1", (0, 1), setup.knockout(1, 0, (0, 1)), 1)
    assert match.setup.best_of == 3
    logs: list[tuple[int, str]] = []
    whole = play_unit(match.setup, 0, lambda n, info, events: logs.append((n, dumps(info, events))))
    assert len(whole) >= 2 and isinstance(whole[0], GameSummary) and whole[0].carries
    (tmp_path / log_name(match.setup, 0, 0)).write_text(logs[0][1], encoding="utf-8")
    results = Results()
    _read_unit(tmp_path, results, match, 0)
    assert results.played(match, 0) == whole[:1]  # the deals it carries, too
    assert play_unit(match.setup, 0, done=results.played(match, 0)) == whole


def test_the_report_as_a_person_reads_it(cribbage: Run, snapshot: SnapshotAssertion) -> None:
    shown = cribbage(
        "tournament", "easy", "normal", "easy", "normal", "--format", "acc", "--games", "2",
        "--short", "--seed", "3",
    )  # fmt: skip
    assert shown.status == 0, shown.err
    assert shown.out == snapshot


# --- a resume folder is checked before anything is played -------------------------------

ROUND = ("easy", "normal", "--games", "2", "--short", "--seed", "3")


def _digests(folder: Path) -> dict[str, str]:
    """Every file of the folder, by name: its bytes' SHA-256."""
    import hashlib

    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def _folder(cribbage: Run, folder: Path, *more: str) -> None:
    done = cribbage("tournament", *ROUND, *more, "--log-dir", str(folder), "--json")
    assert done.status == 0, done.err


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


FIRST = "round-robin-01-02-game-00000.toml"


@pytest.mark.parametrize("edit", ["the seed", "a player", "another tournament's log", "a seat"])
def test_a_resume_folder_that_is_not_its_description_is_refused_and_left_as_it_was(
    cribbage: Run, tmp_path: Path, edit: str
) -> None:
    """Its seed edited, a player changed, a log of another tournament put in, a log's
    seat changed: the resume lists what differs, plays nothing, changes no file."""
    folder = tmp_path / "t"
    _folder(cribbage, folder)
    described = folder / "tournament.toml"
    if edit == "the seed":
        _edit(described, "seed = 3", "seed = 4")
    elif edit == "a player":
        _edit(described, '"easy"', '"hard"')
    elif edit == "another tournament's log":
        other = tmp_path / "other"
        done = cribbage("tournament", "easy", "normal", "--games", "2", "--short", "--seed",
                        "3", "--duplicate", "--log-dir", str(other))  # fmt: skip
        assert done.status == 0, done.err
        (folder / FIRST).write_bytes((other / FIRST).read_bytes())
    else:
        _edit(folder / FIRST, 'level = "easy"', 'level = "hard"')
    before = _digests(folder)
    refused = cribbage("tournament", "--resume", str(folder))
    assert refused.status == 1 and refused.out == ""
    headline, *listed = refused.err.splitlines()
    assert "from the tournament its tournament.toml describes" in headline
    assert "nothing was played, and nothing changed" in headline
    assert listed and all(line.startswith("  round-robin-01-02-game-0000") for line in listed)
    expected = {
        "the seed": "dealt from the seed `3/1 v 2/match 0`, the tournament deals it from `4/",
        "a player": "played for another tournament.toml",
        "another tournament's log": "played for another tournament.toml",
        "a seat": "seat 0 is `hard`, the tournament has `easy` there",
    }[edit]
    assert any(expected in line for line in listed), listed
    assert _digests(folder) == before


def test_a_resume_runs_no_program_the_folder_names_unless_told(
    cribbage: Run, tmp_path: Path
) -> None:
    """A player changed to a program: the resume names it and runs nothing; named on the
    command line, or trusted, the folder's logs still do not fit it, and nothing runs."""
    folder = tmp_path / "t"
    _folder(cribbage, folder)
    marker = tmp_path / "MARKER"
    program = f"engine:touch {marker}"
    _edit(folder / "tournament.toml", '"normal"', json.dumps(program))
    before = _digests(folder)
    refused = cribbage("tournament", "--resume", str(folder))
    assert refused.status == 1 and f"`{program}`" in refused.err
    assert "--trust-engines" in refused.err and refused.err.count("\n") == 1
    for more in (["easy", program], ["--trust-engines"]):
        again = cribbage("tournament", "--resume", str(folder), *more)
        assert again.status == 1 and "seat 1 is `normal`" in again.err, again.err
    wrong = cribbage("tournament", "--resume", str(folder), "easy", "hard")
    assert wrong.status == 2 and "not the tournament's" in wrong.err
    assert not marker.exists() and _digests(folder) == before


def test_a_damaged_log_is_set_aside_and_its_game_played_again(
    cribbage: Run, tmp_path: Path
) -> None:
    whole = cribbage("tournament", *ROUND, "--json")
    folder = tmp_path / "t"
    _folder(cribbage, folder)
    broken = (folder / FIRST).read_bytes()[:-200]
    (folder / FIRST).write_bytes(broken)
    carried = cribbage("tournament", "--resume", str(folder), "--json")
    assert carried.status == 0, carried.err
    assert json.loads(carried.out) == json.loads(whole.out)
    (kept,) = folder.glob(f"{FIRST}.damaged-*")
    assert kept.read_bytes() == broken  # kept as it was, under another name
    assert (folder / FIRST).read_bytes() != broken  # and its game played again


def test_a_resume_runs_the_folder_s_programs_when_named_or_trusted(
    cribbage: Run, tmp_path: Path
) -> None:
    bot = f"engine:{sys.executable} {Path(__file__).parents[1] / 'examples' / 'simple_bot.py'}"
    args = ("easy", bot, "--games", "2", "--short", "--seed", "5")
    whole = cribbage("tournament", *args, "--json")
    assert whole.status == 0, whole.err
    folder = tmp_path / "t"
    assert cribbage("tournament", *args, "--log-dir", str(folder)).status == 0
    last = folder / "round-robin-01-02-game-00001.toml"
    for how in (["easy", bot], ["--trust-engines"]):
        last.unlink()
        carried = cribbage("tournament", "--resume", str(folder), *how, "--json")
        assert carried.status == 0, carried.err
        assert json.loads(carried.out) == json.loads(whole.out) and last.exists()


@pytest.mark.slow
@pytest.mark.parametrize("columns", [80, 40])
def test_the_report_fits_a_real_terminal(tmp_path: Path, columns: int) -> None:
    """In a pseudo-terminal of 80 and of 40 columns: no line wider than it."""
    import pexpect

    from tests.terminal import ANSI, HANG, environment

    env = {**environment(str(tmp_path)), "COLUMNS": str(columns)}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cribcli", "tournament", "easy", "5", "normal", "5", "--format", "acc",
         "--games", "1", "--short"],
        env=env, encoding="utf-8", dimensions=(30, columns), timeout=HANG,
    )  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = ANSI.sub("", child.before or "")
    report = text[text.index("Tournament (") :]
    lines = [line.rstrip("\r") for line in report.split("\n")]
    assert "The winner:" in report and "level 5 #1" in report
    assert all(len(line) <= columns for line in lines), [s for s in lines if len(s) > columns]
