"""A served room's work off its event loop (:mod:`cribcli.services.elsewhere`): in this
machine's worker processes, a worker that dies has its work done again by a fresh pool;
work that fails says so; on a cluster (``serve --scheduler``), a table of computers plays
the same game as here, a worker killed in the middle of it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from cribcli.club.lobby import TableSetup
from cribcli.players import Level
from cribcli.rules.errors import CribbageError
from cribcli.services.elsewhere import TRIES, Elsewhere


def dies_the_first_time(marker: str) -> int:
    """(In a worker.) The worker dies at once, unless it died here before."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)
    return 42


def always_dies(count: str) -> int:
    """(In a worker.) Counts the tries, then dies."""
    with open(count, "a", encoding="ascii") as tries:
        tries.write("x")
    os._exit(1)


def fails(why: str) -> int:
    raise ValueError(why)


def test_a_worker_that_dies_has_its_work_done_again(tmp_path: Path) -> None:
    async def main() -> tuple[int, float]:
        elsewhere = Elsewhere(jobs=1)
        try:
            return await elsewhere.run_timed(dies_the_first_time, str(tmp_path / "died"))
        finally:
            await elsewhere.close()

    result, cpu = asyncio.run(main())
    assert result == 42 and cpu >= 0.0
    assert (tmp_path / "died").exists()


def test_work_that_kills_every_pool_is_given_up_and_said(tmp_path: Path) -> None:
    count = tmp_path / "tries"

    async def main() -> None:
        elsewhere = Elsewhere(jobs=1)
        try:
            await elsewhere.run(always_dies, str(count))
        finally:
            await elsewhere.close()

    with pytest.raises(CribbageError, match="the worker processes died"):
        asyncio.run(main())
    assert count.read_text(encoding="ascii") == "x" * TRIES


def test_what_the_work_raises_is_the_callers() -> None:
    async def main() -> None:
        elsewhere = Elsewhere(jobs=1)
        try:
            await elsewhere.run(fails, "no hand fits")
        finally:
            await elsewhere.close()

    with pytest.raises(ValueError, match="no hand fits"):
        asyncio.run(main())


def test_a_scheduler_that_cannot_be_reached_is_one_line() -> None:
    pytest.importorskip("distributed")

    async def main() -> None:
        elsewhere = Elsewhere(scheduler="tcp://127.0.0.1:9", connect_time=2.0)
        await elsewhere.start()

    with pytest.raises(CribbageError, match=r"cannot reach the scheduler at tcp://127.0.0.1:9"):
        asyncio.run(main())


def computers_play(
    root: Path,
    scheduler: str | None,
    kill: Sequence[subprocess.Popen[bytes]] = (),
    patience: float | None = None,
) -> tuple[list[object], list[object], list[str]]:
    """A served table whose two seats the computer plays (normal), its deal seeded, to
    the end, its decisions made here or on the cluster (``kill`` killed once a fifth of
    a game's decisions are made): the game's actions and events, and the operator's
    log."""

    from cribcli.ui.serve.room import Room, ServeOptions

    told: list[str] = []

    async def main() -> tuple[list[object], list[object], list[str]]:
        room = Room(ServeOptions(root=root, pace=0.0, scheduler=scheduler))
        room.told = told.append
        if patience is not None:
            room.elsewhere.patience = patience
        await room.elsewhere.start()
        assert ("cluster at" in room.elsewhere.where) == (scheduler is not None)
        try:
            setup = TableSetup(computers=1, level=Level.NORMAL)
            table = room.lobby.open_table("robot", setup, room.games.saver)
            room.start(table)
            session = table.session
            assert session is not None
            table.away[0] = 0.0
            table.take_over(0)  # (the person's seat: every seat the computer's)
            room.drive(table.number)
            deadline = time.monotonic() + 600  # (a ceiling: a hang)
            while not session.over:
                assert time.monotonic() < deadline, "the computers stopped playing"
                if len(session.actions) >= 20:
                    for process in kill:
                        if process.poll() is None:
                            process.kill()
                await asyncio.sleep(0.01)
            return list(session.actions), list(session.events), told
        finally:
            for task in room.drivers.values():
                task.cancel()
            await room.elsewhere.close()
            room.club.close()

    return asyncio.run(main())


@pytest.mark.slow
@pytest.mark.parametrize("lost", ["one worker", "every worker", "the scheduler"])
def test_a_table_of_computers_plays_the_same_game_on_a_cluster_that_loses_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lost: str
) -> None:
    """One worker killed mid-game: the other makes its decisions again. Every worker
    killed, or the scheduler: the cluster is taken for lost, said once, and this machine
    decides."""
    pytest.importorskip("distributed")
    pytest.importorskip("asyncssh")
    from tests.test_cluster import SCHEDULERS, cluster

    monkeypatch.setattr("secrets.token_hex", lambda size: "5eed" * (size // 2))
    here = computers_play(tmp_path / "here", None)
    with cluster(tmp_path) as (address, workers):
        killed = {
            "one worker": workers[:1],
            "every worker": workers,
            "the scheduler": [SCHEDULERS[address]],
        }[lost]
        # with no worker left, the cluster is lost once nothing has come back for a
        # while; otherwise its patience is the server's, so a busy machine is no loss
        patience = 5.0 if lost == "every worker" else None
        there = computers_play(tmp_path / "there", address, kill=killed, patience=patience)
        assert all(worker.poll() is not None for worker in killed)  # killed mid-game
    assert there[:2] == here[:2]
    assert len(here[0]) > 40  # (a whole game's decisions)
    fallen = [line for line in there[2] if "is lost" in line]
    if lost == "one worker":
        assert fallen == []
    else:
        assert len(fallen) == 1 and "the computers decide on this machine" in fallen[0]
