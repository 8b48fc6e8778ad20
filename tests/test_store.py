"""Writing files so that a crash at any moment leaves the old text or the new, never half."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cribcli.record import store


def test_write_atomic_replaces_whole(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "game.toml"
    store.write_atomic(path, "old\n")
    store.write_atomic(path, "new\n")
    assert path.read_text() == "new\n"
    assert [p.name for p in path.parent.iterdir()] == ["game.toml"]


def test_a_failed_write_leaves_the_old_text_and_no_litter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.toml"
    store.write_atomic(path, "old\n")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        store.write_atomic(path, "new\n")
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.toml"]
