"""Shared test helpers: run the ``cribbage`` command in-process as a user would."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from cribcli.cli import main


@dataclass(frozen=True)
class Result:
    """What a user sees: the exit status, standard output and standard error."""

    status: int
    out: str
    err: str


Run = Callable[..., Result]


@pytest.fixture
def cribbage(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """Run ``cribbage ARGS...`` with optional standard input; return what it printed."""

    def run(*args: str, stdin: str | None = None) -> Result:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin or ""))
        with pytest.raises(SystemExit) as stopped:
            main(list(args))
        captured = capsys.readouterr()
        code = stopped.value.code
        return Result(code if isinstance(code, int) else 1, captured.out, captured.err)

    return run
