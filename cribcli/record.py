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
from dataclasses import dataclass, field
from typing import Any

import tomli_w

from cribcli.cards import Card, format_cards, parse_cards
from cribcli.engine import (
    Action,
    Claim,
    Discard,
    Phase,
    Play,
    Rules,
    State,
    apply,
    new_game,
)
from cribcli.errors import CribbageError
from cribcli.events import (
    CribFromDeck,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Pegged,
    Played,
    RoundEnded,
    SaidGo,
    Shown,
    StarterCut,
)

FORMAT = 1
"""The version of the log format this code writes and reads."""

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
PLAYER_KINDS = ("human", "computer")
"""Who can sit in a seat."""
LEVEL_NAMES = ("easy", "normal", "hard")
"""The computer's levels, weakest first (the players package makes them)."""

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
    """Who sits in a seat: a name, ``human`` or ``computer``, and a computer's level."""

    name: str
    player: str = "human"
    level: str | None = None


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


# --- writing ----------------------------------------------------------------------------


def log_document(info: GameInfo, events: Iterable[Event]) -> dict[str, Any]:
    """The log as a TOML-ready document, folded from the game's events so far."""
    doc: dict[str, Any] = {"format": FORMAT, "seed": info.seed}
    if info.started:
        doc["started"] = info.started
    if info.label:
        doc["label"] = info.label
    doc["rules"] = {
        "players": info.rules.players,
        "target": info.rules.target,
        "cut_for_deal": info.rules.cut_for_deal,
        "first_dealer": info.rules.first_dealer,
    } | ({"muggins": True} if info.rules.muggins else {})
    doc["seats"] = [
        {"name": seat.name, "player": seat.player} | ({"level": seat.level} if seat.level else {})
        for seat in info.seats
    ]
    rounds: list[dict[str, Any]] = []
    doc["rounds"] = rounds
    for event in events:
        if isinstance(event, Dealt):
            rounds.append(
                {
                    "round": event.round,
                    "dealer": event.dealer,
                    "dealt": [format_cards(hand) for hand in event.hands],
                    "discards": [""] * len(event.hands),
                    "plays": [],
                    "points": [],
                }
            )
            continue
        if not rounds:
            continue
        current = rounds[-1]
        if isinstance(event, Discarded):
            current["discards"][event.seat] = format_cards(event.cards)
        elif isinstance(event, CribFromDeck):
            current["crib_card"] = str(event.card)
        elif isinstance(event, StarterCut):
            current["starter"] = str(event.starter)
        elif isinstance(event, Played):
            current["plays"].append(f"{event.seat} {event.card}")
            if event.items:
                current["points"].append(point_text(event))
        elif isinstance(event, SaidGo):
            current["plays"].append(f"{event.seat} go")
        elif isinstance(event, Pegged | Shown):
            current["points"].append(point_text(event))
            if isinstance(event, Shown) and event.claimed is not None:
                what = "crib" if event.show.is_crib else "hand"
                current.setdefault("claims", []).append(f"{event.seat} {what} {event.claimed}")
        elif isinstance(event, RoundEnded):
            current["scores"] = list(event.scores)
        elif isinstance(event, GameOver):
            doc["result"] = {
                "winner": event.winner,
                "scores": list(event.scores),
                "skunks": list(event.skunks),
            }
    doc["rounds"] = [_in_order(entry) for entry in rounds]
    return doc


_ROUND_KEYS = (
    "round",
    "dealer",
    "dealt",
    "discards",
    "crib_card",
    "starter",
    "plays",
    "claims",
    "points",
    "scores",
)


def _in_order(entry: dict[str, Any]) -> dict[str, Any]:
    """A round's keys in the order a reader follows the round."""
    return {key: entry[key] for key in _ROUND_KEYS if key in entry}


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


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round as the log tells it (fields the log lacks are None or empty)."""

    number: int
    dealer: int | None
    dealt: tuple[str, ...] | None
    discards: tuple[str, ...]
    crib_card: str | None
    starter: str | None
    plays: tuple[str, ...]
    points: tuple[str, ...]
    scores: tuple[int, ...] | None
    claims: tuple[str, ...] = ()
    """Under muggins: each count its owner claimed, ``SEAT hand|crib POINTS``."""


@dataclass(frozen=True, slots=True)
class GameLog:
    """A log read and checked for shape (not yet for the rules: see :func:`replay`)."""

    info: GameInfo
    rounds: tuple[RoundRecord, ...]
    result: dict[str, Any] | None


def loads(text: str) -> GameLog:
    """Read a log's TOML text. Raises LogError naming what is wrong."""
    if not text.strip():
        raise LogError("not a game log: it is empty")
    doc = parse_toml(text)
    fmt = doc.get("format")
    if fmt is None:
        raise LogError("not a game log: there is no `format`")
    if fmt != FORMAT:
        raise LogError(f"log format {fmt!r} is not one this version reads (it reads {FORMAT})")
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
    seats = []
    for i, seat in enumerate(seats_doc):
        where = f"seats[{i}]"
        if not isinstance(seat, dict):
            raise LogError(f"{where} is not a table")
        name = _field(seat, "name", str, where)
        if not name or len(name) > NAME_LIMIT:
            raise LogError(f"{where}: a name is 1 to {NAME_LIMIT} characters")
        player = _field(seat, "player", str, where)
        if player not in PLAYER_KINDS:
            raise LogError(f"{where}: `player` is {' or '.join(PLAYER_KINDS)}")
        level = seat.get("level")
        if player == "computer" and level not in LEVEL_NAMES:
            raise LogError(f"{where}: a computer's `level` is {', '.join(LEVEL_NAMES)}")
        seats.append(Seat(name, player, level if player == "computer" else None))
    rounds = []
    for i, round_doc in enumerate(_field(doc, "rounds", list, "the log")):
        where = f"round {i + 1}"
        if not isinstance(round_doc, dict):
            raise LogError(f"{where} is not a table")
        number = _field(round_doc, "round", int, where)
        if number != i + 1:
            raise LogError(f"{where} is numbered {number}")
        scores = round_doc.get("scores")
        rounds.append(
            RoundRecord(
                number=number,
                dealer=_field(round_doc, "dealer", int, where),
                dealt=tuple(_strings(round_doc, "dealt", where)),
                discards=tuple(_strings(round_doc, "discards", where, required=False)),
                crib_card=_optional_str(round_doc, "crib_card", where),
                starter=_optional_str(round_doc, "starter", where),
                plays=tuple(_strings(round_doc, "plays", where, required=False)),
                points=tuple(_strings(round_doc, "points", where, required=False)),
                scores=tuple(scores) if isinstance(scores, list) else None,
                claims=tuple(_strings(round_doc, "claims", where, required=False)),
            )
        )
    result = doc.get("result")
    if result is not None and not isinstance(result, dict):
        raise LogError("result is not a table")
    info = GameInfo(
        rules=rules,
        seats=tuple(seats),
        seed=seed,
        started=_short_text(doc, "started"),
        label=_short_text(doc, "label"),
    )
    return GameLog(info, tuple(rounds), result)


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
    state, events = new_game(info.rules, info.seed)
    result.events.extend(events)
    players = info.rules.players
    for record in log.rounds:
        where = f"round {record.number}"
        if state.phase is Phase.OVER:
            raise LogError(f"{where}: the game was already over")
        if state.round != record.number:
            raise LogError(f"{where}: round {state.round} is not over yet")
        _expect(where, "the dealer", record.dealer, state.dealer)
        if record.dealt is not None:
            said = [format_cards(_cards(hand, where)) for hand in record.dealt]
            _expect(where, "the deal", said, [format_cards(hand) for hand in state.dealt])
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
            if state.phase is Phase.OVER or state.round != record.number:
                over = "game" if state.phase is Phase.OVER else "round"
                raise LogError(f"{here}: the {over} was already over")
            state = _apply(state, Play(seat, card), here, result)
        for number, entry in enumerate(record.claims, start=1):
            here = f"{where}, claim {number} (`{entry}`)"
            state = _apply(state, _claim_entry(entry, here), here, result)
    for record, events in zip(log.rounds, _by_round(result.events), strict=False):
        _check_round(record, events)
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
    if len(parts) != 2 or not parts[0].isdigit():
        raise LogError(f"{where}: a play is a seat number and a card or `go`, e.g. `0 5H`")
    if parts[1].lower() == "go":
        return int(parts[0]), None
    return int(parts[0]), _cards(parts[1], where)[0]


def _claim_entry(entry: str, where: str) -> Claim:
    """A claim ``0 hand 12``: the seat and the points it claimed."""
    parts = entry.split()
    if len(parts) != 3 or not parts[0].isdigit() or parts[1] not in ("hand", "crib"):
        raise LogError(
            f"{where}: a claim is a seat, `hand` or `crib`, and points, e.g. `0 hand 12`"
        )
    if not parts[2].isdigit():
        raise LogError(f"{where}: `{parts[2]}` is not a number of points")
    return Claim(int(parts[0]), int(parts[2]))


def _expect(where: str, what: str, said: object, given: object) -> None:
    if said != given:
        raise LogError(f"{where}: the log says {what} is {said}, the rules give {given}")


def _check_round(record: RoundRecord, events: Sequence[Event]) -> None:
    """What the log says of a round (cut, plays, gos, points, scores) against the rules."""
    where = f"round {record.number}"
    for event in events:
        if isinstance(event, CribFromDeck):
            _expect(where, "the crib card", _card_text(record.crib_card, where), str(event.card))
        elif isinstance(event, StarterCut):
            _expect(where, "the starter", _card_text(record.starter, where), str(event.starter))
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
        _expect(where, "the scores after the round", list(record.scores), given)


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
    _expect("result", "the winner", log.result.get("winner"), state.winner)
    _expect("result", "the final scores", log.result.get("scores"), list(state.scores))
    over = next(event for event in reversed(events) if isinstance(event, GameOver))
    _expect("result", "the skunks", log.result.get("skunks"), list(over.skunks))
