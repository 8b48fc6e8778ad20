"""Quizzes: the day's discard and pegging problems, the same for everyone on a date, and
the counting drill.

A day's problems are chosen to teach: among deals drawn from the day's seed, the first
where the best choice beats the obvious one by at least :data:`INSTRUCTIVE` points. The
obvious throw keeps the four cards that score most by themselves (the hand alone); the
obvious lay takes the most points now (of those, the one worth most later). A throw is graded by
its exact value (``discard-advice``), a lay by the play search over the hands the other
could hold (``peg-advice``): both the same every time. Every deal is drawn with
:class:`~cribcli.rules.cards.SeededStream`, as the games' are: the same on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cribcli.review.coach import ME, LayValue, Moment, PegAdvice, mark_of, moment_view, peg_advice
from cribcli.rules.analysis import DiscardValue, analyse
from cribcli.rules.cards import Card, shuffled_deck
from cribcli.rules.engine import Discard, Phase, Play, Rules, apply, legal_actions, new_game
from cribcli.rules.errors import UsageProblem
from cribcli.rules.scoring import KEPT_SIZE, ShowScore, kept_items, peg_points, score_show
from cribcli.rules.stream import SeededStream

INSTRUCTIVE = 0.5
"""How much better than the obvious choice the best must be, in points, for a problem."""
TRIES = 400
"""Deals drawn for a day's problem before the most instructive of them is taken."""
DRILL_HANDS = 10
"""Hands in a round of the counting drill."""


# --- the discard problem ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiscardProblem:
    """Six cards dealt, and whose crib it is."""

    day: str
    hand: tuple[Card, ...]
    dealer: bool
    gap: float
    """How much the best throw beats the obvious one by."""


def discard_problem(day: str) -> DiscardProblem:
    """The day's discard problem: the first deal of the day's seed where the best throw
    beats the obvious keep by at least :data:`INSTRUCTIVE` (else the widest gap found)."""
    found: DiscardProblem | None = None
    for attempt in range(TRIES):
        cards = shuffled_deck(f"quiz/{day}", f"discard {attempt}")
        hand, dealer = tuple(cards[:6]), attempt % 2 == 0
        values = analyse(hand, dealer=dealer)
        gap = values[0].net - _obvious(values).net
        if found is None or gap > found.gap:
            found = DiscardProblem(day, hand, dealer, gap)
        if gap >= INSTRUCTIVE:
            break
    assert found is not None
    return found


def obvious_throw(hand: Sequence[Card], dealer: bool) -> tuple[Card, ...]:
    """The keep the obvious player makes: the most points among the four alone; ties to
    the best net for the role."""
    return _obvious(analyse(hand, dealer=dealer)).keep


def _obvious(values: Sequence[DiscardValue]) -> DiscardValue:
    """Of the discards (best net first), the first whose four score most by themselves."""
    return max(values, key=lambda v: sum(item.points for item in kept_items(v.keep)))


@dataclass(frozen=True, slots=True)
class ThrowGrade:
    """A throw graded against the best by exact value."""

    thrown: tuple[Card, ...]
    net: float
    best: tuple[Card, ...]
    best_net: float
    best_hand: float
    best_crib: float

    @property
    def lost(self) -> float:
        return max(self.best_net - self.net, 0.0)

    @property
    def mark(self) -> str:
        return mark_of(self.lost)

    def as_json(self) -> dict[str, object]:
        return {
            "thrown": [str(card) for card in self.thrown],
            "net": round(self.net, 2),
            "best": [str(card) for card in self.best],
            "best_net": round(self.best_net, 2),
            "best_hand": round(self.best_hand, 2),
            "best_crib": round(self.best_crib, 2),
            "lost": round(self.lost, 2),
            "mark": self.mark or None,
        }


def grade_throw(problem: DiscardProblem, thrown: Sequence[Card]) -> ThrowGrade:
    """The throw's exact value against the best's. Raises UsageProblem unless it is two of
    the six cards."""
    if len(thrown) != 2 or len(set(thrown)) != 2 or not set(thrown) <= set(problem.hand):
        raise UsageProblem("throw two of the six cards dealt")
    values = analyse(problem.hand, dealer=problem.dealer)
    chosen = next(v for v in values if set(v.discard) == set(thrown))
    best = values[0]
    return ThrowGrade(tuple(thrown), chosen.net, best.discard, best.net, best.hand, best.crib)


# --- the pegging problem --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PeggingProblem:
    """A moment of the play, and every card that can be laid, valued."""

    day: str
    moment: Moment
    advice: PegAdvice
    """Every card that can be laid, valued, best first (as ``peg-advice`` gives it)."""
    gap: float

    @property
    def values(self) -> tuple[LayValue, ...]:
        return self.advice.values

    @property
    def count(self) -> int:
        return self.advice.count


def obvious_lay(values: Sequence[LayValue]) -> LayValue:
    """The card a greedy pegger lays: the most points now; of those that take as many,
    the one worth most later (the kindest reading of greed)."""
    most = max(lay.now for lay in values)
    return max((lay for lay in values if lay.now == most), key=lambda lay: lay.net)


def pegging_problem(day: str) -> PeggingProblem:
    """The day's pegging problem: the first moment drawn from the day's seed that is a
    trap: a card takes points now, and a card that takes fewer is worth at least
    :data:`INSTRUCTIVE` more by the end of the play (else the widest gap of the first
    :data:`TRIES`)."""
    found: PeggingProblem | None = None
    for attempt in range(TRIES):
        moment = _moment(f"quiz/{day}/pegging/{attempt}")
        if moment is None or not _scores_now(moment):
            continue  # no points to be greedy for: no trap
        try:
            advice = peg_advice(moment)
        except UsageProblem:
            continue
        best, obvious = advice.values[0], obvious_lay(advice.values)
        gap = best.net - obvious.net if best.now < obvious.now else 0.0
        problem = PeggingProblem(day, moment, advice, gap)
        if found is None or gap > found.gap:
            found = problem
        if gap >= INSTRUCTIVE:
            return problem
    if found is None:
        raise UsageProblem(f"no pegging problem could be drawn for {day}")
    return found


def _scores_now(moment: Moment) -> bool:
    """Whether a card the side holds would score as it is laid."""
    seen = moment_view(moment)
    return any(peg_points((*seen.pile, card)) for card in seen.playable())


def _moment(seed: str) -> Moment | None:
    """A moment of a first deal drawn from ``seed``: both sides keep the best four by
    the exact analysis, a few cards are laid at random, and it is seat 0's turn with a
    choice of ranks (None if the play ends first)."""
    rng = SeededStream(seed, "moment")
    state, _ = new_game(Rules(first_dealer=rng.below(2)), seed)
    for seat in (0, 1):
        dealt = state.hands[seat]
        best = analyse(dealt, dealer=state.dealer == seat)[0]
        state, _ = apply(state, Discard(seat, best.discard))
    stop = rng.below(5)
    while state.phase is Phase.PLAY:
        choices = legal_actions(state)
        if state.to_play == ME and len(state.plays) >= stop:
            ranks = {action.card.rank for action in choices if isinstance(action, Play)}
            if len(ranks) >= 2:
                thrown, starter = state.discards[ME], state.starter
                assert thrown is not None and starter is not None
                return Moment(state.hands[ME], state.plays, starter, thrown, state.dealer == ME)
        state, _ = apply(state, rng.choice(choices))
    return None


@dataclass(frozen=True, slots=True)
class LayGrade:
    """A card laid graded against the best by the play search."""

    laid: LayValue
    best: LayValue

    @property
    def lost(self) -> float:
        return max(self.best.net - self.laid.net, 0.0)

    @property
    def mark(self) -> str:
        return mark_of(self.lost)

    def as_json(self) -> dict[str, object]:
        return {
            "laid": self.laid.as_json(),
            "best": self.best.as_json(),
            "lost": round(self.lost, 2),
            "mark": self.mark or None,
        }


def grade_lay(problem: PeggingProblem, card: Card) -> LayGrade:
    """The card's value against the best's. Raises UsageProblem unless it can be laid."""
    chosen = next((lay for lay in problem.values if lay.card == card), None)
    if chosen is None:
        laid = ", ".join(str(lay.card) for lay in problem.values)
        raise UsageProblem(f"{card} cannot be laid: choose one of {laid}")
    return LayGrade(chosen, problem.values[0])


def share_line(day: str, throw_lost: float, lay_lost: float) -> str:
    """``cribbage quiz 2026-12-03: discard best, pegging 0.62 lost (inaccuracy)``, from
    what the throw and the lay lost."""

    def said(lost: float) -> str:
        if lost < 0.005:
            return "best"
        mark = mark_of(lost)
        return f"{lost:.2f} lost" + (f" ({mark})" if mark else "")

    return f"cribbage quiz {day}: discard {said(throw_lost)}, pegging {said(lay_lost)}"


# --- the counting drill -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CountHand:
    """A hand (or crib) and starter to count."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool

    @property
    def show(self) -> ShowScore:
        return score_show(self.hand, self.starter, crib=self.crib)


def drill(seed: str, hands: int = DRILL_HANDS) -> tuple[CountHand, ...]:
    """A round of hands to count, drawn from ``seed``: each four cards and a starter from
    a shuffled deck, one in four a crib; half of them kept as a player would keep them
    (the best four of six), so that the counts are worth counting."""
    rng = SeededStream(seed, "drill")
    drawn = []
    for number in range(hands):
        cards = shuffled_deck(seed, f"drill {number}")
        crib = rng.below(4) == 0
        if number % 2 == 0 and not crib:
            kept = analyse(tuple(cards[:6]), dealer=rng.below(2) == 0)[0].keep
        else:
            kept = tuple(cards[:KEPT_SIZE])
        drawn.append(CountHand(tuple(kept), cards[6], crib))
    return tuple(drawn)
