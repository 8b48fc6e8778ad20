"""One whole game in a real pseudo-terminal: discard with Tab completion, play, quit,
resume, and finish, as a person at a terminal would."""

from __future__ import annotations

import re
import signal
import sys
from pathlib import Path

import pexpect
import pytest

from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.rules.engine import Play
from tests.conftest import interrupt_as_usual
from tests.scripted import moves
from tests.terminal import ANSI, HANG, drawn, environment, settle


def spawn(home: Path, *args: str) -> pexpect.spawn[str]:
    return pexpect.spawn(
        sys.executable,
        ["-m", "cribcli", "play", *args],
        env=environment(str(home)),
        encoding="utf-8",
        timeout=HANG,
        dimensions=(30, 80),
        preexec_fn=interrupt_as_usual,  # (Ctrl-C is a signal here: not one ignored)
    )


@pytest.mark.slow
def test_a_whole_game_in_a_terminal(tmp_path: Path) -> None:
    typed = moves(7, enter=True)
    child = spawn(tmp_path, "--seed", "7", "--level", "normal", "--fast")
    screen = settle(child)
    assert "Put 2 in the crib>" in screen
    # Discard with Tab: type a prefix only one card in the hand has, and let Tab finish it.
    hand = moves_hand(screen)
    for card in typed[0].split():
        prefix = next(
            (
                card[:n]
                for n in range(1, len(card))
                if sum(c.startswith(card[:n]) for c in hand) == 1
            ),
            card,
        )
        child.send(prefix + "\t")
        child.expect(drawn(card))
        child.send(" ")
    child.send("\r")
    # A few moves, then quit.
    for line in typed[1:5]:
        settle(child)
        child.sendline(line)
    settle(child)
    child.sendline("quit")
    assert "The game is saved" in settle(child)
    child.expect(pexpect.EOF)
    # Resume and finish.
    child = spawn(tmp_path, "--fast")
    assert "Carrying on your game" in settle(child)
    for line in typed[5:]:
        child.sendline(line)
        screen = settle(child)
    # the end of a game: the final board, who won and by what, points by source, where
    # the log went; then another game is offered, and Enter starts one
    lines = screen.replace("\r", "").split("\n")
    assert "Computer wins 121 to 83, a skunk, after 10 deals." in screen  # (carried on)
    board = lines.index(next(line for line in lines if line.startswith("You      ")))
    assert lines[board + 1].startswith(" 83      ") and lines[board + 3].startswith("121      ")
    assert re.search(r"Points +pegging +hand +crib +total", screen)
    assert re.search(r"You +18 +43 +22 +83", screen)
    assert re.search(r"Computer +24 +76 +21 +121", screen)
    assert "The game's log is in" in screen
    assert screen.rstrip().endswith("Another game? [Y/n]:")
    assert len(list((tmp_path / "games").glob("*.toml"))) == 1
    child.send("\r")
    assert "Put 2 in the crib>" in settle(child)
    saved = (tmp_path / "save.toml").read_text(encoding="utf-8")
    assert "seed = 7" not in saved  # a new deal, carrying the last game's deals shown
    assert saved.count("[[earlier]]") == 9  # the computer reads the player (the 10th deal was
    # not shown in full: the game was won in its show)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_enter_takes_the_default_of_every_question(tmp_path: Path) -> None:
    # a first game: Enter takes the level shown, and how to play is told once
    child = spawn(tmp_path)
    question = settle(child)
    asked = "How strong a computer? (1 to 10, or easy (1), normal (9), hard (10)) [normal]:"
    assert " ".join(question.split()).endswith(asked)
    child.send("11\r")  # no such level: said so, and asked again
    again = " ".join(settle(child).split())
    assert "Error: `11` is not a level: 1 to 10" in again and again.endswith(asked)
    child.send("\r")
    first = settle(child)
    assert "Error" not in first and "Put 2 in the crib>" in first
    assert "To throw, type two cards (5H JD)" in first and "[brackets], dimmed" in first
    assert 'level = "normal"' in (tmp_path / "save.toml").read_text(encoding="utf-8")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    # a new-game option with a game saved: Enter carries the game on
    child = spawn(tmp_path, "--level", "hard")
    assert " ".join(settle(child).split()).endswith("Carry it on? [Y/n]:")
    child.send("\r")
    carried = settle(child)
    assert "Carrying on your game (round 1)." in carried
    assert "To throw" not in carried  # told once, not every game
    child.sendline("quit")
    child.expect(pexpect.EOF)
    # --new with a game saved: Enter keeps it (abandoning is never the default)
    child = spawn(tmp_path, "--new")
    assert " ".join(settle(child).split()).endswith("start a new one? [y/N]:")
    child.send("\r")
    assert "Carrying on your game (round 1)." in settle(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    # the level remembered is the default shown, and Enter takes it too
    (tmp_path / "save.toml").unlink()
    settings = tmp_path / "settings.toml"
    settings.write_text(settings.read_text().replace('"normal"', '"hard"'), encoding="utf-8")
    child = spawn(tmp_path)
    assert settle(child).rstrip().endswith("normal (9), hard (10)) [hard]:")
    child.send("\r")
    assert "Put 2 in the crib>" in settle(child)
    assert 'level = "hard"' in (tmp_path / "save.toml").read_text(encoding="utf-8")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def moves_hand(screen: str) -> list[str]:
    """The hand from the table drawn before the first prompt (suits as symbols)."""
    line = [text for text in ANSI.sub("", screen).splitlines() if "Your hand:" in text][-1]
    symbols = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}
    return ["".join(symbols.get(ch, ch) for ch in card) for card in line.split(":")[1].split()]


@pytest.mark.slow
@pytest.mark.parametrize("signal_number", [signal.SIGHUP, signal.SIGKILL, signal.SIGTERM])
def test_a_closed_terminal_or_a_kill_loses_nothing(tmp_path: Path, signal_number: int) -> None:
    typed = moves(7, enter=True)
    child = spawn(tmp_path, "--seed", "7", "--level", "normal", "--fast")
    settle(child)
    for line in typed[:3]:
        child.sendline(line)
        settle(child)
    child.kill(signal_number)
    child.close(force=True)
    log = replay(loads((tmp_path / "save.toml").read_text(encoding="utf-8")))
    laid = [action for action in log.actions if isinstance(action, Play) and action.seat == 0]
    assert len(laid) == 2  # the discard and both plays typed before the signal are kept
    again = spawn(tmp_path, "--fast")
    assert "Carrying on your game" in settle(again)
    again.sendline("quit")
    again.expect(pexpect.EOF)


@pytest.mark.slow
def test_ctrl_c_while_the_computer_plays_saves_and_leaves(tmp_path: Path) -> None:
    typed = moves(7, enter=True)
    child = spawn(tmp_path, "--seed", "7", "--level", "normal")  # paced: the computer pauses
    settle(child)
    child.sendline(typed[0])  # the discard: then the computer cuts, and the play begins
    settle(child)
    child.sendline(typed[1])  # a card: once it is told, the computer pauses to answer
    child.expect(r"You: \S+ \(\d+\)")
    child.sendintr()
    child.expect("Interrupted: the game is saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    log = replay(loads((tmp_path / "save.toml").read_text(encoding="utf-8")))
    assert any(isinstance(a, Play) and a.seat == 0 for a in log.actions)
    again = spawn(tmp_path, "--fast")
    assert "Carrying on your game" in settle(again)
    again.sendline("quit")
    again.expect(pexpect.EOF)
