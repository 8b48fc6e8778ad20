"""The coach's words: the advice on a throw or a lay, why a choice is best, a review's
decisions and marks, the grades, and luck told from skill. Strings only; nothing prints.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cribcli.rules.cards import Card
from cribcli.rules.errors import printable
from cribcli.rules.scoring import COUNT_LIMIT, ShowItem
from cribcli.ui.render import PLAIN, WIDE, Style, fit, possessive, seen_len

if TYPE_CHECKING:
    from cribcli.record.log import GameInfo
    from cribcli.review.coach import Decision, ForTheWin, LayValue, PegAdvice, Review
    from cribcli.review.grading import Grade
    from cribcli.review.luck import Luck
    from cribcli.rules.analysis import Advice, DiscardValue
    from cribcli.rules.reasons import LayWhy, ThrowWhy


def advice_lines(advice: Advice, values: Sequence[DiscardValue], style: Style = PLAIN) -> list[str]:
    """The discard table (``values``, the advice's or its best few): throw, keep, hand,
    crib, net, the hand's range; the best marked."""
    dealer, need, reach = advice.dealer, advice.need, advice.by_chance
    crib_sign = "+" if dealer else "-"
    header = f"   {'throw':<9}{'keep':<14}{'hand':>6}{'crib':>8}{'net':>8}  range"
    if reach:
        header += f"  hand >= {need}"
    title = "Your crib: net = hand + crib" if dealer else "Their crib: net = hand - crib"
    if need is not None:
        title += (
            f"; ranked by the chance the hand makes the {need} you need (pegging not counted)"
            if reach
            else f"; you need {need}, more than a hand can make: ranked by net"
        )
    lines = [title, header]
    for i, value in enumerate(values):
        throw = _column(value.discard, 9, style)
        keep = _column(value.keep, 14, style)
        crib = f"{crib_sign}{value.crib:.2f}"
        line = (
            f" {'*' if i == 0 else ' '} {throw}{keep}{value.hand:6.2f}{crib:>8}{value.net:8.2f}"
            f"  {value.hand_min:>2}-{value.hand_max:<2}"
        )
        if reach:
            line += f"  {100 * value.chance_at_least(need or 0):7.1f}%"
        line = line.rstrip()
        lines.append(style.bold(line) if i == 0 else line)
    return lines


def peg_lines(advice: PegAdvice, values: Sequence[LayValue], style: Style = PLAIN) -> list[str]:
    """The lay table (``values``, the advice's or its best few): card, points now, net;
    the best marked."""
    if advice.pile:
        where = f"The count is {advice.count}: {style.cards(advice.pile)}."
        if advice.their_go:
            where += " They said go."
    else:
        where = "You lead: the count is 0."
    lines = [
        where,
        "Net: your points less theirs for the rest of this play, both laying their best.",
        "   lay    now     net",
    ]
    for i, lay in enumerate(values):
        mark = "*" if i == 0 else " "
        line = f" {mark} {_column((lay.card,), 5, style)}{lay.now:4}{lay.net:+8.2f}"
        lines.append(style.bold(line) if i == 0 else line)
    return lines


def review_lines(review: Review, info: GameInfo, style: Style = PLAIN) -> list[str]:
    """A review for people: each round's decisions, each with what was best and what it
    lost and its mark; then the summary."""
    names = [printable(seat.name) for seat in info.seats]
    whose = possessive(names[review.seat])
    lines = [f"{whose} decisions (seat {review.seat}), marked by what they lost."]
    shown_round = 0
    for decision in review.decisions:
        if decision.round != shown_round:
            shown_round = decision.round
            dealer = review.dealers[decision.round - 1]
            yours = names[dealer] == "You" or (
                dealer == review.seat and info.seats[dealer].player == "human"
            )
            crib = "your" if yours else possessive(names[dealer])
            lines.append(f"Round {decision.round} ({crib} crib)")
        lines.append(_decision_line(decision, style))
        if decision.for_the_win:
            lines.append(f"{' ' * 6}best {_for_the_win(decision.for_the_win, style)}")
        elif decision.costly and decision.why is not None:  # why, as the coach says it
            why = f"{' ' * 6}{style.cards(decision.best)}: {why_words(decision.why, style)}"
            lines.extend(fit(why, WIDE))
    lines.extend(review_summary_lines(review))
    return lines


def _decision_line(decision: Decision, style: Style) -> str:
    """``  throw 5H 5S         best 10C KD    lost  2.10  mistake    (hand+crib 1.80)``:
    what was chosen, the best (``best`` alone when it was), the points lost, the mark, and
    a note: near the end the chance of winning lost; for a throw, the exact hand and crib
    part where the loss is more than that; with --open, the loss with every card known."""
    if decision.kind == "count":
        chose, best = f"claimed {decision.claimed}", f"true {decision.true}"
    else:
        same = decision.lost < 0.005 or (
            set(decision.best) == set(decision.chose)
            if decision.kind == "throw"
            else decision.best == decision.chose
        )
        chose = style.cards(decision.chose)
        if decision.kind == "lay":
            chose += f" on {decision.count}"
        best = "best" if same else f"best {style.cards(decision.best)}"
    line = f"  {decision.kind:<6}{chose}{' ' * max(15 - seen_len(chose), 1)}{best}"
    notes = []
    if decision.given:
        notes.append(f"{decision.given} given away")
    if decision.chance:
        notes.append(f"{100 * decision.chance:.1f}% to win")
    elif decision.exact is not None and abs(decision.exact - decision.lost) >= 0.005:
        notes.append(f"hand+crib {decision.exact:.2f}")
    if decision.open_lost is not None:
        notes.append(f"open {round(decision.open_lost, 2):g}")
    noted = f"({', '.join(notes)})" if notes else ""
    if decision.lost >= 0.005:
        line += " " * max(36 - seen_len(line), 1) + f"lost {decision.lost:5.2f}"
        line += f"  {decision.mark:<11}" + noted
    elif notes:  # the best: nothing lost to say, only the note
        line += " " * max(36 - seen_len(line), 1) + noted
    line = line.rstrip()
    return style.bold(line) if decision.mark in ("mistake", "blunder") else line


def _for_the_win(win: ForTheWin, style: Style) -> str:
    """``for the win: 3.5% against 1.6% throwing 6♣ Q♦ (+2.91 points)``."""
    return (
        f"for the win: {100 * win.chance:.1f}% against {100 * win.by_points_chance:.1f}%"
        f" throwing {style.cards(win.by_points)} (+{win.points:.2f} points)"
    )


def review_summary_lines(review: Review) -> list[str]:
    """The summary: decisions, points lost in all and a deal, the marks, the costliest."""
    if not review.decisions:
        return ["No decisions to review."]
    deals = review.deals
    kinds = f"throws {review.per_deal('throw'):.2f}, lays {review.per_deal('lay'):.2f}"
    if review.lost("count"):
        kinds += f", counts {review.per_deal('count'):.2f}"
    lines = [
        f"{len(review.decisions)} decisions over {deals} deal{'s' if deals != 1 else ''}: "
        f"{review.lost():.2f} points lost.",
        f"A deal: {review.per_deal():.2f} lost ({kinds}).",
        "Marks: " + ", ".join(_many(n, mark) for mark, n in review.marks().items()) + ".",
        grade_line(review.grade()),
    ]
    costliest = review.costliest()
    if costliest:
        lines.append("Costliest:")
        lines.extend(
            f"  round {d.round}, {d.kind} {_plain_cards(d)}: {d.lost:.2f}" for d in costliest
        )
    return lines


def grade_line(grade: Grade) -> str:
    """``Accuracy 84.3, club player: 0.17 points lost a decision (throws 0.01, lays 0.24).``"""
    from cribcli.review.grading import KINDS

    kinds = ", ".join(
        f"{kind}s {grade.error_rate(kind):.2f}"
        for kind, n in zip(KINDS, grade.decisions, strict=True)
        if n
    )
    return (
        f"Accuracy {grade.accuracy:.1f}, {grade.rating}: {grade.error_rate():.2f} points lost "
        f"a decision ({kinds or 'none'})."
    )


def seat_grades_lines(reviews: Sequence[Review], info: GameInfo) -> list[str]:
    """Every seat's decisions graded, a line a seat (a review shows them after the
    reviewed seat's decisions)."""
    who = _seat_labels(info)
    width = max(len(label) for label in who)
    lines = [
        f"{'Every seat':<{width + 2}}{'decisions':>10}{'lost a decision':>17}{'accuracy':>10}"
        "  rating"
    ]
    for judged in reviews:
        grade = judged.grade()
        lines.append(
            f"  {who[judged.seat]:<{width}}{grade.made:>10}{grade.error_rate():>17.2f}"
            f"{grade.accuracy:>10.1f}  {grade.rating}"
        )
    return lines


_RUNS = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double double run"}
_SETS = {3: "three of a kind", 6: "four of a kind"}


def kept_words(items: Sequence[ShowItem]) -> str:
    """What kept cards score among themselves: ``fifteen 4, a pair and a run of 3``."""
    kinds: dict[str, list[ShowItem]] = {}
    for item in items:
        kinds.setdefault(item.kind.value, []).append(item)
    parts = []
    if "fifteen" in kinds:
        parts.append(f"fifteen {2 * len(kinds['fifteen'])}")
    if "pair" in kinds:  # by rank: 1 pair is a pair, 3 three of a kind, 6 four
        sets = sorted(Counter(item.cards[0].rank for item in kinds["pair"]).values())
        pairs = sets.count(1)
        parts.extend(_SETS[n] for n in reversed(sets) if n > 1)
        parts.extend(["a pair"] if pairs == 1 else ["two pairs"] if pairs == 2 else [])
    if "run" in kinds:
        runs = kinds["run"]
        parts.append(f"{_RUNS.get(len(runs), f'{len(runs)} runs')} of {len(runs[0].cards)}")
    if "flush" in kinds:
        parts.append("a flush")
    if not parts:
        return "nothing that scores yet"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def why_words(why: ThrowWhy | LayWhy, style: Style = PLAIN) -> str:
    """Why the best was best, in a few words, from the measure that chose it."""
    from cribcli.rules.reasons import ThrowWhy

    if isinstance(why, ThrowWhy):
        crib = _signed(why.crib, style)
        words = f"keeps {kept_words(why.keeps)}; hand {why.hand:.1f}, crib {crib}"
        if abs(why.pegging) >= 0.05:
            words += f", pegging {_signed(why.pegging, style)}"
    else:
        if why.scores:
            words = ", ".join(item.describe() for item in why.scores)
        else:
            words = "it scores nothing now" if why.any_scores else "nothing you lay scores"
        words += f"; it leaves {_leaves(why.count)}; net {_signed(why.net, style)} for the play"
        if why.runner_up is not None:
            words += f" ({style.card(why.runner_up)}: {_signed(why.runner_up_net, style)})"
    if why.chance is not None:
        words += f"; {100 * why.chance:.0f}% to win"
    return words


def _leaves(count: int) -> str:
    """``21: a ten-card makes 31``, or ``17: no one card makes 31``."""
    if count == COUNT_LIMIT:
        return "31, and the count starts again"
    for target in (15, COUNT_LIMIT):
        need = target - count
        if 1 <= need <= 10:
            card = {10: "a ten-card", 1: "an ace", 8: "an 8"}.get(need, f"a {need}")
            return f"{count}: {card} makes {target}"
    return f"{count}: no one card makes {15 if count < 15 else COUNT_LIMIT}"


def _signed(value: float, style: Style) -> str:
    """``+1.2``, ``-3.1`` (a minus sign where suits are symbols), ``0.0``."""
    text = f"{abs(value):.1f}"
    if text == "0.0":
        return text
    return ("+" if value > 0 else "\N{MINUS SIGN}" if style.unicode else "-") + text


def coach_line(decision: Decision, style: Style = PLAIN) -> str:
    """The coach after a show: ``Coach: your throw 5♥ 5♠ cost 2.10 points (mistake):
    10♣ K♦ was best.``"""
    if decision.kind == "count":
        return (
            f"Coach: you claimed {decision.claimed} of {decision.true}: "
            f"{round(decision.lost)} given away ({decision.mark})."
        )
    cost = (
        f"{100 * decision.chance:.1f}% of your chance to win"
        if decision.chance
        else f"{decision.lost:.2f} points"
    )
    what = (
        f"your throw {style.cards(decision.chose)}"
        if decision.kind == "throw"
        else f"your {style.cards(decision.chose)} on {decision.count}"
    )
    because = ""
    if decision.why is not None and not decision.for_the_win:  # (else why is the win's)
        because = f": {why_words(decision.why, style)}"
    win = (
        f" It is best {_for_the_win(decision.for_the_win, style)}." if decision.for_the_win else ""
    )
    best = style.cards(decision.best)
    return f"Coach: {what} cost {cost} ({decision.mark}): {best} was best{because}.{win}"


def _seat_labels(info: GameInfo) -> list[str]:
    """``Ann (seat 0)``, a seat a label, the names escaped (they come from the log)."""
    return [f"{printable(seat.name)} (seat {n})" for n, seat in enumerate(info.seats)]


def luck_lines(luck: Luck, info: GameInfo) -> list[str]:
    """Each seat's luck by part, its score and its score without the luck; then who
    would have been ahead had luck been even."""
    names = [printable(seat.name) for seat in info.seats]
    who = _seat_labels(info)
    width = max(13, *(len(label) for label in who))
    lines = [
        f"{'Luck, in points':<{width + 2}}{'deal':>7}{'starter':>9}{'play':>7}{'in all':>8}"
        f"{'score':>7}{'skill only':>12}"
    ]
    for seat in luck.seats():
        lines.append(
            f"  {who[seat.seat]:<{width}}{seat.deal:>+7.1f}{seat.starter:>+9.1f}{seat.play:>+7.1f}"
            f"{seat.total:>+8.1f}{seat.score:>7}{seat.skill_only:>12.1f}"
        )
    lines.append(skill_words(luck, names))
    return lines


def skill_words(luck: Luck, names: Sequence[str], you: int | None = None) -> str:
    """``With luck even, Ann would have been ahead by 4.2 points.`` (``you`` for the seat
    ``you``, the reader's)."""
    margin = luck.skill_margin(0)
    if abs(margin) < 0.05:
        return "With luck even, the two would have been level."
    ahead = 0 if margin > 0 else 1
    who = "you" if ahead == you or names[ahead] == "You" else names[ahead]
    return f"With luck even, {who} would have been ahead by {abs(margin):.1f} points."


def coach_summary(review: Review, luck: Luck | None, names: Sequence[str]) -> list[str]:
    """The coach at the end of a game, in two lines; a third with the luck (a game of
    two: ``names`` are the seats')."""
    marks = ", ".join(_many(n, mark) for mark, n in review.marks().items() if n)
    grade = review.grade()
    lines = [
        f"Coach: your decisions lost {review.lost():.1f} points this game, "
        f"{review.per_deal():.2f} a deal: accuracy {grade.accuracy:.1f}, {grade.rating}.",
        f"Marks: {marks or 'none'}; 'cribbage review --last' shows each decision.",
    ]
    if luck is not None:
        mine = luck.seat(review.seat)
        lines.append(
            f"Luck: yours {mine.total:+.1f} (deal {mine.deal:+.1f}, starter {mine.starter:+.1f},"
            f" play {mine.play:+.1f}), the other side's {luck.seat(1 - review.seat).total:+.1f}."
            f" {skill_words(luck, names, review.seat)}"
        )
    return lines


def _many(n: int, mark: str) -> str:
    """``1 slip``, ``2 inaccuracies``."""
    if n == 1:
        return f"1 {mark}"
    return f"{n} {mark[:-1]}ies" if mark.endswith("y") else f"{n} {mark}s"


def _plain_cards(decision: Decision) -> str:
    if decision.kind == "count":
        return f"claimed {decision.claimed}"
    return " ".join(str(card) for card in decision.chose)


def _column(cards: Sequence[Card], width: int, style: Style) -> str:
    """Cards in a column ``width`` wide (measured without colour codes)."""
    plain = " ".join(str(card) for card in cards)
    return style.cards(cards) + " " * max(width - len(plain), 1)
