"""The game log: a TOML file that is the whole game (seed, rules, seats and every action).

Writing folds the engine's events into a document; reading checks the document's shape;
replaying folds the recorded actions through the engine again and checks that every card
dealt, every card laid, every go and every point recorded is what the rules give. The
format is described in docs/game-log.md.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, assert_never, cast, get_args

import tomli_w

from cribcli.cards import Card, format_cards, parse_cards, seed_digest
from cribcli.engine import (
    Action,
    Claim,
    Discard,
    Forfeit,
    Phase,
    Play,
    Rules,
    ShownDeal,
    State,
    apply,
    deal_from,
    first_dealer,
    new_game,
)
from cribcli.errors import CribbageError, UsageProblem
from cribcli.events import (
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
from cribcli.players.base import LEVELS_HELP, Level, Objective
from cribcli.scoring import KEPT_SIZE

FORMAT = 2
"""The version of the log format this code writes."""
READS = (1, 2)
"""The versions it reads. Format 1 let the winner's score run past the target (a 24 hand
at 120 ended the game at 144); format 2 stops it at the target, as the rules do. A format
1 log is read with its final scores stopped at the target: nothing else differs."""

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

_NESTING_LIMIT = 8
_DOTS_LIMIT = 8


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


def _seed_problem(seed: int | str) -> str | None:
    """Why a seed read from a log is not one (None if it is)."""
    if isinstance(seed, int):
        return None if 0 <= seed < 10**TEXT_LIMIT else "a seed number is whole, 0 or more"
    if not seed or len(seed) > TEXT_LIMIT:
        return f"a seed text is 1 to {TEXT_LIMIT} characters"
    return None


# Strings and comments, which may hold anything: the shape check looks past them. Each
# alternative matches without backtracking, closed or not (an unclosed string runs to the
# end of its line, or of the text), so the scan takes time in proportion to the text.
_QUOTED = re.compile(
    r'"""[\s\S]*?(?:"""|\Z)|\'\'\'[\s\S]*?(?:\'\'\'|\Z)'
    r'|"(?:[^"\\\n]|\\.)*+"?|\'[^\'\n]*+\'?|#[^\n]*'
)
_BRACKETS = re.compile(r"[\[\]{}]")
_LONG_WORD = re.compile(f"[0-9A-Za-z_]{{{TEXT_LIMIT + 1}}}")


def parse_toml(text: str) -> dict[str, Any]:
    """A log's TOML text as a document. Raises LogError for anything else.

    Shapes no game log has are refused before the TOML parser sees them, because they cost
    it time or memory out of all proportion: arrays or tables nested more than 8 deep,
    keys of more than 8 dotted parts, and keys or numbers (in any base) of more than
    :data:`TEXT_LIMIT` characters.
    Text longer than :data:`LOG_LIMIT` is refused too.
    """
    if len(text) > LOG_LIMIT:
        raise LogError(f"not a game log: longer than {LOG_LIMIT // 1024} KiB")
    bare = _QUOTED.sub('""', text)
    if any(line.count(".") > _DOTS_LIMIT for line in bare.splitlines()):
        raise LogError(f"not a game log: a key of more than {_DOTS_LIMIT} dotted parts")
    if _LONG_WORD.search(bare):
        raise LogError(f"not a game log: a key or number of more than {TEXT_LIMIT} characters")
    depth = 0
    for bracket in _BRACKETS.finditer(bare):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > _NESTING_LIMIT:
            raise LogError(f"not a game log: nested more than {_NESTING_LIMIT} deep")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LogError(f"not a game log: the TOML does not parse ({error})") from None
    except (ValueError, RecursionError) as error:  # e.g. a number of 5,000 digits
        raise LogError(f"not a game log: {error}") from None


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
    """A log read and checked for shape (not yet for the rules: see :func:`replay`)."""

    info: GameInfo
    rounds: tuple[RoundRecord, ...]
    result: Result | None


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


# --- reading ----------------------------------------------------------------------------


def loads(text: str) -> GameLog:
    """Read a log's TOML text. Raises LogError naming what is wrong."""
    if not text.strip():
        raise LogError("not a game log: it is empty")
    doc = parse_toml(text)
    fmt = doc.get("format")
    if fmt is None:
        raise LogError("not a game log: there is no `format`")
    if fmt not in READS or isinstance(fmt, bool):
        said = f"`{fmt}` (text)" if isinstance(fmt, str) else f"{fmt}"
        reads = " and ".join(map(str, READS))
        raise LogError(f"log format {said} is not one this version reads (it reads {reads})")
    seed = _field(doc, "seed", (int, str), "the log")
    problem = _seed_problem(seed)
    if problem:
        raise LogError(f"the log: `seed` is not a seed ({problem})")
    rules_doc = _field(doc, "rules", dict, "the log")
    try:
        rules = Rules(
            players=_field(rules_doc, "players", int, "rules"),
            target=_field(rules_doc, "target", int, "rules"),
            cut_for_deal=_field(rules_doc, "cut_for_deal", bool, "rules"),
            first_dealer=_field(rules_doc, "first_dealer", int, "rules"),
            muggins=rules_doc.get("muggins") is True,
        )
    except LogError:
        raise
    except CribbageError as error:
        raise LogError(f"rules: {error}") from None
    seats_doc = _field(doc, "seats", list, "the log")
    if len(seats_doc) != rules.players:
        raise LogError(f"seats: {len(seats_doc)} seats for {rules.players} players")
    seats = tuple(_seat(seat, f"seats[{i}]") for i, seat in enumerate(seats_doc))
    rounds = tuple(
        _round(round_doc, i + 1)
        for i, round_doc in enumerate(_field(doc, "rounds", list, "the log"))
    )
    result_doc = doc.get("result")
    result = None if result_doc is None else _result(result_doc, rules)
    if result is not None and fmt == 1:
        result = replace(result, scores=tuple(min(s, rules.target) for s in result.scores))
    info = GameInfo(
        rules=rules,
        seats=seats,
        seed=seed,
        started=_short_text(doc, "started"),
        label=_short_text(doc, "label"),
        takebacks=_takebacks(doc),
        commitment=_commitment(doc),
        clock=_clock(doc),
        timeouts=_timeouts(doc),
        earlier=_earlier(doc, rules),
    )
    return GameLog(info, rounds, result)


CLOCK_LIMITS = (10, 3600)
"""The fewest and the most seconds a clock gives a decision."""


def _clock(doc: dict[str, Any]) -> int | None:
    value = doc.get("clock")
    low, high = CLOCK_LIMITS
    if value is not None and (type(value) is not int or not low <= value <= high):
        raise LogError(f"the log: `clock` is a number of seconds from {low} to {high}")
    return value


def _timeouts(doc: dict[str, Any]) -> tuple[int, ...]:
    value = doc.get("timeouts", [])
    if (
        not isinstance(value, list)
        or len(value) > ACTIONS_LIMIT
        or not all(type(n) is int and 1 <= n <= ACTIONS_LIMIT for n in value)
        or value != sorted(set(value))
    ):
        raise LogError("the log: `timeouts` is a list of action numbers, each once, in order")
    return tuple(value)


_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")


def _commitment(doc: dict[str, Any]) -> str | None:
    value = doc.get("commitment")
    if value is None:
        return None
    if not isinstance(value, str) or not _DIGEST.fullmatch(value):
        raise LogError("the log: `commitment` is `sha256:` and 64 hexadecimal digits")
    return value


def _earlier(doc: dict[str, Any], rules: Rules) -> tuple[ShownDeal, ...]:
    tables = doc.get("earlier", [])
    if not isinstance(tables, list) or len(tables) > EARLIER_LIMIT:
        raise LogError(f"the log: `earlier` is a list of at most {EARLIER_LIMIT} deals")
    return tuple(_earlier_deal(table, rules, f"earlier[{n}]") for n, table in enumerate(tables))


def _earlier_deal(doc: object, rules: Rules, where: str) -> ShownDeal:
    if not isinstance(doc, dict):
        raise LogError(f"{where} is not a table")
    wrong = f"{where}: not a deal of this game's rules"
    entries = _strings(doc, "plays", where)
    kept, thrown = _strings(doc, "kept", where), _strings(doc, "thrown", where)
    if max(len(entries), len(kept), len(thrown)) > KEPT_SIZE * rules.players:
        raise LogError(f"{wrong} (too many cards)")
    plays = [_play_entry(entry, where) for entry in entries]
    starter = _cards(_field(doc, "starter", str, where), where)
    if len(starter) != 1 or any(card is None for _, card in plays):
        raise LogError(f"{wrong} (one starter, and a card for each play)")
    deal = ShownDeal(
        dealer=_field(doc, "dealer", int, where),
        starter=starter[0],
        kept=tuple(tuple(_cards(cards, where)) for cards in kept),
        crib=tuple(_cards(_field(doc, "crib", str, where), where)),
        plays=tuple((seat, card) for seat, card in plays if card is not None),
        thrown=tuple(tuple(_cards(cards, where)) for cards in thrown),
    )
    problem = deal.problem(rules)
    if problem:
        raise LogError(f"{wrong} ({problem})")
    return deal


def carried(past: tuple[ShownDeal, ...]) -> tuple[ShownDeal, ...]:
    """What a game's next game carries of the deals shown so far (:attr:`GameInfo.earlier`)."""
    return past[-EARLIER_LIMIT:]


def begin(info: GameInfo) -> tuple[State, list[Event]]:
    """The game ``info`` is, before its first action: its seats' earlier deals carried."""
    return new_game(info.rules, info.seed, info.earlier)


def _takebacks(doc: dict[str, Any]) -> int:
    value = doc.get("takebacks", 0)
    if type(value) is not int or not 0 <= value <= TAKEBACKS_LIMIT:
        raise LogError(f"the log: `takebacks` is a number from 0 to {TAKEBACKS_LIMIT}")
    return value


TAKEBACKS_LIMIT = 100_000
"""More takebacks than a game could hold (a game has a few hundred moves)."""
ACTIONS_LIMIT = 100_000
"""More actions than a game could hold."""


def _seat(doc: object, where: str) -> Seat:
    if not isinstance(doc, dict):
        raise LogError(f"{where} is not a table")
    name = _field(doc, "name", str, where)
    if not name or len(name) > NAME_LIMIT:
        raise LogError(f"{where}: a name is 1 to {NAME_LIMIT} characters")
    player = _field(doc, "player", str, where)
    if player not in get_args(PlayerKind):
        raise LogError(f"{where}: `player` is {' or '.join(get_args(PlayerKind))}")
    if player == "human":
        taken = doc.get("taken")
        if taken is None:
            return Seat(name, "human")
        if type(taken) is not int or not 0 <= taken <= ACTIONS_LIMIT:
            raise LogError(f"{where}: `taken` is a number of actions, 0 to {ACTIONS_LIMIT}")
        returned = doc.get("returned")
        if returned is not None and (
            type(returned) is not int or not taken <= returned <= ACTIONS_LIMIT
        ):
            raise LogError(f"{where}: `returned` is a number of actions, from `taken` on")
        return Seat(name, "human", _level(doc, where), taken=taken, returned=returned)
    if player == "engine":
        command = _field(doc, "command", str, where)
        if not command or len(command) > COMMAND_LIMIT:
            raise LogError(f"{where}: an engine's `command` is 1 to {COMMAND_LIMIT} characters")
        return Seat(name, "engine", command=command)
    objective = doc.get("objective")
    if objective is not None and (
        not isinstance(objective, str) or objective not in set(Objective)
    ):
        raise LogError(f"{where}: a computer's `objective` is {', '.join(Objective)}")
    return Seat(
        name,
        "computer",
        _level(doc, where),
        objective=None if objective in (None, Objective.WIN) else Objective(objective),
    )


def _level(doc: dict[str, Any], where: str) -> Level:
    level = doc.get("level")
    known = Level.parse(level)
    if known is None:
        raise LogError(f"{where}: a computer's `level` is {LEVELS_HELP}")
    return known


def _round(doc: object, number: int) -> RoundRecord:
    where = f"round {number}"
    if not isinstance(doc, dict):
        raise LogError(f"{where} is not a table")
    said = _field(doc, "round", int, where)
    if said != number:
        raise LogError(f"{where} is numbered {said}")
    scores = doc.get("scores")
    if scores is not None and not (
        isinstance(scores, list) and all(type(score) is int for score in scores)
    ):
        raise LogError(f"{where}: `scores` must be a list of numbers")
    return RoundRecord(
        round=number,
        dealer=_field(doc, "dealer", int, where),
        dealt=tuple(_strings(doc, "dealt", where)),
        discards=tuple(_strings(doc, "discards", where, required=False)),
        crib_card=_optional_str(doc, "crib_card", where),
        starter=_optional_str(doc, "starter", where),
        plays=tuple(_strings(doc, "plays", where, required=False)),
        claims=tuple(_strings(doc, "claims", where, required=False)),
        points=tuple(_strings(doc, "points", where, required=False)),
        scores=None if scores is None else tuple(scores),
    )


def _result(doc: object, rules: Rules) -> Result:
    if not isinstance(doc, dict):
        raise LogError("result is not a table")
    scores = _field(doc, "scores", list, "result")
    skunks = _strings(doc, "skunks", "result")
    if not all(type(score) is int for score in scores):
        raise LogError("result: `scores` must be a list of numbers")
    if not all(skunk in get_args(Skunk) for skunk in skunks):
        raise LogError('result: a skunk is "", "skunk" or "double skunk"')
    forfeit = doc.get("forfeit")
    if forfeit is not None and (type(forfeit) is not int or not 0 <= forfeit < rules.players):
        raise LogError(f"result: `forfeit` is a seat, 0 to {rules.players - 1}")
    reason = _optional_str(doc, "reason", "result")
    if (reason is None) != (forfeit is None) or len(reason or "") > REASON_LIMIT:
        raise LogError(f"result: a forfeit has a `reason` of at most {REASON_LIMIT} characters")
    return Result(
        _field(doc, "winner", int, "result"),
        tuple(scores),
        cast(_Skunks, tuple(skunks)),
        forfeit,
        reason,
    )


_Skunks = tuple[Skunk, ...]


def _field(doc: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in doc:
        raise LogError(f"{where}: `{key}` is missing")
    value = doc[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise LogError(f"{where}: `{key}` has the wrong type")
    return value


def _strings(doc: dict[str, Any], key: str, where: str, *, required: bool = True) -> list[str]:
    if key not in doc and not required:
        return []
    values = _field(doc, key, list, where)
    if not all(isinstance(value, str) for value in values):
        raise LogError(f"{where}: `{key}` must be a list of strings")
    return list(values)


def _short_text(doc: dict[str, Any], key: str) -> str | None:
    """An optional free-text field of the log's top (``started``, ``label``)."""
    value = _optional_str(doc, key, "the log")
    if value is not None and len(value) > TEXT_LIMIT:
        raise LogError(f"the log: `{key}` is longer than {TEXT_LIMIT} characters")
    return value


def _optional_str(doc: dict[str, Any], key: str, where: str) -> str | None:
    value = doc.get(key)
    if value is not None and not isinstance(value, str):
        raise LogError(f"{where}: `{key}` must be a string")
    return value


# --- replaying ------------------------------------------------------------------------


@dataclass
class Replay:
    """A log replayed through the rules: the events, the final state, and whether it ended."""

    log: GameLog
    events: list[Event] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    state: State | None = None

    @property
    def finished(self) -> bool:
        """Whether the game reached its end (someone won)."""
        return self.state is not None and self.state.phase is Phase.OVER

    def told(self, number: int | None = None) -> list[Event]:
        """The events of round ``number``, from its deal to the next; every event if
        None. Raises UsageProblem for a round the game does not have."""
        if number is None:
            return self.events
        rounds = _by_round(self.events)
        if not 1 <= number <= len(rounds):
            raise UsageProblem(f"the game has {len(rounds)} rounds, not {number}")
        return rounds[number - 1]

    def where_it_stops(self) -> str:
        """For an unfinished game: ``round 4, during the play``."""
        if self.state is None:
            return "before the first deal"
        phase = {Phase.DISCARD: "the discard", Phase.PLAY: "the play"}.get(
            self.state.phase, "the end"
        )
        return f"round {self.state.round}, during {phase}"


def replay(log: GameLog) -> Replay:
    """Fold the log's actions through the engine, checking everything it recorded.

    Raises LogError naming the round and the action where the log breaks the rules or
    disagrees with them. A log that stops mid-game replays as far as it goes.
    """
    info = log.info
    result = Replay(log)
    state, events = begin(info)
    result.events.extend(events)
    players = info.rules.players
    for record in log.rounds:
        where = f"round {record.round}"
        if state.phase is Phase.OVER:
            raise LogError(f"{where}: the game was already over")
        if state.round != record.round:
            raise LogError(f"{where}: round {state.round} is not over yet")
        _expect(where, "the dealer is", record.dealer, state.dealer)
        if record.dealt is not None:
            said = [format_cards(_cards(hand, where)) for hand in record.dealt]
            _expect(where, "the deal is", said, [format_cards(hand) for hand in state.dealt])
        discards = list(record.discards) + [""] * (players - len(record.discards))
        for step in range(1, players + 1):
            seat = (state.dealer + step) % players
            if discards[seat].strip():
                here = f"{where}, seat {seat}'s discard"
                action: Action = Discard(seat, tuple(_cards(discards[seat], here)))
                state = _apply(state, action, here, result)
        for number, entry in enumerate(record.plays, start=1):
            here = f"{where}, play {number} (`{entry}`)"
            seat, card = _play_entry(entry, here)
            if card is None:
                continue  # the rules say go by themselves: checked against them below
            if state.phase is Phase.OVER or state.round != record.round:
                over = "game" if state.phase is Phase.OVER else "round"
                raise LogError(f"{here}: the {over} was already over")
            state = _apply(state, Play(seat, card), here, result)
        for number, entry in enumerate(record.claims, start=1):
            here = f"{where}, claim {number} (`{entry}`)"
            state = _apply(state, _claim_entry(entry, here), here, result)
    if log.result is not None and log.result.forfeit is not None:
        if state.phase is Phase.OVER:
            raise LogError("result: a seat forfeits a game that was already over")
        if info.seats[log.result.forfeit].player != "engine":
            raise LogError("result: only an engine's seat forfeits a game")
        forfeit = Forfeit(log.result.forfeit, log.result.reason or "")
        state = _apply(state, forfeit, "result", result)
    for record, events in zip(log.rounds, _by_round(result.events), strict=False):
        _check_round(record, events)
    if info.timeouts and info.timeouts[-1] > len(result.actions):
        raise LogError(
            f"timeouts: action {info.timeouts[-1]} was made for a person out of time, but the "
            f"game has {len(result.actions)}"
        )
    for number, spec in enumerate(info.seats):
        if spec.taken is not None and spec.taken > len(result.actions):
            raise LogError(
                f"seats[{number}]: taken by the computer after action {spec.taken}, but the "
                f"game has {len(result.actions)}"
            )
        if spec.returned is not None and spec.returned > len(result.actions):
            raise LogError(
                f"seats[{number}]: taken back after action {spec.returned}, but the game has "
                f"{len(result.actions)}"
            )
    result.state = state
    _check_result(log, state, result.events)
    return result


def _apply(state: State, action: Action, where: str, result: Replay) -> State:
    try:
        state, events = apply(state, action)
    except CribbageError as error:
        raise LogError(f"{where}: {error}") from None
    result.actions.append(action)
    result.events.extend(events)
    return state


def _by_round(events: Sequence[Event]) -> list[list[Event]]:
    """The events cut into rounds, each starting at its deal."""
    rounds: list[list[Event]] = []
    for event in events:
        if isinstance(event, Dealt):
            rounds.append([])
        if rounds:
            rounds[-1].append(event)
    return rounds


def _cards(text: str, where: str) -> list[Card]:
    try:
        return parse_cards(text)
    except CribbageError as error:
        raise LogError(f"{where}: {error}") from None


def _play_entry(entry: str, where: str) -> tuple[int, Card | None]:
    """A play entry ``0 5H`` or ``1 go``: the seat and the card (None for a go)."""
    parts = entry.split()
    if len(parts) != 2 or not (parts[0].isascii() and parts[0].isdigit()):
        raise LogError(f"{where}: a play is a seat number and a card or `go`, e.g. `0 5H`")
    if parts[1].lower() == "go":
        return int(parts[0]), None
    return int(parts[0]), _cards(parts[1], where)[0]


def _claim_entry(entry: str, where: str) -> Claim:
    """A claim ``0 hand 12``: the seat and the points it claimed."""
    parts = entry.split()
    if (
        len(parts) != 3
        or not (parts[0].isascii() and parts[0].isdigit())
        or parts[1] not in ("hand", "crib")
    ):
        raise LogError(
            f"{where}: a claim is a seat, `hand` or `crib`, and points, e.g. `0 hand 12`"
        )
    if not parts[2].isdigit():
        raise LogError(f"{where}: `{parts[2]}` is not a number of points")
    return Claim(int(parts[0]), int(parts[2]))


def _expect(where: str, what: str, said: object, given: object) -> None:
    """``what`` is the thing checked with its verb: ``the dealer is``, ``the scores are``."""
    if said != given:
        raise LogError(f"{where}: the log says {what} {said}, the rules give {given}")


def _check_round(record: RoundRecord, events: Sequence[Event]) -> None:
    """What the log says of a round (cut, plays, gos, points, scores) against the rules."""
    where = f"round {record.round}"
    for event in events:
        if isinstance(event, CribFromDeck):
            _expect(where, "the crib card is", _card_text(record.crib_card, where), str(event.card))
        elif isinstance(event, StarterCut):
            _expect(where, "the starter is", _card_text(record.starter, where), str(event.starter))
    said_plays = []
    for number, entry in enumerate(record.plays, start=1):
        seat, card = _play_entry(entry, f"{where}, play {number} (`{entry}`)")
        said_plays.append(f"{seat} {card if card else 'go'}")
    given_plays = [
        f"{e.seat} {e.card}" if isinstance(e, Played) else f"{e.seat} go"
        for e in events
        if isinstance(e, Played | SaidGo)
    ]
    _same_list(f"{where}, play", said_plays, given_plays)
    said_points = list(record.points)
    given_points = [
        point_text(e)
        for e in events
        if isinstance(e, Pegged | Shown) or (isinstance(e, Played) and e.items)
    ]
    _same_list(f"{where}, point", said_points, given_points)
    ended = [e for e in events if isinstance(e, RoundEnded)]
    if record.scores is not None:
        given = list(ended[0].scores) if ended else "not yet given (the round is not over)"
        _expect(where, "the scores after the round are", list(record.scores), given)


def _card_text(text: str | None, where: str) -> str | None:
    return None if text is None else format_cards(_cards(text, where))


def _same_list(where: str, said: Sequence[str], given: Sequence[str]) -> None:
    for number, (s, g) in enumerate(zip(said, given, strict=False), start=1):
        if s != g:
            raise LogError(f"{where} {number}: the log says `{s}`, the rules give `{g}`")
    if len(said) > len(given):
        raise LogError(
            f"{where} {len(given) + 1}: the log says `{said[len(given)]}`, the rules give nothing"
        )
    if len(said) < len(given):
        raise LogError(f"{where} {len(said) + 1}: the log leaves out `{given[len(said)]}`")


def _check_result(log: GameLog, state: State, events: Sequence[Event]) -> None:
    if log.result is None:
        if state.phase is Phase.OVER:
            raise LogError("result: the game is over but the log gives no result")
        return
    if state.phase is not Phase.OVER:
        raise LogError("result: the log gives a result, but the game did not end")
    over = next(event for event in reversed(events) if isinstance(event, GameOver))
    _expect("result", "the winner is", log.result.winner, over.winner)
    _expect("result", "the final scores are", list(log.result.scores), list(over.scores))
    _expect("result", "the skunks are", list(log.result.skunks), list(over.skunks))
    _expect("result", "the seat that forfeits is", log.result.forfeit, over.forfeit)


def verify(log: GameLog) -> list[str]:
    """Whether the log's deals are its seed's: what differs, each in a line (none: the
    deal was fair). The seed's digest against the one promised before the first card;
    then every card dealt, the crib's card at three and each starter, dealt again from
    the seed; then, if the cards are the seed's, the rest of the game through the rules
    (:func:`replay`)."""
    info = log.info
    found = []
    digest = seed_digest(info.seed)
    if info.commitment is not None and info.commitment != digest:
        found.append(
            f"the seed {info.seed!r} has the digest {digest}, not the one promised before "
            f"the first deal, {info.commitment}"
        )
    rules = info.rules
    if log.rounds and log.rounds[0].dealer != first_dealer(rules, info.seed):
        found.append(
            f"round 1: the log says seat {log.rounds[0].dealer} dealt first, the seed's cut "
            f"says seat {first_dealer(rules, info.seed)}"
        )
    for record in log.rounds:
        found.extend(_deal_differences(record, info))
    if not found:
        try:
            replay(log)
        except LogError as error:
            found.append(f"the cards are the seed's, but the game is not: {error}")
    return found


def _deal_differences(record: RoundRecord, info: GameInfo) -> list[str]:
    """Round ``record``'s cards against the seed's deal for it."""
    where = f"round {record.round}"
    rules = info.rules
    if not 0 <= record.dealer < rules.players:
        return [f"{where}: there is no seat {record.dealer} to deal"]
    hands, deck = deal_from(info.seed, record.round, record.dealer, rules)
    found = []
    for seat, (said, dealt) in enumerate(zip(record.dealt or (), hands, strict=False)):
        if _cards(said, where) != list(dealt):
            found.append(
                f"{where}: seat {seat} ({info.seats[seat].name}) was dealt {said}, the seed "
                f"deals {format_cards(dealt)}"
            )
    rest = deck[rules.dealt_size * rules.players :]
    if rules.players == 3:
        crib_card, rest = rest[0], rest[1:]
        if record.crib_card is not None and _card_text(record.crib_card, where) != str(crib_card):
            found.append(
                f"{where}: the crib's card off the deck is {record.crib_card}, the seed's is "
                f"{crib_card}"
            )
    if record.starter is not None and _card_text(record.starter, where) != str(rest[0]):
        found.append(f"{where}: the starter is {record.starter}, the seed's is {rest[0]}")
    return found


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
