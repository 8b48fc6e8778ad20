"""Work spread over worker processes that stop with the program: on Ctrl-C, on a signal,
or when the program dies, none is left running (``match`` and ``stats`` use them)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    import multiprocessing.pool
    import multiprocessing.process

T = TypeVar("T")
R = TypeVar("R")


@contextlib.contextmanager
def spread(
    task: Callable[[T], R], items: Sequence[T], jobs: int, *, chunksize: int = 1
) -> Iterator[Iterable[R]]:
    """The results of ``task`` over ``items``, in order; over ``jobs`` processes if more
    than one. Leaving the block early (an error, Ctrl-C) ends the workers at once."""
    if jobs <= 1 or len(items) <= 1:
        yield map(task, items)
        return
    with _pool(jobs) as pool:
        yield pool.imap(task, items, chunksize=chunksize)


@contextlib.contextmanager
def spread_as_done(
    task: Callable[[T], R], items: Sequence[T], jobs: int
) -> Iterator[Iterable[tuple[int, R]]]:
    """Each of ``items``' number and ``task``'s result for it, as each is done (not in
    order); over ``jobs`` processes if more than one, as :func:`spread`."""
    numbered = list(enumerate(items))
    call = _Numbered(task)
    if jobs <= 1 or len(items) <= 1:
        yield map(call, numbered)
        return
    with _pool(jobs) as pool:
        yield pool.imap_unordered(call, numbered)


@contextlib.contextmanager
def _pool(jobs: int) -> Iterator[multiprocessing.pool.Pool]:
    """``jobs`` worker processes, closed when the block ends, or ended at once if it ends
    early (an error, Ctrl-C)."""
    import multiprocessing.pool

    # Each worker is a process group of its own, so that a stop sent to the program's
    # group (as `timeout --kill-after`, service managers and CI runners send it) reaches
    # the program alone, and it ends its workers in the pool's own order: a worker killed
    # in the middle of taking a task or giving back a result would keep the pool's lock
    # for ever, and the pool would wait for it. The pool's threads, and so every worker
    # it starts (at first, or again when one dies), start with the stop signals held
    # until the worker has set its own (:func:`_starts`): one that comes as it is forked
    # is kept for it, not lost in the fork.
    held = _hold(())  # (as they are: a stop that came already is raised here)
    try:
        _hold(_HELD)
        pool = multiprocessing.Pool(jobs, initializer=_starts, initargs=(os.getpid(), True))
    except BaseException:
        _hold(held, only=True)
        raise
    try:
        with _paused_together():
            _hold(held, only=True)  # a stop that came meanwhile is raised now: ends the pool
            yield pool
        pool.close()
    except BaseException:
        _going(multiprocessing.active_children())  # (a paused worker would not end)
        pool.terminate()
        raise
    finally:
        pool.join()


@contextlib.contextmanager
def _paused_together() -> Iterator[None]:
    """Within: when the program is paused (Ctrl-Z, SIGTSTP), its workers, each in a
    process group of its own, pause with it, and go on when it does (POSIX, in the main
    thread; elsewhere nothing)."""
    import multiprocessing
    import threading

    if not hasattr(signal, "SIGTSTP") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def pause(signum: int, frame: object) -> None:
        workers = multiprocessing.active_children()
        try:
            _signal(workers, signal.SIGSTOP)
            signal.signal(signal.SIGTSTP, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTSTP)  # the program stops here until continued
        finally:  # (continued, a stop may be raised at once: the workers go on to end)
            signal.signal(signal.SIGTSTP, pause)
            _going(workers)

    if signal.getsignal(signal.SIGTSTP) == signal.SIG_IGN:  # (the program is not paused)
        yield
        return
    old = signal.signal(signal.SIGTSTP, pause)
    try:
        yield
    finally:
        signal.signal(signal.SIGTSTP, old)


def _going(workers: Iterable[multiprocessing.process.BaseProcess]) -> None:
    """Set ``workers`` going again, if paused (POSIX; elsewhere nothing)."""
    if hasattr(signal, "SIGCONT"):
        _signal(workers, signal.SIGCONT)


def _signal(workers: Iterable[multiprocessing.process.BaseProcess], signum: int) -> None:
    """Send ``signum`` to each of ``workers`` still there."""
    for worker in workers:
        if worker.pid:
            with contextlib.suppress(OSError):
                os.kill(worker.pid, signum)


class _Numbered(Generic[T, R]):
    """A task that keeps its item's number with its result (picklable, unlike a closure)."""

    def __init__(self, task: Callable[[T], R]) -> None:
        self.task = task

    def __call__(self, numbered: tuple[int, T]) -> tuple[int, R]:
        number, item = numbered
        return number, self.task(item)


def forked() -> bool:
    """Whether :func:`spread`'s workers are forked from this process, and so start with
    all it has worked out (on Linux; elsewhere they start afresh)."""
    import multiprocessing

    return multiprocessing.get_start_method() == "fork"


def pool(jobs: int) -> concurrent.futures.ProcessPoolExecutor:
    """Worker processes for tasks handed one at a time (a server's computers), that stop
    with the program as :func:`spread`'s do. Shut it down when done."""
    import multiprocessing

    # Spawned, not forked: the program may have threads (a server's event loop has).
    return concurrent.futures.ProcessPoolExecutor(
        max(jobs, 1),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_starts,
        initargs=(os.getpid(),),
    )


_parent = 0
"""In a worker: the process id of the program it works for."""
STOPS = frozenset({signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)})
"""The signals that stop the program: Ctrl-C, SIGTERM, SIGHUP (where there is one)."""
_HELD = STOPS | {getattr(signal, "SIGTSTP", signal.SIGINT)}
"""Those and Ctrl-Z's: held in a pool's threads, so that they come to the program's main
thread (where Python runs its handlers) and wake it, and in a worker until it starts."""


def _hold(signals: Iterable[int], *, only: bool = False) -> frozenset[int]:
    """Hold ``signals`` back in this thread (POSIX; elsewhere nothing), besides those held
    already, or with ``only``, hold just them (what an earlier call returned): any held
    back since that are no longer held come now. Returns those held before."""
    if not hasattr(signal, "pthread_sigmask"):
        return frozenset()
    return frozenset(
        signal.pthread_sigmask(signal.SIG_SETMASK if only else signal.SIG_BLOCK, signals)
    )


def _starts(parent: int, own_group: bool = False) -> None:
    """A worker leaves Ctrl-C and signals to the program, and dies with it (at once on
    Linux, else before its next task: see :func:`orphaned`); with ``own_group``, in a
    process group of its own (POSIX), which a signal to the program's group misses."""
    global _parent
    _parent = parent
    if own_group and hasattr(os, "setpgid"):
        os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in (signal.SIGTERM, signal.SIGHUP):  # not the program's own handlers
        signal.signal(number, signal.SIG_DFL)
    if hasattr(signal, "SIGTSTP"):  # a Ctrl-Z held since the fork is let go: the program
        signal.signal(signal.SIGTSTP, signal.SIG_IGN)  # pauses its workers itself
    if hasattr(signal, "pthread_sigmask"):  # a stop held since the fork ends it now
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    if hasattr(signal, "SIGTSTP"):
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
    dies_with_parent(signal.SIGTERM)
    orphaned()


def _linux_prctl() -> Callable[[int, int], int] | None:
    """prctl(2), looked up once, before any child is forked (between fork and exec a
    child should only call what is loaded already)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl: Callable[[int, int], int] = ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        return None
    return prctl


_prctl = _linux_prctl()
_DEATH_SIGNAL = 1  # PR_SET_PDEATHSIG
_SUBREAPER = 36  # PR_SET_CHILD_SUBREAPER


def become_subreaper(adopt: bool) -> bool:
    """Whether this process now adopts its orphaned descendants (Linux; ``adopt`` False
    stops it): a process an engine started, that left its process group and outlived the
    engine, becomes this process's child, to be found and ended (see :func:`children`)."""
    return _prctl is not None and _prctl(_SUBREAPER, int(adopt)) == 0


def children() -> list[int]:
    """The process ids of this process's children (Linux's /proc; elsewhere none)."""
    me = os.getpid()
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if entry.isdigit():
            fields = _stat(entry)
            if len(fields) > 1 and int(fields[1]) == me:
                found.append(int(entry))
    return found


def _stat(pid: int | str) -> list[bytes]:
    """The fields of Linux's /proc/PID/stat after the program's name (state first, then
    the parent's id...); none if it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return []


def process_state(pid: int) -> str:
    """A process's state as Linux's /proc tells it (``R``, ``S``, ``T`` stopped, ``t``
    held by a tracer, ``Z``...); empty if it cannot be read (gone, or not Linux)."""
    fields = _stat(pid)
    return fields[0].decode("ascii", "replace") if fields else ""


def dies_with_parent(signum: int) -> None:
    """This process is sent ``signum`` when the process that started it dies (Linux;
    elsewhere nothing). Safe to call in a child between fork and exec."""
    if _prctl is not None:
        _prctl(_DEATH_SIGNAL, signum)


def at_exit(stop: Callable[[], None]) -> None:
    """Call ``stop`` when this process ends: at exit, at the normal end of a worker (which
    leaves without running ``atexit``), and when a worker is ended by SIGTERM (a match
    stopped: then at once)."""
    import atexit
    from multiprocessing import util

    atexit.register(stop)
    util.Finalize(None, stop, exitpriority=10)
    if _parent:

        def ended(signum: int, frame: object) -> None:
            stop()
            os._exit(128 + signum)

        signal.signal(signal.SIGTERM, ended)


def orphaned() -> None:
    """In a worker whose program has died: end now. Call it before each long task."""
    if _parent and os.getppid() != _parent:
        os._exit(1)
