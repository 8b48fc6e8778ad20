"""A tournament's folder: begun with its description (``tournament.toml``), and carried on
(``tournament --resume``) only if it is the tournament it says it is.

A resume folder is not trusted whole. Before any game is played, its description is read
and every log in it under a name the tournament gives checked against it: the log must
carry the description's digest (it was played for this very ``tournament.toml``), and its
seed, its target and its seats must be the ones the description gives that game. If any
differs, nothing is played and nothing changes: the resume stops, listing what differs. A
log that cannot be read or replayed is set aside (kept, renamed) and its game played
again; none is ever written over. Engines the description names are run only when the
command line names the same players, or trusts the folder's engines.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from cribcli.protocol.referee import EngineCommand
from cribcli.record.log import LOG_LIMIT, GameLog
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.store import StoreError, read_text, reason, set_aside, write_atomic
from cribcli.rules.errors import CribbageError, UsageProblem, printable
from cribcli.services.match import Setup, hidden_seed, log_name
from cribcli.services.tournament import (
    SETUP_FILE,
    SETUP_LIMIT,
    Tournament,
    TournamentSetup,
    description_digest,
    round_robin,
    seat_is,
)

SHOWN = 12
"""The most differences a refused resume lists (and how many more there are)."""
KNOCKOUT_ROUNDS = 7
"""More knockout rounds than 64 players can need."""


class NotThisTournament(CribbageError):
    """A resume folder whose logs are not the ones its description was played for: the
    resume stops before any game, nothing changed. ``differences`` says what differs,
    each in a line."""

    def __init__(self, folder: Path, differences: Sequence[str]) -> None:
        many = len(differences)
        super().__init__(
            f"{folder}: {many} thing{'s' if many != 1 else ''} in it "
            f"{'differs' if many == 1 else 'differ'} from the tournament its "
            f"{SETUP_FILE} describes: nothing was played, and nothing changed"
        )
        self.differences = list(differences[:SHOWN])
        if many > SHOWN:
            self.differences.append(f"... and {many - SHOWN} more")


def start_folder(setup: TournamentSetup, folder: Path) -> TournamentSetup:
    """A new tournament's log folder: made, its description written. Returns the setup
    that names it (its games' logs carry its digest). Raises StoreError if it cannot be,
    or if it holds a tournament already (``--resume`` carries that on)."""
    text = setup.as_toml()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if (folder / SETUP_FILE).exists():
            raise StoreError(
                f"{folder} holds a tournament already: `--resume {folder}` carries it on"
            )
        write_atomic(folder / SETUP_FILE, text)
    except OSError as error:
        raise StoreError(f"cannot use the folder {folder} ({reason(error)})") from None
    return replace(setup, described=description_digest(text))


def resumed(
    folder: Path,
    named: tuple[str, ...] = (),
    *,
    trust_engines: bool = False,
    hidden: tuple[str, ...] = (),
) -> Tournament:
    """A tournament carried on from its log folder: its description, and every game it
    logged (read back as its stage is reached, never played again). ``named``: the players
    the command line gave (none: the folder's), which must be the folder's; engines the
    folder names run only if ``named`` names them too, or with ``trust_engines``. Damaged
    logs are set aside. Raises CribbageError if the folder holds no tournament, names
    players other than ``named``, or names engines not trusted; NotThisTournament if its
    logs are not its description's."""
    text = read_text(folder / SETUP_FILE, SETUP_LIMIT, follow_links=False)
    if text is None:
        raise CribbageError(f"{folder} holds no tournament ({SETUP_FILE} is not there)")
    setup = TournamentSetup.from_toml(text, hidden)
    setup = replace(setup, described=description_digest(text))
    _check_players(setup, named, trust_engines)
    damaged = _check_logs(folder, setup)
    for path in damaged:  # (only once the whole folder is known to be this tournament's)
        with contextlib.suppress(OSError):
            set_aside(path, "damaged")
    return Tournament(setup, logged=folder)


def _check_players(setup: TournamentSetup, named: tuple[str, ...], trust: bool) -> None:
    if named and named != setup.players:
        raise UsageProblem(
            f"the players given are not the tournament's: it is {_listed(setup.players)}"
        )
    engines = [spec for spec in setup.players if EngineCommand.parse(spec) is not None]
    if engines and not named and not trust:
        raise CribbageError(
            f"the tournament's players include programs, which a resume runs: "
            f"{_listed(engines)}. Name all its players after --resume DIR to run them, or "
            "give --trust-engines"
        )


def _listed(specs: Sequence[str]) -> str:
    return ", ".join(f"`{printable(spec[:200])}`" for spec in specs)


def _check_logs(folder: Path, setup: TournamentSetup) -> list[Path]:
    """Every log of the folder under a name the tournament gives, against what the
    description says of its game. Returns the logs that cannot be read (to be set aside).
    Raises NotThisTournament listing what differs."""
    differences: list[str] = []
    damaged: list[Path] = []
    for name, expect in _expected(setup).items():
        path = folder / name
        try:
            text = read_text(path, LOG_LIMIT, follow_links=False)
            if text is None:
                continue
            log = loads(text)
            replay(log)
        except (CribbageError, ValueError, RecursionError):
            damaged.append(path)
            continue
        differences += _differences(name, log, setup, expect)
    if differences:
        raise NotThisTournament(folder, differences)
    return damaged


Expected = tuple[tuple[str, ...], tuple[str, ...] | None]
"""A game's seed (either of these), and its players seat by seat (None: any two of the
tournament's, as in the knockout, whose pairs come of the results)."""


def _expected(setup: TournamentSetup) -> dict[str, Expected]:
    """Each log the tournament could write, by name: what its game is."""
    found: dict[str, Expected] = {}
    for match in round_robin(setup):
        for unit in range(match.units):
            _add(found, match.setup, unit, None)
    if setup.format == "acc":
        for round_number in range(1, KNOCKOUT_ROUNDS + 1):
            for slot in range(1 << (KNOCKOUT_ROUNDS - round_number)):
                knockout = setup.knockout(round_number, slot, (0, 1))
                _add(found, knockout, 0, knockout.best_of)
    return found


def _add(found: dict[str, Expected], match: Setup, unit: int, games: int | None) -> None:
    if games is None:  # a round-robin's game: its seats known
        deal = unit // 2 if match.duplicate else unit
        swapped = match.duplicate and unit % 2 == 1
        specs = match.players[::-1] if swapped else match.players
        found[log_name(match, unit, 0)] = ((match.game_seed(deal),), specs)
        return
    between_levels = replace(match, players=("easy", "easy"))
    for number in range(games):  # (a program in the pair hides the seed: either form)
        seed = between_levels.game_seed(unit, number)
        found[log_name(match, unit, number)] = ((seed, hidden_seed(seed)), None)


def _differences(name: str, log: GameLog, setup: TournamentSetup, expect: Expected) -> list[str]:
    info = log.info
    seeds, specs = expect
    found = []
    if info.tournament is not None and info.tournament != setup.digest:
        found.append(f"{name}: played for another {SETUP_FILE} (its digest is not this one's)")
    if str(info.seed) not in seeds:
        found.append(
            f"{name}: dealt from the seed `{printable(str(info.seed)[:40])}`, the tournament "
            f"deals it from `{printable(seeds[0][:40])}`"
        )
    if info.rules.target != setup.target or info.rules.players != 2:
        found.append(f"{name}: a game of its rules is not one of this tournament's")
    for seat, spec in enumerate(info.seats):
        wanted = [specs[seat]] if specs is not None and seat < len(specs) else setup.players
        if not any(seat_is(spec, player) for player in wanted):
            who = spec.command if spec.player == "engine" else spec.level or spec.player
            found.append(
                f"{name}: seat {seat} is `{printable(str(who)[:60])}`, the tournament has "
                f"{_listed(wanted)} there"
            )
    return found
