"""The served room without sockets: who the door lets in (keys, names, how many), and
what the lobby says to a person who types something it cannot do. The same through a
real SSH client is in ``test_serve.py`` (slow)."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cribcli.ui.serve import visitor as visitor_module
from cribcli.ui.serve.person import Person
from cribcli.ui.serve.room import Limits, Room, ServeOptions
from cribcli.ui.serve.ssh import TRIES, Door, Gate


@dataclass
class Key:
    """A client's public key, as the door sees it: its fingerprint."""

    fingerprint: str

    def get_fingerprint(self) -> str:
        return self.fingerprint


@dataclass
class Link:
    """A connection as the door sees it: where from, and whether it was turned away."""

    peer: tuple[str, int] = ("127.0.0.1", 50000)
    refused: list[str] = field(default_factory=list)

    def get_extra_info(self, name: str) -> object:
        return self.peer if name == "peername" else None

    def disconnect(self, code: int, reason: str) -> None:
        self.refused.append(reason)

    def close(self) -> None:
        self.refused.append("closed")


def room_at(
    root: Path,
    *,
    open_door: bool = False,
    limits: Limits | None = None,
    store: str | None = None,
) -> Room:
    options = ServeOptions(
        root=root, port=0, open=open_door, limits=limits or Limits(), store=store
    )
    return Room(options)


async def knock(room: Room, door: Door, name: str, key: Key, *, hold: bool = True) -> Gate:
    """A connection that logs in as ``name`` with ``key`` (let in or not: see ``authed``);
    its name's key written down before it returns, unless not ``hold``."""
    gate = Gate(room, door)
    gate.connection_made(Link())  # type: ignore[arg-type]
    gate.begin_auth(name)
    # asked twice, as asyncssh asks: is the key acceptable, then with its signature
    if await gate.validate_public_key(name, key) and await gate.validate_public_key(name, key):  # type: ignore[arg-type]
        gate.auth_completed()
    if hold and gate.holding is not None:
        await gate.holding
    return gate


def test_only_known_keys_come_in_under_their_own_names(tmp_path: Path) -> None:
    async def main() -> None:
        room = room_at(tmp_path)
        door = Door({"SHA256:ann": "ann"})
        came = await knock(room, door, "whoever", Key("SHA256:ann"))
        assert came.authed and came.name == "ann"  # the key's name, not the one asked for
        stranger = await knock(room, door, "ann", Key("SHA256:bob"))
        assert not stranger.authed and stranger.refused == "key"
        # a terminal to play at, and nothing else: no forwarding either way
        assert not any(
            ask()
            for ask in (
                came.connection_requested,
                came.server_requested,
                came.unix_connection_requested,
                came.unix_server_requested,
            )
        )

    asyncio.run(main())


def test_open_door_names_keep_their_first_key(tmp_path: Path) -> None:
    async def main() -> None:
        room = room_at(tmp_path, open_door=True)
        door = Door({})
        assert (await knock(room, door, "ann", Key("SHA256:ann"))).authed
        assert not (await knock(room, door, "ann", Key("SHA256:bob"))).authed  # ann's key is ann's
        for name in ("../etc", "a b", "You"):
            assert not (await knock(room, door, name, Key("SHA256:cat"))).authed, name
        assert (await knock(room, door, "ann", Key("SHA256:ann"))).authed

    asyncio.run(main())
    assert sorted(p.name for p in (tmp_path / "players").iterdir()) == ["ann"]


def test_a_name_has_so_many_connections_and_the_room_so_many(tmp_path: Path) -> None:
    async def main() -> None:
        room = room_at(tmp_path, limits=Limits(connections=3, per_key=2))
        door = Door({"SHA256:ann": "ann", "SHA256:bob": "bob"})
        first = await knock(room, door, "ann", Key("SHA256:ann"))
        second = await knock(room, door, "ann", Key("SHA256:ann"))
        assert first.authed and second.authed
        third = await knock(room, door, "ann", Key("SHA256:ann"))
        assert not third.authed and third.refused == "many"
        assert (await knock(room, door, "bob", Key("SHA256:bob"))).authed  # three: the room is full
        late = await knock(room, door, "bob", Key("SHA256:bob"))
        assert not late.authed
        assert isinstance(late.conn, Link) and late.conn.refused == ["the room is full"]
        first.connection_lost(None)  # one goes: one more may come
        assert door.connections == 2 and door.starting.total() == 1  # (third, at the door)
        assert (await knock(room, door, "ann", Key("SHA256:ann"))).authed

    asyncio.run(main())


@dataclass
class Connected:
    """A terminal as a visitor needs one, with nothing behind it."""

    name: str
    last_input: float = field(default_factory=time.monotonic)
    closed: str | None = None

    def columns(self) -> int:
        return 80

    def close(self, why: str) -> None:
        self.closed = why


def test_what_a_person_types_wrong_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    monkeypatch.setattr(visitor_module, "say", said.append)

    async def main() -> None:
        room = room_at(tmp_path)
        ann = Person(room, Connected("ann"))
        room.came(ann)
        for line, says in (
            ("join ²", r"join a table by its number, e\.g\. `join 2`"),
            ("join 9", r"there is no table 9"),
            ("new computers ²", r"`computers` is not something a table has"),
            ("new 2 away -1", r"`away` is not something a table has"),
            ("dance", r"`dance` is not a lobby command: `help` lists them"),
            ("solo 11", r"solo LEVEL: 1 to 10, or easy \(1\), normal \(9\), hard \(10\)\."),
            ("x" * 201, r"a line is at most 200 characters"),
            ("stats", r"No finished games yet: `solo` plays the computer, `new` opens"),
        ):
            said.clear()
            assert await ann._line(line)  # still in the room
            told = [s for s in said if not s.startswith("    ")]  # (a long one wrapped)
            assert len(told) == 1 and re.search(says, " ".join(said)), (line, said)
        said.clear()
        await ann._line("help")
        for word in ("new", "solo", "join", "tables", "leave", "stats", "help", "quit"):
            assert any(re.match(rf"  {word}\b", line) for line in said), word
        assert not await ann._line("quit")

    asyncio.run(main())


def test_a_busy_lobby_names_some_and_counts_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Arriving in a room of hundreds shows a screenful, not everyone; `tables all`
    lists every one."""
    from cribcli.club.lobby import TableSetup
    from cribcli.ui.serve.visitor import LOBBY_PEOPLE, LOBBY_TABLES

    said: list[str] = []
    monkeypatch.setattr(visitor_module, "say", said.append)

    async def main() -> None:
        room = room_at(tmp_path, limits=Limits(tables=LOBBY_TABLES + 10))
        people = [Person(room, Connected(f"p{n:03}")) for n in range(LOBBY_PEOPLE + 5)]
        for someone in people:
            room.came(someone)
        for number in range(LOBBY_TABLES + 3):  # all begun but the last: it waits first
            table = room.lobby.open_table(f"p{number:03}", TableSetup(), room.games.saver)
            if number < LOBBY_TABLES + 2:
                table.sit(f"p{number + 100:03}")
                room.games.start(table)
        people[0].show_lobby()
        text = " ".join(line.strip() for line in said)  # (long lines are wrapped)
        here = text[: text.index("Table ")]
        assert here.startswith("Here: p000, p001,") and here.count(", ") == LOBBY_PEOPLE
        assert here.endswith("p039, and 5 more (`tables all` lists everyone). ")
        assert len(re.findall(r"Table \d+: ", text)) == LOBBY_TABLES
        assert re.search(rf"Table {LOBBY_TABLES + 3}: p{LOBBY_TABLES + 2:03}, - ", text)
        assert text.endswith("and 3 more tables playing (`tables all` lists them)")
        said.clear()
        assert await people[0]._line("tables all")
        text = " ".join(line.strip() for line in said)
        assert "more" not in text and "p044" in text
        assert len(re.findall(r"Table \d+: ", text)) == LOBBY_TABLES + 3

    asyncio.run(main())


def test_watching_and_talking_say_what_they_cannot_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    monkeypatch.setattr(visitor_module, "say", said.append)

    async def main() -> None:
        room = room_at(tmp_path)
        ann = Person(room, Connected("ann"))
        eve = Person(room, Connected("eve", time.monotonic() - 300))
        for someone in [ann, eve]:
            room.came(someone)
        assert await ann._line("new 2 private")
        for line, says in (
            ("watch 1", r"table 1 is private: nobody watches it"),
            ("watch 7", r"there is no table 7"),
            ("watch me", r"watch a table by its number, e\.g\. `watch 2`"),
            ("tell zed hi", r"nobody called `zed` is here"),
            ("tell eve", r"what to say: `tell NAME TEXT`"),
            ("mute ../x", r"mute a person by their name"),
        ):
            said.clear()
            assert await eve._line(line)
            told = [s for s in said if not s.startswith("    ")]  # (a long one wrapped)
            assert len(told) == 1 and re.search(says, " ".join(said)), (line, said)
        said.clear()
        await ann._line("tables")  # eve typed nothing for five minutes
        assert re.search(r"Here: ann, eve \(idle 5m\)\.", said[0]), said
        assert re.search(r"Table 1: ann, - \(2 seats, to 121, private\)", said[1]), said
        for _ in range(5):  # a few at once, then a pause
            assert await eve._line("say hello")
        said.clear()
        assert await eve._line("say hello again")
        assert said == ["  you talk faster than anyone can read: wait a moment"]
        said.clear()
        await eve._line("mute ANN")
        await eve._line("mute")
        assert said[-1] == "  muted: ann"
        assert room.muted("eve", "Ann") and not room.muted("ann", "eve")

    asyncio.run(main())


def test_connections_waiting_to_log_in_have_places_of_their_own(tmp_path: Path) -> None:
    """Silent sockets cannot take the people's places: those not logged in have their
    own, a few from each address, dropped at random past the first few (more often as
    they grow) and all past the most."""

    async def main() -> None:
        limits = Limits(connections=2, starting=3, starting_full=6, starting_per_address=4)
        room = room_at(tmp_path, limits=limits)
        draws = iter([0.99, 0.99, 0.0, 0.99, 0.99])
        door = Door({"SHA256:ann": "ann"}, chance=lambda: next(draws))
        silent = [Link(("10.0.0.1", port)) for port in range(5)]
        for link in silent:
            Gate(room, door).connection_made(link)  # type: ignore[arg-type]
        # four from one address, the fifth refused (no draw needed)
        assert [bool(link.refused) for link in silent] == [False] * 4 + [True]
        others = [Link(("10.0.0.2", port)) for port in range(3)]
        for link in others:
            Gate(room, door).connection_made(link)  # type: ignore[arg-type]
        # past three waiting: the draws decide (0.99 kept, 0.0 dropped), then full at six
        assert [bool(link.refused) for link in others] == [False, True, False]
        assert door.starting.total() == 6
        full = Link(("10.0.0.3", 1))
        Gate(room, door).connection_made(full)  # type: ignore[arg-type]
        assert full.refused == ["too many connections waiting to log in"]
        assert door.connections == 0  # none of them holds a person's place
        ann = Gate(room, door)  # ann logs in all the same, once a waiting one goes
        waiting = next(g for g in door.gates if g.starting)
        waiting.connection_lost(None)
        ann.connection_made(Link(("10.0.0.4", 1)))  # type: ignore[arg-type]
        ann.begin_auth("ann")
        assert await ann.validate_public_key("ann", Key("SHA256:ann"))  # type: ignore[arg-type]
        ann.auth_completed()
        assert ann.authed and door.connections == 1 and door.starting.total() == 5

    asyncio.run(main())


def test_logins_in_parallel_count_against_a_name_s_connections(tmp_path: Path) -> None:
    async def main() -> None:
        room = room_at(tmp_path, limits=Limits(per_key=1))
        door = Door({"SHA256:ann": "ann"})
        first, second = Gate(room, door), Gate(room, door)
        for gate in (first, second):
            gate.connection_made(Link())  # type: ignore[arg-type]
            gate.begin_auth("ann")
        assert await first.validate_public_key("ann", Key("SHA256:ann"))  # type: ignore[arg-type]
        # the first is let in but not yet logged in: the second is one too many
        assert not await second.validate_public_key("ann", Key("SHA256:ann"))  # type: ignore[arg-type]
        assert second.refused == "many"
        assert await first.validate_public_key("ann", Key("SHA256:ann"))  # type: ignore[arg-type]

    asyncio.run(main())


def test_new_names_given_in_parallel_count_at_once(tmp_path: Path) -> None:
    async def main() -> None:
        room = room_at(tmp_path, open_door=True, limits=Limits(new_names_per_hour=1))
        door = Door({})
        first, second = Gate(room, door), Gate(room, door)
        for gate, name in ((first, "a1"), (second, "a2")):
            gate.connection_made(Link())  # type: ignore[arg-type]
            gate.begin_auth(name)
        assert await first.validate_public_key("a1", Key("SHA256:1"))  # type: ignore[arg-type]
        assert await first.validate_public_key("a1", Key("SHA256:1"))  # type: ignore[arg-type]
        assert not await second.validate_public_key("a2", Key("SHA256:2"))  # type: ignore[arg-type]
        assert second.refused == "names" and door.names == 1

    asyncio.run(main())


def test_a_client_that_tries_key_after_key_is_cut_off(tmp_path: Path) -> None:
    async def main() -> None:
        room = room_at(tmp_path)
        door = Door({"SHA256:ann": "ann"})
        gate = Gate(room, door)
        link = Link()
        gate.connection_made(link)  # type: ignore[arg-type]
        gate.begin_auth("ann")
        for n in range(TRIES - 1):
            assert not await gate.validate_public_key("ann", Key(f"SHA256:{n}"))  # type: ignore[arg-type]
        assert link.refused == []  # as many as a person's agent might hold: still in
        assert not await gate.validate_public_key("ann", Key("SHA256:last"))  # type: ignore[arg-type]
        assert link.refused == ["too many tries"]

    asyncio.run(main())


def test_a_new_name_is_held_by_the_first_key_even_before_it_is_written(tmp_path: Path) -> None:
    """Two clients give the same new name at once: the first logged in holds it while
    its key is being written down; the other is turned away."""

    async def main() -> None:
        room = room_at(tmp_path, open_door=True)
        door = Door({})
        ann = await knock(room, door, "ann", Key("SHA256:ann"), hold=False)
        assert ann.authed and ann.holding is not None and not ann.holding.done()
        assert not (await knock(room, door, "ann", Key("SHA256:eve"))).authed
        await ann.holding
        assert not (await knock(room, door, "ANN", Key("SHA256:eve"))).authed
        assert (await knock(room, door, "ann", Key("SHA256:ann"))).authed

    asyncio.run(main())
    assert (tmp_path / "players" / "ann").is_dir()


def test_a_name_is_one_person_whatever_its_case(tmp_path: Path) -> None:
    async def main() -> None:
        room = room_at(tmp_path, open_door=True)
        door = Door({})
        first = await knock(room, door, "Ann", Key("SHA256:ann"))
        assert first.authed and first.name == "Ann"
        again = await knock(room, door, "ANN", Key("SHA256:ann"))
        assert again.authed and again.name == "Ann"  # shown as first written
        assert not (await knock(room, door, "ann", Key("SHA256:bob"))).authed  # Ann's key is Ann's

    asyncio.run(main())
    assert [p.name for p in (tmp_path / "players").iterdir()] == ["ann"]


def test_new_names_are_few_from_one_place_and_in_all(tmp_path: Path) -> None:
    async def main() -> None:
        limits = Limits(new_names_per_hour=2, names=3)
        room = room_at(tmp_path, open_door=True, limits=limits)
        door = Door({})
        assert (await knock(room, door, "a1", Key("SHA256:1"))).authed
        assert (await knock(room, door, "a2", Key("SHA256:2"))).authed
        refused = await knock(room, door, "a3", Key("SHA256:3"))
        assert not refused.authed and refused.refused == "names"  # two an hour from here
        assert (await knock(room, door, "a1", Key("SHA256:1"))).authed  # known names come in
        door.named.clear()  # an hour later
        assert (await knock(room, door, "a3", Key("SHA256:3"))).authed
        door.named.clear()
        full = await knock(room, door, "a4", Key("SHA256:4"))
        assert not full.authed and full.refused == "names"  # three names in all

    asyncio.run(main())


def test_a_name_that_never_finished_a_game_is_forgotten(tmp_path: Path) -> None:
    from cribcli.club.served import seen_now

    room = room_at(tmp_path, open_door=True)
    games, club = room.games, room.club
    month = 31 * 86_400.0
    for name, seen in (("old", 1_000.0), ("recent", 1_000.0 + month), ("player", 1_000.0)):
        assert club.arrive(name, f"SHA256:{name}", seen_now(seen), claim=True) == "new"
        games.places(name)
    (games.places("player").games / "game.toml").parent.mkdir()
    (games.places("player").games / "game.toml").write_text("", encoding="utf-8")
    assert games.forget(30 * 86_400.0, 1_000.0 + month) == ["old"]
    assert sorted(p.name for p in games.players_folder.iterdir()) == ["player", "recent"]
    assert club.account("old") is None and games.names() == 2
    assert club.arrive("old", "SHA256:another", seen_now(), claim=True) == "new"  # free


def test_a_name_is_held_by_its_first_key_and_seen_at_each_arrival(tmp_path: Path) -> None:
    room = room_at(tmp_path, open_door=True)
    club = room.club
    assert club.arrive("Ann", "SHA256:a", "2026-12-01T10:00:00+00:00", claim=True) == "new"
    assert club.arrive("ANN", "SHA256:b", "2026-12-02T10:00:00+00:00", claim=True) == "taken"
    assert club.arrive("ann", "SHA256:a", "2026-12-03T10:00:00+00:00", claim=True) == "known"
    account = club.account("aNN")
    assert account is not None
    assert (account.name, account.key) == ("Ann", "SHA256:a")  # as first written
    assert (account.first_seen, account.last_seen)[0] == "2026-12-01T10:00:00+00:00"
    assert account.last_seen == "2026-12-03T10:00:00+00:00"  # (not by the other key)
    assert room.games.known_as("ANN") == "Ann"
    # Under --authorized-keys, the file says whose a key is: the account keeps no key.
    assert club.arrive("bob", "SHA256:b", "2026-12-01T10:00:00+00:00", claim=False) == "known"
    bob = club.account("bob")
    assert bob is not None and bob.key is None


def test_keys_an_older_server_kept_in_folders_become_accounts(tmp_path: Path) -> None:
    import os

    room = room_at(tmp_path, open_door=True)
    games = room.games
    (games.players_folder / "Ann").mkdir(parents=True)
    (games.players_folder / "Ann" / "key").write_text("SHA256:ann\n", encoding="utf-8")
    (games.players_folder / "Ann" / "settings.toml").write_text('name = "Ann"\n', encoding="utf-8")
    os.utime(games.players_folder / "Ann" / "key", (1_000.0, 1_000.0))
    (games.players_folder / "Bob").mkdir()
    (games.players_folder / "bob").mkdir()
    problems = games.fold_names()
    assert sorted(p.name for p in games.players_folder.iterdir()) == ["Bob", "ann", "bob"]
    assert len(problems) == 1 and "bob keeps it" in problems[0]
    assert games.settle_accounts() == (1, 0)
    assert games.settle_accounts() == (0, 0)  # once
    assert (games.players_folder / "ann" / "key").exists()  # kept: the folder holds it too
    account = room.club.account("ANN")
    assert account is not None and account.key == "SHA256:ann" and account.name == "Ann"
    assert account.last_seen == "1970-01-01T00:16:40+00:00"  # the key file's time
    later = 1_000.0 + 31 * 86_400.0
    assert games.forget(30 * 86_400.0, later, keep=frozenset({"ann"})) == []  # seated
    (games.players_folder / "ann" / "odd").mkdir()
    assert games.forget(30 * 86_400.0, later) == []  # not only plain files: kept


def test_addresses_count_as_their_networks() -> None:
    from cribcli.ui.serve.ssh import address_key

    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"  # the same machine, mapped
    one, other = address_key("2001:db8:1:2::1"), address_key("2001:db8:1:2:ffff::9")
    assert one == other == "2001:db8:1:2::/64"  # one network: one place
    assert address_key("2001:db8:1:3::1") != one
    assert address_key("?") == "?"


def test_the_line_itself_never_grows_past_the_longest(tmp_path: Path) -> None:
    """However the line was made (a paste with newlines, Ctrl-A then Ctrl-U, a search),
    the editor's text is cut at the longest line."""
    from prompt_toolkit.buffer import Buffer

    async def main() -> None:
        ann = Person(room_at(tmp_path), Connected("ann"))
        buffer = Buffer()
        buffer.on_text_changed += ann._within_line
        buffer.insert_text("x" * 150)
        buffer.insert_text("y\n" * 100)  # as a bracketed paste puts it in
        assert len(buffer.text) == 200 and buffer.cursor_position == 200

    asyncio.run(main())


def _game_at_table(room: Room) -> int:
    """A game between ann and bob begun at a table of the room: its number."""
    from cribcli.club.lobby import TableSetup

    table = room.lobby.open_table("ann", TableSetup(), room.games.saver)
    table.sit("bob")
    room.games.start(table)
    return table.number


@pytest.mark.parametrize(
    "killed", ["before the index", "after the index", "resuming", "an older server's"]
)
def test_an_adjourned_game_is_one_game_wherever_the_server_was_killed(
    tmp_path: Path, killed: str
) -> None:
    """Adjourning copies the game's files, notes it in the club's index, then drops the
    table's save; resuming moves the files back, then drops the index's note. A server
    killed between any two steps starts again with the game in one place only."""
    import shutil

    room = room_at(tmp_path)
    number = _game_at_table(room)
    seed = str(room.lobby.tables[number].session.info.seed)  # type: ignore[union-attr]
    saved = tmp_path / "tables" / f"table-{number}.toml"
    kept = saved.read_text(encoding="utf-8")
    key = room.games.adjourn(room.lobby.tables[number])
    (game,) = room.games.adjourned("ANN")
    assert (game.key, game.seed, game.names, game.people) == (
        key,
        seed,
        ("ann", "bob"),
        ("ann", "bob"),
    )
    assert room.games.adjourned("bob") == [game] and room.games.adjourned("cat") == []
    assert not saved.exists() and number not in room.lobby.tables
    if killed == "before the index":  # the copy written, the table's save still there
        room.club.resumed(key)
        saved.write_text(kept, encoding="utf-8")
    elif killed == "after the index":  # noted, the table's save not yet dropped
        saved.write_text(kept, encoding="utf-8")
    elif killed == "an older server's":  # adjourned before the index was kept
        room.club.resumed(key)
    else:  # the files moved back to a table, the index's note not yet dropped
        shutil.move(tmp_path / "adjourned" / f"{key}.toml", saved)
    room.club.close()
    again = room_at(tmp_path)
    carried, problems = again.games.carry_on()
    indexed = "the club's adjourned games: 1 indexed again from their files"
    assert [line[: len(indexed)] for line in problems] == (
        [indexed] if killed == "an older server's" else []
    )
    adjourned = again.games.adjourned("ann")
    files = list((tmp_path / "adjourned").glob("*.toml"))
    if killed in ("after the index", "an older server's"):
        assert carried == [] and [g.key for g in adjourned] == [key] and len(files) == 1
        assert not saved.exists()
    else:
        assert [t.number for t in carried] == [number] and adjourned == [] and files == []
        assert str(carried[0].session.info.seed) == seed  # type: ignore[union-attr]


def test_a_move_wakes_the_people_at_its_table_only_and_the_index_follows_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Who sits at and watches each table is kept as they come, sit, watch, stand and
    go: a move wakes them, and nobody else in the room is looked at."""
    monkeypatch.setattr(visitor_module, "say", lambda line: None)

    async def main() -> None:
        room = room_at(tmp_path)
        ann, bob, eve, dan = (Person(room, Connected(n)) for n in ("ann", "bob", "eve", "dan"))
        for someone in (ann, bob, eve, dan):
            room.came(someone)
        await ann._line("new 2 61")
        table = room.lobby.tables[1]
        await bob._line("join 1")
        await eve._line("watch 1")
        assert room.at(table) == [ann, bob] and room.watching(table) == [eve]
        woken: list[str] = []
        for someone in (ann, bob, eve, dan):
            monkeypatch.setattr(someone, "wake", lambda n=someone.name: woken.append(n))
        room.changed(table)
        assert sorted(woken) == ["ann", "bob", "eve"]
        room.went(eve)  # eve's connection goes: out of the index with her
        assert room.watching(table) == [] and room.at(table) == [ann, bob]
        bob.unseat()
        assert room.at(table) == [ann]
        room.went(ann)
        room.went(bob)
        room.went(dan)
        assert room.around == {} and room.here == set()
        for task in list(room.drivers.values()):
            task.cancel()

    asyncio.run(main())
