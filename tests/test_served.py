"""A served room's games on disk, without sockets: a table's game saved as it goes,
carried on when the server starts again (everyone away), and filed at its end for each
person who played it; a save that is not a game is set aside and its number kept."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from cribcli.club.database import Club
from cribcli.club.lobby import Lobby, TableSetup
from cribcli.club.served import ServedGames
from cribcli.players import Level
from cribcli.players.easy import EasyPlayer
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.session import Session, decide
from cribcli.record.store import Places
from cribcli.review.history import history_of

told: list[str] = []


def room(root: Path) -> ServedGames:
    lobby = Lobby(table_limit=4)
    return ServedGames(root, lobby, lambda number: told.append, Club(root / "club.db"))


def play(session: Session, seat: int, moves: int | None = None) -> None:
    """The person at ``seat`` plays as the easy computer would (the computers answer),
    ``moves`` of theirs, or to the end."""
    person = EasyPlayer(session.info.seed, seat)
    made = 0
    while not session.over and (moves is None or made < moves):
        if session.computer_step() is not None:
            continue
        session.act(decide(session.state, person, seat))
        made += 1


def test_a_table_is_carried_on_and_filed_for_its_people(tmp_path: Path) -> None:
    games = room(tmp_path)
    table = games.lobby.open_table(
        "ann", TableSetup(short=True, computers=1, away=90.0, level=Level.EASY), games.saver
    )
    session = games.start(table)
    play(session, 0, moves=3)
    saved = tmp_path / "tables" / f"table-{table.number}.toml"
    assert replay(loads(saved.read_text(encoding="utf-8"))).actions == session.actions
    # the server stops and starts again: the table is back as it was, ann away
    again = room(tmp_path)
    carried, problems = again.carry_on()
    assert problems == [] and [t.number for t in carried] == [table.number]
    back = carried[0]
    assert back.session is not None and back.session.actions == session.actions
    assert back.away == {0: 0.0} and back.setup.away == 90.0 and back.setup.level == "easy"
    assert 1 in back.session.computers  # its computer plays on
    back.sit("ann")
    play(back.session, 0)
    assert back.session.over
    assert again.finish(back) == {}
    (log,) = (tmp_path / "players" / "ann" / "games").glob("*-table-1.toml")
    assert replay(loads(log.read_text(encoding="utf-8"))).finished
    assert not saved.exists() and table.number not in again.lobby.tables
    history = history_of(
        Places.find(str(tmp_path / "players" / "ann")), since="", today="", warn=print
    )
    assert history.games == 1


def test_a_save_that_is_not_a_game_is_set_aside_and_its_number_kept(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "table-3.toml").write_text("not a game [[[", encoding="utf-8")
    games = room(tmp_path)
    carried, problems = games.carry_on()
    assert carried == [] and len(problems) == 1
    assert problems[0].startswith("table 3 could not be carried on (not a game log")
    assert list(folder.glob("table-3.toml.broken-*"))
    assert 3 in games.lobby.reserved  # a new table never writes over it
    numbers = [
        games.lobby.open_table(name, TableSetup(), games.saver).number
        for name in ("a1", "b2", "c3")
    ]
    assert numbers == [1, 2, 4]


def test_a_table_nobody_sits_at_is_not_carried_on(tmp_path: Path) -> None:
    games = room(tmp_path)
    table = games.lobby.open_table("ann", TableSetup(computers=1), games.saver)
    games.start(table)
    saved = tmp_path / "tables" / "table-1.toml"
    text = saved.read_text(encoding="utf-8")
    saved.write_text(
        text.replace('player = "human"', 'player = "computer", level = "easy"'), encoding="utf-8"
    )
    carried, problems = room(tmp_path).carry_on()
    assert carried == [] and problems[0].startswith(
        "table 1 could not be carried on (no person sits at it)"
    )


def test_a_seat_taken_back_while_the_computer_waits_to_play_is_left_to_its_person(
    tmp_path: Path,
) -> None:
    """The computer pauses before each move so people can follow; a person who sits
    down again meanwhile plays their own seat, and the table's computer steps back."""
    import asyncio

    from cribcli.ui.serve.room import Room, ServeOptions

    async def main() -> None:
        room = Room(ServeOptions(root=tmp_path, pace=0.2))
        try:
            table = room.lobby.open_table("ann", TableSetup(away=0.0), room.games.saver)
            table.sit("bob")
            session = room.games.start(table)
            bob = next(seat for seat in (0, 1) if session.info.seats[seat].name == "bob")
            table.stand("bob", 0.0)
            table.take_over(bob)  # the computer plays bob's seat: its discard is due
            heard: list[str] = []
            ann = SimpleNamespace(table=table, watched=None, tell=heard.extend, wake=lambda: None)
            room.came(ann)  # (ann, as the room sees her)
            room.drive(table.number)
            await asyncio.sleep(0)  # the driver is in its pause
            table.give_back(bob)
            await asyncio.wait_for(room.drivers[table.number], 60)  # (a ceiling: a hang)
            assert heard == []  # not "the computer could not play"
            assert not any(action.seat == bob for action in session.actions)
        finally:
            await room.elsewhere.close()

    asyncio.run(main())
