"""Nothing a damaged or shared data folder can do to ``cribbage serve``: one server a
folder, a store that proves itself before the server listens, accounts that survive the
store, games rated once the store is free, and what people are told (never the server's
paths). Without sockets: the door, the room and the store are driven directly."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cribcli.club.database import SCHEMA_VERSION, Club, digest_of
from cribcli.club.lobby import ServedTable, TableSetup
from cribcli.club.served import ServerLock
from cribcli.record.reader import loads
from cribcli.record.store import StoreError
from cribcli.rules.engine import Phase, seats_to_act
from cribcli.rules.errors import CribbageError
from cribcli.services.games import decided_for
from cribcli.ui.serve.guard import KeyGuard
from cribcli.ui.serve.room import Room
from cribcli.ui.serve.ssh import Door
from tests.conftest import Run
from tests.test_room import Key, Link, knock, room_at

# --- one server a folder ----------------------------------------------------------------


def test_a_second_server_on_a_folder_is_refused_naming_the_first(
    cribbage: Run, tmp_path: Path
) -> None:
    root = tmp_path / "server"
    with ServerLock(root):
        with pytest.raises(
            StoreError, match=rf"held by another `cribbage serve` \(process {os.getpid()}\)"
        ):
            ServerLock(root).__enter__()
        for args in (["--open", "--port", "0"], ["--rebuild-ratings"]):
            refused = cribbage("serve", *args, "--data-dir", str(tmp_path))
            assert refused.status == 1 and refused.out == ""
            assert refused.err.count("\n") == 1 and f"(process {os.getpid()})" in refused.err
    with ServerLock(root):  # let go: the next one holds it
        pass


# --- a store that proves itself -----------------------------------------------------------


def _club_with_people(path: Path, people: int = 300) -> None:
    club = Club(path)
    for n in range(people):
        club.arrive(f"p{n}", f"SHA256:{n}", f"2026-12-02T10:00:{n % 60:02}+00:00", claim=True)
    club.close()


def _flipped(path: Path, seed: int, flips: int = 300) -> None:
    """``flips`` bits flipped past the store's first page (SQLite still opens it)."""
    data = bytearray(path.read_bytes())
    chance = random.Random(seed)
    for _ in range(flips):
        data[chance.randrange(4096, len(data))] ^= 1 << chance.randrange(8)
    path.write_bytes(bytes(data))


def test_a_damaged_store_stops_the_server_before_it_listens(cribbage: Run, tmp_path: Path) -> None:
    store = tmp_path / "server" / "club.db"
    _club_with_people(store)
    _flipped(store, seed=1)
    opened = sqlite3.connect(store)  # SQLite opens it, and reads what it can
    assert opened.execute("SELECT count(*) FROM accounts").fetchone() == (300,)
    assert opened.execute("PRAGMA quick_check").fetchone() != ("ok",)
    opened.close()
    with pytest.raises(StoreError, match="is damaged \\(SQLite's check: "):
        Club(store)
    refused = cribbage("serve", "--open", "--port", "0", "--data-dir", str(tmp_path))
    assert refused.status == 1 and refused.out == ""
    assert refused.err.count("\n") == 1 and "the club's store" in refused.err
    assert "is damaged" in refused.err and "listening" not in refused.err


def test_a_store_of_a_newer_version_or_no_store_at_all_is_refused(tmp_path: Path) -> None:
    store = tmp_path / "club.db"
    Club(store).close()
    raw = sqlite3.connect(store)
    assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)  # its schema's
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(StoreError, match="made by a newer cribbage"):
        Club(store)
    other = tmp_path / "other.db"
    other.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="not a store that can be used"):
        Club(other)


@pytest.mark.slow
def test_a_store_locked_by_another_program_stops_the_server(cribbage: Run, tmp_path: Path) -> None:
    """(Slow: the store waits its busy time, five seconds, for the lock to go.)"""
    store = tmp_path / "server" / "club.db"
    _club_with_people(store, 3)
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        refused = cribbage("serve", "--open", "--port", "0", "--data-dir", str(tmp_path))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert refused.status == 1 and "locked by another program" in refused.err
    assert refused.err.count("\n") == 1


def test_a_store_failing_at_a_login_is_named_and_the_person_told(tmp_path: Path) -> None:
    said: list[str] = []

    async def main() -> None:
        room = room_at(tmp_path, open_door=True)
        room.told = said.append

        def failing(name: str) -> str:
            raise StoreError("the club's store: database is locked")

        room.games.key_of = failing  # type: ignore[method-assign]
        gate = await knock(room, Door({}), "ann", Key("SHA256:ann"))
        assert not gate.authed and gate.refused == "store"
        link = gate.conn
        assert isinstance(link, Link)
        assert link.refused == ["the club cannot let you in now: try again in a while"]
        gate.connection_lost(None)

    asyncio.run(main())
    assert said[-1].endswith(
        "`ann` from 127.0.0.1 refused: the club's store failed (the club's store: database "
        "is locked)"
    )


# --- accounts that survive the store ------------------------------------------------------


def test_an_emptied_store_gives_no_name_to_a_new_key(tmp_path: Path) -> None:
    async def first() -> None:
        room = room_at(tmp_path, open_door=True)
        assert (await knock(room, Door({}), "bob", Key("SHA256:bob"))).authed
        room.club.close()

    asyncio.run(first())
    assert (tmp_path / "players" / "bob" / "key").read_text() == "SHA256:bob\n"
    (tmp_path / "club.db").write_bytes(b"")  # the store emptied
    for leftover in tmp_path.glob("club.db-*"):
        leftover.unlink()

    async def again() -> None:
        room = room_at(tmp_path, open_door=True)
        assert room.club.account("bob") is None  # the store knows nothing of bob
        stranger = await knock(room, Door({}), "bob", Key("SHA256:eve"))
        assert not stranger.authed and stranger.refused == "key"
        assert room.games.settle_accounts() == (1, 0)  # as the server starts
        account = room.club.account("bob")
        assert account is not None and account.key == "SHA256:bob"
        assert (await knock(room, Door({}), "bob", Key("SHA256:bob"))).authed

    asyncio.run(again())


def test_keys_only_the_store_held_are_written_to_the_folders(tmp_path: Path) -> None:
    room = room_at(tmp_path, open_door=True)
    assert room.club.arrive("ann", "SHA256:ann", "2026-12-01T10:00:00+00:00", claim=True) == "new"
    assert not (tmp_path / "players" / "ann" / "key").exists()  # (an older server's way)
    assert room.games.settle_accounts() == (0, 1)
    assert (tmp_path / "players" / "ann" / "key").read_text() == "SHA256:ann\n"
    assert room.games.settle_accounts() == (0, 0)


# --- the room with a store that is busy, and what people read -----------------------------


@dataclass
class Someone:
    """A person in the room as the room sees them, who remembers what they are told."""

    name: str
    table: ServedTable | None = None
    watched: ServedTable | None = None
    idle: float = 0.0
    heard: list[str] = field(default_factory=list)

    def say(self, line: str) -> None:
        self.heard.append(line)

    def tell(self, lines: Iterable[str]) -> None:
        self.heard.extend(lines)

    def wake(self) -> None:
        pass

    def unseat(self) -> None:
        self.table = None

    def unwatch(self) -> None:
        self.watched = None

    def close(self, why: str) -> None:
        pass


def _a_game(room: Room) -> int:
    table = room.lobby.open_table("ann", TableSetup(), room.games.saver)
    table.sit("bob")
    room.games.start(table)
    return table.number


def test_a_game_ended_while_the_store_is_busy_is_rated_once_it_is_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_club import game_text

    said: list[str] = []
    monkeypatch.setattr("cribcli.ui.serve.room.RATE_AGAIN_FIRST", 0.0)

    async def main() -> None:
        room = room_at(tmp_path)
        room.told = said.append
        rate = room.club.rate
        busy = [2]

        def sometimes(*args: object, **kwargs: object) -> object:
            if busy[0]:
                busy[0] -= 1
                raise StoreError("the club's store: database is locked")
            return rate(*args, **kwargs)  # type: ignore[arg-type]

        room.club.rate = sometimes  # type: ignore[assignment,method-assign]
        table = room.lobby.tables.get(_a_game(room))
        assert table is not None
        text = game_text(3, ("ann", "bob"))
        await room._rate(table, text, [])
        assert busy == [0] and room.club.standing("ann") is not None

    asyncio.run(main())
    assert any("is not rated yet" in line and "until the store is free" in line for line in said)
    assert any(line.endswith("game is rated now") for line in said)


def test_what_people_read_never_shows_the_server_s_folder(tmp_path: Path) -> None:
    said: list[str] = []
    room = room_at(tmp_path)
    room.told = said.append
    root = str(tmp_path)
    assert room.for_people(f"cannot write {root}/tables/table-1.toml (disk full)") == (
        "cannot write tables/table-1.toml (disk full)"
    )
    assert root not in room.for_people(f"the club's store {root}/club.db: locked")
    room._warn_table(1)("could not save the game (disk full)")  # a failed save
    assert said[-1].endswith("table 1: could not save the game (disk full)")


def test_an_adjournment_that_cannot_be_stored_is_told_to_all_who_asked(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        room = room_at(tmp_path)
        number = _a_game(room)
        table = room.lobby.tables[number]
        ann, bob = Someone("ann", table), Someone("bob", table)
        for someone in [ann, bob]:
            room.came(someone)
        await room.adjourn(bob, table)  # bob asks first, and waits for ann

        def full(table: object) -> str:
            raise OSError(28, "No space left on device")

        room.games.adjourn = full  # type: ignore[method-assign]
        with pytest.raises(CribbageError, match="could not be put away"):
            await room.adjourn(ann, table)
        assert any("could not be put away" in line for line in bob.heard), bob.heard
        assert not table.adjourning

    asyncio.run(main())


def test_an_adjourned_game_found_without_its_index_keeps_the_table_s_scores(
    tmp_path: Path,
) -> None:
    room = room_at(tmp_path)
    table = room.lobby.tables[_a_game(room)]
    session = table.session
    assert session is not None
    while not any(session.state.scores) or session.state.phase is not Phase.PLAY:
        seat = seats_to_act(session.state)[0]  # (each person's move as a computer's)
        session.act(decided_for(session.info, session.state, seat, "easy"))
    scores = tuple(session.state.scores)
    key = room.games.adjourn(table)
    room.club.resumed(key)  # as an older server (or a lost store) left it: no index
    room.club.close()
    again = room_at(tmp_path)
    again.games.carry_on()
    (game,) = again.games.adjourned("ann")
    assert game.scores == scores  # the table's, mid-round: not the last round's end


# --- bytes that are not text --------------------------------------------------------------


def test_bytes_that_are_not_utf8_are_left_out_and_counted() -> None:
    guard = KeyGuard(line=200, lines_a_second=20)
    assert guard.keys_in("an\ufffd\ufffdn\r", 0.0) == "ann\r"
    assert guard.undecodable == 2


# --- a store shared with other servers ----------------------------------------------------


def test_a_shared_store_that_cannot_be_reached_or_named_is_one_line(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("psycopg")
    nowhere = f"postgresql://ann:secret@/club?host={tmp_path / 'nothing'}&port=1"
    base = ("serve", "--open", "--port", "0", "--data-dir", str(tmp_path))
    for refused in (
        cribbage(*base, "--store", nowhere),
        cribbage(*base, "--store", nowhere, "--rebuild-ratings"),
    ):
        assert refused.status == 1 and refused.out == ""
        assert refused.err.count("\n") == 1 and "cannot reach the club's store" in refused.err
        assert "secret" not in refused.err  # (never the password)
    monkeypatch.setenv("CRIBBAGE_STORE", nowhere)  # the address from the environment
    assert "cannot reach the club's store" in cribbage(*base).err
    monkeypatch.delenv("CRIBBAGE_STORE")
    for wrong in ("mysql://ann@db/club", "club.db", "postgresql://a\x1b[2J"):
        refused = cribbage(*base, "--store", wrong)
        assert refused.status == 2 and "give the store as postgresql://" in refused.err
        assert "\x1b" not in refused.err


def test_without_psycopg_a_shared_store_says_how_to_get_it(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    refused = cribbage(
        "serve", "--open", "--data-dir", str(tmp_path), "--store", "postgresql://ann@db/club"
    )
    assert refused.status == 1
    assert refused.err.strip().endswith("pip install 'cribcli[postgres]'")


def test_a_store_of_the_first_version_is_migrated_with_what_it_holds(tmp_path: Path) -> None:
    """A ``club.db`` an older cribbage made (schema version 1) is brought to this version
    as the server opens it: its accounts and ratings kept, the new columns there."""
    from cribcli.club.database import SCHEMA_1
    from tests.test_club import game_text

    store = tmp_path / "club.db"
    old = sqlite3.connect(store)
    old.executescript(SCHEMA_1)
    old.execute(
        "INSERT INTO accounts (person, name, key, first_seen, last_seen) VALUES "
        "('ann', 'Ann', 'SHA256:a', '2026-01-01T00:00:00+00:00', '2026-01-02T00:00:00+00:00')"
    )
    old.execute("PRAGMA user_version=1")
    old.commit()
    old.close()
    club = Club(store)
    account = club.account("ann")
    assert account is not None and account.key == "SHA256:a"
    text = game_text(4)
    assert club.rate(loads(text), digest_of(text), None, text)["ann"].games == 1
    club.close()
    raw = sqlite3.connect(store)
    assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    assert raw.execute("SELECT log FROM games").fetchall() == [(None,)]  # (kept by files)
    columns = {row[1] for row in raw.execute("PRAGMA table_info(adjourned)")}
    assert {"home", "log", "setup"} <= columns
    raw.close()
