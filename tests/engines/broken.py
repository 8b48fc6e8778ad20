"""An engine that plays legally (its first cards, its first playable card) until its
fifth decision, then breaks the protocol as told: ``illegal``, ``sleep``, ``junk``,
``exit``, ``quits`` (after answering), ``long``, ``chatty``, ``mute`` (never says
hello), ``children`` (starts a process that would outlive it, then sleeps); or
``spawns``: plays legally to the end, having started a process that ignores SIGTERM and
would outlive it; or ``escapes``: the same, the process in a session of its own (outside
the engine's process group), with a child of its own; or ``census``: plays legally if it
sees only a few processes (in a sandbox), else answers a card that is none; ``suicide``
and ``crash``: at its fifth decision, kills itself (SIGKILL, SIGSEGV); ``peeks FOLDER``:
plays legally while FOLDER (the match's logs) looks empty to it, else answers a card
that is none; ``abandons``: at each decision starts a process that it leaves at once
(adopted by the referee) and that ends soon after, and answers a card that is none if
the referee holds more than a few such ended processes unreaped."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def legal(message: dict[str, Any], kind: str) -> dict[str, Any]:
    """Its first cards thrown, or its first playable card laid."""
    if kind == "discard":
        return {"cards": message["hand"][: message["throw"]]}
    return {"card": message["playable"][0]}


mode = sys.argv[1]
decisions = 0
STUBBORN = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(300)"
if mode == "spawns":
    subprocess.Popen([sys.executable, "-c", STUBBORN, "broken-child"])
elif mode == "escapes":  # a child in a session of its own, and its child: out of the group
    ESCAPER = "import subprocess, sys; subprocess.Popen(sys.argv[1:]); " + STUBBORN
    subprocess.Popen(
        [sys.executable, "-c", ESCAPER, sys.executable, "-c", STUBBORN, "broken-grandchild"],
        start_new_session=True,
    )
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        if mode == "mute":
            time.sleep(60)
        print(json.dumps({"type": "hello", "name": f"Broken {mode}", "protocol": 1}), flush=True)
    elif kind in ("discard", "play"):
        decisions += 1
        if mode == "abandons":
            subprocess.run(["sh", "-c", "sleep 0.01 &"], check=True)  # sh waited; sleep left
            unreaped = 0
            for entry in filter(str.isdigit, os.listdir("/proc")):
                try:
                    fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                except (OSError, IndexError):
                    continue
                unreaped += fields[0] == "Z" and int(fields[1]) == os.getppid()
            if unreaped > 5:
                print(json.dumps({"card": "no such card"}), flush=True)
                continue
        if mode == "peeks" and any(Path(sys.argv[2]).iterdir()):
            print(json.dumps({"card": "no such card"}), flush=True)  # it saw a log
            continue
        if mode == "census" and decisions == 1:  # what it can see of the machine
            seen = sum(1 for entry in os.listdir("/proc") if entry.isdigit())
            if seen > 8:  # more than its own few: it could signal other programs
                print(json.dumps({"card": "no such card"}), flush=True)
                continue
        if decisions == 5 and mode not in ("spawns", "escapes", "census", "peeks", "abandons"):
            if mode == "illegal":
                held = set(message["hand"])
                card = next(c for c in ("AS", "AH", "AD", "AC", "2S") if c not in held)
                print(json.dumps({"card": card} if kind == "play" else {"cards": [card]}))
            elif mode == "sleep":
                if "BROKEN_ASLEEP" in os.environ:  # for a test that waits for this moment
                    Path(os.environ["BROKEN_ASLEEP"]).touch()
                time.sleep(60)
            elif mode == "junk":
                print("\x1b[31mthinking...", flush=True)
            elif mode == "exit":
                sys.exit(3)
            elif mode == "suicide":  # killed by a signal: its own
                os.kill(os.getpid(), signal.SIGKILL)
            elif mode == "crash":  # a crash of its own
                os.kill(os.getpid(), signal.SIGSEGV)
            elif mode == "long":
                sys.stdout.write("x" * 200_000)
            elif mode == "quits":  # answers, then stops before it is asked again
                print(json.dumps(legal(message, kind)), flush=True)
                sys.exit(4)
            elif mode == "chatty":  # answers, then says more than it was asked
                # In one write, so that both lines are there before the next question
                # however stdout is buffered (PYTHONUNBUFFERED makes a print one write).
                answer = json.dumps(legal(message, kind))
                sys.stdout.write(f"{answer}\n{json.dumps({'thinking': 'aloud'})}\n")
            elif mode == "children":
                subprocess.Popen([sys.executable, "-c", STUBBORN, "broken-child"])
                time.sleep(60)
            sys.stdout.flush()
            continue
        print(json.dumps(legal(message, kind)), flush=True)
    elif kind == "quit":
        break
