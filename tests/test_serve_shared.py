"""Two ``cribbage serve`` processes' rooms (two ports, two folders) sharing one club in
PostgreSQL, with real SSH clients: a name is held by its key on both, ``tell`` reaches a
person on the other server, and a game rated on one is on the other's ladder. Against a
real PostgreSQL server (see :mod:`tests.postgres`): skipped, saying so, where there is
none."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest

from tests.test_serve import KEYS, connect, door, play_out, run, running

pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]


def test_two_servers_are_one_club(postgres: str, tmp_path: Path) -> None:
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
            await asyncio.sleep(0)
            ann.type("tell bob the game is on at one")
            await bob.expect(r"ann tells you: the game is on at one")
            await ann.expect(r"You tell bob: the game is on at one")
            bob.type("tell ANN coming")
            await ann.expect(r"bob tells you: coming")
            ann.type("tell cat anyone?")
            await ann.expect(r"nobody called `cat` is here, nor on the club's other servers")
            await bob.close()
            bob_gone = "nobody called `bob` is here, nor on the club's other servers"
            for _ in range(200):  # (bob's leaving is noted in the store a moment later)
                ann.type("tell bob still there?")
                found = await ann.expect(r"You tell bob: still there\?|" + bob_gone)
                if found.group(0) == bob_gone:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("bob is still taken to be on server two")
            ann.type("new 2 61 computers 1 easy")
            await play_out(ann)
            await ann.expect(r"Your rating: \d+ ±\d+\.")
            cat = await connect(two, "cat")
            cat.type("top")
            await cat.expect(r"  +1 ann +\d+ +\d+ +1  \d{4}-\d\d-\d\d")

    run(main())
