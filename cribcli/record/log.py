"""The game log: a TOML file that is the whole game (seed, rules, seats and every action).

What a log holds (its records, whose fields are the log's keys, and its limits) and
writing it: the engine's events folded into a document. Reading a log is
:mod:`cribcli.record.reader`'s, replaying it through the rules
:mod:`cribcli.record.replay`'s; the three are the only code that knows the layout, which
docs/game-log.md describes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal, assert_never

import tomli_w

from cribcli.players.base import Level, Objective
from cribcli.rules.cards import format_cards
from cribcli.rules.engine import (
    Rules,
    ShownDeal,
    State,
    new_game,
)
from cribcli.rules.errors import CribbageError
from cribcli.rules.events import (
    CountRestarted,
    CribFromDeck,
    DealerCut,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Pegged,
    Played,
    RoundEnded,
    SaidGo,
    Shown,
    Skunk,
    StarterCut,
)
from cribcli.rules.stream import seed_digest

FORMAT = 3
"""The version of the log format this code writes."""
READS = (1, 2, 3)
"""The versions it reads. Format 1 let the winner's score run past the target (a 24 hand
at 120 ended the game at 144); format 2 stops it at the target, as the rules do. A format
1 log is read with its final scores stopped at the target: nothing else differs. Format 3
always records the promise of the deal (``commitment``), which format 2 logs written
before promises were kept lack."""
PROMISED_FROM = 3
"""The first format whose every log records the promise of its deal: one of it without the
promise has lost it (``cribbage verify`` says it is not fair)."""

LOG_LIMIT = 1 << 20
"""The most bytes a log may hold (1 MiB). A game to 121 takes about 10 KB; a file bigger
than this is not a game log, and is refused before it is read."""

TEXT_LIMIT = 100
"""The longest free text a log holds (``started``, ``label``), and the longest seed:
characters of text, or digits of a number."""
TYPED_TEXT_LIMIT = 64
"""The longest seed a person may type, leaving room for the seeds made from it (a match's
games are seeded ``SEED/match N``)."""
NAME_LIMIT = 40
"""The longest name a seat may have."""
COMMAND_LIMIT = 1000
"""The longest engine command a log records."""
REASON_LIMIT = 200
"""The longest reason for a forfeit a log records."""
EARLIER_LIMIT = 24
"""The most deals of the games before it a log carries (a game has ten to twenty)."""
PlayerKind = Literal["human", "computer", "engine"]
"""Who can sit in a seat."""


class LogError(CribbageError):
    """A log that is not a game log, or that breaks the rules or disagrees with itself."""


def parse_seed(text: str) -> int | str:
    """A seed as typed: a whole number (``7``) or any short printable text (``"spring"``).

    Raises CribbageError for a seed that could not be written to a log and read back.
    """
    if not text:
        raise CribbageError("the seed is empty: give a number or a word, e.g. --seed 7")
    if len(text) > TYPED_TEXT_LIMIT:
        raise CribbageError(f"the seed is {len(text)} characters long: at most {TYPED_TEXT_LIMIT}")
    if not text.isprintable():
        raise CribbageError("the seed holds characters that cannot be printed")
    return int(text) if text.isascii() and text.isdigit() else text


def check_name(name: str) -> str:
    """A seat's name as typed. Raises CribbageError for one a log could not hold cleanly."""
    if not name.strip():
        raise CribbageError("the name is empty")
    if len(name) > NAME_LIMIT:
        raise CribbageError(f"the name is {len(name)} characters long: at most {NAME_LIMIT}")
    if not name.isprintable():
        raise CribbageError("the name holds characters that cannot be printed")
    return name


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat: a name, ``human``, ``computer`` or ``engine``, a computer's
    level, and an engine's command (a program speaking docs/engine-protocol.md; the name
    is the one it gave). A person's seat the computer took over (the person was away, at
    a served table) has ``taken``: how many of the game's actions had been taken then,
    and ``level``: the computer's; if the person took it back, ``returned``: how many
    actions had been taken then (a seat taken over again says when, and no longer that)."""

    name: str
    player: PlayerKind = "human"
    level: Level | None = None
    command: str | None = None
    taken: int | None = None
    returned: int | None = None
    objective: Objective | None = None
    """A computer's, if it plays for other than the game (game points, spread)."""

    @property
    def played_by_computer(self) -> bool:
        """Whether the computer decides for this seat now (from the start, or taken over
        and not taken back)."""
        return self.player == "computer" or (self.taken is not None and self.returned is None)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is before any action: rules, seats, seed, and when it began."""

    rules: Rules
    seats: tuple[Seat, ...]
    seed: int | str
    started: str | None = None
    """When the game began, as ISO 8601 text (given by the caller: the core has no clock)."""
    label: str | None = None
    """What kind of game it is, e.g. ``daily 2026-12-01`` (free text)."""
    takebacks: int = 0
    """How many times a move was taken back (``undo``, in a practice game)."""
    commitment: str | None = None
    """The promise of the deal shown before the first card (:func:`seed_digest` of the
    seed); None for a log written before logs kept it (it is written from the seed then)."""
    clock: int | None = None
    """Seconds each person had for a decision (a served table's clock); None: no clock."""
    timeouts: tuple[int, ...] = ()
    """The actions (by number, from 1) the computer made for a person whose clock ran out."""
    earlier: tuple[ShownDeal, ...] = ()
    """The deals these seats showed in the games before this one (of a match, at a
    table), the last :data:`EARLIER_LIMIT`: the computer reads the others' habits from
    them as from this game's (:func:`carried`)."""
    tournament: str | None = None
    """For a tournament's game: the digest (``sha256:``) of the description of the
    tournament it was played for (its folder's ``tournament.toml``), so that a resumed
    tournament knows its logs are its own."""

    def __post_init__(self) -> None:
        if len(self.earlier) > EARLIER_LIMIT:
            raise ValueError(f"a game carries at most {EARLIER_LIMIT} earlier deals (carried)")

    @property
    def promise(self) -> str:
        """The digest promised before the first card: the one recorded, else the seed's."""
        return self.commitment or seed_digest(self.seed)


# --- the records: their fields are the log's keys ------------------------------------


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round as the log tells it; each field is the key of the same name in a round's
    table, written in this order, and left out when None (or, for ``claims``, empty)."""

    round: int
    dealer: int
    dealt: tuple[str, ...]
    """Each seat's cards as dealt, seat by seat."""
    discards: tuple[str, ...]
    """What each seat put in the crib (``""`` while it has not)."""
    crib_card: str | None = None
    """Three players: the crib's fourth card, off the deck."""
    starter: str | None = None
    plays: tuple[str, ...] = ()
    """The play in order: ``SEAT CARD`` for a card laid, ``SEAT go`` for a go."""
    claims: tuple[str, ...] = field(default=(), metadata={"omit_empty": True})
    """Under muggins: each count its owner claimed, ``SEAT hand|crib POINTS``."""
    points: tuple[str, ...] = ()
    """Every score in order, ``SEAT REASON``, for people to read (checked by replay)."""
    scores: tuple[int, ...] | None = None
    """The scores by side once the round's show is over."""


@dataclass(frozen=True, slots=True)
class Result:
    """How the game ended: the winning side, the scores and the skunks, by side; and if a
    seat forfeited, which and why."""

    winner: int
    scores: tuple[int, ...]
    skunks: tuple[Skunk, ...]
    forfeit: int | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class GameLog:
    """A log read and checked for shape (not yet for the rules: see
    :func:`~cribcli.record.replay.replay`)."""

    info: GameInfo
    rounds: tuple[RoundRecord, ...]
    result: Result | None
    format: int = FORMAT
    """The format it was written in (:data:`READS`)."""


def _table(record: RoundRecord | Result | Seat) -> dict[str, Any]:
    """A record as its TOML table: its fields in order, tuples as arrays, None left out
    (and fields marked ``omit_empty`` when empty)."""
    table: dict[str, Any] = {}
    for item in fields(record):
        value = getattr(record, item.name)
        if value is None or (item.metadata.get("omit_empty") and not value):
            continue
        table[item.name] = list(value) if isinstance(value, tuple) else value
    return table


# --- writing ----------------------------------------------------------------------------


def log_document(info: GameInfo, events: Iterable[Event]) -> dict[str, Any]:
    """The log as a TOML-ready document, folded from the game's events so far."""
    doc: dict[str, Any] = {"format": FORMAT, "seed": info.seed}
    doc["commitment"] = info.promise
    if info.started:
        doc["started"] = info.started
    if info.label:
        doc["label"] = info.label
    if info.tournament:
        doc["tournament"] = info.tournament
    if info.takebacks:
        doc["takebacks"] = info.takebacks
    if info.clock is not None:
        doc["clock"] = info.clock
    if info.timeouts:
        doc["timeouts"] = list(info.timeouts)
    doc["rules"] = {
        item.name: getattr(info.rules, item.name)
        for item in fields(Rules)
        if item.name != "muggins" or info.rules.muggins  # written only when on
    }
    doc["seats"] = [_table(seat) for seat in info.seats]
    if info.earlier:
        doc["earlier"] = [_earlier_table(deal) for deal in info.earlier]
    rounds: list[dict[str, Any]] = []
    result: Result | None = None
    for event in events:
        if isinstance(event, Dealt):
            rounds.append(
                {
                    "round": event.round,
                    "dealer": event.dealer,
                    "dealt": tuple(format_cards(hand) for hand in event.hands),
                    "discards": [""] * len(event.hands),
                    "plays": [],
                    "claims": [],
                    "points": [],
                }
            )
            continue
        if not rounds:
            continue
        current = rounds[-1]
        match event:
            case Discarded():
                current["discards"][event.seat] = format_cards(event.cards)
            case CribFromDeck():
                current["crib_card"] = str(event.card)
            case StarterCut():
                current["starter"] = str(event.starter)
            case Played():
                current["plays"].append(f"{event.seat} {event.card}")
                if event.items:
                    current["points"].append(point_text(event))
            case SaidGo():
                current["plays"].append(f"{event.seat} go")
            case Pegged() | Shown():
                current["points"].append(point_text(event))
                if isinstance(event, Shown) and event.claimed is not None:
                    what = "crib" if event.show.is_crib else "hand"
                    current["claims"].append(f"{event.seat} {what} {event.claimed}")
            case RoundEnded():
                current["scores"] = event.scores
            case GameOver():
                result = Result(
                    event.winner, event.scores, event.skunks, event.forfeit, event.reason
                )
            case DealerCut() | Dealt() | CountRestarted():
                pass  # the cut is the seed's; a deal opens its round; a count is the plays'
            case _:
                assert_never(event)
    doc["rounds"] = [_table(RoundRecord(**_frozen(entry))) for entry in rounds]
    if result is not None:
        doc["result"] = _table(result)
    return doc


def _earlier_table(deal: ShownDeal) -> dict[str, Any]:
    """A deal of an earlier game as its table in ``[[earlier]]``."""
    return {
        "dealer": deal.dealer,
        "starter": str(deal.starter),
        "kept": [format_cards(kept) for kept in deal.kept],
        "crib": format_cards(deal.crib),
        "thrown": [format_cards(thrown) for thrown in deal.thrown],
        "plays": [f"{seat} {card}" for seat, card in deal.plays],
    }


def _frozen(entry: dict[str, Any]) -> dict[str, Any]:
    """A round folded so far, its lists made tuples, ready to be a :class:`RoundRecord`."""
    return {key: tuple(value) if isinstance(value, list) else value for key, value in entry.items()}


def point_text(event: Played | Pegged | Shown) -> str:
    """One entry of a round's points: ``1 fifteen for 2``, ``0 hand for 12``, ``1 crib for 4``."""
    if isinstance(event, Shown):
        what = "crib" if event.show.is_crib else "hand"
        return f"{event.seat} {what} for {event.scored}"
    return f"{event.seat} " + ", ".join(item.describe() for item in event.items)


def dumps(info: GameInfo, events: Iterable[Event]) -> str:
    """The log as TOML text."""
    return "# cribcli game log: see `man cribbage`, GAME LOG\n" + tomli_w.dumps(
        log_document(info, events)
    )


CLOCK_LIMITS = (10, 3600)
"""The fewest and the most seconds a clock gives a decision."""


def carried(past: tuple[ShownDeal, ...]) -> tuple[ShownDeal, ...]:
    """What a game's next game carries of the deals shown so far (:attr:`GameInfo.earlier`)."""
    return past[-EARLIER_LIMIT:]


def begin(info: GameInfo) -> tuple[State, list[Event]]:
    """The game ``info`` is, before its first action: its seats' earlier deals carried."""
    return new_game(info.rules, info.seed, info.earlier)


TAKEBACKS_LIMIT = 100_000
"""More takebacks than a game could hold (a game has a few hundred moves)."""
ACTIONS_LIMIT = 100_000
"""More actions than a game could hold."""


MATCH_FORMAT = 1
"""The version of the match record's layout."""


def match_text(
    best_of: int, names: Sequence[str], games: Sequence[Any], files: Sequence[str]
) -> str:
    """A served match as one record (TOML): how many games it was the best of, who
    played (seat by seat), and each game in order: the file its log was filed as, the
    winning side, the scores and the skunks by side, and the game points (a win 2, a skunk
    3, as the American Cribbage Congress counts them); then the totals and the winner.
    ``games``: each with ``winner``, ``scores``, ``skunks`` and ``game_points()``."""
    sides = len(games[0].scores) if games else 0
    points = [sum(game.game_points()[side] for game in games) for side in range(sides)]
    wins = [sum(game.winner == side for game in games) for side in range(sides)]
    doc: dict[str, Any] = {
        "format": MATCH_FORMAT,
        "best_of": best_of,
        "seats": list(names),
        "games": [
            {
                "log": file,
                "winner": game.winner,
                "scores": list(game.scores),
                "skunks": list(game.skunks),
                "game_points": list(game.game_points()),
            }
            for file, game in zip(files, games, strict=True)
        ],
        "wins": wins,
        "game_points": points,
        "winner": max(range(sides), key=lambda side: wins[side]) if sides else 0,
    }
    return "# cribcli match: see `man cribbage`, MATCH RECORD\n" + tomli_w.dumps(doc)
