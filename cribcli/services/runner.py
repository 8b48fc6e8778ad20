"""Where the games of a match or a tournament are played: on this machine's cores, or on a
Dask distributed cluster; and a match played (:func:`run_match`).

The work comes as tasks, each a unit of a match (a game, or a best-of match's games:
:func:`cribcli.services.match.play_unit`), and goes out in batches of a few tasks, so that a worker
is not asked for each game. Results come back as each batch is done, each with its games'
logs as text (the program that asked writes them, so that the workers need no shared
folder). A unit's games are worked out from seeds alone, so that wherever and in whatever
order they are played, the results are the same, game for game; a cluster that loses a
worker plays that worker's batches again elsewhere (Dask does), with the same result.

On this machine the workers are forked from the program, after it has worked out the
hard computer's tables once: each worker inherits them rather than working them out
again. On a cluster each worker process works them out once, for all the batches it is
given.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from cribcli.players import Level
from cribcli.protocol.referee import EngineCommand, stop_all
from cribcli.record.log import GameInfo, dumps
from cribcli.record.store import StoreError, reason, write_atomic
from cribcli.record.workers import forked, orphaned, spread_as_done
from cribcli.rules.errors import CribbageError
from cribcli.rules.events import Event
from cribcli.services.match import Played, Report, Setup, level_of, log_name, play_unit

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Task:
    """Unit ``index`` of the match ``setup``, its first ``done`` games played already."""

    setup: Setup
    index: int
    done: Played = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """A task's games, and each one's log: its file's name and its text."""

    played: Played
    logs: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Where:
    """Where to play: ``jobs`` processes here, or the Dask scheduler at ``scheduler``;
    ``batch`` tasks a batch (0: chosen from the work and the workers)."""

    jobs: int = 1
    scheduler: str | None = None
    batch: int = 0


def play(task: Task) -> Outcome:
    """(In a worker.) One task played, its games' logs kept as text."""
    orphaned()
    logs: list[tuple[str, str]] = []

    def save(game: int, info: GameInfo, events: list[Event]) -> None:
        logs.append((log_name(task.setup, task.index, game), dumps(info, events)))

    played = play_unit(task.setup, task.index, save, task.done)
    return Outcome(played, tuple(logs))


def run(tasks: Sequence[Task], where: Where) -> Iterator[tuple[int, Outcome]]:
    """Each task's number and outcome, as each is done (not in order). Raises
    CribbageError if the cluster cannot be reached or its workers cannot play."""
    if where.scheduler is None and where.jobs > 1 and len(tasks) > 1 and forked():
        _warm(tasks)
    yield from each(play, tasks, where)


def _warm(tasks: Sequence[Task]) -> None:
    """The hard computer's tables worked out here, before the workers fork, if it plays
    (for each objective it plays for)."""
    hard = {
        level_of(spec)[1]
        for task in tasks
        for spec in task.setup.players
        if EngineCommand.parse(spec) is None and level_of(spec)[0] is Level.HARD
    }
    if hard:
        from cribcli.players.hard import warm

        warm(endgame=True, objectives=hard)


def run_match(
    setup: Setup,
    units: int,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    log_dir: Path | None = None,
    on_game: Callable[[int], None] | None = None,
    report: Report | None = None,
) -> Report:
    """Play a match of ``units`` games (or, with ``best_of``, of that many best-of
    matches) and add them up (into ``report`` if given: a match stopped midway leaves
    there the units it finished, in order); ``on_game`` hears how many units have ended,
    as each one ends.

    With ``jobs`` over 1 the units are spread over worker processes, which stop with the
    match: on Ctrl-C, a signal, or the match process dying, none is left running (nor any
    engine); with ``scheduler``, over a Dask cluster (:mod:`cribcli.services.runner`). Raises
    StoreError if a log cannot be written to ``log_dir``, and CribbageError, before any
    game, if an engine's program cannot be found.
    """
    for spec in setup.players:
        engine = EngineCommand.parse(spec)
        if engine is not None and scheduler is None:
            engine.check_found()
    if log_dir is not None:
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot use the folder {log_dir} ({reason(error)})") from None
    report = report or Report.of(setup)
    tasks = [Task(setup, index) for index in range(units)]
    waiting: dict[int, Played] = {}
    added = 0
    try:
        # Added in order, so that the sums add up alike however spread.
        for index, outcome in run(tasks, Where(jobs, scheduler)):
            if log_dir is not None:
                write_logs(log_dir, outcome.logs)
            waiting[index] = outcome.played
            while added in waiting:
                report.add_unit(waiting.pop(added))
                added += 1
            if on_game:
                on_game(added + len(waiting))
    finally:
        stop_all()
    return report


def write_logs(folder: Path, logs: Iterable[tuple[str, str]]) -> None:
    """Games' logs (each its file's name and its text) written into ``folder``. Raises
    StoreError if one cannot be."""
    for name, text in logs:
        path = folder / name
        try:
            write_atomic(path, text)
        except OSError as error:
            raise StoreError(f"cannot write {path} ({reason(error)})") from None


# --- any work, in batches ----------------------------------------------------------------


def each(work: Callable[[T], R], items: Sequence[T], where: Where) -> Iterator[tuple[int, R]]:
    """Each item's number and ``work``'s result for it, as each is done (not in order):
    the items go in batches to ``where.jobs`` processes here (forked: ``work`` may be
    the running script's own), or to the cluster's workers (``work`` pickled by
    reference if it is a module's, by value if it is the running script's: cribcli must
    be installed there). Raises CribbageError if the cluster cannot be reached."""
    if where.scheduler is not None:
        yield from _on_cluster(work, items, where)
        return
    grouped = batches(items, where.jobs, where.batch)
    starts = _starts(grouped)
    with spread_as_done(partial(_batch, work), grouped, where.jobs) as done:
        for number, results in done:
            for offset, result in enumerate(results):
                yield starts[number] + offset, result


def _batch(work: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """(In a worker.) A batch of items worked, one after another."""
    return [work(item) for item in items]


def batches(items: Sequence[T], workers: int, size: int = 0) -> list[list[T]]:
    """The items in batches: of ``size``, or of as many as give each worker about eight
    batches (so that the last batches to finish do not leave workers idle long), at most
    16 items (a batch lost with its worker is worked again whole)."""
    if size <= 0:
        size = max(1, min(16, len(items) // (8 * max(workers, 1))))
    return [list(items[start : start + size]) for start in range(0, len(items), size)]


def _starts(grouped: Sequence[Sequence[object]]) -> list[int]:
    """Each batch's first item's number."""
    starts, total = [], 0
    for batch in grouped:
        starts.append(total)
        total += len(batch)
    return starts


CONNECT_TIME = 30.0
"""Seconds to reach a cluster's scheduler."""


UNREACHABLE = (OSError, TimeoutError, ValueError)
"""What reaching a scheduler raises when it cannot be reached."""


def cluster_client(
    scheduler: str, *, asynchronous: bool = False, timeout: float = CONNECT_TIME
) -> Any:
    """A Dask client of the cluster whose scheduler is at ``scheduler`` (asynchronous:
    to be awaited, in the running event loop). Raises CribbageError, in words for the
    person who asked, if distributed is not installed or the scheduler cannot be
    reached (asynchronous: as it is awaited, see :func:`unreachable`)."""
    try:
        from distributed import Client
    except ImportError:
        raise CribbageError(
            "--scheduler needs Dask distributed: pip install 'cribcli[cluster]'"
        ) from None
    try:
        return Client(  # type: ignore[no-untyped-call]
            scheduler, timeout=timeout, set_as_default=False, asynchronous=asynchronous
        )
    except UNREACHABLE as error:
        raise unreachable(scheduler, error) from None


def unreachable(scheduler: str, error: BaseException) -> CribbageError:
    """The error to tell for a scheduler that could not be reached."""
    return CribbageError(f"cannot reach the scheduler at {scheduler} ({error})")


def _on_cluster(
    work: Callable[[T], R], items: Sequence[T], where: Where
) -> Iterator[tuple[int, R]]:
    """The items worked on the Dask cluster whose scheduler is at ``where.scheduler``."""
    assert where.scheduler is not None
    client = cluster_client(where.scheduler)
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    with client:
        workers = max(len(client.scheduler_info().get("workers", {})), 1)
        grouped = batches(items, workers, where.batch)
        starts = _starts(grouped)
        run_id = uuid.uuid4().hex[:12]
        futures = {
            client.submit(_batch, work, batch, key=f"cribbage-{run_id}-{number}"): number
            for number, batch in enumerate(grouped)
        }
        try:
            for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
                try:
                    results = future.result()
                except ImportError as error:  # (pickled by reference: cribcli is needed there)
                    raise CribbageError(
                        f"a worker cannot play: {error} (install cribcli on every worker)"
                    ) from None
                except KilledWorker:
                    raise CribbageError(
                        "the cluster lost every worker given a batch, one after another: "
                        "see its workers' logs"
                    ) from None
                except CribbageError:
                    raise
                except Exception as error:  # (the connection lost, the work cancelled)
                    raise CribbageError(f"the cluster failed: {error}") from None
                number = futures[future]
                for offset, result in enumerate(results):
                    yield starts[number] + offset, result
        finally:
            client.cancel(list(futures))
