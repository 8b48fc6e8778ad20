"""The club's store for ``cribbage serve``: the accounts (each name, the key it belongs
to, when it was first and last seen), everyone's rating and their rating after each game,
the index of the games rated and of the adjourned games, in SQLite (the standard
library's), in WAL mode, each change written in one transaction.

The game logs stay TOML files, and they stay the truth: the store is worked out from them
(:mod:`cribcli.club.ratings`), can be worked out again from them alone (:meth:`Club.rebuild`,
``cribbage serve --rebuild-ratings``), and as the server starts it looks for filed games
it has not rated (a server killed between filing a game and rating it) and, if it finds
any, works everything out again (:func:`cribcli.club.served.catch_up`: the server's folders are
:mod:`cribcli.club.served`'s): nothing is lost, and nothing is half written, since a
transaction is all or nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cribcli.club import ratings
from cribcli.club.ratings import Rung, Standing, Step
from cribcli.record.log import GameLog
from cribcli.record.store import StoreError

SCHEMA = """
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
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
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
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
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

SCHEMA_VERSION = 1
"""The version of :data:`SCHEMA` (SQLite's ``user_version``): a store of a later version
was made by a newer cribbage, and is not opened. A store of version 0 is new, or was made
before the version was kept (its tables are this version's)."""

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


def digest_of(text: str) -> str:
    """A game's key in the store: the SHA-256 of its log's text."""
    return hashlib.sha256(text.encode()).hexdigest()


class Club:
    """The store, open. Safe to call from several threads (one at a time)."""

    def __init__(self, path: Path) -> None:
        """Open the store at ``path`` (made if new), and prove it before anyone relies on
        it: SQLite's quick check of every page, and a schema version this code knows.
        Raises StoreError saying what is wrong (locked by another program, damaged, made
        by a newer version, not a database), in one line."""
        self.path = path
        self.lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the club's store {path} ({error})") from None
        try:
            self._prove()
        except BaseException:
            self.db.close()
            raise

    def _prove(self) -> None:
        db, path = self.db, self.path
        try:
            db.execute("PRAGMA busy_timeout=5000")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # (a killed process loses nothing)
            db.execute("PRAGMA foreign_keys=ON")
            found = [" ".join(str(row[0]).split()) for row in db.execute("PRAGMA quick_check(3)")]
            if found != ["ok"]:
                said = "; ".join(found).removeprefix("*** in database main *** ")
                raise StoreError(
                    f"the club's store {path} is damaged (SQLite's check: {said[:160]}): move "
                    "it away, and the server works it out again from the logs and the "
                    "players' folders"
                )
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"the club's store {path} was made by a newer cribbage (its schema is "
                    f"version {version}, this one knows {SCHEMA_VERSION})"
                )
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as error:
            locked = "locked" in str(error) or "busy" in str(error)
            why = "locked by another program" if locked else "not a store that can be used"
            raise StoreError(f"the club's store {path} is {why} ({error})") from None

    def close(self) -> None:
        with self._held():
            self.db.close()

    @contextlib.contextmanager
    def _held(self) -> Iterator[None]:
        """The store to this thread alone; an error of SQLite's (a locked or broken
        file, a full disk) raised as a StoreError saying so, in one line."""
        with self.lock:
            try:
                yield
            except sqlite3.Error as error:
                raise StoreError(f"the club's store {self.path}: {error}") from None

    # --- reading ----------------------------------------------------------------------

    def standings(self) -> dict[str, Standing]:
        """Everyone's standing, with their history, by :func:`ratings.person`."""
        with self._held():
            return self._standings()

    def _standings(self, people: Iterable[str] | None = None) -> dict[str, Standing]:
        rows = self.db.execute(
            "SELECT person, name, mu, sigma, games, last_seen FROM ratings"
        ).fetchall()
        wanted = None if people is None else set(people)
        found: dict[str, Standing] = {}
        for person, name, mu, sigma, games, last_seen in rows:
            if wanted is not None and person not in wanted:
                continue
            steps = tuple(
                Step(started, place, sides, step_mu, step_sigma)
                for started, place, sides, step_mu, step_sigma in self.db.execute(
                    "SELECT started, place, sides, mu, sigma FROM history WHERE person = ? "
                    "ORDER BY number",
                    (person,),
                )
            )
            found[person] = Standing(name, mu, sigma, games, last_seen, steps)
        return found

    def standing(self, name: str) -> Standing | None:
        """One person's standing, if they have played a rated game."""
        with self._held():
            return self._standings([ratings.person(name)]).get(ratings.person(name))

    def ladder(self) -> list[Rung]:
        """The ladder, best first."""
        return ratings.ladder(self.standings())

    def known(self, digest: str) -> bool:
        with self._held():
            found = self.db.execute("SELECT 1 FROM games WHERE digest = ?", (digest,))
            return found.fetchone() is not None

    # --- writing ----------------------------------------------------------------------

    def rate(self, log: GameLog, digest: str, path: str | None = None) -> dict[str, Standing]:
        """Rate one finished game (once, however often it is given): the people's new
        standings, written in one transaction. Empty if it is not rated or known."""
        with self._held():
            if self.db.execute("SELECT 1 FROM games WHERE digest = ?", (digest,)).fetchone():
                return {}
            people = [ratings.person(s.name) for s in log.info.seats if s.player == "human"]
            changed = ratings.rate_game(log, self._standings(people))
            with self._transaction():
                self._write_game(digest, log, changed, path)
            return changed

    def rebuild(self, logs: Iterable[tuple[str, str, GameLog]]) -> int:
        """Everything worked out again from ``logs`` (each its path, its digest and the log
        read), in one transaction: the games rated in the order they started. Returns how
        many games were rated."""
        given = {digest: (path, log) for path, digest, log in logs}
        order = sorted(given, key=lambda digest: ratings.game_order(given[digest][1]))
        standings: dict[str, Standing] = {}
        rated = 0
        with self._held(), self._transaction():
            for table in ("games", "files", "ratings", "history"):
                self.db.execute(f"DELETE FROM {table}")
            for digest in order:
                path, log = given[digest]
                changed = ratings.rate_game(log, standings)
                standings.update(changed)
                self._write_game(digest, log, changed, path)
                rated += bool(changed)
        return rated

    def _write_game(
        self, digest: str, log: GameLog, changed: dict[str, Standing], path: str | None
    ) -> None:
        db = self.db
        db.execute("INSERT INTO games (digest, started) VALUES (?, ?)", (digest, log.info.started))
        if path is not None:
            db.execute("INSERT OR REPLACE INTO files (path, digest) VALUES (?, ?)", (path, digest))
        for person, standing in changed.items():
            db.execute(
                "INSERT OR REPLACE INTO ratings (person, name, mu, sigma, games, last_seen) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (person, standing.name, standing.mu, standing.sigma, standing.games,
                 standing.last_seen),
            )  # fmt: skip
            step = standing.history[-1]
            db.execute(
                "INSERT INTO history (person, number, game, started, place, sides, mu, sigma) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (person, standing.games, digest, step.started, step.place, step.sides,
                 step.mu, step.sigma),
            )  # fmt: skip

    def file_known(self, path: str) -> bool:
        with self._held():
            found = self.db.execute("SELECT 1 FROM files WHERE path = ?", (path,))
            return found.fetchone() is not None

    def note_file(self, path: str, digest: str) -> None:
        """A filed log whose game is rated already (filed for another person too)."""
        with self._held(), self._transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO files (path, digest) VALUES (?, ?)", (path, digest)
            )

    # --- accounts -------------------------------------------------------------------

    def account(self, name: str) -> Account | None:
        with self._held():
            row = self.db.execute(
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
            row = self.db.execute("SELECT key FROM accounts WHERE person = ?", (person,)).fetchone()
            if row is None:
                self.db.execute(
                    "INSERT INTO accounts (person, name, key, first_seen, last_seen) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (person, name, key if claim else None, now, now),
                )
                return "new" if claim else "known"
            if claim and row[0] is not None and row[0] != key:
                return "taken"
            held = key if claim and row[0] is None else row[0]
            self.db.execute(
                "UPDATE accounts SET key = ?, last_seen = ? WHERE person = ?",
                (held, now, person),
            )
            return "new" if claim and row[0] is None else "known"

    def take_in(self, accounts: Iterable[Account]) -> list[str]:
        """Accounts kept in the players' folders, taken in where the store does not hold
        their keys (lost with the store, or kept as files by an older server): a name not
        here is made, a name held by another key or none is given the folder's key (the
        folders stay the truth), in one transaction. Returns the names taken in."""
        taken = []
        with self._held(), self._transaction():
            for account in accounts:
                person = ratings.person(account.name)
                row = self.db.execute(
                    "SELECT key FROM accounts WHERE person = ?", (person,)
                ).fetchone()
                if row is None:
                    self.db.execute(
                        "INSERT INTO accounts (person, name, key, first_seen, last_seen) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (person, account.name, account.key, account.first_seen,
                         account.last_seen),
                    )  # fmt: skip
                elif row[0] != account.key:
                    self.db.execute(
                        "UPDATE accounts SET key = ? WHERE person = ?", (account.key, person)
                    )
                else:
                    continue
                taken.append(account.name)
        return taken

    def held(self) -> list[Account]:
        """Every account held by a key (``--open``), by name."""
        with self._held():
            rows = self.db.execute(
                "SELECT name, key, first_seen, last_seen FROM accounts "
                "WHERE key IS NOT NULL ORDER BY person"
            ).fetchall()
        return [Account(*row) for row in rows]

    def accounts(self) -> int:
        """How many names the club holds."""
        with self._held():
            return int(self.db.execute("SELECT count(*) FROM accounts").fetchone()[0])

    def unseen_since(self, when: str) -> list[str]:
        """The names (in lower case) last seen before ``when``."""
        with self._held():
            rows = self.db.execute(
                "SELECT person FROM accounts WHERE last_seen < ? ORDER BY person", (when,)
            )
            return [person for (person,) in rows]

    def drop_account(self, name: str) -> None:
        with self._held(), self._transaction():
            self.db.execute("DELETE FROM accounts WHERE person = ?", (ratings.person(name),))

    # --- adjourned games --------------------------------------------------------------

    def adjourn(self, game: AdjournedGame) -> None:
        """An adjourned game (its files written) noted."""
        with self._held(), self._transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO adjourned "
                "(key, adjourned, seed, names, people, target, scores) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game.key, game.adjourned, game.seed, json.dumps(game.names),
                 json.dumps(game.people), game.target, json.dumps(game.scores)),
            )  # fmt: skip
            for person in {ratings.person(name) for name in game.people}:
                self.db.execute(
                    "INSERT OR IGNORE INTO adjourned_people (key, person) VALUES (?, ?)",
                    (game.key, person),
                )

    def adjourned(self, name: str | None = None) -> list[AdjournedGame]:
        """The adjourned games ``name`` sits in (all, if None), oldest first."""
        query = "SELECT key, adjourned, seed, names, people, target, scores FROM adjourned"
        given: tuple[str, ...] = ()
        if name is not None:
            query += " WHERE key IN (SELECT key FROM adjourned_people WHERE person = ?)"
            given = (ratings.person(name),)
        with self._held():
            rows = self.db.execute(query + " ORDER BY adjourned, key", given).fetchall()
        return [
            AdjournedGame(
                key,
                when,
                seed,
                tuple(json.loads(names)),
                tuple(json.loads(people)),
                target,
                tuple(json.loads(scores)),
            )
            for key, when, seed, names, people, target, scores in rows
        ]

    def resumed(self, key: str) -> None:
        """An adjourned game is no longer (resumed, or its files gone)."""
        with self._held(), self._transaction():
            self.db.execute("DELETE FROM adjourned WHERE key = ?", (key,))

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if anything went wrong."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
