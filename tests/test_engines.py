"""The engine protocol: bots at the table, refereed by ``match`` and ``play``.

Every game against an engine, however the engine behaves, ends with a log that replays
to the right result, and leaves no process behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

from cribcli.players import Level, computer
from cribcli.players.base import PlayerFailed
from cribcli.protocol import referee as engines
from cribcli.protocol.messages import (
    ProtocolError,
    decision,
    read_answer,
    read_hello,
    serve,
    view_from,
)
from cribcli.record.log import GameInfo, LogError, Seat
from cribcli.record.log import Result as GameResult
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.rules.cards import Card
from cribcli.rules.engine import (
    Discard,
    Forfeit,
    IllegalAction,
    Phase,
    Play,
    Rules,
    ShownDeal,
    View,
    apply,
    new_game,
)
from cribcli.services.match import GameSummary, Setup, match_game

from .conftest import Result, Run, time_limit

ROOT = Path(__file__).parent.parent
PYTHON = shlex.quote(sys.executable)
BOT = f"engine:{PYTHON} {ROOT / 'examples' / 'simple_bot.py'}"
OURS = f"engine:{PYTHON} -m cribcli engine --level normal"


def broken(mode: str) -> str:
    return f"engine:{PYTHON} {ROOT / 'tests' / 'engines' / 'broken.py'} {mode}"


MARK = "CRIBCLI_ENGINE_TEST"
"""Set to a value of its own in each test's environment, which every process the test
starts inherits (an engine's children too, and an engine left behind): the processes
of this test are told apart from those of tests running beside it."""


def leftovers() -> dict[int, str]:
    """Processes started by this test that are still running (not the test's own), by
    process id: their command lines."""
    mark = f"{MARK}={os.environ[MARK]}".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if mark in (entry / "environ").read_bytes().split(b"\0"):
                    command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                    found[int(entry.name)] = command
            except OSError:
                continue
    return found


@pytest.fixture(autouse=True)
def nothing_left_behind(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """After each test, no process it started is running (given a moment to be reaped)."""
    monkeypatch.setenv(MARK, uuid.uuid4().hex)
    yield
    deadline = time.monotonic() + 60  # a ceiling: a busy machine may be slow to reap
    while leftovers() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = leftovers()
    for pid in left:  # a failed test leaves nothing running either
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert list(left.values()) == []


def match_logs(cribbage: Run, tmp_path: Path, *args: str) -> tuple[Result, dict[str, object]]:
    result = cribbage("match", *args, "--json", "--log-dir", str(tmp_path))
    assert result.status == 0, result.err
    return result, json.loads(result.out)


def replayed(tmp_path: Path) -> list[tuple[GameInfo, GameResult]]:
    """Each log of the folder, replayed through the rules: its info and its result."""
    games = []
    for path in sorted(tmp_path.glob("game-*.toml")):
        checked = replay(loads(path.read_text()))
        assert checked.finished and checked.log.result is not None, path
        games.append((checked.log.info, checked.log.result))
    return games


# --- the messages -------------------------------------------------------------------------


@pytest.mark.parametrize("muggins", [False, True])
def test_an_engine_rebuilds_the_deals_shown_from_what_it_is_told(muggins: bool) -> None:
    """The past a computer in the engine's process sees is the one it would see at the
    table: rebuilt from the events the referee tells its seat, nothing more; in a second
    game, the first game's deals it is given with ``new_game`` (as its seat saw them),
    then the second's."""
    from cribcli.protocol.messages import Shows, earlier_from, told
    from cribcli.protocol.messages import new_game as new_game_message
    from cribcli.record.log import GameInfo, Seat, begin, carried
    from cribcli.record.session import next_action
    from cribcli.rules.engine import view as seen_by

    rules = Rules(target=61, muggins=muggins)
    players = [computer("normal", 5, 0), computer("easy", 5, 1)]
    earlier: tuple[ShownDeal, ...] = ()
    for game in range(2):
        info = GameInfo(rules, (Seat("A"), Seat("B")), f"5/{game}", earlier=earlier)
        state, events = begin(info)
        shows = []
        for seat in (0, 1):
            message = json.loads(json.dumps(new_game_message(info, seat)))
            assert ("earlier" in message) == bool(earlier)
            shows.append(Shows(seat, rules, earlier_from(message, rules, seat)))
        checked = 0
        while state.phase is not Phase.OVER:
            for seat in (0, 1):
                for event in events:
                    shows[seat].hear(json.loads(json.dumps(told(event, seat))))
                assert shows[seat].past == seen_by(state, seat).past
            checked += len(state.past)
            state, events = apply(state, next_action(state, players))
        assert checked > 10 and len(state.past) - len(earlier) >= 3
        assert state.past[: len(earlier)] == earlier
        earlier = carried(state.past)


def test_an_engine_leaves_out_an_earlier_deal_that_is_no_deal() -> None:
    """Earlier deals a referee gives are checked as they are read: a card shown twice,
    a throw not in the crib, a card laid that its seat did not keep, or a message of the
    wrong shape leaves that deal out, never the engine stopped."""
    from cribcli.protocol.messages import Shows, deal_json, earlier_from
    from cribcli.record.session import next_action

    rules = Rules()
    state, _ = new_game(rules, 3)
    players = [computer("easy", 3, 0), computer("easy", 3, 1)]
    while not state.past:
        state, _ = apply(state, next_action(state, players))
    good = cast(dict[str, Any], deal_json(state.past[0].seen_by(0)))
    twice = {**good, "crib": [good["starter"], *good["crib"][1:]]}
    foreign = {**good, "thrown": [good["kept"][0][:2], []]}
    laid = {**good, "plays": [[0, good["kept"][1][0]]]}
    unthrown = {**good, "thrown": [[], []]}  # (its own throw is what it reads the other by)
    endless = {**good, "dealer": float("inf")}  # (JSON's Infinity)
    nothing = ["nonsense", {"dealer": "x"}, [1, 2], {**good, "plays": [[float("nan"), "5H"]]}]
    said = {"earlier": [good, twice, foreign, laid, unthrown, endless, *nothing]}
    assert earlier_from(said, rules, 0) == (state.past[0].seen_by(0),)
    assert earlier_from({"earlier": "all of them"}, rules, 0) == ()
    # told every seat's throw, it keeps its own only, as its view would
    whole = cast(dict[str, Any], deal_json(state.past[0]))
    assert all(whole["thrown"]) and earlier_from({"earlier": [whole]}, rules, 1) == (
        state.past[0].seen_by(1),
    )
    assert len(earlier_from({"earlier": [whole] * 30}, rules, 1)) == 24  # the last 24
    shows = Shows(0, rules)
    shows.hear({"event": "dealt", "dealer": float("inf")})  # heard, and passed over
    shows.hear({"event": "played", "seat": float("inf"), "card": "5H"})
    assert shows.past == ()


def test_a_decision_carries_the_whole_view() -> None:
    """What the referee sends is enough to rebuild what the seat sees, at every decision
    of a whole game (the deals already shown it heard at their shows): an engine needs
    nothing else, and sees nothing more."""
    seen_views: list[View] = []

    class Checking:
        def __init__(self, seat: int) -> None:
            self.inner = computer("normal", 4, seat)

        def discard(self, view: View) -> tuple[Card, ...]:
            seen_views.append(view)
            return self.inner.discard(view)

        def play(self, view: View) -> Card:
            seen_views.append(view)
            return self.inner.play(view)

    from cribcli.record.session import run_game

    for players in (2, 3, 4):
        rules = Rules(players=players, cut_for_deal=players > 2, target=61)
        info = GameInfo(rules, tuple(Seat(f"S{n}", "computer") for n in range(players)), 4)
        run_game(info, [Checking(n) for n in range(players)])
    assert len(seen_views) > 100
    for view in seen_views:
        message = json.loads(json.dumps(decision(view)))
        in_order = replace(  # the message gives cards sorted, as a person sees them
            view,
            hand=tuple(sorted(view.hand)),
            kept=tuple(sorted(view.kept)),
            discards=tuple(sorted(view.discards)),
            past=(),  # the deals shown before: told at each show (rebuilt by `Shows`)
        )
        assert view_from(message, view.rules) == in_order
        assert "deck" not in message and "crib" not in message and "seed" not in message


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ('{"card": "9Z"}', "is not a card"),
        ('{"card": "KS"}', "KS is not held"),
        ('{"card": "10H"}', "would pass 31 from 25"),
        ('{"cards": ["5H"]}', "a play is"),
        ("[1, 2]", "not a JSON object"),
        ("thinking", "not JSON"),
    ],
)
def test_an_answer_is_checked_against_what_the_seat_could_do(answer: str, why: str) -> None:
    seen = View(
        seat=1,
        rules=Rules(),
        round=1,
        dealer=0,
        phase=Phase.PLAY,
        scores=(0, 0),
        hand=tuple(Card.parse(text) for text in ("10H", "5H", "AC")),
        discards=(),
        kept=(),
        held=(3, 3),
        starter=Card.parse("2D"),
        pile=tuple(Card.parse(text) for text in ("JD", "5C", "KD")),
        plays=(),
        gos=(),
        passed=frozenset(),
        to_play=1,
    )
    assert read_answer('{"card": "5H"}', seen) == Play(1, Card.parse("5H"))
    with pytest.raises(ProtocolError, match=why):
        read_answer(answer, seen)


def test_cribbage_engine_answers_a_referee() -> None:
    """Our own side of the protocol, message by message: hello, a game, a discard."""
    said: list[str] = []
    lines = [
        '{"type": "hello", "protocol": 1}',
        '{"type": "new_game", "seat": 0, "rules": {"players": 2, "target": 121}}',
        '{"type": "some_later_message"}',
        json.dumps(
            {
                "type": "discard",
                "seat": 0,
                "round": 1,
                "dealer": 1,
                "scores": [0, 0],
                "hand": ["5H", "5S", "JD", "4C", "9S", "KH"],
                "playable": [],
                "count": 0,
                "pile": [],
                "starter": None,
                "held": [6, 6],
                "plays": [],
                "gos": [],
                "passed": [],
                "throw": 2,
            }
        ),
        '{"type": "quit"}',
        '{"type": "hello", "protocol": 1}',  # after quit: never read
    ]
    serve("hard", 1, iter(lines), said.append)
    hello, thrown = (json.loads(line) for line in said)
    assert hello == {"type": "hello", "name": "cribcli hard", "author": "cribcli", "protocol": 1}
    assert len(thrown["cards"]) == 2 and set(thrown["cards"]) <= {
        "5H",
        "5S",
        "JD",
        "4C",
        "9S",
        "KH",
    }
    with pytest.raises(ProtocolError, match="not JSON"):
        serve("easy", 1, iter(["{"]), said.append)


# --- matches against engines ---------------------------------------------------------------


@pytest.mark.slow
def test_the_example_bot_plays_hard_to_the_end(cribbage: Run, tmp_path: Path) -> None:
    _, report = match_logs(cribbage, tmp_path, "hard", BOT, "--games", "2", "--short")
    games = replayed(tmp_path)
    assert len(games) == 2 == report["games"]
    assert report["forfeits"] == [0, 0]
    assert report["names"] == ["Hard 0", "Simple bot"]
    for info, _ in games:
        assert info.seats[1] == Seat("Simple bot", "engine", command=BOT.removeprefix("engine:"))
    winners = [result.winner for _, result in games]
    assert report["wins"] == [winners.count(0), winners.count(1)]


def test_our_engine_plays_through_the_protocol(cribbage: Run, tmp_path: Path) -> None:
    _, report = match_logs(cribbage, tmp_path, OURS, "normal", "--games", "2", "--short")
    assert report["names"] == ["cribcli normal", "Normal 1"]
    assert report["forfeits"] == [0, 0] and len(replayed(tmp_path)) == 2


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("illegal", r"answered `\{\"card\": \"A[SHDC]\"\}`: A[SHDC] is not held"),
        pytest.param("sleep", "no answer within 2 s", marks=pytest.mark.slow),
        ("junk", r"answered `\\x1b\[31mthinking...`: not JSON"),
        ("exit", r"it stopped \(exit status 3\) before its answer"),
        pytest.param("long", "it wrote a line longer than 64 KiB", marks=pytest.mark.slow),
        ("chatty", "it wrote a line nobody asked for"),
        # Stopped before it was asked again, or while being asked: which, the race decides;
        # and on a busy machine it may not have exited yet when its pipe is found closed.
        (
            "quits",
            r"it (stopped \(exit status 4\)|closed its (input|output)) before its "
            r"(next question|answer)",
        ),
        ("mute", "no hello within 0.5 s"),
        pytest.param("children", "no answer within 2 s", marks=pytest.mark.slow),
    ],
)
def test_a_broken_engine_forfeits_and_the_log_says_why(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, reason: str
) -> None:
    # Short limits only where the engine is silent or asleep: one that answers has all the
    # time it needs, however busy the machine.
    limit = {"mute": "0.5", "sleep": "2", "children": "2"}.get(mode, "60")
    monkeypatch.setattr(engines, "START_TIME", 0.5 if mode == "mute" else 60.0)
    _, report = match_logs(
        cribbage, tmp_path, "easy", broken(mode), "--games", "1", "--short", "--move-time", limit
    )
    assert report["wins"] == [1, 0] and report["forfeits"] == [0, 1]
    reasons = report["forfeit_reasons"]
    assert isinstance(reasons, list) and reasons[0] == [] and len(reasons[1]) == 1
    told = reasons[1][0]
    assert re.fullmatch(reason, told), told
    [(_, result)] = replayed(tmp_path)
    assert (result.forfeit, result.reason, result.winner) == (1, told, 0)
    text = cribbage("match", "easy", broken(mode), "--games", "1", "--short", "--move-time", limit)
    assert "forfeited 1:" in text.out and "\x1b" not in text.out


def test_an_engine_that_cannot_start_forfeits_each_game(cribbage: Run, tmp_path: Path) -> None:
    # there, but its interpreter is not: it is found, and fails as each game starts it
    bot = tmp_path / "bot"
    bot.write_text("#!/no/such/interpreter\n", encoding="utf-8")
    bot.chmod(0o755)
    _, report = match_logs(cribbage, tmp_path, "easy", f"engine:{bot}", "--games", "2")
    assert report["forfeits"] == [0, 2]
    assert report["forfeit_reasons"] == [
        [],
        ["it could not be started (No such file or directory)"],
    ]


def test_a_forfeit_is_checked_on_replay(tmp_path: Path) -> None:
    seats = (Seat("A", "computer", Level.EASY), Seat("B", "engine", command="b"))
    info = GameInfo(Rules(target=61), seats, 1)
    from cribcli.record.log import dumps

    state, events = new_game(info.rules, info.seed)
    state, more = apply(state, Forfeit(1, "no answer within 1 s"))
    text = dumps(info, [*events, *more])
    assert replay(loads(text)).finished
    for wrong, message in [
        ("forfeit = 1", "forfeit = 0"),
        ('reason = "no answer within 1 s"', 'reason = "' + "x" * 201 + '"'),
        ("forfeit = 1", "forfeit = 5"),
        # A game against the computer cannot be turned into a win by a forged forfeit.
        ('player = "engine", command = "b"', 'player = "computer", level = "easy"'),
    ]:
        assert wrong in text
        with pytest.raises(LogError):
            replay(loads(text.replace(wrong, message)))
    # Nor can a seat forfeit out of turn: only when the game waits for its decision.
    state_before = new_game(info.rules, info.seed)[0]
    discarded, _ = apply(state_before, Discard(0, state_before.hands[0][:2]))
    discarded, _ = apply(discarded, Discard(1, discarded.hands[1][:2]))
    assert discarded.to_play is not None
    with pytest.raises(IllegalAction, match="waits for its decision"):
        apply(discarded, Forfeit(1 - discarded.to_play, "x"))


# --- duplicate -------------------------------------------------------------------------------


def test_duplicate_plays_each_deal_twice_with_the_seats_swapped(
    cribbage: Run, tmp_path: Path
) -> None:
    _, report = match_logs(
        cribbage, tmp_path, "easy", "normal", "--games", "4", "--duplicate", "--short"
    )
    logs = [loads(path.read_text()) for path in sorted(tmp_path.glob("game-*.toml"))]
    for first, twin in (logs[0:2], logs[2:4]):
        assert first.info.seed == twin.info.seed
        assert first.rounds[0].dealt == twin.rounds[0].dealt  # the same cards, seat by seat
        assert [s.level for s in first.info.seats] == ["easy", "normal"]
        assert [s.level for s in twin.info.seats] == ["normal", "easy"]
    easy_wins = sum(
        log.result is not None and log.info.seats[log.result.winner].level == "easy" for log in logs
    )
    assert report["wins"] == [easy_wins, 4 - easy_wins] and report["duplicate"] is True
    odd = cribbage("match", "easy", "normal", "--games", "3", "--duplicate")
    assert odd.status == 2 and "even" in odd.err


def duplicate_report(winners: list[tuple[int, int]]) -> object:
    from cribcli.services.match import GameSummary, Report

    report = Report(("a", "b"), duplicate=True)
    for pair, seats in enumerate(winners):  # the winning seat of each twin game
        for swapped, seat in zip((False, True), seats, strict=True):
            report.add(GameSummary(2 * pair + swapped, "s", 0, seat, (61, 40), "", (), (), swapped))
    return report


def test_a_game_with_no_result_is_counted_apart_and_breaks_its_pair() -> None:
    from cribcli.services.match import GameSummary, Report, VoidGame

    def won(index: int, seat: int, swapped: bool) -> GameSummary:
        return GameSummary(index, "s", 0, seat, (61, 40), "", (), (), swapped)

    report = Report(("a", "b"), duplicate=True)
    killed = "an engine was killed from outside (signal 9)"
    for game in (
        won(0, 0, False), won(1, 1, True),  # a whole pair: "a" won both
        VoidGame(2, killed), won(3, 0, True),  # the first had no result: no pair
        won(4, 0, False), VoidGame(5, killed, swapped=True),  # the twin none: no pair
        won(6, 1, False), won(7, 0, True),  # a whole pair: "b" won both
    ):  # fmt: skip
        report.add(game)
    assert report.games == 6 and report.voids == 2 and report.void_reasons == [killed]
    assert report.pairs == [2, 0]
    assert report.as_json()["voids"] == 2


def test_the_duplicate_interval_comes_from_the_pairs() -> None:
    from cribcli.services.match import Report, t_quantile, wilson

    # "a" sits in seat 0, then in seat 1: its wins by pair are 2, 1, 1 and 0 of 2.
    few = duplicate_report([(0, 1), (0, 0), (1, 1), (1, 0)])
    assert isinstance(few, Report)
    assert few.pairs == [2, 1, 1, 0] and few.wins == [4, 4]
    assert few.win_rate() == (0.5, *wilson(2, 4)[1:])  # few pairs: Wilson, a pair a game
    swept = duplicate_report([(0, 1)] * 40)  # every pair 2-0: no spread to measure
    assert isinstance(swept, Report)
    share, low, high = swept.win_rate()
    assert share == 1.0 and high == 1.0 and low == pytest.approx(wilson(40, 40)[1]) and low < 1
    many = duplicate_report([(0, 1), (0, 0), (1, 1), (1, 0)] * 10)  # 40 pairs
    assert isinstance(many, Report)
    shares = [1, 0.5, 0.5, 0] * 10
    spread = (sum((x - 0.5) ** 2 for x in shares) / 39) ** 0.5
    half = t_quantile(39) * spread / 40**0.5
    assert many.win_rate() == pytest.approx((0.5, 0.5 - half, 0.5 + half))


# --- the referee never hangs and leaves nothing behind ---------------------------------------


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_no_engine_outlives_its_referee(how: signal.Signals, tmp_path: Path) -> None:
    asleep = tmp_path / "asleep"
    referee = subprocess.Popen(
        [sys.executable, "-m", "cribcli", "match", "easy", broken("sleep"), "--move-time", "100"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "BROKEN_ASLEEP": str(asleep)},
    )
    deadline = time.monotonic() + 60  # a ceiling: only a hang meets it
    while not asleep.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert asleep.exists(), "the engine never reached its fifth decision"
    referee.send_signal(how)  # the engine asleep at its fifth decision
    referee.wait(60)
    # the fixture checks that the engine is gone


def test_a_sandbox_without_bubblewrap_says_what_to_install(
    cribbage: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engines, "SANDBOX", "no-such-sandbox-here")
    result = cribbage("match", "easy", BOT, "--sandbox", "--games", "1")
    assert result.status == 2 and "bubblewrap" in result.err
    assert result.err.count("\n") == 1 and result.out == ""


def asleep_at_the_table(
    tmp_path: Path, move_time: int, *options: str
) -> tuple[subprocess.Popen[str], int]:
    """A match of the simple bot against an engine that falls asleep at its fifth
    decision, run until it has: the referee, and the sleeping engine's process id."""
    asleep = tmp_path / "asleep"
    referee = subprocess.Popen(
        [sys.executable, "-m", "cribcli", "match", BOT, broken("sleep"), "--games", "1"]
        + ["--move-time", str(move_time), "--json", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "BROKEN_ASLEEP": str(asleep)},
    )
    deadline = time.monotonic() + 60  # a ceiling: only a hang meets it
    while not asleep.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    (engine,) = [
        pid
        for pid, command in leftovers().items()
        if "broken.py sleep" in command and "-m cribcli" not in command  # not the referee
    ]
    return referee, engine


@pytest.mark.slow
def test_an_engine_killed_from_outside_leaves_the_game_without_a_result(tmp_path: Path) -> None:
    """Another program (here the test) kills an engine mid-game, a program its rival
    too: no forfeit is written against it (the rival could have done it); the game has
    no result, and the report says so. (Against our own levels, or in a sandbox, nothing
    else at the table could have: see the next test.)"""
    logs = tmp_path / "logs"
    referee, engine = asleep_at_the_table(tmp_path, 100, "--log-dir", str(logs))
    os.kill(engine, signal.SIGKILL)
    out, _ = referee.communicate(timeout=60)
    report = json.loads(out)
    assert report["forfeits"] == [0, 0] and report["games"] == 0 and report["voids"] == 1
    assert report["void_reasons"] == ["an engine was killed from outside (signal 9)"]
    (log,) = logs.glob("game-*.toml")
    assert not replay(loads(log.read_text(encoding="utf-8"))).finished  # it stops there


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux's /proc")
def test_an_engine_stopped_from_outside_leaves_the_game_without_a_result(tmp_path: Path) -> None:
    """Another program stops an engine (SIGSTOP) as it is asked, a program its rival
    too: out of time, it is not charged with the forfeit; the game has no result."""
    referee, engine = asleep_at_the_table(tmp_path, 20)
    os.kill(engine, signal.SIGSTOP)  # within its 20 s: the referee is still waiting
    out, _ = referee.communicate(timeout=60)
    report = json.loads(out)
    assert report["forfeits"] == [0, 0] and report["voids"] == 1
    assert report["void_reasons"] == ["an engine was stopped from outside"]


@pytest.mark.slow
@pytest.mark.parametrize(("rival", "mode"), [("easy", "suicide"), (BOT, "crash")])
def test_an_engine_s_own_death_is_a_forfeit(
    cribbage: Run, tmp_path: Path, rival: str, mode: str
) -> None:
    """Killed by a signal with no other program at the table (only itself could have
    sent it), or dead of its own fault (a crash) whoever sits there: a forfeit, not a game
    without a result."""
    _, report = match_logs(cribbage, tmp_path, rival, broken(mode), "--games", "1", "--short")
    assert report["voids"] == 0 and report["forfeits"] == [0, 1]


@pytest.mark.slow
@pytest.mark.skipif(engines.sandbox_missing() is not None, reason="needs bubblewrap")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_sandboxed_engine_sees_no_other_process(cribbage: Run, tmp_path: Path, jobs: str) -> None:
    """Seen from inside its sandbox the machine holds only the engine's own processes
    (outside, it sees many, and the census engine forfeits: the check can fail)."""
    _, report = match_logs(
        cribbage, tmp_path, broken("census"), "easy", "--games", "2", "--short", "--jobs", jobs,
        "--sandbox",
    )  # fmt: skip
    assert report["games"] == 2 and report["forfeits"] == [0, 0]
    _, unsandboxed = match_logs(
        cribbage, tmp_path / "open", broken("census"), "easy", "--games", "1", "--short"
    )
    assert unsandboxed["forfeits"] == [1, 0]


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a subreaper is Linux's")
def test_what_an_engine_abandons_is_reaped_as_the_game_goes(cribbage: Run, tmp_path: Path) -> None:
    """An engine that leaves a process behind at every decision (each ends soon after,
    the referee's to reap): the referee never holds more than a few ended ones (the engine
    counts them, and forfeits past five), and none is left when the match ends."""
    _, report = match_logs(
        cribbage, tmp_path, broken("abandons"), "easy", "--games", "2", "--jobs", "1"
    )
    assert report["games"] == 2 and report["forfeits"] == [0, 0]


@pytest.mark.skipif(engines.sandbox_missing() is not None, reason="needs bubblewrap")
def test_a_log_folder_an_engine_must_see_is_refused_with_a_sandbox(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the engines run here: the logs may not go here
    refused = cribbage("match", "easy", BOT, "--sandbox", "--log-dir", ".", "--games", "2")
    assert refused.status == 2 and "--log-dir must be a folder of its own" in refused.err
    assert not list(tmp_path.glob("game-*.toml"))


@pytest.mark.slow
@pytest.mark.skipif(engines.sandbox_missing() is not None, reason="needs bubblewrap")
def test_a_sandboxed_engine_cannot_read_the_match_s_logs(cribbage: Run, tmp_path: Path) -> None:
    """In duplicate, a game's log shows the deal its twin is about to play: a program in
    a sandbox finds the log folder empty (outside, the peeking engine sees the first
    game's log and forfeits the second: the check can fail)."""
    for sandbox, forfeits in (("--sandbox", 0), ("--short", 1)):
        logs = tmp_path / sandbox
        logs.mkdir()
        _, report = match_logs(
            cribbage, logs, f"{broken('peeks')} {logs}", "easy", "--games", "2", "--duplicate",
            "--short", "--jobs", "1", sandbox,
        )  # fmt: skip
        assert sum(cast(list[int], report["forfeits"])) == forfeits, report
        assert len(list(logs.glob("game-*.toml"))) == 2


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("mode", ["spawns", "escapes"])
def test_a_match_leaves_nothing_an_engine_started(
    cribbage: Run, tmp_path: Path, jobs: str, mode: str
) -> None:
    """An engine that plays well but starts a process that ignores SIGTERM (in its
    process group, or in a session of its own with a child of its own): when the match
    ends (in the worker processes too), every one of them goes."""
    if mode == "escapes" and not sys.platform.startswith("linux"):
        pytest.skip("a process outside the group is ended on Linux only (a subreaper)")
    _, report = match_logs(
        cribbage, tmp_path, broken(mode), "easy", "--games", "4", "--jobs", jobs, "--short"
    )
    assert report["games"] == 4 and report["forfeits"] == [0, 0]


def test_match_game_gives_the_engine_the_game_in_order() -> None:
    summary = match_game(Setup(("easy", BOT), "x", target=61), 0)
    assert isinstance(summary, GameSummary)
    assert summary.names[1] == "Simple bot" and summary.forfeit is None
    engines.stop_all()


# --- at the table --------------------------------------------------------------------------


def play_against(opponent: str, home: Path, *more: str) -> tuple[list[dict[str, Any]], int]:
    """A whole ``play --json --opponent`` game, the person throwing their first cards and
    laying their first playable card: every event, and the exit status."""
    events = []
    with (
        subprocess.Popen(
            [sys.executable, "-m", "cribcli", "play", "--json", "--opponent", opponent, *more],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "CRIBBAGE_HOME": str(home)},
        ) as game,
        time_limit(60),
    ):
        assert game.stdin is not None and game.stdout is not None
        for line in game.stdout:
            event = json.loads(line)
            events.append(event)
            if event["event"] == "prompt":
                if event["waiting_for"] == "discard":
                    answer = " ".join(event["hand"][: event["throw"]])
                else:
                    answer = event["playable"][0]
                game.stdin.write(answer + "\n")
                game.stdin.flush()
        game.stdin.close()
        return events, game.wait()


@pytest.mark.slow
def test_play_seats_an_engine_at_the_table(tmp_path: Path) -> None:
    events, status = play_against(BOT, tmp_path, "--seed", "3", "--short")
    assert status == 0
    assert events[-1]["event"] == "saved"
    [over] = [event for event in events if event["event"] == "game_over"]
    log = replay(loads(Path(events[-1]["path"]).read_text()))
    assert log.finished and log.log.info.seats[1].name == "Simple bot"
    assert log.log.result is not None and log.log.result.winner == over["winner"]
    stats = subprocess.run(
        [sys.executable, "-m", "cribcli", "stats", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "CRIBBAGE_HOME": str(tmp_path)},
        check=True,
    )
    assert '"engine"' in stats.stdout  # counted as a game against an engine


def test_a_broken_engine_at_the_table_forfeits_to_you(tmp_path: Path) -> None:
    events, status = play_against(broken("junk"), tmp_path, "--seed", "3")
    assert status == 0
    [over] = [event for event in events if event["event"] == "game_over"]
    assert over["winner"] == 0 and over["forfeit"] == 1 and "not JSON" in over["reason"]


@pytest.mark.slow
def test_a_game_against_an_engine_is_carried_on_only_with_one(
    cribbage: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = cribbage("play", "--opponent", BOT, "--seed", "3", stdin="quit\n")
    assert started.status == 0, started.err
    assert f"--opponent '{BOT}' carries on" in started.out.replace(PYTHON, sys.executable)
    again = cribbage("play", stdin="quit\n")
    assert again.status == 2
    assert (
        "the saved game is against the engine Simple bot: carry it on with --opponent" in again.err
    )
    resumed = cribbage("play", "--opponent", BOT, stdin="quit\n")
    assert resumed.status == 0 and "Carrying on your game" in resumed.out
    missing = cribbage("play", "--new", "--opponent", "engine:no-such-bot-here", stdin="quit\n")
    assert missing.status == 1
    assert missing.err.strip() == (
        "cribbage: the engine `no-such-bot-here` cannot play: there is no program "
        "`no-such-bot-here`"
    )
    # Found before anything was abandoned: the saved game is still there to carry on.
    kept = cribbage("play", "--opponent", BOT, stdin="quit\n")
    assert kept.status == 0 and "Carrying on your game" in kept.out
    # A program that is there but cannot play is found out when it starts.
    monkeypatch.setattr(engines, "START_TIME", 0.5)
    broken_start = cribbage(
        "play", "--new", "--opponent", broken("mute"), "--move-time", "0.5", stdin="quit\n"
    )
    assert broken_start.status == 1 and "no hello within" in broken_start.err


@pytest.mark.slow
def test_the_in_process_example_plays_a_game_that_replays() -> None:
    example = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "in_process.py"), "5", "--log"],
        capture_output=True,
        text=True,
        check=True,
    )
    checked = replay(loads(example.stdout))
    assert checked.finished and checked.log.info.seats[1].name == "Greedy"


@pytest.mark.parametrize(
    ("hello", "name"),
    [
        ('{"type": "hello", "name": "Bot\\u001b[2J", "protocol": 1}', "Bot[2J"),
        ('{"type": "hello", "name": "' + "x" * 60 + '", "protocol": 1}', "x" * 40),
    ],
)
def test_an_engine_is_named_in_a_log_only_by_what_a_log_can_hold(hello: str, name: str) -> None:
    assert read_hello(hello) == (name, "")


@pytest.mark.parametrize(
    "hello",
    [
        '{"type": "hello", "name": "\\u001b\\u0007", "protocol": 1}',
        '{"type": "hello", "name": "Bot", "protocol": 2}',
        '{"type": "hello", "protocol": 1}',
        '{"type": "ready"}',
    ],
)
def test_a_hello_that_cannot_be_used_is_refused(hello: str) -> None:
    with pytest.raises(ProtocolError):
        read_hello(hello)


def test_an_engine_that_stops_reading_cannot_hold_the_referee() -> None:
    """Told more than a pipe holds, an engine that reads nothing fails within the move
    time: the referee never blocks on a write."""
    hello = '{"type": "hello", "name": "Deaf", "protocol": 1}'
    script = f"import sys, time; input(); print({hello!r}, flush=True); time.sleep(60)"
    command = engines.EngineCommand.parse(f"engine:{PYTHON} -c {shlex.quote(script)}")
    assert command is not None
    engine = engines.Engine(command, 0.3)
    engine.start()
    assert engine.name == "Deaf"
    # a referee that blocked on the write would wait here for ever: the ceiling catches that
    with time_limit(120), pytest.raises(PlayerFailed, match=r"it took in nothing for 0.3 s"):
        for _ in range(1000):
            engine.tell([{"type": "event", "padding": "x" * 10_000}])
    assert not engine.alive


def test_an_engine_game_is_carried_on_with_the_same_engine_and_no_undo(cribbage: Run) -> None:
    started = cribbage("play", "--opponent", BOT, "--seed", "3", stdin="undo\nquit\n")
    assert started.status == 0, started.err
    assert "no takebacks against an engine: it has seen the moves" in started.out
    other = cribbage("play", "--opponent", OURS, stdin="quit\n")
    assert other.status == 2
    assert "the saved game is against the engine `" in other.err and "not `" in other.err


def test_the_same_engine_in_three_seats_is_told_apart(cribbage: Run, home: Path) -> None:
    played = cribbage("play", "--players", "4", "--opponent", BOT, "--seed", "2", stdin="quit\n")
    assert played.status == 0, played.err
    seats = loads((home / "save.toml").read_text()).info.seats
    assert [seat.name for seat in seats] == ["You", "Simple bot 1", "Simple bot 2", "Simple bot 3"]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"type": "new_game", "seat": "x", "rules": {"players": 2, "target": 121}}'], "seat"),
        (['{"type": "new_game", "seat": 0, "rules": {"players": 5, "target": 121}}'], "rules"),
        (['{"type": "play", "seat": 0}'], "before a new_game"),
        (
            [
                '{"type": "new_game", "seat": 0, "rules": {"players": 2, "target": 121}}',
                '{"type": "play", "seat": 0, "round": 1, "dealer": 1, "scores": [0, 0],'
                ' "hand": ["KS"], "count": 25, "pile": ["KH", "5D", "QC"], "starter": "2S",'
                ' "held": [1, 2], "plays": [], "gos": [], "passed": []}',
            ],
            "no card that can be laid",
        ),
        (
            [
                '{"type": "new_game", "seat": 0, "rules": {"players": 2, "target": 121}}',
                '{"type": "discard", "seat": 0, "hand": "KS"}',
            ],
            "not a decision",
        ),
    ],
)
def test_cribbage_engine_refuses_a_referee_that_breaks_the_protocol(
    lines: list[str], message: str
) -> None:
    with pytest.raises(ProtocolError, match=message):
        serve("normal", 1, iter(lines), lambda line: None)


@pytest.mark.slow
def test_the_documented_game_is_what_the_referee_and_the_example_bot_say(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/engine-protocol.md's whole game, line for line, played again."""
    doc = (ROOT / "docs" / "engine-protocol.md").read_text()
    command = (
        "cribbage match hard 'engine:python3 examples/simple_bot.py' --games 1 --short --seed 7"
    )
    assert f"`{command}`" in doc
    block = doc.split(f"`{command}`", 1)[1].split("```\n", 2)[1]
    transcript = tmp_path / "transcript.txt"
    monkeypatch.setenv("ENGINE_TRANSCRIPT", str(transcript))
    tee = ROOT / "tests" / "engines" / "tee.py"
    bot = ROOT / "examples" / "simple_bot.py"
    engine = f"engine:{PYTHON} {tee} {PYTHON} {bot}"
    played = cribbage("match", "hard", engine, "--games", "1", "--short", "--seed", "7")
    assert played.status == 0, played.err
    assert transcript.read_text() == block


def test_an_engine_in_a_game_carried_on_is_told_the_deals_shown_so_far() -> None:
    """A game carried on from a save tells the engine ``new_game`` in the middle of the
    game, without the events before: its ``earlier`` holds the deals shown so far (this
    game's too, as its seat saw them), so that it reads the other as it would have."""
    from cribcli.protocol.messages import deal_json
    from cribcli.protocol.referee import EnginePlayer
    from cribcli.record.log import GameInfo, Seat
    from cribcli.record.session import next_action
    from cribcli.rules.engine import view

    class Listening:
        """An engine that answers every decision with the first legal action."""

        def __init__(self) -> None:
            self.heard: list[dict[str, object]] = []

        def ask(self, seen: View, before: list[dict[str, object]]) -> Discard | Play:
            self.heard += before
            if seen.phase is Phase.DISCARD:
                return Discard(seen.seat, seen.hand[:2])
            return Play(seen.seat, seen.playable()[0])

        def tell(self, messages: list[dict[str, object]]) -> None:
            self.heard += messages

    rules = Rules(target=121)
    info = GameInfo(rules, (Seat("A"), Seat("B")), 4)
    state, _ = new_game(rules, 4)
    players = [computer("easy", 4, 0), computer("easy", 4, 1)]
    while len(state.past) < 2 or state.to_play != 1:
        state, _ = apply(state, next_action(state, players))
    listening = Listening()
    engine = EnginePlayer(cast(Any, listening), info, 1)
    engine.play(view(state, 1))
    begun = listening.heard[0]
    assert begun["type"] == "new_game"
    assert begun["earlier"] == [deal_json(deal.seen_by(1)) for deal in state.past]
    told = cast(list[dict[str, Any]], begun["earlier"])
    assert all(deal["thrown"][0] == [] and deal["thrown"][1] for deal in told)
