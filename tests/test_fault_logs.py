"""Hostile logs: anything handed to ``replay``, ``stats`` or read as a save fails fast with
one line (exit status 1), or is read; it never hangs, eats memory, raises a traceback, or
reaches the terminal raw."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import pytest

from cribcli.record.log import LOG_LIMIT
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.rules.errors import CribbageError
from tests.conftest import Run, time_limit

LOGS = Path(__file__).parent / "logs"
TWO = (LOGS / "2-players.toml").read_text(encoding="utf-8")
HANG = 120.0
"""Seconds of waiting that can only be a hang (a ceiling, never a measure)."""
TIMES = 100
"""The most CPU any one hostile log may take to be refused, in whole readings of a real
game's log measured on the same machine (a real game reads and replays in ~5 ms): a
reader that took quadratic time, or worse, on a hostile shape takes thousands."""


@cache
def a_real_game() -> float:
    """The CPU seconds of reading and replaying a real game's log, on this machine now
    (the least of five: the machine may be busy)."""
    spent = []
    for _ in range(5):
        start = time.process_time()
        replay(loads(TWO))
        spent.append(time.process_time() - start)
    return min(spent)


def survives(text: str) -> float:
    """Read and replay ``text`` as a log: it must be read, or refused with the core's
    error. Returns the CPU it took, in readings of a real game's log."""
    start = time.process_time()
    with time_limit(HANG):
        try:
            replay(loads(text))
        except CribbageError as error:
            assert "\n" not in str(error)
    return (time.process_time() - start) / a_real_game()


def swap(old: str, new: str, count: int = 1) -> str:
    """The fixture log with ``old`` written as ``new`` (which must be there to change)."""
    assert old in TWO, old
    return TWO.replace(old, new, count)


# --- shapes that cost a TOML parser dearly --------------------------------------------

SHAPES = {
    "arrays 1,000 deep": "x = " + "[" * 1000 + "]" * 1000 + "\n",
    "inline tables 500 deep": "x = " + "{a = " * 500 + "1" + "}" * 500 + "\n",
    "arrays 1,000 deep in a log": swap("[[rounds]]", "junk = " + "[" * 1000, 1),
    "a key of 20,000 dotted parts": "a" + ".a" * 20000 + " = 1\n",
    "20,000 dotted keys": "".join(f"k{i}.a.b = 1\n" for i in range(20000)),
    "table headers 2,000 parts": "[" + ".".join(["t"] * 2000) + "]\n",
    "a seed of 5,000 digits": swap("seed = 9\n", "seed = " + "9" * 5000 + "\n"),
    "a seed of 4,000 digits": swap("seed = 9\n", "seed = " + "9" * 4000 + "\n"),
    "a seed of 5,000 characters": swap("seed = 9\n", 'seed = "' + "s" * 5000 + '"\n'),
    "a negative seed": swap("seed = 9\n", "seed = -9\n"),
    "a name of 100,000 characters": swap('"Ann"', '"' + "A" * 100_000 + '"'),
    "a label of 100,000 characters": swap('"fixture"', '"' + "l" * 100_000 + '"'),
    "one byte over the limit": TWO + "#" * (LOG_LIMIT - len(TWO.encode()) + 1),
    "5,000 rounds": TWO + "".join(f"[[rounds]]\nround = {n}\ndealer = 0\n" for n in range(5000)),
    "a string of 900 KB": swap('"fixture"', '"' + "x" * 900_000 + '"'),
    "NUL bytes": swap("\n", "\n\x00", 5),
    "a byte-order mark": "\ufeff" + TWO,
    "a format of '1'": swap("format = 1", 'format = "1"'),
    "a format of 4": swap("format = 1", "format = 4"),
    "no rounds table": TWO.split("[[rounds]]")[0],
    "seats not tables": swap('{ name = "Ann"', '"Ann", { name = "Ann"'),
    "a player who is a robot": swap('player = "computer"', 'player = "robot"', 1),
    "a computer of no level": swap(', level = "easy" }', " }", 1),
    "a computer at level wizard": swap('level = "easy"', 'level = "wizard"', 1),
    "skunks that are not the rules'": swap(
        'skunks = [\n    "",\n    "",\n]', 'skunks = [\n    "skunk",\n    "",\n]'
    ),
    "a round numbered 10**30": swap("round = 1\n", f"round = {10**30}\n", 1),
    "a dealer of 10**30": swap("dealer = 1\n", f"dealer = {10**30}\n", 1),
    "a play by seat 10**30": swap('"1 ', f'"{10**30} ', 1),
    "a claim of 10**30": swap("[[rounds]]", '[[rounds]]\nclaims = ["0 hand 1"]', 1),
    "an unclosed string of 200,000 escapes": 'x = "' + '\\"' * 200_000 + "\n",
    "an unclosed literal string": "x = '" + "a" * 900_000 + "\n",
    "an unclosed multi-line string": 'x = """' + 'a"' * 400_000,
    "a format of 4,000 hex digits": swap("format = 1", "format = 0x" + "f" * 4000),
    "a round of 4,000 octal digits": swap("round = 1\n", "round = 0o" + "7" * 4000 + "\n"),
    "a winner of 4,000 binary digits": swap("winner = 1", "winner = 0b" + "1" * 4000),
    "seats that are strings": swap(
        '{ name = "Ann", player = "computer", level = "easy" },\n'
        '    { name = "Bob", player = "computer", level = "easy" },',
        '"x", "y",',
    ),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_hostile_shapes_are_refused_fast(shape: str) -> None:
    text = SHAPES[shape]
    assert survives(text) < TIMES
    with pytest.raises(CribbageError):
        replay(loads(text))


EVERY_READER = ("arrays 1,000 deep", "a seed of 5,000 digits", "NUL bytes", "no rounds table")
"""The shapes tried through every reader in the quick tests (all of them, in the slow)."""


@pytest.mark.parametrize(
    "shape",
    [s if s in EVERY_READER else pytest.param(s, marks=pytest.mark.slow) for s in SHAPES],
)
def test_hostile_shapes_through_every_reader(cribbage: Run, tmp_path: Path, shape: str) -> None:
    """``replay``, ``stats``, ``daily --share`` and ``play`` (as the save) each refuse it
    in one line, fast."""
    games = tmp_path / "games"
    games.mkdir()
    for path in (
        tmp_path / "hostile.toml",
        games / "daily-2026-12-01.toml",
        tmp_path / "save.toml",
    ):
        path.write_text(SHAPES[shape], encoding="utf-8")
    home = ("--data-dir", str(tmp_path))
    with time_limit(HANG):
        replayed = cribbage("replay", str(tmp_path / "hostile.toml"))
        stats = cribbage("stats", *home)
        daily = cribbage("daily", "--share", "--date", "2026-12-01", *home)
        played = cribbage("play", "--seed", "7", *home, stdin="quit\n")
    assert replayed.status == 1 and replayed.err.count("\n") == 1
    assert stats.status == 0 and "skipping" in stats.err and stats.err.count("\n") == 1
    assert "No finished games" in stats.out and "Daily streak: 0" in stats.out
    assert daily.status == 1 and "skipping" in daily.err and "not finished yet" in daily.err
    assert played.status == 0 and "the saved game could not be read" in played.err
    for result in (replayed, stats, daily, played):
        assert "Traceback" not in result.err


def test_the_skunks_of_a_result_are_checked() -> None:
    with pytest.raises(CribbageError, match="the skunks"):
        replay(loads(SHAPES["skunks that are not the rules'"]))


# --- damage at every byte --------------------------------------------------------------


def test_a_log_cut_off_every_few_bytes() -> None:
    text = (LOGS / "short-game.toml").read_text(encoding="utf-8")
    slowest = max(survives(text[:end]) for end in range(0, len(text) + 1, 13))
    assert slowest < TIMES


@pytest.mark.slow
def test_a_log_cut_off_at_every_byte() -> None:
    text = (LOGS / "short-game.toml").read_text(encoding="utf-8")
    slowest = max(survives(text[:end]) for end in range(len(text) + 1))
    assert slowest < TIMES


@pytest.mark.slow
@pytest.mark.parametrize("name", ["2-players.toml", "3-players.toml", "4-players.toml"])
def test_every_log_cut_off_at_every_byte(name: str) -> None:
    text = (LOGS / name).read_text(encoding="utf-8")
    for end in range(len(text) + 1):
        survives(text[:end])


@pytest.mark.parametrize(
    "flips", [60, pytest.param(500, marks=pytest.mark.slow)], ids=["60", "500"]
)
def test_random_bit_flips(flips: int) -> None:
    data = TWO.encode()
    draw = random.Random(12)
    read = refused = 0
    for _ in range(flips):
        flipped = bytearray(data)
        for _ in range(draw.randint(1, 4)):
            at = draw.randrange(len(flipped))
            flipped[at] ^= 1 << draw.randrange(8)
        try:
            text = flipped.decode("utf-8")
        except UnicodeDecodeError:
            refused += 1  # the store refuses it before the reader sees it
            continue
        survives(text)
        read += 1
    assert read > flips * 0.6  # most flips leave UTF-8: the reader, not the decoder, was tried


# --- files that are not files -----------------------------------------------------------


@pytest.mark.parametrize(
    "kind", ["FIFO", "/dev/zero", "/dev/urandom", "/dev/null", "folder", "link to /dev/zero"]
)
def test_replay_reads_only_regular_files(cribbage: Run, tmp_path: Path, kind: str) -> None:
    path = tmp_path / "log.toml"
    if kind == "FIFO":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind.startswith("link to "):
        path.symlink_to(kind.removeprefix("link to "))
    else:
        path = Path(kind)
    with time_limit(HANG):
        result = cribbage("replay", str(path))
    assert result.status == 1
    assert result.err.count("\n") == 1 and "Traceback" not in result.err


def test_replay_from_a_bottomless_standard_input() -> None:
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(
            [sys.executable, "-m", "cribcli", "replay", "-"],
            stdin=zeros,
            capture_output=True,
            timeout=30,
        )
    assert done.returncode == 1
    assert done.stderr == b"cribbage: standard input: more than 1 MiB, so not a game's file\n"


def test_an_unfinished_daily_is_not_shared(cribbage: Run, tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    unfinished = (LOGS / "stops-mid-game.toml").read_text(encoding="utf-8")
    (games / "daily-2026-12-01.toml").write_text(unfinished, encoding="utf-8")
    result = cribbage("daily", "--share", "--date", "2026-12-01", "--data-dir", str(tmp_path))
    assert result.status == 1 and "not a finished game" in result.err
    assert "the daily game for 2026-12-01 is not finished yet" in result.err


def test_a_log_at_the_limit_is_read(cribbage: Run, tmp_path: Path) -> None:
    log = tmp_path / "padded.toml"
    log.write_text(TWO + "#" * (LOG_LIMIT - len(TWO.encode()) - 1) + "\n", encoding="utf-8")
    assert log.stat().st_size == LOG_LIMIT
    assert cribbage("replay", "--quiet", str(log)).status == 0


# --- text read from a file never reaches the terminal raw -----------------------------

HOSTILE_NAMES = (
    swap('"Ann"', '"Ann\\u001b]0;pwned\\u0007"')
    .replace('"Bob"', '"Bob\\nForged line: Ann wins\\u001b[2J"')
    .replace('label = "fixture"', 'label = "\\u001b[31mred\\u202etxet"')
)


def test_replay_escapes_what_the_log_says(cribbage: Run, tmp_path: Path) -> None:
    log = tmp_path / "hostile.toml"
    log.write_text(HOSTILE_NAMES, encoding="utf-8")
    result = cribbage("replay", str(log))
    assert result.status == 0, result.err
    assert "\x1b" not in result.out and "\x07" not in result.out and "\u202e" not in result.out
    assert "Forged line" in result.out  # shown, as text: on the line of the name it is in
    assert not any(line.startswith("Forged line") for line in result.out.splitlines())
    assert "Ann\\x1b]0;pwned\\x07" in result.out
    as_json = cribbage("replay", "--json", str(log))
    assert "\x1b" not in as_json.out
    for line in as_json.out.splitlines():
        json.loads(line)


def test_errors_escape_what_the_log_says(cribbage: Run, tmp_path: Path) -> None:
    log = tmp_path / "hostile.toml"
    log.write_text(swap('"0 ', '"0\x1b[2J ', 1), encoding="utf-8")
    result = cribbage("replay", str(log))
    assert result.status == 1 and "\x1b" not in result.err and result.err.count("\n") == 1


def test_a_resumed_game_escapes_its_names(cribbage: Run, tmp_path: Path) -> None:
    cribbage("play", "--seed", "7", "--data-dir", str(tmp_path), stdin="")
    save = tmp_path / "save.toml"
    text = save.read_text(encoding="utf-8").replace(
        'name = "Computer"', 'name = "Comp\\u001b]52;c;ZXZpbA==\\u0007\\nuter"'
    )
    save.write_text(text, encoding="utf-8")
    result = cribbage("play", "--data-dir", str(tmp_path), stdin="quit\n")
    assert "Carrying on your game" in result.out, result.err
    assert "\x1b" not in result.out and "\x07" not in result.out
    assert not any(line.startswith("uter") for line in result.out.splitlines())


def test_stats_escapes_file_names(cribbage: Run, tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "\x1b]0;pwned\x07.toml").write_text(
        (LOGS / "twenty-nine.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (games / "broken\x1b[2J.toml").write_text("not a log", encoding="utf-8")
    result = cribbage("stats", "--data-dir", str(tmp_path))
    assert result.status == 0
    assert "\x1b" not in result.out + result.err and "\x07" not in result.out + result.err
