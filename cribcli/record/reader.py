"""Reading a game log: its TOML text parsed with bounds (shapes no log has are refused
before the parser sees them), then every field checked for its type and its limits, into
the records of :mod:`cribcli.record.log`. Whether the game it tells is the rules' is
:mod:`cribcli.record.replay`'s question.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from typing import Any, cast, get_args

from cribcli.players.base import LEVELS_HELP, Level, Objective
from cribcli.record.log import (
    ACTIONS_LIMIT,
    CLOCK_LIMITS,
    COMMAND_LIMIT,
    EARLIER_LIMIT,
    LOG_LIMIT,
    NAME_LIMIT,
    READS,
    REASON_LIMIT,
    TAKEBACKS_LIMIT,
    TEXT_LIMIT,
    GameInfo,
    GameLog,
    LogError,
    PlayerKind,
    Result,
    RoundRecord,
    Seat,
)
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.engine import (
    Claim,
    Rules,
    ShownDeal,
)
from cribcli.rules.errors import CribbageError
from cribcli.rules.events import (
    Skunk,
)
from cribcli.rules.scoring import KEPT_SIZE

_NESTING_LIMIT = 8
_DOTS_LIMIT = 8


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
        commitment=_digest(doc, "commitment"),
        clock=_clock(doc),
        timeouts=_timeouts(doc),
        earlier=_earlier(doc, rules),
        tournament=_digest(doc, "tournament"),
    )
    return GameLog(info, rounds, result, fmt)


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


def _digest(doc: dict[str, Any], key: str) -> str | None:
    """An optional digest of the log's top (``commitment``, ``tournament``)."""
    value = doc.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not _DIGEST.fullmatch(value):
        raise LogError(f"the log: `{key}` is `sha256:` and 64 hexadecimal digits")
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
    plays = [play_entry(entry, where) for entry in entries]
    starter = read_cards(_field(doc, "starter", str, where), where)
    if len(starter) != 1 or any(card is None for _, card in plays):
        raise LogError(f"{wrong} (one starter, and a card for each play)")
    deal = ShownDeal(
        dealer=_field(doc, "dealer", int, where),
        starter=starter[0],
        kept=tuple(tuple(read_cards(cards, where)) for cards in kept),
        crib=tuple(read_cards(_field(doc, "crib", str, where), where)),
        plays=tuple((seat, card) for seat, card in plays if card is not None),
        thrown=tuple(tuple(read_cards(cards, where)) for cards in thrown),
    )
    problem = deal.problem(rules)
    if problem:
        raise LogError(f"{wrong} ({problem})")
    return deal


def _takebacks(doc: dict[str, Any]) -> int:
    value = doc.get("takebacks", 0)
    if type(value) is not int or not 0 <= value <= TAKEBACKS_LIMIT:
        raise LogError(f"the log: `takebacks` is a number from 0 to {TAKEBACKS_LIMIT}")
    return value


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


def read_cards(text: str, where: str) -> list[Card]:
    try:
        return parse_cards(text)
    except CribbageError as error:
        raise LogError(f"{where}: {error}") from None


def play_entry(entry: str, where: str) -> tuple[int, Card | None]:
    """A play entry ``0 5H`` or ``1 go``: the seat and the card (None for a go)."""
    parts = entry.split()
    if len(parts) != 2 or not (parts[0].isascii() and parts[0].isdigit()):
        raise LogError(f"{where}: a play is a seat number and a card or `go`, e.g. `0 5H`")
    if parts[1].lower() == "go":
        return int(parts[0]), None
    return int(parts[0]), read_cards(parts[1], where)[0]


def claim_entry(entry: str, where: str) -> Claim:
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
