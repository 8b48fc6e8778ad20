"""The games of ``cribbage serve`` on disk, beside the room (:mod:`cribcli.lobby`): each
table's game saved after every move, carried on when the server starts again, and filed
at its end for each person who played it, in their own folder (their ``stats`` count it,
``replay`` and ``review`` find it). A game's life on disk is :mod:`cribcli.games`'s, for
served tables as for ``play``; this module keeps the server's folders and tables.

No sockets or terminals here: the server's connections are :mod:`cribcli.ui.serve`'s.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import count
from pathlib import Path

from cribcli.errors import CribbageError
from cribcli.games import (
    Saver,
    computers,
    file_finished,
    filed_today,
    resume_or_set_aside,
    started_now,
)
from cribcli.lobby import (
    AWAY_LIMIT,
    MATCH_LENGTHS,
    GameOutcome,
    Lobby,
    ServedTable,
    TableSetup,
    player_name,
)
from cribcli.players import Level
from cribcli.record import LOG_LIMIT, GameInfo, loads, match_text
from cribcli.session import Session
from cribcli.store import (
    Places,
    Warn,
    load_settings,
    read_text,
    reason,
    save_settings,
    write_atomic,
)
from cribcli.targets import target_of

META_LIMIT = 4096
"""The most bytes a table's settings file may hold."""
PLAYERS = "players"
"""The server folder's folder of people's own folders."""
ADJOURNED_LIMIT = 1000
"""The most adjourned games the server looks through for a person's list."""


class ServedGames:
    """The server's folder: each table's save (``tables/``), and each person's own folder
    (``players/NAME/``: their finished games, their stats, their key under ``--open``)."""

    def __init__(self, root: Path, lobby: Lobby, warn_table: Callable[[int], Warn]) -> None:
        self.root = root
        self.lobby = lobby
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
        """The name as its person first wrote it (kept in their folder's settings), or as
        given if it is new."""
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

    def key_file(self, name: str) -> Path:
        """Where, with --open, the key a name belongs to is kept."""
        return self.folder(name) / "key"

    def names(self) -> int:
        """How many names have a folder."""
        with contextlib.suppress(OSError):
            return sum(
                1
                for entry in self.players_folder.iterdir()
                if entry.is_dir() and not entry.name.startswith(".")
            )
        return 0

    def forget(
        self, older_than: float, now: float, keep: frozenset[str] = frozenset()
    ) -> list[str]:
        """Forget the names that never finished a game here and were last seen before
        ``older_than`` seconds ago (by ``now``, a wall-clock time), but those in ``keep``
        (here, or seated): their folders go, if they hold only a few plain files (anything
        else, and the name is kept). Returns the names forgotten."""
        forgotten = []
        with contextlib.suppress(OSError):
            for entry in list(self.players_folder.iterdir()):
                try:
                    if entry.name in keep or entry.is_symlink() or not entry.is_dir():
                        continue
                    key = entry / "key"  # touched at each login: when last seen
                    seen = (key if key.exists() else entry).stat().st_mtime
                    if now - seen < older_than or self._played(entry):
                        continue
                    inside = list(entry.iterdir())
                    if len(inside) > 8 or not all(
                        f.is_file() and not f.is_symlink() for f in inside
                    ):
                        continue
                    gone = entry.with_name(f".forgotten-{entry.name}")  # out of reach first
                    entry.rename(gone)
                    for file in inside:
                        (gone / file.name).unlink()
                    gone.rmdir()
                    forgotten.append(entry.name)
                except OSError:
                    continue  # kept for another time
        return forgotten

    @staticmethod
    def _played(folder: Path) -> bool:
        """Whether a person's folder holds a finished game."""
        games = Places(folder, folder, folder).games
        with contextlib.suppress(OSError):
            return games.is_dir() and any(games.iterdir())
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
        Raises OSError if they cannot be put away (the table plays on)."""
        folder = self.adjourned_folder
        folder.mkdir(parents=True, exist_ok=True)
        key = f"{filed_today(f'table-{table.number}')}-{secrets.token_hex(4)}"
        self._keep_setup(table)
        saver = self.savers[table.number]
        write_atomic(folder / f"{key}.toml", saver.text)  # (the latest, whatever the saves did)
        with contextlib.suppress(OSError):
            os.replace(self._meta(table.number), folder / f"{key}.json")
        with contextlib.suppress(OSError):
            (self.tables_folder / f"table-{table.number}.toml").unlink()
        assert table.session is not None
        table.session.save_to(None)  # a move still on its way is saved nowhere
        self.lobby.close(table.number)
        self.savers.pop(table.number, None)
        return key

    def adjourned(self, name: str) -> list[tuple[str, GameInfo, tuple[int, ...]]]:
        """The adjourned games ``name`` sits in, oldest first: each one's key, what the
        game is, and its scores (those that cannot be read are left out)."""
        found = []
        with contextlib.suppress(OSError):
            for path in sorted(self.adjourned_folder.glob("*.toml"))[:ADJOURNED_LIMIT]:
                with contextlib.suppress(CribbageError, ValueError, RecursionError):
                    text = read_text(path, LOG_LIMIT, follow_links=False)
                    log = loads(text or "")
                    people = {s.name.lower() for s in log.info.seats if s.player == "human"}
                    if name.lower() in people:
                        scored = [r.scores for r in log.rounds if r.scores is not None]
                        scores = scored[-1] if scored else (0,) * log.info.rules.sides
                        found.append((path.stem, log.info, scores))
        return found

    def resume(self, key: str, now: float) -> ServedTable:
        """An adjourned game back at a table of its own (every person away until they
        join it), saved as the tables are. Raises CribbageError if it cannot be."""
        folder = self.adjourned_folder
        lobby = self.lobby
        number = next(n for n in count(1) if n not in lobby.tables and n not in lobby.reserved)
        self.tables_folder.mkdir(parents=True, exist_ok=True)
        path = self.tables_folder / f"table-{number}.toml"
        try:
            os.replace(folder / f"{key}.toml", path)
        except OSError as error:
            why = reason(error)
            raise CribbageError(f"the adjourned game cannot be carried on ({why})") from None
        with contextlib.suppress(OSError):
            os.replace(folder / f"{key}.json", self._meta(number))
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
            if isinstance(level, str) and level in set(Level):
                setup = replace(setup, level=Level(level))
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
