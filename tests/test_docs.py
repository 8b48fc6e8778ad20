"""The manual and the completion scripts stay in step with the commands."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from cribcli.cli import cli

ROOT = Path(__file__).resolve().parent.parent
MAN = ROOT / "man" / "cribbage.1"


def man_text() -> str:
    # roff writes a hyphen in an option as "\-"
    return MAN.read_text(encoding="utf-8").replace("\\-", "-")


def test_every_command_and_option_is_in_the_manual() -> None:
    text = man_text()
    assert isinstance(cli, click.Group)
    ctx = click.Context(cli)
    names = cli.list_commands(ctx)  # (the group loads each command as it is asked for)
    assert {"play", "score", "replay", "verify", "serve"} <= set(names)
    for name in names:
        command = cli.get_command(ctx, name)
        assert command is not None, name
        assert re.search(rf"^\.SS {name}$", text, re.M), f"no section for {name}"
        for param in command.params:
            if isinstance(param, click.Option):
                for opt in param.opts:
                    assert opt in text, f"{name} {opt} is not in the manual"


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_manual_renders_without_warnings() -> None:
    done = subprocess.run(
        ["groff", "-man", "-ww", "-z", str(MAN)], capture_output=True, text=True, check=True
    )
    assert done.stderr == ""


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_are_current(shell: str) -> None:
    env = {**os.environ, "_CRIBBAGE_COMPLETE": f"{shell}_source"}
    done = subprocess.run(
        [sys.executable, "-c", "from cribcli.cli import main; main()"],
        env=env,
        capture_output=True,
        text=True,
    )
    script = (ROOT / "completions" / f"cribbage.{shell}").read_text(encoding="utf-8")
    assert done.stdout == script, f"regenerate completions/cribbage.{shell}"


def completions(words: list[str], incomplete: str) -> list[tuple[str, str]]:
    from click.shell_completion import ShellComplete

    complete = ShellComplete(cli, {}, "cribbage", "_CRIBBAGE_COMPLETE")
    return [(item.type, item.value) for item in complete.get_completions(words, incomplete)]


def test_cards_complete_to_cards_never_one_already_typed() -> None:
    assert completions(["score"], "5") == [("plain", c) for c in ("5C", "5D", "5H", "5S")]
    assert completions(["score", "5H", "5c"], "5") == [("plain", "5D"), ("plain", "5S")]
    assert completions(["score"], "10") == [("plain", c) for c in ("10C", "10D", "10H", "10S")]
    assert ("plain", "KS") in completions(["discard-advice", "5H"], "k")


def test_levels_options_and_log_files_complete() -> None:
    assert completions(["match"], "h") == [("plain", "hard")]
    assert ("plain", "--level") in completions(["play"], "--le")
    assert completions(["replay"], "tests/lo") == [("file", "tests/lo")]


def test_version_has_one_source_and_the_changelog_follows_it() -> None:
    from cribcli import __version__

    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog
    if not __version__.endswith(".dev0"):
        assert f"## [{__version__}]" in changelog
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and 'path = "cribcli/__init__.py"' in pyproject


def test_every_command_help_ends_with_examples() -> None:
    from click.testing import CliRunner

    assert isinstance(cli, click.Group)
    top = CliRunner().invoke(cli, ["--help"]).output
    for name in cli.commands:
        assert f"  {name} " in top
        text = CliRunner().invoke(cli, [name, "--help"]).output
        assert "Examples:" in text.split("Options:")[-1], name


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_cards_for_real(tmp_path: Path) -> None:
    """Source the committed bash script and ask it, as bash does on Tab."""
    shim = tmp_path / "cribbage"
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m cribcli "$@"\n')
    shim.chmod(0o755)
    script = (
        f"source {ROOT / 'completions' / 'cribbage.bash'}\n"
        "COMP_WORDS=(cribbage score 5H 5); COMP_CWORD=3\n"
        "_cribbage_completion cribbage\n"
        'echo "${COMPREPLY[*]}"\n'
    )
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env)
    assert done.stdout.split() == ["5C", "5D", "5S"], done.stderr


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_completes_cards_for_real(tmp_path: Path) -> None:
    shim = tmp_path / "cribbage"
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m cribcli "$@"\n')
    shim.chmod(0o755)
    script = (
        "autoload -U compinit; compinit -u\n"
        f"source {ROOT / 'completions' / 'cribbage.zsh'}\n"
        "words=(cribbage score 5H 5); CURRENT=4\n"
        'compadd() { print -l -- "${(@P)${@[-1]}}"; }\n'  # what zsh would offer
        "_cribbage_completion\n"
    )
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}", "HOME": str(tmp_path)}
    done = subprocess.run(["zsh", "-c", script], capture_output=True, text=True, env=env)
    assert done.stdout.split() == ["5C", "5D", "5S"], done.stderr


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_cards_for_real(tmp_path: Path) -> None:
    shim = tmp_path / "cribbage"
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m cribcli "$@"\n')
    shim.chmod(0o755)
    script = f"source {ROOT / 'completions' / 'cribbage.fish'}; complete -C 'cribbage score 5H 5'"
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}", "HOME": str(tmp_path)}
    done = subprocess.run(["fish", "-c", script], capture_output=True, text=True, env=env)
    assert done.stdout.split() == ["5C", "5D", "5S"], done.stderr


def test_the_log_format_example_is_a_real_game() -> None:
    """docs/game-log.md shows the first round and the result of a game: the same text
    the writer gives for that game, rounds between left out."""
    from cribcli.players import Level, computer
    from cribcli.record.log import GameInfo, Seat, dumps
    from cribcli.record.session import run_game
    from cribcli.rules.engine import Rules

    doc = (ROOT / "docs" / "game-log.md").read_text(encoding="utf-8")
    shown = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    seats = (Seat("Ann", "computer", Level.EASY), Seat("Bob", "computer", Level.EASY))
    info = GameInfo(Rules(), seats, 13, label="fixture")
    _, events = run_game(info, [computer("easy", 13, 0), computer("easy", 13, 1)])
    text = dumps(info, events)
    first, rest = shown.split("# ... the other rounds ...\n\n")
    assert text.startswith(first) and text.endswith(rest)
    assert first.count("[[rounds]]") == 1 and rest.startswith("[result]")


def test_the_json_protocol_example_is_what_the_program_says(tmp_path: Path) -> None:
    doc = (ROOT / "docs" / "json-protocol.md").read_text(encoding="utf-8")
    session = doc.split("## An example session", 1)[1].split("```\n", 2)[1]
    typed = [line[2:] for line in session.splitlines() if line.startswith("> ")]
    said = [line for line in session.splitlines() if line.startswith("{")]
    done = subprocess.run(
        [sys.executable, "-m", "cribcli", "play", "--json", "--seed", "5", "--level", "normal"]
        + ["--data-dir", str(tmp_path)],
        input="\n".join(typed) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.stdout.splitlines() == said


def test_the_engine_limits_the_documents_give_are_the_code_s() -> None:
    """The protocol's limits have one owner (cribcli.protocol.referee, cribcli.record.log); the
    documents that state them must say what it holds."""
    from cribcli.protocol import referee as engines
    from cribcli.record.log import REASON_LIMIT

    protocol = (ROOT / "docs" / "engine-protocol.md").read_text()
    manual = (ROOT / "man" / "cribbage.1").read_text()
    start, move = f"{engines.START_TIME:g} seconds", f"{engines.MOVE_TIME:g} seconds"
    assert f"has {start} to start" in protocol and f"`--move-time`, {move}" in protocol
    assert f"within {start}" in manual and f"({engines.MOVE_TIME:g} by default" in manual
    assert f"at most {engines.LINE_LIMIT // 1024} KiB" in protocol
    assert f"at most {REASON_LIMIT} characters" in (ROOT / "docs" / "game-log.md").read_text()


def test_every_prompt_word_is_named_where_people_look() -> None:
    """The prompt's words come from one table (help, dispatch, completion, between
    deals); `play --help`, the manual, the README and the JSON protocol name them all, and
    the served lobby's help is made from its own table."""
    from click.testing import CliRunner

    from cribcli.ui.seat import COMMANDS
    from cribcli.ui.serve.lobby_words import LOBBY, lobby_help

    play_help = CliRunner().invoke(cli, ["play", "--help"]).output
    named = play_help.split("or a\n  command:")[1]  # the epilog's list
    manual = (ROOT / "man" / "cribbage.1").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    protocol = (ROOT / "docs" / "json-protocol.md").read_text(encoding="utf-8")
    for word in COMMANDS:
        assert re.search(rf"\b{word}\b", named), word
        assert f".B {word}\n" in manual, word
        assert f"`{word}`" in readme, word
        assert f"`{word}`" in protocol or word == "quit", word
    helped = "\n".join(lobby_help())
    for command in LOBBY:
        assert f"  {command.name}" in helped


def test_the_design_page_names_the_modules_that_exist() -> None:
    """docs/design.md's layers name each folder of the package and every module in it
    (the commands' own modules aside: they are the commands), and each module they name
    is there."""
    page = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    table = page.split("## Layers")[1].split("\n## ")[0]
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| ")][1:]
    package = ROOT / "cribcli"
    # the package's own modules (not the command line's two, which the commands' row names)
    (own,) = [row for row in rows if "(the package)" in row[2]]
    rows.remove(own)
    assert set(re.findall(r"`([a-z_]+)`", own[3])) == {"native"}
    assert (package / "native.py").exists()
    folders = {
        str(path.parent.relative_to(package))
        for path in package.rglob("__init__.py")
        if path.parent != package
    }
    named_folders = {re.findall(r"`([a-z_/]+)/`", row[2])[0] for row in rows}
    assert folders == named_folders, folders ^ named_folders
    for row in rows:
        folder = re.findall(r"`([a-z_/]+)/`", row[2])[0]
        named = set(re.findall(r"`([a-z_]+)`", row[3]))
        there = {p.stem for p in (package / folder).glob("*.py")} - {"__init__"}
        if folder == "commands":  # (the commands' modules are the commands themselves)
            assert named == {"cli"} and (package / "cli.py").exists()
            continue
        assert named == there, (folder, named ^ there)
