"""The served room without sockets: tables, seats, people away, the computer taking a
seat over and giving it back, and what a table is asked for (`new ...`)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable

import pytest

from cribcli.club.lobby import (
    AWAY,
    GameOutcome,
    Lobby,
    ServedTable,
    TableSetup,
    parse_setup,
    player_name,
)
from cribcli.players import Level, computer
from cribcli.record.log import match_text
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.session import Session, decide
from cribcli.rules.engine import Discard, seats_to_act
from cribcli.rules.errors import CribbageError


def no_save(number: int) -> Callable[[str], None]:
    """A table's save that keeps nothing."""
    return lambda text: None


def throw_first_two(session: Session, seat: int) -> None:
    """The seat puts its two lowest cards in the crib."""
    session.act(Discard(seat, tuple(sorted(session.state.hands[seat])[:2])))


@pytest.mark.parametrize(
    ("words", "setup"),
    [
        ("", TableSetup()),
        ("4 61 computers 2 hard", TableSetup(4, True, False, 2, Level.HARD)),
        ("3 muggins", TableSetup(3, muggins=True)),
        ("2 121 computer 1 easy away 5", TableSetup(2, False, False, 1, Level.EASY, 300.0)),
        ("short away 0.5", TableSetup(short=True, away=30.0)),
        ("2 level 5 computers 1", TableSetup(2, computers=1, level=Level.FIVE)),
        ("level 10 3", TableSetup(3, level=Level.HARD)),
    ],
)
def test_a_table_as_asked_for(words: str, setup: TableSetup) -> None:
    assert parse_setup(words.split()) == setup


@pytest.mark.parametrize(
    ("words", "says"),
    [
        ("5", "`5` is not something a table has"),
        ("2 computers 2", "a table of 2 has 0 to 1 computers"),
        ("away -1", "`away` is not something a table has"),
        ("away 100000", "`away` is not something a table has"),  # over a day
        ("computers", "`computers` is not something a table has"),
        ("level 11", "`level` is not something a table has"),
    ],
)
def test_what_a_table_cannot_have(words: str, says: str) -> None:
    with pytest.raises(CribbageError, match=says):
        parse_setup(words.split())


def test_names_are_safe_and_not_the_table_s_own() -> None:
    assert player_name("ann_2") == "ann_2"
    for bad in ("../etc", "a b", "", "x" * 21, "-ann", "You", "computer", "ROBOT"):
        with pytest.raises(CribbageError):
            player_name(bad)


def test_seats_fill_and_the_game_begins_when_every_seat_is_taken() -> None:
    lobby = Lobby(table_limit=2)
    table = lobby.open_table("ann", parse_setup(["3", "computers", "1"]), no_save)
    assert table.number == 1 and table.open_seats() == 1 and not table.ready
    assert (
        table.describe(0.0)
        == "Table 1: ann, -, Computer (3 seats, to 121, 1 normal computer): 1 seat open"
    )
    assert table.sit("bob") == 1 and table.ready
    assert table.sit("bob") == 1  # the same seat again (a second connection)
    with pytest.raises(CribbageError, match="full"):
        table.sit("cat")
    with pytest.raises(CribbageError, match="you sit at table 1"):
        lobby.open_table("bob", TableSetup(), no_save)
    table.stand("bob", 0.0)  # before the game: the seat opens again
    assert table.open_seats() == 1 and not table.empty
    table.sit("cat")
    session = table.start(7, "2026-12-02T10:00:00+00:00")
    assert [spec.name for spec in session.info.seats] == ["ann", "cat", "Computer"]
    assert table.started and table.open_seats() == 0
    with pytest.raises(CribbageError, match="no seat is open"):
        table.sit("dan")
    assert lobby.table_of("cat") is table and lobby.table_of("dan") is None


def test_the_room_holds_as_many_tables_as_it_may_but_deserted_ones_wait() -> None:
    lobby = Lobby(table_limit=1)
    first = lobby.open_table("ann", TableSetup(computers=1), no_save)
    first.start(1, "")
    with pytest.raises(CribbageError, match="1 tables, as many as it may"):
        lobby.open_table("bob", TableSetup(), no_save)
    first.stand("ann", 5.0)  # everyone away: the table waits, saved, and counts for nothing
    assert first.deserted
    second = lobby.open_table("bob", TableSetup(), no_save)
    assert second.number == 2


def two_playing(away: float = AWAY) -> ServedTable:
    table = Lobby(4).open_table("ann", TableSetup(away=away), no_save)
    table.sit("bob")
    table.start(7, "")
    return table


def test_someone_away_keeps_the_seat_until_the_wait_is_over() -> None:
    table = two_playing(away=60.0)
    table.stand("bob", 100.0)
    assert table.away == {1: 100.0} and not table.deserted
    assert "away: bob" in table.describe(120.0)
    assert not table.can_take_over(1, 159.9)
    assert table.can_take_over(1, 160.0)
    assert not table.can_take_over(0, 1000.0)  # ann is here
    assert table.sit("bob") == 1 and table.away == {}  # back before anyone took the seat
    assert not table.can_take_over(1, 1000.0)


def test_the_computer_takes_a_seat_over_and_gives_it_back() -> None:
    saved: list[str] = []
    setup = TableSetup(away=0.0, level=Level.EASY)
    table = Lobby(4).open_table("ann", setup, lambda number: saved.append)
    table.sit("bob")
    session = table.start(7, "")
    throw_first_two(session, 1)  # bob throws
    table.stand("bob", 1.0)
    table.take_over(1)
    assert table.taken(1) and 1 in session.computers
    assert session.info.seats[1].taken == 1 and session.info.seats[1].level == "easy"
    assert not table.can_take_over(1, 99.0)  # once taken, taken
    assert "taken = 1" in saved[-1]  # the log says from when, at once
    throw_first_two(session, 0)
    table.sit("bob")
    table.give_back(1)
    assert not table.taken(1) and 1 not in session.computers
    spec = session.info.seats[1]
    assert (spec.taken, spec.returned) == (1, 2) and not spec.played_by_computer
    assert "returned = 2" in saved[-1]
    assert replay(loads(saved[-1])).log.info.seats[1].returned == 2  # a log replay reads
    # away again, and taken again: the log keeps the last takeover
    table.stand("bob", 5.0)
    table.take_over(1)
    assert (session.info.seats[1].taken, session.info.seats[1].returned) == (2, None)


def test_a_private_table_and_what_the_list_shows() -> None:
    setup = parse_setup(["2", "private"])
    assert setup.private and setup.describe() == "2 seats, to 121, private"
    table = ServedTable(1, "ann", setup, lambda text: None)
    line = table.describe(0.0, {"ann": 200.0}, watchers=2)
    assert line == "Table 1: ann (idle 3m), - (2 seats, to 121, private) [2 watching]: 1 seat open"
    fresh = table.describe(0.0, {"ann": 59.0})
    assert fresh == "Table 1: ann, - (2 seats, to 121, private): 1 seat open"
    assert "(idle 1h05m)" in table.describe(0.0, {"ann": 3900.0})


def play_to_the_end(table: ServedTable) -> None:
    """Every seat of the table's game played by the computer, to the end."""
    session = table.session
    assert session is not None
    while not session.over:
        seat = seats_to_act(session.state)[0]
        session.act(decide(session.state, computer("easy", 7, seat), seat))


def test_game_points_as_the_acc_counts_them() -> None:
    assert GameOutcome(0, (121, 95), ("", "")).game_points() == (2, 0)
    assert GameOutcome(1, (80, 121), ("skunk", "")).game_points() == (0, 3)
    assert GameOutcome(0, (121, 50), ("", "double skunk")).game_points() == (3, 0)
    assert GameOutcome(2, (100, 95, 121), ("", "", "")).game_points() == (0, 0, 2)


@pytest.mark.parametrize("words", ["best-of 3", "best-of-3"])
def test_a_match_is_asked_for(words: str) -> None:
    setup = parse_setup(["61", *words.split()])
    assert setup.best_of == 3 and setup.describe() == "2 seats, to 61, best of 3"
    with pytest.raises(CribbageError, match="`best-of` is not something a table has"):
        parse_setup(["best-of", "4"])


def test_a_match_goes_on_until_a_side_has_won_most_and_the_loser_deals_next() -> None:
    table = ServedTable(1, "ann", parse_setup(["61", "best-of", "3"]), lambda text: None)
    table.sit("bob")
    table.start(1, "2026-12-02T10:00:00")
    seed = 1
    while True:
        play_to_the_end(table)
        if table.over:
            break
        last = table.outcomes()[-1]
        seed += 1
        assert table.session is not None
        shown = table.session.state.past
        session = table.next_game(seed, "2026-12-02T10:00:00")
        assert session.info.earlier == shown[-24:] and session.state.past == shown[-24:]
        rules = session.info.rules
        assert not rules.cut_for_deal and rules.first_dealer == 1 - last.winner  # ACC 1.5
        assert session.state.dealer == 1 - last.winner
        game = len(table.finished) + 1
        assert session.info.label == f"served table 1, game {game} of a match, best of 3"
    outcomes = table.outcomes()
    wins = [sum(o.winner == side for o in outcomes) for side in (0, 1)]
    assert len(outcomes) in (2, 3) and max(wins) == 2 and min(wins) == len(outcomes) - 2
    points = [sum(o.game_points()[side] for o in outcomes) for side in (0, 1)]
    assert table.match_line() == (
        f"Match, best of 3: ann {wins[0]} (game points {points[0]}), "
        f"bob {wins[1]} (game points {points[1]})"
    )
    assert ServedTable(2, "cat", TableSetup(), lambda text: None).match_line() is None


def test_the_match_record_names_its_games_and_its_points() -> None:
    games = [GameOutcome(0, (121, 80), ("", "skunk")), GameOutcome(0, (121, 110), ("", ""))]
    text = match_text(3, ["ann", "bob"], games, ["g1.toml", "g2.toml"])
    doc = tomllib.loads(text)
    assert doc["best_of"] == 3 and doc["seats"] == ["ann", "bob"] and doc["winner"] == 0
    assert [g["log"] for g in doc["games"]] == ["g1.toml", "g2.toml"]
    assert doc["games"][0]["game_points"] == [3, 0] and doc["game_points"] == [5, 0]
    assert doc["wins"] == [2, 0]


def test_a_clock_is_asked_for_within_its_limits() -> None:
    setup = parse_setup(["clock", "60"])
    assert setup.clock == 60 and setup.describe() == "2 seats, to 121, clock 60 s"
    for seconds in ("5", "4000"):
        with pytest.raises(CribbageError, match="a clock gives each decision 10 to 3600"):
            parse_setup(["clock", seconds])


def test_a_move_made_for_someone_out_of_time_is_logged_as_such() -> None:
    saved: list[str] = []
    table = ServedTable(1, "ann", parse_setup(["61", "clock", "30"]), saved.append)
    table.sit("bob")
    session = table.start(3, "2026-12-02T10:00:00")
    first, other = table.waiting_for_people()  # both throw: from the dealer's left
    assert session.info.clock == 30 and {first, other} == {0, 1}
    table.deadline = 100.0
    names = ("ann", "bob")
    assert table.clock_line(58.5) == f"Clock: {names[first]}, {names[other]} 0:42"
    table.out_of_time(first, decide(session.state, computer("normal", 3, first), first))
    assert table.clock_line(58.5) == f"Clock: {names[other]} 0:42"
    throw_first_two(session, other)
    (to_lay,) = table.waiting_for_people()
    table.out_of_time(to_lay, decide(session.state, computer("easy", 3, to_lay), to_lay))
    log = loads(saved[-1])
    assert log.info.clock == 30 and log.info.timeouts == (1, 3)
    replayed = replay(log).state
    assert replayed is not None and replayed.round == 1
    broken = saved[-1].replace("timeouts = [\n    1,\n    3,\n]", "timeouts = [\n    1,\n    9,\n]")
    with pytest.raises(CribbageError, match="timeouts: action 9 was made for a person"):
        replay(loads(broken))
