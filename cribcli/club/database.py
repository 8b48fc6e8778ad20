"""The club's store for ``cribbage serve``: the accounts (each name, the key it belongs
to, when it was first and last seen), everyone's rating and their rating after each game,
the index of the games rated (with their logs) and the adjourned games (with their files),
each change written in one transaction; in SQLite (the standard library's, in WAL mode: one
server, the default) or in PostgreSQL (several servers sharing one club). The SQL is written
once, for both; what each database does its own way is :mod:`cribcli.club.engines`'.

The game logs stay TOML files, and they stay the truth: the store is worked out from them
(:mod:`cribcli.club.ratings`), can be worked out again from them alone (:meth:`Club.rebuild`,
``cribbage serve --rebuild-ratings``), and as the server starts it looks for filed games
it has not rated (a server killed between filing a game and rating it) and, if it finds
any, works everything out again (:func:`cribcli.club.served.catch_up`: the server's folders are
:mod:`cribcli.club.served`'s): nothing is lost, and nothing is half written, since a
transaction is all or nothing. A shared store keeps each rated game's log too, so that
working it out again on one server counts the games every server filed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from cribcli.club import ratings
from cribcli.club.engines import Connection, Engine, engine_for
from cribcli.club.ratings import Rung, Standing, Step
from cribcli.record.log import LOG_LIMIT, GameLog
from cribcli.record.reader import loads
from cribcli.record.store import StoreError
from cribcli.rules.errors import CribbageError

SCHEMA_1 = """
CREATE TABLE IF NOT EXISTS games (
    digest TEXT PRIMARY KEY,      -- the SHA-256 of the log's text: a game filed twice is one
    started TEXT
);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY,        -- a filed log, relative to the server's folder
    digest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    person TEXT PRIMARY KEY,      -- the name in lower case
    name TEXT NOT NULL,           -- as the latest rated game wrote it
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    last_seen TEXT
);
CREATE TABLE IF NOT EXISTS history (
    person TEXT NOT NULL,
    number INTEGER NOT NULL,      -- 1 for the person's first rated game
    game TEXT NOT NULL,           -- its digest
    started TEXT,
    place INTEGER NOT NULL,
    sides INTEGER NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (person, number)
);
CREATE TABLE IF NOT EXISTS accounts (
    person TEXT PRIMARY KEY,      -- the name in lower case
    name TEXT NOT NULL,           -- as its person first wrote it
    key TEXT,                     -- with --open, the key (its fingerprint) the name is held by
    first_seen TEXT NOT NULL,     -- UTC, ISO 8601, to the second
    last_seen TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS adjourned (
    key TEXT PRIMARY KEY,         -- the game's files: adjourned/KEY.toml (and KEY.json)
    adjourned TEXT NOT NULL,      -- when (UTC)
    seed TEXT NOT NULL,           -- the game's seed: its table's save is this game
    names TEXT NOT NULL,          -- the seats' names, a JSON list
    people TEXT NOT NULL,         -- the people's names among them, a JSON list
    target INTEGER NOT NULL,
    scores TEXT NOT NULL          -- a JSON list, one score a side
);
CREATE TABLE IF NOT EXISTS adjourned_people (
    key TEXT NOT NULL REFERENCES adjourned (key) ON DELETE CASCADE,
    person TEXT NOT NULL,         -- a person in it, the name in lower case
    PRIMARY KEY (person, key)
);
"""

SCHEMA_2 = """
ALTER TABLE games ADD COLUMN log TEXT;          -- the log's text, in a shared store
ALTER TABLE adjourned ADD COLUMN home TEXT;     -- the server folder holding its files (shared)
ALTER TABLE adjourned ADD COLUMN log TEXT;      -- its files' text, to resume it anywhere
ALTER TABLE adjourned ADD COLUMN setup TEXT;
CREATE TABLE IF NOT EXISTS resumed_elsewhere (
    key TEXT PRIMARY KEY,         -- an adjourned game resumed by another server than its home
    home TEXT NOT NULL            -- whose files of it are to go
);
CREATE TABLE IF NOT EXISTS present (
    person TEXT NOT NULL,         -- the name in lower case
    home TEXT NOT NULL,           -- the server they are connected to
    server TEXT NOT NULL,         -- its listening connection in the database (pid:start)
    PRIMARY KEY (person, home)
);
"""

MIGRATIONS = (SCHEMA_1, SCHEMA_2)
"""The schema, a version at a time: version N is the first N applied, for SQLite and
PostgreSQL alike. A store of a later version was made by a newer cribbage, and is not
opened. A store of version 0 is new, or was made before the version was kept (its tables
are version 1's, which are made only where missing)."""
SCHEMA_VERSION = len(MIGRATIONS)

ASK_AFTER = 5.0
"""Seconds unused after which a connection to a database server is asked whether it
still reaches it, before it is used (and made again if not)."""

LISTENER = "pid || ':' || backend_start"
"""A connection to PostgreSQL as ``pg_stat_activity`` names it: its process and when it
began (a process number alone may be given again to another)."""

Arrival = Literal["new", "known", "taken"]
"""A name's arrival: ``new`` (held by its key from now on), ``known`` (its key's, or no
key holds it), ``taken`` (another key's)."""


@dataclass(frozen=True, slots=True)
class Account:
    name: str
    """As its person first wrote it."""
    key: str | None
    first_seen: str
    last_seen: str


@dataclass(frozen=True, slots=True)
class AdjournedGame:
    """An adjourned game as the lobby lists it."""

    key: str
    adjourned: str
    seed: str
    names: tuple[str, ...]
    """Each seat's."""
    people: tuple[str, ...]
    """The people's (not the computers')."""
    target: int
    scores: tuple[int, ...]
    home: str | None = None
    """In a shared store: the server folder that holds its files (None: this one's)."""


class Filed(NamedTuple):
    """A finished game filed in a server's folder, as the ratings take it in."""

    path: str
    """Relative to the server's folder."""
    digest: str
    log: GameLog
    text: str


def digest_of(text: str) -> str:
    """A game's key in the store: the SHA-256 of its log's text."""
    return hashlib.sha256(text.encode()).hexdigest()


class Club:
    """The store, open. Safe to call from several threads (one at a time)."""

    def __init__(self, where: Path | str, home: str | None = None) -> None:
        """Open the store at ``where`` (a SQLite file, made if new, or a ``postgresql://``
        address), and prove it before anyone relies on it: SQLite's quick check of every
        page, and a schema version this code knows (a store of an older one is migrated).
        ``home`` names the server's folder in a store several servers share. Raises
        StoreError saying what is wrong (locked by another program, damaged, made by a
        newer version, not a database, not reachable), in one line."""
        self.engine: Engine = engine_for(where)
        self.name = self.engine.name()
        self.home = home if self.engine.shared else None
        self.lock = threading.Lock()
        self.db: Connection = self._open()
        self.used = time.monotonic()
        """When the connection last served (see :data:`ASK_AFTER`)."""

    @property
    def shared(self) -> bool:
        """Whether several servers may share this store (PostgreSQL)."""
        return self.engine.shared

    def _open(self) -> Connection:
        db = self.engine.connect()
        try:
            self._prove(db)
        except BaseException:
            with contextlib.suppress(*self.engine.errors):
                db.close()
            raise
        return db

    def _prove(self, db: Connection) -> None:
        engine, name = self.engine, self.name
        try:
            engine.check(db)
            engine.begin(db)  # (one server migrates; the others wait, then find it done)
            try:
                version = engine.version(db)
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"the club's store {name} was made by a newer cribbage (its schema "
                        f"is version {version}, this one knows {SCHEMA_VERSION})"
                    )
                for step in MIGRATIONS[version:]:
                    engine.script(db, step)
                if version < SCHEMA_VERSION:
                    engine.set_version(db, SCHEMA_VERSION)
            except BaseException:
                with contextlib.suppress(*engine.errors):
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except engine.errors as error:
            said = " ".join(str(error).split())[:200]
            locked = "locked" in said or "busy" in said
            why = "locked by another program" if locked else "not a store that can be used"
            raise StoreError(f"the club's store {name} is {why} ({said})") from None

    def close(self) -> None:
        with self.lock, contextlib.suppress(*self.engine.errors):
            self.db.close()

    @contextlib.contextmanager
    def _held(self) -> Iterator[None]:
        """The store to this thread alone (connected again if its server restarted); an
        error of the database's (a locked or broken file, a full disk, a lost server)
        raised as a StoreError saying so, in one line."""
        with self.lock:
            try:
                quiet = time.monotonic() - self.used > ASK_AFTER
                if self.engine.broken(self.db) or (quiet and not self.engine.alive(self.db)):
                    self.db = self._open()
                else:
                    self.engine.tidy(self.db)
                yield
                self.used = time.monotonic()
            except self.engine.errors as error:
                said = " ".join(str(error).split())[:200]
                raise StoreError(f"the club's store {self.name}: {said}") from None

    def _run(self, sql: str, parameters: tuple[Any, ...] = ()) -> Any:
        return self.db.execute(self.engine.sql(sql), parameters)

    def _transaction(self) -> _Transaction:
        return _Transaction(self)

    def _file(self, path: str) -> str:
        """A filed log's path as the store keeps it: in a shared store, with its home."""
        return path if self.home is None else f"{self.home}:{path}"

    # --- reading ----------------------------------------------------------------------

    def standings(self) -> dict[str, Standing]:
        """Everyone's standing, with their history, by :func:`ratings.person`."""
        with self._held():
            return self._standings()

    def _standings(self, people: Iterable[str] | None = None) -> dict[str, Standing]:
        wanted = None if people is None else sorted(set(people))
        if wanted is None:
            rows = self._run("SELECT person, name, mu, sigma, games, last_seen FROM ratings")
            steps = self._run(
                "SELECT person, started, place, sides, mu, sigma FROM history "
                "ORDER BY person, number"
            )
        else:  # (a game's people: a few)
            marks = ", ".join("?" for _ in wanted)
            rows = self._run(
                "SELECT person, name, mu, sigma, games, last_seen FROM ratings "
                f"WHERE person IN ({marks})",
                tuple(wanted),
            )
            steps = self._run(
                "SELECT person, started, place, sides, mu, sigma FROM history "
                f"WHERE person IN ({marks}) ORDER BY person, number",
                tuple(wanted),
            )
        found_rows = rows.fetchall()
        history: dict[str, list[Step]] = {}
        for person, started, place, sides, mu, sigma in steps.fetchall():
            history.setdefault(person, []).append(Step(started, place, sides, mu, sigma))
        return {
            person: Standing(name, mu, sigma, games, last_seen, tuple(history.get(person, ())))
            for person, name, mu, sigma, games, last_seen in found_rows
        }

    def standing(self, name: str) -> Standing | None:
        """One person's standing, if they have played a rated game."""
        with self._held():
            return self._standings([ratings.person(name)]).get(ratings.person(name))

    def ladder(self) -> list[Rung]:
        """The ladder, best first."""
        return ratings.ladder(self.standings())

    def known(self, digest: str) -> bool:
        with self._held():
            return self._known(digest)

    def _known(self, digest: str) -> bool:
        return self._run("SELECT 1 FROM games WHERE digest = ?", (digest,)).fetchone() is not None

    # --- writing ----------------------------------------------------------------------

    def rate(
        self, log: GameLog, digest: str, path: str | None = None, text: str | None = None
    ) -> dict[str, Standing]:
        """Rate one finished game (once, however often it is given, by whichever server):
        the people's new standings, written in one transaction. Empty if it is not rated
        or known. A shared store keeps its log's ``text``."""
        with self._held(), self._transaction():
            if self._known(digest):
                return {}
            people = [ratings.person(s.name) for s in log.info.seats if s.player == "human"]
            changed = ratings.rate_game(log, self._standings(people))
            self._write_game(digest, log, changed, path, text)
            return changed

    def rebuild(self, logs: Iterable[Filed]) -> int:
        """Everything worked out again from ``logs`` (and, in a shared store, the logs it
        keeps, filed by every server), in one transaction: the games rated in the order
        they started. Returns how many games were rated."""
        given = {filed.digest: filed for filed in logs}
        rated = 0
        with self._held(), self._transaction():
            if self.shared:
                for filed in self._kept_logs():
                    given.setdefault(filed.digest, filed)
            order = sorted(given, key=lambda digest: ratings.game_order(given[digest].log))
            for table in ("games", "ratings", "history"):
                self._run(f"DELETE FROM {table}")
            if self.home is None:
                self._run("DELETE FROM files")
            else:
                self._run("DELETE FROM files WHERE path LIKE ?", (f"{self.home}:%",))
            standings: dict[str, Standing] = {}
            for digest in order:
                filed = given[digest]
                changed = ratings.rate_game(filed.log, standings)
                standings.update(changed)
                path = filed.path if filed.path else None
                self._write_game(digest, filed.log, changed, path, filed.text)
                rated += bool(changed)
        return rated

    def _kept_logs(self) -> Iterator[Filed]:
        """The logs a shared store keeps (each read as untrusted: a bad one is left out)."""
        for digest, text in self._run(
            "SELECT digest, log FROM games WHERE log IS NOT NULL"
        ).fetchall():
            if not isinstance(text, str) or len(text) > LOG_LIMIT or digest_of(text) != digest:
                continue
            with contextlib.suppress(CribbageError, ValueError, RecursionError):
                log = loads(text)
                if log.result is not None:
                    yield Filed("", digest, log, text)

    def _write_game(
        self,
        digest: str,
        log: GameLog,
        changed: dict[str, Standing],
        path: str | None,
        text: str | None,
    ) -> None:
        kept = text if self.shared else None
        self._run(
            "INSERT INTO games (digest, started, log) VALUES (?, ?, ?)",
            (digest, log.info.started, kept),
        )
        if path is not None:
            self._note_file(path, digest)
        for person, standing in changed.items():
            self._run(
                "INSERT INTO ratings (person, name, mu, sigma, games, last_seen) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (person) DO UPDATE SET "
                "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
                "games = excluded.games, last_seen = excluded.last_seen",
                (person, standing.name, standing.mu, standing.sigma, standing.games,
                 standing.last_seen),
            )  # fmt: skip
            step = standing.history[-1]
            self._run(
                "INSERT INTO history (person, number, game, started, place, sides, mu, sigma) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (person, standing.games, digest, step.started, step.place, step.sides,
                 step.mu, step.sigma),
            )  # fmt: skip

    def _note_file(self, path: str, digest: str) -> None:
        self._run(
            "INSERT INTO files (path, digest) VALUES (?, ?) "
            "ON CONFLICT (path) DO UPDATE SET digest = excluded.digest",
            (self._file(path), digest),
        )

    def file_known(self, path: str) -> bool:
        with self._held():
            found = self._run("SELECT 1 FROM files WHERE path = ?", (self._file(path),))
            return found.fetchone() is not None

    def note_file(self, path: str, digest: str) -> None:
        """A filed log whose game is rated already (filed for another person too)."""
        with self._held(), self._transaction():
            self._note_file(path, digest)

    # --- accounts -------------------------------------------------------------------

    def account(self, name: str) -> Account | None:
        with self._held():
            row = self._run(
                "SELECT name, key, first_seen, last_seen FROM accounts WHERE person = ?",
                (ratings.person(name),),
            ).fetchone()
        return None if row is None else Account(*row)

    def arrive(self, name: str, key: str, now: str, *, claim: bool) -> Arrival:
        """``name`` logs in with ``key`` at ``now``: its account made if new, its last
        sight noted. With ``claim`` (``--open``), a name is held by the first key it
        came with: another key's arrival is ``taken`` (and changes nothing)."""
        person = ratings.person(name)
        with self._held(), self._transaction():
            row = self._run("SELECT key FROM accounts WHERE person = ?", (person,)).fetchone()
            if row is None:
                self._run(
                    "INSERT INTO accounts (person, name, key, first_seen, last_seen) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (person, name, key if claim else None, now, now),
                )
                return "new" if claim else "known"
            if claim and row[0] is not None and row[0] != key:
                return "taken"
            held = key if claim and row[0] is None else row[0]
            self._run(
                "UPDATE accounts SET key = ?, last_seen = ? WHERE person = ?", (held, now, person)
            )
            return "new" if claim and row[0] is None else "known"

    def take_in(self, accounts: Iterable[Account]) -> list[str]:
        """Accounts kept in the players' folders, taken in where the store does not hold
        their keys (lost with the store, or kept as files by an older server): a name not
        here is made, a name held by another key or none is given the folder's key (the
        folders stay the truth; in a store several servers share, the store holds the
        club's names, and only a name it does not hold, or holds by no key, is taken),
        in one transaction. Returns the names taken in."""
        taken = []
        with self._held(), self._transaction():
            for account in accounts:
                person = ratings.person(account.name)
                row = self._run("SELECT key FROM accounts WHERE person = ?", (person,)).fetchone()
                if row is None:
                    self._run(
                        "INSERT INTO accounts (person, name, key, first_seen, last_seen) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (person, account.name, account.key, account.first_seen,
                         account.last_seen),
                    )  # fmt: skip
                elif row[0] != account.key and (row[0] is None or not self.shared):
                    self._run("UPDATE accounts SET key = ? WHERE person = ?", (account.key, person))
                else:
                    continue
                taken.append(account.name)
        return taken

    def held(self) -> list[Account]:
        """Every account held by a key (``--open``), by name."""
        with self._held():
            rows = self._run(
                "SELECT name, key, first_seen, last_seen FROM accounts "
                "WHERE key IS NOT NULL ORDER BY person"
            ).fetchall()
        return [Account(*row) for row in rows]

    def accounts(self) -> int:
        """How many names the club holds."""
        with self._held():
            return int(self._run("SELECT count(*) FROM accounts").fetchone()[0])

    def unseen_since(self, when: str) -> list[str]:
        """The names (in lower case) last seen before ``when``."""
        with self._held():
            rows = self._run(
                "SELECT person FROM accounts WHERE last_seen < ? ORDER BY person", (when,)
            ).fetchall()
            return [person for (person,) in rows]

    def drop_account(self, name: str) -> None:
        with self._held(), self._transaction():
            self._run("DELETE FROM accounts WHERE person = ?", (ratings.person(name),))

    # --- adjourned games --------------------------------------------------------------

    def adjourn(self, game: AdjournedGame, log: str = "", setup: str | None = None) -> None:
        """An adjourned game (its files written) noted; a shared store keeps its files'
        text (``log``, ``setup``), so that any server can resume it."""
        kept, kept_setup = (log, setup) if self.shared else (None, None)
        with self._held(), self._transaction():
            self._run(
                "INSERT INTO adjourned "
                "(key, adjourned, seed, names, people, target, scores, home, log, setup) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET "
                "adjourned = excluded.adjourned, seed = excluded.seed, names = excluded.names, "
                "people = excluded.people, target = excluded.target, scores = excluded.scores, "
                "home = excluded.home, log = excluded.log, setup = excluded.setup",
                (game.key, game.adjourned, game.seed, json.dumps(game.names),
                 json.dumps(game.people), game.target, json.dumps(game.scores), self.home,
                 kept, kept_setup),
            )  # fmt: skip
            for person in sorted({ratings.person(name) for name in game.people}):
                self._run(
                    "INSERT INTO adjourned_people (key, person) VALUES (?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (game.key, person),
                )

    def adjourned(self, name: str | None = None) -> list[AdjournedGame]:
        """The adjourned games ``name`` sits in (all, if None), oldest first, whichever
        server's."""
        query = "SELECT key, adjourned, seed, names, people, target, scores, home FROM adjourned"
        given: tuple[str, ...] = ()
        if name is not None:
            query += " WHERE key IN (SELECT key FROM adjourned_people WHERE person = ?)"
            given = (ratings.person(name),)
        with self._held():
            rows = self._run(query + " ORDER BY adjourned, key", given).fetchall()
        return [
            AdjournedGame(
                key,
                when,
                seed,
                tuple(json.loads(names)),
                tuple(json.loads(people)),
                target,
                tuple(json.loads(scores)),
                None if home == self.home else home,
            )
            for key, when, seed, names, people, target, scores, home in rows
        ]

    def adjourned_files(self, key: str) -> tuple[str, str | None] | None:
        """The text of an adjourned game's files (its log, its setup) as a shared store
        keeps them, if it does."""
        with self._held():
            row = self._run("SELECT log, setup FROM adjourned WHERE key = ?", (key,)).fetchone()
        if row is None or not isinstance(row[0], str) or not 0 < len(row[0]) <= LOG_LIMIT:
            return None
        return row[0], row[1] if isinstance(row[1], str) else None

    def resumed(self, key: str) -> bool:
        """An adjourned game is no longer (resumed, or its files gone). Whether it was
        still adjourned: two servers resuming one game, one of them finds it gone. A game
        resumed away from its home is noted for its home, to drop its files."""
        with self._held(), self._transaction():
            row = self._run("SELECT home FROM adjourned WHERE key = ?", (key,)).fetchone()
            if row is None:
                return False
            self._run("DELETE FROM adjourned WHERE key = ?", (key,))
            if row[0] is not None and row[0] != self.home:
                self._run(
                    "INSERT INTO resumed_elsewhere (key, home) VALUES (?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (key, row[0]),
                )
            return True

    def resumed_elsewhere(self) -> list[str]:
        """The keys of this server's adjourned games that another server resumed: their
        files here are to go (then :meth:`forget_resumed`)."""
        if self.home is None:
            return []
        with self._held():
            rows = self._run(
                "SELECT key FROM resumed_elsewhere WHERE home = ? ORDER BY key", (self.home,)
            ).fetchall()
        return [key for (key,) in rows]

    def forget_resumed(self, key: str) -> None:
        """This server's files of a game resumed elsewhere are gone."""
        with self._held(), self._transaction():
            self._run("DELETE FROM resumed_elsewhere WHERE key = ? AND home = ?", (key, self.home))

    # --- who is where, in a shared store ----------------------------------------------

    def present(self, name: str, server: str, here: bool) -> None:
        """``name`` connected to this server (or no longer), whose listening connection
        is ``server`` (:data:`LISTENER`: gone with it, if the server dies)."""
        if self.home is None:
            return
        person = ratings.person(name)
        with self._held():
            if here:
                self._run(
                    "INSERT INTO present (person, home, server) VALUES (?, ?, ?) "
                    "ON CONFLICT (person, home) DO UPDATE SET server = excluded.server",
                    (person, self.home, server),
                )
            else:
                self._run("DELETE FROM present WHERE person = ? AND home = ?", (person, self.home))

    def all_present(self, names: Iterable[str], server: str) -> None:
        """Everyone connected to this server, noted afresh (as it starts, or its listening
        connection is made again)."""
        if self.home is None:
            return
        with self._held(), self._transaction():
            self._run("DELETE FROM present WHERE home = ?", (self.home,))
            for person in sorted({ratings.person(name) for name in names}):
                self._run(
                    "INSERT INTO present (person, home, server) VALUES (?, ?, ?)",
                    (person, self.home, server),
                )

    def elsewhere(self, name: str) -> bool:
        """Whether ``name`` is connected to another server of this club that is running
        (its listening connection is open)."""
        if self.home is None:
            return False
        with self._held():
            row = self._run(
                "SELECT 1 FROM present WHERE person = ? AND home <> ? AND server IN "
                f"(SELECT {LISTENER} FROM pg_stat_activity)",
                (ratings.person(name), self.home),
            ).fetchone()
        return row is not None

    def notify(self, channel: str, payload: str) -> None:
        """A message to every server of a shared store listening on ``channel``."""
        if self.home is None:
            return
        with self._held():
            self._run("SELECT pg_notify(?, ?)", (channel, payload)).fetchone()


class _Transaction:
    """A writing transaction (one writer at a time, across servers): committed, or
    rolled back if anything went wrong."""

    def __init__(self, club: Club) -> None:
        self.club = club

    def __enter__(self) -> None:
        try:
            self.club.engine.begin(self.club.db)
        except BaseException:  # (begun, but its lock not taken: never left open)
            with contextlib.suppress(*self.club.engine.errors):
                self.club.db.execute("ROLLBACK")
            raise

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            self.club.db.execute("COMMIT")
        else:
            with contextlib.suppress(*self.club.engine.errors):
                self.club.db.execute("ROLLBACK")
