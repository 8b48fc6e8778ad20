"""Work done off a server's event loop: the computers' decisions, hints and reviews of a
served room, in this machine's worker processes or on a Dask cluster (``serve
--scheduler``), as ``match`` plays its games.

A decision is a pure function of what it is given (the game's description and its
state), so wherever it is made it is the same: a worker lost in the middle has it made
again by another (Dask does so on a cluster; here a broken pool is made anew), and a
cluster lost altogether leaves the work to this machine's processes, said once in the
operator's log.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from cribcli.record import workers
from cribcli.rules.errors import CribbageError
from cribcli.services.runner import CONNECT_TIME, UNREACHABLE, cluster_client, unreachable

R = TypeVar("R")

TRIES = 3
"""Times a piece of work is tried on a fresh pool of processes before it is given up."""
PATIENCE = 120.0
"""Seconds a piece of work may take on the cluster before the cluster is taken for lost
(no worker left, the scheduler gone quiet): far past any decision, hint or review."""


def timed(work: Callable[..., R], *args: Any) -> tuple[R, float]:
    """(In a worker.) ``work(*args)``, and the CPU seconds it took there."""
    start = time.thread_time()
    result = work(*args)
    return result, time.thread_time() - start


class Elsewhere:
    """Where a room's work is done: ``jobs`` processes of this machine, or the Dask
    cluster whose scheduler is at ``scheduler``. :meth:`start` before use (it reaches
    the cluster), :meth:`close` after."""

    def __init__(
        self,
        jobs: int = 0,
        scheduler: str | None = None,
        told: Callable[[str], None] = lambda line: None,
        connect_time: float = CONNECT_TIME,
    ) -> None:
        self.jobs = jobs or os.cpu_count() or 1
        self.connect_time = connect_time
        self.patience = PATIENCE
        self.scheduler = scheduler
        self.told = told
        """The operator's log (a lost cluster is said there)."""
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._closed = False
        self._client: Any = None  # (a distributed.Client, asynchronous, once started)

    @property
    def where(self) -> str:
        """Where the work goes now, for the operator's log."""
        if self._client is not None:
            workers_now = len(self._client.scheduler_info().get("workers", {}))
            return f"the cluster at {self.scheduler} ({workers_now} workers now)"
        return f"{self.jobs} worker processes of this machine"

    async def start(self) -> None:
        """Reach the cluster, if there is one (a :class:`CribbageError` if it cannot be
        reached: the operator asked for it)."""
        if self.scheduler is None or self._client is not None:
            return
        client = cluster_client(self.scheduler, asynchronous=True, timeout=self.connect_time)
        try:
            self._client = await client
        except UNREACHABLE as error:
            raise unreachable(self.scheduler, error) from None

    async def run(self, work: Callable[..., R], *args: Any) -> R:
        """``work(*args)``, done elsewhere; what it returns or raises."""
        result, _ = await self.run_timed(work, *args)
        return result

    async def run_timed(self, work: Callable[..., R], *args: Any) -> tuple[R, float]:
        """``work(*args)``, done elsewhere, and the CPU seconds it took there (to charge
        to whoever asked for it)."""
        if self._client is not None:
            client = self._client
            try:
                return await self._on_cluster(client, work, *args)
            except _ClusterLost as lost:
                if self._client is client:  # (said once: the first to find it lost)
                    self.told(f"the cluster at {self.scheduler} is lost ({lost}): "
                              "the computers decide on this machine")  # fmt: skip
                    await self._let_go()
        if self._closed:
            raise CribbageError("the server is stopping: nothing more is worked out")
        for attempt in range(TRIES):
            pool = self._pool = self._pool or workers.pool(self.jobs)
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, timed, work, *args)
            except BrokenProcessPool:  # a worker died: the others are stopped with the pool
                if self._pool is pool:
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
                if attempt == TRIES - 1:
                    died = "the worker processes died, one pool after another"
                    raise CribbageError(died) from None
        raise AssertionError("unreachable")  # pragma: no cover

    async def _on_cluster(self, client: Any, work: Callable[..., R], *args: Any) -> tuple[R, float]:
        from distributed.client import ClosedClientError
        from distributed.scheduler import KilledWorker

        try:
            future = client.submit(timed, work, *args, pure=False)
            result: tuple[R, float] = await asyncio.wait_for(future, self.patience)
        except ImportError as error:  # (pickled by reference: cribcli is needed there)
            raise _ClusterLost(f"a worker cannot decide: {error}") from None
        except KilledWorker:
            raise _ClusterLost("it lost every worker given one piece of work") from None
        except TimeoutError:  # (the client, let go, drops what it still waits for)
            raise _ClusterLost(f"nothing back in {self.patience:g} s") from None
        except (OSError, ClosedClientError, concurrent.futures.CancelledError) as error:
            # (the scheduler gone: its futures cancelled, then the client closed)
            raise _ClusterLost(str(error) or type(error).__name__) from None
        except asyncio.CancelledError:
            if _cancelling():
                raise  # (this task is being cancelled, not the cluster's future)
            raise _ClusterLost("its work was cancelled") from None
        return result

    async def _let_go(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):  # (already gone: nothing to close)
                await asyncio.wait_for(client.close(), CONNECT_TIME)

    async def close(self) -> None:
        """Let the cluster go and stop this machine's processes (their work cancelled);
        work asked for after this is refused."""
        self._closed = True
        await self._let_go()
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


class _ClusterLost(Exception):
    """The cluster cannot do the work: the scheduler gone, or no worker can."""


def _cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
