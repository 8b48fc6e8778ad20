"""The rules engine: immutable game state, legal actions, and ``apply``.

A game is its seed, its rules and the actions taken. :func:`new_game` cuts for deal (if
the rules say so) and deals the first round from the seed; :func:`apply` takes one action
(a discard or a card laid) and returns the new state and what happened, running on by
itself through everything that needs no decision: saying go, the go point, the count
starting again, the starter, the show, the next deal. Seats sit clockwise, numbered from
0; the seat after the dealer (to the dealer's left) is the pone and leads.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from itertools import combinations
from typing import TypeVar

from cribcli.rules.cards import JACK, Card, format_cards, shuffled_deck
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
from cribcli.rules.scoring import (
    COUNT_LIMIT,
    HEELS_POINTS,
    KEPT_SIZE,
    MAX_SHOW,
    PegItem,
    PegKind,
    ShowScore,
    count_of,
    go_point,
    peg_points,
    score_show,
)
from cribcli.rules.targets import FULL_GAME, SHORT_GAME, TARGETS

T = TypeVar("T")


class IllegalAction(CribbageError):
    """An action the rules do not allow now. The state is left as it was."""


SKUNK_MARGIN = 30
"""A side still this many points or more short of the target when the other wins is
skunked (under 91 of 121, under 31 of 61)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """How a game is played: players (2, 3 or 4), target (121 or 61), who deals first.

    With ``cut_for_deal`` the seats cut and the low card deals; otherwise ``first_dealer``
    deals first (in the two-player game against the computer, the computer). Three and
    four players always cut. With four, seats 0 and 2 are partners against 1 and 3.
    """

    players: int = 2
    target: int = FULL_GAME
    cut_for_deal: bool = False
    first_dealer: int = 1
    muggins: bool = False
    """Players count their own hands and crib; points they miss go to an opponent."""

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise CribbageError(f"cribbage is for 2, 3 or 4 players, not {self.players}")
        if self.target not in TARGETS:
            raise CribbageError(
                f"a game is played to {FULL_GAME} or {SHORT_GAME}, not {self.target}"
            )
        if self.players > 2 and not self.cut_for_deal:
            raise CribbageError("with three or four players the first deal is cut for")
        if not 0 <= self.first_dealer < self.players:
            raise CribbageError(f"there is no seat {self.first_dealer} to deal first")

    @property
    def dealt_size(self) -> int:
        """Cards dealt to each seat: six with two players, five with three or four."""
        return 6 if self.players == 2 else 5

    @property
    def discard_size(self) -> int:
        """Cards each seat puts in the crib: two with two players, one with three or four."""
        return 2 if self.players == 2 else 1

    @property
    def sides(self) -> int:
        """Scores kept: one per seat, or one per partnership with four players."""
        return 2 if self.players == 4 else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for."""
        return seat % self.sides

    @property
    def skunk_line(self) -> int:
        """The first score that is not a skunk: 91 to 121, 31 to 61."""
        return self.target - SKUNK_MARGIN

    def skunk(self, score: int) -> Skunk:
        """What a losing score is: "double skunk", "skunk" or "" (to 121: 60 / 90; to 61: 30)."""
        if score >= self.skunk_line:
            return ""
        return "double skunk" if self.target == FULL_GAME and score <= 60 else "skunk"


class Phase(Enum):
    """Where a round stands."""

    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"
    """Only under muggins: the show waits for each owner's count."""
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Discard:
    """A seat puts cards in the crib."""

    seat: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"seat {self.seat} discards {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Play:
    """A seat lays a card in the play."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


@dataclass(frozen=True, slots=True)
class Claim:
    """Under muggins: a seat says what its hand (or crib) is worth."""

    seat: int
    points: int

    def __str__(self) -> str:
        return f"seat {self.seat} claims {self.points}"


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A seat gives the game up when the game waits for its decision (a discard or a card
    to lay): a program at the table that broke the rules, answered nothing that could be
    read, stopped, or ran out of time. The game ends at once, won by the side with the
    most points of the others (with three, the first of them after the seat on a tie)."""

    seat: int
    reason: str

    def __str__(self) -> str:
        return f"seat {self.seat} forfeits ({self.reason})"


Action = Discard | Play | Claim | Forfeit


@dataclass(frozen=True, slots=True)
class ShownDeal:
    """A deal played to its show, as the table saw it: the hands and the crib are laid
    face up to be counted, and every card laid in the play was seen. ``thrown`` is what
    each seat put in the crib: in the :class:`State`, every seat's; in a :class:`View`,
    only the viewing seat's own (the others' are empty: which of the crib's cards came
    from whom is not shown, though with two players each side can work it out)."""

    dealer: int
    starter: Card
    kept: tuple[tuple[Card, ...], ...]
    """Each seat's four cards, as shown."""
    crib: tuple[Card, ...]
    plays: tuple[tuple[int, Card], ...]
    """Every card laid in the play, in order, with its seat."""
    thrown: tuple[tuple[Card, ...], ...]

    def seen_by(self, seat: int) -> ShownDeal:
        """The deal as ``seat`` knows it: its own throw, no other's."""
        return replace(
            self, thrown=tuple(t if s == seat else () for s, t in enumerate(self.thrown))
        )

    def problem(self, rules: Rules, seen_by: int | None = None) -> str | None:
        """What makes this no deal of a game under ``rules`` (None: it could be one), as
        the table saw it (every seat's throw), or as the seat ``seen_by`` saw it (its own
        throw, no other's): a deal read from a file or told by another program is checked
        before it is used."""
        players = range(rules.players)
        if self.dealer not in players:
            return f"the dealer is seat 0 to {rules.players - 1}"
        if len(self.kept) != rules.players or any(len(k) != KEPT_SIZE for k in self.kept):
            return f"each of the {rules.players} seats shows {KEPT_SIZE} cards"
        if len(self.crib) != KEPT_SIZE:
            return f"the crib is {KEPT_SIZE} cards"
        shown = [self.starter, *self.crib, *(card for kept in self.kept for card in kept)]
        if len(set(shown)) != len(shown):
            return "a card is shown twice"
        told = players if seen_by is None else (seen_by,)
        thrown = [card for seat in told for card in self.thrown[seat]] if self.thrown else []
        if (
            len(self.thrown) != rules.players
            or any(len(self.thrown[seat]) != rules.discard_size for seat in told)
            or any(self.thrown[seat] for seat in players if seat not in told)
            or len(set(thrown)) != len(thrown)
            or not set(thrown) <= set(self.crib)
        ):
            return f"each seat's throw (as it is told) is {rules.discard_size} of the crib's cards"
        laid = [card for _, card in self.plays]
        if len(set(laid)) != len(laid) or any(
            seat not in players or card not in self.kept[seat] for seat, card in self.plays
        ):
            return "a card laid is one its seat kept, laid once"
        return None


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a game at one moment, hidden cards included. Never mutated."""

    rules: Rules
    seed: int | str
    round: int
    dealer: int
    phase: Phase
    scores: tuple[int, ...]
    deck: tuple[Card, ...]
    """This round's shuffled deck, in order (the top cards were dealt)."""
    dealt: tuple[tuple[Card, ...], ...]
    hands: tuple[tuple[Card, ...], ...]
    """The cards each seat still holds: all it was dealt, then those it has not laid."""
    discards: tuple[tuple[Card, ...] | None, ...]
    crib: tuple[Card, ...] = ()
    starter: Card | None = None
    pile: tuple[Card, ...] = ()
    """The cards laid since the count last started from 0."""
    plays: tuple[tuple[int, Card], ...] = ()
    """Every card laid this round, in order, with its seat."""
    gos: tuple[tuple[int, int], ...] = ()
    """Every go said this round: (seat, the count it could not play on)."""
    passed: frozenset[int] = field(default_factory=frozenset)
    """Seats out of the current count: they said go."""
    to_play: int | None = None
    last_player: int | None = None
    winner: int | None = None
    shown: int = 0
    """Under muggins: how many of the round's hands (then the crib) have been counted."""
    past: tuple[ShownDeal, ...] = ()
    """The deals played to their show, in order: those of the games these seats played
    before this one that it carries (``earlier``, in :func:`new_game`), then this game's."""

    @property
    def count(self) -> int:
        """The running total of the current count."""
        return count_of(self.pile)

    def kept(self, seat: int) -> tuple[Card, ...]:
        """The cards a seat keeps for the show (known once it has discarded)."""
        thrown = self.discards[seat] or ()
        return tuple(card for card in self.dealt[seat] if card not in thrown)


# --- starting a game and a round ------------------------------------------------------


def new_game(
    rules: Rules, seed: int | str, earlier: tuple[ShownDeal, ...] = ()
) -> tuple[State, list[Event]]:
    """A new game from a seed: the cut for deal if the rules want one, and the first deal.
    ``earlier``: the deals these seats showed in the games before this one (a match's, a
    table's), the start of the game's :attr:`State.past`."""
    events: list[Event] = []
    dealer = rules.first_dealer
    if rules.cut_for_deal:
        dealer = _cut_for_deal(rules, seed, events)
    empty: tuple[tuple[Card, ...], ...] = ((),) * rules.players
    state = State(
        rules=rules,
        seed=seed,
        round=0,
        dealer=dealer,
        phase=Phase.DISCARD,
        scores=(0,) * rules.sides,
        deck=(),
        dealt=empty,
        hands=empty,
        discards=(None,) * rules.players,
        past=earlier,
    )
    return _deal(state, dealer, events), events


def _cut_for_deal(rules: Rules, seed: int | str, events: list[Event]) -> int:
    """Each seat cuts a card; the lowest deals; seats tied for lowest cut again."""
    cutting = list(range(rules.players))
    cuts: list[tuple[int, Card]] = []
    attempt = 0
    while True:
        attempt += 1
        cards = shuffled_deck(seed, f"cut {attempt}")
        drawn = list(zip(cutting, cards, strict=False))
        cuts.extend(drawn)
        low = min(card.rank for _, card in drawn)
        cutting = [seat for seat, card in drawn if card.rank == low]
        if len(cutting) == 1:
            events.append(DealerCut(tuple(cuts), cutting[0]))
            return cutting[0]


def deal_from(
    seed: int | str, number: int, dealer: int, rules: Rules
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Round ``number``'s deal from the seed: its deck shuffled, dealt one card at a time
    from the dealer's left. Each seat's cards, and the deck as shuffled (the rest of it
    gives the crib's card at three and the starter)."""
    cards = tuple(shuffled_deck(seed, f"round {number}"))
    players = rules.players
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(rules.dealt_size * players):
        hands[(dealer + 1 + i) % players].append(cards[i])
    return tuple(tuple(hand) for hand in hands), cards


def first_dealer(rules: Rules, seed: int | str) -> int:
    """Who deals first: by the cut for deal from the seed, or as the rules fix it."""
    return _cut_for_deal(rules, seed, []) if rules.cut_for_deal else rules.first_dealer


def _deal(state: State, dealer: int, events: list[Event]) -> State:
    """Shuffle the round's deck from the seed; deal one card at a time from the dealer's left."""
    number = state.round + 1
    dealt, cards = deal_from(state.seed, number, dealer, state.rules)
    players = state.rules.players
    events.append(Dealt(number, dealer, dealt))
    return replace(
        state,
        round=number,
        dealer=dealer,
        phase=Phase.DISCARD,
        deck=cards,
        dealt=dealt,
        hands=dealt,
        discards=(None,) * players,
        crib=(),
        starter=None,
        pile=(),
        plays=(),
        gos=(),
        passed=frozenset(),
        to_play=None,
        last_player=None,
        shown=0,
    )


# --- what may be done -------------------------------------------------------------------


def seats_to_act(state: State) -> tuple[int, ...]:
    """The seats the game waits for: those yet to discard (from the dealer's left), or the
    seat to play."""
    if state.phase is Phase.DISCARD:
        players = state.rules.players
        order = ((state.dealer + step) % players for step in range(1, players + 1))
        return tuple(seat for seat in order if state.discards[seat] is None)
    if state.phase is Phase.PLAY and state.to_play is not None:
        return (state.to_play,)
    if state.phase is Phase.SHOW:
        return (show_seat(state),)
    return ()


def show_seat(state: State) -> int:
    """Under muggins: whose count the show waits for (the crib's is the dealer's)."""
    players = state.rules.players
    if state.shown >= players:
        return state.dealer
    return (state.dealer + 1 + state.shown) % players


def showing(state: State) -> ShowScore:
    """The hand (or crib) the show is counting now, with the starter."""
    assert state.starter is not None
    if state.shown >= state.rules.players:
        return score_show(state.crib, state.starter, crib=True)
    return score_show(state.kept(show_seat(state)), state.starter)


def playable(hand: tuple[Card, ...], count: int) -> tuple[Card, ...]:
    """The cards of a hand that can be laid without taking the count past 31."""
    return tuple(card for card in hand if count + card.value <= COUNT_LIMIT)


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """Every action the rules allow now (for one seat, if given)."""
    seats = seats_to_act(state)
    if seat is not None:
        seats = tuple(s for s in seats if s == seat)
    actions: list[Action] = []
    for s in seats:
        if state.phase is Phase.DISCARD:
            size = state.rules.discard_size
            actions.extend(Discard(s, combo) for combo in combinations(state.hands[s], size))
        elif state.phase is Phase.SHOW:
            actions.extend(Claim(s, points) for points in range(MAX_SHOW + 1))
        else:
            actions.extend(Play(s, card) for card in playable(state.hands[s], state.count))
    return actions


def check(state: State, action: Action) -> None:
    """Raise IllegalAction, with a reason a player reads, unless ``action`` is legal now."""
    if state.phase is Phase.OVER:
        raise IllegalAction("the game is over")
    if not 0 <= action.seat < state.rules.players:
        raise IllegalAction(f"there is no seat {action.seat}")
    if isinstance(action, Forfeit):
        if state.phase not in (Phase.DISCARD, Phase.PLAY) or action.seat not in seats_to_act(state):
            raise IllegalAction("a seat forfeits only when the game waits for its decision")
        return
    hand = state.hands[action.seat]
    if isinstance(action, Claim):
        if state.phase is not Phase.SHOW:
            raise IllegalAction("there is nothing to count now")
        if action.seat != show_seat(state):
            raise IllegalAction("it is not your count")
        if not 0 <= action.points <= MAX_SHOW:
            raise IllegalAction(f"a hand scores from 0 to {MAX_SHOW}, not {action.points}")
        return
    if isinstance(action, Discard):
        if state.phase is not Phase.DISCARD:
            raise IllegalAction("the discard is over: it is time to play")
        if state.discards[action.seat] is not None:
            raise IllegalAction("you have already put your cards in the crib")
        size = state.rules.discard_size
        if len(action.cards) != size:
            raise IllegalAction(
                f"put {size} card{'s' if size > 1 else ''} in the crib, not {len(action.cards)}"
            )
        if len(set(action.cards)) != len(action.cards):
            raise IllegalAction("the same card twice")
        for card in action.cards:
            if card not in hand:
                raise IllegalAction(f"{card} is not in your hand")
        return
    if state.phase is not Phase.PLAY:
        raise IllegalAction("it is not time to play: put your cards in the crib first")
    if state.to_play != action.seat:
        raise IllegalAction("it is not your turn")
    if action.card not in hand:
        raise IllegalAction(f"{action.card} is not in your hand")
    if state.count + action.card.value > COUNT_LIMIT:
        raise IllegalAction(
            f"{action.card} would take the count to {state.count + action.card.value}: "
            f"it can never pass {COUNT_LIMIT}"
        )


# --- doing it -----------------------------------------------------------------------------


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Take one action; return the new state and the events, in order.

    Everything that follows without a decision happens here too: the starter once the crib
    is full, gos, go points, the count restarting, the show, the next deal. Raises
    IllegalAction (and changes nothing) if the action is not legal now.
    """
    check(state, action)
    events: list[Event] = []
    if isinstance(action, Discard):
        state = _discard(state, action, events)
    elif isinstance(action, Claim):
        state = _claim(state, action, events)
    elif isinstance(action, Forfeit):
        state = _forfeit(state, action, events)
    else:
        state = _lay(state, action, events)
    return state, events


def _forfeit(state: State, action: Forfeit, events: list[Event]) -> State:
    rules, players = state.rules, state.rules.players
    gone = rules.side_of(action.seat)
    order = [rules.side_of((action.seat + step) % players) for step in range(1, players)]
    winner = max((side for side in order if side != gone), key=lambda side: state.scores[side])
    skunks: tuple[Skunk, ...] = tuple("" for _ in state.scores)
    events.append(GameOver(winner, state.scores, skunks, forfeit=action.seat, reason=action.reason))
    return replace(state, phase=Phase.OVER, winner=winner, to_play=None)


def _discard(state: State, action: Discard, events: list[Event]) -> State:
    seat = action.seat
    hands = _with(state.hands, seat, tuple(c for c in state.hands[seat] if c not in action.cards))
    discards = _with(state.discards, seat, action.cards)
    state = replace(state, hands=hands, discards=discards, crib=state.crib + action.cards)
    events.append(Discarded(seat, action.cards))
    if any(thrown is None for thrown in discards):
        return state
    # The crib is full but for the three-handed deck card; then the starter is cut.
    dealt_count = state.rules.dealt_size * state.rules.players
    rest = state.deck[dealt_count:]
    if len(state.crib) < KEPT_SIZE:
        events.append(CribFromDeck(rest[0]))
        state = replace(state, crib=state.crib + (rest[0],))
        rest = rest[1:]
    starter = rest[0]
    events.append(StarterCut(starter))
    state = replace(state, starter=starter, phase=Phase.PLAY, to_play=_left_of(state, state.dealer))
    if starter.rank == JACK:
        state = _peg(
            state, state.dealer, (PegItem(PegKind.HIS_HEELS, HEELS_POINTS, (starter,)),), events
        )
    return state


def _lay(state: State, action: Play, events: list[Event]) -> State:
    seat, card = action.seat, action.card
    hands = _with(state.hands, seat, tuple(c for c in state.hands[seat] if c != card))
    pile = state.pile + (card,)
    state = replace(
        state, hands=hands, pile=pile, plays=state.plays + ((seat, card),), last_player=seat
    )
    items = peg_points(pile)
    scores = _add(state, seat, sum(item.points for item in items))
    events.append(Played(seat, card, count_of(pile), items, scores))
    state = _maybe_won(replace(state, scores=scores), seat, events)
    if state.phase is Phase.OVER:
        return state
    if count_of(pile) == COUNT_LIMIT:
        return _end_count(state, events)
    return _next_turn(state, seat, events)


def _next_turn(state: State, last: int, events: list[Event]) -> State:
    """Find who plays next after ``last`` laid a card; seats that cannot play say go."""
    players = state.rules.players
    passed = set(state.passed)
    count = state.count
    for step in range(1, players + 1):
        seat = (last + step) % players
        if seat in passed or not state.hands[seat]:
            continue
        if playable(state.hands[seat], count):
            return replace(state, to_play=seat, passed=frozenset(passed))
        if seat != last:
            events.append(SaidGo(seat, count))
            passed.add(seat)
            state = replace(state, gos=state.gos + ((seat, count),))
    # Nobody can play on this count, not even the last to lay a card.
    return _end_count(replace(state, passed=frozenset(passed)), events)


def _end_count(state: State, events: list[Event]) -> State:
    """The count is over: the go (or last card) point, then a new count or the show."""
    assert state.last_player is not None
    last = state.last_player
    end_of_play = not any(state.hands)
    point = go_point(state.pile, end_of_play=end_of_play)
    if point is not None:
        state = _peg(state, last, (point,), events)
        if state.phase is Phase.OVER:
            return state
    if end_of_play:
        return _show(state, events)
    leader = _left_of(state, last)
    events.append(CountRestarted(leader))
    return replace(state, pile=(), passed=frozenset(), to_play=leader)


def _left_of(state: State, seat: int) -> int:
    """The next seat clockwise from ``seat`` that still holds cards (``seat`` itself last)."""
    players = state.rules.players
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if state.hands[candidate]:
            return candidate
    return (seat + 1) % players


def _show(state: State, events: list[Event]) -> State:
    """Count each hand from the dealer's left, the dealer last, then the crib."""
    starter = state.starter
    assert starter is not None
    state = replace(state, to_play=None, pile=())
    if state.rules.muggins:
        return replace(state, phase=Phase.SHOW, shown=0)
    players = state.rules.players
    for step in range(1, players + 1):
        seat = (state.dealer + step) % players
        state = _score_show(state, seat, score_show(state.kept(seat), starter), events)
        if state.phase is Phase.OVER:
            return state
    crib = score_show(state.crib, starter, crib=True)
    state = _score_show(state, state.dealer, crib, events)
    if state.phase is Phase.OVER:
        return state
    events.append(RoundEnded(state.round, state.scores))
    return _deal(_shown(state), (state.dealer + 1) % players, events)


def _claim(state: State, action: Claim, events: list[Event]) -> State:
    """Under muggins: the owner scores what it claimed, at most the true count; an
    opponent (the next to its left) calls muggins and takes any points it missed."""
    show = showing(state)
    seat = action.seat
    scored = min(action.points, show.total)
    scores = _add(state, seat, scored)
    events.append(Shown(seat, show, scores, claimed=action.points))
    state = _maybe_won(replace(state, scores=scores), seat, events)
    if state.phase is Phase.OVER:
        return state
    missed = show.total - scored
    if missed:
        taker = _opponent_left_of(state, seat)
        state = _peg(state, taker, (PegItem(PegKind.MUGGINS, missed),), events)
        if state.phase is Phase.OVER:
            return state
    state = replace(state, shown=state.shown + 1)
    if state.shown <= state.rules.players:
        return state
    events.append(RoundEnded(state.round, state.scores))
    return _deal(_shown(state), (state.dealer + 1) % state.rules.players, events)


def _shown(state: State) -> State:
    """The state with its deal, shown in full, added to the game's past."""
    assert state.starter is not None
    players = range(state.rules.players)
    deal = ShownDeal(
        dealer=state.dealer,
        starter=state.starter,
        kept=tuple(state.kept(seat) for seat in players),
        crib=state.crib,
        plays=state.plays,
        thrown=tuple(state.discards[seat] or () for seat in players),
    )
    return replace(state, past=(*state.past, deal))


def _opponent_left_of(state: State, seat: int) -> int:
    rules = state.rules
    for step in range(1, rules.players):
        other = (seat + step) % rules.players
        if rules.side_of(other) != rules.side_of(seat):
            return other
    raise AssertionError("no opponent")  # pragma: no cover


def _score_show(state: State, seat: int, show: ShowScore, events: list[Event]) -> State:
    scores = _add(state, seat, show.total)
    events.append(Shown(seat, show, scores))
    return _maybe_won(replace(state, scores=scores), seat, events)


def _peg(state: State, seat: int, items: tuple[PegItem, ...], events: list[Event]) -> State:
    scores = _add(state, seat, sum(item.points for item in items))
    events.append(Pegged(seat, items, scores))
    return _maybe_won(replace(state, scores=scores), seat, events)


def _add(state: State, seat: int, points: int) -> tuple[int, ...]:
    """The scores with ``points`` pegged for the seat's side. No side pegs past the
    target: reaching it ends the game (the points beyond are not pegged)."""
    side = state.rules.side_of(seat)
    return _with(state.scores, side, min(state.scores[side] + points, state.rules.target))


def _maybe_won(state: State, seat: int, events: list[Event]) -> State:
    """The first side to reach the target wins at once: nothing after it is scored."""
    side = state.rules.side_of(seat)
    if state.scores[side] < state.rules.target:
        return state
    skunks = tuple(
        "" if other == side else state.rules.skunk(score)
        for other, score in enumerate(state.scores)
    )
    events.append(GameOver(side, state.scores, skunks))
    return replace(state, phase=Phase.OVER, winner=side, to_play=None)


def _with(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return values[:index] + (value,) + values[index + 1 :]


# --- what one seat may know -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may know: its own cards, the cards laid face up, the starter once cut,
    the scores, the gos said. Never another seat's hand, the crib or the deck.

    Computer players are given this, never the :class:`State`.
    """

    seat: int
    rules: Rules
    round: int
    dealer: int
    phase: Phase
    scores: tuple[int, ...]
    hand: tuple[Card, ...]
    """The cards this seat holds now."""
    discards: tuple[Card, ...]
    """What this seat put in the crib (empty until it has)."""
    kept: tuple[Card, ...]
    """The four cards this seat keeps for the show (empty until it has discarded)."""
    held: tuple[int, ...]
    """How many cards each seat holds."""
    starter: Card | None
    pile: tuple[Card, ...]
    plays: tuple[tuple[int, Card], ...]
    gos: tuple[tuple[int, int], ...]
    passed: frozenset[int]
    to_play: int | None
    crib: tuple[Card, ...] = ()
    """The crib, once it is turned up to be counted (under muggins)."""
    past: tuple[ShownDeal, ...] = ()
    """The deals played to their show (:attr:`State.past`: the games before this one's
    carried, then this one's), as this seat saw them (:meth:`ShownDeal.seen_by`)."""

    @property
    def count(self) -> int:
        """The running total of the current count."""
        return count_of(self.pile)

    @property
    def is_dealer(self) -> bool:
        """Whether the crib is this seat's (or its partner's, with four)."""
        return self.rules.side_of(self.dealer) == self.rules.side_of(self.seat)

    def playable(self) -> tuple[Card, ...]:
        """The cards this seat may lay now."""
        return playable(self.hand, self.count)


def view(state: State, seat: int) -> View:
    """What ``seat`` may know of ``state``."""
    if not 0 <= seat < state.rules.players:
        raise ValueError(f"there is no seat {seat}: a view is a seat's")
    thrown = state.discards[seat]
    return View(
        seat=seat,
        rules=state.rules,
        round=state.round,
        dealer=state.dealer,
        phase=state.phase,
        scores=state.scores,
        hand=state.hands[seat],
        discards=thrown or (),
        kept=state.kept(seat) if thrown is not None else (),
        held=tuple(len(hand) for hand in state.hands),
        starter=state.starter,
        pile=state.pile,
        plays=state.plays,
        gos=state.gos,
        passed=state.passed,
        to_play=state.to_play,
        crib=state.crib if state.phase is Phase.SHOW and state.shown >= state.rules.players else (),
        past=tuple(deal.seen_by(seat) for deal in state.past),
    )
