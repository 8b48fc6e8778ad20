"""The coach: what a decision is worth, for ``cribbage peg-advice`` and ``cribbage review``.

A moment of the play is given as a player knows it: the cards held, the cards laid this
round in order and by whom, the starter, the cards thrown, who deals. Each card that can
be laid is valued by the hard computer's search of the rest of the play, over the hands
the other player could hold that fit everything seen: never a hidden card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

from cribcli.players.habits import Habits
from cribcli.players.hard import (
    CLOSE,
    ENDGAME,
    PLAY_DEALS,
    HardPlayer,
    Option,
    discard_options,
    needs,
    pick_throw,
    warm,
)
from cribcli.players.odds import point_chance
from cribcli.players.pegging import after_play, points, scoring_tail, value
from cribcli.review.grading import Grade, grade_of
from cribcli.rules.cards import Card, check_distinct, deck
from cribcli.rules.engine import (
    Action,
    Claim,
    Discard,
    Forfeit,
    IllegalAction,
    Phase,
    Play,
    Rules,
    State,
    View,
    apply,
    new_game,
    showing,
    view,
)
from cribcli.rules.errors import UsageProblem
from cribcli.rules.reasons import LayWhy, ThrowWhy
from cribcli.rules.scoring import KEPT_SIZE, PegItem, kept_items, peg_points

if TYPE_CHECKING:  # loaded when a review needs them: advice on a lay does without them
    from cribcli.record.log import GameInfo
    from cribcli.review.luck import Luck
    from cribcli.review.stats import Lost
    from cribcli.review.story import Chance

ME, THEM = 0, 1
SEED = "peg-advice"
"""The seed of the hands sampled for the other player: the same advice every time."""


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment of a two-player play, as the player to lay knows it."""

    hand: tuple[Card, ...]
    """The cards still held."""
    laid: tuple[tuple[int, Card], ...]
    """The cards laid this round, in order, each with who laid it (``ME`` or ``THEM``)."""
    starter: Card
    thrown: tuple[Card, ...]
    """The two cards this player put in the crib."""
    dealer: bool
    """Whether the crib is this player's."""
    scores: tuple[int, int] = (0, 0)
    """This player's score and the other's, before any card laid this round."""


@dataclass(frozen=True, slots=True)
class LayValue:
    """What laying one card is worth."""

    card: Card
    now: int
    """The points it makes as it is laid."""
    net: float
    """Its points and the rest of the play's, less the other player's, on average."""

    def as_json(self) -> dict[str, object]:
        """For scripts."""
        return {"card": str(self.card), "now": self.now, "net": round(self.net, 2)}


def moment_view(moment: Moment) -> View:
    """The player's view of the moment: a game set up to it, through the engine (which
    checks that the cards laid keep the rules), the other player's unseen cards filled in
    with cards that fit its gos. Only the view is used: those cards are never looked at.
    Raises UsageProblem for a moment that cannot be."""
    mine = tuple(card for seat, card in moment.laid if seat == ME)
    theirs = tuple(card for seat, card in moment.laid if seat == THEM)
    if len(moment.thrown) != 2:
        raise UsageProblem(f"give the 2 cards you threw, not {len(moment.thrown)}")
    if len(moment.hand) + len(mine) != KEPT_SIZE:
        raise UsageProblem(
            f"you hold {len(moment.hand)} and laid {len(mine)}: that should make {KEPT_SIZE}"
        )
    if len(theirs) > KEPT_SIZE:
        raise UsageProblem(f"the other player laid {len(theirs)} cards: at most {KEPT_SIZE}")
    known = [*moment.hand, *mine, *theirs, moment.starter, *moment.thrown]
    check_distinct(known)
    # The other's unseen cards: ten-cards first, which fit any go it may have said.
    unseen = sorted(set(deck()) - set(known), key=lambda card: (-card.value, card))
    hidden = tuple(unseen[: KEPT_SIZE - len(theirs)])
    their_throw = tuple(unseen[KEPT_SIZE - len(theirs) : KEPT_SIZE - len(theirs) + 2])
    dealer = ME if moment.dealer else THEM
    start, _ = new_game(Rules(first_dealer=dealer), SEED)
    dealt = (
        (*moment.hand, *mine, *moment.thrown),
        (*theirs, *hidden, *their_throw),
    )
    state = replace(
        start,
        phase=Phase.PLAY,
        dealer=dealer,
        scores=moment.scores,
        dealt=dealt,
        hands=((*moment.hand, *mine), (*theirs, *hidden)),
        discards=(moment.thrown, their_throw),
        crib=(*moment.thrown, *their_throw),
        starter=moment.starter,
        to_play=1 - dealer,
    )
    for number, (seat, card) in enumerate(moment.laid, start=1):
        said = f"card {number} laid, `{'me' if seat == ME else 'them'} {card}`"
        if state.to_play != seat:
            whose = "yours" if state.to_play == ME else "theirs"
            lead = ""
            if number == 1:
                lead = " (the pone leads: " + (
                    "--dealer if they led)" if seat == THEM else "--pone if you led)"
                )
            raise UsageProblem(f"{said}: the turn to lay was {whose}{lead}")
        try:
            state, _ = apply(state, Play(seat, card))
        except IllegalAction as error:
            raise UsageProblem(f"{said}: {error}") from None
    if state.phase is not Phase.PLAY or state.to_play != ME:
        raise UsageProblem("it is not yours to lay after those cards: the other player lays next")
    return view(state, ME)


@dataclass(frozen=True, slots=True)
class PegAdvice:
    """Every card that can be laid at a moment, best first."""

    pile: tuple[Card, ...]
    """The cards of the count so far (since the last go or 31)."""
    count: int
    values: tuple[LayValue, ...]
    their_go: bool = False
    """Whether the other player has said go on this count."""


def peg_advice(moment: Moment) -> PegAdvice:
    """Each card that can be laid at the moment, best first, with what it is worth."""
    seen = moment_view(moment)
    options = seen.playable()
    if not options:
        raise UsageProblem(f"no card you hold can be laid on {seen.count}: it is a go")
    pile = tuple(card.rank for card in seen.pile)
    values = HardPlayer(SEED, ME).lay_values(seen)
    if not values:
        raise UsageProblem("no hand the other player could hold fits the gos it said")
    ranked = [
        LayValue(card, points((*pile, card.rank), seen.count + value(card.rank)), worth.net)
        for card, worth in values.items()
    ]
    ranked.sort(key=lambda lay: (-lay.net, lay.card))
    return PegAdvice(seen.pile, seen.count, tuple(ranked), THEM in seen.passed)


def parse_laid(text: str) -> tuple[tuple[int, Card], ...]:
    """Cards laid, as typed: ``them 10S me 4H them 9D`` (``you`` or ``I`` for ``me``,
    ``they`` for ``them``; commas allowed)."""
    words = text.replace(",", " ").split()
    if len(words) % 2:
        raise UsageProblem('give each card laid after who laid it: "them 10S me 4H"')
    laid: list[tuple[int, Card]] = []
    for who, card in zip(words[::2], words[1::2], strict=True):
        if who.lower() not in ("me", "you", "i", "them", "they"):
            shown = who if who.isprintable() and len(who) <= 12 else "that"
            raise UsageProblem(f"`{shown}` is not who laid a card: say `me` or `them`")
        laid.append((THEM if who.lower() in ("them", "they") else ME, Card.parse(card)))
    return tuple(laid)


# --- the review of a game ---------------------------------------------------------------

MARKS = ((2.0, "blunder"), (1.0, "mistake"), (0.5, "inaccuracy"), (0.1, "slip"))
"""Each mark and the points a decision must lose to earn it, worst first (a loss under
the last is no mark). Chosen from what the computers' decisions lose
(``benchmarks/review.py``; the README gives the figures): away from the end, hard's
lays judged by other sampled hands than its own (the measure's wobble) reach 0.5 one
time in a hundred and never 1; a quarter of normal's lays lose 0.1 or more, one in ten
0.5, one in forty 1; a point is about 2% of a game."""


REVIEW_WIN_DEALS = PLAY_DEALS
"""The hands searched for the chance of winning of a card laid near the end: all those
dealt for the points, not hard's fewer, since the review has time. Judged by other hands
than its own, hard's lays near the end lose 1 point or more 3.2% of the time with these,
4.6% with its own number (``benchmarks/review.py``)."""


def mark_of(lost: float) -> str:
    """The mark for a decision that lost ``lost`` points (``""`` for none)."""
    return next((mark for at, mark in MARKS if lost >= at - 1e-9), "")


class ForTheWin(NamedTuple):
    """Near the end, a throw that gives up points for a better chance of winning: the
    throw worth most points, how many more it was worth (hand, crib and pegging, as hard
    counts them), and the two chances of winning, the likelier throw's first. Told when
    the points given up would mark a throw by points (:data:`MARKS`: half a point or
    more) and the chances differ by more than :data:`CLOSE`; less is the measure's own
    wobble."""

    by_points: tuple[Card, ...]
    points: float
    chance: float
    by_points_chance: float


class Best(NamedTuple):
    """The best choice at a decision, and why."""

    cards: tuple[Card, ...]
    """The cards to throw, or the card to lay."""
    why: ThrowWhy | LayWhy


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat: what it chose, the best, and what it lost."""

    round: int
    kind: str
    """``throw``, ``lay`` or ``count`` (under muggins)."""
    chose: tuple[Card, ...]
    """The cards thrown or the card laid (the hand or crib counted, for a count)."""
    best: tuple[Card, ...]
    lost: float
    """Points lost against the best (near the end, the chance of winning lost, in points)."""
    exact: float | None = None
    """A throw: the hand and crib part of the loss, exactly as ``discard-advice`` counts."""
    chance: float | None = None
    """A throw or lay near the end: the chance of winning lost."""
    count: int | None = None
    """A lay: the count it was laid on."""
    open_lost: float | None = None
    """A lay, with every card known (``--open``)."""
    claimed: int | None = None
    """A count: the points claimed."""
    true: int | None = None
    """A count: what the hand or crib was worth."""
    given: int | None = None
    """A count: the points missed, which the other side took."""
    for_the_win: ForTheWin | None = None
    """A throw near the end: when the best throw is not the one worth most points, why."""
    why: ThrowWhy | LayWhy | None = None
    """A throw or a lay: why the best was best."""
    seat: int = 0
    """The seat that decided."""
    at: int | None = None
    """Which of the game's actions it was (its number, from 0), once reviewed."""

    @property
    def mark(self) -> str:
        return mark_of(self.lost)

    @property
    def costly(self) -> bool:
        """Whether it lost more than a slip (the coach at the table names it)."""
        return self.mark not in ("", "slip")

    def as_json(self) -> dict[str, object]:
        """For scripts: only the fields that apply."""
        shown: dict[str, object] = {
            "round": self.round,
            "kind": self.kind,
            "chose": [str(card) for card in self.chose],
            "best": [str(card) for card in self.best],
            "lost": round(self.lost, 2),
            "mark": self.mark or None,
        }
        extra = {
            "exact": self.exact,
            "chance": self.chance,
            "count": self.count,
            "open_lost": self.open_lost,
            "claimed": self.claimed,
            "true": self.true,
            "given": self.given,
        }
        for key, number in extra.items():
            if number is not None:
                shown[key] = round(number, 4 if key == "chance" else 2)
        if self.why is not None:
            shown["why"] = self.why.as_json()
        if self.for_the_win:
            win = self.for_the_win
            shown["for_the_win"] = {
                "by_points": [str(card) for card in win.by_points],
                "points": round(win.points, 2),
                "win_chance": round(win.chance, 4),
                "by_points_win_chance": round(win.by_points_chance, 4),
            }
        return shown


@dataclass(frozen=True, slots=True)
class Review:
    """The reviewed seat's decisions over a game (or one round), and their summary."""

    seat: int
    decisions: tuple[Decision, ...]
    deals: int
    """The deals reviewed: those in which the seat threw."""
    dealers: tuple[int, ...] = ()
    """Each round's dealer, by round (``dealers[0]`` is round 1's)."""

    def lost(self, *kinds: str) -> float:
        """Points lost in all, or in decisions of the kinds given."""
        return sum(d.lost for d in self.decisions if not kinds or d.kind in kinds)

    def per_deal(self, *kinds: str) -> float:
        return self.lost(*kinds) / self.deals if self.deals else 0.0

    def marks(self) -> dict[str, int]:
        """How many decisions earned each mark, worst first."""
        return {mark: sum(d.mark == mark for d in self.decisions) for _, mark in MARKS}

    def costliest(self, n: int = 3) -> list[Decision]:
        """The ``n`` decisions that lost most (those that lost anything)."""
        ranked = sorted(self.decisions, key=lambda d: -d.lost)
        return [d for d in ranked[:n] if d.lost > 0]

    def grade(self) -> Grade:
        """The decisions' error rate, accuracy and rating (:mod:`cribcli.review.grading`)."""
        return grade_of([(d.kind, d.lost) for d in self.decisions])

    def as_lost(self) -> Lost:
        """What the decisions lost, as the history keeps it."""
        from cribcli.review.stats import Costly, Lost

        grade = self.grade()
        costly = tuple(
            Costly(d.at, d.kind, round(d.lost, 3))
            for d in self.decisions
            if d.at is not None and mark_of(d.lost) not in ("", "slip")
        )
        return Lost(self.deals, *grade.lost, grade.decisions, costly)

    def summary_json(
        self,
        every: Sequence[Review] = (),
        names: Sequence[str] = (),
        more: Mapping[str, object] | None = None,
    ) -> dict[str, object]:
        """The summary for scripts; with ``every`` seat's review (and the seats'
        ``names``), each seat's grade too; and ``more`` (the luck)."""
        seats = [
            {
                "seat": seat.seat,
                "name": names[seat.seat],
                "decisions": len(seat.decisions),
                **seat.grade().as_json(),
            }
            for seat in every
        ]
        return {
            "summary": {
                "seat": self.seat,
                "decisions": len(self.decisions),
                "deals": self.deals,
                "lost": round(self.lost(), 2),
                "lost_per_deal": {
                    "all": round(self.per_deal(), 2),
                    "throws": round(self.per_deal("throw"), 2),
                    "lays": round(self.per_deal("lay"), 2),
                    "counts": round(self.per_deal("count"), 2),
                },
                "marks": self.marks(),
                "costliest": [d.as_json() for d in self.costliest()],
                **self.grade().as_json(),
                **({"seats": seats} if seats else {}),
                **(more or {}),
            }
        }


class GameReview(NamedTuple):
    """A game reviewed: one seat's decisions in detail, every seat's (for their grades),
    and the game's luck (a whole game of two; else None)."""

    seat: Review
    every: tuple[Review, ...]
    luck: Luck | None
    chances: tuple[Chance, ...] = ()
    """The reviewed seat's chance to win before the first deal and after each (a whole
    game of two; else none): the game's story."""

    def summary_json(self, names: Sequence[str]) -> dict[str, object]:
        """The summary for scripts, with every seat's grade, the luck and the story."""
        luck = {"luck": self.luck.as_json(names)} if self.luck is not None else {}
        story = {"chances": [c.as_json() for c in self.chances]} if self.chances else {}
        return self.seat.summary_json(self.every, names, {**luck, **story})


def lays_lost(reviews: Sequence[Review]) -> dict[tuple[int, int], float]:
    """What each seat's lays lost in each round, by (round, seat), for the luck of the
    play (:func:`cribcli.review.luck.luck_of`)."""
    lost: dict[tuple[int, int], float] = {}
    for judged in reviews:
        for d in judged.decisions:
            if d.kind == "lay":
                lost[d.round, d.seat] = lost.get((d.round, d.seat), 0.0) + d.lost
    return lost


def positions(info: GameInfo, actions: Sequence[Action]) -> Iterator[tuple[State, Action | None]]:
    """Each action of a game with the state it was taken in; last, the state after them
    all (with None)."""
    from cribcli.record.log import begin

    state, _ = begin(info)
    for action in actions:
        yield state, action
        state, _ = apply(state, action)
    yield state, None


class Task(NamedTuple):
    """One decision to judge: the seat's view, and what it did (for a lay under
    ``--open``, the state too)."""

    seen: View
    action: Discard | Play
    seed: int | str
    state: State | None = None
    at: int = 0
    """The action's number in the game."""


def review(
    info: GameInfo,
    actions: Sequence[Action],
    seat: int,
    *,
    round_number: int | None = None,
    open_play: bool = False,
    progress: Callable[[int, int], None] | None = None,
    samples: int | str | None = None,
    jobs: int = 1,
) -> Review:
    """Judge each decision ``seat`` made in a game, given as its actions (a replayed log's,
    or a session's so far), or in one round of it: :func:`review_seats` for one seat."""
    return review_seats(
        info,
        actions,
        (seat,),
        round_number=round_number,
        open_play=open_play,
        progress=progress,
        samples=samples,
        jobs=jobs,
    )[0]


def review_seats(
    info: GameInfo,
    actions: Sequence[Action],
    seats: Sequence[int],
    *,
    round_number: int | None = None,
    open_play: bool = False,
    progress: Callable[[int, int], None] | None = None,
    samples: int | str | None = None,
    jobs: int = 1,
) -> tuple[Review, ...]:
    """Judge each decision each of ``seats`` made in a game, given as its actions (a
    replayed log's, or a session's so far), or in one round of it: a review a seat.

    A throw and a lay are judged on the seat's view alone (what it had seen then); only
    ``open_play`` looks at the other hands, for a second judgement of each lay.
    ``progress`` hears (done, of) as decisions are judged, over ``jobs`` processes.
    ``samples`` seeds the hands dealt the others in the search of the play (the game's
    seed unless given, so that the hard computer's own lays, searched alike, lose
    nothing).
    """
    for seat in seats:
        if not 0 <= seat < info.rules.players:
            raise UsageProblem(f"the game has seats 0 to {info.rules.players - 1}, not {seat}")
    seed = info.seed if samples is None else samples
    sides = len({info.rules.side_of(n) for n in range(info.rules.players)})
    swing = 1 + 1 / (sides - 1)
    """A point missed at a count is off the seat's side and onto another's: lost in the
    measure of throws and lays (ours less theirs, their average with three sides)."""
    tasks: list[Task] = []
    counts: dict[int, list[Decision]] = {}
    """Muggins counts, by the number of tasks before them (judged here: they are quick)."""
    dealers: list[int] = []
    for at, (state, action) in enumerate(positions(info, actions)):
        if len(dealers) < state.round:
            dealers.append(state.dealer)
        if action is None:
            break
        if (
            action.seat not in seats
            or (round_number is not None and state.round != round_number)
            or isinstance(action, Forfeit)
        ):
            continue
        if isinstance(action, Claim):
            show = showing(state)
            given = max(show.total - action.points, 0)
            cards = (*show.hand, show.starter)
            counted = Decision(
                state.round,
                "count",
                cards,
                cards,
                given * swing,
                claimed=action.points,
                true=show.total,
                given=given,
                seat=action.seat,
                at=at,
            )
            counts.setdefault(len(tasks), []).append(counted)
            continue
        opened = state if open_play and isinstance(action, Play) else None
        tasks.append(Task(view(state, action.seat), action, seed, opened, at))
    if round_number is not None and round_number > len(dealers):
        raise UsageProblem(f"the game has {len(dealers)} rounds, not {round_number}")
    from cribcli.record.workers import forked, spread

    if jobs > 1 and len(tasks) > 1 and info.rules.players == 2 and forked():
        # Worked out once here, the tables are the workers' too.
        warm(endgame=any(min(needs(task.seen)) <= ENDGAME for task in tasks))

    decisions: list[Decision] = []
    with spread(judge, tasks, jobs) as judged:
        for done, found in enumerate(judged, start=1):
            decisions.extend(counts.pop(done - 1, []))
            if found is not None:
                decisions.append(replace(found, at=tasks[done - 1].at))
            if progress is not None:
                progress(done, len(tasks))
    decisions.extend(d for later in counts.values() for d in later)  # after the last lay
    reviews = []
    for seat in seats:
        own = tuple(d for d in decisions if d.seat == seat)
        deals = sum(d.kind == "throw" for d in own)
        reviews.append(Review(seat, own, deals, tuple(dealers)))
    return tuple(reviews)


def judge(task: Task) -> Decision | None:
    """Judge one decision (in a worker process, for a whole game)."""
    seen, action = task.seen, task.action
    if isinstance(action, Discard):
        return judge_throw(seen, action.cards)
    found = judge_lay(seen, action.card, task.seed)
    if found is not None and task.state is not None:
        found = replace(found, open_lost=open_loss(task.state, seen.seat, action.card))
    return found


def joined(reviews: Sequence[Review]) -> Review:
    """Reviews of one seat's rounds taken together."""
    first = reviews[0]
    return Review(
        first.seat,
        tuple(d for part in reviews for d in part.decisions),
        sum(part.deals for part in reviews),
        max((part.dealers for part in reviews), key=len),
    )


def default_seat(info: GameInfo, player: str | None = None) -> int:
    """The seat a review is of unless told: the seat of the person named ``player`` (whose
    games the log was filed among, at a served table), else the first human's, else the
    first."""
    humans = [n for n, seat in enumerate(info.seats) if seat.player == "human"]
    return next((n for n in humans if info.seats[n].name == player), humans[0] if humans else 0)


def _throw_options(seen: View) -> tuple[list[Option], Option, Option]:
    """Every throw as the hard computer values it, the best, and the best by points:
    the same unless, near the end, another is really likelier to win (chances within a
    whisker are equal, and then points decide)."""
    # The crib against a good player's throw, as discard-advice counts it: the same
    # yardstick in every game, whoever sat across the table.
    options = discard_options(seen, habits=Habits())
    return options, pick_throw(options), max(options, key=lambda o: o.net)


def _throw_why(seen: View, option: Option) -> ThrowWhy:
    value = option.value
    crib = option.crib if seen.is_dealer else -option.crib
    return ThrowWhy(kept_items(value.keep), value.hand, crib, option.net - value.hand - crib,
                    option.chance)  # fmt: skip


def best_throw(seen: View) -> Best:
    """The best throw by the hard computer's measure (what ``review`` judges throws by,
    and ``hint`` says), and why."""
    _, best, _ = _throw_options(seen)
    return Best(best.value.discard, _throw_why(seen, best))


def judge_throw(seen: View, thrown: Sequence[Card]) -> Decision:
    """A throw against the best by the hard computer's measure: hand, crib and pegging;
    near the end, the chance of winning (chances within a whisker are equal)."""
    options, best, by_points = _throw_options(seen)
    chosen = next(o for o in options if set(o.value.discard) == set(thrown))
    chance = for_the_win = None
    if best.chance is None:
        lost = best.net - chosen.net
    else:
        top = best.chance
        chance = 0.0 if (chosen.chance or 0.0) >= top - CLOSE else top - (chosen.chance or 0.0)
        lost = chance / point_chance(seen.rules.target)
        gain = (best.chance or 0.0) - (by_points.chance or 0.0)
        if mark_of(by_points.net - best.net) not in ("", "slip") and gain > CLOSE:
            for_the_win = ForTheWin(
                by_points.value.discard,
                by_points.net - best.net,
                best.chance or 0.0,
                by_points.chance or 0.0,
            )
    return Decision(
        seen.round,
        "throw",
        tuple(thrown),
        best.value.discard,
        max(lost, 0.0),
        exact=best.value.net - chosen.value.net,
        chance=chance,
        for_the_win=for_the_win,
        why=_throw_why(seen, best),
        seat=seen.seat,
    )


class _Lays(NamedTuple):
    """Each card that could be laid, its net and its chance of winning (None away from
    the end, or at a table of three or four), and the best."""

    nets: dict[Card, float]
    chances: dict[Card, float | None]
    best: Card


def _lays(seen: View, seed: int | str, laid: Card | None = None) -> _Lays | None:
    """What each card that could be laid is worth, by the play search over the hands the
    others could hold given the seat's view: hard's own measure, the most points unless
    near the end another card is really likelier to win (at a table of three or four,
    for points alone: see :mod:`cribcli.players.table_search`, whose search stops once what
    ``laid`` lost is steady). None when no hands fit what was seen."""
    options = seen.playable()
    if seen.rules.players != 2:
        from cribcli.players import table_search

        nets = table_search.lay_values(seen, seed, laid or options[0])
        if not nets:
            return None
        best = max(options, key=lambda card: (nets[card], -card.rank))
        return _Lays(nets, dict.fromkeys(nets), best)
    values = HardPlayer(seed, seen.seat).lay_values(seen, REVIEW_WIN_DEALS)
    if not values:
        return None
    best = next(card for card, worth in values.items() if worth.chosen)
    return _Lays(
        {card: worth.net for card, worth in values.items()},
        {card: worth.chance for card, worth in values.items()},
        best,
    )


def _lay_why(seen: View, lays: _Lays, card: Card) -> LayWhy:
    def scores(laid: Card) -> tuple[PegItem, ...]:
        return peg_points((*seen.pile, laid))

    others = [other for other in lays.nets if other.rank != card.rank]
    runner_up = max(others, key=lambda other: (lays.nets[other], -other.rank), default=None)
    return LayWhy(
        scores(card),
        any(scores(other) for other in lays.nets),
        seen.count + card.value,
        lays.nets[card],
        runner_up,
        lays.nets[runner_up] if runner_up is not None else 0.0,
        lays.chances[card],
    )


def best_lay(seen: View, seed: int | str) -> Best | None:
    """The best card to lay by the measure ``review`` judges lays by (the hands sampled
    from ``seed``: the game's, as the review's), and why; None when no hands fit what was
    seen."""
    lays = _lays(seen, seed)
    if lays is None:
        return None
    return Best((lays.best,), _lay_why(seen, lays, lays.best))


def judge_round(info: GameInfo, actions: Sequence[Action], seat: int, number: int) -> Review:
    """A seat's decisions in round ``number``, judged (what a seat's coach keeps, and a
    server has made in a worker process)."""
    return review(info, actions, seat, round_number=number)


def best_at(seen: View, seed: int | str) -> Best | None:
    """What ``hint`` says at the seat's decision: the best throw at the discard, the best
    lay in the play (see :func:`best_throw`, :func:`best_lay`)."""
    return best_throw(seen) if seen.phase is Phase.DISCARD else best_lay(seen, seed)


def judge_lay(seen: View, laid: Card, seed: int | str) -> Decision | None:
    """A card laid against the best by the play search over the hands the others could
    hold, given the seat's view; None when there was no choice to make (one rank that
    could be laid) or no hands fit what was seen. Near the end, what a card lost is the
    chance of winning it gave up, in points."""
    if len({card.rank for card in seen.playable()}) < 2:
        return None
    lays = _lays(seen, seed, laid)
    if lays is None:
        return None
    best = laid if lays.best.rank == laid.rank else lays.best
    by_points = max(lays.nets, key=lambda card: (lays.nets[card], -card.rank))
    best_chance, chosen_chance = lays.chances[best], lays.chances[laid]
    chance = None
    if best.rank == by_points.rank or best_chance is None or chosen_chance is None:
        lost = lays.nets[best] - lays.nets[laid]
    else:
        chance = max(best_chance - chosen_chance, 0.0)
        lost = chance / point_chance(seen.rules.target)
    return Decision(
        seen.round,
        "lay",
        (laid,),
        (best,),
        max(lost, 0.0),
        chance=chance,
        count=seen.count,
        why=_lay_why(seen, lays, best),
        seat=seen.seat,
    )


def open_loss(state: State, seat: int, laid: Card) -> float:
    """What a card laid lost with every card known: the play searched to its end against
    the other hands as they were."""
    seen = view(state, seat)
    pile = tuple(card.rank for card in seen.pile)
    ranks = {card.rank for card in seen.playable()}
    if state.rules.players != 2:
        from cribcli.players import table_search

        hands = tuple(tuple(sorted(card.rank for card in hand)) for hand in state.hands)
        sides = tuple(state.rules.side_of(n) for n in range(state.rules.players))
        tail = scoring_tail(pile) if pile else ()
        nets = {
            rank: table_search.side_net(
                table_search.lay(hands, seat, rank, tail, seen.count, seen.passed, sides),
                seat,
                sides,
            )
            for rank in ranks
        }
        return max(nets.values()) - nets[laid.rank]
    held = tuple(sorted(card.rank for card in seen.hand))
    theirs = tuple(sorted(card.rank for card in state.hands[1 - seat]))
    out = (1 - seat) in seen.passed
    points_after = {rank: after_play(rank, held, theirs, pile, seen.count, out) for rank in ranks}
    return float(max(points_after.values()) - points_after[laid.rank])
