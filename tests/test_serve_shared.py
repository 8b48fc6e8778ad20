"""Two ``cribbage serve`` processes' rooms (two ports, two folders) sharing one club in
PostgreSQL, with real SSH clients: a name is held by its key on both, ``tell`` reaches a
person on the other server, and a game rated on one is on the other's ladder. Against a
real PostgreSQL server (see :mod:`tests.postgres`): skipped, saying so, where there is
none."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import asyncssh
import pytest

from cribcli.club.database import Club
from tests.test_serve import KEYS, connect, door, play_out, run, running

pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]


async def noted(probe: Club, name: str, here: bool) -> None:
    """Wait until the store says ``name`` is connected to a server (or is not): a
    connection's coming and going is noted a moment after it."""
    deadline = time.monotonic() + 60  # (a ceiling: only a hang meets it)
    while await asyncio.to_thread(probe.elsewhere, name) != here:
        assert time.monotonic() < deadline, f"{name} never noted as {here}"
        await asyncio.sleep(0.02)


def test_two_servers_are_one_club(postgres: str, tmp_path: Path) -> None:
    probe = Club(postgres, "probe")  # (a third server's view: where each person is)

    async def main() -> None:
        async with (
            running(tmp_path / "one", store=postgres) as one,
            running(tmp_path / "two", store=postgres) as two,
        ):
            assert any("the club is shared with its other servers" in line for line in one.told)
            ann = await connect(one, "ann")
            with pytest.raises(asyncssh.PermissionDenied):  # ann's name, with another key
                await door(two, "ANN", KEYS["eve"])
            bob = await connect(two, "bob")
            await noted(probe, "bob", True)
            ann.type("tell bob the game is on at one")
            await bob.expect(r"ann tells you: the game is on at one")
            await ann.expect(r"You tell bob: the game is on at one")
            bob.type("tell ANN coming")
            await ann.expect(r"bob tells you: coming")
            ann.type("tell cat anyone?")
            await ann.expect(r"nobody called `cat` is here, nor on the club's other servers")
            await bob.close()
            await noted(probe, "bob", False)
            ann.type("tell bob still there?")
            await ann.expect("nobody called `bob` is here, nor on the club's other servers")
            ann.type("new 2 61 computers 1 easy")
            await play_out(ann)
            await ann.expect(r"Your rating: \d+ ±\d+\.")
            cat = await connect(two, "cat")
            cat.type("top")
            await cat.expect(r"  +1 ann +\d+ +\d+ +1  \d{4}-\d\d-\d\d")

    try:
        run(main())
    finally:
        probe.close()
