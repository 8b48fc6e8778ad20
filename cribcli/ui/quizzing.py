"""``cribbage quiz`` and ``cribbage train``: the day's discard and pegging problems
asked and graded, the counting drill, and your own costly decisions asked again, in words
or as JSON events (one object a line)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar

from cribcli.cards import Card, parse_cards
from cribcli.coach import Decision, best_lay, best_throw, judge_lay, judge_throw, mark_of
from cribcli.engine import View, showing
from cribcli.errors import CribbageError, Exit, printable
from cribcli.quiz import (
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
from cribcli.reasons import LayWhy, ThrowWhy
from cribcli.stats import QuizDays
from cribcli.store import Places
from cribcli.training import Position, Repetitions, SetUp, set_up, to_train
from cribcli.ui.render import PLAIN, Style, coach_line, peg_lines, show_lines, why_words

Ask = Callable[[str], "str | None"]
"""Asks a question: the line answered, or None when input has ended."""
Say = Callable[[str], None]
T = TypeVar("T")

TRIES = 5
"""Answers that cannot be read, to one question, before the quiz gives up."""


class Ended(Exception):
    """Input ended, or gave nothing usable, before an answer."""


def _answer(
    ask: Ask, say: Say, question: str, read: Callable[[str], T], as_json: bool = False
) -> T:
    """The answer to ``question``, read by ``read`` (a CribbageError says what is wrong,
    and it is asked again, :data:`TRIES` times at most)."""
    for _ in range(TRIES):
        line = ask(question)
        if line is None:
            raise Ended
        try:
            return read(line.strip())
        except CribbageError as error:
            wrong = printable(str(error))
            if as_json:
                say(json.dumps({"event": "error", "message": wrong}))
            else:
                say(f"{wrong[:1].upper()}{wrong[1:]}: try again.")
    raise Ended


class Quiz:
    """The quiz of one day, asked of one person."""

    def __init__(self, ask: Ask, say: Say, *, as_json: bool = False, style: Style = PLAIN) -> None:
        self.ask, self.say, self.as_json, self.style = ask, say, as_json, style

    def emit(self, event: dict[str, object]) -> None:
        self.say(json.dumps(event))

    def day(self, day: str, today: str, book: QuizDays, warn: Say) -> int:
        """Ask the day's two problems, grade them, keep the answers (the first of a day),
        and say the line to share and the streak."""
        answered = book.read().get(day)
        if answered is not None:
            self._told_already(day, today, answered, book)
            return Exit.OK
        try:
            throw = self._discard(discard_problem(day))
            lay = self._pegging(pegging_problem(day))
        except Ended:
            if not self.as_json:
                self.say("No answer: the quiz is not kept.")
            return Exit.USAGE
        try:
            book.keep(day, throw.lost, lay.lost)
        except OSError as error:
            warn(f"cannot keep the quiz's answers in {book.path} ({error.strerror or error})")
        share, streak = share_line(day, throw.lost, lay.lost), book.streak(today)
        if self.as_json:
            self.emit({"event": "quiz", "day": day, "share": share, "streak": streak})
        else:
            self.say("")
            self.say(share)
            self.say(f"Quiz streak: {streak} day{'s' if streak != 1 else ''} in a row.")
        return Exit.OK

    def _told_already(
        self, day: str, today: str, answered: tuple[float, float], book: QuizDays
    ) -> None:
        throw, lay = answered
        share = share_line(day, throw, lay)
        streak = book.streak(today)
        if self.as_json:
            self.emit({"event": "quiz", "day": day, "share": share, "streak": streak})
            return
        self.say(f"You answered the quiz of {day} already:")
        self.say(share)
        self.say(f"Quiz streak: {streak} day{'s' if streak != 1 else ''} in a row.")

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

        grade = _answer(self.ask, self.say, "Throw which two? ", read, self.as_json)
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
            so_far = ", ".join(laid) if laid else "nothing yet: you lead"
            self.say(f"Laid this round: {so_far}. The count is {problem.count}.")
            self.say(f"You hold {self.style.cards(moment.hand)}.")

        def read(line: str) -> LayGrade:
            return grade_lay(problem, Card.parse(line))

        grade = _answer(self.ask, self.say, "Lay which card? ", read, self.as_json)
        if self.as_json:
            self.emit({"event": "graded", "kind": "pegging", **grade.as_json()})
            return grade
        greedy = obvious_lay(problem.values)
        for line in peg_lines_of(problem, self.style):
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


def peg_lines_of(problem: PeggingProblem, style: Style) -> list[str]:
    """The cards that could be laid, valued, as ``peg-advice`` shows them."""
    from cribcli.coach import PegAdvice

    advice = PegAdvice(problem.pile, problem.count, problem.values)
    return peg_lines(advice, advice.values, style)


def count_drill(
    drawn: Sequence[CountHand],
    ask: Ask,
    say: Say,
    clock: Callable[[], float],
    *,
    as_json: bool = False,
    style: Style = PLAIN,
) -> int:
    """A timed round of hands to count (:func:`cribcli.quiz.drill`'s): each shown, the
    total asked, and what was missed told item by item; at the end, how many were right
    and how long it took."""
    right, began, hands = 0, clock(), len(drawn)
    for number, hand in enumerate(drawn, start=1):
        show = hand.show
        what = "Crib" if hand.crib else "Hand"
        if not as_json:
            say(f"{what} {number} of {hands}: {style.cards(hand.hand)}, starter "
                f"{style.card(hand.starter)}")  # fmt: skip
        try:
            said = _answer(ask, say, "Total? ", _total, as_json)
        except Ended:
            if not as_json:
                say("No answer: the round is over.")
            return Exit.USAGE
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
    """A count as typed: a whole number from 0 to 29."""
    if not line.isdecimal() or int(line) > 29:
        raise CribbageError(f"`{printable(line[:12])}` is not a count: type a number, 0 to 29")
    return int(line)


def _counted(hand: CountHand, said: int) -> dict[str, object]:
    show = hand.show
    return {
        "event": "count",
        "hand": [str(card) for card in hand.hand],
        "starter": str(hand.starter),
        "crib": hand.crib,
        "said": said,
        "total": show.total,
        "right": said == show.total,
        "items": [item.describe() for item in show.items],
    }


# --- the trainer ----------------------------------------------------------------------


class Trainer:
    """Your costly decisions asked again, one by one: each answer graded as the review
    grades it, in the coach's words, and counted towards the position's rest."""

    def __init__(
        self, ask: Ask, say: Say, warn: Say, *, as_json: bool = False, style: Style = PLAIN
    ) -> None:
        self.ask, self.say, self.warn = ask, say, warn
        self.as_json, self.style = as_json, style

    def emit(self, event: dict[str, object]) -> None:
        self.say(json.dumps(event))

    def run(self, places: Places, kind: str | None, limit: int) -> int:
        """Ask up to ``limit`` positions; say how it went."""
        waiting = to_train(places, kind)
        book = Repetitions(places.training)
        asked = right = 0
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
            asked += 1
            right += good
            try:
                book.answered(position.key, good)
            except OSError as error:
                if not warned:
                    self.warn(f"cannot keep your training in {book.path} ({error.strerror})")
                    warned = True
        left = len(to_train(places, kind))
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
        return Exit.OK

    def _ask(self, position: Position, found: SetUp) -> bool:
        seen, info = found.seen, found.info
        whose = "your crib" if seen.is_dealer else "their crib"
        you, them = (
            seen.scores[seen.rules.side_of(seen.seat)],
            max(
                score
                for side, score in enumerate(seen.scores)
                if side != seen.rules.side_of(seen.seat)
            ),
        )
        head = (
            f"{position.game}, round {seen.round} ({whose}), you {you} to {them}: "
            f"it lost {position.lost:.2f} then."
        )
        if self.as_json:
            self.emit(
                {
                    "event": "position",
                    "game": position.game,
                    "at": position.at,
                    "kind": position.kind,
                    "round": seen.round,
                    "dealer": seen.is_dealer,
                    "scores": list(seen.scores),
                    "hand": [str(card) for card in seen.hand],
                    "starter": str(seen.starter) if seen.starter else None,
                    "pile": [str(card) for card in seen.pile],
                    "count": seen.count,
                    "lost": round(position.lost, 2),
                }
            )
        else:
            self.say("")
            self.say(head)
        if position.kind == "throw":
            return self._throw(seen)
        if position.kind == "lay":
            return self._lay(seen, info.seed)
        return self._count(found)

    def _throw(self, seen: View) -> bool:
        size = seen.rules.discard_size
        if not self.as_json:
            self.say(f"Dealt: {self.style.cards(seen.hand)}")

        def read(line: str) -> Decision:
            thrown = parse_cards(line.split())
            if len(thrown) != size or len(set(thrown)) != size or not set(thrown) <= set(seen.hand):
                raise CribbageError(f"throw {size} of your cards")
            return judge_throw(seen, thrown)

        decision = _answer(self.ask, self.say, f"Throw which {size}? ", read, self.as_json)
        return self._told(decision, best_throw(seen).why)

    def _lay(self, seen: View, seed: int | str) -> bool:
        if not self.as_json:
            if seen.starter is not None:
                thrown = f"; you threw {self.style.cards(seen.discards)}" if seen.discards else ""
                self.say(f"Starter {self.style.card(seen.starter)}{thrown}.")
            laid = [f"{'me' if seat == seen.seat else 'them'} {card}" for seat, card in seen.plays]
            so_far = ", ".join(laid) if laid else "nothing yet: you lead"
            self.say(f"Laid this round: {so_far}. The count is {seen.count}.")
            self.say(f"You hold {self.style.cards(seen.hand)}.")

        def read(line: str) -> Decision | None:
            card = Card.parse(line)
            if card not in seen.playable():
                can = ", ".join(str(c) for c in seen.playable())
                raise CribbageError(f"{card} cannot be laid: choose one of {can}")
            return judge_lay(seen, card, seed)

        decision = _answer(self.ask, self.say, "Lay which card? ", read, self.as_json)
        best = best_lay(seen, seed)
        return self._told(decision, best.why if best else None)

    def _count(self, found: SetUp) -> bool:
        show = showing(found.state)
        what = "crib" if show.is_crib else "hand"
        if not self.as_json:
            self.say(
                f"Your {what} {self.style.cards(show.hand)}, starter "
                f"{self.style.card(show.starter)}: what does it count?"
            )
        said = _answer(self.ask, self.say, "Total? ", _total, self.as_json)
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

    def _told(self, decision: Decision | None, why: ThrowWhy | LayWhy | None) -> bool:
        """Say how an answer did; whether it was right (the best, or within a slip)."""
        lost = decision.lost if decision is not None else 0.0
        good = mark_of(lost) in ("", "slip")
        if self.as_json:
            shown = decision.as_json() if decision is not None else {}
            self.emit({"event": "trained", "right": good, **shown})
            return good
        if decision is None or lost < 0.005:
            because = f": {why_words(why, self.style)}" if why is not None else ""
            self.say(f"Right: the best{because}.")
        elif good:
            best = self.style.cards(decision.best)
            self.say(f"Near enough: {lost:.2f} lost (a slip); {best} was best.")
        else:
            said = coach_line(decision, self.style).removeprefix("Coach: ")
            self.say(said[:1].upper() + said[1:])
        return good
