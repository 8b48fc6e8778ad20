"""``cribbage replay``: the narration and JSON of fixed logs (snapshots), and its errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from tests.conftest import Run

LOGS = Path(__file__).parent / "logs"
FIXTURES = sorted(path.name for path in LOGS.glob("*.toml"))


@pytest.mark.parametrize("name", FIXTURES)
def test_narration(cribbage: Run, snapshot: SnapshotAssertion, name: str) -> None:
    result = cribbage("replay", str(LOGS / name))
    assert result.status == 0, result.err
    assert result.err == ""
    assert result.out == snapshot


class JSONLines(SingleFileSnapshotExtension):
    """A snapshot kept as the command wrote it: one JSON event a line, in a file of its
    own (``__snapshots__/test_cli_replay/NAME.jsonl``), so that a change reads as the
    events that changed."""

    file_extension = "jsonl"
    _write_mode = WriteMode.TEXT


@pytest.mark.parametrize("name", FIXTURES)
def test_json_lines(cribbage: Run, snapshot: SnapshotAssertion, name: str) -> None:
    result = cribbage("replay", str(LOGS / name), "--json")
    assert result.status == 0
    assert all(json.loads(line)["event"] for line in result.out.splitlines())
    assert result.out == snapshot(extension_class=JSONLines)


def test_quiet_prints_nothing(cribbage: Run) -> None:
    result = cribbage("replay", "--quiet", str(LOGS / "3-players.toml"))
    assert (result.status, result.out, result.err) == (0, "", "")


def test_standard_input_and_one_round(cribbage: Run) -> None:
    text = (LOGS / "2-players.toml").read_text(encoding="utf-8")
    whole = cribbage("replay", "-", stdin=text).out
    one = cribbage("replay", "-", "--round", "2", stdin=text)
    assert one.status == 0
    assert one.out.startswith("\nRound 2.")
    assert one.out in whole
    assert "Round 3." not in one.out
    too_far = cribbage("replay", "-", "--round", "99", stdin=text)
    assert too_far.status == 2 and "rounds, not 99" in too_far.err


def test_stopped_log_says_where(cribbage: Run) -> None:
    result = cribbage("replay", str(LOGS / "stops-mid-game.toml"))
    assert result.status == 0
    assert result.out.rstrip().splitlines()[-1].startswith("The log stops in round ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not toml [[", "not a game log"),
        ("format = 1\n", "`seed` is missing"),
        ("", "it is empty"),
        ("# nothing but a comment\n", "there is no `format`"),
    ],
)
def test_bad_logs_are_one_line_and_status_1(cribbage: Run, text: str, message: str) -> None:
    result = cribbage("replay", "-", stdin=text)
    assert result.status == 1
    assert result.out == ""
    assert result.err.count("\n") == 1 and message in result.err
    assert result.err.startswith("cribbage: -: ")


def test_missing_file(cribbage: Run, tmp_path: Path) -> None:
    result = cribbage("replay", str(tmp_path / "nope.toml"))
    assert result.status == 1
    assert "cannot read it" in result.err
    assert result.err.count("\n") == 1


def test_fixtures_show_the_rules_they_are_for() -> None:
    """Each fixture holds what its name promises (checked by hand once; kept by this test)."""
    text = {name: (LOGS / name).read_text(encoding="utf-8") for name in FIXTURES}
    assert '"0 hand for 29"' in text["twenty-nine.toml"]
    assert "crib_card" in text["3-players.toml"]
    assert "31 for 2" in text["2-players.toml"] and "his heels for 2" in text["2-players.toml"]
    assert re.search(r'(\n    "\d go",){3}', text["4-players.toml"])  # a go passed round the table
    assert "target = 61" in text["short-game.toml"]
    assert "[result]" not in text["stops-mid-game.toml"]
