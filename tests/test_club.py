"""The club's store (cribcli.club.database): ratings written a game at a time in transactions,
the same as worked out again from the logs, caught up with the logs at start, and whole
after a ``kill -9`` at any moment."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cribcli.club.database import Club, Filed, digest_of
from cribcli.club.served import catch_up, filed_logs, read_logs
from cribcli.players import Level, computer
from cribcli.record.log import GameInfo, Seat, dumps
from cribcli.record.reader import loads
from cribcli.record.session import run_game
from cribcli.record.store import StoreError
from cribcli.rules.engine import Rules

pytest.importorskip("openskill")


def game_text(seed: int, people: tuple[str, ...] = ("ann",), level: Level = Level.EASY) -> str:
    """A finished game to 61: ``people`` in the first seats, the computer in the rest
    (two players), each seat played by the easy computer; started in seed order."""
    seats = tuple(Seat(name) for name in people) + tuple(
        Seat("Computer", "computer", level) for _ in range(2 - len(people))
    )
    started = f"2026-12-02T10:{seed // 60:02}:{seed % 60:02}"
    info = GameInfo(Rules(target=61), seats, seed, started=started)
    _, events = run_game(info, [computer("easy", seed, n) for n in range(2)])
    return dumps(info, events)


def file_games(root: Path, texts: list[str]) -> None:
    """The games filed in each of their people's folders, as the server files them."""
    for number, text in enumerate(texts):
        for seat in loads(text).info.seats:
            if seat.player == "human":
                folder = root / "players" / seat.name.lower() / "games"
                folder.mkdir(parents=True, exist_ok=True)
                (folder / f"game-{number:03}.toml").write_text(text, encoding="utf-8")


def test_a_game_moves_its_people_once_however_often_it_is_given(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db")
    text = game_text(1)
    changed = club.rate(loads(text), digest_of(text))
    assert list(changed) == ["ann"] and changed["ann"].games == 1
    assert club.rate(loads(text), digest_of(text)) == {}
    standing = club.standing("ANN")
    assert standing is not None and standing.games == 1 and len(standing.history) == 1
    assert standing.rating == changed["ann"].rating
    assert [rung.name for rung in club.ladder()] == ["ann"]


def test_ratings_a_game_at_a_time_are_those_worked_out_again(tmp_path: Path) -> None:
    texts = [game_text(seed, ("ann", "bob") if seed % 3 == 0 else ("ann",)) for seed in range(9)]
    live = Club(tmp_path / "live.db")
    for text in texts:
        live.rate(loads(text), digest_of(text))
    again = Club(tmp_path / "again.db")
    given = [Filed("x", digest_of(text), loads(text), text) for text in reversed(texts)]
    assert again.rebuild(given) == len(texts)
    assert again.standings() == live.standings()
    assert {"ann", "bob"} == set(live.standings())


def test_a_write_that_fails_half_way_leaves_nothing(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db")
    first = game_text(1)
    club.rate(loads(first), digest_of(first))
    before = club.standings()

    class Failing:
        def __init__(self, db: Any) -> None:
            self.db = db

        def execute(self, sql: str, *args: Any) -> Any:
            if sql.startswith("INSERT INTO history"):
                raise sqlite3.OperationalError("disk I/O error")
            return self.db.execute(sql, *args)

    real = club.db
    club.db = Failing(real)  # type: ignore[assignment]
    second = game_text(2)
    with pytest.raises(StoreError, match="disk I/O error"):  # told in one line
        club.rate(loads(second), digest_of(second))
    club.db = real
    assert club.standings() == before
    assert not club.known(digest_of(second))
    assert club.rate(loads(second), digest_of(second))  # and it can be rated after all


def test_games_filed_but_never_rated_are_caught_up_as_the_server_starts(tmp_path: Path) -> None:
    texts = [game_text(seed, ("ann", "bob") if seed % 2 else ("ann",)) for seed in range(6)]
    file_games(tmp_path, texts[:4])
    club = Club(tmp_path / "club.db")
    for text in texts[:2]:  # the server rated two, then was killed
        club.rate(loads(text), digest_of(text))
    assert catch_up(club, tmp_path) == 4
    assert catch_up(club, tmp_path) == 0  # every file is known now
    rebuilt = Club(tmp_path / "rebuilt.db")
    rebuilt.rebuild(read_logs(tmp_path, filed_logs(tmp_path)))
    assert club.standings() == rebuilt.standings()


KILLED = """
import sys, time
from pathlib import Path
from typing import Any
from cribcli.club.database import AdjournedGame, Club, digest_of
from cribcli.record.reader import loads
where = sys.argv[1]
club = Club(where if where.startswith("postgresql://") else Path(where), "killed")
for n, path in enumerate(sorted(Path(sys.argv[2]).glob("*.toml"))):
    text = path.read_text(encoding="utf-8")
    club.arrive(f"p{n}", f"SHA256:{n}", f"2026-12-02T10:00:{n:02}+00:00", claim=True)
    when, seats = "2026-12-02T10:00:00+00:00", ("ann", f"p{n}")
    club.adjourn(AdjournedGame(f"k{n}", when, str(n), seats, seats, 121, (0, 0)))
    club.rate(loads(text), digest_of(text), None, text)
    Path(sys.argv[3]).write_text(path.name)  # one more rated
time.sleep(60)
"""


def killed_after(where: str, logs: Path, progress: Path, stop_after: int) -> None:
    """A process rating the games in ``logs`` into the store at ``where`` (:data:`KILLED`),
    killed (SIGKILL) once it has rated ``stop_after`` of them: perhaps in the middle of
    the next game's write."""
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED, where, str(logs), str(progress)],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
    )
    deadline = time.monotonic() + 120  # a ceiling: only a hang meets it
    while time.monotonic() < deadline:
        done = progress.read_text() if progress.exists() else ""
        if done and int(done.removeprefix("game-").removesuffix(".toml")) >= stop_after:
            break
        time.sleep(0.01)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(60)


@pytest.mark.slow
def test_a_server_killed_at_any_moment_loses_nothing(tmp_path: Path) -> None:
    """A process rating games one after another is killed (SIGKILL) at several moments;
    each time the store opens whole (SQLite's integrity check), every game in it has all
    its people's history, and catching up with the logs gives what working everything
    out again from them gives."""
    texts = [game_text(seed, ("ann", "bob") if seed % 2 else ("ann",)) for seed in range(30)]
    file_games(tmp_path, texts)
    logs = tmp_path / "players" / "ann" / "games"
    for stop_after in (1, 7, 19):
        db = tmp_path / f"club-{stop_after}.db"
        progress = tmp_path / f"progress-{stop_after}"
        killed_after(str(db), logs, progress, stop_after)
        raw = sqlite3.connect(db)
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        games = raw.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        steps = raw.execute("SELECT COUNT(DISTINCT game) FROM history").fetchone()[0]
        assert games == steps >= stop_after  # no game without its history, nor the reverse
        accounts = [p for (p,) in raw.execute("SELECT person FROM accounts ORDER BY rowid")]
        assert accounts == [f"p{n}" for n in range(len(accounts))]
        adjourned = raw.execute("SELECT COUNT(*) FROM adjourned").fetchone()[0]
        people = raw.execute("SELECT COUNT(*) FROM adjourned_people").fetchone()[0]
        assert people == 2 * adjourned  # no adjourned game without its people
        assert len(accounts) >= adjourned >= games >= len(accounts) - 1
        raw.close()
        club = Club(db)
        catch_up(club, tmp_path)
        rebuilt = Club(tmp_path / f"rebuilt-{stop_after}.db")
        rebuilt.rebuild(read_logs(tmp_path, filed_logs(tmp_path)))
        assert club.standings() == rebuilt.standings()
