"""``cribbage serve``: a server on a loopback port, and real SSH clients (asyncssh's, in
this process) that read the screen as a person would and type their moves. Each session
is slow; the quick loop tests the same at the level that owns it, without sockets
(``test_room.py``, ``test_lobby.py``, ``test_served.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import shutil
import tomllib
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from cribcli.club.database import Club
from cribcli.record.reader import loads
from cribcli.record.replay import replay, verify
from cribcli.record.store import Places
from cribcli.review.history import history_of
from cribcli.rules.errors import UsageProblem
from cribcli.ui.serve import Limits, ServeOptions, load_keys, serve

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
"""A server's connection is sometimes collected after its test has stopped the server
(asyncssh closes its transport on the loop's last turns): not a leak of the game's."""

_CONTROLS = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>]|\r")
_MOVE = re.compile(
    r"(Put \d in the crib|Your play, count \d+|game over: press Enter for the lobby"
    r"|waiting for [^>]*)>"
)


@dataclass
class Screen:
    """What one SSH client has been shown, as text (the terminal's controls taken out),
    read up to the last thing looked for."""

    process: asyncssh.SSHClientProcess[str]
    connection: asyncssh.SSHClientConnection
    text: str = ""
    seen: int = 0
    raw: str = ""
    """Everything shown, the terminal's controls kept."""

    async def expect(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        found = re.compile(pattern)

        async def read() -> re.Match[str]:
            while True:
                match = found.search(self.text, self.seen)
                if match:
                    self.seen = match.end()
                    return match
                chunk = await self.process.stdout.read(65536)
                if not chunk:
                    raise EOFError
                self.raw += chunk
                self.text += _CONTROLS.sub("", chunk)

        try:
            return await asyncio.wait_for(read(), timeout)
        except (TimeoutError, EOFError):
            raise AssertionError(f"no {pattern!r} on the screen:\n{self.text[-3000:]}") from None

    async def more(self, timeout: float = 60.0) -> None:
        """Wait for something new on the screen (TimeoutError if nothing comes)."""
        chunk = await asyncio.wait_for(self.process.stdout.read(65536), timeout)
        if not chunk:
            raise AssertionError(f"the connection closed:\n{self.text[-3000:]}")
        self.raw += chunk
        self.text += _CONTROLS.sub("", chunk)

    async def settle(self, quiet: float = 0.15) -> None:
        """Read until nothing new comes for ``quiet`` seconds."""
        with contextlib.suppress(TimeoutError):
            while True:
                await self.more(quiet)

    async def closed(self, timeout: float = 30.0) -> str:
        """Everything until the server closes the connection."""

        async def rest() -> None:
            while chunk := await self.process.stdout.read(65536):
                self.raw += chunk
                self.text += _CONTROLS.sub("", chunk)

        await asyncio.wait_for(rest(), timeout)
        return self.text

    def type(self, line: str) -> None:
        self.process.stdin.write(line + "\r")

    async def close(self) -> None:
        self.connection.close()
        await self.connection.wait_closed()


@dataclass
class Server:
    port: int
    root: Path
    told: list[str] = field(default_factory=list)
    clients: list[asyncssh.SSHClientConnection] = field(default_factory=list)


async def door(server: Server, name: str, key: asyncssh.SSHKey) -> asyncssh.SSHClientConnection:
    """An SSH connection, logged in (closed at the end of the test, whatever happens)."""
    connection = await asyncssh.connect(
        "127.0.0.1", server.port, username=name, client_keys=[key], known_hosts=None
    )
    server.clients.append(connection)
    return connection


def key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


KEYS = {name: key() for name in ("ann", "bob", "cat", "dan", "eve")}


@contextlib.asynccontextmanager
async def running(root: Path, **options: Any) -> AsyncIterator[Server]:
    """A server on a free loopback port, stopped at the end as Ctrl-C stops it."""
    options.setdefault("open", "authorized_keys" not in options)
    stop = asyncio.Event()
    told: list[str] = []
    task = asyncio.create_task(
        serve(ServeOptions(root=root, port=0, pace=0.0, **options), told.append, stop)
    )
    while not any("listening" in line for line in told):
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    port = int(next(line for line in told if "listening" in line).split()[-1])
    server = Server(port, root, told)
    try:
        yield server
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)
        for client in server.clients:
            client.close()
            await client.wait_closed()


async def connect(server: Server, name: str, size: tuple[int, int] = (100, 40)) -> Screen:
    connection = await door(server, name, KEYS[name])
    process = await connection.create_process(term_type="xterm", term_size=size)
    screen = Screen(process, connection)
    await screen.expect(r"Welcome to cribbage, \w+\.")
    return screen


async def two_at_table(server: Server, new: str = "new 2 61") -> tuple[Screen, Screen]:
    """Ann opens a table (``new``) and Bob joins it once it is open."""
    ann = await connect(server, "ann")
    ann.type(new)
    await ann.expect(r"Table 1 is open")
    bob = await connect(server, "bob")
    bob.type("join 1")
    return ann, bob


async def play_out(
    screen: Screen, moves: int | None = None, stop: asyncio.Event | None = None
) -> int:
    """Play as the hint says until the game is over (or ``moves`` are made), as a person
    would: wait for the screen to settle, read the last prompt, and act on it. Returns the
    moves made."""
    made = 0
    while (moves is None or made < moves) and not (stop and stop.is_set()):
        await screen.settle()
        prompts = _MOVE.findall(screen.text)
        last = prompts[-1] if prompts else "waiting"
        if last.startswith("game over"):
            return made
        if last.startswith("waiting"):
            try:
                await screen.more(5.0)
            except TimeoutError:
                screen.type("")  # as a person would: Enter, for the prompt as it is now
            continue
        screen.seen = len(screen.text)
        screen.type("hint")
        answer = await screen.expect(
            r"Hint: (?:throw|lay) ([^:]+):|Nothing to hint at now|it is not your turn"
        )
        cards = answer.group(1)
        if cards and not (stop and stop.is_set()):
            screen.type(cards)
            made += 1
            await screen.more()
    return made


async def play_until(screens: list[Screen], lays: int) -> None:
    """Everyone plays by the hint until the first screen has shown ``lays`` cards laid
    (whoever's turn it is then: stopping each after a number of its own moves could
    leave one waiting for another who has stopped)."""
    stop = asyncio.Event()
    tasks = [asyncio.create_task(play_out(screen, stop=stop)) for screen in screens]
    try:
        while len(re.findall(r": \S+ \(\d+\)", screens[0].text)) < lays:
            if any(task.done() for task in tasks):
                break
            await asyncio.sleep(0.05)
    finally:
        stop.set()  # a cancellation can be lost in wait_for (Python 3.11): told twice
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


def run(coroutine: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coroutine, 240))


def filed(root: Path, name: str) -> list[Path]:
    return sorted((root / "players" / name / "games").glob("*.toml"))


@pytest.mark.slow
def test_two_people_play_a_whole_game_through_the_lobby(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("new 2 61")
            await ann.expect(r"Table 1 is open \(2 seats, to 61\).*join 1")
            bob = await connect(server, "bob")
            await bob.expect(r"Table 1: ann, - \(2 seats, to 61\): 1 seat open")
            bob.type("join 1")
            # each sees the table as `play` draws it: the hand, and the board below the prompt
            for screen in (ann, bob):
                await screen.expect(r"Your hand: (\S+ ){5}\S+\s+Put 2 in the crib>")
                await screen.expect(r"\n(You|ann) +·····[ ·|]*\n +0 ")
                await screen.expect(r"Round 1: \w+ deals?\. To go: \w+ 61, \w+ 61\.")
            await asyncio.gather(play_out(ann), play_out(bob))
            await ann.expect(r"(You win|bob wins): (ann|You) \d+, (bob|You) \d+\.")
            await bob.expect(r"(You win|ann wins): (ann|You) \d+, (bob|You) \d+\.")
            # Each saw every move of the other's, in order, however close the two came.
            rounds = len(re.findall(r"Round \d+\. ", ann.text))
            assert rounds >= 2
            assert ann.text.count("bob put 2 cards in the crib.") == rounds
            assert bob.text.count("ann put 2 cards in the crib.") == rounds
            # The deal promised before the first card, and the seed shown at the end.
            promised = {re.search(r"sha256:[0-9a-f]{64}", s.text) for s in (ann, bob)}
            for screen in (ann, bob):  # after the last cards, the show and the result
                await screen.expect(r"The seed: ([0-9a-f]{32}); 'cribbage verify' deals every")
                result = re.search(r"(You win|\w+ wins): [^\n]*\n", screen.text)
                assert result is not None
                assert screen.text.count("The seed: ") == 1
                assert screen.text.index("The seed: ") >= result.end()
            seeds.append(ann.text.split("The seed: ")[-1].split(";")[0])
            assert all(promised) and len({m.group() for m in promised if m}) == 1
            digests.extend(m.group() for m in promised if m)

    seeds: list[str] = []
    digests: list[str] = []
    run(main())
    for name in ("ann", "bob"):
        (log,) = filed(tmp_path, name)
        checked = loads(log.read_text(encoding="utf-8"))
        assert verify(checked).fair is True and checked.info.seed == seeds[0]  # 128 random bits
        assert checked.info.commitment == digests[0]
        replayed = replay(loads(log.read_text(encoding="utf-8")))
        assert [seat.name for seat in replayed.log.info.seats] == ["ann", "bob"]
        assert {seat.player for seat in replayed.log.info.seats} == {"human"}
    texts = {filed(tmp_path, n)[0].read_text(encoding="utf-8") for n in ("ann", "bob")}
    assert len(texts) == 1  # the same game, filed for each
    histories = [
        history_of(Places.find(str(tmp_path / "players" / n)), since="", today="", warn=print)
        for n in ("ann", "bob")
    ]
    assert [h.games for h in histories] == [1, 1]
    assert sorted(h.wins for h in histories) == [0, 1]  # each counted from their own seat
    assert all(set(h.by_level) == {"human"} for h in histories)
    assert not (tmp_path / "tables" / "table-1.toml").exists()


SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def shown(card: str) -> str:
    """A log's card (``10H``) as the served table draws it (``10♥``)."""
    return card[:-1] + SUITS[card[-1]]


@pytest.mark.slow
def test_a_watcher_sees_every_card_laid_and_every_show_and_no_hand(tmp_path: Path) -> None:
    """Eve watches ann and bob: every card laid and every show reach her, and no card of
    a hand before it is shown (a card thrown to the crib never appears in its round before
    the crib is shown); what she says reaches only the other watchers while the game runs,
    and her `tell` cannot reach a player; the players talk to the table, and mute works."""

    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("new 2 61")
            await ann.expect(r"Table 1 is open")
            eve = await connect(server, "eve")
            eve.type("watch 1")
            await eve.expect(r"You watch table 1")
            dan = await connect(server, "dan")
            dan.type("watch 1")
            await dan.expect(r"You watch table 1")
            bob = await connect(server, "bob")
            bob.type("join 1")
            await ann.expect(r"Put 2 in the crib>")
            ann.type("who")
            await ann.expect(r"\[2 watching\][^\n]*\s+watching: dan, eve")
            eve.type("say the crib looks rich")
            await dan.expect(r"eve says: the crib looks rich")
            eve.type("tell ann keep the fives")
            await eve.expect(r"ann plays at the table you watch: not while the game runs")
            ann.type("tell eve thanks")  # nor the other way
            await ann.expect(r"eve watches your game: not while it runs")
            ann.type("say good luck")
            await eve.expect(r"ann says: good luck")
            bob.type("mute ann")
            await bob.expect(r"What ann says no longer reaches you")
            ann.type("tell bob hello")  # players of one game: only where the table hears
            await ann.expect(r"bob plays at your table: `say` there, and the whole table hears")
            ann.type("say may the best win")
            await eve.expect(r"ann says: may the best win")
            await asyncio.gather(play_out(ann), play_out(bob))
            await eve.expect(r"(ann|bob) wins: ann \d+, bob \d+\.")
            eve.seen = 0
            await eve.expect(r"The seed: [0-9a-f]{32}; 'cribbage verify'")
            watched.append(eve.text)
            assert "eve says" not in ann.text + bob.text  # a watcher never reaches a player
            assert "keep the fives" not in ann.text
            assert "ann says: good luck" in bob.text  # before bob muted her
            assert "hello" not in bob.text and "may the best win" not in bob.text

    watched: list[str] = []
    run(main())
    text = watched[0]
    assert "Your hand" not in text and "Hint" not in text
    (log,) = filed(tmp_path, "ann")
    game = loads(log.read_text(encoding="utf-8"))
    rounds = re.split(r"\nRound \d+\. ", text)[1:]
    assert len(rounds) == len(game.rounds)
    names = ("ann", "bob")
    for told, record in zip(rounds, game.rounds, strict=True):
        for entry in record.plays:  # every card laid, by whom
            who, card = entry.split()
            if card != "go":
                assert f"{names[int(who)]}: {shown(card)} (" in told, (entry, told)
        if record.scores is not None:  # the round's show was counted
            for seat in (0, 1):
                assert f"{names[seat]}'s hand" in told, told
            assert f"{names[record.dealer]}'s crib" in told, told
        before_crib = told.split(f"{names[record.dealer]}'s crib")[0]
        for thrown in " ".join(record.discards).split():
            assert shown(thrown) not in before_crib, (thrown, before_crib)
        assert "put 2 cards in the crib" in told


@pytest.mark.slow
def test_a_best_of_three_match_to_its_end(tmp_path: Path) -> None:
    """Ann plays a match of three games to 61 against the computer: the games follow one
    another at the table, the loser of each deals the next, the match's score stays below
    the board, and the match is filed as one record whose game points (2 a win, 3 a
    skunk) are those of its games' logs."""

    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("new 2 61 computers 1 easy best-of 3")
            await ann.expect(r"Table 1: you and the computer")
            await play_out(ann)
            await ann.expect(r"Match, best of 3: ann \d \(game points \d+\)")
            ann.seen = 0
            await ann.expect(r"The next game: (You deal|Computer deals) first")

    run(main())
    logs = filed(tmp_path, "ann")
    (record,) = sorted((tmp_path / "players" / "ann" / "matches").glob("*.toml"))
    match = tomllib.loads(record.read_text(encoding="utf-8"))
    assert match["best_of"] == 3 and len(match["games"]) == len(logs) in (2, 3)
    points = [0, 0]
    for game, log in zip(match["games"], logs, strict=True):
        result = loads(log.read_text(encoding="utf-8")).result
        assert result is not None and game["log"] == log.name
        assert game["winner"] == result.winner
        skunked = any(result.skunks[side] for side in (0, 1) if side != result.winner)
        points[result.winner] += 3 if skunked else 2
    assert match["game_points"] == points and max(match["wins"]) == 2
    games = [loads(log.read_text(encoding="utf-8")) for log in logs]
    for before, after in itertools.pairwise(games):  # the loser deals the next
        assert before.result is not None
        assert after.rounds[0].dealer == 1 - before.result.winner


@pytest.mark.slow
def test_the_clock_runs_out_and_the_computer_moves(tmp_path: Path) -> None:
    """A table with a clock of 10 s: the countdown is below the board; ann does nothing,
    and when her time is out the computer throws for her, the table is told, the log
    says so (and replays), and the game goes on."""

    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("new 2 61 computers 1 easy clock 10")
            await ann.expect(r"Table 1: you and the computer")
            await ann.expect(r"Clock: ann 0:\d\d")
            await ann.expect(r"ann's clock ran out: the computer moved for them\.", 60)
            saved = (tmp_path / "tables" / "table-1.toml").read_text(encoding="utf-8")
            log = loads(saved)
            assert log.info.clock == 10 and len(log.info.timeouts) >= 1
            assert log.rounds[0].discards[0] != ""  # her throw, made for her
            replay(log)

    run(main())


@pytest.mark.slow
def test_a_game_is_adjourned_when_all_agree_and_resumed_when_all_are_here(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("new 2 61")
            await ann.expect(r"Table 1 is open")
            bob = await connect(server, "bob")
            bob.type("join 1")
            await ann.expect(r"Put 2 in the crib>")
            await play_out(ann, 1)  # a move made: the game is under way
            ann.type("adjourn")
            await ann.expect(r"You ask to adjourn; waiting for bob to agree")
            await bob.expect(r"ann asks to adjourn the game: `adjourn` agrees")
            bob.type("adjourn")
            for screen in (ann, bob):
                await screen.expect(r"Table 1 is adjourned, its game saved")
            ann.type("adjourned")
            await ann.expect(r"1: ann v bob, to 61, 0-0 \(put away \d{4}-\d\d-\d\d\)")
            await bob.close()
            ann.type("resume 1")
            await ann.expect(r"bob is not here: an adjourned game goes on when its people are")
            bob = await connect(server, "bob")
            ann.type("resume 1")
            await ann.expect(r"Back at table 1\.")
            await bob.expect(r"ann resumes your adjourned game at table 1: `join 1`")
            bob.type("join 1")
            await bob.expect(r"Back at table 1\.")
            await asyncio.gather(play_out(ann), play_out(bob))
            await ann.expect(r"(You win|bob wins)")

    run(main())
    (log,) = filed(tmp_path, "ann")
    game = loads(log.read_text(encoding="utf-8"))
    assert game.result is not None and verify(game).fair is True
    assert not list((tmp_path / "adjourned").glob("*.toml"))
    club = Club(tmp_path / "club.db")
    assert club.adjourned() == []  # resumed: out of the index too


@pytest.mark.slow
def test_a_finished_game_is_played_back_in_the_lobby(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("new 2 61 computers 1 easy")
            await play_out(ann)
            ann.type("")  # Enter: the lobby
            await ann.expect(r"Here: ann\.")
            ann.type("replay")
            await ann.expect(r"1: \d{4}-\d\d-\d\d-table-1: ann v Computer, \d+ - \d+")
            ann.type("replay 1 2x")
            await ann.expect(r"Game 1, played back \(\d+ moves\); type anything to stop\.")
            await ann.expect(r"Round 1\. \w+ deals?\.\s+ann: (\S+ ){5}\S+\s+Computer: ")
            await ann.expect(r"Round 2\. ")
            ann.type("x")
            await ann.expect(r"The replay stops there\.")

    run(main())


@pytest.mark.slow
def test_a_finished_game_rates_its_people_as_the_logs_would(tmp_path: Path) -> None:
    """Ann's game against the hard computer moves her rating (told at once, on the
    ladder, in her stats), and the store holds what working it out again from the filed
    logs alone gives."""

    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("new 2 61 computers 1 hard")
            await play_out(ann)
            ann.seen = 0
            await ann.expect(r"Your rating: \d+ ±\d+\.")
            ann.type("")
            ann.type("top")
            await ann.expect(r"  +1 ann +\d+ +\d+ +1  \d{4}-\d\d-\d\d")
            await ann.expect(
                r"The computer.s fixed marks: easy \d+,\s+level 2 \d+,[\s\S]*normal \d+,"
                r"\s+hard \d+\."
            )
            ann.type("stats")
            await ann.expect(r"A member since \d{4}-\d\d-\d\d\.")
            await ann.expect(r"Your rating: \d+ ±\d+ after 1 rated game")

    run(main())
    from cribcli.club.served import filed_logs, read_logs

    live = Club(tmp_path / "club.db")
    rebuilt = Club(tmp_path / "rebuilt.db")
    assert rebuilt.rebuild(read_logs(tmp_path, filed_logs(tmp_path))) == 1
    assert live.standings() == rebuilt.standings() and set(live.standings()) == {"ann"}
    (log,) = filed(tmp_path, "ann")  # noted as rated: the next start need not read it
    assert live.file_known(str(log.relative_to(tmp_path)))


@pytest.mark.slow
def test_four_seats_two_people_two_computers(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("new 4 61 computers 2 easy")
            await ann.expect(r"Table 1 is open \(4 seats, to 61, 2 easy computers\)")
            bob = await connect(server, "bob")
            bob.type("join 1")
            await asyncio.gather(play_out(ann), play_out(bob))
            await bob.expect(r"(You|ann) & (Computer|Robot) win")

    run(main())
    replayed = replay(loads(filed(tmp_path, "bob")[0].read_text(encoding="utf-8")))
    seats = replayed.log.info.seats
    assert [(s.name, s.player) for s in seats] == [
        ("ann", "human"),
        ("bob", "human"),
        ("Computer", "computer"),
        ("Robot", "computer"),
    ]


@pytest.mark.slow
def test_a_dropped_connection_comes_back_to_its_seat(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann, bob = await two_at_table(server, "new 2 61")
            await play_until([ann, bob], 3)  # into the play
            await bob.close()
            await ann.expect(r"bob is away \(the connection ended\)")
            ann.type("who")
            await ann.expect(r"Table 1: ann, bob .*away: bob")
            bob = await connect(server, "bob")
            await bob.expect(r"Back at table 1\.")
            await bob.expect(r"Your hand: ")
            await ann.expect(r"bob is back\.")
            again = await connect(server, "bob")  # bob on a second connection: not "back"
            await again.expect(r"Back at table 1\.")
            await asyncio.gather(play_out(ann), play_out(bob))
            assert ann.text.count("bob is back.") == 1
            told = "\n".join(server.told)
            for line in (
                r"host key SHA256:\S+ \(ssh-ed25519\)",
                r"listening on 127\.0\.0\.1 port \d+",
                r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ann came in from 127\.0\.0\.1",
                r" ann opens table 1 \(2 seats, to 61\)",
                r" table 1 begins: ann v bob \(2 seats, to 61\)",
                r" bob went \(from 127\.0\.0\.1\)",
                r" bob is away from table 1 \(the connection ended\)",
                r" bob is back at table 1",
                r" table 1's game is over \((ann|bob) won, \d+ to \d+\): filed for ann, bob",
            ):
                assert re.search(line, told), line
            assert len(re.findall(r" bob is back at table 1", told)) == 1

    run(main())
    assert len(filed(tmp_path, "ann")) == len(filed(tmp_path, "bob")) == 1


@pytest.mark.slow
def test_a_rounds_review_at_a_table_is_worked_out_off_the_event_loop(tmp_path: Path) -> None:
    """``review`` after the first show: the round judged in the room's worker processes
    (each hint too), then said at the table."""

    async def main() -> None:
        async with running(tmp_path) as server:
            ann, bob = await two_at_table(server, "new 2 61")
            await play_until([ann, bob], 9)  # round 1's eight cards and the show, then one
            ann.seen = len(ann.text)
            ann.type("review")
            await ann.expect(r"Round 1 \((your|bob's) crib\)\n  throw ")
            await ann.expect(r"\d decisions over 1 deal: \d+\.\d\d points lost\.")
            assert "computers decide, and hints are worked out, in" in "\n".join(server.told)

    run(main())


@pytest.mark.slow
def test_the_computer_takes_the_seat_of_someone_away(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann, bob = await two_at_table(server, "new 2 61 away 0.01")
            await play_until([ann, bob], 2)
            await bob.close()
            await ann.expect(r"bob is away")
            await asyncio.sleep(1.0)
            ann.type("takeover")
            await ann.expect(r"the computer plays for bob from now")
            await play_until([ann], 6)  # the computer plays bob's seat a while
            bob = await connect(server, "bob")
            await bob.expect(r"The computer plays your seat while you were away: `sit` takes it")
            bob.type("4H")
            await bob.expect(r"the computer plays for you now: `sit` takes your seat back")
            bob.type("sit")
            await bob.expect(r"Your seat is yours again\.")
            await ann.expect(r"bob plays again\.")
            await asyncio.gather(play_out(ann), play_out(bob))
            assert re.search(
                r" the computer plays for bob at table 1 \(ann asked\)", "\n".join(server.told)
            )

    run(main())
    (log,) = filed(tmp_path, "bob")
    replayed = replay(loads(log.read_text(encoding="utf-8")))
    bob = replayed.log.info.seats[1]
    assert bob.player == "human" and bob.level == "normal" and bob.taken is not None
    assert bob.returned is not None and 0 < bob.taken < bob.returned < len(replayed.actions)
    assert "taken = " in log.read_text(encoding="utf-8")
    # after the seat was taken back, every action of bob's seat is bob's own: the
    # computer played it only between the two
    assert not bob.played_by_computer


@pytest.mark.slow
def test_only_known_keys_come_in(tmp_path: Path) -> None:
    keys = tmp_path / "friends.txt"
    public = KEYS["ann"].export_public_key().decode()
    keys.write_text(f"# friends\nann {public}\n", encoding="utf-8")
    assert list(load_keys(keys).values()) == ["ann"]

    async def main() -> None:
        async with running(tmp_path / "server", authorized_keys=keys) as server:
            connection = await door(server, "whoever", KEYS["ann"])
            process = await connection.create_process(term_type="xterm")
            screen = Screen(process, connection)
            await screen.expect(r"Welcome to cribbage, ann\.")  # the key's name
            with pytest.raises(asyncssh.PermissionDenied):
                await door(server, "ann", KEYS["bob"])

    run(main())
    account = Club(tmp_path / "server" / "club.db").account("ann")
    assert account is not None and account.key is None  # (the file says whose a key is)


def test_a_dsa_key_is_refused_with_the_line_it_is_on(tmp_path: Path) -> None:
    keys = tmp_path / "friends.txt"
    dsa = asyncssh.generate_private_key("ssh-dss").export_public_key().decode().strip()
    ann = KEYS["ann"].export_public_key().decode().strip()
    keys.write_text(f"ann {ann}\nold {dsa}\n", encoding="utf-8")
    with pytest.raises(UsageProblem, match=r"^--authorized-keys line 2: a DSA key is no longer"):
        load_keys(keys)


@pytest.mark.slow
def test_open_door_names_keep_their_first_key(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            await ann.close()
            for name, key in (("ann", KEYS["bob"]), ("../etc", KEYS["cat"]), ("a b", KEYS["cat"])):
                with pytest.raises(asyncssh.PermissionDenied):
                    await door(server, name, key)
            again = await connect(server, "ann")
            await again.close()

    run(main())
    assert sorted(p.name for p in (tmp_path / "players").iterdir()) == ["ann"]
    club = Club(tmp_path / "club.db")
    account = club.account("ann")
    assert account is not None and account.key == KEYS["ann"].get_fingerprint()
    assert account.first_seen <= account.last_seen and club.accounts() == 1


@pytest.mark.slow
def test_no_shell_commands_forwarding_or_file_transfer(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            connection = await door(server, "ann", KEYS["ann"])
            with pytest.raises(asyncssh.ChannelOpenError):
                await connection.run("cat /etc/passwd", check=True)
            with pytest.raises(asyncssh.ChannelOpenError):
                await connection.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 22)
            with pytest.raises(asyncssh.ChannelListenError):
                await connection.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
            with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
                await connection.start_sftp_client()

    run(main())


@pytest.mark.slow
def test_a_flood_closes_only_that_connection(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("solo easy")
            await ann.expect(r"Table 1: you and the computer")
            await play_out(ann, 2)
            long_line = await connect(server, "bob")
            long_line.process.stdin.write("x" * 100_000)
            assert "Closed: typing faster than anyone types" in await long_line.closed()
            lines = await connect(server, "cat")
            lines.process.stdin.write("who\r" * 100)
            assert "Closed: too many lines at once" in await lines.closed()
            # 799 keys and Enter, 15 times a second: it froze the server's only thread
            attacker = await connect(server, "eve")
            with contextlib.suppress(BrokenPipeError, ConnectionError):
                for _ in range(150):  # at most ten seconds
                    attacker.process.stdin.write("\x03" * 799 + "\r")
                    await asyncio.sleep(1 / 15)
                    if attacker.process.stdin.is_closing():
                        break
            assert "Closed: too many lines at once" in await attacker.closed()  # Ctrl-C's
            resizes = await connect(server, "dan")
            with contextlib.suppress(BrokenPipeError):  # closed on the way
                for width in range(1000):  # as fast as the client can (to a bound)
                    resizes.process.change_terminal_size(40 + width % 100, 30)
                    await asyncio.sleep(0)
                    if resizes.process.stdin.is_closing():
                        break
            assert "Closed: too many window changes" in await resizes.closed()
            await play_out(ann, 2)  # ann's table went on all along
            ann.type("score")
            await ann.expect(r"You \d+, Computer \d+; you need \d+\.")

    run(main())


@pytest.mark.slow
def test_a_connection_over_its_share_of_the_cpu_is_closed(tmp_path: Path) -> None:
    async def main() -> None:
        # A share that never refills: whatever eve's words cost, it is used up at last,
        # however quick the machine (the line rate set high: only the share may close it).
        limits = Limits(cpu=0.0, cpu_at_once=0.3, rate=1000)
        async with running(tmp_path, limits=limits) as server:
            ann = await connect(server, "ann")
            connection = await door(server, "eve", KEYS["eve"])
            process = await connection.create_process(term_type="xterm", term_size=(100, 40))
            greedy = Screen(process, connection)
            with contextlib.suppress(BrokenPipeError, ConnectionError):
                for _ in range(6000):  # 20 lines a second, within every other limit (a ceiling)
                    if process.stdin.is_closing() or "Closed" in greedy.text:
                        break
                    greedy.type("who")
                    with contextlib.suppress(TimeoutError):
                        await greedy.more(0.05)
            assert "Closed: using more of the server than anyone may." in await greedy.closed()
            assert any("eve used more of the server" in line for line in server.told)
            ann.type("who")
            await ann.expect(r"ann")

    run(main())


@pytest.mark.slow
def test_a_client_that_stops_reading_is_cut(tmp_path: Path) -> None:
    """A client that takes nothing more (its SSH window full) while it goes on typing:
    the server keeps at most its limit of unsent output for it, then cuts it; the
    others play on."""

    async def main() -> None:
        async with running(tmp_path, limits=Limits(output=16_384)) as server:
            ann = await connect(server, "ann")
            connection = await door(server, "eve", KEYS["eve"])
            deaf = await connection.create_process(
                term_type="xterm", term_size=(100, 40), window=4096, max_pktsize=1024
            )  # and never read from
            with contextlib.suppress(BrokenPipeError, ConnectionError):
                for _ in range(3000):  # each within the key and line rates; a ceiling
                    if any("stopped reading" in line for line in server.told):
                        break
                    deaf.stdin.write("help\r")  # some 700 bytes back
                    await asyncio.sleep(0.08)
            assert any("eve's terminal stopped reading: closed" in line for line in server.told)
            ann.type("who")
            await ann.expect(r"ann")

    run(main())


@pytest.mark.slow
def test_idle_connections_are_closed(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path, limits=Limits(idle=0.5)) as server:
            ann = await connect(server, "ann")
            assert "Closed: nothing typed for 0 seconds." in await ann.closed(10)

    run(main())


@pytest.mark.slow
def test_the_server_stops_and_starts_again_with_the_game(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann, bob = await two_at_table(server, "new 2 61")
            await play_until([ann, bob], 4)
        assert "the server is stopping; your game is saved" in await ann.closed()
        assert (tmp_path / "tables" / "table-1.toml").exists()
        async with running(tmp_path) as server:
            bob = await connect(server, "bob")
            await bob.expect(r"Back at table 1\.")
            ann = await connect(server, "ann")
            await ann.expect(r"Back at table 1\.")
            await asyncio.gather(play_out(ann), play_out(bob))

    run(main())
    (log,) = filed(tmp_path, "ann")
    assert replay(loads(log.read_text(encoding="utf-8"))).state is not None


def test_the_command_line_says_what_serving_needs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from click.shell_completion import ShellComplete

    from cribcli.cli import cli, main

    complete = ShellComplete(cli, {}, "cribbage", "_CRIBBAGE_COMPLETE")
    offered = [item.value for item in complete.get_completions(["serve"], "--a")]
    assert offered == ["--authorized-keys"]
    for args, message in (
        ([], "say who may come in: --authorized-keys FILE, or --open for anyone"),
        (["--open", "--authorized-keys", "x"], "--authorized-keys and --open: choose one"),
        (["--authorized-keys", str(tmp_path / "none")], "there is no file"),
        (["--open", "--scheduler", "nowhere"], "give the scheduler's address as tcp://HOST:PORT"),
    ):
        with pytest.raises(SystemExit) as stopped:
            main(["serve", *args, "--data-dir", str(tmp_path)])
        assert stopped.value.code == 2
        error = capsys.readouterr().err
        assert error.startswith("cribbage: ") and message in error and error.count("\n") == 1


@pytest.mark.slow
def test_a_connection_that_never_logs_in_is_closed(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path, limits=Limits(login=0.5)) as server:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            assert (await reader.readline()).startswith(b"SSH-2.0-")
            assert await asyncio.wait_for(reader.read(), 10) == b""  # closed by the server
            writer.close()
            await writer.wait_closed()
            ann = await connect(server, "ann")  # the room carries on
            ann.type("tables")
            await ann.expect("No tables yet")

    run(main())


def test_without_asyncssh_serve_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    import cribcli.ui
    from cribcli.cli import main

    monkeypatch.setitem(sys.modules, "asyncssh", None)
    monkeypatch.setitem(sys.modules, "cribcli.ui.serve", None)
    monkeypatch.delattr(cribcli.ui, "serve")
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--open", "--data-dir", str(tmp_path)])
    assert stopped.value.code == 2
    assert "pip install 'cribcli[serve]'" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_server_with_every_game_saved(tmp_path: Path, signal_name: str) -> None:
    """SIGTERM, or Ctrl-C at the operator's terminal, once people have come in."""
    import signal
    import subprocess
    import sys

    server = subprocess.Popen(
        [sys.executable, "-m", "cribcli", "serve", "--open", "--port", "0"]
        + ["--data-dir", str(tmp_path)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        assert server.stderr.readline().startswith("cribbage serve: host key SHA256:")
        line = server.stderr.readline()
        assert line.startswith("cribbage serve: listening on 127.0.0.1 port ")
        port = int(line.split()[-1])
        while (line := server.stderr.readline()).startswith("cribbage serve: open files: "):
            pass  # (raised where the system allowed it)
        fitted = r"\(what (the open files hold|half the available memory holds)\)"
        assert re.fullmatch(rf"cribbage serve: connections: at most \d+ {fitted}\n", line)

        async def main() -> None:
            ann = await connect(Server(port, tmp_path), "ann")
            ann.type("solo")
            await play_out(ann, 3)
            bob = await connect(Server(port, tmp_path), "bob")  # in the lobby: no game
            server.send_signal(getattr(signal, signal_name))
            assert "the server is stopping; your game is saved" in await ann.closed()
            told = await bob.closed()
            assert "Closed: the server is stopping." in told and "saved" not in told
            # the board and the prompt rubbed out first: the last words on a clear screen
            assert re.search(r"\r\x1b\[J\r+\nClosed: the server is stopping; your game", ann.raw)

        run(main())
        assert server.wait(30) == (130 if signal_name == "SIGINT" else 143)
    finally:
        server.kill()
        server.wait()
        if server.stderr is not None:
            server.stderr.close()
    saved = tmp_path / "server" / "tables" / "table-1.toml"
    assert replay(loads(saved.read_text(encoding="utf-8"))).state is not None
    assert (tmp_path / "server" / "host_key").stat().st_mode & 0o777 == 0o600


@pytest.mark.slow
def test_one_person_on_two_connections_never_holds_another_seat(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("new 3 61")
            await ann.expect(r"Table 1 is open")
            first, second = await connect(server, "bob"), await connect(server, "bob")
            first.type("join 1")
            await first.expect(r"You sit at table 1\.")
            second.type("join 1")
            await second.expect(r"You sit at table 1\.")  # the same seat
            first.type("leave")
            await second.expect(r"You left table 1\.")
            cat = await connect(server, "cat")
            cat.type("join 1")
            await cat.expect(r"You sit at table 1\.")
            second.type("tables")
            await second.expect(r"Table 1: ann, cat, - \(3 seats, to 61\): 1 seat open")
            second.type("4H")  # in the lobby now: a card is nothing to it
            await second.expect(r"`4h` is not a lobby command")

    run(main())


@pytest.mark.slow
def test_what_a_person_types_wrong_is_one_line(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            for line, said in (
                ("join ²", r"join a table by its number, e\.g\. `join 2`"),
                ("join 9", r"there is no table 9"),
                ("new computers ²", r"`computers` is not something a table has"),
                ("new 2 away -1", r"`away` is not something a table has"),
                ("dance", r"`dance` is not a lobby command"),
            ):
                ann.type(line)
                await ann.expect(said)
            ann.type("stats")  # a guest is told what can be done here
            await ann.expect(r"No finished games yet: `solo` plays the computer, `new` opens")
            ann.type("solo")
            await ann.expect(r"Put 2 in the crib>")
            ann.type("help")  # the table's words, not `play`'s
            listed = (await ann.expect(r"Type cards[^>]*>")).group()
            for word in ("hint", "who", "takeover", "sit", "leave", "help"):
                assert re.search(rf"\n  {word} +\w", listed), word
            assert "undo" not in listed and "next time" not in listed and "quit" not in listed
            with pytest.raises(asyncssh.PermissionDenied):
                await door(server, "You", KEYS["dan"])  # the table's word for oneself

    run(main())


@pytest.mark.slow
def test_a_served_table_is_drawn_as_play_draws_it(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann", size=(80, 24))
            ann.type("solo easy")
            await ann.expect(r"Your hand: (\S+ ){5}\S+\s+Put 2 in the crib>")
            await ann.expect(r"\nYou      ·····[ ·|]*\n +0      ·····[ ·|]*\nComputer ·····")
            await ann.expect(r"Round 1: \w+ deals?\. To go: You 121, Computer 121\.")

    run(main())


@pytest.mark.slow
def test_enter_after_a_served_game_goes_back_to_the_lobby(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path) as server:
            ann = await connect(server, "ann")
            ann.type("solo")
            await play_out(ann)
            ann.type("")  # Enter, after the game: the lobby
            await ann.expect(r"Here: ann\.")

    run(main())


@pytest.mark.slow
def test_one_terminal_a_connection_and_none_for_long(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path, limits=Limits(login=0.5)) as server:
            ann = await connect(server, "ann")
            with pytest.raises(asyncssh.ChannelOpenError):
                await ann.connection.create_process(term_type="xterm")
            quiet = await door(server, "bob", KEYS["bob"])  # logged in, no terminal
            await asyncio.wait_for(quiet.wait_closed(), 60)
            plain = await door(server, "cat", KEYS["cat"])  # a session with no terminal
            process = await plain.create_process()
            told = await asyncio.wait_for(process.stdout.read(), 60)  # (ceilings: hangs only)
            assert "A terminal is needed to play: connect with `ssh -t`." in told

    run(main())


@pytest.mark.slow
@pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("ssh", "ssh-keygen", "tmux")),
    reason="needs OpenSSH's client and tmux",
)
def test_an_openssh_client_sees_the_table_as_play_draws_it(tmp_path: Path) -> None:
    """ann plays the computer from OpenSSH's own client in a real terminal (tmux, 80x24):
    her hand, the prompt, and the board below it, as `cribbage play` draws them."""
    import subprocess
    import sys
    import time

    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "ann")], check=True
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "cribcli", "serve", "--open", "--port", "0"]
        + ["--data-dir", str(tmp_path / "data")],
        stderr=subprocess.PIPE,
        text=True,
    )
    tmux = ["tmux", "-L", f"ssh-{tmp_path.name}"]
    try:
        assert server.stderr is not None
        port = next(line.split()[-1] for line in server.stderr if "listening on" in line)
        ssh = (
            f"ssh -tt -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
            f"-o LogLevel=ERROR -i {tmp_path / 'ann'} -p {port} ann@127.0.0.1"
        )
        subprocess.run([*tmux, "new-session", "-d", "-x", "80", "-y", "24", ssh], check=True)

        def screen_with(words: str) -> list[str]:
            deadline = time.monotonic() + 60  # a ceiling that only catches a hang
            shown: list[str] = []
            while time.monotonic() < deadline:
                shown = (
                    subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True)
                    .stdout.rstrip("\n")
                    .split("\n")
                )
                if any(words in line for line in shown):
                    return shown
                time.sleep(0.2)
            raise AssertionError(f"never saw {words!r}:\n" + "\n".join(shown))

        screen_with("lobby>")
        subprocess.run([*tmux, "send-keys", "solo", "Enter"], check=True)
        shown = screen_with("To go: You 121, Computer 121.")
        assert any(re.match(r"Your hand: (\S+ ){5}\S+$", line) for line in shown)
        prompt = next(n for n, line in enumerate(shown) if line.startswith("Put 2 in the crib>"))
        assert shown[prompt + 1].startswith("You      ·····")  # the board under the prompt
        assert shown[prompt + 3].startswith("Computer ·····")
        assert shown[prompt + 5].startswith("Round 1: ")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        server.kill()
        server.wait()
        if server.stderr is not None:
            server.stderr.close()


@pytest.mark.slow
def test_silent_sockets_take_no_person_s_place(tmp_path: Path) -> None:
    """A hundred TCP connections that never speak: those logged in play on, and the room's
    places for people stay theirs (the silent ones wait in a pool of their own)."""

    async def main() -> None:
        limits = Limits(connections=3)
        async with running(tmp_path, limits=limits) as server:
            ann = await connect(server, "ann")
            ann.type("solo easy")
            await ann.expect(r"Table 1: you and the computer")
            silent = []
            for _ in range(100):
                with contextlib.suppress(ConnectionError):
                    silent.append(await asyncio.open_connection("127.0.0.1", server.port))
            await play_out(ann, 2)  # ann's table goes on
            for reader, _ in silent[10:]:  # past ten from one address: closed at once
                await asyncio.wait_for(reader.read(), 30)  # (a ceiling: hangs only)
                assert reader.at_eof()
            for _, writer in silent:
                writer.close()
            bob = await connect(server, "bob")  # the people's places were never taken
            bob.type("tables")
            await bob.expect(r"Table 1")

    run(main())


@pytest.mark.slow
def test_the_watchdog_ends_a_server_whose_loop_is_held_up() -> None:
    """SIGTERM while the event loop is stuck (as a blocking write once held it): the
    server ends STOP_WITHIN seconds later all the same, with SIGTERM's status."""
    import signal
    import subprocess
    import sys
    import time

    held_up = (
        "import asyncio, os, signal, threading, time\n"
        "from cribcli.ui.serve.ssh import Watchdog\n"
        "async def main():\n"
        "    stop = asyncio.Event()\n"
        "    with Watchdog(asyncio.get_running_loop(), stop):\n"
        "        print('held', flush=True)\n"
        "        time.sleep(120)  # the loop held up: nothing else runs\n"
        "        await stop.wait()\n"
        "asyncio.run(main())\n"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", held_up], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert server.stdout is not None
    assert server.stdout.readline() == "held\n"
    sent = time.monotonic()
    server.send_signal(signal.SIGTERM)
    status = server.wait(60)  # a ceiling: only a hang meets it
    assert status == 128 + signal.SIGTERM
    assert server.stderr is not None and "not stopped within 5 s" in server.stderr.read()
    assert time.monotonic() - sent >= 5.0  # it waited its time first, then ended


@pytest.mark.slow
def test_bytes_that_are_not_utf8_are_left_out_and_the_person_told(tmp_path: Path) -> None:
    """A client that sends bytes that are not UTF-8 is not cut off with no word: they
    are left out, it is told so, and what it types next is read."""

    async def main() -> None:
        async with running(tmp_path) as server:
            connection = await door(server, "ann", KEYS["ann"])
            process = await connection.create_process(
                term_type="xterm", term_size=(100, 40), encoding=None
            )
            raw: asyncssh.SSHClientProcess[bytes] = process
            seen = b""

            async def expect(pattern: bytes) -> None:
                nonlocal seen
                async with asyncio.timeout(60):  # a ceiling: only a hang meets it
                    while not re.search(
                        pattern, _CONTROLS.sub("", seen.decode("utf-8", "replace")).encode()
                    ):
                        chunk = await raw.stdout.read(65536)
                        assert chunk, seen[-2000:]
                        seen += chunk

            await expect(rb"Welcome to cribbage, ann\.")
            raw.stdin.write(b"\xff\xfe\xc3tab\x80les\r")
            await expect(rb"not UTF-8 text: left out")
            await expect(rb"Here: ann\.")  # `tables`, read without the bytes

    run(main())


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 40])
def test_the_server_s_own_text_fits_the_terminal_with_no_word_broken(
    tmp_path: Path, width: int
) -> None:
    """The lobby's help and its tables, `top`, `stats`, a watcher's help and a table's
    error: no line wider than the terminal, no word broken, at 80 and at 40 columns."""
    from cribcli.ui.serve.lobby_words import lobby_help
    from cribcli.ui.serve.table_words import WATCH_HELP

    async def main() -> None:
        async with running(tmp_path) as server:
            size = (width, 24)
            ann = await connect(server, "ann", size)
            ann.type("new 2 best-of 3 clock 60")
            await ann.expect(r"join 1")
            bob = await connect(server, "bob", size)
            for word in ("tables", "help", "top", "stats"):
                bob.type(word)
            await bob.expect(r"your history")
            await bob.expect(r"No finished games yet")
            bob.type("join 1")
            await ann.expect(r"Put 2 in the crib>")
            ann.type("zz")
            await ann.expect(r"`zz` is not")
            eve = await connect(server, "eve", size)
            eve.type("watch 1")
            await eve.expect(r"You watch table 1")
            eve.type("help")
            await eve.expect(r"back to the lobby")
            drawn = re.compile(r"\x1b\[[0-9;]*[ABCDGHf]")  # the editor moving about: its own
            for screen in (ann, bob, eve):
                await screen.settle()
                said = [line for line in screen.raw.split("\n") if not drawn.search(line)]
                assert len(said) > 10
                for line in said:  # each line said above the prompt, as the terminal gets it
                    seen = _CONTROLS.sub("", line).rstrip("\r ")
                    assert len(seen) <= width, (width, seen)
            words = {w for line in [*lobby_help(), *WATCH_HELP] for w in line.split()}
            shown = set(bob.text.split()) | set(eve.text.split())
            assert words <= shown, words - shown  # each word whole somewhere

    run(main())
