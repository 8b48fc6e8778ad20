"""``cribbage score`` as a user runs it: output, JSON, standard input, errors and exit status."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from syrupy.assertion import SnapshotAssertion

from cribcli.ui.render import decide_color, decide_unicode
from tests.conftest import Run


def test_issue_example(cribbage: Run, snapshot: SnapshotAssertion) -> None:
    result = cribbage("score", "5H", "5S", "JD", "4C", "--starter", "5D")
    assert result.status == 0
    assert result.err == ""
    assert result.out.rstrip().endswith("total 15")
    assert result.out == snapshot


@pytest.mark.parametrize(
    "args",
    [
        ("5H", "5S", "5C", "JD", "-s", "5D"),
        ("7h", "8s", "8c", "9d", "9h"),
        ("3H", "3S", "4C", "4D", "-s", "5H"),
        ("2H", "4H", "6H", "8H", "-s", "KC", "--crib"),
        ("2H", "4H", "6H", "8H", "-s", "10H", "--crib"),
        ("2H", "4H", "6H", "8H", "-s", "KC"),
    ],
    ids=["29", "double-run", "double-double", "crib-no-flush", "crib-flush", "hand-flush"],
)
def test_breakdowns(cribbage: Run, snapshot: SnapshotAssertion, args: tuple[str, ...]) -> None:
    result = cribbage("score", *args)
    assert result.status == 0
    assert result.out == snapshot


def test_fifth_card_is_the_starter(cribbage: Run) -> None:
    assert (
        cribbage("score", "5H", "5S", "JD", "4C", "5D").out
        == cribbage("score", "5H", "5S", "JD", "4C", "-s", "5D").out
    )


def test_json(cribbage: Run) -> None:
    result = cribbage("score", "5H", "5S", "JD", "4C", "-s", "5D", "--json")
    data = json.loads(result.out)
    assert data["cards"] == ["5H", "5S", "JD", "4C"]
    assert data["starter"] == "5D"
    assert data["crib"] is False
    assert data["total"] == 15
    assert data["subtotals"] == {"fifteens": 8, "pairs": 6, "runs": 0, "flush": 0, "nobs": 1}
    assert data["items"][0] == {
        "kind": "fifteen",
        "cards": ["5D", "JD"],
        "points": 2,
        "text": "fifteen 5D+JD for 2",
    }
    assert sum(item["points"] for item in data["items"]) == 15


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("1H", "5S", "JD", "4C", "-s", "5D"), "`1H` is not a card: use a rank A 2-10 J Q K"),
        (("5H", "5S", "JD", "4C", "-s", "5H"), "5H appears twice"),
        (("5H", "5S", "5H", "4C", "-s", "6D"), "5H appears twice"),
        (("5H", "5S", "JD", "-s", "5D"), "a hand has 4 cards, not 3"),
        (("5H", "5S", "JD", "4C", "2C", "-s", "5D"), "a hand has 4 cards, not 5"),
        (("5H", "5S", "JD", "4C"), "no starter: add it with --starter"),
        (("5H", "5S", "JD", "4C", "-s", "ZZ"), "`ZZ` is not a card"),
        ((), "no cards"),
        (("5H", "--bogus"), "No such option"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    cribbage: Run, args: tuple[str, ...], message: str
) -> None:
    result = cribbage("score", *args)
    assert result.status == 2
    assert result.out == ""
    assert result.err.count("\n") == 1, result.err
    assert result.err.startswith("cribbage: ")
    assert message in result.err
    assert "Traceback" not in result.err


def test_standard_input(cribbage: Run, snapshot: SnapshotAssertion) -> None:
    lines = "5H 5S 5C JD 5D\n\n# a comment\n7H 8S 8C 9D 9H\n2H 4H 6H 8H KC\n2H 4S 6C 8D KH\n"
    result = cribbage("score", "-", stdin=lines)
    assert result.status == 0
    assert result.out.splitlines() == [
        "5H 5S 5C JD 5D  29  (fifteens 16, pairs 12, nobs 1)",
        "7H 8S 8C 9D 9H  20  (fifteens 4, pairs 4, runs 12)",
        "2H 4H 6H 8H KC  4  (flush 4)",
        "2H 4S 6C 8D KH  0",
    ]
    crib = cribbage("score", "-", "--crib", stdin="2H 4H 6H 8H KC\n")
    assert crib.out == "2H 4H 6H 8H KC  0\n"


def test_standard_input_bad_lines_are_reported_and_the_rest_scored(cribbage: Run) -> None:
    lines = "5H 5S 5C JD 5D\n1H 2H 3H 4H 5H\n5H 5S 5C JD\n7H 8S 8C 9D 9H\n5H 5S 5C 5H 6D\n"
    result = cribbage("score", "-", stdin=lines)
    assert result.status == 1
    assert [line.split()[-1] for line in result.out.splitlines()] == ["1)", "12)"]
    assert result.err.splitlines() == [
        "cribbage: line 2: `1H` is not a card: use a rank A 2-10 J Q K and a suit C D H S, "
        "e.g. 5H or 10D",
        "cribbage: line 3: 4 cards: a line is the four cards of the hand, then the starter",
        "cribbage: line 5: 5H appears twice: a deck has one of each card",
    ]


def test_standard_input_json_lines_keep_input_order(cribbage: Run) -> None:
    result = cribbage("score", "-", "--json", stdin="5H 5S 5C JD 5D\nxx\n7H 8S 8C 9D 9H\n")
    records = [json.loads(line) for line in result.out.splitlines()]
    assert [(r["line"], r.get("total")) for r in records] == [(1, 29), (2, None), (3, 20)]
    assert "is not a card" in records[1]["error"]
    assert result.status == 1


def test_help_has_examples(cribbage: Run, snapshot: SnapshotAssertion) -> None:
    result = cribbage("score", "--help")
    assert result.status == 0
    assert "Examples:" in result.out
    assert result.out == snapshot


class FakeTerminal(io.StringIO):
    def __init__(self, encoding: str) -> None:
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def isatty(self) -> bool:
        return True


def test_unicode_suits_only_on_a_terminal_that_can_show_them() -> None:
    utf8 = {"LANG": "en_GB.UTF-8"}
    assert decide_unicode(FakeTerminal("utf-8"), env=utf8)
    assert decide_unicode(FakeTerminal("utf-8"), env={"LC_ALL": "C.utf8", "LANG": "C"})
    assert not decide_unicode(FakeTerminal("ascii"), env=utf8)
    assert not decide_unicode(FakeTerminal("utf-8"), ascii_only=True, env=utf8)
    assert not decide_unicode(io.StringIO(), env=utf8)
    assert not decide_unicode(FakeTerminal("utf-8"), env={"LANG": "C"})
    assert not decide_unicode(FakeTerminal("utf-8"), env={})
    assert not decide_unicode(FakeTerminal("utf-8"), env={"LANG": "en_GB.UTF-8", "TERM": "dumb"})


def test_colour_decision() -> None:
    tty = FakeTerminal("utf-8")
    assert decide_color(tty, env={})
    assert not decide_color(tty, env={"NO_COLOR": "1"})
    assert not decide_color(tty, env={"TERM": "dumb"})
    assert not decide_color(io.StringIO(), env={})
    assert decide_color(io.StringIO(), env={"FORCE_COLOR": "1"})
    assert not decide_color(tty, False, env={})


def test_score_loads_only_what_counting_needs() -> None:
    """``cribbage score`` starts fast: no prompt (prompt_toolkit), no computers, no game
    log on the way."""
    code = (
        "import sys\n"
        "from cribcli.cli import main\n"
        "try:\n"
        "    main(['score', '5H', '5S', 'JD', '4C', '-s', '5D'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "for name in ('prompt_toolkit', 'cribcli.players', 'cribcli.record'):\n"
        "    assert name not in sys.modules, f'{name} imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "total 15" in done.stdout


def test_python_dash_m_and_broken_pipe() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "cribcli", "score", "5H", "5S", "JD", "4C", "-s", "5D"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0 and "total 15" in done.stdout
    many = "5H 5S 5C JD 5D\n" * 20000
    piped = subprocess.run(
        f"{sys.executable} -m cribcli score - | head -n 1",
        shell=True,
        input=many,
        capture_output=True,
        text=True,
    )
    assert piped.stdout == "5H 5S 5C JD 5D  29  (fifteens 16, pairs 12, nobs 1)\n"
    assert piped.stderr == ""
