"""What the program says when something is not as expected: each message says what to do,
and options that contradict each other are refused, not quietly settled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cribcli.players import Level, computer
from cribcli.record.log import GameInfo, Seat
from cribcli.record.session import Session
from cribcli.record.store import Places
from cribcli.rules.engine import Phase, Rules
from cribcli.services.games import HeldGame, Kind, NewGame, describe
from cribcli.ui.console import warn
from cribcli.ui.narrate import Table
from cribcli.ui.seat import SeatUI
from tests.conftest import Run
from tests.scripted import moves

ROOT = Path(__file__).resolve().parent.parent
NAMES4 = ("You", "Left", "Partner", "Right")


def saved_game(tmp_path: Path, cribbage: Run, typed: int = 3) -> Places:
    script = "\n".join(moves(7)[:typed])
    cribbage("play", "--seed", "7", "--level", "hard", "--data-dir", str(tmp_path), stdin=script)
    return Places.find(str(tmp_path))


def test_saying_no_to_carrying_on_names_the_game_and_asks_before_abandoning(
    tmp_path: Path, cribbage: Run
) -> None:
    places = saved_game(tmp_path, cribbage)
    asked: list[str] = []

    def no(question: str, default: bool) -> bool:
        asked.append(question)
        return False

    with HeldGame(places, Kind(), warn) as held:
        kept = held.carry_on(abandon=False, new_options=["seed"], ask=no)
    assert kept is not None and places.save().exists()  # two noes: the game stays
    assert asked[0].startswith("A game is in progress: You ")
    assert " v Computer " in asked[0] and " (hard), round " in asked[0]
    assert asked[0].endswith(". Carry it on?")
    assert asked[1] == "Abandon that game for good, and start a new one?"
    with HeldGame(places, Kind(), warn) as held:
        answers = iter([False, True])
        gone = held.carry_on(abandon=False, new_options=["seed"], ask=lambda q, d: next(answers))
    assert gone is None and not places.save().exists()


def test_a_game_described() -> None:
    info = GameInfo(Rules(), (Seat("You"), Seat("Computer", "computer", Level.HARD)), 7)
    session = Session.start(info, {1: computer("hard", 7, 1)})
    assert describe(session) == "You 0 v Computer 0 (hard), round 1"
    four = GameInfo(
        Rules(players=4, cut_for_deal=True),
        tuple(Seat(n, "computer", Level.EASY) if n != "You" else Seat(n) for n in NAMES4),
        7,
    )
    partners = Session.start(four, {s: computer("easy", 7, s) for s in (1, 2, 3)})
    assert describe(partners).startswith("You & Partner 0 v Left & Right 0 (easy), round 1")


def at_the_table(muggins: bool = False, said: list[str] | None = None) -> SeatUI:
    """Seat 0 of a game against normal; what it is told goes into ``said``, if given."""
    info = GameInfo(
        Rules(muggins=muggins), (Seat("You"), Seat("Computer", "computer", Level.NORMAL)), 7
    )
    session = Session.start(info, {1: computer("normal", 7, 1)})
    heard = said.append if said is not None else (lambda _: None)
    return SeatUI(session, 0, Table(info.rules, ("You", "Computer"), viewer=0), say=heard)


def test_go_when_a_card_can_be_laid_names_the_cards() -> None:
    ui = at_the_table()
    assert ui.handle(moves(7)[0]) is None  # the discard
    ui.run_computers()
    error = ui.handle("go")
    assert error is not None and error.startswith("you can still lay ")
    assert error.endswith(": go is said for you when no card fits")
    hand = {str(card) for card in ui.view.hand}
    named = error.removeprefix("you can still lay ").split(":")[0].split(" or ")
    assert set(named) <= hand and named


def test_a_count_that_is_not_a_number_asks_for_one() -> None:
    ui = at_the_table(muggins=True)
    for line in moves(7, muggins=True):
        if ui.view.phase is Phase.SHOW and ui.my_turn:
            break
        assert ui.handle(line) is None
        ui.run_computers()
    assert ui.view.phase is Phase.SHOW and ui.my_turn
    assert ui.handle("two") == "type the number of points you count, e.g. 12"


def test_cribbage_alone_prints_the_help(cribbage: Run) -> None:
    result = cribbage()
    assert result.status == 0 and result.err == ""
    assert result.out.startswith("Usage: cribbage") and "Commands:" in result.out


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (
            ["discard-advice", "5H", "5S", "JD", "4C", "2S", "KH", "--dealer", "--pone"],
            "cribbage: --dealer and --pone contradict each other: give one\n",
        ),
        (
            ["discard-advice", "5H", "5S", "JD", "4C", "2S", "KH"],
            "cribbage: say whose crib it is: --dealer (yours) or --pone (theirs)\n",
        ),
        (
            ["discard-advice", "5H", "5S", "JD", "4C", "2S", "KH", "--dealer", "--short"],
            "cribbage: --short goes with --score: it says the scores are out of 61\n",
        ),
        (["replay", "--last", "game.toml"], "cribbage: give a game log or --last, not both\n"),
    ],
)
def test_contradicting_options_are_refused(cribbage: Run, words: list[str], says: str) -> None:
    result = cribbage(*words)
    assert result.status == 2 and result.err == says


def test_the_scores_after_a_round_read_in_english(cribbage: Run, tmp_path: Path) -> None:
    log = (ROOT / "tests" / "logs" / "2-players.toml").read_text(encoding="utf-8")
    broken = log.replace("scores = [\n    8,", "scores = [\n    9,", 1)
    assert broken != log
    (tmp_path / "broken.toml").write_text(broken, encoding="utf-8")
    result = cribbage("replay", str(tmp_path / "broken.toml"))
    assert (
        "the log says the scores after the round are [9, 14], the rules give [8, 14]" in result.err
    )


def test_a_day_still_to_come_cannot_be_played(cribbage: Run, tmp_path: Path) -> None:
    result = cribbage("daily", "--date", "2999-01-01", "--data-dir", str(tmp_path))
    assert result.status == 2 and "has not come yet" in result.err


def test_a_daily_game_left_from_a_script_says_how_to_come_back(
    cribbage: Run, tmp_path: Path
) -> None:
    result = cribbage("daily", "--date", "2026-11-30", "--data-dir", str(tmp_path), stdin="")
    assert result.out.rstrip().endswith("'cribbage daily --date 2026-11-30' carries on.")


def test_the_manual_writes_a_spade_not_a_superset_sign() -> None:
    manual = (ROOT / "man" / "cribbage.1").read_text(encoding="utf-8")
    assert "\\(sp" not in manual


def test_a_new_game_takes_only_what_a_daily_game_takes() -> None:
    daily = Kind("2026-12-01")
    info = daily.info(NewGame(level=Level.EASY, seed=3, name="Ann"), Places.find("/nowhere"))
    assert info.seed == "daily/2026-12-01" and info.seats[0].name == "Ann"
    assert info.seats[1].level is Level.HARD


# --- takebacks ----------------------------------------------------------------------------


def test_undo_takes_back_your_move_and_the_answers_to_it(cribbage: Run, tmp_path: Path) -> None:
    typed = moves(7)
    said: list[str] = []
    ui = at_the_table(said=said)
    ui.handle(typed[0])
    ui.run_computers()
    before = (ui.session.state, len(ui.session.events), list(ui.session.actions))
    assert ui.handle(typed[1]) is None  # a card laid: the computer answers it
    ui.run_computers()
    assert len(ui.session.actions) == len(before[2]) + 2
    ui.handle("undo")
    assert said[-1].startswith(f"Taken back: your {typed[1]}, Computer's ")
    assert (ui.session.state, len(ui.session.events), ui.session.actions) == before
    assert ui.session.info.takebacks == 1
    # the same move again: the computer answers as it did (its choice is the position's)
    ui.handle(typed[1])
    ui.run_computers()
    again = list(ui.session.actions)
    ui.handle("undo")
    ui.handle(typed[1])
    ui.run_computers()
    assert ui.session.actions == again


def test_undo_goes_back_no_further_than_the_round(cribbage: Run) -> None:
    said: list[str] = []
    ui = at_the_table(said=said)
    ui.handle("undo")
    assert said[-1] == "nothing of yours to take back in this round"
    for line in moves(7)[:5]:  # the whole first round: a discard and four cards laid
        ui.handle(line)
        ui.run_computers()
    assert ui.view.round == 2 and ui.session.actions
    before = list(ui.session.actions)
    ui.handle("undo")
    assert said[-1] == "nothing of yours to take back in this round"
    assert ui.session.actions == before


def test_a_discard_stands_once_the_starter_is_turned() -> None:
    """Taking the discard back after the cut would let you throw again knowing the
    starter: what is seen stays seen."""
    said: list[str] = []
    ui = at_the_table(said=said)
    ui.handle(moves(7)[0])
    ui.run_computers()
    assert ui.view.starter is not None
    before = list(ui.session.actions)
    ui.handle("undo")
    assert said[-1] == "the starter is turned: your discard stands"
    assert ui.session.actions == before


def test_the_crib_says_who_threw_what_after_an_undo_and_after_a_resume(
    cribbage: Run, tmp_path: Path
) -> None:
    typed = moves(7)
    script = "\n".join([typed[0], typed[1], "undo", *typed[1:5]]) + "\n"
    once = cribbage(
        "play", "--seed", "7", "--level", "normal", "--data-dir", str(tmp_path / "u"), stdin=script
    )
    assert "  thrown: 3S JC from you, AH 7D from Computer\n" in once.out
    cribbage(
        "play",
        "--seed",
        "7",
        "--level",
        "normal",
        "--data-dir",
        str(tmp_path / "r"),
        stdin="\n".join(typed[:3]),
    )
    resumed = cribbage("play", "--data-dir", str(tmp_path / "r"), stdin="\n".join(typed[3:5]))
    assert "  thrown: 3S JC from you, AH 7D from Computer\n" in resumed.out


def test_no_takebacks_in_the_daily_game_nor_under_muggins(cribbage: Run, tmp_path: Path) -> None:
    daily = cribbage(
        "daily", "--date", "2026-11-30", "--data-dir", str(tmp_path / "d"), stdin="undo\nquit\n"
    )
    assert "no takebacks in the daily game" in daily.out
    muggins = cribbage(
        "play", "--muggins", "--seed", "7", "--data-dir", str(tmp_path / "m"), stdin="undo\n"
    )
    assert "no takebacks under muggins" in muggins.out


@pytest.mark.slow
def test_a_game_with_takebacks_says_so_in_its_log_and_in_stats(
    cribbage: Run, tmp_path: Path
) -> None:
    typed = moves(7)
    script = "\n".join([typed[0], typed[1], "undo", *typed[1:]]) + "\n"
    result = cribbage(
        "play", "--seed", "7", "--level", "normal", "--data-dir", str(tmp_path), stdin=script
    )
    assert result.status == 0, result.err
    log = next((tmp_path / "games").glob("*.toml")).read_text(encoding="utf-8")
    assert "\ntakebacks = 1\n" in log
    # the log holds the moves that stood: the game is the one played without the takeback
    plain = cribbage(
        "play", "--seed", "7", "--level", "normal", "--data-dir", str(tmp_path / "plain"),
        stdin="\n".join(typed) + "\n",
    )  # fmt: skip
    assert plain.status == 0
    other = next((tmp_path / "plain" / "games").glob("*.toml")).read_text(encoding="utf-8")

    def moves_only(text: str) -> list[str]:
        dropped = ("started", "takebacks")
        return [line for line in text.splitlines() if not line.startswith(dropped)]

    assert moves_only(log) == moves_only(other)
    stats = cribbage("stats", "--json", "--data-dir", str(tmp_path))
    assert json.loads(stats.out)["with_takebacks"] == 1
