"""Tournaments between computer levels and engines, round-robin or as the American Cribbage
Congress runs them.

Round-robin: every pair plays a match of ``games`` games (in duplicate, each deal twice,
the seats swapped). ACC: that round-robin is the qualifying round; the players are ranked
by game points (2 a win, 3 a skunk), then games won, then spread (points won by less
points lost by); one in four of them, a fraction rounded up (ACC rule 13.2.b), go on to a
knockout of best-of-3 (or 5, 7) matches, seeded by qualifying place on the ACC's approved
bracket (1 against the lowest, 2 against the next lowest, laid out so that 1 and 2 can
meet only in the final), with first-round byes for the highest qualifiers so that the
second round is full (rule 13.2.d).

Every game is played from a seed of its own, derived from the tournament's, its match's
and its number; so a tournament's result is the same wherever and in whatever order its
games are played (:mod:`cribcli.services.runner`), and one stopped part way carries on from its
logs without playing again any game it finished. Each player gets a rating from all the
games (:func:`ratings_of`: a Bradley-Terry fit, as BayesElo and Ordo make).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from cribcli.players import Objective
from cribcli.protocol.referee import MOVE_TIME, EngineCommand, stop_all
from cribcli.record.log import LOG_LIMIT, Seat
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.store import read_text, set_aside
from cribcli.rules.errors import CribbageError
from cribcli.rules.targets import FULL_GAME, MATCH_LENGTHS, MOVE_TIMES, TARGETS, TOURNAMENT_GAMES
from cribcli.services.match import (
    Z95,
    GameSummary,
    Played,
    Setup,
    VoidGame,
    carrying,
    check_player,
    level_of,
    log_name,
    summary_of,
    unit_over,
)
from cribcli.services.runner import Task, Where, run, write_logs

FORMATS = ("round-robin", "acc")
FEWEST, MOST = 2, 64
"""How many players a tournament may have."""
SETUP_FILE = "tournament.toml"
"""The file in a tournament's log folder that says what the tournament is."""
SETUP_LIMIT = 64 << 10


@dataclass(frozen=True, slots=True)
class TournamentSetup:
    """What a tournament is: who plays, in what format, how many games, from what seed."""

    players: tuple[str, ...]
    format: str = "round-robin"
    games: int = 2
    """Games each pair plays (in the round-robin, or the ACC's qualifying round)."""
    seed: int | str = 1
    target: int = FULL_GAME
    duplicate: bool = False
    best_of: int = 3
    """The knockout's matches (ACC)."""
    move_time: float = MOVE_TIME
    sandbox: bool = False
    hidden: tuple[str, ...] = ()
    described: str | None = None
    """The digest of its description as its folder keeps it (:attr:`digest` is that of
    :meth:`as_toml` when there is none): each game's log carries it."""

    def __post_init__(self) -> None:
        if not FEWEST <= len(self.players) <= MOST:
            raise CribbageError(f"a tournament has {FEWEST} to {MOST} players")
        for spec in self.players:
            check_player(spec)
        if self.format not in FORMATS:
            raise CribbageError(f"a tournament's format is {' or '.join(FORMATS)}")
        if not 1 <= self.games <= TOURNAMENT_GAMES or (self.duplicate and self.games % 2):
            raise CribbageError(
                f"each pair plays 1 to {TOURNAMENT_GAMES} games (in duplicate, an even number)"
            )
        if self.best_of not in MATCH_LENGTHS[1:]:
            raise CribbageError("a knockout match is the best of 3, 5 or 7 games")

    @property
    def names(self) -> tuple[str, ...]:
        """Each player's name in the tables: its level or engine, numbered when it plays
        more than once."""
        names = []
        for n, spec in enumerate(self.players):
            command = EngineCommand.parse(spec)
            name = spec if command is None else " ".join(command.argv)[-24:]
            if self.players.count(spec) > 1:
                name += f" #{self.players[:n].count(spec) + 1}"
            names.append(name)
        return tuple(names)

    @property
    def digest(self) -> str:
        """What each game's log says of the tournament it was played for: ``sha256:`` and
        the SHA-256 of its description (its folder's ``tournament.toml``)."""
        return self.described or description_digest(self.as_toml())

    def pair(self, first: int, second: int) -> Setup:
        """The round-robin match between players ``first`` and ``second``."""
        return Setup(
            (self.players[first], self.players[second]),
            f"{self.seed}/{first + 1} v {second + 1}",
            self.target,
            self.duplicate,
            self.move_time,
            self.sandbox,
            self.hidden,
            name=f"round-robin-{first + 1:02}-{second + 1:02}-",
            tournament=self.digest,
        )

    def knockout(self, round_number: int, slot: int, players: tuple[int, int]) -> Setup:
        """Match ``slot`` of the knockout's round ``round_number`` (from 1)."""
        return Setup(
            (self.players[players[0]], self.players[players[1]]),
            f"{self.seed}/knockout {round_number} {slot + 1}",
            self.target,
            False,
            self.move_time,
            self.sandbox,
            self.hidden,
            best_of=self.best_of,
            name=f"knockout-{round_number}-{slot + 1:02}-",
            tournament=self.digest,
        )

    def as_toml(self) -> str:
        """The setup as its log folder keeps it."""
        kept = {
            "players": list(self.players),
            "format": self.format,
            "games": self.games,
            "seed": self.seed,
            "target": self.target,
            "duplicate": self.duplicate,
            "best_of": self.best_of,
            "move_time": self.move_time,
            "sandbox": self.sandbox,
        }
        return "# A cribbage tournament: `cribbage tournament --resume` carries it on.\n" + (
            tomli_w.dumps(kept)
        )

    @classmethod
    def from_toml(cls, text: str, hidden: tuple[str, ...] = ()) -> TournamentSetup:
        """A setup as its log folder keeps it. Raises CribbageError if it is not one."""
        try:
            kept: dict[str, Any] = tomllib.loads(text)
            players = kept["players"]
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise TypeError
            seed = kept["seed"]
            if type(seed) not in (int, str) or len(str(seed)) > 100:
                raise TypeError
            for key, kind in (
                ("format", str),
                ("games", int),
                ("target", int),
                ("duplicate", bool),
                ("best_of", int),
                ("move_time", float),
                ("sandbox", bool),
            ):
                if type(kept[key]) is not kind:
                    raise TypeError
            least, most = MOVE_TIMES
            if kept["target"] not in TARGETS or not least <= kept["move_time"] <= most:
                raise TypeError
            return cls(
                tuple(players),
                kept["format"],
                kept["games"],
                seed,
                kept["target"],
                kept["duplicate"],
                kept["best_of"],
                kept["move_time"],
                kept["sandbox"],
                hidden,
            )
        except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, RecursionError):
            raise CribbageError(f"{SETUP_FILE} does not say what tournament it is") from None


def description_digest(text: str) -> str:
    """The digest of a tournament's description: ``sha256:`` and its text's SHA-256."""
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


# --- the games ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchUp:
    """A match of the tournament: its name, its players (by number), and its units."""

    name: str
    players: tuple[int, int]
    setup: Setup
    units: int


@dataclass
class Results:
    """What a tournament's games gave, match by match (by the match's name): each unit's
    games, as far as they went."""

    units: dict[str, dict[int, Played]] = field(default_factory=dict)

    def played(self, match: MatchUp, unit: int) -> Played:
        return self.units.get(match.name, {}).get(unit, ())

    def keep(self, match: MatchUp, unit: int, played: Played) -> None:
        self.units.setdefault(match.name, {})[unit] = played

    def games(self, match: MatchUp) -> list[GameSummary]:
        """A match's games with a result, in order."""
        kept = self.units.get(match.name, {})
        return [
            game for unit in sorted(kept) for game in kept[unit] if isinstance(game, GameSummary)
        ]


def round_robin(setup: TournamentSetup) -> list[MatchUp]:
    """Every pair's match, in order."""
    count = len(setup.players)
    return [
        MatchUp(f"{a + 1} v {b + 1}", (a, b), setup.pair(a, b), setup.games)
        for a in range(count)
        for b in range(a + 1, count)
    ]


# --- standings ------------------------------------------------------------------------


@dataclass
class Standing:
    """A player's record over some games."""

    player: int
    games: int = 0
    wins: int = 0
    game_points: int = 0
    spread: int = 0
    skunks: int = 0
    place: int = 0
    decided_by: str = ""
    """What put the player ahead of the next: ``game points``, ``games won``,
    ``spread``, ``order`` (all equal: the order the players were given), or ``""`` for
    the last."""


TIE_BREAKS = ("game points", "games won", "spread")


def players_of(match: MatchUp, game: GameSummary) -> tuple[int, int]:
    """The winner's and the loser's player numbers in a game of ``match``."""
    winner = match.players[game.player(game.winner)]
    loser = match.players[1 - game.player(game.winner)]
    return winner, loser


def standings(count: int, matches: Iterable[MatchUp], results: Results) -> list[Standing]:
    """The players ranked by game points, then games won, then spread (then the order
    they were given), each with what decided its place over the next."""
    table = [Standing(player) for player in range(count)]
    for match in matches:
        for game in results.games(match):
            winner, loser = players_of(match, game)
            # (the winner's score less the loser's: less than 0 for one who won by a
            # forfeit while behind)
            margin = game.scores[game.winner] - game.scores[1 - game.winner]
            for player, won in ((winner, True), (loser, False)):
                mine = table[player]
                mine.games += 1
                mine.wins += won
                mine.spread += margin if won else -margin
            table[winner].game_points += max(game.game_points())
            table[winner].skunks += bool(game.skunk)

    def key(standing: Standing) -> tuple[int, int, int, int]:
        return (-standing.game_points, -standing.wins, -standing.spread, standing.player)

    ranked = sorted(table, key=key)
    for place, (ahead, behind) in enumerate(zip(ranked, [*ranked[1:], None], strict=True)):
        ahead.place = place + 1
        if behind is not None:
            ahead.decided_by = next(
                (
                    name
                    for name, mine, theirs in zip(TIE_BREAKS, key(ahead), key(behind), strict=False)
                    if mine != theirs
                ),
                "order",
            )
    return ranked


def crosstable(count: int, matches: Iterable[MatchUp], results: Results) -> list[list[str]]:
    """``table[a][b]``: player ``a``'s games won and lost against ``b``, as ``W-L``."""
    won = [[0] * count for _ in range(count)]
    for match in matches:
        for game in results.games(match):
            winner, loser = players_of(match, game)
            won[winner][loser] += 1
    return [
        ["" if a == b else f"{won[a][b]}-{won[b][a]}" for b in range(count)] for a in range(count)
    ]


# --- the ACC's knockout ---------------------------------------------------------------


def qualifiers(entrants: int) -> int:
    """How many go on to the knockout: one in four, a fraction rounded up (ACC rule
    13.2.b), and two at least (a final)."""
    return max(2, -(-entrants // 4))


def bracket_size(qualified: int) -> int:
    """The next full bracket: a power of two (ACC rule 13.2.d); two qualifiers play the
    final at once, with no byes before it."""
    size = 2
    while size < qualified:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """The seeds (from 1) in the order the ACC's approved bracket lays them out, two by
    two the first round's pairings: for 16, 1-16, 8-9, 5-12, 4-13, 3-14, 6-11, 7-10,
    2-15. Each bracket is the half-size one with each seed ``s`` paired with the seed
    that adds up to one more than the size, the pairs' order alternating, so that the
    winners meet as the smaller bracket's seeds would."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [
            seed
            for place, mine in enumerate(order)
            for seed in ((mine, total - mine) if place % 2 == 0 else (total - mine, mine))
        ]
    return order


@dataclass(frozen=True, slots=True)
class Pairing:
    """A place in a knockout round: two seeds (a qualifier's place, from 1), or one with
    a bye (``low`` None)."""

    high: int
    low: int | None


def first_round(qualified: int) -> list[Pairing]:
    """The knockout's first round, in bracket order: seeds past the qualifiers are byes,
    so the highest qualifiers go through to a full second round."""
    order = bracket_order(bracket_size(qualified))
    pairs = []
    for high, low in zip(order[::2], order[1::2], strict=True):
        high, low = min(high, low), max(high, low)
        pairs.append(Pairing(high, low if low <= qualified else None))
    return pairs


@dataclass
class KnockoutMatch:
    """One match of the knockout: its round, its place in it, its seeds, and (once
    played) the winning seed and the games each side won."""

    round: int
    slot: int
    seeds: tuple[int, int | None]
    winner: int | None = None
    score: tuple[int, int] = (0, 0)


# --- playing it ---------------------------------------------------------------------


@dataclass
class Tournament:
    """A tournament played (or as far as it went)."""

    setup: TournamentSetup
    results: Results = field(default_factory=Results)
    matches: list[MatchUp] = field(default_factory=list)
    """The round-robin's (the qualifying round's) matches."""
    knockout: list[KnockoutMatch] = field(default_factory=list)
    knockout_matches: list[MatchUp] = field(default_factory=list)
    seeds: list[int] = field(default_factory=list)
    """The qualifiers, by qualifying place (player numbers)."""
    voids: int = 0
    logged: Path | None = None
    """The folder of a tournament carried on: each unit finished there is read back
    from its logs, not played again."""

    @property
    def champion(self) -> int | None:
        """The winner: the knockout's, or the round-robin's first place."""
        if self.setup.format == "acc":
            final = [m for m in self.knockout if m.round == max(m.round for m in self.knockout)]
            if final and final[0].winner is not None and len(final) == 1:
                return self.seeds[final[0].winner - 1]
            return None
        return self.standings()[0].player if self.matches else None

    def standings(self) -> list[Standing]:
        """The round-robin's (the qualifying round's) standings."""
        return standings(len(self.setup.players), self.matches, self.results)

    def all_matches(self) -> list[MatchUp]:
        return self.matches + self.knockout_matches


Logs = tuple[tuple[str, str], ...]
"""Games' logs: each one's file name and text."""
Play = Callable[[list[tuple[MatchUp, int, Played]]], Iterable[tuple[int, Played, Logs]]]
"""What plays a stage's units: given each unit (its match, number, and games already
played), yields each one's number in the list, its games and its logs as they finish."""


def run_tournament(
    setup: TournamentSetup,
    play: Play,
    *,
    log_dir: Path | None = None,
    on_unit: Callable[[int, int, str], None] | None = None,
    tournament: Tournament | None = None,
) -> Tournament:
    """Play a tournament (into ``tournament`` if given: one stopped part way keeps there
    what it finished): the round-robin, then with ACC the knockout, round by round.
    Units already in ``tournament.results`` (read from the logs) are not played again.
    ``on_unit`` hears how many units of the stage are done, of how many, and what the
    stage is (``qualifying games``, ``knockout round 1 matches``, ``the final``). Raises
    StoreError if a log cannot be written."""
    tournament = tournament or Tournament(setup)
    tournament.matches = round_robin(setup)
    first = "qualifying games" if setup.format == "acc" else "games"
    _play_stage(tournament, tournament.matches, play, log_dir, on_unit, first)
    if setup.format != "acc":
        return tournament
    ranked = tournament.standings()
    tournament.seeds = [s.player for s in ranked[: qualifiers(len(setup.players))]]
    pairings = first_round(len(tournament.seeds))
    round_number = 1
    seeds_in: list[tuple[int, int | None]] = [(p.high, p.low) for p in pairings]
    while True:
        this_round = [
            KnockoutMatch(round_number, slot, seeds) for slot, seeds in enumerate(seeds_in)
        ]
        playing = []
        for match in this_round:
            high, low = match.seeds
            if low is None:
                match.winner = high  # a bye
                continue
            players = (tournament.seeds[high - 1], tournament.seeds[low - 1])
            playing.append(
                (match, MatchUp(f"knockout {round_number} {match.slot + 1}", players,
                                setup.knockout(round_number, match.slot, players), 1))
            )  # fmt: skip
        tournament.knockout += this_round
        tournament.knockout_matches += [m for _, m in playing]
        stage = "the final" if len(this_round) == 1 else f"knockout round {round_number} matches"
        _play_stage(tournament, [m for _, m in playing], play, log_dir, on_unit, stage)
        for match, up in playing:
            games = tournament.results.games(up)
            wins = [sum(up.players[g.player(g.winner)] == p for g in games) for p in up.players]
            match.score = (wins[0], wins[1])
            high, low = match.seeds
            assert low is not None
            void = any(isinstance(g, VoidGame) for g in tournament.results.played(up, 0))
            if void:  # a game with no result: the higher seed goes through
                match.winner = high
            else:
                match.winner = high if wins[0] > wins[1] else low
        if len(this_round) == 1:
            return tournament
        winners = [m.winner for m in this_round if m.winner is not None]
        seeds_in = [
            (min(a, b), max(a, b)) for a, b in zip(winners[::2], winners[1::2], strict=True)
        ]
        round_number += 1


def _play_stage(
    tournament: Tournament,
    matches: Sequence[MatchUp],
    play: Play,
    log_dir: Path | None,
    on_unit: Callable[[int, int, str], None] | None,
    stage: str,
) -> None:
    """Every unit of ``matches`` not finished, played; each one's logs written as it
    comes back."""
    results = tournament.results
    if tournament.logged is not None:
        for match in matches:
            for unit in range(match.units):
                if not results.played(match, unit):
                    tournament.voids += _read_unit(tournament.logged, results, match, unit)
    todo = [
        (match, unit, results.played(match, unit))
        for match in matches
        for unit in range(match.units)
        if not unit_over(match.setup, results.played(match, unit))
    ]
    total = sum(match.units for match in matches)
    done = total - len(todo)
    if on_unit:
        on_unit(done, total, stage)
    if not todo:
        return
    for number, played, logs in play(todo):
        match, unit, _ = todo[number]
        if log_dir is not None:
            write_logs(log_dir, logs)
        results.keep(match, unit, played)
        tournament.voids += sum(isinstance(game, VoidGame) for game in played)
        done += 1
        if on_unit:
            on_unit(done, total, stage)


def local_play(jobs: int = 1, scheduler: str | None = None) -> Play:
    """What plays a stage's units, on this machine's cores or a cluster
    (:mod:`cribcli.services.runner`)."""

    def play(units: list[tuple[MatchUp, int, Played]]) -> Iterable[tuple[int, Played, Logs]]:
        tasks = [Task(match.setup, unit, done) for match, unit, done in units]
        try:
            for number, outcome in run(tasks, Where(jobs, scheduler)):
                yield number, outcome.played, outcome.logs
        finally:
            stop_all()

    return play


# --- a tournament's folder carried on (:mod:`cribcli.services.tournament_folder`) ---------


def _read_unit(folder: Path, results: Results, match: MatchUp, unit: int) -> int:
    """A unit's games read back from their logs, in order, as far as they go. A log that
    cannot be read, or is not this game's (its seed, its seats), is set aside, never
    written over: the game is played again. Returns how many had no result."""
    setup = match.setup
    swapped = setup.duplicate and unit % 2 == 1
    played: list[GameSummary | VoidGame] = []
    for number in range(setup.best_of):
        path = folder / log_name(setup, unit, number)
        deal = unit // 2 if setup.duplicate else unit
        seed = setup.game_seed(deal) if setup.best_of == 1 else setup.game_seed(unit, number)
        try:
            text = read_text(path, LOG_LIMIT, follow_links=False)
            if text is None:
                break
            log = loads(text)
            specs = setup.players[::-1] if swapped else setup.players
            if str(log.info.seed) != seed or not seats_are(log.info.seats, specs):
                raise CribbageError("not this game's log")
            game = replay(log)
        except (CribbageError, ValueError, RecursionError):
            with contextlib.suppress(OSError):  # (kept, not played over)
                set_aside(path, "not-this-game")
            break
        carries = carrying(setup, game.state.past) if game.state else ()
        played.append(summary_of(log.info, game.events, unit, swapped, number, carries))
        if unit_over(setup, played):
            break
    if played:
        results.keep(match, unit, tuple(played))
    return sum(isinstance(game, VoidGame) for game in played)


# --- ratings --------------------------------------------------------------------------

ELO = 400 / math.log(10)
"""Rating points for one unit of the logistic model's strength."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: Elo points against the field's average (0), and the half
    width of its 95% interval."""

    player: int
    elo: float
    within: float


def ratings_of(count: int, wins: Sequence[tuple[int, int]]) -> list[Rating]:
    """Each player's rating from the games (each a winner and a loser): a Bradley-Terry
    model fitted by Newton's method, each player also given a win and a loss against an
    opponent of the average strength (a prior, as BayesElo's, so that a player who won
    or lost every game has a finite rating). The intervals come from the curvature of the
    fit's log-likelihood (its inverse is the ratings' covariance), for the ratings taken
    against the field's average."""
    theta = [0.0] * count
    games = [[0] * count for _ in range(count)]
    won = [0.0] * count
    for winner, loser in wins:
        games[winner][loser] += 1
        games[loser][winner] += 1
        won[winner] += 1
    hessian: list[list[float]] = []
    for _ in range(100):
        gradient = [won[i] + 1.0 for i in range(count)]  # (the prior's win)
        hessian = [[0.0] * count for _ in range(count)]
        for i in range(count):
            prior = _logistic(theta[i])
            gradient[i] -= 2 * prior  # (its win and its loss, against 0)
            hessian[i][i] -= 2 * prior * (1 - prior)
            for j in range(count):
                if games[i][j]:
                    p = _logistic(theta[i] - theta[j])
                    gradient[i] -= games[i][j] * p
                    hessian[i][i] -= games[i][j] * p * (1 - p)
                    hessian[i][j] += games[i][j] * p * (1 - p)
        step = _solve(hessian, gradient)
        theta = [t - s for t, s in zip(theta, step, strict=True)]
        if max(map(abs, step)) < 1e-10:
            break
    covariance = _inverse([[-x for x in row] for row in hessian])
    mean = sum(theta) / count
    ratings = []
    for i in range(count):
        # the variance of theta_i less the average of all
        variance = (
            covariance[i][i] - 2 * sum(covariance[i]) / count + sum(map(sum, covariance)) / count**2
        )
        ratings.append(
            Rating(i, ELO * (theta[i] - mean), Z95 * ELO * math.sqrt(max(variance, 0.0)))
        )
    return ratings


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x > -700 else 0.0


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix @ x == vector`` (Gauss-Jordan, partial pivoting)."""
    size = len(vector)
    rows = [list(row) + [value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(size):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[-1] for row in rows]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    size = len(matrix)
    columns = [_solve(matrix, [float(i == j) for i in range(size)]) for j in range(size)]
    return [[columns[j][i] for j in range(size)] for i in range(size)]


def game_results(tournament: Tournament) -> list[tuple[int, int]]:
    """Every game with a result, as its winner and loser."""
    return [
        players_of(match, game)
        for match in tournament.all_matches()
        for game in tournament.results.games(match)
    ]


def ratings(tournament: Tournament) -> list[Rating]:
    return ratings_of(len(tournament.setup.players), game_results(tournament))


# --- the report -------------------------------------------------------------------------


def as_json(tournament: Tournament) -> dict[str, object]:
    """The tournament for scripts: its setup, crosstable, standings, bracket, ratings and
    champion."""
    setup = tournament.setup
    names = setup.names
    rated = {r.player: r for r in ratings(tournament)}
    count = len(setup.players)
    champion = tournament.champion
    return {
        "players": list(setup.players),
        "names": list(names),
        "format": setup.format,
        "games": setup.games,
        "duplicate": setup.duplicate,
        "best_of": setup.best_of,
        "seed": setup.seed,
        "target": setup.target,
        "crosstable": crosstable(count, tournament.matches, tournament.results),
        "standings": [
            {
                "place": s.place,
                "player": s.player + 1,
                "name": names[s.player],
                "games": s.games,
                "wins": s.wins,
                "game_points": s.game_points,
                "spread": s.spread,
                "skunks": s.skunks,
                "decided_by": s.decided_by,
            }
            for s in tournament.standings()
        ],
        "knockout": [
            {
                "round": m.round,
                "match": m.slot + 1,
                "seeds": list(m.seeds),
                "players": [
                    tournament.seeds[seed - 1] + 1 if seed is not None else None for seed in m.seeds
                ],
                "winner": None if m.winner is None else tournament.seeds[m.winner - 1] + 1,
                "score": list(m.score),
            }
            for m in tournament.knockout
        ],
        "ratings": [
            {"player": p + 1, "name": names[p], "elo": rated[p].elo, "within": rated[p].within}
            for p in sorted(rated, key=lambda p: -rated[p].elo)
        ],
        "champion": None if champion is None else champion + 1,
        "voids": tournament.voids,
    }


def seats_are(seats: Sequence[Seat], specs: Sequence[str]) -> bool:
    """Whether a log's seats are the players ``specs`` (levels with their objectives, or
    engines by their commands), seat by seat."""
    return len(seats) == len(specs) and all(
        seat_is(seat, spec) for seat, spec in zip(seats, specs, strict=True)
    )


def seat_is(seat: Seat, spec: str) -> bool:
    """Whether a log's seat is the player ``spec`` (a level and its objective, or an
    engine by its command)."""
    command = EngineCommand.parse(spec)
    if command is not None:
        return seat.player == "engine" and seat.command == command.command
    level, objective = level_of(spec)
    return (
        seat.player == "computer"
        and seat.level == level
        and (seat.objective or Objective.WIN) == objective
    )
