"""An engine that plays legally (its first cards, its first playable card) until its
fifth decision, then breaks the protocol as told: ``illegal``, ``sleep``, ``junk``,
``exit``, ``long``, ``mute`` (never says hello), ``children`` (starts a process that
would outlive it, then sleeps)."""

import json
import subprocess
import sys
import time

mode = sys.argv[1]
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        if mode == "mute":
            time.sleep(60)
        print(json.dumps({"type": "hello", "name": f"Broken {mode}", "protocol": 1}), flush=True)
    elif kind in ("discard", "play"):
        decisions += 1
        if decisions == 5:
            if mode == "illegal":
                held = set(message["hand"])
                card = next(c for c in ("AS", "AH", "AD", "AC", "2S") if c not in held)
                print(json.dumps({"card": card} if kind == "play" else {"cards": [card]}))
            elif mode == "sleep":
                time.sleep(60)
            elif mode == "junk":
                print("\x1b[31mthinking...", flush=True)
            elif mode == "exit":
                sys.exit(3)
            elif mode == "long":
                sys.stdout.write("x" * 200_000)
            elif mode == "children":
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
                time.sleep(60)
            sys.stdout.flush()
            continue
        if kind == "discard":
            answer: object = {"cards": message["hand"][: message["throw"]]}
        else:
            answer = {"card": message["playable"][0]}
        print(json.dumps(answer), flush=True)
    elif kind == "quit":
        break
