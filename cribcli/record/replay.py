"""Replaying a game log: its recorded actions folded through the engine again, checking
that every card dealt, every card laid, every go and every point it records is what the
rules give; and checking that its deals are its seed's (``cribbage verify``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from cribcli.record.log import (
    PROMISED_FROM,
    GameInfo,
    GameLog,
    LogError,
    RoundRecord,
    begin,
    point_text,
)
from cribcli.record.reader import claim_entry, play_entry, read_cards
from cribcli.rules.cards import format_cards
from cribcli.rules.engine import (
    Action,
    Discard,
    Forfeit,
    Phase,
    Play,
    State,
    apply,
    deal_from,
    first_dealer,
)
from cribcli.rules.errors import CribbageError, UsageProblem
from cribcli.rules.events import (
    CribFromDeck,
    Dealt,
    Event,
    GameOver,
    Pegged,
    Played,
    RoundEnded,
    SaidGo,
    Shown,
    StarterCut,
)
from cribcli.rules.stream import seed_digest

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
            said = [format_cards(read_cards(hand, where)) for hand in record.dealt]
            _expect(where, "the deal is", said, [format_cards(hand) for hand in state.dealt])
        discards = list(record.discards) + [""] * (players - len(record.discards))
        for step in range(1, players + 1):
            seat = (state.dealer + step) % players
            if discards[seat].strip():
                here = f"{where}, seat {seat}'s discard"
                action: Action = Discard(seat, tuple(read_cards(discards[seat], here)))
                state = _apply(state, action, here, result)
        for number, entry in enumerate(record.plays, start=1):
            here = f"{where}, play {number} (`{entry}`)"
            seat, card = play_entry(entry, here)
            if card is None:
                continue  # the rules say go by themselves: checked against them below
            if state.phase is Phase.OVER or state.round != record.round:
                over = "game" if state.phase is Phase.OVER else "round"
                raise LogError(f"{here}: the {over} was already over")
            state = _apply(state, Play(seat, card), here, result)
        for number, entry in enumerate(record.claims, start=1):
            here = f"{where}, claim {number} (`{entry}`)"
            state = _apply(state, claim_entry(entry, here), here, result)
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
        seat, card = play_entry(entry, f"{where}, play {number} (`{entry}`)")
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
    return None if text is None else format_cards(read_cards(text, where))


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


class Verdict(NamedTuple):
    """What ``cribbage verify`` finds of a finished game's log."""

    differences: list[str]
    """What differs from the seed's deal (or the rules), each in a line."""
    promised: bool
    """Whether the log records the promise shown before the first card."""

    @property
    def fair(self) -> bool | None:
        """True: every card is the promised seed's; False: something differs, or a log
        that must record the promise has lost it; None: it cannot be checked (a log from
        before games promised their deal, its cards the seed's: the seed could have been
        chosen after the deal)."""
        if self.differences:
            return False
        return True if self.promised else None


def verify(log: GameLog) -> Verdict:
    """Whether a finished game's deals are its seed's, the seed the one promised before
    the first card: the seed's digest against the promise; every card dealt, the crib's
    card at three and each starter, dealt again from the seed; then, if the cards are the
    seed's, the rest of the game through the rules (:func:`replay`). A log of a format that
    records the promise (:data:`PROMISED_FROM`) and has none is not fair: whoever dealt
    could have chosen the seed. Raises CribbageError for a game not over: its seed says
    every card still to come."""
    info = log.info
    if log.result is None:
        raise CribbageError(
            "the game is not over: only a finished game is checked (until it ends, its "
            "seed is the cards still to come)"
        )
    found = []
    digest = seed_digest(info.seed)
    if info.commitment is None and log.format >= PROMISED_FROM:
        found.append(
            f"the log records no promise of its deal, but its format ({log.format}) always "
            "does: the seed could have been chosen after the deal"
        )
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
    return Verdict(found, info.commitment is not None)


def _deal_differences(record: RoundRecord, info: GameInfo) -> list[str]:
    """Round ``record``'s cards against the seed's deal for it."""
    where = f"round {record.round}"
    rules = info.rules
    if not 0 <= record.dealer < rules.players:
        return [f"{where}: there is no seat {record.dealer} to deal"]
    hands, deck = deal_from(info.seed, record.round, record.dealer, rules)
    found = []
    for seat, (said, dealt) in enumerate(zip(record.dealt or (), hands, strict=False)):
        if read_cards(said, where) != list(dealt):
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
