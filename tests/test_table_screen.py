"""The table on a real terminal, read off the screen as a person sees it (tmux runs the
game, types, and gives back the screen): at 80x24 with colour and suit symbols, and at
40x20 on a dumb terminal with the C locale and NO_COLOR."""

from __future__ import annotations

import itertools
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.scripted import moves

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]


class Screen:
    """A game in a tmux window of a given size, on a tmux server of its own (tests run
    side by side: a shared server that one test's last session shuts down would refuse
    another's new one)."""

    def __init__(self, home: Path, width: int, height: int, env: dict[str, str], *args: str):
        self.name = f"cribbage-{uuid.uuid4().hex[:8]}"
        self.tmux = ["tmux", "-L", self.name]
        self.width, self.height = width, height
        command = " ".join(
            [
                *(f"{key}={shlex.quote(value)}" for key, value in env.items()),
                f"CRIBBAGE_HOME={shlex.quote(str(home))}",
                shlex.quote(sys.executable),
                "-m cribcli play",
                *args,
            ]
        )
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height)]
            + ["env -u NO_COLOR -u TERM -u COLUMNS -u LINES " + command],
            check=True,
            cwd=Path(__file__).resolve().parent.parent,
        )

    def text(self) -> list[str]:
        """The screen, a line a row."""
        done = subprocess.run(
            [*self.tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True
        )
        return done.stdout.rstrip("\n").split("\n")

    def wait_for(self, words: str, timeout: float = 30) -> list[str]:
        """The screen once ``words`` are on it and it has stopped changing."""
        deadline = time.monotonic() + timeout
        last: list[str] = []
        while time.monotonic() < deadline:
            screen = self.text()
            if any(words in line for line in screen) and screen == last:
                return screen
            last = screen
            time.sleep(0.3)
        raise AssertionError(f"never saw {words!r}:\n" + "\n".join(last))

    def type(self, text: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, text, "Enter"], check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


@pytest.fixture
def screens(tmp_path: Path) -> Iterator[list[Screen]]:
    opened: list[Screen] = []
    yield opened
    for screen in opened:
        screen.close()


def to_the_first_show(screen: Screen) -> list[str]:
    """Play seed 7's first round as the script's player does; the screen at the show."""
    screen.wait_for("Put 2 in the crib>")
    for move in moves(7)[:5]:
        screen.type(move)
        time.sleep(0.4)
    return screen.wait_for("Press Enter for the next deal")


def no_word_broken(screen: list[str], width: int) -> None:
    """No line runs to the edge and on into the next: everything was wrapped at spaces."""
    for line, following in itertools.pairwise(screen):
        assert len(line) <= width
        if len(line) == width and line[-1].isalnum() and following[:1].isalnum():
            raise AssertionError(f"a word broken at the edge:\n{line}\n{following}")


def test_the_table_at_80_by_24(tmp_path: Path, screens: list[Screen]) -> None:
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    screen = Screen(tmp_path, 80, 24, env, "--seed 7 --level normal --fast")
    screens.append(screen)
    first = screen.wait_for("Put 2 in the crib>")
    # the board stays below the prompt: pegs, who deals, what each needs, the skunk line
    assert first[-1].startswith("Round 1: Computer deals. To go: You 121, Computer 121.")
    assert first[-5].startswith("You      ") and first[-3].startswith("Computer ")
    assert "Your hand: 3♠ 6♥ 8♣ 8♦ 10♦ J♣" in first  # sorted by rank, then suit
    shown = to_the_first_show(screen)
    # the whole show, and the scores, are on the screen at once, before the next deal
    text = "\n".join(shown)
    for words in (
        "Your hand 6♥ 8♣ 8♦ 10♦, K♠: 2",
        "Computer's hand 2♦ 3♦ 4♥ Q♠, K♠: 7",
        "Computer's crib A♥ 3♠ 7♦ J♣, K♠: 0",
        "thrown: 3♠ J♣ from you, A♥ 7♦ from Computer",
        "Scores after round 1: You 2, Computer 10.",
    ):
        assert words in text, text
    assert "Round 2. You deal." not in text  # told only after Enter
    screen.type("tips")  # longer than what the screen holds above the board: paged
    tips = screen.wait_for("more lines: press Enter")
    assert tips[-7].startswith("  (") and tips[-7].endswith("more lines: press Enter)")
    assert tips[-1].startswith("Round 1: Computer deals.")  # the board still below
    no_word_broken(tips, 80)
    screen.type("")
    assert any("Near the end" in line for line in screen.wait_for("Near the end"))
    # the board shows the game as far as it is told: round 1's end, not yet round 2
    assert shown[-1].startswith("Round 1: Computer deals. To go: You 119, Computer 111.")
    no_word_broken(shown, 80)
    screen.type("")
    assert "Round 2. You deal." in "\n".join(screen.wait_for("Put 2 in the crib>"))


def test_the_table_at_40_by_20_on_a_dumb_terminal(tmp_path: Path, screens: list[Screen]) -> None:
    env = {"TERM": "dumb", "LANG": "C", "NO_COLOR": "1"}
    screen = Screen(tmp_path, 40, 20, env, "--seed 7 --level normal --fast")
    screens.append(screen)
    shown = to_the_first_show(screen)
    text = "\n".join(shown)
    assert "thrown: 3S JC from you, AH 7D from" in text  # ASCII suits, wrapped at a space
    assert "^[" not in text and "\x1b" not in text and "♠" not in text
    no_word_broken(shown, 40)
    screen.type("")
    table = screen.wait_for("Put 2 in the crib>")
    assert any(line.startswith("You        2 O") for line in table)  # the small board scrolls
    no_word_broken(table, 40)
    screen.type("rules")  # longer than the screen: a screenful at a time
    first = screen.wait_for("more lines: press Enter")
    assert first[-2].startswith("  (") and first[-1].startswith("Put 2 in the crib>")
    screen.type("")
    rules = screen.wait_for("turns the corner")
    no_word_broken(first + rules, 40)


def test_the_board_stays_while_the_computer_plays(tmp_path: Path, screens: list[Screen]) -> None:
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    screen = Screen(tmp_path, 80, 24, env, "--seed 7 --level normal")  # paced, as people play
    screens.append(screen)
    screen.wait_for("Put 2 in the crib>")
    waiting: list[list[str]] = []  # every screen seen while the computer was to play
    for move in moves(7)[:5]:
        screen.type(move)
        deadline = time.monotonic() + 120  # (a ceiling: only a hang reaches it)
        while True:  # until the game waits for you again
            assert time.monotonic() < deadline, "the game never asked again"
            shown = screen.text()
            prompt = next((line for line in reversed(shown) if ">" in line), "")
            if prompt.startswith("waiting for Computer>"):
                waiting.append(shown)
            elif shown[-1].startswith("Round 1:") and ("Your play" in prompt or "Press" in prompt):
                break
            time.sleep(0.05)
    assert waiting  # the computer paused before each of its moves: seen at least once
    for shown in waiting:  # the board and the status line under the prompt the whole time
        assert shown[-1].startswith("Round 1: Computer deals. To go: You"), shown
        assert shown[-5].startswith("You      ") and shown[-3].startswith("Computer "), shown


def test_partners_names_are_not_cut(tmp_path: Path, screens: list[Screen]) -> None:
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    screen = Screen(tmp_path, 80, 24, env, "--players 4 --seed 3 --level easy --fast")
    screens.append(screen)
    shown = screen.wait_for("Put 1 in the crib>")
    assert any(line.startswith("You & Partner   0 ") for line in shown)
    assert any(line.startswith("Left & Right    0 ") for line in shown)
    assert shown[-1].startswith("Round 1: ")


def test_a_muggins_count_prompt_is_plain(tmp_path: Path, screens: list[Screen]) -> None:
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    screen = Screen(tmp_path, 80, 24, env, "--seed 7 --level normal --fast --muggins")
    screens.append(screen)
    screen.wait_for("Put 2 in the crib>")
    for move in moves(7, muggins=True)[:5]:
        screen.type(move)
        time.sleep(0.4)
    counting = screen.wait_for("Count your hand>")
    text = "\n".join(counting)
    assert "^[" not in text
    assert "Your hand: 6♥ 8♣ 8♦ 10♦, starter K♠" in text  # what you count, above the prompt
