"""``cribbage play``: whole games from scripts, the REPL through a pipe, saving, resuming."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from syrupy.assertion import SnapshotAssertion

from cribcli.players import Level
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.store import Places, SaveLock
from tests.conftest import Run
from tests.scripted import moves

MOVES = moves(7)


def game_log(home: Path) -> str:
    logs = sorted((home / "games").glob("*.toml"))
    assert len(logs) == 1
    return logs[0].read_text(encoding="utf-8")


def without_start(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("started"))


@pytest.mark.slow
def test_a_whole_scripted_game(cribbage: Run, home: Path, snapshot: SnapshotAssertion) -> None:
    result = cribbage("play", "--seed", "7", "--level", "normal", stdin="\n".join(MOVES) + "\n")
    assert result.status == 0, result.err
    assert result.err == ""
    # the log is named by the day it was played: the snapshot holds on any day
    transcript = re.sub(
        r"/games/\d{4}-\d{2}-\d{2}-seed", "/games/DAY-seed", result.out.replace(str(home), "HOME")
    )
    assert "\x1b[" not in transcript  # plain text in pipes
    assert "Computer wins" in transcript or "You win" in transcript
    assert transcript == snapshot
    replayed = replay(loads(game_log(home)))
    assert replayed.finished
    assert not Places.find(str(home)).save().exists()
    again = cribbage("replay", "--last")
    assert again.status == 0 and "seed 7" in again.out.splitlines()[0]


@pytest.mark.slow
def test_the_same_script_gives_the_same_transcript(cribbage: Run, tmp_path: Path) -> None:
    outs = []
    for name in ("one", "two"):
        result = cribbage(
            "play", "--seed", "7", "--data-dir", str(tmp_path / name), stdin="\n".join(MOVES) + "\n"
        )
        outs.append(result.out.replace(str(tmp_path / name), "HOME"))
    assert outs[0] == outs[1]


@pytest.mark.slow
def test_a_script_that_stops_early_leaves_the_game_saved(
    cribbage: Run, home: Path, tmp_path: Path
) -> None:
    half = len(MOVES) // 2
    first = cribbage("play", "--seed", "7", "--level", "normal", stdin="\n".join(MOVES[:half]))
    assert first.status == 0
    assert first.out.rstrip().endswith("the game is saved; 'cribbage play' carries on.")
    assert Places.find(str(home)).save().exists()
    # new-game options with a save in progress: refused, nothing lost
    clash = cribbage("play", "--seed", "8", stdin="")
    assert clash.status == 2 and "--new" in clash.err
    second = cribbage("play", stdin="\n".join(MOVES[half:]))
    assert second.status == 0, second.err
    assert "Carrying on your game" in second.out
    # the same game as one unbroken script
    whole = cribbage(
        "play",
        "--seed",
        "7",
        "--level",
        "normal",
        "--data-dir",
        str(tmp_path / "whole"),
        stdin="\n".join(MOVES),
    )
    assert whole.status == 0
    split_log = without_start(game_log(home))
    whole_log = without_start(next((tmp_path / "whole" / "games").glob("*.toml")).read_text())
    assert split_log == whole_log


def test_a_bad_line_stops_the_script(cribbage: Run, home: Path) -> None:
    lines = [MOVES[0], "ZZ"]
    result = cribbage("play", "--seed", "7", stdin="\n".join(lines))
    assert result.status == 1
    assert (
        result.err == "cribbage: line 2: `ZZ` is not a card: use a rank A 2-10 J Q K and a "
        "suit C D H S, e.g. 5H or 10D\n"
    )
    assert Places.find(str(home)).save().exists()


def test_an_unplayable_card_is_refused_with_its_reason(cribbage: Run, home: Path) -> None:
    result = cribbage("play", "--seed", "7", stdin=MOVES[0] + "\nKS QS\n")
    assert result.status == 1
    assert "is not in your hand" in result.err or "not 2" in result.err


@pytest.mark.slow
def test_json_lines(cribbage: Run, home: Path) -> None:
    result = cribbage("play", "--seed", "7", "--json", stdin="\n".join(MOVES))
    assert result.status == 0
    records = [json.loads(line) for line in result.out.splitlines()]
    dealt = [r for r in records if r["event"] == "dealt"]
    assert dealt and all(isinstance(r["hands"][1], int) for r in dealt)  # the computer's hidden
    assert all(isinstance(r["hands"][0], list) for r in dealt)
    prompts = [r for r in records if r["event"] == "prompt"]
    assert prompts[0]["waiting_for"] == "discard" and len(prompts[0]["hand"]) == 6
    assert [r["event"] for r in records[-4:]] == ["game_over", "summary", "seed", "saved"]
    assert sum(records[-3]["points"][1].values()) == 2 * records[-4]["scores"][1]
    assert records[-3]["cards_luck"] == [-2.35, -14.94]  # the text says -2.4 and -14.9
    # the promise before the first card is the seed's digest (printf %s 7 | sha256sum)
    digest = "sha256:7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"
    assert records[0] == {"event": "promise", "digest": digest}
    assert records[-2] == {"event": "seed", "seed": 7, "digest": digest}


def test_an_unreadable_save_is_kept_aside(cribbage: Run, home: Path) -> None:
    save = Places.find(str(home)).save()
    save.parent.mkdir(parents=True, exist_ok=True)
    save.write_text("this is not a game log [[[")
    result = cribbage("play", "--seed", "7", stdin=MOVES[0])
    assert result.status == 0
    assert "could not be read" in result.err and result.err.count("\n") == 1
    kept = list(home.glob("save.toml.broken-*"))
    assert len(kept) == 1 and kept[0].read_text() == "this is not a game log [[["
    assert save.exists()


def test_two_games_on_one_save_are_refused(cribbage: Run, home: Path) -> None:
    with SaveLock(Places.find(str(home)).save()):
        result = cribbage("play", "--seed", "7", stdin="")
    assert result.status == 1
    assert "already being played" in result.err


def test_new_abandons_the_saved_game(cribbage: Run, home: Path) -> None:
    cribbage("play", "--seed", "7", stdin=MOVES[0])
    result = cribbage("play", "--new", "--seed", "9", stdin="")
    assert result.status == 0
    assert "seed = 9" in Places.find(str(home)).save().read_text()


@pytest.mark.slow
def test_four_players_with_a_partner(cribbage: Run, home: Path) -> None:
    four = moves(3, players=4)
    result = cribbage("play", "--players", "4", "--seed", "3", stdin="\n".join(four))
    assert result.status == 0, result.err
    assert "You & Partner" in result.out
    assert replay(loads(game_log(home))).finished


@pytest.mark.slow
def test_the_repl_plays_a_whole_game_through_a_pipe(home: Path) -> None:
    from cribcli.players import computer
    from cribcli.record.log import GameInfo, Seat
    from cribcli.record.session import Session
    from cribcli.rules.engine import Rules
    from cribcli.ui.narrate import Table
    from cribcli.ui.repl import run_repl
    from cribcli.ui.seat import SeatUI

    info = GameInfo(Rules(), (Seat("You"), Seat("Computer", "computer", Level.NORMAL)), 7)
    session = Session.start(info, {1: computer("normal", 7, 1)})
    said: list[str] = []
    ui = SeatUI(session, 0, Table(info.rules, ("You", "Computer"), viewer=0), say=said.append)
    ui.told = 0
    ui.tell()
    typed = moves(7, enter=True)
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("\n".join(typed) + "\n")
        finished = run_repl(ui, None, input=pipe, output=DummyOutput())
    assert finished and session.over
    assert any(line.startswith("Computer wins") or line.startswith("You win") for line in said)
    # the same game as the easy player whose moves were typed, played without a person
    from cribcli.players.easy import EasyPlayer
    from cribcli.record.session import run_game

    _, unbroken = run_game(info, [EasyPlayer(7, 0), computer("normal", 7, 1)])
    assert session.events == unbroken


def test_completion_offers_only_sensible_cards(home: Path) -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from cribcli.players import computer
    from cribcli.record.log import GameInfo, Seat
    from cribcli.record.session import Session
    from cribcli.rules.engine import Rules
    from cribcli.ui.narrate import Table
    from cribcli.ui.repl import CardCompleter
    from cribcli.ui.seat import SeatUI

    info = GameInfo(Rules(), (Seat("You"), Seat("Computer", "computer", Level.NORMAL)), 7)
    session = Session.start(info, {1: computer("normal", 7, 1)})
    ui = SeatUI(session, 0, Table(info.rules, ("You", "Computer"), viewer=0), say=lambda _: None)
    completer = CardCompleter(ui)

    def offered(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    hand = [str(c) for c in sorted(session.state.hands[0])]  # offered sorted, as shown
    assert offered("")[:6] == hand and "hint" in offered("")
    first = hand[0]
    assert first not in offered(first + " ")
    assert offered("8") == [card for card in hand if card.startswith("8")]


@pytest.mark.slow
def test_script_file(cribbage: Run, home: Path, tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("# my moves\n" + "\n".join(MOVES) + "\n", encoding="utf-8")
    from_file = cribbage(
        "play", "--seed", "7", "--script", str(script), "--data-dir", str(tmp_path / "a")
    )
    from_pipe = cribbage(
        "play", "--seed", "7", "--data-dir", str(tmp_path / "b"), stdin="\n".join(MOVES) + "\n"
    )
    assert from_file.status == from_pipe.status == 0
    assert from_file.out.replace(str(tmp_path / "a"), "HOME") == from_pipe.out.replace(
        str(tmp_path / "b"), "HOME"
    )


def test_commands_in_line_mode(cribbage: Run, home: Path) -> None:
    result = cribbage(
        "play", "--seed", "7", stdin="help\nhint\nhand\nscore\nlog\ntips\nrules\nquit\n"
    )
    assert result.status == 0
    out = result.out
    assert "hint   the best throw or card to lay, and why" in out
    assert "Hint: throw " in out
    assert "A five is the best card to hold" in out
    assert "The rules, in brief" in out
    assert out.rstrip().endswith("'cribbage play' carries on where you left off.")


def test_the_level_is_remembered(cribbage: Run, home: Path) -> None:
    cribbage("play", "--level", "hard", "--seed", "7", stdin="quit\n")
    cribbage("play", "--new", stdin="quit\n")
    assert 'level = "hard"' in Places.find(str(home)).save().read_text()
    assert 'level = "hard"' in Places.find(str(home)).settings.read_text()


def test_muggins_takes_what_you_miss(cribbage: Run, home: Path) -> None:
    typed = moves(7, muggins=True, miss=1)
    result = cribbage("play", "--seed", "7", "--muggins", stdin="\n".join(typed) + "\n")
    assert result.status == 0, result.err
    assert "\nCount your hand:\n" in result.out  # a prompt is plain: the cards are above it
    assert re.search(r"\nYour hand: (\S+ ){3}\S+, starter \S+\nCount your hand:", result.out)
    assert "\x1b" not in result.out
    assert "Computer: muggins for 1" in result.out
    assert "You claim " in result.out and ": 1 missed." in result.out
    log = game_log(home)
    assert "muggins = true" in log and "claims = [" in log
    assert replay(loads(log)).finished


@pytest.mark.slow
def test_daily_offers_muggins(cribbage: Run, tmp_path: Path) -> None:
    typed = moves("daily/2026-12-01", "hard", muggins=True)
    result = cribbage(
        "daily",
        "--date",
        "2026-12-01",
        "--muggins",
        "--data-dir",
        str(tmp_path),
        stdin="\n".join(typed) + "\n",
    )
    assert result.status == 0, result.err
    assert "You claim " in result.out and "Count your crib" in result.out
    assert " missed." not in result.out  # every count was right: nothing to take


def test_log_option_writes_a_copy_after_every_move(
    cribbage: Run, home: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy" / "game.toml"
    result = cribbage("play", "--seed", "7", "--log", str(copy), stdin="\n".join(MOVES[:5]))
    assert result.status == 0
    assert copy.read_text(encoding="utf-8") == Places.find(str(home)).save().read_text(
        encoding="utf-8"
    )
