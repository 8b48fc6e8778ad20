"""The games of ``cribbage serve`` on disk, beside the room (:mod:`cribcli.club.lobby`): each
table's game saved after every move, carried on when the server starts again, and filed
at its end for each person who played it, in their own folder (their ``stats`` count it,
``replay`` and ``review`` find it). A game's life on disk is :mod:`cribcli.services.games`'s, for
served tables as for ``play``; this module keeps the server's folders and tables.

No sockets or terminals here: the server's connections are :mod:`cribcli.ui.serve`'s.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from itertools import count
from pathlib import Path

from cribcli.club.database import Account, AdjournedGame, Arrival, Club, Filed, digest_of
from cribcli.club.lobby import AWAY_LIMIT, GameOutcome, Lobby, ServedTable, TableSetup, player_name
from cribcli.players import Level
from cribcli.record.log import LOG_LIMIT, GameInfo, match_text
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.session import Session
from cribcli.record.store import (
    Places,
    SaveLock,
    Warn,
    load_settings,
    read_text,
    reason,
    save_settings,
    write_atomic,
)
from cribcli.rules.errors import CribbageError
from cribcli.rules.targets import MATCH_LENGTHS, target_of
from cribcli.services.games import (
    Saver,
    computers,
    file_finished,
    filed_today,
    resume_or_set_aside,
    started_now,
)

META_LIMIT = 4096
"""The most bytes a table's settings file may hold."""
PLAYERS = "players"
"""The server folder's folder of people's own folders."""
KEY_FILE = "key"
"""In a person's folder: the key (its fingerprint) that holds the name, with ``--open``."""
KEY_LIMIT = 4096
"""The most bytes a kept key's file may hold."""
HOME_FILE = "club-home"
"""In the server's folder: the name it goes by in a store several servers share."""
ADJOURNED_LIMIT = 10_000
"""The most adjourned games' files the server looks through as it starts (those an older
server left without an index)."""


class ServerLock(SaveLock):
    """One ``cribbage serve`` a data folder: the folder is held (an OS lock on
    ``server.lock`` in it, marked with the holder's process id) for the server's life,
    and for ``--rebuild-ratings``; a second one is refused, naming the holder. A club
    on several servers shares a database, not a folder."""

    def __init__(self, root: Path) -> None:
        super().__init__(root / "server")
        self.root = root

    def busy(self, who: str) -> str:
        return (
            f"the server's folder {self.root} is held by another `cribbage serve`{who}: "
            "one server a folder (stop it first)"
        )


def open_club(root: Path, store: str | None) -> Club:
    """The club's store for the server folder ``root``: ``store`` (a ``postgresql://``
    address, shared with other servers, each known by its folder's name in it), else the
    folder's own SQLite file. Raises StoreError if it cannot be used."""
    if store is None:
        return Club(root / "club.db")
    return Club(store, home_of(root))


def home_of(root: Path) -> str:
    """The name a server folder goes by in a shared store: made once, kept in the folder
    (``club-home``), so that two servers' folders are never taken for one."""
    path = root / HOME_FILE
    with contextlib.suppress(OSError, CribbageError):
        kept = (read_text(path, 100, follow_links=False) or "").strip()
        if re.fullmatch(r"[0-9a-f]{16}", kept):
            return kept
    made = secrets.token_hex(8)
    root.mkdir(parents=True, exist_ok=True)
    write_atomic(path, made + "\n")
    return made


def seen_now(at: float | None = None) -> str:
    """A moment as the club's accounts keep it: UTC, ISO 8601, to the second (now, or the
    wall-clock time ``at``)."""
    moment = datetime.now(UTC) if at is None else datetime.fromtimestamp(at, UTC)
    return moment.isoformat(timespec="seconds")


class ServedGames:
    """The server's folder: each table's save (``tables/``), the adjourned games
    (``adjourned/``), and each person's own folder (``players/NAME/``: their finished games,
    their stats); what is known of each name and each adjourned game is the ``club``'s."""

    def __init__(
        self, root: Path, lobby: Lobby, warn_table: Callable[[int], Warn], club: Club
    ) -> None:
        self.root = root
        self.lobby = lobby
        self.club = club
        self.warn_table = warn_table
        """What tells a table's people that its save failed (or works again)."""
        self.savers: dict[int, Saver] = {}
        self.last_filed: list[Path] = []
        """Where the last game finished was filed (one file for each person in it)."""

    @property
    def tables_folder(self) -> Path:
        return self.root / "tables"

    @property
    def players_folder(self) -> Path:
        return self.root / PLAYERS

    def folder(self, name: str) -> Path:
        """A person's own folder: one whatever the case of the name (``ANN`` is ``ann``)."""
        return self.players_folder / player_name(name).lower()

    def fold_names(self) -> list[str]:
        """Folders made before names were one whatever their case (``Ann/``) take their
        lower-case names (``ann/``), once, as the server starts. Returns what could not be
        (two folders for one name: the first written keeps it), to be told."""
        problems = []
        with contextlib.suppress(OSError):
            for entry in sorted(self.players_folder.iterdir()):
                folded = entry.with_name(entry.name.lower())
                if entry.name == folded.name or entry.is_symlink() or not entry.is_dir():
                    continue
                if folded.exists():
                    problems.append(
                        f"players/{entry.name} and players/{folded.name} are one name now: "
                        f"{folded.name} keeps it ({entry.name}'s folder is left as it is)"
                    )
                    continue
                try:
                    entry.rename(folded)
                except OSError as error:
                    problems.append(f"cannot rename players/{entry.name} ({reason(error)})")
        return problems

    def known_as(self, name: str) -> str:
        """The name as its person first wrote it (kept with its account, or in the
        settings of a folder older than the accounts), or as given if it is new."""
        account = self.club.account(name)
        if account is not None:
            return account.name
        kept = load_settings(self.folder(name) / "settings.toml").get("name")
        if isinstance(kept, str) and kept.lower() == name.lower():
            return kept
        return player_name(name)

    def places(self, name: str) -> Places:
        """A person's own folder (their finished games, their stats), made on first use
        with their name in its settings (``review`` then knows their seat)."""
        base = self.folder(name)
        places = Places(base, base, base)
        if not places.settings.exists():
            base.mkdir(parents=True, exist_ok=True)
            save_settings(places.settings, {"name": name})
        return places

    def arrive(self, name: str, key: str, *, claim: bool) -> Arrival:
        """(Off the event loop.) ``name`` logged in with ``key``: noted as seen now; with
        ``claim`` (``--open``) the name is held by the key it first came with, and a new
        name has its folder made, with the key kept in it as well as in the store."""
        arrival = self.club.arrive(name, key, seen_now(), claim=claim)
        if arrival == "new":
            self._keep_key(name, key)
        return arrival

    def key_of(self, name: str) -> str | None:
        """With ``--open``: the key ``name`` is held by, if any: its folder's (which
        outlives the store), else the store's; in a store several servers share, the
        store's first (it holds the club's names; a folder, one server's). Raises
        StoreError if the store fails."""
        if self.club.shared:
            account = self.club.account(name)
            if account is not None and account.key is not None:
                return account.key
        kept = self._folder_key(self.folder(name))
        if kept is not None:
            return kept
        account = self.club.account(name)
        return None if account is None else account.key

    def names(self) -> int:
        """How many names the club holds."""
        return self.club.accounts()

    def _keep_key(self, name: str, key: str) -> None:
        """The key that holds ``name``, kept in its folder (``players/NAME/key``)."""
        places = self.places(name)
        write_atomic(places.settings.parent / KEY_FILE, key + "\n")

    @staticmethod
    def _folder_key(folder: Path) -> str | None:
        """The key a person's folder says holds its name, if any."""
        with contextlib.suppress(OSError, CribbageError):
            if folder.is_symlink():
                return None
            text = read_text(folder / KEY_FILE, KEY_LIMIT, follow_links=False)
            key = text.strip() if text is not None else ""
            if key and key.isprintable():
                return key
        return None

    def settle_accounts(self) -> tuple[int, int]:
        """As the server starts: each name's key is where the logs are (its folder) and in
        the store. Keys in folders that the store does not hold (it was lost, emptied, or
        an older server kept them as files) are taken into it; keys only the store holds
        are written to their folders. Returns how many of each."""
        found: list[Account] = []
        with contextlib.suppress(OSError):
            for folder in sorted(self.players_folder.iterdir()):
                key = self._folder_key(folder)
                if key is None or not folder.is_dir():
                    continue
                kept = load_settings(folder / "settings.toml").get("name")
                name = kept if isinstance(kept, str) else folder.name
                with contextlib.suppress(CribbageError, OSError):
                    first = seen_now(folder.stat().st_mtime)
                    last = seen_now((folder / KEY_FILE).stat().st_mtime)
                    found.append(Account(player_name(name), key, first, last))
        taken = len(self.club.take_in(found))
        written = 0
        for account in self.club.held():
            if account.key and self._folder_key(self.folder(account.name)) is None:
                with contextlib.suppress(OSError, CribbageError):
                    self._keep_key(account.name, account.key)
                    written += 1
        return taken, written

    def forget(
        self, older_than: float, now: float, keep: frozenset[str] = frozenset()
    ) -> list[str]:
        """Forget the names that never finished a game here and were last seen before
        ``older_than`` seconds ago (by ``now``, a wall-clock time), but those in ``keep``
        (here, or seated): their accounts and their folders go, if these hold only a few
        plain files (anything else, and the name is kept). Returns the names forgotten."""
        forgotten: list[str] = []
        try:
            unseen = self.club.unseen_since(seen_now(now - older_than))
        except CribbageError:
            return forgotten  # (another time)
        for name in unseen:
            if name in keep:
                continue
            try:  # (a game rated on another server of the club keeps it too)
                if self.club.standing(name) is not None:
                    continue
            except CribbageError:
                return forgotten
            entry = self.folder(name)
            try:
                if entry.is_symlink() or (entry.exists() and not entry.is_dir()):
                    continue
                inside = list(entry.iterdir()) if entry.exists() else []
                if (
                    self._played(entry)
                    or len(inside) > 8
                    or not all(f.is_file() and not f.is_symlink() for f in inside)
                ):
                    continue
                if entry.exists():  # the folder out of reach first, then the name free
                    gone = entry.with_name(f".forgotten-{entry.name}")
                    entry.rename(gone)
                    for file in inside:
                        (gone / file.name).unlink()
                    gone.rmdir()
                self.club.drop_account(name)
                forgotten.append(name)
            except (OSError, CribbageError):
                continue  # kept for another time
        return forgotten

    @staticmethod
    def _played(folder: Path) -> bool:
        """Whether a person's folder holds a finished game."""
        games = Places(folder, folder, folder).games
        with contextlib.suppress(OSError):
            return games.exists() and (not games.is_dir() or any(games.iterdir()))
        return True  # unreadable: kept

    def saver(self, number: int) -> Saver:
        """What saves table ``number``'s game after every move: a write that fails is told
        to the table at once, and the game goes on in memory."""
        saver = Saver(self.tables_folder / f"table-{number}.toml", self.warn_table(number))
        self.savers[number] = saver
        return saver

    # --- a table's life -------------------------------------------------------------

    def start(self, table: ServedTable) -> Session:
        """Every seat is taken: the game begins, saved at once, with its setup kept."""
        self.tables_folder.mkdir(parents=True, exist_ok=True)
        self._keep_setup(table)
        return table.start(secrets.token_hex(16), started_now())

    def next_game(self, table: ServedTable) -> Session:
        """A match's game is over and filed, the match not decided: the next begins (the
        games so far kept with the table's setup, for a restart)."""
        session = table.next_game(secrets.token_hex(16), started_now())
        self._keep_setup(table)
        return session

    def carry_on(self) -> tuple[list[ServedTable], list[str]]:
        """Every table saved when the server stopped, back in the room, everyone away;
        and what could not be carried on, to be told (set aside, its number never given
        to a new table)."""
        carried: list[ServedTable] = []
        problems: list[str] = []
        adjourned, indexed = self._settle_adjourned()
        if indexed:
            problems.append(
                f"the club's adjourned games: {indexed} indexed again from their files "
                "(the store did not hold them)"
            )
        folder = self.tables_folder
        if not folder.is_dir():
            return carried, problems
        for path in sorted(folder.glob("table-*.toml")):
            stem = path.stem.removeprefix("table-")
            if not re.fullmatch(r"[0-9]{1,6}", stem) or int(stem) in self.lobby.tables:
                continue
            number = int(stem)
            save = self.saver(number)
            try:
                resumed = resume_or_set_aside(path, save, _nobody_sits)
            except CribbageError as error:  # nor could it be set aside
                self.lobby.reserved.add(number)
                problems.append(f"table {number} could not be carried on: {error}")
                continue
            if resumed.session is None:
                self.lobby.reserved.add(number)  # never written over by a new table
                if resumed.kept is not None:
                    problems.append(
                        f"table {number} could not be carried on ({resumed.why}): "
                        f"kept as {resumed.kept}"
                    )
                continue
            session = resumed.session
            if str(session.info.seed) in adjourned:  # adjourned as the server was killed
                session.save_to(None)
                for done in (path, self._meta(number)):
                    with contextlib.suppress(OSError):
                        done.unlink()
                self.savers.pop(number, None)
                continue
            session.computers = computers(session.info)
            save.text = resumed.text
            table = ServedTable.carried_on(number, session, self._setup_of(number, session), save)
            table.finished, table.filed = self._match_of(number, session.info.rules.sides)
            self.lobby.add(table)
            carried.append(table)
        return carried, problems

    # --- adjourned games -----------------------------------------------------------

    @property
    def adjourned_folder(self) -> Path:
        return self.root / "adjourned"

    def adjourn(self, table: ServedTable) -> str:
        """Everyone at the table agreed: its game (saved after every move) and its setup
        are put away under a key of their own, and the table closes. Returns the key.
        Raises OSError or StoreError if they cannot be put away (the table plays on).

        The club's index is the moment it is done: the files are copied first, the
        game noted in the index, then the table's save goes. Killed before the index,
        the table plays on at the next start (the copies are dropped); after it, the
        table's save is dropped then (:meth:`_settle_adjourned`)."""
        folder = self.adjourned_folder
        folder.mkdir(parents=True, exist_ok=True)
        key = f"{filed_today(f'table-{table.number}')}-{secrets.token_hex(4)}"
        self._keep_setup(table)
        saver = self.savers[table.number]
        session = table.session
        assert session is not None
        write_atomic(folder / f"{key}.toml", saver.text)  # (the latest, whatever the saves did)
        meta = None
        with contextlib.suppress(OSError, CribbageError):
            meta = read_text(self._meta(table.number), META_LIMIT, follow_links=False)
            if meta is not None:
                write_atomic(folder / f"{key}.json", meta)
        seats = session.info.seats
        game = AdjournedGame(
            key,
            seen_now(),
            str(session.info.seed),
            tuple(table.names()),
            tuple(spec.name for spec in seats if spec.player == "human"),
            session.info.rules.target,
            tuple(session.state.scores),
        )
        try:
            self.club.adjourn(game, saver.text, meta)
        except BaseException:
            for suffix in (".toml", ".json"):
                with contextlib.suppress(OSError):
                    (folder / f"{key}{suffix}").unlink()
            raise
        for path in (self.tables_folder / f"table-{table.number}.toml", self._meta(table.number)):
            with contextlib.suppress(OSError):
                path.unlink()
        session.save_to(None)  # a move still on its way is saved nowhere
        self.lobby.close(table.number)
        self.savers.pop(table.number, None)
        return key

    def adjourned(self, name: str) -> list[AdjournedGame]:
        """The adjourned games ``name`` sits in, oldest first (from the club's index)."""
        return self.club.adjourned(name)

    def _settle_adjourned(self) -> tuple[set[str], int]:
        """As the server starts: the index of adjourned games and their files agree. A
        game indexed whose file is gone is dropped from the index (resumed as the server
        was killed); a file not indexed is dropped if its table's save is there (its
        adjournment never finished), else indexed (an older server's, or a store lost).
        Returns the seeds of the games adjourned, whose tables' saves are not carried on,
        and how many were indexed again.

        In a store several servers share, only this server's games are its files' to
        settle; those another server resumed (from the store's copy) have their files
        here dropped first."""
        folder = self.adjourned_folder
        for key in self.club.resumed_elsewhere():
            for suffix in (".toml", ".json"):
                with contextlib.suppress(OSError):
                    (folder / f"{key}{suffix}").unlink()
            self.club.forget_resumed(key)  # (the files first: killed between, gone again)
        every = self.club.adjourned()
        indexed = {game.key: game for game in every if game.home is None}
        for key in indexed:
            if not (folder / f"{key}.toml").exists():
                self.club.resumed(key)
        seeds = {g.seed for g in indexed.values() if (folder / f"{g.key}.toml").exists()}
        seeds |= {g.seed for g in every if g.home is not None}  # (a resume that never ended)
        again = 0
        if not folder.is_dir():
            return seeds, again
        tables: set[str] | None = None  # (read only if a file is not indexed)
        for path in sorted(folder.glob("*.toml"))[:ADJOURNED_LIMIT]:
            if path.stem in indexed:
                continue
            with contextlib.suppress(CribbageError, ValueError, RecursionError, OSError):
                text = read_text(path, LOG_LIMIT, follow_links=False) or ""
                log = loads(text)
                seed = str(log.info.seed)
                tables = self._saved_seeds() if tables is None else tables
                if seed in tables:
                    for suffix in (".toml", ".json"):
                        with contextlib.suppress(OSError):
                            path.with_suffix(suffix).unlink()
                    continue
                played = replay(log)  # (the table's scores as it was put away)
                state = played.state
                scores = state.scores if state is not None else (0,) * log.info.rules.sides
                seats = log.info.seats
                game = AdjournedGame(
                    path.stem,
                    seen_now(path.stat().st_mtime),
                    seed,
                    tuple(spec.name for spec in seats),
                    tuple(spec.name for spec in seats if spec.player == "human"),
                    log.info.rules.target,
                    tuple(scores),
                )
                meta = None
                with contextlib.suppress(CribbageError, OSError):
                    meta = read_text(path.with_suffix(".json"), META_LIMIT, follow_links=False)
                self.club.adjourn(game, text, meta)
                seeds.add(seed)
                again += 1
        return seeds, again

    def _saved_seeds(self) -> set[str]:
        """The seeds of the tables' saves."""
        seeds = set()
        for path in sorted(self.tables_folder.glob("table-*.toml")):
            with contextlib.suppress(CribbageError, ValueError, RecursionError, OSError):
                log = loads(read_text(path, LOG_LIMIT, follow_links=False) or "")
                seeds.add(str(log.info.seed))
        return seeds

    def resume(self, key: str, now: float) -> ServedTable:
        """An adjourned game back at a table of its own (every person away until they
        join it), saved as the tables are. Raises CribbageError if it cannot be."""
        folder = self.adjourned_folder
        lobby = self.lobby
        number = next(n for n in count(1) if n not in lobby.tables and n not in lobby.reserved)
        self.tables_folder.mkdir(parents=True, exist_ok=True)
        path = self.tables_folder / f"table-{number}.toml"
        files = (folder / f"{key}.toml", folder / f"{key}.json")
        here = files[0].exists() or not self.club.shared
        try:
            if here:
                os.replace(files[0], path)
                with contextlib.suppress(OSError):
                    os.replace(files[1], self._meta(number))
            else:  # another server's: from the store's copy
                self._from_store(key, path, self._meta(number))
        except OSError as error:
            why = reason(error)
            raise CribbageError(f"the adjourned game cannot be carried on ({why})") from None
        # The store's note dropped: the moment it is resumed. Shared, the note says
        # which server has it, so a failure to drop it (or another server dropping it
        # first) puts the game back as it was; alone, it is settled as the server next
        # starts.
        try:
            still = self.club.resumed(key)
        except CribbageError as error:
            if not self.club.shared:
                still = True
            else:
                self._put_back(here, (path, self._meta(number)), files)
                raise CribbageError(f"the adjourned game stays adjourned: {error}") from None
        if not still and self.club.shared:  # another server resumed it first: its game
            self._put_back(False, (path, self._meta(number)), files)
            raise CribbageError("that adjourned game was resumed on another server just now")
        save = self.saver(number)
        resumed = resume_or_set_aside(path, save, _nobody_sits)
        if resumed.session is None:
            lobby.reserved.add(number)
            raise CribbageError(f"the adjourned game could not be carried on ({resumed.why})")
        session = resumed.session
        session.computers = computers(session.info)
        save.text = resumed.text
        table = ServedTable.carried_on(number, session, self._setup_of(number, session), save)
        table.finished, table.filed = self._match_of(number, session.info.rules.sides)
        table.away = dict.fromkeys(table.human_seats(), now)  # away from now, not before
        lobby.add(table)
        return table

    @staticmethod
    def _put_back(here: bool, made: tuple[Path, Path], files: tuple[Path, Path]) -> None:
        """A resume undone: the files moved back where they were (``here``), or the
        copies written from the store dropped."""
        for done, kept in zip(made, files, strict=True):
            with contextlib.suppress(OSError):
                if here:
                    os.replace(done, kept)
                else:
                    done.unlink()

    def _from_store(self, key: str, path: Path, meta: Path) -> None:
        """An adjourned game another server put away, its files written here from the
        copy the shared store keeps. Raises CribbageError if it keeps none it can use."""
        files = self.club.adjourned_files(key)
        if files is None:
            raise CribbageError("the adjourned game's files are on another server, not here")
        log, setup = files
        try:
            loads(log)  # (a game, before anything is written or claimed)
        except (CribbageError, ValueError, RecursionError):
            raise CribbageError("the store's copy of the adjourned game is not a game") from None
        write_atomic(path, log)
        if setup is not None and len(setup) <= META_LIMIT:
            write_atomic(meta, setup)

    def finish(self, table: ServedTable) -> dict[str, str]:
        """A game is over: its log filed for each person who played it, and the table
        closed. Returns why, for each person it could not be filed for (the save stays:
        the next start files it again)."""
        session = table.session
        assert session is not None
        text = self.savers[table.number].text
        game = f"-game-{len(table.finished) + 1}" if table.setup.best_of > 1 else ""
        name = filed_today(f"table-{table.number}{game}")
        failed: dict[str, str] = {}
        paths = []
        for spec in session.info.seats:
            if spec.player != "human":
                continue
            try:
                paths.append(file_finished(self.places(spec.name), name, text, session, spec.name))
            except (OSError, CribbageError) as error:
                failed[spec.name] = reason(error) if isinstance(error, OSError) else str(error)
        self.last_filed = paths
        if table.setup.best_of > 1:
            table.filed.append(paths[0].name if paths else f"{name}.toml")
        if not table.over:  # a match goes on: the next game is saved over this one
            if failed:  # so this one is kept aside, for the operator to file by hand
                with contextlib.suppress(OSError):
                    write_atomic(self.tables_folder / f"unfiled-{name}.toml", text)
            return failed
        if table.setup.best_of > 1:
            self._file_match(table, failed)
        if not failed:
            with contextlib.suppress(OSError):
                (self.tables_folder / f"table-{table.number}.toml").unlink()
                self._meta(table.number).unlink()
        else:  # the save stays, to be filed at the next start: its number is not given
            self.lobby.reserved.add(table.number)
        self.lobby.close(table.number)
        self.savers.pop(table.number, None)
        return failed

    def _file_match(self, table: ServedTable, failed: dict[str, str]) -> None:
        """A decided match filed as one record, with its games, for each person in it."""
        session = table.session
        assert session is not None
        text = match_text(table.setup.best_of, table.names(), table.outcomes(), table.filed)
        name = filed_today(f"table-{table.number}-match") + ".toml"
        for spec in session.info.seats:
            if spec.player != "human" or spec.name in failed:
                continue
            try:
                folder = self.places(spec.name).games.parent / "matches"
                folder.mkdir(parents=True, exist_ok=True)
                write_atomic(folder / name, text)
            except OSError as error:
                failed[spec.name] = reason(error)

    # --- a table's setup ------------------------------------------------------------

    def _meta(self, number: int) -> Path:
        return self.tables_folder / f"table-{number}.json"

    def _keep_setup(self, table: ServedTable) -> None:
        """What a carried-on game cannot tell from its log: the computers' level when no
        computer sits yet, and how long the table waits for someone away."""
        with contextlib.suppress(OSError):
            meta = {
                "away": table.setup.away,
                "level": str(table.setup.level),
                "private": table.setup.private,
                "best_of": table.setup.best_of,
                "finished": [
                    {"winner": o.winner, "scores": list(o.scores), "skunks": list(o.skunks)}
                    for o in table.finished
                ],
                "filed": table.filed,
            }
            write_atomic(self._meta(table.number), json.dumps(meta))

    def _setup_of(self, number: int, session: Session) -> TableSetup:
        """A carried-on table's setup: its rules and seats from the log; the level and the
        time the creator set to wait for people away from the table's settings file."""
        info = session.info
        robots = [spec for spec in info.seats if spec.player == "computer"]
        setup = TableSetup(
            players=info.rules.players,
            short=info.rules.target == target_of(True),
            muggins=info.rules.muggins,
            computers=len(robots),
            level=robots[0].level if robots and robots[0].level else Level.NORMAL,
            clock=info.clock,
        )
        with contextlib.suppress(CribbageError, ValueError, TypeError):
            meta = json.loads(read_text(self._meta(number), META_LIMIT) or "{}")
            away, level = meta.get("away"), meta.get("level")
            if type(away) in (int, float) and 0 <= away <= AWAY_LIMIT:
                setup = replace(setup, away=float(away))
            known = Level.parse(level)
            if known is not None:
                setup = replace(setup, level=known)
            if meta.get("private") is True:
                setup = replace(setup, private=True)
            if meta.get("best_of") in MATCH_LENGTHS:
                setup = replace(setup, best_of=meta["best_of"])
        return setup

    def _match_of(self, number: int, sides: int) -> tuple[list[GameOutcome], list[str]]:
        """A carried-on match's games finished before the one saved, and the files they
        were filed as (none if unreadable, or if they do not pair up)."""
        found: list[GameOutcome] = []
        files: list[str] = []
        with contextlib.suppress(CribbageError, ValueError, TypeError, AttributeError):
            meta = json.loads(read_text(self._meta(number), META_LIMIT) or "{}")
            files = [f for f in meta.get("filed", [])[:7] if isinstance(f, str) and len(f) < 100]
            for game in meta.get("finished", [])[:7]:
                winner, scores, skunks = game["winner"], game["scores"], game["skunks"]
                if (
                    type(winner) is int
                    and 0 <= winner < sides
                    and len(scores) == len(skunks) == sides
                    and all(type(x) is int for x in scores)
                    and all(x in ("", "skunk", "double skunk") for x in skunks)
                ):
                    found.append(GameOutcome(winner, tuple(scores), tuple(skunks)))
        if len(files) != len(found):
            files = [f"game {n + 1}" for n in range(len(found))]
        return found, files


def _nobody_sits(info: GameInfo) -> str | None:
    """A served table's save is carried on only if a person sits at it."""
    return None if any(spec.player == "human" for spec in info.seats) else "no person sits at it"


def filed_logs(root: Path) -> Iterator[Path]:
    """Every finished game's log filed in the server folder ``root``: each person's
    games (a game of several people is filed once for each)."""
    players = root / PLAYERS
    if players.is_dir():
        for folder in sorted(players.iterdir()):
            games = Places(folder, folder, folder).games
            if folder.is_dir() and not folder.is_symlink() and games.is_dir():
                yield from sorted(games.glob("*.toml"))


def read_logs(root: Path, paths: Iterable[Path]) -> Iterator[Filed]:
    """Each readable finished log: its path (relative to ``root``), its digest, the log
    and its text."""
    for path in paths:
        try:
            text = read_text(path, LOG_LIMIT, follow_links=False)
            if text is None:
                continue
            log = loads(text)
        except (CribbageError, ValueError, RecursionError, OSError):
            continue  # (not a game the ratings can use)
        if log.result is not None:
            yield Filed(str(path.relative_to(root)), digest_of(text), log, text)


def catch_up(club: Club, root: Path) -> int:
    """As the server starts: every filed game the store has not seen looked at; if one is
    a finished game it has not rated, everything is worked out again from the logs
    (a game filed but not rated when the server was killed). Returns the games rated
    anew (0 if none was missing)."""
    unseen = [p for p in filed_logs(root) if not club.file_known(str(p.relative_to(root)))]
    missing = False
    for filed in read_logs(root, unseen):
        if club.known(filed.digest):
            club.note_file(filed.path, filed.digest)
        else:
            missing = True
    if not missing:
        return 0
    return club.rebuild(read_logs(root, filed_logs(root)))
