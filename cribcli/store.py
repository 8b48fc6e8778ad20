"""Where games live on disk, and writing them so that nothing is ever half-written.

* the game in progress: ``save.toml`` in the data directory (the log is the save), with a
  lock beside it so that two ``cribbage play`` processes never share it;
* finished games: ``games/DATE-seed-SEED.toml`` in the data directory;
* settings (the level you chose last): ``settings.toml`` in the config directory;
* the REPL's history: ``history`` in the state directory.

The directories follow the platform's conventions (XDG on Linux); ``--data-dir`` or the
``CRIBBAGE_HOME`` environment variable put everything under one folder instead.
"""

from __future__ import annotations

import fcntl
import os
import re
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import tomli_w

from cribcli.errors import CribbageError

APP = "cribcli"


class StoreError(CribbageError):
    """A file the game needs cannot be used: locked, unreadable or unwritable."""


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, synced, renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
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
    def settings(self) -> Path:
        """The settings file."""
        return self.config / "settings.toml"

    @property
    def history(self) -> Path:
        """The REPL's input history."""
        return self.state / "history"


class SaveLock:
    """Holds a save for one process: a second ``cribbage play`` is refused politely."""

    def __init__(self, save: Path) -> None:
        self.path = save.with_name(save.name + ".lock")
        self._stream: IO[str] | None = None

    def __enter__(self) -> SaveLock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            stream = open(self.path, "a+", encoding="utf-8")
        except OSError as error:
            raise StoreError(
                f"cannot use the folder {self.path.parent} ({error.strerror or error})"
            ) from None
        try:
            fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            stream.seek(0)
            holder = stream.read().strip()
            stream.close()
            who = f" (process {holder})" if holder else ""
            raise StoreError(
                f"this game is already being played in another window{who}: "
                "finish or quit it there first"
            ) from None
        stream.seek(0)
        stream.truncate()
        stream.write(str(os.getpid()))
        stream.flush()
        self._stream = stream
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._stream is not None:
            self._stream.close()  # closing releases the lock
            self._stream = None


def read_text(path: Path) -> str | None:
    """A file's text, or None if there is no such file."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise StoreError(f"{path}: cannot read it ({error})") from None


def set_aside(path: Path, stamp: str) -> Path:
    """Move an unreadable save out of the way, keeping it: ``save.toml.broken-STAMP``."""
    target = path.with_name(f"{path.name}.broken-{stamp}")
    os.replace(path, target)
    return target


def archive(save: Path, games: Path, name: str) -> Path:
    """Move a finished game's save into the games folder as ``NAME.toml`` (made safe for
    a file name, and numbered if that name is taken)."""
    games.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", name)
    target = games / f"{name}.toml"
    number = 1
    while target.exists():
        number += 1
        target = games / f"{name}-{number}.toml"
    os.replace(save, target)
    return target


def latest_game(games: Path) -> Path | None:
    """The most recently finished game's log."""
    logs = sorted(games.glob("*.toml"), key=lambda p: (p.stat().st_mtime, p.name))
    return logs[-1] if logs else None


def load_settings(path: Path) -> dict[str, Any]:
    """The settings, or none if the file is missing or unreadable."""
    text = read_text(path)
    if not text:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def save_settings(path: Path, settings: Mapping[str, Any]) -> None:
    """Write the settings."""
    write_atomic(path, tomli_w.dumps(dict(settings)))
