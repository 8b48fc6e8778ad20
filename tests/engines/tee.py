"""Runs an engine (the command after this script's name) and writes every line between
it and the referee to the file named by $ENGINE_TRANSCRIPT: ``> `` before the referee's,
``< `` before the engine's (the transcript in docs/engine-protocol.md)."""

import os
import subprocess
import sys
import threading

with open(os.environ["ENGINE_TRANSCRIPT"], "w") as log:
    engine = subprocess.Popen(
        sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert engine.stdin is not None and engine.stdout is not None
    lock = threading.Lock()

    def answers() -> None:
        assert engine.stdout is not None
        for line in engine.stdout:
            with lock:
                log.write("< " + line)
                log.flush()
            sys.stdout.write(line)
            sys.stdout.flush()

    reader = threading.Thread(target=answers)
    reader.start()
    for line in sys.stdin:
        with lock:
            log.write("> " + line)
            log.flush()
        engine.stdin.write(line)
        engine.stdin.flush()
    engine.stdin.close()
    reader.join()
