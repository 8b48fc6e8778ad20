"""Faults: a disk that fills up or turns read-only, saves and logs that are not what they
should be, files planted where the game keeps its own. The game in progress is never
lost, nothing hangs, and no traceback reaches the user.

Signals, pipes and processes are in ``test_fault_signals.py``; hostile logs in
``test_fault_logs.py``.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribcli.cli import main
from cribcli.players import Level
from cribcli.record import store
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.store import Places, SaveLock, StoreError
from cribcli.rules.cards import Card
from cribcli.rules.errors import CardError
from cribcli.services.games import Saver
from tests.conftest import Run, time_limit
from tests.scripted import moves

MOVES = moves(7)
GAME = "\n".join(MOVES) + "\n"


class Disk:
    """Writes that fail in chosen folders, as a full or read-only disk makes them fail:
    EACCES (or EROFS) when a file is made there, ENOSPC when its data is synced."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rules: list[tuple[Path, int, int, int]] = []
        self.made: dict[Path, int] = {}
        real_mkstemp, real_fsync = tempfile.mkstemp, os.fsync

        def mkstemp(*args: object, **kwargs: object) -> tuple[int, str]:
            folder = Path(str(kwargs.get("dir") or tempfile.gettempdir()))
            self._check(folder, (errno.EACCES, errno.EROFS))
            return real_mkstemp(*args, **kwargs)  # type: ignore[call-overload, no-any-return]

        def fsync(fd: int) -> None:
            where = Path(os.readlink(f"/proc/self/fd/{fd}"))
            if not where.is_dir():  # a file's data; a folder's sync writes no data
                self._check(where.parent, (errno.ENOSPC,))
            real_fsync(fd)

        monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
        monkeypatch.setattr(os, "fsync", fsync)

    def fail(self, folder: Path, code: int, *, after: int = 0, until: int = 10**9) -> None:
        """Writes in ``folder`` fail with ``code`` from write number ``after`` (0: the first)
        until write number ``until``."""
        self.rules.append((folder.resolve(), code, after, until))

    def heal(self) -> None:
        """Writes work again everywhere."""
        self.rules.clear()

    def _check(self, folder: Path, codes: tuple[int, ...]) -> None:
        folder = folder.resolve()
        for root, code, after, until in self.rules:
            if code in codes and (folder == root or root in folder.parents):
                number = self.made.get(root, 0)
                self.made[root] = number + 1
                if after <= number < until:
                    raise OSError(code, os.strerror(code))


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Disk:
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to tell which file is synced")
    return Disk(monkeypatch)


def actions(text: str) -> list[object]:
    """A log's actions, replayed through the rules."""
    return list(replay(loads(text)).actions)


def reference(cribbage: Run, tmp_path: Path, stdin: str = GAME) -> str:
    """The log of the same moves played on a healthy disk (the save, or the filed game)."""
    home = tmp_path / "healthy"
    cribbage("play", "--seed", "7", "--level", "normal", "--data-dir", str(home), stdin=stdin)
    filed = sorted((home / "games").glob("*.toml"))
    return (filed[0] if filed else home / "save.toml").read_text(encoding="utf-8")


# --- a failing save never loses the game ------------------------------------------------


@pytest.mark.slow
def test_a_full_disk_mid_game_files_the_whole_game_elsewhere(
    cribbage: Run, tmp_path: Path, disk: Disk, temporary_folder: Path
) -> None:
    home = tmp_path / "home"
    disk.fail(home, errno.ENOSPC, after=2)  # the settings and the deal are saved
    result = cribbage(
        "play", "--seed", "7", "--level", "normal", "--data-dir", str(home), stdin=GAME
    )
    assert result.status == 1
    assert "Traceback" not in result.err
    save = home / "save.toml"
    said = result.err.splitlines()
    assert said[0] == (
        f"cribbage: cannot save to {save} (No space left on device): the game goes on, and "
        "saving is tried again after every move"
    )
    assert sum("cannot save" in line for line in said) == 1  # once, not after every move
    assert "was failing until the end" in said[1]
    kept = list(temporary_folder.glob("cribbage-*.toml"))
    assert len(kept) == 1 and f"kept in {kept[0]}" in result.err
    whole = kept[0].read_text(encoding="utf-8")
    assert replay(loads(whole)).finished
    assert actions(whole) == actions(reference(cribbage, tmp_path))
    # a stale save is never filed, nor left to be carried on
    assert not list((home / "games").glob("*.toml")) if (home / "games").exists() else True
    assert not save.exists()
    assert "The game's log is in" not in result.out


@pytest.mark.slow
@pytest.mark.parametrize("code", [errno.EACCES, errno.ENOSPC])
def test_quit_says_saved_only_when_it_is(
    cribbage: Run, tmp_path: Path, disk: Disk, temporary_folder: Path, code: int
) -> None:
    home = tmp_path / "home"
    disk.fail(home, code, after=3)
    stdin = "\n".join([*MOVES[:6], "quit"])
    result = cribbage(
        "play", "--seed", "7", "--level", "normal", "--data-dir", str(home), stdin=stdin
    )
    assert result.status == 1
    assert "The game is saved" not in result.out
    kept = list(temporary_folder.glob("cribbage-save-*.toml"))
    assert len(kept) == 1
    assert f"the game is kept in {kept[0]}; move it to {home / 'save.toml'} to carry it on" in (
        result.err
    )
    left = kept[0].read_text(encoding="utf-8")
    assert actions(left) == actions(reference(cribbage, tmp_path, "\n".join(MOVES[:6])))
    # and it carries on from there, once moved back
    disk.heal()
    os.replace(kept[0], home / "save.toml")
    rest = "\n".join(MOVES[6:])
    again = cribbage("play", "--data-dir", str(home), stdin=rest)
    assert again.status == 0, again.err
    filed = next((home / "games").glob("*.toml")).read_text(encoding="utf-8")
    assert actions(filed) == actions(reference(cribbage, tmp_path / "whole"))


@pytest.mark.slow
def test_saving_that_recovers_is_told_and_the_game_filed(
    cribbage: Run, tmp_path: Path, disk: Disk
) -> None:
    home = tmp_path / "home"
    disk.fail(home, errno.ENOSPC, after=2, until=6)
    result = cribbage(
        "play", "--seed", "7", "--level", "normal", "--data-dir", str(home), stdin=GAME
    )
    assert result.status == 0, result.err
    said = result.err.splitlines()
    assert len(said) == 2
    assert said[0].startswith(f"cribbage: cannot save to {home / 'save.toml'} (No space left")
    assert said[1] == f"cribbage: saving to {home / 'save.toml'} works again: the game is saved"
    filed = next((home / "games").glob("*.toml")).read_text(encoding="utf-8")
    assert actions(filed) == actions(reference(cribbage, tmp_path))


@pytest.mark.slow
def test_a_finished_game_that_cannot_be_filed_is_kept_elsewhere(
    cribbage: Run, tmp_path: Path, disk: Disk, temporary_folder: Path
) -> None:
    home = tmp_path / "home"
    disk.fail(home / "games", errno.EACCES)
    result = cribbage(
        "play", "--seed", "7", "--level", "normal", "--data-dir", str(home), stdin=GAME
    )
    assert result.status == 1
    assert f"cannot file the finished game in {home / 'games'} (Permission denied)" in result.err
    kept = list(temporary_folder.glob("cribbage-*.toml"))
    assert len(kept) == 1 and replay(loads(kept[0].read_text(encoding="utf-8"))).finished
    assert not (home / "save.toml").exists()  # the game is kept: nothing to carry on


@pytest.mark.parametrize("as_json", [False, True])
def test_a_log_that_fits_nowhere_is_shown(
    cribbage: Run, tmp_path: Path, disk: Disk, temporary_folder: Path, as_json: bool
) -> None:
    home = tmp_path / "home"
    disk.fail(home, errno.EROFS)
    disk.fail(temporary_folder, errno.EROFS)
    flags = ["--json"] if as_json else []
    result = cribbage(
        "play", "--seed", "7", "--level", "normal", "--data-dir", str(home), *flags, stdin=GAME
    )
    assert result.status == 1
    assert "Traceback" not in result.err
    if as_json:
        import json

        last = json.loads(result.out.splitlines()[-1])
        assert last["event"] == "log"
        text = last["text"]
    else:
        head = "The game's log, which could not be written to any file:\n"
        assert head in result.out
        text = result.out.split(head, 1)[1]
    assert replay(loads(text)).finished


def test_the_saver_tells_the_first_failure_at_once_and_the_recovery(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import cribcli.services.games

    written: list[str] = []
    full = [False]

    def write(path: Path, text: str) -> None:
        if full[0]:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(text)

    monkeypatch.setattr(cribcli.services.games, "write_atomic", write)
    said: list[str] = []
    saver = Saver(Path("/nowhere/save.toml"), said.append)
    saver("one")
    assert said == [] and saver.saved
    full[0] = True
    saver("two")
    assert len(said) == 1 and "No space left on device" in said[0] and not saver.saved
    saver("three")
    saver("four")
    assert len(said) == 1  # told once, tried every time
    full[0] = False
    saver("five")
    assert said[1] == "saving to /nowhere/save.toml works again: the game is saved"
    assert saver.saved and written == ["one", "five"] and saver.text == "five"


def test_a_full_disk_when_the_lock_is_written(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int, data: bytes, offset: int) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "pwrite", full)
    result = cribbage("play", "--seed", "7", "--data-dir", str(tmp_path), stdin="quit\n")
    assert result.status == 0, result.err
    assert "The game is saved" in result.out


@pytest.mark.slow
def test_a_real_small_disk_that_fills_up(
    cribbage: Run, tmp_path: Path, temporary_folder: Path
) -> None:
    """The same as above on a real file system of 16 KiB, where this machine lets a test
    mount one (as root); skipped elsewhere."""
    mount = tmp_path / "small"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mount)], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip("cannot mount a small file system here")
    try:
        cribbage("play", "--seed", "7", "--level", "normal", "--data-dir", str(mount))
        with contextlib.suppress(OSError), open(mount / "filler", "wb") as filler:
            while True:
                filler.write(b"\0" * 1024)
                filler.flush()
        result = cribbage("play", "--data-dir", str(mount), stdin=GAME)
        assert result.status == 1 and "Traceback" not in result.err
        assert result.err.count("No space left on device") == 3  # at once, at the end, filing
        kept = list(temporary_folder.glob("cribbage-*.toml"))
        assert len(kept) == 1 and replay(loads(kept[0].read_text(encoding="utf-8"))).finished
        assert actions(kept[0].read_text(encoding="utf-8")) == actions(
            reference(cribbage, tmp_path)
        )
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


# --- whatever is at the save's path, a game can start ----------------------------------


def _plant(kind: str, path: Path) -> None:
    """Put something that is not a readable game log at ``path``."""
    plants: dict[str, Callable[[], object]] = {
        "latin-1": lambda: path.write_bytes(b'format = 1\nseed = "caf\xe9"\n'),
        "utf-16": lambda: path.write_text("format = 1\n", encoding="utf-16"),
        "empty": lambda: path.write_bytes(b""),
        "folder": lambda: path.mkdir(),
        "link loop": lambda: path.symlink_to(path.name),
        "dangling link": lambda: path.symlink_to("nowhere.toml"),
        "link to /dev/null": lambda: path.symlink_to("/dev/null"),
        "link to /dev/zero": lambda: path.symlink_to("/dev/zero"),
        "FIFO": lambda: os.mkfifo(path),
        "device": lambda: os.mknod(path, 0o600 | 0o020000, os.makedev(1, 3)),
        "not a log": lambda: path.write_text("this is not a game log [[[", encoding="utf-8"),
        "too big": lambda: path.write_bytes(b"#" * (1 << 20) + b"\n"),
    }
    try:
        plants[kind]()
    except PermissionError:
        pytest.skip(f"cannot make {kind} here")


SAVE_PLANTS = [
    "latin-1",
    "utf-16",
    "empty",
    "folder",
    "link loop",
    "dangling link",
    "link to /dev/null",
    "link to /dev/zero",
    "FIFO",
    "device",
    "not a log",
    "too big",
]


@pytest.mark.parametrize("new", [False, True])
@pytest.mark.parametrize("kind", SAVE_PLANTS)
def test_anything_at_the_save_is_set_aside_and_a_game_starts(
    cribbage: Run, tmp_path: Path, kind: str, new: bool
) -> None:
    save = Places.find(str(tmp_path)).save()
    _plant(kind, save)
    flags = ["--new"] if new else []
    with time_limit(120):  # a ceiling that only catches a hang
        result = cribbage(
            "play", "--seed", "7", "--data-dir", str(tmp_path), *flags, stdin="quit\n"
        )
    assert result.status == 0, result.err
    assert "Traceback" not in result.err
    assert len(result.err.splitlines()) == 1
    assert result.err.startswith("cribbage: the saved game could not be read (")
    aside = list(tmp_path.glob("save.toml.broken-*"))
    assert len(aside) == 1 and f"it is kept as {aside[0]}" in result.err
    assert "Round 1." in result.out and "The game is saved" in result.out
    assert replay(loads(save.read_text(encoding="utf-8"))).state is not None
    again = cribbage("play", "--data-dir", str(tmp_path), stdin="quit\n")
    assert "Carrying on your game" in again.out and again.err == ""


def test_a_save_cut_off_half_way(cribbage: Run, tmp_path: Path) -> None:
    cribbage("play", "--seed", "7", "--data-dir", str(tmp_path), stdin="\n".join(MOVES[:6]))
    save = Places.find(str(tmp_path)).save()
    text = save.read_text(encoding="utf-8")
    save.write_text(text[: len(text) // 2], encoding="utf-8")
    result = cribbage("play", "--seed", "8", "--data-dir", str(tmp_path), stdin="quit\n")
    assert result.status == 0
    assert "could not be read" in result.err and "Traceback" not in result.err
    assert len(list(tmp_path.glob("save.toml.broken-*"))) == 1


# --- seeds and names: what can be written to a log and read back -----------------------


@pytest.mark.parametrize(
    ("seed", "says"),
    [
        ("1" * 5000, "5000 characters long: at most 64"),
        ("a" * 300, "300 characters long: at most 64"),
        ("", "the seed is empty"),
        ("red\x1b[31m", "cannot be printed"),
        ("new\nline", "cannot be printed"),
        ("caf\udce9", "cannot be printed"),  # a byte that is not UTF-8, as Python sees it
    ],
)
def test_a_seed_that_a_log_cannot_hold_is_refused(
    cribbage: Run, tmp_path: Path, seed: str, says: str
) -> None:
    for command in (["play", "--data-dir", str(tmp_path)], ["match", "easy", "easy"]):
        result = cribbage(*command, "--seed", seed, stdin="quit\n")
        assert result.status == 2
        assert says in result.err and result.err.count("\n") == 1
        assert "Traceback" not in result.err and "\x1b" not in result.err
    assert not Places.find(str(tmp_path)).save().exists()


@pytest.mark.slow  # whole games; the file names alone: test_file_names_are_short_and_safe
@pytest.mark.parametrize("seed", ["²", "٣", "a/b c:*?<>|" + "é" * 40, "-5", "007"])
def test_any_seed_accepted_plays_files_and_replays(
    cribbage: Run, tmp_path: Path, seed: str
) -> None:
    from tests.scripted import moves as typed_for

    parsed: int | str = int(seed) if seed.isascii() and seed.isdigit() else seed
    script = "\n".join(typed_for(parsed)) + "\n"
    result = cribbage(
        "play", "--seed", seed, "--level", "normal", "--data-dir", str(tmp_path), stdin=script
    )
    assert result.status == 0, result.err
    filed = list((tmp_path / "games").glob("*.toml"))
    assert len(filed) == 1
    assert len(filed[0].name) <= 80 and filed[0].name.isascii()
    assert replay(loads(filed[0].read_text(encoding="utf-8"))).log.info.seed == parsed
    assert cribbage("replay", "--last", "--quiet", "--data-dir", str(tmp_path)).status == 0
    assert cribbage("play", "--data-dir", str(tmp_path), "--seed", "1", stdin="quit\n").status == 0


def test_a_name_that_a_log_cannot_hold_is_refused(cribbage: Run, tmp_path: Path) -> None:
    for name in ("Ann\nForged", "x" * 41, "   ", "\x1b]0;title\x07"):
        result = cribbage("play", "--name", name, "--data-dir", str(tmp_path), stdin="quit\n")
        assert result.status == 2 and "--name" in result.err and "\x1b" not in result.err


def test_file_names_are_short_and_safe() -> None:
    assert store.safe_name("2026-12-01-seed-7") == "2026-12-01-seed-7"
    long = store.safe_name("2026-12-01-seed-" + "x" * 200)
    assert len(long) <= 60
    assert store.safe_name("a/b") != store.safe_name("a:b")  # changed names keep apart
    assert "/" not in store.safe_name("../../etc/passwd") and not store.safe_name("..").startswith(
        "."
    )


# --- the lock, leftovers, folders that cannot be read -----------------------------------


def test_the_lock_never_follows_a_planted_link(cribbage: Run, tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    home = tmp_path / "home"
    home.mkdir()
    (home / "save.toml.lock").symlink_to(target)
    result = cribbage("play", "--seed", "7", "--data-dir", str(home), stdin="quit\n")
    assert result.status == 0, result.err
    assert target.read_text() == "keep me\n"
    assert "was not a lock file" in result.err


def test_a_lock_file_this_user_may_not_open_is_set_aside(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another user's file where the lock goes: it is set aside (as a non-root user's open
    would be refused), never mistaken for a read-only folder and played without a lock."""
    lock = tmp_path / "save.toml.lock"
    lock.write_text("1")
    real_open = os.open
    refused = [lock.stat().st_ino]

    def open_(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if Path(str(path)) == lock and lock.exists() and lock.stat().st_ino in refused:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", open_)
    result = cribbage("play", "--seed", "7", "--data-dir", str(tmp_path), stdin="quit\n")
    assert result.status == 0, result.err
    assert "was not a lock file" in result.err and "The game is saved" in result.out
    assert len(list(tmp_path.glob("save.toml.lock.broken-*"))) == 1


def test_the_lock_never_writes_through_a_hard_link(cribbage: Run, tmp_path: Path) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    precious.chmod(0o644)
    home = tmp_path / "home"
    home.mkdir()
    os.link(precious, home / "save.toml.lock")
    result = cribbage("play", "--seed", "7", "--data-dir", str(home), stdin="quit\n")
    assert result.status == 0, result.err
    assert precious.read_text() == "keep me\n" and (precious.stat().st_mode & 0o777) == 0o644


def test_the_lock_is_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        with SaveLock(tmp_path / "save.toml") as lock:
            assert (lock.path.stat().st_mode & 0o777) == 0o600
    finally:
        os.umask(old)
    assert not (tmp_path / "save.toml.lock").exists()  # let go: removed


def test_a_removed_lock_file_still_keeps_a_second_game_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SaveLock, "WATCH", 0.02)
    save = tmp_path / "save.toml"
    with SaveLock(save) as first:
        first.path.unlink()
        deadline = time.monotonic() + 5

        def laid_again() -> bool:  # made, locked, and marked with this process's id
            with contextlib.suppress(OSError):
                return first.path.read_text(encoding="ascii") == str(os.getpid())
            return False

        while not laid_again() and time.monotonic() < deadline:
            time.sleep(0.01)
        with pytest.raises(StoreError, match="already being played"), SaveLock(save):
            pass
        assert first.held()


def test_a_save_taken_after_its_lock_was_removed_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SaveLock, "WATCH", 3600.0)  # the first game does not look in time
    save = tmp_path / "save.toml"
    said: list[str] = []
    with SaveLock(save) as first:
        saver = Saver(save, said.append, lock=first)
        saver("first game's log")
        first.path.unlink()
        with SaveLock(save):
            save.write_text("second game's log")
            saver("first game's next move")
            assert save.read_text() == "second game's log"
            assert not saver.saved and "took this game after its lock file was removed" in said[0]


def test_leftovers_of_a_killed_save_are_cleaned(cribbage: Run, tmp_path: Path) -> None:
    leftover = tmp_path / ".save.toml.abc123.tmp"
    leftover.write_text("half a save")
    other = tmp_path / ".settings.toml.abc123.tmp"  # not the save's: left alone
    other.write_text("x")
    cribbage("play", "--seed", "7", "--data-dir", str(tmp_path), stdin="quit\n")
    assert not leftover.exists() and other.exists()


def test_old_leftovers_in_games_are_cleaned_when_a_game_is_filed(
    cribbage: Run, tmp_path: Path
) -> None:
    games = tmp_path / "games"
    games.mkdir()
    old, new = games / ".a.toml.x.tmp", games / ".b.toml.y.tmp"
    old.write_text("")
    new.write_text("")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    cribbage("play", "--seed", "7", "--level", "normal", "--data-dir", str(tmp_path), stdin=GAME)
    assert not old.exists() and new.exists()


@pytest.mark.parametrize(
    "command",
    [["stats"], ["stats", "--json"], ["daily", "--share"], ["daily"], ["replay", "--last"]],
)
@pytest.mark.parametrize("how", ["a file", "no permission"])
def test_an_unreadable_games_folder_is_one_line(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], how: str
) -> None:
    games = tmp_path / "games"
    if how == "a file":
        games.write_text("")
    else:  # as a folder without read and search permission refuses anyone but root
        games.mkdir()
        real_scandir, real_stat = os.scandir, os.stat

        def refused(path: object) -> None:
            if Path(str(path)) == games or Path(str(path)).parent == games:
                raise PermissionError(errno.EACCES, "Permission denied", str(path))

        def scandir(path: str = ".") -> object:
            refused(path)
            return real_scandir(path)

        def stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
            refused(path)
            return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "scandir", scandir)
        monkeypatch.setattr(os, "stat", stat)
    result = cribbage(*command, "--data-dir", str(tmp_path), stdin="quit\n")
    assert "Traceback" not in result.err
    assert result.status == 1
    assert result.err.count("\n") == 1
    assert f"cannot read the folder {games}" in result.err


def test_replay_last_skips_what_is_not_a_log(cribbage: Run, tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    log = (Path(__file__).parent / "logs" / "2-players.toml").read_text(encoding="utf-8")
    (games / "a.toml").write_text(log, encoding="utf-8")
    time.sleep(0.01)
    (games / "b.toml").symlink_to("nowhere.toml")
    os.mkfifo(games / "c.toml")
    with time_limit(120):  # a ceiling that only catches a hang
        result = cribbage("replay", "--last", "--data-dir", str(tmp_path))
        stats = cribbage("stats", "--data-dir", str(tmp_path))
    assert result.status == 0 and "Bob wins" in result.out
    for said in (result.err, stats.err):
        assert f"skipping {games / 'b.toml'}: a symbolic link to nothing" in said
        assert f"skipping {games / 'c.toml'}: a FIFO, not a file" in said
    assert stats.status == 0 and "Games: 1" in stats.out


@pytest.mark.parametrize("where", ["/proc/nope", "under a file"])
def test_match_with_a_log_folder_that_cannot_be(cribbage: Run, tmp_path: Path, where: str) -> None:
    if where == "under a file":
        (tmp_path / "file").write_text("")
        where = str(tmp_path / "file" / "logs")
    elif not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    result = cribbage("match", "normal", "easy", "--games", "2", "--log-dir", where)
    assert result.status == 1
    assert result.err.startswith(f"cribbage: cannot use the folder {where} (")
    assert result.err.count("\n") == 1


def test_the_prompt_plays_on_without_a_history_it_cannot_keep(tmp_path: Path) -> None:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from cribcli.players import computer
    from cribcli.record.log import GameInfo, Seat
    from cribcli.record.session import Session
    from cribcli.rules.engine import Rules
    from cribcli.ui.narrate import Table
    from cribcli.ui.repl import run_repl
    from cribcli.ui.seat import Quit, SeatUI

    blocker = tmp_path / "state"
    blocker.write_text("")  # a file where the state folder should be
    info = GameInfo(Rules(), (Seat("You"), Seat("Computer", "computer", Level.NORMAL)), 7)
    session = Session.start(info, {1: computer("normal", 7, 1)})
    ui = SeatUI(session, 0, Table(info.rules, ("You", "Computer"), viewer=0), say=lambda _: None)
    warned: list[str] = []
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text(MOVES[0] + "\nquit\n")
        with pytest.raises(Quit):
            run_repl(ui, blocker / "history", warn=warned.append, input=pipe, output=DummyOutput())
    assert len(warned) == 1 and "cannot keep the prompt's history" in warned[0]
    assert len(session.state.discards[0] or ()) == 2  # the discard was played


def test_a_history_file_that_stops_working_is_told_once(tmp_path: Path) -> None:
    from cribcli.ui.repl import KeptHistory

    warned: list[str] = []
    history = KeptHistory(tmp_path / "history", warned.append)
    history.store_string("5H 5S")
    (tmp_path / "history").unlink()
    (tmp_path / "history").mkdir()  # now it cannot be appended to
    history.store_string("7C")
    history.store_string("8C")
    assert len(warned) == 1


def test_a_data_folder_that_cannot_be_made_is_one_line(cribbage: Run, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    result = cribbage("play", "--seed", "7", "--data-dir", str(blocker / "home"), stdin="quit\n")
    assert result.status == 1
    assert result.err.startswith("cribbage: cannot use the folder ")
    assert result.err.count("\n") == 1


def test_a_read_only_data_folder_plays_on_and_keeps_the_game(
    cribbage: Run,
    tmp_path: Path,
    disk: Disk,
    temporary_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = tmp_path / "home"
    cribbage("play", "--seed", "7", "--level", "normal", "--data-dir", str(home), stdin=MOVES[0])
    real_open = os.open

    def read_only(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if str(path).startswith(str(home)) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", read_only)
    disk.fail(home, errno.EROFS)
    result = cribbage("play", "--data-dir", str(home), stdin="\n".join([*MOVES[1:5], "quit"]))
    assert result.status == 1, result.err
    assert "Carrying on your game" in result.out and "The game is saved" not in result.out
    assert "(Read-only file system)" in result.err
    kept = next(temporary_folder.glob("cribbage-save-*.toml")).read_text(encoding="utf-8")
    assert actions(kept) == actions(reference(cribbage, tmp_path, "\n".join(MOVES[:5])))


# --- no input makes a traceback -------------------------------------------------------


@given(st.text(max_size=12))
def test_any_card_token(token: str) -> None:
    with contextlib.suppress(CardError):  # any other exception fails the test
        Card.parse(token)


WORDS = [
    "score",
    "discard-advice",
    "peg-advice",
    "replay",
    "daily",
    "stats",
    "play",
    "5H",
    "5S",
    "JD",
    "4C",
    "2S",
    "KH",
    "10D",
    "1H",
    "zz",
    "-",
    "--starter",
    "-s",
    "--crib",
    "--json",
    "--dealer",
    "--pone",
    "--laid",
    "them 10S",
    "--thrown",
    "--players",
    "3",
    "--top",
    "0",
    "--score",
    "100",
    "115",
    "--round",
    "-1",
    "--date",
    "2026-02-30",
    "--since",
    "--level",
    "hard",
    "--seed",
    "²",
    "--name",
    "\x1b[2J",
    "--ascii",
    "--bogus",
    "",
]


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.sampled_from(WORDS), max_size=7))
def test_any_command_line(tmp_path: Path, words: list[str]) -> None:
    if words[:1] == ["play"] or words[:1] == ["daily"]:
        words = [*words, "--data-dir", str(tmp_path / "home")]
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO("quit\n")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(words)
            except SystemExit as stop:
                code = stop.code
    finally:
        sys.stdin = stdin
    assert code in (0, 1, 2), (words, err.getvalue())
    assert "Traceback" not in err.getvalue() and "\x1b" not in err.getvalue()
    if code:
        assert err.getvalue().strip(), words


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=20))
def test_any_line_at_the_prompt(line: str) -> None:
    from cribcli.players import computer
    from cribcli.record.log import GameInfo, Seat
    from cribcli.record.session import Session
    from cribcli.rules.engine import Rules
    from cribcli.ui.narrate import Table
    from cribcli.ui.seat import Quit, SeatUI

    info = GameInfo(Rules(), (Seat("You"), Seat("Computer", "computer", Level.NORMAL)), 7)
    session = Session.start(info, {1: computer("normal", 7, 1)})
    said: list[str] = []
    ui = SeatUI(session, 0, Table(info.rules, ("You", "Computer"), viewer=0), say=said.append)
    with contextlib.suppress(Quit):
        error = ui.handle(line)
        assert error is None or "\n" not in error


def test_a_line_without_end_is_never_held_whole(cribbage: Run, tmp_path: Path) -> None:
    endless = "5H 5S JD 4C 5D\n" + "0" * 3_000_000 + "\n7H 8S 8C 9D 9H\n"
    result = cribbage("score", "-", stdin=endless)
    assert result.status == 1
    assert result.err == "cribbage: line 2: longer than 1000 characters: not a hand\n"
    assert result.out.count("\n") == 2  # the lines around it are scored
    played = cribbage("play", "--seed", "7", "--data-dir", str(tmp_path), stdin="0" * 100_000)
    assert played.status == 1
    assert "line 1: longer than 1000 characters" in played.err
    assert len(played.out) < 2000


def test_play_from_a_bottomless_pipe_stops_at_once(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(
            [sys.executable, "-m", "cribcli", "play", "--seed", "7", "--data-dir", str(tmp_path)],
            stdin=zeros,
            capture_output=True,
            timeout=30,
        )
    assert done.returncode == 1
    assert b"line 1: longer than 1000 characters" in done.stderr


@pytest.mark.parametrize("how", ["quit", "end of script", "Ctrl-C"])
def test_leaving_an_unsaved_game_is_status_1_however_it_ends(
    cribbage: Run, tmp_path: Path, disk: Disk, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    home = tmp_path / "home"
    disk.fail(home, errno.ENOSPC, after=2)
    lines = [*MOVES[:4], "quit"] if how == "quit" else MOVES[:4]
    if how == "Ctrl-C":
        from cribcli.ui.lines import run_lines

        def interrupted(*args: object) -> bool:
            run_lines(*args)  # type: ignore[arg-type]
            raise KeyboardInterrupt

        monkeypatch.setattr("cribcli.ui.playing.run_lines", interrupted)
    result = cribbage("play", "--seed", "7", "--data-dir", str(home), stdin="\n".join(lines))
    assert result.status == 1
    assert "the game is kept in" in result.err and "is saved" not in result.out
    aside = list(home.glob("save.toml.stale-*"))
    assert len(aside) == 1 and "the out-of-date save is kept as" in result.err
    assert not (home / "save.toml").exists()  # never carried on by mistake


def test_typed_lines_are_echoed_and_refused_escaped(cribbage: Run, tmp_path: Path) -> None:
    result = cribbage("play", "--seed", "7", "--data-dir", str(tmp_path), stdin="\x1b]0;x\x07\n")
    assert result.status == 1
    assert "\x1b" not in result.out + result.err and "\x07" not in result.out + result.err
