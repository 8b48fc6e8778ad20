"""The club's ratings: each person's skill, from the finished games filed for them.

**The model.** openskill's Plackett-Luce (Weng and Lin's Bayesian approximation, their
Algorithm 4). It rates a game as a ranking of any number of sides, each side a team: two
players (winner, loser), three (all three placed), and four, where partners are one team
and move together. Of openskill's models it is the one made for full rankings of several
teams (the Bradley-Terry and Thurstone-Mosteller ones rate a ranking as pairs of sides),
and between two sides its chance of winning is the logistic curve of their difference in
skill, as Elo's is, so its ratings read on Elo's familiar scale (below).

Each person has a skill ``mu`` and an uncertainty ``sigma``; a newcomer has ``mu`` =
:data:`MU` (25, the normal computer's) and ``sigma`` = :data:`SIGMA` (25/3, openskill's).
The constants sized for cribbage: ``beta``, how much one game's result varies about the
skills, is :data:`BETA` = 25/3, twice openskill's default, because a game of cribbage is
mostly the cards: the hard computer beats the normal one in only 59 games of 100, and a
person's rating should move by a few dozen points a game, not a hundred. Games to 61 and
to 121 count alike.
``tau`` (:data:`TAU`, openskill's 25/300) is added to a person's ``sigma`` before each game,
so that it never settles to nothing and a person who improves is followed.

**The computer levels are anchors.** Each of the ten has a fixed ``mu``, measured once
by matches between them, each level against the one below it and normal against easy
(``tools/anchors.py`` writes ``cribcli/players/data/anchors.json``; normal is the
centre, at :data:`MU`), and a small
fixed ``sigma`` (:data:`ANCHOR_SIGMA`). A game rates the people at the table against the
computers' anchors, which never move, so a person's first games against the computer
already place them on the same scale as everyone else.

**The display rating** (``rating``) is the conservative estimate ``mu - 3 sigma``
(openskill's ordinal: the skill is 99.7% likely to be higher), on Elo's scale:

    rating = 1500 + SCALE * ((mu - 3 sigma) - (MU - 3 ANCHOR_SIGMA))

with ``SCALE = 400 / (ln 10 * c)``, ``c = sqrt(2 beta^2 + 2 ANCHOR_SIGMA^2)``, about 14.7
points for one of ``mu``. So the normal computer reads 1500; two players as surely rated
as the computers who are 400 points apart win 10 to 1, as in Elo; a newcomer reads about
1180 (their uncertainty counts against them) and rises towards their level as their games
place them, a few dozen points a game at first. It stays conservative: ``tau`` keeps a
person's ``sigma`` from settling much below 2.7, so one as strong as the hard computer
(1562) reads about 1480 after 300 games. The ``uncertainty`` shown beside the rating is
``SCALE * sigma``, in the same points.

**Which games count.** A finished game (its log has a result) with at least one person
in it, none of its seats an engine (a program of unknown strength, with no anchor: such
games are not rated), and no person in two seats. Each person is known by their name
whatever its case (``Ann`` is ``ann``, as the served room's folders are). A person's seat
the computer took over while they were away is still theirs: the result counts for them.
Computers are never rated, so a game between computers only changes nothing. The sides
are placed: the winner first; at three players the other two by their scores (equal
scores share a place), a side that forfeited last.

**The logs are the truth.** :func:`rebuild` works every rating out again from the filed
logs alone, in the order the games started; the same game filed for each person who
played it counts once. Pure: no clock, and no file but the shipped table of anchors
(read as the hard computer's tables are).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

from openskill.models import PlackettLuce, PlackettLuceRating

from cribcli.players import measured
from cribcli.players.base import Level
from cribcli.record.log import GameLog, Result
from cribcli.rules.engine import Rules

MU = 25.0
"""A newcomer's skill, and the normal computer's (the centre of the scale)."""
SIGMA = MU / 3
"""A newcomer's uncertainty (openskill's default)."""
BETA = MU / 3
"""How much one game's result varies about the players' skills: twice openskill's
default, for a game that is mostly the cards."""
TAU = MU / 300
"""Added to a person's sigma before each game (openskill's default), so it never settles
to nothing."""
ANCHOR_SIGMA = 1.0
"""The computers' uncertainty, fixed: their play never changes and was measured over
hundreds of games."""
Z = 3.0
"""How many sigmas the display rating takes off the skill (openskill's ordinal)."""
CENTRE = 1500
"""The display rating of the normal computer."""
SETTLED_SPREAD = math.sqrt(2 * BETA**2 + 2 * ANCHOR_SIGMA**2)
"""Plackett-Luce's ``c`` between two players rated as surely as the computers: their
chance of winning is ``1 / (1 + exp(-(mu_a - mu_b) / c))``."""
SCALE = 400 / (math.log(10) * SETTLED_SPREAD)
"""Display points for one of ``mu``: 400 points are odds of 10 to 1, as in Elo."""
ANCHORS = "anchors.json"
"""The computer levels' measured table, in ``cribcli/players/data/``."""

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def rating_of(mu: float, sigma: float) -> int:
    """The display rating of a skill and its uncertainty (see the module's text)."""
    return round(CENTRE + SCALE * ((mu - Z * sigma) - (MU - Z * ANCHOR_SIGMA)))


def uncertainty_of(sigma: float) -> int:
    """An uncertainty in display points."""
    return round(SCALE * sigma)


def person(name: str) -> str:
    """Whom a name means: one person whatever its case (the key of a ratings mapping)."""
    return name.lower()


# --- the computer levels --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Anchor:
    """A computer level's fixed rating."""

    level: Level
    mu: float
    sigma: float = ANCHOR_SIGMA

    @property
    def rating(self) -> int:
        return rating_of(self.mu, self.sigma)


@cache
def anchors() -> Mapping[Level, Anchor]:
    """The computer levels' anchors, as shipped (read once)."""
    levels = measured.read(ANCHORS)["levels"]
    return {Level(name): Anchor(Level(name), float(entry["mu"])) for name, entry in levels.items()}


def fit_levels(
    matches: Mapping[tuple[Level, Level], tuple[int, int]], centre: Level = Level.NORMAL
) -> dict[Level, float]:
    """Each level's ``mu``, fitted to matches between them: for each pair of levels, the
    games played and the first level's wins.

    The maximum of the likelihood of the results under the chance of winning that the
    model's own updates use (the logistic curve over :data:`SETTLED_SPREAD`: a person who
    wins a share ``p`` against a level settles where the model gives ``p``), with
    ``centre`` at :data:`MU`. Each pair's record counts half a game more won by each side,
    so that a clean sweep (no random player ever beats the normal computer) gives a gap
    that is large but finite. Worked by the minorise-maximise steps for Bradley-Terry
    strengths (Hunter, 2004), to convergence.
    """
    won: dict[Level, float] = {}
    played: dict[Level, dict[Level, float]] = {}
    for (first, second), (games, wins) in matches.items():
        won[first] = won.get(first, 0.0) + wins + 0.5
        won[second] = won.get(second, 0.0) + games - wins + 0.5
        for one, other in ((first, second), (second, first)):
            against = played.setdefault(one, {})
            against[other] = against.get(other, 0.0) + games + 1
    strength = dict.fromkeys(won, 1.0)
    for _ in range(100_000):
        moved = {
            level: won[level]
            / sum(n / (strength[level] + strength[other]) for other, n in played[level].items())
            for level in strength
        }
        moved = {level: value / moved[centre] for level, value in moved.items()}
        change = max(abs(math.log(moved[level] / strength[level])) for level in strength)
        strength = moved
        if change < 1e-13:
            break
    return {level: MU + SETTLED_SPREAD * math.log(value) for level, value in strength.items()}


def chance(stronger: float, weaker: float) -> float:
    """The model's chance that a player of skill ``stronger`` beats one of ``weaker``,
    both rated as surely as the computers."""
    return 1 / (1 + math.exp(-(stronger - weaker) / SETTLED_SPREAD))


# --- a person's rating ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """A person's rating after one rated game, and how they did in it."""

    started: str | None
    place: int
    """1 for the winner; at three players 2 or 3 (equal scores share a place)."""
    sides: int
    """How many sides were placed (2, or 3 at three players)."""
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        return rating_of(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class Standing:
    """A person's rating: skill, uncertainty, the games rated, when they last played one,
    and their rating after each (oldest first)."""

    name: str
    """As their latest rated game wrote it."""
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    last_seen: str | None = None
    """When their latest rated game started (its log's ``started``)."""
    history: tuple[Step, ...] = ()

    @property
    def rating(self) -> int:
        return rating_of(self.mu, self.sigma)

    @property
    def uncertainty(self) -> int:
        return uncertainty_of(self.sigma)


Ratings = Mapping[str, Standing]
"""The people's standings, each under :func:`person` of their name."""


def places(result: Result, rules: Rules) -> tuple[int, ...]:
    """Each side's place in a finished game: the winner 1st; the others by their scores,
    a side that forfeited last; equal places shared (1, 2, 2)."""
    forfeited = None if result.forfeit is None else rules.side_of(result.forfeit)

    def order(side: int) -> tuple[bool, bool, int]:
        return side != result.winner, side == forfeited, -result.scores[side]

    keys = [order(side) for side in range(rules.sides)]
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def rated(log: GameLog) -> bool:
    """Whether a game counts for the ratings (see the module's text)."""
    seats = log.info.seats
    people = [person(seat.name) for seat in seats if seat.player == "human"]
    anchored = all(seat.level in anchors() for seat in seats if seat.player == "computer")
    return (
        log.result is not None
        and bool(people)
        and len(set(people)) == len(people)
        and all(seat.player != "engine" for seat in seats)
        and anchored
    )


def rate_game(log: GameLog, ratings: Ratings) -> dict[str, Standing]:
    """The new standings of the people who played a finished game, given everyone's
    before it (a person not in ``ratings`` is a newcomer); the computers' anchors do not
    move. Empty for a game that is not rated (:func:`rated`)."""
    if not rated(log):
        return {}
    result, rules, seats = log.result, log.info.rules, log.info.seats
    assert result is not None
    teams: list[list[PlackettLuceRating]] = [[] for _ in range(rules.sides)]
    where: dict[int, tuple[int, int]] = {}
    for number, seat in enumerate(seats):
        side = rules.side_of(number)
        where[number] = side, len(teams[side])
        if seat.player == "human":
            before = ratings.get(person(seat.name), Standing(seat.name))
            teams[side].append(MODEL.rating(before.mu, before.sigma))
        else:
            assert seat.level is not None
            anchor = anchors()[seat.level]
            teams[side].append(MODEL.rating(anchor.mu, anchor.sigma))
    placed = places(result, rules)
    after = MODEL.rate(teams, ranks=[float(place) for place in placed])
    changed: dict[str, Standing] = {}
    for number, seat in enumerate(seats):
        if seat.player != "human":
            continue
        side, member = where[number]
        new = after[side][member]
        key = person(seat.name)
        before = ratings.get(key, Standing(seat.name))
        step = Step(log.info.started, placed[side], rules.sides, new.mu, new.sigma)
        changed[key] = Standing(
            name=seat.name,
            mu=new.mu,
            sigma=new.sigma,
            games=before.games + 1,
            last_seen=log.info.started or before.last_seen,
            history=before.history + (step,),
        )
    return changed


def _moment(started: str | None) -> datetime:
    """When a game started, for ordering: its time (one without a zone taken as UTC), or
    before everything if its log does not say."""
    try:
        moment = datetime.fromisoformat(started or "")
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def game_order(log: GameLog) -> tuple[datetime, str, str]:
    """Games in the order they started; at the same moment, by a digest of the whole log,
    so that any order the logs come in gives one order."""
    digest = hashlib.sha256(repr(log).encode()).hexdigest()
    return _moment(log.info.started), log.info.started or "", digest


def rebuild(logs: Iterable[GameLog]) -> dict[str, Standing]:
    """Everyone's ratings worked out from scratch from finished games' logs, rated in the
    order the games started (whatever order the logs come in). A game given twice (filed
    for each person who played it) counts once; games not rated are passed over."""
    ratings: dict[str, Standing] = {}
    for log in sorted(set(logs), key=game_order):
        ratings.update(rate_game(log, ratings))
    return ratings


# --- the ladder -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rung:
    """A person's row on the ladder."""

    place: int
    """1 at the top; equal ratings share a place."""
    name: str
    rating: int
    uncertainty: int
    games: int
    last_seen: str | None


def ladder(ratings: Ratings) -> list[Rung]:
    """The ladder for ``top``: the people by rating, highest first (equal ratings by the
    games rated, most first, then by name)."""
    standings = sorted(
        ratings.values(), key=lambda s: (-s.rating, -s.games, person(s.name), s.name)
    )
    ratings_in_order = [standing.rating for standing in standings]
    return [
        Rung(
            place=1 + ratings_in_order.index(standing.rating),
            name=standing.name,
            rating=standing.rating,
            uncertainty=standing.uncertainty,
            games=standing.games,
            last_seen=standing.last_seen,
        )
        for standing in standings
    ]
