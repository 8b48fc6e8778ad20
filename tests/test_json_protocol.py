"""The JSON line protocol (``play --json``), as a program sees it: whole games of 2, 3 and
4 players played by a driver that reads nothing but the JSON lines and answers each
question from what the question says (docs/json-protocol.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cribcli.record.reader import loads
from cribcli.record.replay import replay

DECISION = {"waiting_for", "prompt", "seat", "round", "dealer", "scores", "hand", "playable"}
DECISION |= {"count", "pile", "starter"}


def scripted(home: Path, *typed: str) -> list[dict[str, Any]]:
    """The JSON lines of seed 5 against normal, given these lines: each must parse."""
    done = subprocess.run(
        [sys.executable, "-m", "cribcli", "play", "--json", "--seed", "5", "--level", "normal"]
        + ["--data-dir", str(home)],
        input="\n".join(typed) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def drive(home: Path, *options: str, mistake: bool = False) -> list[dict[str, Any]]:
    """Play a whole game through the protocol: throw the first cards held, lay the first
    card that can be laid. With ``mistake``, first answer one question with a card not
    held, and expect to be told and asked again. Returns every line read."""
    read: list[dict[str, Any]] = []
    wrong = mistake
    with subprocess.Popen(
        [sys.executable, "-m", "cribcli", "play", "--json", "--data-dir", str(home), *options],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        for line in child.stdout:
            event = json.loads(line)  # every line is one JSON object
            read.append(event)
            if event["event"] != "prompt":
                continue
            assert set(event) >= DECISION, event
            if wrong:
                held = set(event["hand"])
                stranger = next(c for c in ("AS", "2S", "3S", "4S", "5S", "6S") if c not in held)
                answer, wrong = f"{stranger} {event['hand'][0]}", False  # one card not held
            elif event["waiting_for"] == "discard":
                answer = " ".join(event["hand"][: event["throw"]])
            else:
                assert event["waiting_for"] == "play" and event["playable"], event
                answer = event["playable"][0]
            child.stdin.write(answer + "\n")
            child.stdin.flush()
        child.stdin.close()
        assert child.wait(timeout=60) == 0, child.stderr.read() if child.stderr else ""
    return read


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_read_from_the_json_alone(tmp_path: Path, players: int) -> None:
    read = drive(tmp_path, "--seed", "5", "--level", "normal", "--players", str(players))
    kinds = [event["event"] for event in read]
    assert kinds.count("game_over") == 1 and kinds[-1] == "saved"
    prompts = [event for event in read if event["event"] == "prompt"]
    assert {p["waiting_for"] for p in prompts} == {"discard", "play"}
    # questions come at the start of each round and after the others' gos: each is whole
    assert all(p["hand"] and p["scores"] and p["round"] >= 1 for p in prompts)
    log = loads(Path(read[-1]["path"]).read_text(encoding="utf-8"))
    assert replay(log).finished and log.info.rules.players == players


def test_a_wrong_answer_is_told_and_asked_again(tmp_path: Path) -> None:
    read = drive(tmp_path, "--seed", "5", "--level", "normal", mistake=True)
    errors = [i for i, event in enumerate(read) if event["event"] == "error"]
    assert len(errors) == 1
    error = read[errors[0]]
    assert error["message"].endswith(" is not in your hand")
    assert read[errors[0] + 1]["event"] == "prompt"  # the same question, whole
    assert read[errors[0] + 1]["waiting_for"] == read[errors[0] - 1]["waiting_for"]


def test_hints_and_commands_answer_in_json(tmp_path: Path) -> None:
    lines = scripted(tmp_path, "hint", "hand", "score", "quit")
    kinds = [line["event"] for line in lines]
    assert "hint" in kinds and "message" in kinds
    hint = next(line for line in lines if line["event"] == "hint")
    assert len(hint["discard"]) == 2
    assert kinds.count("prompt") == 4  # asked again, whole, after each command


@pytest.mark.slow
def test_a_muggins_game_counted_from_the_json(tmp_path: Path) -> None:
    """At a count the prompt says what is counted; the driver counts it right."""
    from cribcli.rules.cards import parse_cards
    from cribcli.rules.scoring import score_show

    with subprocess.Popen(
        [sys.executable, "-m", "cribcli", "play", "--json", "--muggins", "--seed", "5"]
        + ["--level", "normal", "--data-dir", str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        counted = 0
        for line in child.stdout:
            event = json.loads(line)
            if event["event"] != "prompt":
                continue
            if event["waiting_for"] == "count":
                what = event["counting"]
                cards = parse_cards(what["cards"])
                show = score_show(
                    cards, parse_cards([event["starter"]])[0], crib=what["what"] == "crib"
                )
                answer, counted = str(show.total), counted + 1
            elif event["waiting_for"] == "discard":
                answer = " ".join(event["hand"][: event["throw"]])
            else:
                answer = event["playable"][0]
            child.stdin.write(answer + "\n")
            child.stdin.flush()
        child.stdin.close()
        assert child.wait(timeout=60) == 0
    assert counted > 3


@pytest.mark.slow
def test_undo_in_json_says_what_was_taken_back(tmp_path: Path) -> None:
    lines = scripted(tmp_path, "3C 7D", "4S", "undo", "quit")
    back = next(line for line in lines if line["event"] == "taken_back")
    assert back["moves"][0] == {"seat": 0, "card": "4S"}
    assert all(move["seat"] == 1 and "card" in move for move in back["moves"][1:])
    after = lines[lines.index(back) + 1]
    assert after["event"] == "prompt" and "4S" in after["hand"]


@pytest.mark.slow
def test_a_daily_game_already_played_answers_in_json(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    from tests.scripted import moves

    play = subprocess.run(
        [sys.executable, "-m", "cribcli", "daily", "--json", "--date", "2026-11-30"]
        + ["--data-dir", str(tmp_path)],
        input="\n".join(moves("daily/2026-11-30", "hard")) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert play.returncode == 0, play.stderr
    assert json.loads(play.stdout.splitlines()[-1])["event"] == "daily"
    again = subprocess.run(
        [sys.executable, "-m", "cribcli", "daily", "--json", "--date", "2026-11-30"]
        + ["--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    result = json.loads(again.stdout)
    assert result["event"] == "daily" and result["share"].startswith("cribbage daily 2026-11-30: ")
