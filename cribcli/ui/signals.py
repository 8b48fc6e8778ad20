"""Stopping on a signal as on Ctrl-C: SIGTERM and SIGHUP unwind the program, so that the
terminal is put back as it was, the game's lock is let go and worker processes are ended."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator


class Stopped(BaseException):
    """A signal to stop came (SIGTERM or SIGHUP). The exit status is 128 + ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[None]:
    """Within: SIGTERM and SIGHUP raise :class:`Stopped` (in the main thread only, where
    Python runs signal handlers)."""

    owner = os.getpid()

    def stop(signum: int, frame: object) -> None:
        if os.getpid() != owner:
            # A process forked from this one (a worker being started) before it set its
            # own handlers: it ends as the signal says, rather than raise where nothing
            # can catch it (in a fork's own hooks) and live on.
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise Stopped(signum)

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {number: signal.signal(number, stop) for number in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for number, handler in old.items():
            signal.signal(number, handler)
