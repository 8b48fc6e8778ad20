"""A real PostgreSQL server of the tests' own, for the club's shared store: made with
``initdb`` in a temporary folder (as the ``postgres`` user when the tests run as root, since
PostgreSQL refuses root), listening on a Unix socket only, trusted there, and stopped with
the session. A test that needs one says so: where PostgreSQL is not installed it is
skipped with one line, unless ``CRIBBAGE_NEED_POSTGRES`` is set (as CI sets it), where it
fails instead: never passed silently.

A test may kill the server (``crash``: ``pg_ctl stop -m immediate``, as a power cut does)
and start it again on the same folder and socket."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import time
from itertools import count
from pathlib import Path

import pytest

BOOT_TIME = 60.0
"""A ceiling on a start or stop: only a hang meets it."""
NEEDED = "CRIBBAGE_NEED_POSTGRES"


def binaries() -> Path | None:
    """The folder of PostgreSQL's server programs (``initdb``, ``pg_ctl``), if installed."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0,
    )
    return versions[-1].parent if versions else None


def missing(why: str) -> None:
    """A test that needs PostgreSQL cannot have it: skipped, saying so (failed in CI)."""
    if os.environ.get(NEEDED):
        pytest.fail(f"PostgreSQL is needed here ({NEEDED} is set): {why}")
    pytest.skip(f"needs a PostgreSQL server: {why}")


class Server:
    """A PostgreSQL server in ``folder``: its data in ``data``, its socket in ``folder``."""

    def __init__(self, folder: Path, bin: Path) -> None:
        self.folder = folder
        self.bin = bin
        self.data = folder / "data"
        self.port = 5432
        self.user: str | None = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                missing("the tests run as root and there is no `postgres` user to run it as")
            self.user = "postgres"
        self.names = count(1)

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = list(args)
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(
            command, capture_output=True, text=True, timeout=BOOT_TIME, check=False
        )

    def make(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            os.chmod(self.folder, 0o777)
            for parent in self.folder.parents:  # (the user must reach the socket)
                if parent == Path("/"):
                    break
                os.chmod(parent, os.stat(parent).st_mode | 0o011)
        done = self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
            "--auth=trust", "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        if done.returncode != 0:
            missing(f"initdb failed: {done.stderr.strip()[-300:]}")
        self.start()

    def start(self) -> None:
        options = f"-c listen_addresses='' -k {self.folder} -p {self.port} -c fsync=off"
        done = self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w",
            "-t", str(int(BOOT_TIME)), "-l", str(self.folder / "server.log"), "start",
        )  # fmt: skip
        if done.returncode != 0:
            log = (self.folder / "server.log").read_text(errors="replace")[-500:]
            missing(f"the server did not start: {done.stderr.strip()[-300:]} {log}")

    def crash(self) -> None:
        """Stopped at once, as a power cut would: no clean shutdown."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "stop")

    def address(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}&port={self.port}"

    def fresh(self) -> str:
        """A new, empty database of this server's: its address."""
        import psycopg

        name = f"club_{os.getpid()}_{next(self.names)}"
        deadline = time.monotonic() + BOOT_TIME
        while True:
            try:
                with psycopg.connect(self.address(), autocommit=True) as db:
                    db.execute(f"CREATE DATABASE {name}")
                return self.address(name)
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)  # (just started again: not yet taking connections)
