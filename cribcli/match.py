"""Matches between computer levels: many games, and what they show about each level.

Each game is played from its own seed, derived from the match's; the two levels take turns
to deal first. A game's summary is small and plain (it crosses between processes); the
report adds them up: wins with a 95% confidence interval, skunks, and the average points
a deal by source (pegging, hand, crib) for each level as dealer and as pone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from cribcli.engine import FULL_GAME, Rules
from cribcli.events import Event, GameOver
from cribcli.players import Level, computer
from cribcli.record import GameInfo, Seat, dumps
from cribcli.session import run_game
from cribcli.store import StoreError, reason, write_atomic
from cribcli.tally import ROLES, Deal, PointSums, Role, deals
from cribcli.workers import orphaned, spread


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game of a match, from seat 0's level's side."""

    index: int
    seed: str
    first_dealer: int
    winner: int
    scores: tuple[int, ...]
    skunk: str
    deals: tuple[Deal, ...]
    """Each finished deal: its dealer, and each seat's points by source."""


def game_seed(seed: int | str, index: int) -> str:
    """The seed of a match's game ``index``."""
    return f"{seed}/match {index}"


def match_game(
    levels: tuple[str, str],
    seed: int | str,
    index: int,
    target: int = FULL_GAME,
    save: Callable[[GameInfo, list[Event]], None] | None = None,
) -> GameSummary:
    """Play game ``index`` of a match: levels[0] in seat 0, levels[1] in seat 1."""
    first_dealer = index % 2
    info = GameInfo(
        Rules(target=target, first_dealer=first_dealer),
        tuple(
            Seat(level.capitalize() + f" {seat}", "computer", Level(level))
            for seat, level in enumerate(levels)
        ),
        game_seed(seed, index),
        label=f"match game {index}",
    )
    players = [computer(level, info.seed, seat) for seat, level in enumerate(levels)]
    _, events = run_game(info, players)
    if save:
        save(info, events)
    over = events[-1]
    assert isinstance(over, GameOver)
    return GameSummary(
        index=index,
        seed=str(info.seed),
        first_dealer=first_dealer,
        winner=over.winner,
        scores=over.scores,
        skunk=next((s for s in over.skunks if s), ""),
        deals=tuple(deals(events)),
    )


def run_match(
    levels: tuple[str, str],
    games: int,
    seed: int | str,
    *,
    target: int = FULL_GAME,
    jobs: int = 1,
    log_dir: Path | None = None,
    on_game: Callable[[], None] | None = None,
) -> Report:
    """Play a match of ``games`` games and add them up; ``on_game`` hears each one end.

    With ``jobs`` over 1 the games are spread over worker processes, which stop with the
    match: on Ctrl-C, a signal, or the match process dying, none is left running. Raises
    StoreError if a log cannot be written to ``log_dir``.
    """
    if log_dir is not None:
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot use the folder {log_dir} ({reason(error)})") from None
    report = Report(levels)
    task = partial(_logged_game, levels, seed, target, log_dir)
    with spread(task, range(games), jobs, chunksize=4) as results:
        for result in results:  # in order, so that the sums add up alike however spread
            report.add(result)
            if on_game:
                on_game()
    return report


def _logged_game(
    levels: tuple[str, str], seed: int | str, target: int, log_dir: Path | None, index: int
) -> GameSummary:
    orphaned()
    save = None
    if log_dir is not None:
        path = log_dir / f"game-{index:05}.toml"

        def save(info: GameInfo, events: list[Event]) -> None:
            try:
                write_atomic(path, dumps(info, events))
            except OSError as error:
                raise StoreError(f"cannot write {path} ({reason(error)})") from None

    return match_game(levels, seed, index, target, save)


@dataclass
class Report:
    """The sums of a match, seat 0's level against seat 1's."""

    levels: tuple[str, str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    skunks: list[int] = field(default_factory=lambda: [0, 0])
    double_skunks: list[int] = field(default_factory=lambda: [0, 0])
    first_dealer_wins: int = 0
    points: tuple[PointSums, PointSums] = field(default_factory=lambda: (PointSums(), PointSums()))
    """Each seat's points, as dealer and as pone."""

    def add(self, game: GameSummary) -> None:
        """Count one game in."""
        self.games += 1
        self.wins[game.winner] += 1
        if game.skunk:
            self.skunks[game.winner] += 1
            if game.skunk == "double skunk":
                self.double_skunks[game.winner] += 1
        if game.winner == game.first_dealer:
            self.first_dealer_wins += 1
        for deal in game.deals:
            for seat, points in enumerate(deal.points):
                self.points[seat].add("dealer" if seat == deal.dealer else "pone", points)

    def win_rate(self, seat: int = 0) -> tuple[float, float, float]:
        """Seat's share of wins and its 95% Wilson confidence interval."""
        return wilson(self.wins[seat], self.games)

    def per_deal(self, seat: int, role: Role) -> dict[str, float]:
        """Average points a deal by source, and in all, for a seat as dealer or pone."""
        return self.points[seat].per_deal(role)

    def as_json(self) -> dict[str, object]:
        """The report for scripts."""
        rate, low, high = self.win_rate()
        return {
            "levels": list(self.levels),
            "games": self.games,
            "wins": self.wins,
            "win_rate": rate,
            "win_rate_95": [low, high],
            "skunks": self.skunks,
            "double_skunks": self.double_skunks,
            "first_dealer_win_rate": self.first_dealer_wins / self.games if self.games else 0.0,
            "per_deal": {
                f"{self.levels[seat]} {seat} as {role}": self.per_deal(seat, role)
                for seat in (0, 1)
                for role in ROLES
            },
        }


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float, float]:
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
