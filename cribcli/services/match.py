"""Matches between computer levels and engines: many games, and what they show of each.

A match seats two players, each a level's name or an engine (``engine:CMD``, a program
speaking the engine protocol). Each game is played from its own seed, derived from the
match's; the two take turns to deal first. With ``best_of`` over 1 the games come in
matches of that many (the first to win most of them), as the American Cribbage Congress
plays them: the first game's first deal cut for, the loser of each game dealing first in
the next (ACC rule 1.5). In duplicate, each seed (or each match's seeds) is played twice
with the seats swapped, so each player holds the other's cards. A game's summary is small
and plain (it crosses between processes); the report adds them up: wins, game points (2 a
win, 3 a skunk), skunks, double skunks and spread, each with a 95% confidence interval,
forfeits, and the average points a deal by source (pegging, hand, crib) for each player
as dealer and as pone.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from cribcli.players import LEVELS_HELP, Level, Objective, Player, computer
from cribcli.players.base import NoResult
from cribcli.protocol.referee import (
    MOVE_TIME,
    Engine,
    EngineCommand,
    EnginePlayer,
    kept_engine,
    seat_of,
)
from cribcli.record.log import GameInfo, Seat, carried
from cribcli.record.session import run_game
from cribcli.rules.engine import Rules, ShownDeal, first_dealer
from cribcli.rules.errors import CribbageError
from cribcli.rules.events import Event, GameOver, game_points
from cribcli.rules.tally import ROLES, Deal, PointSums, Role, deals
from cribcli.rules.targets import FULL_GAME, MATCH_LENGTHS


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
    game: int = 0
    """Its number in its best-of match (0 for the first, or when games are not in
    matches)."""
    carries: tuple[ShownDeal, ...] = ()
    """In a best-of match, the deals shown that its next game carries
    (:attr:`cribcli.record.log.GameInfo.earlier`): the computer reads the other player from
    the match's games, not only the game's."""

    def player(self, seat: int) -> int:
        """Which of the match's two players sat in ``seat``."""
        return seat ^ self.swapped

    def game_points(self) -> tuple[int, int]:
        """Each seat's game points (2 a win, 3 a skunk)."""
        first, second = game_points(self.winner, (self.skunk, self.skunk))
        return first, second

    def spread(self) -> int:
        """Seat 0's points less seat 1's, as the game ended."""
        return self.scores[0] - self.scores[1]


@dataclass(frozen=True, slots=True)
class VoidGame:
    """A game of a match with no result: a program at the table was killed from outside.
    Its log stops where it did."""

    index: int
    reason: str
    swapped: bool = False
    game: int = 0


Played = tuple[GameSummary | VoidGame, ...]
"""What one unit of a match played: a game, or a best-of match's games (a void game ends
its match)."""


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
    best_of: int = 1
    """Games come in matches of this many (1: each game on its own)."""
    name: str = ""
    """In a tournament, the match's name: what its logs' names begin with."""
    tournament: str | None = None
    """In a tournament, the digest of its description, written in each game's log."""

    def __post_init__(self) -> None:
        for spec in self.players:
            check_player(spec)
        if self.best_of not in MATCH_LENGTHS:
            raise CribbageError(
                f"a match is the best of {', '.join(map(str, MATCH_LENGTHS))} games"
            )

    @property
    def wins_needed(self) -> int:
        """Games a player must win to win a best-of match."""
        return self.best_of // 2 + 1

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
        best_of: int = 1,
    ) -> Setup:
        """A match as asked for; with no seed, 1 between levels, and a random one when a
        program plays (it could work out every deck from a seed it can guess)."""
        if seed is None:
            seed = secrets.token_hex(8) if cls.engines_in(players) else 1
        return cls(players, seed, target, duplicate, move_time, sandbox, hidden, best_of)

    @staticmethod
    def engines_in(players: tuple[str, ...]) -> bool:
        """Whether a program plays."""
        return any(EngineCommand.parse(spec) is not None for spec in players)

    def game_seed(self, index: int, game: int | None = None) -> str:
        """The seed of the match's game (deal sequence) ``index``: ``SEED/match N``, or
        of game ``game`` of best-of match ``index``: ``SEED/match N/game G``; or, when a
        program plays, a digest of it, so that a game's seed, seen in its log, gives away
        no other game's cards."""
        seed = game_seed(self.seed, index)
        if game is not None:
            seed += f"/game {game}"
        return hidden_seed(seed) if self.engines_in(self.players) else seed


def hidden_seed(seed: str) -> str:
    """A game's seed when a program plays it: a digest of the seed of a game between
    levels, so that the one seen in its log gives away no other game's cards."""
    return hashlib.sha256(seed.encode()).hexdigest()[:24]


def check_player(spec: str) -> str:
    """A match's player as given: a level's name (``LEVEL:OBJECTIVE`` for one that
    plays for game points or spread), or ``engine:CMD``. Raises CribbageError for
    anything else. A level is given back by its name when it has one (``10`` is
    ``hard``)."""
    if EngineCommand.parse(spec) is not None:
        return spec
    level, objective = level_of(spec)
    return f"{level}:{objective}" if ":" in spec else str(level)


def level_of(spec: str) -> tuple[Level, Objective]:
    """A computer player's level and objective, from ``LEVEL`` or ``LEVEL:OBJECTIVE``
    (``hard:game-points``). Raises CribbageError if it is neither."""
    name, _, objective = spec.partition(":")
    level = Level.parse(name)
    if level is None or (objective and objective not in set(Objective)):
        raise CribbageError(
            f"`{spec[:40]}` is not a level ({LEVELS_HELP}), LEVEL:OBJECTIVE "
            f"({', '.join(Objective)}), nor engine:CMD"
        )
    return level, Objective(objective or Objective.WIN)


def with_objective(spec: str, objective: Objective) -> str:
    """A player as given, playing for ``objective`` if it is a level that says none."""
    if EngineCommand.parse(spec) is not None or ":" in spec or objective is Objective.WIN:
        return spec
    return f"{spec}:{objective}"


def game_seed(seed: int | str, index: int) -> str:
    """The seed of game ``index`` of a match between levels."""
    return f"{seed}/match {index}"


def match_game(
    setup: Setup, index: int, save: Callable[[GameInfo, list[Event]], None] | None = None
) -> GameSummary | VoidGame:
    """Play game ``index`` of a match of single games: the first player in seat 0 and the
    second in seat 1, or (the second game of each pair, in duplicate) the other way round
    on the same seed; the first deal taking turns."""
    deal = index // 2 if setup.duplicate else index
    swapped = setup.duplicate and index % 2 == 1
    rules = Rules(target=setup.target, first_dealer=deal % 2)
    return _game(setup, index, setup.game_seed(deal), rules, swapped, 0, save)


def play_unit(
    setup: Setup,
    index: int,
    save: Callable[[int, GameInfo, list[Event]], None] | None = None,
    done: Played = (),
) -> Played:
    """Play unit ``index`` of a match: a game, or with ``best_of`` a whole match, game
    after game until a player has won most of them (``save`` hears each game's number
    in the match with its log). ``done``: its first games, played already (a match
    carried on), not played again."""
    if setup.best_of == 1:
        return done or (match_game(setup, index, partial(save, 0) if save else None),)
    swapped = setup.duplicate and index % 2 == 1
    played: list[GameSummary | VoidGame] = list(done)
    while not unit_over(setup, played):
        number = len(played)
        saved = partial(save, number) if save else None
        seed = setup.game_seed(index // 2 if setup.duplicate else index, number)
        rules = next_rules(setup, played)
        last = played[-1] if played else None
        earlier = last.carries if isinstance(last, GameSummary) else ()
        played.append(_game(setup, index, seed, rules, swapped, number, saved, earlier))
    return tuple(played)


def unit_over(setup: Setup, played: Sequence[GameSummary | VoidGame]) -> bool:
    """Whether a unit's games so far end it: a game with no result, a player with most
    of a best-of match's games, or a game on its own played."""
    if any(isinstance(game, VoidGame) for game in played):
        return True
    if setup.best_of == 1:
        return bool(played)
    wins = [sum(g.winner == seat for g in played if isinstance(g, GameSummary)) for seat in (0, 1)]
    return max(wins) >= setup.wins_needed


def next_rules(setup: Setup, played: Sequence[GameSummary | VoidGame]) -> Rules:
    """The rules of a best-of match's next game: the first game's first deal cut for; then
    the loser of the last game deals first (ACC rule 1.5)."""
    if not played:
        return Rules(target=setup.target, cut_for_deal=True)
    last = played[-1]
    assert isinstance(last, GameSummary)
    return Rules(target=setup.target, first_dealer=1 - last.winner)


def _game(
    setup: Setup,
    index: int,
    seed: str,
    rules: Rules,
    swapped: bool,
    number: int,
    save: Callable[[GameInfo, list[Event]], None] | None,
    earlier: tuple[ShownDeal, ...] = (),
) -> GameSummary | VoidGame:
    """One game: the match's players in their seats (the other way round if
    ``swapped``), from ``seed``, carrying ``earlier`` (the match's games before it)."""
    specs = setup.players[::-1] if swapped else setup.players
    seats: list[Seat] = []
    engines: dict[int, Engine] = {}
    for seat, spec in enumerate(specs):
        command = EngineCommand.parse(spec)
        if command is None:
            level, objective = level_of(spec)
            kept = None if objective is Objective.WIN else objective
            name = f"{level.label.capitalize()} {seat}"
            seats.append(Seat(name, "computer", level, objective=kept))
        else:
            engines[seat] = kept_engine(command, seat, setup.move_time, setup.sandbox, setup.hidden)
            seats.append(seat_of(engines[seat]))
    for seat, engine in engines.items():  # another program outside a sandbox at the table?
        engine.rival_outside = not setup.sandbox and any(other != seat for other in engines)
    label = f"match game {index}" if setup.best_of == 1 else f"match {index} game {number + 1}"
    info = GameInfo(
        rules, tuple(seats), seed, label=label, earlier=earlier, tournament=setup.tournament
    )
    players = [
        EnginePlayer(engines[seat], info, seat) if seat in engines else _computer(spec, seed, seat)
        for seat, spec in enumerate(specs)
    ]
    played: list[Event] = []
    try:
        state, events = run_game(info, players, on_event=played.append)
    except NoResult as void:
        if save:
            save(info, played)
        return VoidGame(index, void.reason, swapped, number)
    if save:
        save(info, events)
    return summary_of(info, events, index, swapped, number, carrying(setup, state.past))


def _computer(spec: str, seed: str, seat: int) -> Player:
    """The computer a player as given (``LEVEL`` or ``LEVEL:OBJECTIVE``) stands for."""
    level, objective = level_of(spec)
    return computer(level, seed, seat, objective)


def carrying(setup: Setup, past: tuple[ShownDeal, ...]) -> tuple[ShownDeal, ...]:
    """What a game of ``setup`` that showed ``past`` hands on to the next: in a best-of
    match, :func:`cribcli.record.log.carried`; single games carry nothing (each is a game
    on its own, played in any order)."""
    return carried(past) if setup.best_of > 1 else ()


def summary_of(
    info: GameInfo,
    events: Sequence[Event],
    index: int,
    swapped: bool,
    number: int,
    carries: tuple[ShownDeal, ...] = (),
) -> GameSummary | VoidGame:
    """A game's summary from its log (a game with no result: void); ``carries``: what it
    hands on to the next (:func:`carrying`)."""
    over = events[-1] if events else None
    if not isinstance(over, GameOver):
        return VoidGame(index, "no result: the game stopped", swapped, number)
    return GameSummary(
        index=index,
        seed=str(info.seed),
        first_dealer=first_dealer(info.rules, info.seed),
        winner=over.winner,
        scores=over.scores,
        skunk=next((s for s in over.skunks if s), ""),
        deals=tuple(deals(events)),
        names=tuple(seat.name for seat in info.seats),
        swapped=swapped,
        forfeit=over.forfeit,
        reason=over.reason,
        game=number,
        carries=carries,
    )


def log_name(setup: Setup, index: int, game: int) -> str:
    """The file a unit's game is logged in."""
    if setup.best_of == 1:
        return f"{setup.name}game-{index:05}.toml"
    return f"{setup.name}match-{index:05}-game-{game + 1}.toml"


@dataclass
class Tally:
    """What one unit of a match added up, for the first player and the second: a game, a
    best-of match, or in duplicate the two twin units together. The 95% intervals are
    worked out over these (twin games are not independent: their luck of the cards
    cancels; the games of a match are not either)."""

    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    game_points: list[int] = field(default_factory=lambda: [0, 0])
    skunks: list[int] = field(default_factory=lambda: [0, 0])
    """Skunks each player gave (a double skunk counts here too)."""
    double_skunks: list[int] = field(default_factory=lambda: [0, 0])
    spread: int = 0
    """The first player's points less the second's, summed over the games' ends."""
    matches: int = 0
    match_wins: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, other: Tally) -> Tally:
        def both(mine: list[int], theirs: list[int]) -> list[int]:
            return [a + b for a, b in zip(mine, theirs, strict=True)]

        return Tally(
            games=self.games + other.games,
            wins=both(self.wins, other.wins),
            game_points=both(self.game_points, other.game_points),
            skunks=both(self.skunks, other.skunks),
            double_skunks=both(self.double_skunks, other.double_skunks),
            spread=self.spread + other.spread,
            matches=self.matches + other.matches,
            match_wins=both(self.match_wins, other.match_wins),
        )


Interval = tuple[float, float, float]
"""A measure and its 95% confidence interval: (value, low, high)."""


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
    voids: int = 0
    """Games with no result (a program killed from outside); not in ``games``."""
    void_reasons: list[str] = field(default_factory=list)
    best_of: int = 1
    tallies: list[Tally] = field(default_factory=list)
    """Each unit's (in duplicate, each whole pair of twin units'), in order."""
    _twin: Tally | None = None
    """In duplicate: the first unit of the pair being played, if it had a result."""

    @classmethod
    def of(cls, setup: Setup) -> Report:
        """An empty report for a match of this setup."""
        return cls(setup.players, duplicate=setup.duplicate, seed=setup.seed, best_of=setup.best_of)

    @property
    def pairs(self) -> list[int]:
        """In duplicate: the first player's wins in each whole pair of twin units."""
        return [tally.wins[0] for tally in self.tallies] if self.duplicate else []

    @property
    def game_points(self) -> list[int]:
        return [sum(t.game_points[p] for t in self.tallies) for p in (0, 1)]

    @property
    def spread(self) -> int:
        """The first player's points less the second's, over the games' ends."""
        return sum(tally.spread for tally in self.tallies)

    @property
    def matches(self) -> int:
        return sum(tally.matches for tally in self.tallies)

    @property
    def match_wins(self) -> list[int]:
        return [sum(t.match_wins[p] for t in self.tallies) for p in (0, 1)]

    def add(self, game: GameSummary | VoidGame) -> None:
        """Count in a unit of one game."""
        self.add_unit((game,))

    def add_unit(self, played: Played) -> None:
        """Count in one unit: a game, or a best-of match's games. A game with no result
        counts only as such, and its unit is left out of the tallies (in duplicate, with
        its twin)."""
        tally = Tally()
        void = False
        for game in played:
            if isinstance(game, VoidGame):
                void = True
                self.voids += 1
                if game.reason not in self.void_reasons and len(self.void_reasons) < REASONS_KEPT:
                    self.void_reasons.append(game.reason)
                continue
            self._count(game, tally)
        if not void and self.best_of > 1 and played:
            tally.matches = 1
            tally.match_wins[0 if tally.wins[0] > tally.wins[1] else 1] += 1
        swapped = bool(played) and played[0].swapped
        if not self.duplicate:
            if not void:
                self.tallies.append(tally)
        elif not swapped:
            self._twin = None if void else tally
        else:
            if self._twin is not None and not void:
                self.tallies.append(self._twin.add(tally))
            self._twin = None

    def _count(self, game: GameSummary, tally: Tally) -> None:
        """One game with a result, in the sums and in its unit's tally."""
        if not self.games and game.names:
            self.names = (game.names[game.player(0)], game.names[game.player(1)])
        self.games += 1
        tally.games += 1
        winner = game.player(game.winner)
        self.wins[winner] += 1
        tally.wins[winner] += 1
        tally.game_points[winner] += max(game.game_points())
        tally.spread += game.spread() * (-1 if game.swapped else 1)
        if game.skunk:
            self.skunks[winner] += 1
            tally.skunks[winner] += 1
            if game.skunk == "double skunk":
                self.double_skunks[winner] += 1
                tally.double_skunks[winner] += 1
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

    # --- the measures and their intervals ----------------------------------------------

    @property
    def _single_games(self) -> bool:
        """Whether each tally is one game on its own (no duplicate, no best-of)."""
        return not self.duplicate and self.best_of == 1

    def win_rate(self, player: int = 0) -> Interval:
        """The player's share of games won and its 95% confidence interval: Wilson's;
        in duplicate or best-of, Student's t over the tallies (see :func:`share_interval`)."""
        share, low, high = wilson(self.wins[player], self.games)
        if self._single_games or not self.tallies:
            return share, low, high
        _, low, high = share_interval([(t.wins[player], t.games) for t in self.tallies])
        return share, low, high

    def per_game(self, measure: str, player: int = 0) -> Interval:
        """A measure a game for a player, with its 95% interval: ``game points``,
        ``skunks`` and ``double skunks`` (given), ``spread`` (the player's points less
        the other's), or ``game points edge`` (its game points less the other's)."""
        sign = 1 if player == 0 else -1
        if measure == "spread":
            return mean_interval([(sign * t.spread, t.games) for t in self.tallies])
        if measure == "game points edge":  # the player's game points less the other's
            edges = [(sign * (t.game_points[0] - t.game_points[1]), t.games) for t in self.tallies]
            return mean_interval(edges)
        counted = {
            "game points": "game_points",
            "skunks": "skunks",
            "double skunks": "double_skunks",
        }
        units = [(getattr(t, counted[measure])[player], t.games) for t in self.tallies]
        if measure == "game points":
            return mean_interval(units)
        if self._single_games:
            return wilson(sum(x for x, _ in units), self.games)
        return share_interval(units)

    def match_rate(self, player: int = 0) -> Interval:
        """With best-of: the player's share of matches won, with its 95% interval."""
        if not self.duplicate:
            return wilson(self.match_wins[player], self.matches)
        return share_interval([(t.match_wins[player], t.matches) for t in self.tallies])

    def per_deal(self, player: int, role: Role) -> dict[str, float]:
        """Average points a deal by source, and in all, for a player as dealer or pone."""
        return self.points[player].per_deal(role)

    def label(self, player: int) -> str:
        """How a player is named in the report: its level, or the engine's name."""
        spec = self.players[player]
        if EngineCommand.parse(spec) is None:
            name, colon, objective = spec.partition(":")
            level = Level.parse(name)
            return (level.label if level else name) + colon + objective
        return self.names[player] or "engine"

    def as_json(self) -> dict[str, object]:
        """The report for scripts."""
        rate, low, high = self.win_rate()

        keys = ("mean", "low", "high")

        def interval(measure: str) -> list[dict[str, float | None]]:
            """Each player's, the bounds None where there is no interval (one unit)."""
            return [
                {
                    key: value if math.isfinite(value) else None
                    for key, value in zip(keys, self.per_game(measure, p), strict=True)
                }
                for p in (0, 1)
            ]

        found: dict[str, object] = {
            "levels": list(self.players),
            "names": list(self.names),
            "seed": self.seed,
            "games": self.games,
            "duplicate": self.duplicate,
            "best_of": self.best_of,
            "wins": self.wins,
            "win_rate": rate,
            "win_rate_95": [low, high],
            "game_points": self.game_points,
            "game_points_a_game": interval("game points"),
            "game_points_edge_a_game": interval("game points edge"),
            "skunks": self.skunks,
            "skunks_a_game": interval("skunks"),
            "double_skunks": self.double_skunks,
            "double_skunks_a_game": interval("double skunks"),
            "spread": self.spread,
            "spread_a_game": interval("spread"),
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
        if self.best_of > 1:
            share, low, high = self.match_rate()
            found |= {
                "matches": self.matches,
                "match_wins": self.match_wins,
                "match_win_rate": share,
                "match_win_rate_95": [low, high],
            }
        return found


FEWEST_PAIRS = 30
"""Below this many units (pairs of twin games, matches), a share's interval is Wilson's
over the units: a spread measured on a few is too unsure to lean on."""


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


T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
)  # fmt: skip
"""Student's t for a two-sided 95% interval, for 1 to 29 degrees of freedom (the
published table); from 30 on, :func:`t_quantile`'s series."""


def t95(freedom: int) -> float:
    """Student's t for a two-sided 95% interval with ``freedom`` degrees of freedom."""
    return T975[freedom - 1] if freedom < 30 else t_quantile(freedom)


def mean_interval(units: Sequence[tuple[float, int]]) -> Interval:
    """A measure a game over units of games (each its sum and its games), with its 95%
    interval: the ratio of the sums, its spread from the units' (Student's t, with the
    delta method's variance for a ratio); no interval (infinite) from fewer than two."""
    games = sum(n for _, n in units)
    if not games:
        return 0.0, -math.inf, math.inf
    mean = sum(x for x, _ in units) / games
    count = len(units)
    if count < 2:
        return mean, -math.inf, math.inf
    size = games / count
    residuals = [(x - mean * n) / size for x, n in units]
    spread = math.sqrt(sum(r * r for r in residuals) / (count - 1))
    half = t95(count - 1) * spread / math.sqrt(count)
    return mean, mean - half, mean + half


def share_interval(units: Sequence[tuple[float, int]]) -> Interval:
    """A share (of games won, of skunks) over units of games, with its 95% interval:
    :func:`mean_interval`'s, kept within 0 and 1; or, while there are fewer than
    :data:`FEWEST_PAIRS` units or they do not vary, Wilson's counting a unit as one
    trial (a spread measured on a few units is too unsure to lean on)."""
    mean, low, high = mean_interval(units)
    if len(units) < FEWEST_PAIRS or low == high:
        _, low, high = wilson(mean * len(units), len(units))
        return mean, low, high
    return mean, max(low, 0.0), min(high, 1.0)


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
