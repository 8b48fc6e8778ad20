"""Shared test helpers: run the ``cribbage`` command in-process as a user would."""

from __future__ import annotations

import contextlib
import io
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cribcli.cli import main
from tests.postgres import Server, binaries, missing


@dataclass(frozen=True)
class Result:
    """What a user sees: the exit status, standard output and standard error."""

    status: int
    out: str
    err: str


Run = Callable[..., Result]


@pytest.fixture(autouse=True)
def temporary_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The system's temporary folder, for this test alone: a game that cannot be saved
    where it lives is kept there, and a test writes nothing outside pytest's folders (the
    games' home too: see :func:`home`)."""
    folder = tmp_path_factory.mktemp("system-temp")
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setenv("CRIBBAGE_HOME", str(tmp_path_factory.mktemp("home")))
    return folder


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the games live for a test that looks there (CRIBBAGE_HOME)."""
    monkeypatch.setenv("CRIBBAGE_HOME", str(tmp_path))
    return tmp_path


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


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail, rather than hang, if the block takes longer than ``seconds``: a ceiling that
    only catches a hang (never a measure of speed: a busy machine may be slow)."""

    def hung(signum: int, frame: object) -> None:
        raise AssertionError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def interrupt_as_usual() -> None:
    """In a child, before it runs the command: SIGINT as by default. A background job (``pytest
    &`` in a script) ignores SIGINT, and its children would too, leaving nothing to test."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def compiled(module: object) -> bool:
    """Whether a module of the core runs compiled (mypyc): its functions and constants
    cannot be patched from outside, so a test that patches them runs only interpreted."""
    return not str(getattr(module, "__file__", "")).endswith(".py")


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A PostgreSQL server of this test session's own (see :mod:`tests.postgres`)."""
    found = binaries()
    if found is None:
        missing("PostgreSQL is not installed (Debian: apt install postgresql)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("psycopg is not installed (pip install -e '.[test]')")
    assert found is not None
    server = Server(tmp_path_factory.mktemp("pg"), found)
    server.make()
    yield server
    server.stop()


@pytest.fixture
def postgres(postgres_server: Server) -> str:
    """The address of a new, empty PostgreSQL database, for this test alone."""
    return postgres_server.fresh()
