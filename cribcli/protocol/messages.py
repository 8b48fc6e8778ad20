"""The engine protocol's messages: what a seat is told, and reading what it answers.

A program at the table (an *engine*) reads one JSON object a line and answers the
decisions with one; docs/engine-protocol.md describes it for people who write them. This
module owns the messages' shape, and nothing else: no processes, no clock (those are
:mod:`cribcli.protocol.referee`). A seat is told only what its :class:`View` holds, and the
events as that seat saw them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, assert_never

from cribcli.players.base import Level
from cribcli.record.log import EARLIER_LIMIT, NAME_LIMIT, GameInfo, carried
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.engine import Discard, Phase, Play, Rules, ShownDeal, View
from cribcli.rules.errors import CribbageError, printable
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
    StarterCut,
    event_json,
)
from cribcli.rules.scoring import KEPT_SIZE

PROTOCOL = 1
"""The version of the protocol this code speaks."""


class ProtocolError(CribbageError):
    """An answer that breaks the protocol: the message says what was wrong with it."""


def view_json(seen: View) -> dict[str, object]:
    """What a seat sees when it must decide, for a program: its seat, the round and the
    dealer, the scores by side, its cards (and those it can lay), the count and the pile
    of this count, the starter once cut, and at the discard how many cards to throw."""
    return {
        "seat": seen.seat,
        "round": seen.round,
        "dealer": seen.dealer,
        "scores": list(seen.scores),
        "hand": _cards(sorted(seen.hand)),
        "playable": _cards(sorted(seen.playable())) if seen.phase is Phase.PLAY else [],
        "count": seen.count,
        "pile": _cards(seen.pile),
        "starter": str(seen.starter) if seen.starter else None,
        **({"throw": seen.rules.discard_size} if seen.phase is Phase.DISCARD else {}),
    }


def public_event(event: Event, seat: int) -> dict[str, object]:
    """An event as ``seat`` saw it: another seat's dealt cards as their number, another
    seat's discard and the crib's card from the deck without their cards."""
    data = event_json(event)
    match event:
        case Dealt():
            data["hands"] = [
                _cards(hand) if n == seat else len(hand) for n, hand in enumerate(event.hands)
            ]
        case Discarded() if event.seat != seat:
            del data["cards"]
        case CribFromDeck():
            del data["card"]
        case (
            DealerCut() | Discarded() | StarterCut() | Played() | SaidGo() | CountRestarted()
            | Pegged() | Shown() | RoundEnded() | GameOver()
        ):  # fmt: skip
            pass  # seen by every seat as it is
        case _:
            assert_never(event)
    return data


def hello() -> dict[str, object]:
    """The referee's first message."""
    return {"type": "hello", "protocol": PROTOCOL}


def new_game(
    info: GameInfo, seat: int, shown: tuple[ShownDeal, ...] | None = None
) -> dict[str, object]:
    """A new game begins: the rules, the engine's seat and the seats' names (never the
    seed, which would give away every card), and the deals shown before (``earlier``, if
    any), as the engine's seat saw them: ``shown`` (a game carried on: those of this game
    so far too), else the games' before this one (:attr:`GameInfo.earlier`)."""
    rules = info.rules
    shown = info.earlier if shown is None else shown
    earlier = [deal_json(deal.seen_by(seat)) for deal in carried(shown)]
    return {
        "type": "new_game",
        "seat": seat,
        "rules": {
            "players": rules.players,
            "target": rules.target,
            "hand_size": rules.dealt_size,
            "throw": rules.discard_size,
            "muggins": rules.muggins,
        },
        "names": [seated.name for seated in info.seats],
        **({"earlier": earlier} if earlier else {}),
    }


def deal_json(deal: ShownDeal) -> dict[str, object]:
    """A deal shown, for a program: its dealer, starter, each seat's four cards, the crib,
    each card laid with its seat, and each seat's throw (only its own, if it is told)."""
    return {
        "dealer": deal.dealer,
        "starter": deal.starter.ascii(),
        "kept": [_cards(kept) for kept in deal.kept],
        "crib": _cards(deal.crib),
        "plays": [[seat, card.ascii()] for seat, card in deal.plays],
        "thrown": [_cards(thrown) for thrown in deal.thrown],
    }


def earlier_from(message: dict[str, Any], rules: Rules, seat: int) -> tuple[ShownDeal, ...]:
    """The earlier deals a ``new_game`` gives the engine in ``seat``, the last
    :data:`~cribcli.record.log.EARLIER_LIMIT`, as its seat saw them (a deal that is not one
    under ``rules``, or that cannot be read, left out)."""
    told = message.get("earlier")
    deals: list[ShownDeal] = []
    size, throw, laid = KEPT_SIZE, rules.discard_size, KEPT_SIZE * rules.players
    for data in told[-EARLIER_LIMIT:] if isinstance(told, list) else ():
        try:
            deal = ShownDeal(
                dealer=int(data["dealer"]),
                starter=Card.parse(str(data["starter"])),
                kept=tuple(tuple(parse_cards(k[:size])) for k in data["kept"][: rules.players]),
                crib=tuple(parse_cards(data["crib"][:size])),
                plays=tuple((int(s), Card.parse(str(card))) for s, card in data["plays"][:laid]),
                thrown=tuple(
                    tuple(parse_cards(t[:throw])) for t in data["thrown"][: rules.players]
                ),
            ).seen_by(seat)
        except (KeyError, TypeError, ValueError, ArithmeticError, IndexError, CribbageError):
            continue
        if deal.problem(rules, seen_by=seat) is None:
            deals.append(deal)
    return tuple(deals)


def told(event: Event, seat: int) -> dict[str, object]:
    """An event of the game, as the engine's seat saw it."""
    return {"type": "event", **public_event(event, seat)}


def decision(seen: View) -> dict[str, object]:
    """The seat must throw (``discard``) or lay (``play``): everything it may know."""
    kind = "discard" if seen.phase is Phase.DISCARD else "play"
    data: dict[str, object] = {"type": kind, **view_json(seen)}
    data["held"] = list(seen.held)
    data["plays"] = [[seat, card.ascii()] for seat, card in seen.plays]
    data["gos"] = [[seat, count] for seat, count in seen.gos]
    data["passed"] = sorted(seen.passed)
    if kind == "play":
        data["kept"] = _cards(sorted(seen.kept))
        data["discards"] = _cards(sorted(seen.discards))
    return data


def rules_from(message: dict[str, Any]) -> Rules:
    """The rules told in a ``new_game`` message (the engine's side). Raises ProtocolError."""
    told_rules = message.get("rules")
    if not isinstance(told_rules, dict):
        raise ProtocolError("a new_game message gives the `rules`")
    players, target = told_rules.get("players"), told_rules.get("target")
    if not isinstance(players, int) or not isinstance(target, int):
        raise ProtocolError("the rules give `players` and `target` as numbers")
    try:
        return Rules(
            players=players,
            target=target,
            cut_for_deal=players > 2,
            first_dealer=0,
            muggins=told_rules.get("muggins") is True,
        )
    except CribbageError as error:
        raise ProtocolError(f"the rules: {error}") from None


def view_from(message: dict[str, Any], rules: Rules) -> View:
    """The view a :func:`decision` message was made from (the engine's side: for a
    player that takes a :class:`View`). Raises ProtocolError for a message that is not
    one."""
    try:
        kind = message["type"]
        seat = int(message["seat"])
        seen = View(
            seat=seat,
            rules=rules,
            round=int(message["round"]),
            dealer=int(message["dealer"]),
            phase=Phase.DISCARD if kind == "discard" else Phase.PLAY,
            scores=tuple(int(score) for score in message["scores"]),
            hand=tuple(parse_cards(message["hand"])),
            discards=tuple(parse_cards(message.get("discards", []))),
            kept=tuple(parse_cards(message.get("kept", []))),
            held=tuple(int(n) for n in message["held"]),
            starter=parse_cards(message["starter"])[0] if message["starter"] else None,
            pile=tuple(parse_cards(message["pile"])),
            plays=tuple((int(n), parse_cards([card])[0]) for n, card in message["plays"]),
            gos=tuple((int(n), int(count)) for n, count in message["gos"]),
            passed=frozenset(int(n) for n in message["passed"]),
            to_play=seat if kind == "play" else None,
        )
    except (KeyError, TypeError, ValueError, IndexError, CribbageError) as error:
        raise ProtocolError(f"not a decision the protocol gives ({error})") from None
    if not 0 <= seat < rules.players:
        raise ProtocolError(f"not a decision the protocol gives (no seat {seat})")
    if kind == "play" and not seen.playable():
        raise ProtocolError("a play was asked for with no card that can be laid")
    if kind == "discard" and len(seen.hand) <= rules.discard_size:
        raise ProtocolError(f"a discard was asked for from {len(seen.hand)} cards")
    return seen


def quit_message() -> dict[str, object]:
    """The referee is done with the engine: it should exit."""
    return {"type": "quit"}


def encode(message: dict[str, object]) -> bytes:
    """A message as the line sent."""
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def read_hello(line: str) -> tuple[str, str]:
    """The engine's hello: its name and author. Raises ProtocolError."""
    data = _object(line)
    if data.get("type") != "hello":
        raise ProtocolError(f"said {quoted(line)} where a hello was awaited")
    version = data.get("protocol")
    if version != PROTOCOL or isinstance(version, bool):
        raise ProtocolError(f"speaks protocol {quoted(str(version))}, not {PROTOCOL}")
    name, author = data.get("name"), data.get("author", "")
    if not isinstance(name, str) or not isinstance(author, str) or not _short(name):
        raise ProtocolError("a hello gives a `name` (and an `author`) as printable text")
    return _short(name), _short(author)


def read_answer(line: str, seen: View) -> Discard | Play:
    """The engine's answer to :func:`decision`, checked against what it could do. Raises
    ProtocolError saying what was wrong."""
    data = _object(line)
    if seen.phase is Phase.DISCARD:
        size = seen.rules.discard_size
        given = data.get("cards")
        if not isinstance(given, list) or not all(isinstance(card, str) for card in given):
            raise ProtocolError(f'answered {quoted(line)}: a discard is {{"cards": [...]}}')
        thrown = [_card(text, line) for text in given]
        if len(thrown) != size or len(set(thrown)) != size:
            raise ProtocolError(f"answered {quoted(line)}: throw {size} different cards")
        for card in thrown:
            if card not in seen.hand:
                raise ProtocolError(f"answered {quoted(line)}: {card.ascii()} is not held")
        return Discard(seen.seat, tuple(thrown))
    given_card = data.get("card")
    if not isinstance(given_card, str):
        raise ProtocolError(f'answered {quoted(line)}: a play is {{"card": "5H"}}')
    card = _card(given_card, line)
    if card not in seen.playable():
        why = "is not held" if card not in seen.hand else f"would pass 31 from {seen.count}"
        raise ProtocolError(f"answered {quoted(line)}: {card.ascii()} {why}")
    return Play(seen.seat, card)


def clean(text: str, limit: int) -> str:
    """Text a program wrote, safe to keep and print (see :func:`printable`), cut to
    ``limit`` characters."""
    safe = printable(text)
    return safe if len(safe) <= limit else safe[: limit - 1] + "…"


def quoted(text: str, limit: int = 60) -> str:
    """Text a program wrote, quoted in a reason: ```{"card": "9Z"}```."""
    return f"`{clean(text, limit)}`"


def _object(line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise ProtocolError(f"answered {quoted(line)}: not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"answered {quoted(line)}: not a JSON object")
    return data


def _card(text: str, line: str) -> Card:
    try:
        cards = parse_cards(text)
    except CribbageError:
        cards = []
    if len(cards) != 1:
        raise ProtocolError(f"answered {quoted(line)}: {quoted(text, 12)} is not a card")
    return cards[0]


def _cards(cards: Iterable[Card]) -> list[str]:
    return [card.ascii() for card in cards]


def _short(text: str) -> str:
    """A name or author an engine gave: its printable characters, cut to a seat name's
    length."""
    return "".join(ch for ch in text if ch.isprintable()).strip()[:NAME_LIMIT].strip()


PAST_LIMIT = 64
"""The most deals shown an engine keeps (a game to 121 has about twenty)."""


class Shows:
    """The deals shown so far in a game, as an engine's seat heard them (the events the
    referee tells it: who dealt, its own throw, the starter, each card laid, each hand
    and the crib counted), for its view's :attr:`~cribcli.rules.engine.View.past`. What it is
    told is checked as it is read: a deal any of whose parts it cannot read is left out."""

    def __init__(self, seat: int, rules: Rules, earlier: tuple[ShownDeal, ...] = ()) -> None:
        self.seat, self.rules = seat, rules
        self.past = earlier[-PAST_LIMIT:]
        self._begin(-1)

    @property
    def players(self) -> int:
        return self.rules.players

    def _begin(self, dealer: int) -> None:
        self.dealer = dealer
        self.thrown: tuple[Card, ...] = ()
        self.starter: Card | None = None
        self.plays: list[tuple[int, Card]] = []
        self.kept: dict[int, tuple[Card, ...]] = {}
        self.crib: tuple[Card, ...] = ()

    def hear(self, data: dict[str, Any]) -> None:
        """One event message."""
        try:
            self._hear(data)
        except (KeyError, TypeError, ValueError, ArithmeticError, IndexError, CribbageError):
            self._begin(-1)  # (this deal is not known in full)

    def _hear(self, data: dict[str, Any]) -> None:
        match data.get("event"):
            case "dealt":
                self._begin(int(data["dealer"]))
            case "discarded" if data["seat"] == self.seat:
                self.thrown = tuple(parse_cards(data["cards"][:2]))
            case "starter_cut":
                self.starter = parse_cards([data["starter"]])[0]
            case "played" if len(self.plays) < 4 * self.players:
                self.plays.append((int(data["seat"]), parse_cards([data["card"]])[0]))
            case "shown" if data["show"]["crib"] is True:
                self.crib = tuple(parse_cards(data["show"]["cards"][:4]))
            case "shown":
                self.kept[int(data["seat"])] = tuple(parse_cards(data["show"]["cards"][:4]))
            case "round_ended":
                seats = range(self.players)
                whole = self.starter and len(self.crib) == 4 and set(self.kept) == set(seats)
                if whole and 0 <= self.dealer < self.players:
                    assert self.starter is not None
                    deal = ShownDeal(
                        dealer=self.dealer,
                        starter=self.starter,
                        kept=tuple(self.kept[seat] for seat in seats),
                        crib=self.crib,
                        plays=tuple(self.plays),
                        thrown=tuple(self.thrown if s == self.seat else () for s in seats),
                    )
                    if deal.problem(self.rules, seen_by=self.seat) is None:
                        self.past = (*self.past, deal)[-PAST_LIMIT:]
                self._begin(-1)


def serve(
    level: str,
    seed: int | str,
    lines: Iterable[str],
    write: Callable[[str], None],
    objective: str = "win",
) -> None:
    """The engine's side, for a computer level (``cribbage engine``) playing for
    ``objective``: answer the hello, each game's decisions, until ``quit`` or the end of
    the lines. Messages of a type it does not know are passed over, as every engine
    should. Raises ProtocolError for a line that is not a message."""
    from cribcli.players import Objective, computer

    rules: Rules | None = None
    player = None
    shows: Shows | None = None
    games = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            raise ProtocolError(f"the referee said {quoted(line)}: not JSON") from None
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "hello":
            name = f"cribcli {known.label}" if (known := Level.parse(level)) else "cribcli"
            write(
                json.dumps(
                    {"type": "hello", "name": name, "author": "cribcli", "protocol": PROTOCOL}
                )
            )
        elif kind == "new_game":
            rules = rules_from(message)
            seat = message.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < rules.players:
                raise ProtocolError(
                    f"a new_game gives the engine's `seat`, 0 to {rules.players - 1}"
                )
            player = computer(level, f"{seed}/game {games}", seat, Objective(objective))
            shows = Shows(seat, rules, earlier_from(message, rules, seat))
            games += 1
        elif kind == "event" and shows is not None:
            shows.hear(message)
        elif kind in ("discard", "play"):
            if rules is None or player is None:
                raise ProtocolError(f"the referee asked for a {kind} before a new_game")
            seen = view_from(message, rules)
            if shows is not None:
                seen = replace(seen, past=shows.past)
            if kind == "discard":
                write(json.dumps({"cards": _cards(player.discard(seen))}))
            else:
                write(json.dumps({"card": player.play(seen).ascii()}))
        elif kind == "quit":
            return
