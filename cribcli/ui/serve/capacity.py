"""What one server can hold: its open files raised to what the system allows, and the
connections that fit in them and in the memory there is (``--max-connections``' default).

A connection holds one file descriptor, its socket (the line editor's keys come from the
channel in memory: :mod:`cribcli.ui.serve.keys`), and costs about
:data:`CONNECTION_MEMORY` bytes, measured by ``benchmarks/serve.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Callable
from typing import NamedTuple

KEPT_FILES = 256
"""Descriptors kept for what is not a connection: the listening sockets, the logs being
written, the club's database, the worker processes' pipes, a connection being refused."""
CONNECTION_MEMORY = 1 << 20
"""What a connected person costs the server, in bytes, with room to spare (measured:
``docs/serve.md``)."""
MEMORY_SHARE = 0.5
"""The share of the memory available at start that connections may take (the tables'
computers, their worker processes and the system need the rest)."""
MOST_FILES = 1 << 20
"""The most open files asked for, whatever the hard limit says (it may be unlimited)."""


BY_FILES = "the open files hold"
BY_MEMORY = "half the available memory holds"


class Capacity(NamedTuple):
    files: int
    """The open-file limit now."""
    raised_from: int | None
    """What it was, if it was raised here."""
    connections: int
    """The most connections that fit, in descriptors and in memory."""
    bounded_by: str
    """Which bounds them, as the operator log says it: :data:`BY_FILES` or
    :data:`BY_MEMORY`."""


def open_files() -> tuple[int, int | None]:
    """Raise this process's open-file limit to the most the system allows it; return the
    limit now, and what it was if raised."""
    try:
        import resource
    except ImportError:  # (not a POSIX system: whatever it allows)
        return MOST_FILES, None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MOST_FILES if hard == resource.RLIM_INFINITY else min(hard, MOST_FILES)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            return wanted, soft
    return (MOST_FILES if soft == resource.RLIM_INFINITY else soft), None


def available_memory() -> int | None:
    """The memory the system says is available now, in bytes (Linux), else None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def fitting(files: int, memory: int | None) -> tuple[int, str]:
    """The connections that fit in ``files`` descriptors and ``memory`` bytes (None:
    unknown, descriptors alone), and which of the two bounds them."""
    by_files = max(1, files - KEPT_FILES)
    if memory is None:
        return by_files, BY_FILES
    by_memory = max(1, int(memory * MEMORY_SHARE) // CONNECTION_MEMORY)
    return (by_files, BY_FILES) if by_files <= by_memory else (by_memory, BY_MEMORY)


def measure() -> Capacity:
    """The open files raised, and what they and the memory hold."""
    files, before = open_files()
    connections, bound = fitting(files, available_memory())
    return Capacity(files, before, connections, bound)


FREEZE_EVERY = 10.0
"""Seconds between two freezes of what the server holds (:func:`collect_rarely`)."""
GONE_SHARE = 0.25
"""Collect all of it once this share of the connections there are has closed since the
last time (their leftovers among the frozen objects are freed then)..."""
GONE_AT_LEAST = 200
"""... and at least this many: the memory they leave meanwhile is bounded."""


async def collect_rarely(
    closed: Callable[[], int],
    here: Callable[[], int],
    freeze_every: float = FREEZE_EVERY,
) -> None:
    """Keep Python's garbage collector from stopping the room for long, until cancelled.
    ``closed``: the connections closed so far; ``here``: those open now.

    A connection holds thousands of objects (its line editor's), and each collection of
    the oldest generation walks every one of them: at 500 connections one took 0.8 s, at
    2,000 five seconds, the room standing still meanwhile (``benchmarks/serve.py``). So
    what the server holds is frozen out of the collector's walks every ten seconds (new
    objects are collected as usual). What a closed connection leaves in cycles among the
    frozen objects (and what finished games and tables leave) is freed by a collection
    of everything, made once enough have closed (:data:`GONE_SHARE`,
    :data:`GONE_AT_LEAST`) or the frozen objects have doubled since the last one while
    the connections have not (what grew is then what finished games and tables left): its
    pause is paid for by the churn, not by the clock, nor by a crowd arriving (a whole
    collection at 1,000 connections stood the room still for 3 s, and found nothing)."""
    last = closed()
    gc.freeze()
    since = gc.get_freeze_count()  # (what was frozen just after the last whole collection)
    then = here()  # (the connections open then)
    try:
        while True:
            await asyncio.sleep(freeze_every)
            gone = closed() - last >= max(GONE_AT_LEAST, int(GONE_SHARE * here()))
            grown = gc.get_freeze_count() >= 2 * since
            if gone or (grown and here() < 2 * then):
                gc.unfreeze()
                gc.collect()
                last = closed()
                gc.freeze()
                since, then = gc.get_freeze_count(), here()
            else:
                gc.freeze()
                if grown:  # the connections' own growth: the next doubling counts from here
                    since, then = gc.get_freeze_count(), here()
    finally:
        gc.unfreeze()
