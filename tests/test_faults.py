"""Faults: a full disk while saving, a save cut off half-way, input no parser expected.
The game in progress is never lost or corrupted, and no traceback reaches the user."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribcli.cards import Card
from cribcli.cli import main
from cribcli.errors import CardError, CribbageError
from cribcli.record import loads, replay
from cribcli.store import Places
from cribcli.ui import game as game_module
from tests.conftest import Run
from tests.scripted import moves

MOVES = moves(7)
LOG = (Path(__file__).parent / "logs" / "2-players.toml").read_text(encoding="utf-8")


def test_a_full_disk_keeps_the_last_good_save(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = game_module.write_atomic
    saves: list[str] = []

    def filling_up(path: Path, text: str) -> None:
        if len(saves) >= 4:
            raise OSError(28, "No space left on device")
        real(path, text)
        saves.append(text)

    monkeypatch.setattr(game_module, "write_atomic", filling_up)
    result = cribbage(
        "play", "--seed", "7", "--data-dir", str(tmp_path), stdin="\n".join(MOVES[:10])
    )
    assert result.status == 0
    assert result.err.count("cannot save") == 1  # said once, not after every move
    assert "No space left on device" in result.err
    saved = Places.find(str(tmp_path)).save().read_text(encoding="utf-8")
    assert saved == saves[-1]
    assert not replay(loads(saved)).finished  # the last good save, whole and readable
    # space again: the game carries on from the last good save
    monkeypatch.setattr(game_module, "write_atomic", real)
    again = cribbage("play", "--data-dir", str(tmp_path), stdin="quit\n")
    assert again.status == 0 and "Carrying on your game" in again.out


def test_a_save_cut_off_half_way(cribbage: Run, tmp_path: Path) -> None:
    cribbage("play", "--seed", "7", "--data-dir", str(tmp_path), stdin="\n".join(MOVES[:6]))
    save = Places.find(str(tmp_path)).save()
    text = save.read_text(encoding="utf-8")
    save.write_text(text[: len(text) // 2], encoding="utf-8")
    result = cribbage("play", "--seed", "8", "--data-dir", str(tmp_path), stdin="quit\n")
    assert result.status == 0
    assert "could not be read" in result.err and "Traceback" not in result.err
    assert len(list(tmp_path.glob("save.toml.broken-*"))) == 1


@given(st.text(max_size=12))
def test_any_card_token(token: str) -> None:
    with contextlib.suppress(CardError):  # any other exception fails the test
        Card.parse(token)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(LOG) - 1), st.integers(1, 40), st.text(max_size=5))
def test_any_damaged_log(start: int, length: int, junk: str) -> None:
    text = LOG[:start] + junk + LOG[start + length :]
    with contextlib.suppress(CribbageError):  # any other exception fails the test
        replay(loads(text))


WORDS = [
    "score",
    "discard-advice",
    "replay",
    "daily",
    "stats",
    "play",
    "5H",
    "5S",
    "JD",
    "4C",
    "2S",
    "KH",
    "10D",
    "1H",
    "zz",
    "-",
    "--starter",
    "-s",
    "--crib",
    "--json",
    "--dealer",
    "--pone",
    "--players",
    "3",
    "--top",
    "0",
    "--score",
    "100",
    "115",
    "--round",
    "-1",
    "--date",
    "2026-02-30",
    "--since",
    "--level",
    "hard",
    "--seed",
    "--ascii",
    "--bogus",
    "",
]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(WORDS), max_size=7))
def test_any_command_line(words: list[str]) -> None:
    if words[:1] == ["play"] or words[:1] == ["daily"]:
        words = [*words, "--data-dir", "/tmp/cribbage-fuzz-home"]
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO("quit\n")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(words)
            except SystemExit as stop:
                code = stop.code
    finally:
        sys.stdin = stdin
    assert code in (0, 1, 2), (words, err.getvalue())
    assert "Traceback" not in err.getvalue()
    if code:
        assert err.getvalue().strip(), words


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=20))
def test_any_line_at_the_prompt(line: str) -> None:
    from cribcli.engine import Rules
    from cribcli.players import computer
    from cribcli.record import GameInfo, Seat
    from cribcli.session import Session
    from cribcli.ui.narrate import Table
    from cribcli.ui.play import GameUI, Quit

    info = GameInfo(Rules(), (Seat("You"), Seat("Computer", "computer", "normal")), 7)
    session = Session.start(info, {1: computer("normal", 7, 1)})
    said: list[str] = []
    ui = GameUI(session, 0, Table(info.rules, ("You", "Computer"), viewer=0), say=said.append)
    with contextlib.suppress(Quit):
        error = ui.handle(line)
        assert error is None or "\n" not in error


def test_an_unusable_data_folder_is_one_line(cribbage: Run, tmp_path: Path) -> None:
    # a file where the folder should be: nothing can be created under it (as a read-only
    # folder would refuse, even to root)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    result = cribbage("play", "--seed", "7", "--data-dir", str(blocker / "home"), stdin="quit\n")
    assert result.status == 1
    assert result.err.startswith("cribbage: cannot use the folder ")
    assert result.err.count("\n") == 1
