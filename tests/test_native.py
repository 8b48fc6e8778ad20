"""The compiled core and the interpreted one give the same answers, bit for bit: the same
match logs from the same seed, the same review, the same advice. (CI also runs the whole
quick suite both ways; these compare the two cores' output directly.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "logs"

needs_compiled = pytest.mark.skipif(
    not any((ROOT / "cribcli").rglob("*.so")),
    reason="the core is not compiled here: one core to compare",
)


def run(core: str, *args: str, cwd: Path | None = None) -> str:
    env = {key: value for key, value in os.environ.items() if key != "CRIBBAGE_CORE"}
    if core == "interpreted":
        env["CRIBBAGE_CORE"] = "interpreted"
    done = subprocess.run(
        [sys.executable, "-m", "cribcli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return done.stdout


def test_the_version_says_which_core_runs() -> None:
    said = run("interpreted", "--version")
    assert said.rstrip().endswith("(interpreted core)")
    built = any((ROOT / "cribcli").rglob("*.so"))  # (what `pip install -e .` compiled)
    core = "compiled" if built else "interpreted"
    assert run("installed", "--version").rstrip().endswith(f"({core} core)")


@needs_compiled
@pytest.mark.slow
def test_match_logs_are_the_same_compiled_and_interpreted(tmp_path: Path) -> None:
    reports = {}
    for core in ("installed", "interpreted"):
        folder = tmp_path / core
        reports[core] = run(
            core, "match", "hard", "normal", "--games", "2", "--seed", "43", "--json",
            "--log-dir", str(folder),
        )  # fmt: skip
    assert reports["installed"] == reports["interpreted"]
    compiled = sorted((tmp_path / "installed").iterdir())
    interpreted = sorted((tmp_path / "interpreted").iterdir())
    assert [log.name for log in compiled] == [log.name for log in interpreted]
    assert len(compiled) == 2
    for one, other in zip(compiled, interpreted, strict=True):
        assert one.read_bytes() == other.read_bytes()


@needs_compiled
@pytest.mark.slow
def test_review_and_advice_are_the_same_compiled_and_interpreted() -> None:
    for args in (
        ("review", str(LOGS / "short-game.toml"), "--json"),
        ("discard-advice", "5H", "5S", "JD", "4C", "2S", "KH", "--dealer", "--json"),
        ("peg-advice", "4H", "5S", "6D", "JC", "--pone", "-s", "2C", "--thrown", "9C", "KD"),
        ("score", "5H", "5S", "JD", "4C", "--starter", "5D", "--json"),
    ):
        assert run("installed", *args) == run("interpreted", *args), args
