"""Keeping a game while it is played and filing it when it ends, so that no move is ever
lost, whatever the disk does.

The game lives in memory; its log is saved after every move. A save that fails (a full
disk, a folder made read-only, a save taken by another process) is told once, at once;
every later move tries again, and a save that works again is told too. A game left, or
finished, whose log cannot go where it belongs is written to the system's temporary
folder instead, and the caller says where and exits with a status that says so.
"""

from __future__ import annotations

import contextlib
import errno
import os
from dataclasses import dataclass
from pathlib import Path

from cribcli.store import (
    SaveLock,
    Warn,
    file_log,
    keep_elsewhere,
    reason,
    set_aside,
    write_atomic,
)


class Saver:
    """Saves the log after every move, and knows whether the save holds the latest."""

    def __init__(
        self,
        path: Path,
        warn: Warn,
        *,
        lock: SaveLock | None = None,
        copy: Path | None = None,
    ) -> None:
        self.path = path
        self.copy = copy
        """Another place the log is written after every move (``--log``)."""
        self.lock = lock
        self.warn = warn
        self.text = ""
        """The latest log, kept in memory whatever happened to its saves."""
        self.failing: dict[Path, str] = {}
        """The places the last save could not be written to, and why."""

    @property
    def saved(self) -> bool:
        """Whether the save holds the latest log."""
        return self.path not in self.failing

    def __call__(self, text: str) -> None:
        self.text = text
        for path in (self.path, self.copy):
            if path is not None:
                self._write(path, text)

    def _write(self, path: Path, text: str) -> None:
        try:
            if path == self.path and self.lock is not None and not self.lock.held():
                raise OSError(
                    errno.EBUSY,
                    f"another cribbage (process {self.lock.taken_by}) took this game "
                    "after its lock file was removed",
                )
            write_atomic(path, text)
        except OSError as error:
            if path not in self.failing:
                self.warn(
                    f"cannot save to {path} ({reason(error)}): the game goes on, and saving "
                    "is tried again after every move"
                )
            self.failing[path] = reason(error)
            return
        if self.failing.pop(path, None) is not None:
            self.warn(f"saving to {path} works again: the game is saved")

    def keep(self, name: str) -> Path | None:
        """For a game left unsaved: write its latest log to the temporary folder and say
        where, and move the out-of-date save aside so that it is not carried on by
        mistake. None if even the temporary folder fails (the caller must show the log)."""
        why = self.failing.get(self.path, "")
        try:
            kept = keep_elsewhere(name, self.text)
        except OSError as error:
            self.warn(
                f"cannot save to {self.path} ({why}) nor to a temporary file ({reason(error)})"
            )
            return None
        stale = ""
        if (self.lock is None or self.lock.held()) and os.path.lexists(self.path):
            try:
                stale = f" (the out-of-date save is kept as {set_aside(self.path, 'stale')})"
            except OSError:
                stale = " (the save there now is out of date)"
        self.warn(
            f"cannot save to {self.path} ({why}): the game is kept in {kept}; "
            f"move it to {self.path} to carry it on{stale}"
        )
        return kept


@dataclass(frozen=True, slots=True)
class Filed:
    """Where a finished game's log went: ``path`` (None if nowhere: show it), and whether
    all went well (filed with the games, and the save put away)."""

    path: Path | None
    ok: bool


def file_game(saver: Saver, games: Path, name: str) -> Filed:
    """File a finished game's log, written from memory (never the save, which may be
    stale), in ``games``; then remove the save. A log that cannot be filed is kept in the
    temporary folder instead."""
    if saver.failing.get(saver.path):
        saver.warn(
            f"saving to {saver.path} was failing until the end "
            f"({saver.failing[saver.path]}); the finished game is filed from memory"
        )
    try:
        filed = file_log(games, name, saver.text)
        ok = True
    except OSError as error:
        saver.warn(f"cannot file the finished game in {games} ({reason(error)})")
        try:
            filed = keep_elsewhere(name, saver.text)
        except OSError as problem:
            saver.warn(f"cannot write it to a temporary file either ({reason(problem)})")
            return Filed(None, False)  # the save stays: it may be the only copy on disk
        saver.warn(
            f"the finished game's log is kept in {filed}: move it into {games} for "
            "'cribbage replay --last' and 'cribbage stats'"
        )
        ok = False
    return Filed(filed, _put_away(saver) and ok)


def _put_away(saver: Saver) -> bool:
    """Remove the save of a game filed (unless another process has taken it). False if it
    is left behind, which the player is told."""
    if saver.lock is not None and not saver.lock.held():
        return True
    try:
        with contextlib.suppress(FileNotFoundError):
            saver.path.unlink()
    except OSError as error:
        saver.warn(
            f"the save {saver.path} could not be removed ({reason(error)}): remove it, or "
            "the next game carries on from it"
        )
        return False
    return True
