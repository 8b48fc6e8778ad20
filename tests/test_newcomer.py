"""What a newcomer trips on (issue 47), each at the level that owns it: the served room's
words and talk, the seed told after the game's end, and the first screen of ``play``."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from cribcli.club.lobby import TableSetup
from cribcli.ui.serve import visitor as visitor_module
from cribcli.ui.serve.person import Person
from tests.test_room import Connected, room_at


def test_a_player_and_a_watcher_of_a_running_game_tell_each_other_nothing_either_way(
    tmp_path: Path,
) -> None:
    room = room_at(tmp_path)
    table = room.lobby.open_table("ann", TableSetup(), room.games.saver)
    table.sit("bob")
    room.games.start(table)

    room.visitors.append(SimpleNamespace(name="eve", watched=table, table=None))
    assert room.kept_apart("eve", "ann") == (
        "ann plays at the table you watch: not while the game runs"
    )
    assert room.kept_apart("ann", "eve") == "eve watches your game: not while it runs"
    assert room.kept_apart("ann", "bob") is not None  # (players: `say` at the table)
    assert room.kept_apart("eve", "dan") is None


def test_the_lobby_s_reading_words_are_understood_at_a_table_and_by_a_watcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    monkeypatch.setattr(visitor_module, "say", said.append)

    async def main() -> None:
        room = room_at(tmp_path)
        ann = Person(room, Connected("ann"))
        eve = Person(room, Connected("eve"))
        room.visitors += [ann, eve]
        assert await ann._line("solo")
        assert ann.seated is not None
        for word, shown in (
            ("top", r"Nobody is rated yet"),
            ("tables", r"Here: ann, eve\."),
            ("stats", r"No finished games yet"),
        ):
            said.clear()
            assert await ann._line(word)
            assert any(re.search(shown, line) for line in said), (word, said)
            assert not any("is not a card" in line for line in said), said
        said.clear()
        assert await ann._line("help")
        for word in ("tables", "top", "stats"):
            assert any(re.match(rf"  {word} ", line) for line in said), (word, said)
        assert await eve._line("watch 1") is True
        said.clear()
        assert await eve._line("top")
        assert any("Nobody is rated yet" in line for line in said), said

    asyncio.run(main())


def test_the_lobby_hears_a_table_open_and_the_waiting_player_hears_who_sits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(visitor_module, "say", lambda line: None)

    async def main() -> None:
        room = room_at(tmp_path)
        ann, bob, eve = (Person(room, Connected(name)) for name in ("ann", "bob", "eve"))
        room.visitors += [ann, bob, eve]
        assert await ann._line("new 2")
        assert (
            eve._outbox
            == bob._outbox
            == ["  ann opens table 1 (2 seats, to 121): `join 1` sits there, `watch 1` watches it."]
        )
        assert ann._outbox == []
        eve._outbox.clear()
        assert await bob._line("join 1")
        assert "  bob sits down." in ann._outbox
        assert eve._outbox == ["  bob sits at table 1; its game begins."]

    asyncio.run(main())
