"""Matches and tournaments on a Dask cluster (``--scheduler``): a scheduler and two
workers started here on 127.0.0.1; the results equal a run on this machine's cores, game
for game, and a worker killed mid-run has its batches played again by the other, to
the same result."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribcli.services.match import Setup
from cribcli.services.runner import Outcome, Task, Where, each, run
from tests.conftest import Run

pytest.importorskip("distributed")
pytestmark = pytest.mark.slow

READY = 90.0
"""Seconds the cluster has to start: a ceiling that only a hang meets."""


def dask() -> str:
    found = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
    if found is None:
        pytest.skip("no dask command")
    return found


SCHEDULERS: dict[str, subprocess.Popen[bytes]] = {}
"""The scheduler's process of each cluster started here, by its address."""


@contextlib.contextmanager
def cluster(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A scheduler and two workers (one process each, no nanny to start one again): the
    scheduler's address and the workers' processes."""
    from distributed import Client

    root = Path(__file__).parents[1]
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{root / 'tools'}"}
    where = tmp_path / "scheduler.json"
    common = ["--no-dashboard"]
    started = [
        subprocess.Popen(
            [dask(), "scheduler", "--host", "127.0.0.1", "--port", "0",
             "--scheduler-file", str(where), *common],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        )
    ]  # fmt: skip
    try:
        deadline = time.monotonic() + READY
        address = None
        while address is None and time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError, KeyError):  # (not yet, or half)
                address = json.loads(where.read_text(encoding="utf-8"))["address"]
            time.sleep(0.05)
        assert address is not None, "the scheduler did not start"
        workers = [
            subprocess.Popen(
                [dask(), "worker", address, "--nthreads", "1", "--no-nanny", *common],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
            )
            for _ in range(2)
        ]  # fmt: skip
        started += workers
        SCHEDULERS[address] = started[0]
        with Client(address, timeout=READY, set_as_default=False) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(2, timeout=READY)
        yield address, workers
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            process.wait(30)


def test_a_match_and_a_tournament_on_the_cluster_equal_one_here(
    cribbage: Run, tmp_path: Path
) -> None:
    match = ["match", "easy", "normal", "--short", "--games", "24", "--seed", "4", "--json"]
    best_of = ["match", "normal", "easy", "--short", "--best-of", "3", "--games", "6", "--json"]
    tournament = ["tournament", "easy", "normal", "easy", "--short", "--format", "acc", "--json"]
    with cluster(tmp_path) as (address, _):
        for args in (match, best_of, tournament):
            here = cribbage(*args)
            there = cribbage(
                *args, "--scheduler", address, "--log-dir", str(tmp_path / args[0] / args[-2])
            )
            assert here.status == there.status == 0, there.err
            assert json.loads(there.out) == json.loads(here.out)
        logged = list((tmp_path / "match").rglob("game-*.toml"))
        assert len(logged) == 24  # written here, from the text the workers sent
        # A tool that measures the hard computer's tables works there the same way (its
        # functions found by name there: the workers see tools/ here; a tool run as a
        # script sends its functions whole).
        from tests.test_tables import tool

        pegging = tool("pegging_table")
        work = [((1, 5, 5, 10), 3), ((2, 3, 4, 13), 3), ((7, 7, 8, 8), 3)]
        worked = dict(each(pegging.average, work, Where(scheduler=address, batch=1)))
        assert [worked[n] for n in range(3)] == [pegging.average(w) for w in work]


def test_a_worker_lost_mid_run_has_its_games_played_again(tmp_path: Path) -> None:
    setup = Setup(("easy", "normal"), "lost", target=61)
    tasks = [Task(setup, index) for index in range(240)]
    here = dict(run(tasks, Where(batch=4)))
    with cluster(tmp_path) as (address, workers):
        there: dict[int, Outcome] = {}
        for number, outcome in run(tasks, Where(scheduler=address, batch=4)):
            if not there:  # the first batch is back: the others are out with the workers
                workers[0].send_signal(signal.SIGKILL)
                workers[0].wait(30)
            there[number] = outcome
        assert workers[0].returncode == -signal.SIGKILL
    assert sorted(there) == list(range(240))
    assert there == here  # game for game, logs and all
