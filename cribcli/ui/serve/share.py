"""Each connection's share of the server's CPU: the work its keys and commands cause, on
the event loop and in the threads its searches run in, is measured (CPU time, not the
clock's) and counted against a token bucket; a connection that uses more than its share
is closed, saying why.

A connection's work is told apart by a context variable, :data:`_SHARE`, set in the
connection's own task: every callback the event loop runs carries the context it was
scheduled from (its task's steps, its editor's reader, the redraws and the replies it
asks for), so :func:`metered` times each callback and charges the share it finds there.
Work a connection causes on others' screens (a move redrawn at their seats) is its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

from cribcli.ui.serve.guard import Bucket

CPU_A_SECOND = 0.25
"""CPU seconds a second a connection may use, on average: a quarter of a core."""
CPU_AT_ONCE = 20.0
"""CPU seconds it may use at once: a few reviews of long games back to back."""

T = TypeVar("T")


class Share:
    """One connection's CPU: what it has used, and whether it is over its share (then
    ``over`` is called, once, from the event loop)."""

    def __init__(
        self,
        over: Callable[[], None],
        rate: float = CPU_A_SECOND,
        at_once: float = CPU_AT_ONCE,
    ) -> None:
        self.bucket = Bucket(rate, at_once)
        self.over = over
        self.used = 0.0
        """CPU seconds used, all told."""
        self.spent = False
        """Whether it went over its share (``over`` was called)."""

    def charge(self, seconds: float, now: float) -> None:
        """``seconds`` of CPU used, at ``now`` (monotonic)."""
        self.used += seconds
        if self.bucket.take(seconds, now):
            self.spent = False  # (within its share again: told again if it goes over)
        elif not self.spent:
            self.spent = True
            asyncio.get_running_loop().call_soon(self.over)


_SHARE: ContextVar[Share | None] = ContextVar("cribbage_share", default=None)


def charge_to(share: Share) -> None:
    """From here on, the work of the running task (and all it schedules) is ``share``'s."""
    _SHARE.set(share)


def _timed(callback: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        start = time.thread_time()
        try:
            return callback(*args)
        finally:
            share = _SHARE.get()  # (after: a task's first step may be what set it)
            if share is not None:
                share.charge(time.thread_time() - start, time.monotonic())

    return run


_SCHEDULERS = ("call_soon", "call_soon_threadsafe", "call_at", "add_reader", "add_writer")
"""The loop's ways of scheduling a callback (``call_later`` goes through ``call_at``)."""


@contextlib.contextmanager
def metered(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """Within: every callback ``loop`` runs is timed and charged to the share in its
    context (none: nobody's). The loop is as it was afterwards."""
    for name in _SCHEDULERS:
        setattr(loop, name, _scheduling(getattr(loop, name), name == "call_at"))
    try:
        yield
    finally:
        for name in _SCHEDULERS:
            with contextlib.suppress(AttributeError):
                delattr(loop, name)


def _scheduling(schedule: Callable[..., Any], timed_first: bool) -> Callable[..., Any]:
    """``schedule``, its callback timed (``call_at``'s comes after the time)."""
    if timed_first:

        def at(when: float, callback: Callable[..., Any], *args: Any, **kw: Any) -> Any:
            return schedule(when, _timed(callback), *args, **kw)

        return at

    def soon(first: Any, *args: Any, **kw: Any) -> Any:
        if callable(first):
            return schedule(_timed(first), *args, **kw)
        fd, callback, *rest = (first, *args)  # add_reader(fd, callback, *args)
        return schedule(fd, _timed(callback), *rest, **kw)

    return soon


async def in_thread(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` in a thread, as :func:`asyncio.to_thread`, its CPU charged to the
    share of the task that asked (a search holds the interpreter as the loop would)."""
    share = _SHARE.get()
    loop = asyncio.get_running_loop()

    def timed() -> T:
        start = time.thread_time()
        try:
            return work(*args)
        finally:  # charged however it ends, even if the connection went meanwhile
            if share is not None:
                used = time.thread_time() - start
                loop.call_soon_threadsafe(share.charge, used, time.monotonic())

    return await asyncio.to_thread(timed)


def charge_here(seconds: float) -> None:
    """``seconds`` of CPU used elsewhere (a worker process, a cluster) for the task that
    asked, charged to its share."""
    share = _SHARE.get()
    if share is not None:
        share.charge(seconds, time.monotonic())
