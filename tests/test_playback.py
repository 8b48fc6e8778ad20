"""``cribbage replay --watch``: a game played back move by move, the board below, at the
computer's pace or a move each time Enter is pressed. The pauses are recorded, never
slept; the keys are given; one test watches in a real pseudo-terminal."""

from __future__ import annotations

import io
import re
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pexpect
import pytest

from cribcli.record.reader import loads
from cribcli.record.replay import Replay, replay
from cribcli.rules.errors import Exit
from cribcli.ui import PACE
from cribcli.ui.narrate import Table
from cribcli.ui.playback import NEXT, watch
from tests.conftest import Run, interrupt_as_usual
from tests.terminal import ANSI, HANG, environment

LOGS = Path(__file__).parent / "logs"
ROOT = Path(__file__).resolve().parent.parent


class Terminal(io.StringIO):
    """What is written to a terminal (80 columns: $COLUMNS, as the test sets it)."""

    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def an_80_column_xterm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "30")


def replayed(name: str) -> Replay:
    return replay(loads((LOGS / name).read_text(encoding="utf-8")))


def table_of(game: Replay) -> Table:
    info = game.log.info
    return Table(info.rules, tuple(seat.name for seat in info.seats))


def keys(*pressed: str) -> Callable[[], str]:
    """The keys a watcher presses, one a read; then the end of input (Ctrl-D)."""
    left: Iterator[str] = iter(pressed)

    def key() -> str:
        for one in left:
            return one
        raise EOFError

    return key


def never(seconds: float) -> None:
    raise AssertionError(f"paused {seconds} s")


def screen(written: str) -> list[str]:
    """The lines left on the screen: what was drawn below the moves and taken away (the
    cursor sent up over it, and the rest of the screen erased) is gone."""
    rows: list[str] = []
    for part in re.split(r"(\r\x1b\[\d+A\x1b\[J)", written):
        erase = re.fullmatch(r"\r\x1b\[(\d+)A\x1b\[J", part)
        if erase:
            del rows[len(rows) - int(erase.group(1)) :]
        else:
            rows.extend(part.split("\n")[:-1])
    return rows


def moves_in(name: str) -> int:
    """The moves of a finished game's log, counted from the log by hand: each round's
    deal, each discard, the starter, each card laid or go said, each count of the show;
    and the end of the game."""
    log = tomllib.loads((LOGS / name).read_text(encoding="utf-8"))
    players = log["rules"]["players"]
    moves = 1  # the end
    for record in log["rounds"]:
        shows = [entry for entry in record["points"] if re.search(r" (hand|crib) for ", entry)]
        moves += 1 + players + 1 + len(record["plays"]) + len(shows)
    return moves


def test_the_moves_come_at_the_computers_pace_or_faster() -> None:
    game = replayed("2-players.toml")
    paused: dict[float, list[float]] = {}
    for speed in (1.0, 2.0):
        paused[speed] = []
        status = watch(
            game,
            table_of(game),
            speed=speed,
            stream=Terminal(),
            sleep=paused[speed].append,
            keys=keys(),
        )
        assert status == Exit.OK
    assert paused[1.0] == [PACE] * (moves_in("2-players.toml") - 1)  # between moves
    assert paused[2.0] == [PACE / 2] * len(paused[1.0])


def test_a_step_waits_for_enter_and_q_stops() -> None:
    game = replayed("2-players.toml")
    out = Terminal()
    pressed = keys("\n", "x", "\r", "q", "\n")
    status = watch(game, table_of(game), step=True, stream=out, sleep=never, keys=pressed)
    assert status == Exit.OK
    assert pressed() == "\n"  # the key after q is left unread
    shown = screen(out.getvalue())
    # the deal at once; Enter, the first discard; a key that means nothing, then Enter:
    # the second; q stops before the starter, with the board left where it stood
    assert shown[:3] == [
        "Ann (easy) v Bob (easy): to 121, seed 9, fixture.",
        "",
        "Round 1. Bob deals.",
    ]
    assert shown[5:7] == ["Ann put 10S 5D in the crib.", "Bob put AS 8C in the crib."]
    assert "Starter: 3H." not in out.getvalue()
    assert shown[-1] == "Round 1: Bob deals. To go: Ann 121, Bob 121. Skunk line 91."
    assert shown[-6] == "" and shown[-5].startswith("Ann ")
    assert NEXT in out.getvalue() and NEXT not in shown  # said while it waited, then taken away


def test_ctrl_d_stops_and_ctrl_c_is_status_130() -> None:
    game = replayed("2-players.toml")
    out = Terminal()
    assert watch(game, table_of(game), step=True, stream=out, keys=keys("\n", "\x04")) == 0
    assert "Ann put" in out.getvalue() and "Bob put" not in out.getvalue()

    def interrupted() -> str:
        raise KeyboardInterrupt

    out = Terminal()
    assert watch(game, table_of(game), step=True, stream=out, keys=interrupted) == 130
    assert screen(out.getvalue())[-1].startswith("Round 1: Bob deals. To go: Ann 121")

    paused: list[float] = []

    def ctrl_c_at_the_third_pause(seconds: float) -> None:
        paused.append(seconds)
        if len(paused) == 3:
            raise KeyboardInterrupt

    out = Terminal()
    status = watch(game, table_of(game), stream=out, sleep=ctrl_c_at_the_third_pause, keys=keys())
    assert status == Exit.INTERRUPTED
    shown = screen(out.getvalue())  # the third move (before the starter), and the board
    assert shown[-7] == "Bob put AS 8C in the crib."
    assert shown[-6] == "" and shown[-5].startswith("Ann ") and shown[-4].startswith("  0 ")
    assert shown[-1] == "Round 1: Bob deals. To go: Ann 121, Bob 121. Skunk line 91."


def test_the_terminal_is_left_with_the_lines_a_pipe_gets() -> None:
    """Drawn below each move, the board is taken away before the next: what stays is the
    lines told, then the board where it stood at the end, as a pipe has them."""
    for name in ("2-players.toml", "stops-mid-game.toml", "4-players.toml"):
        game = replayed(name)
        drawn, piped = Terminal(), io.StringIO()
        assert watch(game, table_of(game), stream=drawn, sleep=lambda s: None, keys=keys()) == 0
        assert watch(game, table_of(game), stream=piped, sleep=never) == 0  # no pause
        assert screen(drawn.getvalue()) == piped.getvalue().split("\n")[:-1], name


def test_every_card_laid_and_every_show_in_order(cribbage: Run) -> None:
    result = cribbage("replay", "--watch", str(LOGS / "2-players.toml"))
    assert (result.status, result.err) == (0, "")
    log = tomllib.loads((LOGS / "2-players.toml").read_text(encoding="utf-8"))
    names = [seat["name"] for seat in log["seats"]]
    wanted = []
    for record in log["rounds"]:
        for entry in record["plays"]:
            seat, card = entry.split()
            wanted.append(f"{names[int(seat)]}: {card}" + ("" if card == "go" else " ("))
        for entry in record["points"]:
            shown = re.fullmatch(r"(\d) (hand|crib) for (\d+)", entry)
            if shown:
                seat, what, total = shown.groups()
                wanted += [f"{names[int(seat)]}'s {what} ", f"total {total}\n"]
    at = 0
    for words in wanted:
        found = result.out.find(words, at)
        assert found >= 0, f"{words!r} is not after {result.out[at - 200 : at]!r}"
        at = found + len(words)
    # the replay's own words, then the board as it stands at the end, and the summary
    told = cribbage("replay", str(LOGS / "2-players.toml")).out
    assert result.out.startswith(told)
    end = result.out[len(told) :].split("\n")
    assert end[0] == "" and end[1].startswith("Ann ") and end[2].startswith("118 ")
    assert end[5] == "Round 13: Bob deals. To go: Ann 3, Bob 0. Skunk line 91."
    assert end[6] == "Bob wins 121 to 118, no skunk, after 13 deals."


def test_a_stopped_game_plays_back_as_far_as_it_goes(cribbage: Run) -> None:
    log = LOGS / "stops-mid-game.toml"
    result = cribbage("replay", "--watch", str(log))
    assert result.status == 0
    lines = result.out.split("\n")
    assert lines[-3:] == [
        "",
        "The log stops in round 5, during the discard: the game is not over.",
        "",
    ]
    assert "Round 5. Bob deals." in lines and "  Ann: KC 10H 8D 5D 4S 10C" in lines
    assert lines[-8].startswith("Ann ") and lines[-7].startswith(" 42 ")  # the board at 42-35
    assert lines[-6].startswith("Bob ") and lines[-5].startswith(" 35 ")
    game = replayed("stops-mid-game.toml")
    paused: list[float] = []
    assert watch(game, table_of(game), stream=Terminal(), sleep=paused.append, keys=keys()) == 0
    rounds = tomllib.loads(log.read_text(encoding="utf-8"))["rounds"]
    laid = sum(len(record["plays"]) for record in rounds)
    shows = sum(len([p for p in r["points"] if re.search(r" (hand|crib) for ", p)]) for r in rounds)
    assert len(paused) == 4 * (1 + 2 + 1) + laid + shows + 1 - 1  # 4 rounds, and round 5's deal


def test_one_round_and_standard_input(cribbage: Run) -> None:
    text = (LOGS / "2-players.toml").read_text(encoding="utf-8")
    result = cribbage("replay", "-", "--watch", "--round", "2", stdin=text)
    assert result.status == 0
    assert result.out.startswith("\nRound 2. Ann deals.")
    assert "Round 3." not in result.out and "Round 1." not in result.out
    after = tomllib.loads(text)["rounds"][1]["scores"]  # the scores after round 2
    needs = f"To go: Ann {121 - after[0]}, Bob {121 - after[1]}. Skunk line 91."
    assert result.out.endswith(f"\nRound 2: Ann deals. {needs}\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--watch", "--json"], "not with --json"),
        (["--step", "--quiet"], "not with --quiet"),
        (["--step", "--speed", "2"], "give --step or --speed, not both"),
    ],
)
def test_what_cannot_be_watched_is_one_line(cribbage: Run, args: list[str], message: str) -> None:
    result = cribbage("replay", str(LOGS / "2-players.toml"), *args)
    assert (result.status, result.out) == (Exit.USAGE, "")
    assert result.err.count("\n") == 1 and message in result.err


def test_a_bad_log_is_one_line_and_status_1(cribbage: Run) -> None:
    result = cribbage("replay", "-", "--watch", "--step", stdin="not toml [[")
    assert (result.status, result.out) == (Exit.DATA, "")
    assert result.err.count("\n") == 1 and result.err.startswith("cribbage: -: ")


def test_the_speed_is_bounded(cribbage: Run) -> None:
    result = cribbage("replay", str(LOGS / "2-players.toml"), "--speed", "0")
    assert result.status == Exit.USAGE and "--speed" in result.err


@pytest.mark.slow
def test_watching_a_move_at_a_time_in_a_terminal(tmp_path: Path) -> None:
    log = str(LOGS / "2-players.toml")

    def spawn(*args: str) -> pexpect.spawn[str]:
        return pexpect.spawn(
            sys.executable,
            ["-m", "cribcli", "replay", log, "--watch", *args],
            env=environment(str(tmp_path)),
            encoding="utf-8",
            timeout=HANG,
            dimensions=(30, 80),
            cwd=str(ROOT),
            preexec_fn=interrupt_as_usual,  # (Ctrl-C is a signal here: not one ignored)
        )

    def next_move(child: pexpect.spawn[str]) -> str:
        """What is shown up to the words that wait for Enter."""
        child.expect(re.escape(NEXT))
        return ANSI.sub("", child.before or "")

    child = spawn("--step")
    first = next_move(child) + next_move(child)  # the title and the board; then the deal
    assert "Round 1. Bob deals." in first and "Ann put" not in first
    assert "Round 1: Bob deals. To go: Ann 121, Bob 121." in first
    seen = []
    for _ in range(3):
        child.send("\r")
        seen.append(next_move(child))
    assert "Ann put" in seen[0] and "Bob put" not in seen[0]
    assert "Bob put" in seen[1] and "Starter:" not in seen[1]
    assert "Starter: 3" in seen[2] and "Ann: 6" not in seen[2]
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # at the computer's pace, Ctrl-C stops it: status 130, no traceback
    child = spawn()
    child.expect("Round 1. Bob deals.")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == Exit.INTERRUPTED
    assert "Traceback" not in (child.before or "")
