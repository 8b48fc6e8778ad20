"""What one server holds: the open files raised as it starts, and the connections that fit
in them and in half the memory available (``--max-connections``' default)."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import Iterator

import pytest

from cribcli.ui.serve.capacity import (
    BY_FILES,
    BY_MEMORY,
    CONNECTION_MEMORY,
    KEPT_FILES,
    MEMORY_SHARE,
    fitting,
)


@contextlib.contextmanager
def whole_collections() -> Iterator[list[int]]:
    """The collections of the oldest generation this thread makes within, counted (one
    item each; another thread's, such as a cluster's client left by an earlier test, are
    not the server's); nothing is left frozen after."""
    import gc
    import threading

    full: list[int] = []
    mine = threading.get_ident()

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2 and threading.get_ident() == mine:
            full.append(1)

    gc.callbacks.append(seen)
    try:
        yield full
    finally:
        gc.callbacks.remove(seen)
        gc.unfreeze()


async def stopped(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def test_the_connections_are_what_the_files_hold_past_the_servers_own() -> None:
    assert fitting(1024, None) == (1024 - KEPT_FILES, BY_FILES)
    plenty = 100 * 1024 * CONNECTION_MEMORY
    assert fitting(4096, plenty) == (4096 - KEPT_FILES, BY_FILES)


def test_the_memory_bounds_them_when_it_holds_fewer() -> None:
    memory = 2000 * CONNECTION_MEMORY  # half of it: 1,000 connections
    assert MEMORY_SHARE == 0.5
    assert fitting(1 << 20, memory) == (1000, BY_MEMORY)


def test_a_machine_with_nothing_to_spare_still_takes_one() -> None:
    assert fitting(KEPT_FILES, 0) == (1, BY_FILES)


@pytest.mark.skipif(sys.platform == "win32", reason="open-file limits are POSIX")
def test_a_low_open_file_limit_is_raised_to_what_the_system_allows() -> None:
    """In a process of its own, whose soft limit is first set low (this one's is left)."""
    program = (
        "import resource\n"
        "from cribcli.ui.serve.capacity import MOST_FILES, open_files\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))\n"
        "files, before = open_files()\n"
        "wanted = MOST_FILES if hard == resource.RLIM_INFINITY else min(hard, MOST_FILES)\n"
        "assert before == 64 and files == wanted, (files, before, hard)\n"
        "assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == wanted\n"
        "assert open_files() == (wanted, None)  # (once raised, nothing more to do)\n"
    )
    subprocess.run([sys.executable, "-c", program], check=True, timeout=60)


def test_what_the_server_holds_is_frozen_and_collected_once_enough_have_gone() -> None:
    """Frozen out of the collector's walks; collected whole only once enough connections
    have closed since the last time; nothing stays frozen once the server stops."""
    import gc

    from cribcli.ui.serve.capacity import GONE_AT_LEAST, GONE_SHARE, collect_rarely

    closed = [0]
    here = 4 * GONE_AT_LEAST

    async def ticks(count: int) -> None:
        for _ in range(count):
            await asyncio.sleep(0.01)

    async def main(full: list[int]) -> tuple[int, int, int]:
        collecting = asyncio.create_task(
            collect_rarely(lambda: closed[0], lambda: here, freeze_every=0.001)
        )
        await asyncio.sleep(0)  # (frozen as it starts)
        frozen = gc.get_freeze_count()
        gc.disable()  # (no collection but the one asked for)
        try:
            closed[0] = int(GONE_SHARE * here) - 1  # not yet enough gone
            await ticks(5)
            quiet = len(full)
            closed[0] += 1
            while not full or len(full) == quiet:  # now: a collection of all of it
                await asyncio.sleep(0.001)
        finally:
            gc.enable()
        await stopped(collecting)
        return frozen, quiet, gc.get_freeze_count()

    with whole_collections() as full:
        frozen, quiet, after = asyncio.run(main(full))
    assert frozen > 0 and quiet == 0 and full and after == 0


def test_a_crowd_arriving_is_not_collected_whole_but_what_tables_leave_is() -> None:
    """The frozen objects doubling as connections arrive is their own: no whole
    collection (it would stand the room still and find nothing). Doubling while the
    connections stay as many (what finished games left) is collected whole."""
    import gc

    from cribcli.ui.serve.capacity import collect_rarely

    here = [10]

    async def grow(held: list[object]) -> None:
        """As many objects again as are frozen now, kept, and frozen in a few turns."""
        held.extend([[n] for n in range(gc.get_freeze_count() + 1000)])
        for _ in range(10):
            await asyncio.sleep(0.005)

    async def main(full: list[int]) -> tuple[int, int]:
        held: list[object] = []
        collecting = asyncio.create_task(
            collect_rarely(lambda: 0, lambda: here[0], freeze_every=0.001)
        )
        await asyncio.sleep(0)
        gc.disable()  # (no collection but the ones asked for)
        try:
            here[0] = 40  # a crowd arrives, and what it holds more than doubles
            await grow(held)
            arriving = len(full)
            await grow(held)  # the same crowd, and twice the objects: leftovers
            while len(full) == arriving:
                await asyncio.sleep(0.001)
        finally:
            gc.enable()
        await stopped(collecting)
        return arriving, len(full)

    with whole_collections() as full:
        arriving, after = asyncio.run(main(full))
    assert arriving == 0 and after > 0
