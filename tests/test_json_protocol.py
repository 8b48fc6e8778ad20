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

from cribcli.record import loads, replay

DECISION = {"waiting_for", "prompt", "seat", "round", "dealer", "scores", "hand", "playable"}
DECISION |= {"count", "pile", "starter"}


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
                answer, wrong = stranger, False
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
    assert "not in your hand" in error["message"] or "not" in error["message"]
    assert read[errors[0] + 1]["event"] == "prompt"  # the same question, whole
    assert read[errors[0] + 1]["waiting_for"] == read[errors[0] - 1]["waiting_for"]


def test_hints_and_commands_answer_in_json(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cribcli", "play", "--json", "--seed", "5", "--level", "normal"]
        + ["--data-dir", str(tmp_path)],
        input="hint\nhand\nscore\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    kinds = [line["event"] for line in lines]
    assert "hint" in kinds and "message" in kinds
    hint = next(line for line in lines if line["event"] == "hint")
    assert len(hint["discard"]) == 2
    assert kinds.count("prompt") == 4  # asked again, whole, after each command
