"""Where games live on disk, and writing them so that nothing is ever half-written.

* the game in progress: ``save.toml`` in the data directory (the log is the save), with a
  lock beside it so that two ``cribbage play`` processes never share it;
* finished games: ``games/DATE-seed-SEED.toml`` in the data directory;
* settings (the level you chose last): ``settings.toml`` in the config directory;
* the REPL's history, and what ``stats`` remembers of each finished game:
  ``history`` and ``stats-index.json`` in the state directory.

The directories follow the platform's conventions (XDG on Linux); ``--data-dir`` or the
``CRIBBAGE_HOME`` environment variable put everything under one folder instead.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import tomli_w

from cribcli.record.log import LogError
from cribcli.record.reader import parse_toml
from cribcli.rules.errors import CribbageError

APP = "cribcli"


class StoreError(CribbageError):
    """A file the game needs cannot be used: locked, unreadable or unwritable."""


Warn = Callable[[str], None]
"""Tells the player one line about a file (the caller decides where it goes)."""


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, synced, renamed."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` survive a power cut (where the system allows it)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def reason(error: OSError) -> str:
    """An OSError in a few words: ``No space left on device``."""
    return error.strerror or str(error)


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


def _kind(mode: int) -> str:
    """What a file that is not a regular file is: ``a FIFO``, ``a folder``..."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_text(path: Path, limit: int, *, follow_links: bool = True) -> str | None:
    """The UTF-8 text of the regular file at ``path``, or None if nothing is there.

    Only a regular file of at most ``limit`` bytes is read: a FIFO, a device, a folder or
    (with ``follow_links`` false) a symbolic link is refused before it can hang the
    program or fill its memory. Raises StoreError saying what is wrong, in one line.
    """
    try:
        info = os.stat(path, follow_symlinks=follow_links)
    except FileNotFoundError:
        if follow_links and os.path.lexists(path):
            raise StoreError(f"{path}: a symbolic link to nothing") from None
        return None
    except OSError as error:
        raise StoreError(f"{path}: cannot read it ({reason(error)})") from None
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(f"{path}: {_kind(info.st_mode)}, not a file")
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    if not follow_links:
        flags |= os.O_NOFOLLOW
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StoreError(f"{path}: cannot read it ({reason(error)})") from None
    try:
        opened = os.fstat(fd)  # what was opened, which may not be what was looked at
        if not stat.S_ISREG(opened.st_mode):
            raise StoreError(f"{path}: {_kind(opened.st_mode)}, not a file")
        if opened.st_size > limit:
            raise StoreError(f"{path}: bigger than {_size(limit)}, so not a game's file")
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise StoreError(f"{path}: bigger than {_size(limit)}, so not a game's file")
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise StoreError(f"{path}: not UTF-8 text") from None
    except OSError as error:
        raise StoreError(f"{path}: cannot read it ({reason(error)})") from None
    finally:
        os.close(fd)


def read_table(path: Path, limit: int, key: str) -> dict[str, Any]:
    """The JSON object under ``key`` in the file at ``path`` (a file this program keeps,
    read bounded): empty when the file is missing, cannot be read, is not JSON, or has
    no object there. Its entries are still to be checked one by one."""
    try:
        data = json.loads(read_text(path, limit) or "{}")
    except (StoreError, ValueError, RecursionError):
        return {}
    table = data.get(key) if isinstance(data, dict) else None
    return table if isinstance(table, dict) else {}


def read_stream(stream: IO[bytes], limit: int, name: str = "standard input") -> str:
    """Up to ``limit`` bytes of UTF-8 text from a stream. Raises StoreError past the limit."""
    try:
        data = stream.read(limit + 1)
    except OSError as error:
        raise StoreError(f"{name}: cannot read it ({reason(error)})") from None
    if len(data) > limit:
        raise StoreError(f"{name}: more than {_size(limit)}, so not a game's file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise StoreError(f"{name}: not UTF-8 text") from None


LINE_LIMIT = 1000
"""The most characters a line typed or piped in may have (a hand is 15)."""


def bounded_lines(stream: IO[str], limit: int = LINE_LIMIT) -> Iterator[str]:
    """The lines of a stream, each cut to at most ``limit + 1`` characters, so a caller can
    tell a line too long by its length. The rest of a line too long (``/dev/zero`` has no
    end of line) is skipped, never held whole, only if the caller reads on."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        yield line
        if len(line) > limit and not line.endswith("\n"):
            while (rest := stream.readline(64 * 1024)) and not rest.endswith("\n"):
                pass


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"


@dataclass(frozen=True, slots=True)
class Places:
    """The three directories the game uses."""

    data: Path
    state: Path
    config: Path

    @classmethod
    def find(cls, root: str | None = None, env: Mapping[str, str] | None = None) -> Places:
        """``root`` (from --data-dir), else $CRIBBAGE_HOME, else the platform's directories."""
        env = os.environ if env is None else env
        home = root or env.get("CRIBBAGE_HOME")
        if home:
            base = Path(home).expanduser()
            return cls(base, base, base)
        import platformdirs

        return cls(
            Path(platformdirs.user_data_dir(APP)),
            Path(platformdirs.user_state_dir(APP)),
            Path(platformdirs.user_config_dir(APP)),
        )

    def save(self, slot: str = "game") -> Path:
        """The save of a game in progress (``game``, or ``daily-DATE``)."""
        return self.data / ("save.toml" if slot == "game" else f"save-{slot}.toml")

    @property
    def games(self) -> Path:
        """Where finished games' logs are kept."""
        return self.data / "games"

    @property
    def reviews(self) -> Path:
        """What reviewed games lost (kept: it cannot be rebuilt from the logs)."""
        return self.data / "reviews.json"

    @property
    def quiz(self) -> Path:
        """The days' quizzes answered (kept: they cannot be rebuilt)."""
        return self.data / "quiz.json"

    @property
    def training(self) -> Path:
        """How each position of ``cribbage train`` has been answered (kept)."""
        return self.data / "training.json"

    @property
    def settings(self) -> Path:
        """The settings file."""
        return self.config / "settings.toml"

    @property
    def history(self) -> Path:
        """The REPL's input history."""
        return self.state / "history"

    @property
    def index(self) -> Path:
        """What ``cribbage stats`` remembers of each finished game (rebuilt if lost)."""
        return self.state / "stats-index.json"


_READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


def _own_file(fd: int) -> bool:
    """Whether ``fd`` is a regular file with one name (not a hard link to another file)."""
    info = os.fstat(fd)
    return stat.S_ISREG(info.st_mode) and info.st_nlink == 1


class SaveLock:
    """Holds a save for one process: a second ``cribbage play`` is refused politely.

    The lock is an advisory lock on ``SAVE.lock`` (mode 0600, never opened through a
    symbolic link). After locking, the path is checked to still name the file locked, so a
    lock file removed at that moment is not trusted; while the game goes on, the file is
    looked at every second and laid again if someone removed it, so that a second
    ``cribbage play`` still finds the game taken. The file is removed when the game lets go.
    """

    WATCH = 1.0
    """Seconds between looks at the lock file while the game holds it."""

    def __init__(self, save: Path, warn: Warn | None = None) -> None:
        self.path = save.with_name(save.name + ".lock")
        self._warn = warn or (lambda line: None)
        self._fd: int | None = None
        self._guard = threading.Lock()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self.taken_by: str | None = None
        """Set when another process took the save after this one's lock file was removed:
        that process's id, or ``?``."""
        self.read_only = False
        """Set when the folder is read-only: nobody can write the save, so nobody needs to
        be kept out, and the game goes on (its saves fail, and the player is told)."""

    def __enter__(self) -> SaveLock:
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            if error.errno in _READ_ONLY:
                self.read_only = True
                return self
            raise StoreError(
                f"cannot use the folder {self.path.parent} ({reason(error)})"
            ) from None
        for _ in range(10):
            opened = self._open()
            if opened is None:
                self.read_only = True
                return self
            fd = opened
            holder = self._lock(fd)
            if holder is not None:
                os.close(fd)
                raise StoreError(self.busy(f" (process {holder})" if holder else ""))
            if self._names(fd):
                break
            os.close(fd)  # removed or replaced between opening and locking: again
        else:
            raise StoreError(f"cannot hold the lock file {self.path}: it keeps changing")
        self._take(fd)
        self._watcher = threading.Thread(target=self._watch, name="save lock", daemon=True)
        self._watcher.start()
        return self

    def busy(self, who: str) -> str:
        """Why another process cannot have it (``who``: `` (process ID)``, or empty)."""
        return (
            f"this game is already being played in another window{who}: "
            "finish or quit it there first"
        )

    def _open(self) -> int | None:
        """The lock file, opened (made if need be) without following a link, mode 0600;
        None if the folder is read-only. Anything else at its path (a link, a folder, a
        FIFO, a hard link to another file, a file this user may not open) is set aside."""
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
        for _ in range(2):
            try:
                fd = os.open(self.path, flags, 0o600)
            except OSError as error:
                if error.errno == errno.EROFS or (
                    error.errno in _READ_ONLY and not os.access(self.path.parent, os.W_OK)
                ):
                    return None
                if error.errno not in (*_READ_ONLY, errno.ELOOP, errno.EISDIR, errno.ENXIO):
                    raise StoreError(
                        f"cannot use the folder {self.path.parent} ({reason(error)})"
                    ) from None
            else:
                if _own_file(fd):
                    return fd
                os.close(fd)
            try:
                kept = set_aside(self.path)
            except OSError as error:
                raise StoreError(
                    f"{self.path} is not a lock file, and cannot be moved away ({reason(error)})"
                ) from None
            self._warn(f"{self.path} was not a lock file; it is kept as {kept}")
        raise StoreError(f"cannot make the lock file {self.path}")

    @staticmethod
    def _lock(fd: int) -> str | None:
        """Lock ``fd``; None if locked, else the holder's process id ('' if unknown)."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            with contextlib.suppress(OSError):
                return os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            return ""
        return None

    def _names(self, fd: int) -> bool:
        """Whether the lock path names the file open as ``fd``."""
        try:
            here, held = os.lstat(self.path), os.fstat(fd)
        except OSError:
            return False
        return (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino)

    def _take(self, fd: int) -> None:
        """Keep ``fd`` as the lock held, marked with this process's id."""
        with contextlib.suppress(OSError):  # a full disk: the lock holds without the id
            os.fchmod(fd, 0o600)
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
        if self._fd is not None:
            os.close(self._fd)
        self._fd = fd

    def _watch(self) -> None:
        while not self._stop.wait(self.WATCH):
            self.held()

    def held(self) -> bool:
        """Whether this process still holds the save. If the lock file was removed, it is
        laid again; if another process has taken it meanwhile, the save is theirs."""
        with self._guard:
            if self.read_only:
                return True
            if self._fd is None or self.taken_by is not None:
                return False
            if self._names(self._fd):
                return True
            try:
                fd = os.open(
                    self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600
                )
            except OSError:
                return True  # the folder is gone or read-only: nobody else can take it
            if not _own_file(fd):
                os.close(fd)
                return True  # not a lock file: the next game sets it aside
            holder = self._lock(fd)
            if holder is None and self._names(fd):
                self._take(fd)
                return True
            os.close(fd)
            if holder is not None:
                self.taken_by = holder or "?"
                return False
            return True  # it changed again as we looked: look again next time

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join()
        with self._guard:
            if self._fd is not None:
                if self.taken_by is None and self._names(self._fd):
                    with contextlib.suppress(OSError):
                        self.path.unlink()  # while still locked: a waiter re-checks
                os.close(self._fd)  # closing releases the lock
                self._fd = None


def clean_leftovers(save: Path) -> None:
    """Remove the temporary files a save killed half-way left beside it. Safe only while
    holding the save's lock: nobody else writes them."""
    with contextlib.suppress(OSError):
        for leftover in save.parent.glob(f".{save.name}.*.tmp"):
            with contextlib.suppress(OSError):
                leftover.unlink()


def set_aside(path: Path, why: str = "broken") -> Path:
    """Move whatever is at ``path`` (a file, a folder, a link...) out of the way, keeping
    it: ``NAME.WHY-STAMP``. Raises OSError if it cannot be moved."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    number = 1
    while os.path.lexists(target):
        number += 1
        target = path.with_name(f"{path.name}.{why}-{stamp}-{number}")
    os.rename(path, target)
    return target


def safe_name(text: str, limit: int = 60) -> str:
    """``text`` made fit for a file name: letters, digits, ``_.-`` only, at most ``limit``
    characters; a name that had to be changed ends in a short hash of ``text``, so that
    two different texts do not share a name."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip(".-") or "game"
    if name == text and len(name) <= limit:
        return name
    digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:8]
    return f"{name[: limit - 9].rstrip('.-')}-{digest}"


def file_log(folder: Path, name: str, text: str) -> Path:
    """Write a finished game's log into ``folder`` as ``NAME.toml`` (made safe for a file
    name, and numbered if that name is taken by another game; a game filed already is not
    filed twice). Raises OSError if it cannot be written."""
    stem = safe_name(name)
    target = folder / f"{stem}.toml"
    number = 1
    while os.path.lexists(target):
        with contextlib.suppress(StoreError):
            if read_text(target, len(text.encode()) + 1) == text:
                return target
        number += 1
        target = folder / f"{stem}-{number}.toml"
    write_atomic(target, text)
    _clean_old_leftovers(folder)
    return target


def _clean_old_leftovers(folder: Path, age: float = 3600.0) -> None:
    """Remove temporary files a write killed half-way left in ``folder`` over an hour ago
    (nobody writes a log for that long)."""
    now = time.time()
    with contextlib.suppress(OSError):
        for leftover in folder.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                if now - leftover.lstat().st_mtime > age:
                    leftover.unlink()


def keep_elsewhere(name: str, text: str) -> Path:
    """Write a log that cannot go where it belongs into the system's temporary folder.
    Raises OSError if even that fails."""
    fd, path = tempfile.mkstemp(prefix=f"cribbage-{safe_name(name, 40)}-", suffix=".toml")
    with os.fdopen(fd, "w", encoding="utf-8") as stream:
        stream.write(text)
        stream.flush()
        os.fsync(stream.fileno())
    return Path(path)


def is_file(path: Path) -> bool:
    """Whether a regular file is at ``path`` (a link to one counts). Raises StoreError if
    its folder cannot be read."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as error:
        raise StoreError(f"cannot read the folder {path.parent} ({reason(error)})") from None


def game_logs(folder: Path, warn: Warn | None = None) -> list[Path]:
    """The finished games' logs in ``folder``, oldest first: the regular files named
    ``*.toml``. Anything else there with that name (a FIFO, a link to nothing) is named to
    ``warn`` and left out. Raises StoreError if the folder cannot be read."""
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return []
    except OSError as error:
        raise StoreError(f"cannot read the folder {folder} ({reason(error)})") from None
    found = []
    for entry in entries:
        if not entry.name.endswith(".toml") or entry.name.startswith("."):
            continue
        try:
            info = entry.stat()  # follows a link: a link to a log is a log
        except OSError as error:
            what = "a symbolic link to nothing" if entry.is_symlink() else reason(error)
            if warn:
                warn(f"skipping {entry.path}: {what}")
            continue
        if not stat.S_ISREG(info.st_mode):
            if warn:
                warn(f"skipping {entry.path}: {_kind(info.st_mode)}, not a file")
            continue
        found.append((info.st_mtime, entry.name, Path(entry.path)))
    return [path for _, _, path in sorted(found)]


def latest_game(folder: Path, warn: Warn | None = None) -> Path | None:
    """The most recently finished game's log."""
    logs = game_logs(folder, warn)
    return logs[-1] if logs else None


SETTINGS_LIMIT = 64 * 1024
"""The most bytes the settings file may hold: it holds a few short lines."""


def load_settings(path: Path) -> dict[str, Any]:
    """The settings, or none if the file is missing or unreadable."""
    try:
        text = read_text(path, SETTINGS_LIMIT)
        return parse_toml(text) if text else {}
    except (StoreError, LogError):
        return {}


def save_settings(path: Path, settings: Mapping[str, Any]) -> None:
    """Write the settings."""
    write_atomic(path, tomli_w.dumps(dict(settings)))
