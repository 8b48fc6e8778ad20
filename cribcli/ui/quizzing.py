"""``cribbage quiz`` and ``cribbage train``: the day's discard and pegging problems
asked and graded, the counting drill, and your own costly decisions asked again, in words
or as JSON events (one object a line)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar

from cribcli.record.log import GameInfo
from cribcli.record.store import Places
from cribcli.review.coach import Decision, judge_lay, judge_throw, mark_of
from cribcli.review.history import QuizDays, kept_loss
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.engine import View, showing
from cribcli.rules.errors import CribbageError, Exit, printable
from cribcli.services.quiz import (
    CountHand,
    DiscardProblem,
    LayGrade,
    PeggingProblem,
    ThrowGrade,
    discard_problem,
    grade_lay,
    grade_throw,
    obvious_lay,
    pegging_problem,
    share_line,
)
from cribcli.services.training import Position, Repetitions, SetUp, set_up, to_train
from cribcli.ui.coaching import coach_line, peg_lines, why_words
from cribcli.ui.render import PLAIN, WIDE, Style, fit, show_lines

Ask = Callable[[str], "str | None"]
"""Asks a question: the line answered, or None when input has ended."""
Say = Callable[[str], None]
T = TypeVar("T")

PIPED_TRIES = 100
"""Answers in a row that cannot be read, from a pipe or a script, before it is taken as
ended (at a terminal a person is asked again for as long as they like)."""

QUIT = frozenset({"quit", "exit", "q", "stop"})
HELP = frozenset({"help", "?", "h"})

HINTS = {
    "throw": (
        "Into your own crib, throw cards that help each other (a pair, a 5, two that make "
        "15); into theirs, cards far apart, and a 5 never if you can help it. Keep fives "
        "with tens, and runs and pairs together."
    ),
    "lay": (
        "A card below 5 is a safe lead (no one card makes 15 on it); never leave the count "
        "at 5 or 21, where a ten-card makes 15 or 31; the second card of a rank invites "
        "the third, for 6."
    ),
    "count": (
        "Count the same way every time: fifteens (every set of cards making 15, 2 each), "
        "pairs (2 each), runs (1 a card, once for each way), the flush, and nobs (the "
        "jack of the starter's suit)."
    ),
}
"""What ``hint`` says of each kind of question: how to think about it, not its answer."""


class Ended(Exception):
    """Input ended, or gave nothing usable, before an answer."""


class Stopped(Exception):
    """The person asked to stop (``quit``): the answers so far are kept."""


def _answer(
    ask: Ask,
    say: Say,
    question: str,
    read: Callable[[str], T],
    as_json: bool = False,
    *,
    kind: str,
    example: str,
    patient: bool = False,
) -> T:
    """The answer to ``question``, read by ``read`` (a CribbageError says what is wrong,
    and it is asked again: at a terminal (``patient``) for as long as it takes, from a
    pipe :data:`PIPED_TRIES` times in a row at most). ``help`` says what can be typed
    (``example`` of an answer), ``hint`` how to think about this ``kind`` of question,
    ``quit`` stops (raising Stopped)."""
    wrong = 0
    while patient or wrong < PIPED_TRIES:
        try:
            line = ask(question)  # (a line that cannot be read is a CribbageError too)
            if line is None:
                raise Ended
            word = line.strip().lower()
            if word in QUIT:
                raise Stopped
            if word in HELP or word == "hint":
                told = (
                    HINTS[kind]
                    if word == "hint"
                    else (
                        f"Type {example}; `hint` for a hint; `quit` stops (your answers so far "
                        "are kept)."
                    )
                )
                if as_json:
                    say(
                        json.dumps({"event": "hint" if word == "hint" else "help", "message": told})
                    )
                else:
                    say(f"Hint: {told}" if word == "hint" else told)
                continue
            return read(line.strip())
        except CribbageError as error:
            wrong += 1
            said = printable(str(error))
            if as_json:
                say(json.dumps({"event": "error", "message": said}))
            else:
                more = " (`help` says what to type)" if wrong % 3 == 0 else ""
                say(f"{said[:1].upper()}{said[1:]}: try again{more}.")
    raise Ended


class Quiz:
    """The quiz of one day, asked of one person."""

    def __init__(
        self,
        ask: Ask,
        say: Say,
        *,
        as_json: bool = False,
        style: Style = PLAIN,
        patient: bool = False,
    ) -> None:
        self.ask, self.say, self.as_json, self.style = ask, say, as_json, style
        self.patient = patient
        """Asked at a terminal: an answer that cannot be read is asked again for ever."""

    def emit(self, event: dict[str, object]) -> None:
        self.say(json.dumps(event))

    def day(self, day: str, today: str, book: QuizDays, warn: Say) -> int:
        """Ask the day's two problems, grade them, keep each answer as it is graded (the
        first of a day counts: a problem answered already is not asked again), and say
        the line to share and the streak."""
        answered = book.read().get(day)
        throw = answered.throw if answered else None
        lay = answered.lay if answered else None
        warned: list[bool] = []

        def keep(**lost: float) -> None:
            try:
                book.keep(day, today=today, **lost)
            except OSError as error:
                if not warned:
                    warn(f"cannot keep the quiz's answers in {book.path} ({error.strerror})")
                    warned.append(True)

        try:
            if throw is None:
                throw = kept_loss(self._discard(discard_problem(day)).lost)
                keep(throw=throw)
            elif lay is None and not self.as_json:
                self.say(f"Your throw of {day} is kept; now the pegging problem.")
            if lay is None:
                lay = kept_loss(self._pegging(pegging_problem(day)).lost)
                keep(lay=lay)
            elif not self.as_json:
                self.say(f"You answered the quiz of {day} already:")
        except (Ended, Stopped) as stop:
            done = int(throw is not None) + int(lay is not None)
            quit = isinstance(stop, Stopped)
            if self.as_json:
                why = "quit" if quit else "input ended"
                self.emit({"event": "stopped", "day": day, "answered": done, "why": why})
            elif quit:
                self.say("Stopped: your answers are kept; the rest of the quiz waits for you.")
            else:
                self.say("No answer: the rest of the quiz waits for you.")
            return Exit.OK if quit else Exit.USAGE
        share, streak = share_line(day, throw, lay), book.streak(today)
        if self.as_json:
            self.emit({"event": "quiz", "day": day, "share": share, "streak": streak})
        else:
            self.say("")
            self.say(share)
            self.say(f"Quiz streak: {streak} day{'s' if streak != 1 else ''} in a row.")
        return Exit.OK

    def _discard(self, problem: DiscardProblem) -> ThrowGrade:
        whose = "your crib" if problem.dealer else "their crib"
        cards = self.style.cards(problem.hand)
        if self.as_json:
            self.emit(
                {
                    "event": "problem",
                    "kind": "discard",
                    "day": problem.day,
                    "hand": [str(card) for card in problem.hand],
                    "dealer": problem.dealer,
                }
            )
        else:
            self.say(f"The discard problem of {problem.day} ({whose}).")
            self.say(f"Dealt: {cards}")

        def read(line: str) -> ThrowGrade:
            return grade_throw(problem, parse_cards(line.split()))

        grade = _answer(
            self.ask, self.say, "Throw which two? ", read, self.as_json,
            kind="throw", example="the two cards to throw, e.g. 5H JD", patient=self.patient,
        )  # fmt: skip
        if self.as_json:
            self.emit({"event": "graded", "kind": "discard", **grade.as_json()})
            return grade
        best = self.style.cards(grade.best)
        self.say(
            f"Best: throw {best}: hand {grade.best_hand:.2f} {'+' if problem.dealer else '-'}"
            f" crib {grade.best_crib:.2f} = {grade.best_net:.2f} on average."
        )
        if grade.lost < 0.005:
            self.say("Yours is the best.")
        else:
            mark = f" ({grade.mark})" if grade.mark else ""
            self.say(
                f"Yours, {self.style.cards(grade.thrown)}: {grade.net:.2f}, "
                f"{grade.lost:.2f} lost{mark}."
            )
        return grade

    def _pegging(self, problem: PeggingProblem) -> LayGrade:
        moment = problem.moment
        laid = [f"{'me' if seat == 0 else 'them'} {card}" for seat, card in moment.laid]
        if self.as_json:
            self.emit(
                {
                    "event": "problem",
                    "kind": "pegging",
                    "day": problem.day,
                    "hand": [str(card) for card in moment.hand],
                    "laid": laid,
                    "count": problem.count,
                    "starter": str(moment.starter),
                    "thrown": [str(card) for card in moment.thrown],
                    "dealer": moment.dealer,
                }
            )
        else:
            whose = "your crib" if moment.dealer else "their crib"
            self.say("")
            self.say(f"The pegging problem of {problem.day} ({whose}).")
            self.say(
                f"Starter {self.style.card(moment.starter)}; you threw "
                f"{self.style.cards(moment.thrown)}."
            )
            words = [
                f"{'you' if seat == 0 else 'they'} {self.style.card(card)}"
                for seat, card in moment.laid
            ]
            so_far = ", ".join(words) if words else "nothing yet: you lead"
            self.say(f"Laid this round: {so_far}. The count is {problem.count}.")
            self.say(f"You hold {self.style.cards(moment.hand)}.")

        def read(line: str) -> LayGrade:
            return grade_lay(problem, Card.parse(line))

        grade = _answer(
            self.ask, self.say, "Lay which card? ", read, self.as_json,
            kind="lay", example="the card to lay, e.g. 4C", patient=self.patient,
        )  # fmt: skip
        if self.as_json:
            self.emit({"event": "graded", "kind": "pegging", **grade.as_json()})
            return grade
        greedy = obvious_lay(problem.values)
        for line in peg_lines(problem.advice, problem.values, self.style):
            self.say(line)
        if grade.lost < 0.005:
            self.say("Yours is the best.")
        else:
            mark = f" ({grade.mark})" if grade.mark else ""
            self.say(f"Yours, {self.style.card(grade.laid.card)}: {grade.lost:.2f} lost{mark}.")
        if greedy.now > problem.values[0].now:
            self.say(
                f"{self.style.card(greedy.card)} takes {greedy.now} now, and gives more back "
                "before the play is over."
            )
        return grade


def count_drill(
    drawn: Sequence[CountHand],
    ask: Ask,
    say: Say,
    clock: Callable[[], float],
    *,
    as_json: bool = False,
    style: Style = PLAIN,
    patient: bool = False,
) -> int:
    """A timed round of hands to count (:func:`cribcli.services.quiz.drill`'s): each shown, the
    total asked, and what was missed told item by item; at the end, how many were right
    and how long it took."""
    right, began, hands = 0, clock(), len(drawn)
    for number, hand in enumerate(drawn, start=1):
        show = hand.show
        what = " (a crib)" if hand.crib else ""
        if as_json:
            say(json.dumps({"event": "problem", "kind": "count", **_cards(hand)}))
        else:
            say(f"Hand {number} of {hands}{what}: {style.cards(hand.hand)}, starter "
                f"{style.card(hand.starter)}")  # fmt: skip
        try:
            said = _answer(
                ask, say, "Total? ", _total, as_json,
                kind="count", example="the total, e.g. 12", patient=patient,
            )  # fmt: skip
        except (Ended, Stopped) as stop:
            counted, quit = number - 1, isinstance(stop, Stopped)
            if as_json:
                why = "quit" if quit else "input ended"
                say(json.dumps({"event": "stopped", "right": right, "hands": counted, "why": why}))
            elif counted:
                say(f"{'Stopped' if quit else 'No more answers'}: {right} of {counted} right.")
            else:
                say("No answer: the round is over.")
            return Exit.OK if quit else Exit.USAGE
        right += said == show.total
        if as_json:
            say(json.dumps(_counted(hand, said)))
        elif said == show.total:
            say(f"Right: {show.total}.")
        else:
            off = show.total - said
            short = f"{off} short" if off > 0 else f"{-off} over"
            say(f"It is {show.total}; you said {said} ({short}):")
            for line in show_lines(show, style)[1:]:
                say(line)
    took = clock() - began
    if as_json:
        say(
            json.dumps(
                {"event": "drill", "right": right, "hands": hands, "seconds": round(took, 1)}
            )
        )
    else:
        minutes, seconds = divmod(round(took), 60)
        spent = f"{minutes} min {seconds} s" if minutes else f"{seconds} s"
        say("")
        say(
            f"{right} of {hands} right ({100 * right / hands:.0f}%) in {spent}, "
            f"{took / hands:.1f} s a hand."
        )
    return Exit.OK


def _total(line: str) -> int:
    """A count as typed: a whole number from 0 to 29 (19, which no hand makes, is what
    players call a hand of nothing: 0)."""
    if not line.isdecimal() or int(line) > 29:
        raise CribbageError(f"`{printable(line[:12])}` is not a count: type a number, 0 to 29")
    return 0 if int(line) == 19 else int(line)


def _cards(hand: CountHand) -> dict[str, object]:
    return {
        "hand": [str(card) for card in hand.hand],
        "starter": str(hand.starter),
        "crib": hand.crib,
    }


def _counted(hand: CountHand, said: int) -> dict[str, object]:
    show = hand.show
    return {
        "event": "count",
        **_cards(hand),
        "said": said,
        "total": show.total,
        "right": said == show.total,
        "items": [item.describe() for item in show.items],
    }


# --- the trainer ----------------------------------------------------------------------


def _game_words(info: GameInfo, seat: int) -> str:
    """Which game a position is of, as a person remembers it: its day and whom it was
    against (``The game of 2026-12-05 v Computer (hard)``), not its log's file name."""
    others = [
        printable(spec.name) + (f" ({spec.level.label})" if spec.level else "")
        for n, spec in enumerate(info.seats)
        if n != seat
    ]
    day = f" of {info.started[:10]}" if info.started else ""
    return f"The game{day} v {' and '.join(others)}"


class Trainer:
    """Your costly decisions asked again, one by one: each answer graded as the review
    grades it, in the coach's words, and counted towards the position's rest."""

    def __init__(
        self,
        ask: Ask,
        say: Say,
        warn: Say,
        *,
        as_json: bool = False,
        style: Style = PLAIN,
        patient: bool = False,
    ) -> None:
        self.ask, self.say, self.warn = ask, say, warn
        self.as_json, self.style = as_json, style
        self.patient = patient
        """Asked at a terminal: an answer that cannot be read is asked again for ever."""

    def emit(self, event: dict[str, object]) -> None:
        self.say(json.dumps(event))

    def run(self, places: Places, kind: str | None, limit: int) -> int:
        """Ask up to ``limit`` positions; say how it went. Exit status 2 if input ended
        before any answer."""
        waiting = to_train(places, kind)
        book = Repetitions(places.training)
        asked = right = rested = 0
        warned = ended = False
        for position in waiting:
            if asked == limit:
                break
            found = set_up(places, position, self.warn)
            if found is None:
                continue
            try:
                good = self._ask(position, found)
            except Ended:
                ended = True
                break
            except Stopped:
                break
            if good is None:  # no hand fits what was seen: nothing to judge it by
                continue
            asked += 1
            right += good
            try:
                rested += book.answered(position.key, good)
            except OSError as error:
                if not warned:
                    self.warn(f"cannot keep your training in {book.path} ({error.strerror})")
                    warned = True
        left = len(waiting) - rested
        if self.as_json:
            self.emit({"event": "training", "asked": asked, "right": right, "left": left})
        elif ended and not asked:
            self.say("No answer: nothing was counted.")
        elif not asked:
            self.say(
                "Nothing to train: no costly decision of yours waits. Review your games "
                "('cribbage review --last'), or play with the coach."
            )
        else:
            self.say("")
            self.say(
                f"{right} of {asked} right; {left} position{'s' if left != 1 else ''} "
                "still to learn (two right in a row rests one)."
            )
        return Exit.USAGE if ended and not asked else Exit.OK

    def _ask(self, position: Position, found: SetUp) -> bool | None:
        seen, info = found.seen, found.info
        names = [printable(seat.name) for seat in info.seats]
        mine = seen.rules.side_of(seen.seat)
        you = seen.scores[mine]
        them = max(score for side, score in enumerate(seen.scores) if side != mine)
        whose = "your crib" if seen.is_dealer else f"{names[seen.dealer]}'s crib"
        if self.as_json:
            event: dict[str, object] = {
                "event": "position",
                "game": position.game,
                "at": position.at,
                "kind": position.kind,
                "round": seen.round,
                "dealer": seen.is_dealer,
                "scores": list(seen.scores),
                "hand": [str(card) for card in seen.hand],
                "starter": str(seen.starter) if seen.starter else None,
                "count": seen.count,
                "pile": [str(card) for card in seen.pile],
                "lost": round(position.lost, 2),
            }
            if position.kind == "count":
                show = showing(found.state)
                event |= {"hand": [str(c) for c in show.hand], "crib": show.is_crib}
            self.emit(event)
        else:
            self.say("")
            line = (
                f"{_game_words(info, seen.seat)}, round {seen.round} ({whose}), you {you} to "
                f"{them}: you lost {position.lost:.2f} points here."
            )
            for part in fit(line, WIDE):
                self.say(part)
        if position.kind == "throw":
            return self._throw(seen)
        if position.kind == "lay":
            return self._lay(seen, info.seed, names)
        return self._count(found)

    def _throw(self, seen: View) -> bool:
        size = seen.rules.discard_size
        which = "which card" if size == 1 else f"which {size}"
        if not self.as_json:
            self.say(f"Dealt: {self.style.cards(seen.hand)}")

        def read(line: str) -> Decision:
            thrown = parse_cards(line.split())
            if len(thrown) != size or len(set(thrown)) != size or not set(thrown) <= set(seen.hand):
                raise CribbageError(f"throw {which[6:]} of your cards")
            return judge_throw(seen, thrown)

        decision = _answer(
            self.ask, self.say, f"Throw {which}? ", read, self.as_json,
            kind="throw", example=f"the cards to throw, e.g. {'5H JD' if size == 2 else '5H'}",
            patient=self.patient,
        )  # fmt: skip
        return self._told(decision)

    def _lay(self, seen: View, seed: int | str, names: Sequence[str]) -> bool | None:
        if not self.as_json:
            if seen.starter is not None:
                thrown = f"; you threw {self.style.cards(seen.discards)}" if seen.discards else ""
                self.say(f"Starter {self.style.card(seen.starter)}{thrown}.")
            counted = seen.plays[len(seen.plays) - len(seen.pile) :] if seen.pile else ()
            laid = [
                f"{'you' if seat == seen.seat else names[seat]} {self.style.card(card)}"
                for seat, card in counted
            ]
            so_far = ", ".join(laid) if laid else "nothing yet"
            self.say(f"This count: {so_far}; it stands at {seen.count}.")
            self.say(f"You hold {self.style.cards(seen.hand)}.")

        def read(line: str) -> Decision | None:
            card = Card.parse(line)
            if card not in seen.playable():
                can = ", ".join(str(c) for c in seen.playable())
                raise CribbageError(f"{card} cannot be laid: choose one of {can}")
            return judge_lay(seen, card, seed)

        decision = _answer(
            self.ask, self.say, "Lay which card? ", read, self.as_json,
            kind="lay", example="the card to lay, e.g. 4C", patient=self.patient,
        )  # fmt: skip
        return None if decision is None else self._told(decision)

    def _count(self, found: SetUp) -> bool:
        show = showing(found.state)
        what = "crib" if show.is_crib else "hand"
        if not self.as_json:
            self.say(
                f"Your {what} {self.style.cards(show.hand)}, starter "
                f"{self.style.card(show.starter)}: what does it count?"
            )
        said = _answer(
            self.ask, self.say, "Total? ", _total, self.as_json,
            kind="count", example="the total, e.g. 12", patient=self.patient,
        )  # fmt: skip
        good = said == show.total
        if self.as_json:
            self.emit({"event": "trained", "right": good, "said": said, "total": show.total})
        elif good:
            self.say(f"Right: {show.total}.")
        else:
            self.say(f"It is {show.total}; you said {said}:")
            for line in show_lines(show, self.style)[1:]:
                self.say(line)
        return good

    def _told(self, decision: Decision) -> bool:
        """Say how an answer did; whether it was right (the best, or within a slip:
        under half a point, where the marks begin)."""
        good = mark_of(decision.lost) in ("", "slip")
        if self.as_json:
            self.emit({"event": "trained", "right": good, **decision.as_json()})
        elif decision.lost < 0.005:
            why = decision.why
            because = f": {why_words(why, self.style)}" if why is not None else ""
            self.say(f"Right, the best{because}.")
        elif good:
            best = self.style.cards(decision.best)
            self.say(f"Near enough: {decision.lost:.2f} lost (a slip); {best} was best.")
        else:
            said = coach_line(decision, self.style).removeprefix("Coach: ")
            self.say(said[:1].upper() + said[1:])
        return good
