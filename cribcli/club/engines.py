"""The two databases a club's store can live in, and what each does its own way: opening
and proving it, where the schema's version is kept, how a writing transaction begins, the
errors it raises, and how it is named in a message. The SQL itself, the schema and its
migrations are :mod:`cribcli.club.database`'s, written once for both.

- SQLite (the standard library's), a file in the server's folder: one server, the default.
- PostgreSQL (psycopg, of the ``postgres`` extra), named by a ``postgresql://`` address:
  several servers sharing one club. Every writing transaction first takes one advisory
  lock, so that writes follow one another as SQLite's ``BEGIN IMMEDIATE`` makes them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from cribcli.record.store import StoreError

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""How an address of a PostgreSQL store begins (anything else is a SQLite file)."""
WRITING = 0x63726962
"""The advisory lock every writing transaction of a PostgreSQL store takes first."""
CONNECT_TIME = 10
"""Seconds a PostgreSQL server has to answer a connection."""
LOCK_WAIT = 10.0
"""Seconds a write waits for another server's (then it fails, and is tried again)."""
STATEMENT_TIME = 30.0
"""Seconds one statement may take."""


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Any: ...


class Connection(Protocol):
    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...
    def close(self) -> None: ...


def is_postgres(where: str | Path) -> bool:
    return isinstance(where, str) and where.startswith(POSTGRES_SCHEMES)


class Engine(Protocol):
    shared: bool
    """Whether several servers may share the store (and so name their folders in it)."""
    errors: tuple[type[Exception], ...]
    """What the driver raises when the store fails."""

    def name(self) -> str:
        """The store as an operator recognises it, never with a password."""
        ...

    def connect(self) -> Connection: ...
    def check(self, db: Connection) -> None:
        """Raise StoreError if the store is damaged (as far as the engine can tell)."""
        ...

    def version(self, db: Connection) -> int: ...
    def set_version(self, db: Connection, version: int) -> None: ...
    def script(self, db: Connection, text: str) -> None: ...
    def begin(self, db: Connection) -> None:
        """Begin a writing transaction, one writer at a time across every server."""
        ...

    def sql(self, text: str) -> str:
        """The SQL as this driver takes it (its parameters' marks)."""
        ...

    def broken(self, db: Connection) -> bool:
        """Whether the connection is lost (the server restarted): open another."""
        ...

    def tidy(self, db: Connection) -> None:
        """A transaction left open (its end failed) rolled back, before the next use."""
        ...

    def alive(self, db: Connection) -> bool:
        """Whether the connection still reaches its database (asked after a while unused:
        a server restarted meanwhile is found before a write fails on it)."""
        ...


def engine_for(where: str | Path) -> Engine:
    """The engine for a store's address: ``postgresql://...``, else a SQLite file's path."""
    if is_postgres(where):
        return Postgres(str(where))
    return SQLite(Path(where))


class SQLite:
    shared = False
    errors: tuple[type[Exception], ...] = (sqlite3.Error,)

    def __init__(self, path: Path) -> None:
        self.path = path

    def name(self) -> str:
        return str(self.path)

    def connect(self) -> Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the club's store {self.path} ({error})") from None
        return db

    def check(self, db: Connection) -> None:
        db.execute("PRAGMA busy_timeout=5000")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # (a killed process loses nothing)
        db.execute("PRAGMA foreign_keys=ON")
        found = [" ".join(str(row[0]).split()) for row in db.execute("PRAGMA quick_check(3)")]
        if found != ["ok"]:
            said = "; ".join(found).removeprefix("*** in database main *** ")
            raise StoreError(
                f"the club's store {self.path} is damaged (SQLite's check: {said[:160]}): "
                "move it away, and the server works it out again from the logs and the "
                "players' folders"
            )

    def version(self, db: Connection) -> int:
        return int(db.execute("PRAGMA user_version").fetchone()[0])

    def set_version(self, db: Connection, version: int) -> None:
        db.execute(f"PRAGMA user_version={int(version)}")

    def script(self, db: Connection, text: str) -> None:
        for statement in text.split(";"):
            if statement.strip():
                db.execute(statement)

    def begin(self, db: Connection) -> None:
        db.execute("BEGIN IMMEDIATE")

    def sql(self, text: str) -> str:
        return text

    def broken(self, db: Connection) -> bool:
        return False

    def tidy(self, db: Connection) -> None:
        if getattr(db, "in_transaction", False):
            db.execute("ROLLBACK")

    def alive(self, db: Connection) -> bool:
        return True  # (a file)


class Postgres:
    shared = True

    def __init__(self, address: str) -> None:
        try:
            import psycopg
            from psycopg.conninfo import conninfo_to_dict
        except ImportError:
            raise StoreError(
                "a PostgreSQL store needs psycopg: pip install 'cribcli[postgres]'"
            ) from None
        self.psycopg = psycopg
        self.address = address
        self.errors: tuple[type[Exception], ...] = (psycopg.Error,)
        try:
            parts = conninfo_to_dict(address)
        except psycopg.Error:  # (its words may quote the password: not told)
            raise StoreError("not a valid postgresql:// address for the club's store") from None
        host = str(parts.get("host") or "localhost")
        port = f":{parts['port']}" if parts.get("port") else ""
        self.label = f"postgresql://{host}{port}/{parts.get('dbname') or ''}"

    def name(self) -> str:
        return self.label

    def connect(self) -> Connection:
        try:
            db = self.psycopg.connect(self.address, autocommit=True, connect_timeout=CONNECT_TIME)
        except self.psycopg.Error as error:
            why = " ".join(str(error).split())[:200]
            raise StoreError(f"cannot reach the club's store {self.label} ({why})") from None
        try:  # a wait for another server's writing, or a slow database, is bounded
            db.execute(f"SET lock_timeout = '{int(LOCK_WAIT * 1000)}ms'")
            db.execute(f"SET statement_timeout = '{int(STATEMENT_TIME * 1000)}ms'")
        except self.psycopg.Error as error:
            db.close()
            why = " ".join(str(error).split())[:200]
            raise StoreError(f"cannot use the club's store {self.label} ({why})") from None
        return db

    def check(self, db: Connection) -> None:
        db.execute("SELECT 1").fetchone()  # (the server keeps its own pages whole)

    def version(self, db: Connection) -> int:
        db.execute("CREATE TABLE IF NOT EXISTS club_schema (version INTEGER NOT NULL)")
        row = db.execute("SELECT version FROM club_schema").fetchone()
        return 0 if row is None else int(row[0])

    def set_version(self, db: Connection, version: int) -> None:
        db.execute("DELETE FROM club_schema")
        db.execute("INSERT INTO club_schema (version) VALUES (%s)", (version,))

    def script(self, db: Connection, text: str) -> None:
        db.execute(text)

    def begin(self, db: Connection) -> None:
        db.execute("BEGIN")
        db.execute("SELECT pg_advisory_xact_lock(%s)", (WRITING,))

    def sql(self, text: str) -> str:
        return text.replace("?", "%s")

    def broken(self, db: Connection) -> bool:
        return bool(getattr(db, "closed", False) or getattr(db, "broken", False))

    def tidy(self, db: Connection) -> None:
        from psycopg.pq import TransactionStatus

        if db.info.transaction_status != TransactionStatus.IDLE:  # type: ignore[attr-defined]
            db.execute("ROLLBACK")

    def alive(self, db: Connection) -> bool:
        try:
            db.execute("SELECT 1").fetchone()
        except self.psycopg.OperationalError:
            return False
        return True
