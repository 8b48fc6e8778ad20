"""The club's store in PostgreSQL, shared by several servers (each its own folder, known by
its name in the store): the same accounts, keys, ratings and adjourned games whichever
server a person reaches; ratings the same as worked out again from every server's logs;
and nothing lost when the database or a server is killed. Against a real PostgreSQL
server (see :mod:`tests.postgres`): skipped, saying so, where there is none."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cribcli.club.database import (
    LISTENER,
    SCHEMA_VERSION,
    AdjournedGame,
    Club,
    Filed,
    digest_of,
)
from cribcli.club.served import catch_up, filed_logs, home_of, open_club, read_logs
from cribcli.record.reader import loads
from cribcli.record.store import StoreError
from cribcli.rules.errors import CribbageError
from tests.postgres import Server
from tests.test_club import file_games, game_text, killed_after

pytest.importorskip("openskill")

Opened = list[Club]


@pytest.fixture
def opened() -> Iterator[Opened]:
    """The stores a test opens, closed after it (add each one)."""
    clubs: Opened = []
    yield clubs
    for club in clubs:
        club.close()


def kept(clubs: Opened, *made: Club) -> Club:
    clubs.extend(made)
    return made[0]


def test_a_store_is_made_migrated_and_proved_once_for_several_servers(
    postgres: str, opened: Opened
) -> None:
    with ThreadPoolExecutor(4) as pool:  # four servers starting at once: one migrates
        clubs = list(pool.map(lambda n: kept(opened, Club(postgres, f"home{n}")), range(4)))
    raw = clubs[0]
    assert raw.shared and raw.home == "home0"
    with raw._held():
        assert raw._run("SELECT version FROM club_schema").fetchall() == [(SCHEMA_VERSION,)]
    for club in clubs:
        club.close()
    database = postgres.split("?")[0].rsplit("/", 1)[1]  # (named as an operator knows it)
    assert raw.name.startswith("postgresql://") and raw.name.endswith(f"/{database}")


def test_an_address_that_cannot_be_reached_is_told_in_one_line(
    tmp_path: Path, opened: Opened
) -> None:
    socket = tmp_path / "nothing"
    with pytest.raises(StoreError, match=r"cannot reach the club's store postgresql://") as caught:
        Club(f"postgresql://ann:secret@/club?host={socket}&port=1", "a")
    assert "secret" not in str(caught.value) and "\n" not in str(caught.value)


def test_two_servers_share_names_keys_and_ratings(
    postgres: str, tmp_path: Path, opened: Opened
) -> None:
    one, two = kept(opened, Club(postgres, "one")), kept(opened, Club(postgres, "two"))
    assert one.arrive("Ann", "SHA256:ann", "2026-12-06T10:00:00+00:00", claim=True) == "new"
    assert two.arrive("ANN", "SHA256:eve", "2026-12-06T10:00:01+00:00", claim=True) == "taken"
    assert two.arrive("ann", "SHA256:ann", "2026-12-06T10:00:02+00:00", claim=True) == "known"
    account = two.account("ann")
    assert account is not None and account.name == "Ann" and account.key == "SHA256:ann"
    texts = [game_text(seed, ("ann", "bob") if seed % 2 else ("ann",)) for seed in range(8)]
    for n, text in enumerate(texts):  # each server rates the games played on it
        (one if n % 2 else two).rate(loads(text), digest_of(text), None, text)
    assert one.standings() == two.standings()
    assert [r.name for r in one.ladder()] == [r.name for r in two.ladder()]
    again = kept(opened, Club(tmp_path / "again.db"))
    again.rebuild(Filed("", digest_of(t), loads(t), t) for t in texts)
    assert again.standings() == one.standings()


def test_two_servers_claiming_one_name_at_once_give_it_to_one(
    postgres: str, opened: Opened
) -> None:
    clubs = [kept(opened, Club(postgres, f"home{n}")) for n in range(4)]

    def claim(n: int) -> str:
        return clubs[n].arrive("bob", f"SHA256:{n}", "2026-12-06T10:00:00+00:00", claim=True)

    with ThreadPoolExecutor(4) as pool:
        arrivals = list(pool.map(claim, range(4)))
    assert sorted(arrivals) == ["new", "taken", "taken", "taken"]


def test_a_game_rated_on_two_servers_at_once_is_rated_once(postgres: str, opened: Opened) -> None:
    clubs = [kept(opened, Club(postgres, f"home{n}")) for n in range(4)]
    text = game_text(5, ("ann", "bob"))
    with ThreadPoolExecutor(4) as pool:
        changed = list(pool.map(lambda c: c.rate(loads(text), digest_of(text), None, text), clubs))
    assert sum(bool(c) for c in changed) == 1
    standing = clubs[0].standing("bob")
    assert standing is not None and standing.games == 1


def test_ratings_worked_out_again_on_one_server_count_every_server_s_games(
    postgres: str, tmp_path: Path, opened: Opened
) -> None:
    """Each server files its own games in its own folder; working the ratings out again
    from one folder counts the other's games too (the store keeps their logs), in the
    order they started: what rating them one at a time gave."""
    texts = [game_text(seed, ("ann", "bob") if seed % 3 else ("ann",)) for seed in range(10)]
    roots = [tmp_path / "one", tmp_path / "two"]
    clubs = [kept(opened, open_club(root, postgres)) for root in roots]
    for n, text in enumerate(texts):
        folder = roots[n % 2] / "players" / "ann" / "games"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"game-{n:03}.toml").write_text(text, encoding="utf-8")
        clubs[n % 2].rate(loads(text), digest_of(text), None, text)
    live = clubs[0].standings()
    assert clubs[0].rebuild(read_logs(roots[0], filed_logs(roots[0]))) == len(texts)
    assert clubs[1].standings() == live
    assert catch_up(clubs[1], roots[1]) == 0  # its files noted, none missing
    assert catch_up(clubs[1], roots[1]) == 0


def test_files_of_the_same_name_on_two_servers_are_two_games(
    postgres: str, tmp_path: Path, opened: Opened
) -> None:
    """Two servers name their filed games alike (a date, a table's number): each server's
    files are its own in the store, so neither is taken for the other's."""
    roots = [tmp_path / "one", tmp_path / "two"]
    texts = [game_text(1), game_text(2)]
    for root, text in zip(roots, texts, strict=True):
        folder = root / "players" / "ann" / "games"
        folder.mkdir(parents=True)
        (folder / "2026-12-06-table-1.toml").write_text(text, encoding="utf-8")
    clubs = [kept(opened, open_club(root, postgres)) for root in roots]
    assert home_of(roots[0]) != home_of(roots[1]) and home_of(roots[0]) == clubs[0].home
    (filed,) = read_logs(roots[0], filed_logs(roots[0]))
    clubs[0].rate(filed.log, filed.digest, filed.path, filed.text)
    assert catch_up(clubs[1], roots[1]) == 2  # its game was never rated: found, not skipped
    standing = clubs[0].standing("ann")
    assert standing is not None and standing.games == 2


def test_an_adjourned_game_is_resumed_by_one_server_only(postgres: str, opened: Opened) -> None:
    one, two, three = (kept(opened, Club(postgres, name)) for name in ("one", "two", "three"))
    game = AdjournedGame("k1", "2026-12-06T10:00:00+00:00", "7", ("ann", "bob"), ("ann", "bob"),
                         121, (5, 9))  # fmt: skip
    one.adjourn(game, "the log", '{"away": 60}')
    (listed,) = two.adjourned("BOB")
    assert listed.key == "k1" and listed.home == "one" and listed.scores == (5, 9)
    assert one.adjourned("ann")[0].home is None  # its own
    assert two.adjourned_files("k1") == ("the log", '{"away": 60}')
    with ThreadPoolExecutor(2) as pool:
        resumed = list(pool.map(lambda club: club.resumed("k1"), (two, three)))
    assert sorted(resumed) == [False, True]
    assert one.adjourned() == [] and one.resumed_elsewhere() == ["k1"]
    one.forget_resumed("k1")  # (its files gone)
    assert one.resumed_elsewhere() == []


def test_who_is_on_which_server_goes_with_the_server(postgres: str, opened: Opened) -> None:
    import psycopg

    one, two = kept(opened, Club(postgres, "one")), kept(opened, Club(postgres, "two"))
    listening = psycopg.connect(postgres, autocommit=True)  # the server's listening connection
    found = listening.execute(
        f"SELECT {LISTENER} FROM pg_stat_activity WHERE pid = pg_backend_pid()"
    ).fetchone()
    assert found is not None
    pid = str(found[0])
    one.all_present(["Ann", "cat"], pid)
    assert two.elsewhere("ANN") and two.elsewhere("cat") and not two.elsewhere("bob")
    assert not one.elsewhere("ann")  # here, not elsewhere
    one.present("cat", pid, False)
    assert not two.elsewhere("cat")
    listening.close()  # the server dies: its people are nowhere
    deadline = time.monotonic() + 60
    while two.elsewhere("ann") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not two.elsewhere("ann")


def test_a_database_killed_mid_game_loses_no_rating(
    postgres_server: Server, postgres: str, opened: Opened, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database stops at once (as a power cut would): a rating then fails in one line,
    and once it is back the store, unused a while, finds it so before it writes, and the
    game is rated at the first try."""
    club = kept(opened, Club(postgres, "one"))
    first, second = game_text(1), game_text(2)
    club.rate(loads(first), digest_of(first), None, first)
    postgres_server.crash()
    try:
        with pytest.raises(StoreError, match="the club's store postgresql://") as caught:
            club.rate(loads(second), digest_of(second), None, second)
        assert "\n" not in str(caught.value)
        with pytest.raises(StoreError):  # and again, while it is down
            club.rate(loads(second), digest_of(second), None, second)
    finally:
        postgres_server.start()
    monkeypatch.setattr("cribcli.club.database.ASK_AFTER", 0.0)  # (asked before each use)
    changed = club.rate(loads(second), digest_of(second), None, second)  # at once: back
    assert changed["ann"].games == 2
    again = kept(opened, Club(postgres, "two"))
    assert again.standings() == club.standings()


@pytest.mark.slow
def test_a_server_killed_at_any_moment_loses_nothing(
    postgres: str, tmp_path: Path, opened: Opened
) -> None:
    """A process rating games into the shared store is killed (SIGKILL) at several
    moments: every game in the store has all its people's history, and catching up with
    the logs gives what working everything out again from them gives."""
    texts = [game_text(seed, ("ann", "bob") if seed % 2 else ("ann",)) for seed in range(30)]
    file_games(tmp_path, texts)
    logs = tmp_path / "players" / "ann" / "games"
    for stop_after in (1, 7, 19):
        progress = tmp_path / f"progress-{stop_after}"
        killed_after(postgres, logs, progress, stop_after)
        club = kept(opened, open_club(tmp_path, postgres))
        with club._held():
            games = club._run("SELECT COUNT(*) FROM games").fetchone()[0]
            steps = club._run("SELECT COUNT(DISTINCT game) FROM history").fetchone()[0]
            assert games == steps >= stop_after  # no game without its history
            adjourned = club._run("SELECT COUNT(*) FROM adjourned").fetchone()[0]
            people = club._run("SELECT COUNT(*) FROM adjourned_people").fetchone()[0]
            assert people == 2 * adjourned
        catch_up(club, tmp_path)
        rebuilt = kept(opened, Club(tmp_path / f"rebuilt-{stop_after}.db"))
        rebuilt.rebuild(read_logs(tmp_path, filed_logs(tmp_path)))
        assert club.standings() == rebuilt.standings()
        with club._held():  # the next round starts from an empty store
            for table in ("games", "files", "ratings", "history", "accounts", "adjourned"):
                club._run(f"DELETE FROM {table}")
        club.close()


def test_a_game_adjourned_on_one_server_is_resumed_on_another(
    postgres: str, tmp_path: Path, opened: Opened
) -> None:
    """Ann and Bob adjourn at server one; both connect to server two and resume it there,
    from the store's copy: the same game, at the same scores. Server one cannot resume
    it too, and drops its files of it as it next starts."""
    from tests.test_room import _game_at_table, room_at

    one = room_at(tmp_path / "one", store=postgres)
    two = room_at(tmp_path / "two", store=postgres)
    kept(opened, one.club, two.club)
    table = one.lobby.tables[_game_at_table(one)]
    assert table.session is not None
    seed, scores = table.session.info.seed, tuple(table.session.state.scores)
    key = one.games.adjourn(table)
    assert (tmp_path / "one" / "adjourned" / f"{key}.toml").exists()
    (listed,) = two.games.adjourned("bob")
    assert listed.key == key and listed.home == one.club.home
    resumed = two.games.resume(key, now=0.0)
    assert resumed.session is not None and resumed.session.info.seed == seed
    assert tuple(resumed.session.state.scores) == scores
    assert two.games.adjourned("ann") == [] and one.games.adjourned("ann") == []
    with pytest.raises(CribbageError, match="resumed on another server just now"):
        one.games.resume(key, now=0.0)
    one.club.close()
    restarted = room_at(tmp_path / "one", store=postgres)
    kept(opened, restarted.club)
    carried, problems = restarted.games.carry_on()
    assert carried == [] and problems == []
    assert not list((tmp_path / "one" / "adjourned").glob("*"))  # its files gone
    assert restarted.games.adjourned("ann") == []


def test_a_game_finished_while_the_database_is_down_is_rated_once_it_is_back(
    postgres_server: Server, postgres: str, tmp_path: Path, opened: Opened,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    import asyncio

    from tests.test_room import _game_at_table, room_at

    monkeypatch.setattr("cribcli.ui.serve.room.RATE_AGAIN_FIRST", 0.05)
    said: list[str] = []

    async def main() -> None:
        room = room_at(tmp_path, store=postgres)
        kept(opened, room.club)
        room.told = said.append
        table = room.lobby.tables[_game_at_table(room)]
        text = game_text(3, ("ann", "bob"))
        postgres_server.crash()
        try:
            rating = asyncio.create_task(room._rate(table, text, []))
            while not any("is not rated yet" in line for line in said):
                assert not rating.done(), said
                await asyncio.sleep(0.02)
        finally:
            await asyncio.to_thread(postgres_server.start)
        await asyncio.wait_for(rating, 120)  # (a ceiling: only a hang meets it)
        standing = room.club.standing("bob")
        assert standing is not None and standing.games == 1

    asyncio.run(main())
    assert any("until the store is free" in line for line in said)
    assert any(line.endswith("game is rated now") for line in said)


# --- what goes between servers, and what a shared store is trusted with --------------------


def test_a_tell_between_servers_fits_whatever_its_letters() -> None:
    from cribcli.club.wire import PAYLOAD_LIMIT, Told, message, read_message

    for text in ("é" * 999, "\U0001f0a1" * 999, "plain " * 200, ""):
        payload = message(Told("ann", "bob", text), "one")
        assert len(payload.encode()) <= PAYLOAD_LIMIT
        heard = read_message(payload, "two")
        assert heard is not None and heard.speaker == "ann" and heard.hearer == "bob"
        assert text.startswith(heard.text) and len(heard.text) >= min(len(text), 500)
    assert read_message(message(Told("ann", "bob", "hi"), "one"), "one") is None  # its own
    for wrong in (
        "not json",
        "[1, 2]",
        '{"from": "ann", "to": "bob", "home": "one"}',
        '{"from": "../x", "to": "bob", "text": "hi", "home": "one"}',
        '{"from": "ann", "to": "bob", "text": 5, "home": "one"}',
        '{"from": "ann", "to": "bob", "text": "' + "x" * 5000 + '", "home": "one"}',
    ):
        assert read_message(wrong, "two") is None
    said = read_message('{"from": "ann", "to": "bob", "text": "\\u001b[2Jhi", "home": "x"}', "y")
    assert said is not None and "\x1b" not in said.text


def test_an_address_that_is_not_one_never_shows_its_password() -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(StoreError, match="not a valid postgresql:// address") as caught:
        Club("postgresql://ann:s3cr%zzet@db/club", "one")
    assert "s3cr" not in str(caught.value)


def test_an_adjourned_game_indexed_again_can_be_resumed_anywhere(
    postgres: str, tmp_path: Path, opened: Opened
) -> None:
    """The store lost its note of an adjourned game (or an older server put it away):
    indexed again from its files as its server starts, with their text, so another
    server can still resume it."""
    from tests.test_room import _game_at_table, room_at

    one = room_at(tmp_path / "one", store=postgres)
    kept(opened, one.club)
    table = one.lobby.tables[_game_at_table(one)]
    key = one.games.adjourn(table)
    one.club.resumed(key)  # the note lost
    restarted = room_at(tmp_path / "one", store=postgres)
    kept(opened, restarted.club)
    restarted.games.carry_on()
    two = room_at(tmp_path / "two", store=postgres)
    kept(opened, two.club)
    (listed,) = two.games.adjourned("ann")
    assert two.games.resume(listed.key, now=0.0).session is not None


def test_a_resume_on_another_server_killed_half_way_leaves_the_game_adjourned(
    postgres: str, tmp_path: Path, opened: Opened, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Server two writes the game's files from the store's copy, then fails to note it
    resumed (the store fails, or the server is killed there): the game is adjourned
    still, in one place, and server two does not carry on a copy as it starts."""
    from tests.test_room import _game_at_table, room_at

    one = room_at(tmp_path / "one", store=postgres)
    two = room_at(tmp_path / "two", store=postgres)
    kept(opened, one.club, two.club)
    key = one.games.adjourn(one.lobby.tables[_game_at_table(one)])

    def failing(key: str) -> bool:
        raise StoreError("the club's store: the server is gone")

    monkeypatch.setattr(two.club, "resumed", failing)
    with pytest.raises(CribbageError, match="stays adjourned"):
        two.games.resume(key, now=0.0)
    assert not list((tmp_path / "two" / "tables").glob("table-*"))  # its copies dropped
    monkeypatch.undo()
    two.games._from_store(key, tmp_path / "two" / "tables" / "table-1.toml", tmp_path / "x")
    again = room_at(tmp_path / "two", store=postgres)  # killed before its note: started again
    kept(opened, again.club)
    carried, _ = again.games.carry_on()
    assert carried == [] and not (tmp_path / "two" / "tables" / "table-1.toml").exists()
    assert [g.key for g in again.games.adjourned("bob")] == [key]


def test_a_name_rated_on_another_server_is_not_forgotten_here(
    postgres: str, tmp_path: Path, opened: Opened
) -> None:
    from tests.test_room import room_at

    one = room_at(tmp_path / "one", store=postgres, open_door=True)
    two = room_at(tmp_path / "two", store=postgres, open_door=True)
    kept(opened, one.club, two.club)
    for name in ("ann", "dan"):
        assert one.games.arrive(name, f"SHA256:{name}", claim=True) == "new"
    text = game_text(6)  # ann's game, rated on server two
    two.club.rate(loads(text), digest_of(text), None, text)
    gone = one.games.forget(older_than=0.0, now=time.time() + 10)
    assert gone == ["dan"]
    assert two.games.key_of("ann") == "SHA256:ann"
