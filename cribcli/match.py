"""Matches between computer levels and engines: many games, and what they show of each.

A match seats two players, each a level's name or an engine (``engine:CMD``, a program
speaking the engine protocol). Each game is played from its own seed, derived from the
match's; the two take turns to deal first. In duplicate, each seed is played twice with
the seats swapped, so each player holds the other's cards. A game's summary is small and
plain (it crosses between processes); the report adds them up: wins with a 95%
confidence interval, skunks, forfeits, and the average points a deal by source (pegging,
hand, crib) for each player as dealer and as pone.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from cribcli.engine import Rules
from cribcli.errors import CribbageError
from cribcli.events import Event, GameOver
from cribcli.players import Level, computer
from cribcli.players.base import NoResult
from cribcli.protocol.referee import (
    MOVE_TIME,
    Engine,
    EngineCommand,
    EnginePlayer,
    kept_engine,
    seat_of,
    stop_all,
)
from cribcli.record import GameInfo, Seat, dumps
from cribcli.session import run_game
from cribcli.store import StoreError, reason, write_atomic
from cribcli.tally import ROLES, Deal, PointSums, Role, deals
from cribcli.targets import FULL_GAME
from cribcli.workers import orphaned, spread


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game of a match, by seat."""

    index: int
    seed: str
    first_dealer: int
    winner: int
    scores: tuple[int, ...]
    skunk: str
    deals: tuple[Deal, ...]
    """Each finished deal: its dealer, and each seat's points by source."""
    names: tuple[str, ...] = ()
    """Each seat's name (an engine's, as it gave it)."""
    swapped: bool = False
    """The match's second player sat in seat 0 (the twin game, in duplicate)."""
    forfeit: int | None = None
    reason: str | None = None

    def player(self, seat: int) -> int:
        """Which of the match's two players sat in ``seat``."""
        return seat ^ self.swapped


@dataclass(frozen=True, slots=True)
class VoidGame:
    """A game of a match with no result: a program at the table was killed from outside.
    Its log stops where it did."""

    index: int
    reason: str
    swapped: bool = False


@dataclass(frozen=True, slots=True)
class Setup:
    """How a match's games are played: who plays, to what, and how long engines have."""

    players: tuple[str, str]
    """Each a level's name or ``engine:CMD``."""
    seed: int | str
    target: int = FULL_GAME
    duplicate: bool = False
    move_time: float = MOVE_TIME
    sandbox: bool = False
    """Whether each engine runs in a sandbox of its own (bubblewrap)."""
    hidden: tuple[str, ...] = ()
    """Folders an engine in a sandbox does not see (the match's logs: a log of a game
    played would show the deal of its duplicate twin)."""

    def __post_init__(self) -> None:
        for spec in self.players:
            check_player(spec)

    @classmethod
    def of(
        cls,
        players: tuple[str, str],
        seed: int | str | None,
        target: int = FULL_GAME,
        duplicate: bool = False,
        move_time: float = MOVE_TIME,
        sandbox: bool = False,
        hidden: tuple[str, ...] = (),
    ) -> Setup:
        """A match as asked for; with no seed, 1 between levels, and a random one when a
        program plays (it could work out every deck from a seed it can guess)."""
        if seed is None:
            seed = secrets.token_hex(8) if cls.engines_in(players) else 1
        return cls(players, seed, target, duplicate, move_time, sandbox, hidden)

    @staticmethod
    def engines_in(players: tuple[str, ...]) -> bool:
        """Whether a program plays."""
        return any(EngineCommand.parse(spec) is not None for spec in players)

    def game_seed(self, index: int) -> str:
        """The seed of the match's game (deal sequence) ``index``: ``SEED/match N``; or,
        when a program plays, a digest of it, so that a game's seed, seen in its log,
        gives away no other game's cards."""
        seed = game_seed(self.seed, index)
        if self.engines_in(self.players):
            return hashlib.sha256(seed.encode()).hexdigest()[:24]
        return seed


def check_player(spec: str) -> str:
    """A match's player as given: a level's name, or ``engine:CMD``. Raises
    CribbageError for anything else."""
    if EngineCommand.parse(spec) is None and spec not in set(Level):
        raise CribbageError(f"`{spec}` is not a level ({', '.join(Level)}) nor engine:CMD")
    return spec


def game_seed(seed: int | str, index: int) -> str:
    """The seed of game ``index`` of a match between levels."""
    return f"{seed}/match {index}"


def match_game(
    setup: Setup, index: int, save: Callable[[GameInfo, list[Event]], None] | None = None
) -> GameSummary | VoidGame:
    """Play game ``index`` of a match: the first player in seat 0 and the second in seat
    1, or (the second game of each pair, in duplicate) the other way round on the same
    seed."""
    deal = index // 2 if setup.duplicate else index
    swapped = setup.duplicate and index % 2 == 1
    first_dealer = deal % 2
    specs = setup.players[::-1] if swapped else setup.players
    rules = Rules(target=setup.target, first_dealer=first_dealer)
    seed = setup.game_seed(deal)
    seats: list[Seat] = []
    engines: dict[int, Engine] = {}
    for seat, spec in enumerate(specs):
        command = EngineCommand.parse(spec)
        if command is None:
            seats.append(Seat(spec.capitalize() + f" {seat}", "computer", Level(spec)))
        else:
            engines[seat] = kept_engine(command, seat, setup.move_time, setup.sandbox, setup.hidden)
            seats.append(seat_of(engines[seat]))
    for seat, engine in engines.items():  # another program outside a sandbox at the table?
        engine.rival_outside = not setup.sandbox and any(other != seat for other in engines)
    info = GameInfo(rules, tuple(seats), seed, label=f"match game {index}")
    players = [
        EnginePlayer(engines[seat], info, seat) if seat in engines else computer(spec, seed, seat)
        for seat, spec in enumerate(specs)
    ]
    played: list[Event] = []
    try:
        _, events = run_game(info, players, on_event=played.append)
    except NoResult as void:
        if save:
            save(info, played)
        return VoidGame(index, void.reason, swapped)
    if save:
        save(info, events)
    over = events[-1]
    assert isinstance(over, GameOver)
    return GameSummary(
        index=index,
        seed=seed,
        first_dealer=first_dealer,
        winner=over.winner,
        scores=over.scores,
        skunk=next((s for s in over.skunks if s), ""),
        deals=tuple(deals(events)),
        names=tuple(seat.name for seat in seats),
        swapped=swapped,
        forfeit=over.forfeit,
        reason=over.reason,
    )


def run_match(
    setup: Setup,
    games: int,
    *,
    jobs: int = 1,
    log_dir: Path | None = None,
    on_game: Callable[[int], None] | None = None,
    report: Report | None = None,
) -> Report:
    """Play a match of ``games`` games and add them up (into ``report`` if given: a match
    stopped midway leaves there the games it finished); ``on_game`` hears how many have
    ended, as each one ends.

    With ``jobs`` over 1 the games are spread over worker processes, which stop with the
    match: on Ctrl-C, a signal, or the match process dying, none is left running (nor any
    engine). Raises StoreError if a log cannot be written to ``log_dir``, and
    CribbageError, before any game, if an engine's program cannot be found.
    """
    for spec in setup.players:
        engine = EngineCommand.parse(spec)
        if engine is not None:
            engine.check_found()
    if log_dir is not None:
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot use the folder {log_dir} ({reason(error)})") from None
    report = report or Report.of(setup)
    task = partial(_logged_game, setup, log_dir)
    try:
        with spread(task, range(games), jobs, chunksize=4) as results:
            # in order, so that the sums add up alike however spread
            for done, result in enumerate(results, start=1):
                report.add(result)
                if on_game:
                    on_game(done)
    finally:
        stop_all()
    return report


def _logged_game(setup: Setup, log_dir: Path | None, index: int) -> GameSummary | VoidGame:
    orphaned()
    save = None
    if log_dir is not None:
        path = log_dir / f"game-{index:05}.toml"

        def save(info: GameInfo, events: list[Event]) -> None:
            try:
                write_atomic(path, dumps(info, events))
            except OSError as error:
                raise StoreError(f"cannot write {path} ({reason(error)})") from None

    return match_game(setup, index, save)


@dataclass
class Report:
    """The sums of a match, the first player's against the second's."""

    players: tuple[str, str]
    duplicate: bool = False
    seed: int | str = 1
    names: tuple[str, str] = ("", "")
    """Each player's name, from its first game (an engine's, as it gave it)."""
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    skunks: list[int] = field(default_factory=lambda: [0, 0])
    double_skunks: list[int] = field(default_factory=lambda: [0, 0])
    forfeits: list[int] = field(default_factory=lambda: [0, 0])
    reasons: list[list[str]] = field(default_factory=lambda: [[], []])
    """The first few reasons each player forfeited for, told apart."""
    first_dealer_wins: int = 0
    points: tuple[PointSums, PointSums] = field(default_factory=lambda: (PointSums(), PointSums()))
    """Each player's points, as dealer and as pone."""
    pairs: list[int] = field(default_factory=list)
    """In duplicate: the first player's wins in each pair of twin games (0, 1 or 2)."""
    voids: int = 0
    """Games with no result (a program killed from outside); not in ``games``."""
    void_reasons: list[str] = field(default_factory=list)
    _pair_void: bool = False
    """In duplicate: the first game of the pair being played had no result."""

    @classmethod
    def of(cls, setup: Setup) -> Report:
        """An empty report for a match of this setup."""
        return cls(setup.players, duplicate=setup.duplicate, seed=setup.seed)

    def add(self, game: GameSummary | VoidGame) -> None:
        """Count one game in; a game with no result only as such (in duplicate its twin
        counts as a game, but the pair, broken, is not one of ``pairs``)."""
        if isinstance(game, VoidGame):
            self.voids += 1
            if game.reason not in self.void_reasons and len(self.void_reasons) < REASONS_KEPT:
                self.void_reasons.append(game.reason)
            if self.duplicate and game.swapped and not self._pair_void and self.pairs:
                self.pairs.pop()  # the first of the pair had a result, its twin none
            self._pair_void = self.duplicate and not game.swapped
            return
        whole_pair = not (self.duplicate and game.swapped and self._pair_void)
        self._pair_void = False
        if not self.games and game.names:
            self.names = (game.names[game.player(0)], game.names[game.player(1)])
        self.games += 1
        winner = game.player(game.winner)
        self.wins[winner] += 1
        if game.skunk:
            self.skunks[winner] += 1
            if game.skunk == "double skunk":
                self.double_skunks[winner] += 1
        if game.winner == game.first_dealer:
            self.first_dealer_wins += 1
        if game.forfeit is not None:
            loser = game.player(game.forfeit)
            self.forfeits[loser] += 1
            told = self.reasons[loser]
            if game.reason and game.reason not in told and len(told) < REASONS_KEPT:
                told.append(game.reason)
        for deal in game.deals:
            for seat, points in enumerate(deal.points):
                role: Role = "dealer" if seat == deal.dealer else "pone"
                self.points[game.player(seat)].add(role, points)
        if self.duplicate and whole_pair:
            if game.swapped and self.pairs:
                self.pairs[-1] += winner == 0
            else:
                self.pairs.append(int(winner == 0))

    def win_rate(self, player: int = 0) -> tuple[float, float, float]:
        """The player's share of wins and its 95% confidence interval: Wilson's; in
        duplicate, Student's t over the pairs' shares (the twin games are not independent:
        their luck of the cards cancels), or while there are fewer than
        :data:`FEWEST_PAIRS` pairs or they do not vary, Wilson's counting a pair as one
        game."""
        share, low, high = wilson(self.wins[player], self.games)
        if not self.duplicate or not self.pairs:
            return share, low, high
        scores = [won / 2 if player == 0 else 1 - won / 2 for won in self.pairs]
        pairs = len(scores)
        mean = sum(scores) / pairs
        spread = math.sqrt(sum((x - mean) ** 2 for x in scores) / max(pairs - 1, 1))
        if pairs < FEWEST_PAIRS or spread == 0:
            _, low, high = wilson(mean * pairs, pairs)
            return share, low, high
        half = t_quantile(pairs - 1) * spread / math.sqrt(pairs)
        return share, max(mean - half, 0.0), min(mean + half, 1.0)

    def per_deal(self, player: int, role: Role) -> dict[str, float]:
        """Average points a deal by source, and in all, for a player as dealer or pone."""
        return self.points[player].per_deal(role)

    def label(self, player: int) -> str:
        """How a player is named in the report: its level, or the engine's name."""
        spec = self.players[player]
        if EngineCommand.parse(spec) is None:
            return spec
        return self.names[player] or "engine"

    def as_json(self) -> dict[str, object]:
        """The report for scripts."""
        rate, low, high = self.win_rate()
        return {
            "levels": list(self.players),
            "names": list(self.names),
            "seed": self.seed,
            "games": self.games,
            "duplicate": self.duplicate,
            "wins": self.wins,
            "win_rate": rate,
            "win_rate_95": [low, high],
            "skunks": self.skunks,
            "double_skunks": self.double_skunks,
            "forfeits": self.forfeits,
            "forfeit_reasons": self.reasons,
            "voids": self.voids,
            "void_reasons": self.void_reasons,
            "first_dealer_win_rate": self.first_dealer_wins / self.games if self.games else 0.0,
            "per_deal": {
                f"{self.label(player)} {player} as {role}": self.per_deal(player, role)
                for player in (0, 1)
                for role in ROLES
            },
        }


FEWEST_PAIRS = 30
"""Below this many pairs of twin games, a duplicate match's interval is Wilson's over the
pairs: a spread measured on a few pairs is too unsure to lean on."""


def t_quantile(freedom: int) -> float:
    """Student's t for a two-sided 95% interval with ``freedom`` degrees of freedom (a
    series in 1/freedom: within 0.2% from 30 on, which is where it is used)."""
    z, n = Z95, float(freedom)
    return (
        z
        + (z**3 + z) / (4 * n)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * n**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * n**3)
    )


REASONS_KEPT = 3
"""How many different reasons for forfeits a report keeps for each player."""
Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float, float]:
    """The share and its Wilson score interval (95% by default)."""
    if trials == 0:
        return 0.0, 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    spread = (
        z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    )
    return share, centre - spread, centre + spread
