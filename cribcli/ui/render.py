"""Text rendering: cards, show breakdowns, colour and suit symbols.

Everything here returns strings; nothing prints. Whether to use colour and Unicode suits
is decided once, by :func:`decide_style`, from the flags, the environment and the stream.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from cribcli.cards import Card
from cribcli.errors import printable
from cribcli.grading import GRADE_WINDOWS, KINDS, Grade
from cribcli.players.base import Level
from cribcli.scoring import COUNT_LIMIT, ShowItem, ShowScore

if TYPE_CHECKING:
    from cribcli.analysis import Advice, DiscardValue
    from cribcli.coach import Decision, ForTheWin, LayValue, PegAdvice, Review
    from cribcli.luck import Luck
    from cribcli.match import Report
    from cribcli.reasons import LayWhy, ThrowWhy
    from cribcli.record import GameInfo
    from cribcli.stats import DailyResult, History
    from cribcli.tournament import Tournament


WIDE = 80
"""The width of a full terminal: from it the board has a hole for every point (below it,
a cell for five), and the show is wrapped to it."""

_RED = "31"
_BOLD = "1"
_FAINT = "2"
_SUIT_TEST = "\u2660\u2661\u2662\u2663\u2664\u2665\u2666\u2667"


@dataclass(frozen=True, slots=True)
class Style:
    """How text is drawn: Unicode suit symbols or ASCII letters, colour or none."""

    unicode: bool = False
    color: bool = False

    def paint(self, text: str, *codes: str) -> str:
        """``text`` in the given SGR codes when colour is on."""
        if not self.color or not codes:
            return text
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"

    def card(self, card: Card) -> str:
        """One card: ``5H`` or ``5♥``, red hearts and diamonds in colour."""
        text = card.unicode() if self.unicode else card.ascii()
        return self.paint(text, _RED) if card.suit.is_red else text

    def cards(self, cards: Iterable[Card], sep: str = " ") -> str:
        """Several cards."""
        return sep.join(self.card(card) for card in cards)

    def bold(self, text: str) -> str:
        """Emphasis, for totals."""
        return self.paint(text, _BOLD)

    def faint(self, text: str) -> str:
        """De-emphasis."""
        return self.paint(text, _FAINT)


PLAIN = Style()
"""ASCII, no colour: logs, pipes, tests."""


def decide_color(
    stream: TextIO, flag: bool | None = None, env: Mapping[str, str] | None = None
) -> bool:
    """Colour or not: the explicit flag, then NO_COLOR, FORCE_COLOR, TERM=dumb, a terminal."""
    env = os.environ if env is None else env
    if flag is not None:
        return flag
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb":
        return False
    return _isatty(stream)


def decide_unicode(
    stream: TextIO, ascii_only: bool = False, env: Mapping[str, str] | None = None
) -> bool:
    """Unicode suits only on a terminal whose locale says UTF-8 and whose stream can
    write them; never with --ascii or TERM=dumb."""
    env = os.environ if env is None else env
    if ascii_only or not _isatty(stream) or env.get("TERM") == "dumb":
        return False
    locale = next((env[name] for name in ("LC_ALL", "LC_CTYPE", "LANG") if env.get(name)), "")
    if "utf-8" not in locale.lower() and "utf8" not in locale.lower():
        return False
    try:
        _SUIT_TEST.encode(stream.encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def decide_style(
    stream: TextIO, *, ascii_only: bool = False, no_color: bool = False, color: bool | None = None
) -> Style:
    """The style for output to ``stream``; --no-color wins over everything else."""
    chosen = False if no_color else color
    return Style(unicode=decide_unicode(stream, ascii_only), color=decide_color(stream, chosen))


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def show_lines(score: ShowScore, style: Style = PLAIN, *, title: str | None = None) -> list[str]:
    """The full breakdown of a show, one line a scoring combination, with a running total.

    The running total is what a player says aloud: "fifteen 2, fifteen 4, and a pair is 6".
    """
    name = title or ("Crib" if score.is_crib else "Hand")
    lines = [f"{name} {style.cards(score.hand)}  starter {style.card(score.starter)}"]
    # Suit letters and symbols are one column each, so the ASCII text measures both.
    width = max((len(item.describe()) for item in score.items), default=0)
    running = 0
    for item in score.items:
        running += item.points
        pad = width - len(item.describe())
        lines.append(f"  {item.describe(style.card)}{' ' * pad}  {running:>2}")
    if not score.items:
        lines.append('  no points (a "nineteen")')
    subtotals = ", ".join(f"{name} {points}" for name, points in score.subtotals().items())
    lines.append(f"  {subtotals}")
    lines.append(style.bold(f"  total {score.total}"))
    return lines


_PLURALS = {"fifteen": "fifteens", "pair": "pairs", "run": "runs"}


def compact_show_lines(
    score: ShowScore, style: Style, title: str, width: int | None = WIDE
) -> list[str]:
    """A count in a few lines, for the table: ``Your hand 6♥ 8♣ 8♦ 10♦, K♠: 2`` and
    its points by kind, each with its cards (``pair 2: 8♣8♦``), wrapped to ``width``
    so that a whole show fits on a screen."""
    cards = style.cards(sorted(score.hand))
    head = f"{title} {cards}, {style.card(score.starter)}: {style.bold(str(score.total))}"
    kinds: dict[str, list[ShowItem]] = {}
    for item in score.items:
        kinds.setdefault(item.kind.value, []).append(item)
    joined = "" if style.unicode else "-"
    parts = []
    for kind, items in kinds.items():
        name = _PLURALS.get(kind, kind) if len(items) > 1 else kind
        combos = " ".join(style.cards(sorted(item.cards), sep=joined) for item in items)
        label = f"{name} {sum(item.points for item in items)}:".replace(" ", _KEEP)
        parts.append(f"{label} {combos}")
    body = "; ".join(parts) if parts else 'nothing (a "nineteen")'
    if width is None:
        return [head, f"  {body}".replace(_KEEP, " ")]
    lines = _wrap_styled(body, max(width - 1, 30), indent="  ")
    return [head, *(line.replace(_KEEP, " ") for line in lines)]


_KEEP = "\u00a0"
"""Joins words that a line must not part (``his nobs 1:``) while it is wrapped."""


def fit(line: str, width: int) -> list[str]:
    """A line wrapped at spaces to ``width`` seen columns, the lines after the first
    indented two more than it: nothing breaks mid-word at any width."""
    if _seen_len(line) <= width:
        return [line]
    body = line.lstrip(" ")
    indent = " " * (len(line) - len(body))
    first, *rest = _wrap_styled(body, width - len(indent), indent="")
    if not rest:
        return [indent + first]
    again = _wrap_styled(" ".join(rest), width - len(indent) - 2, indent="")
    return [indent + first, *(f"{indent}  {part}" for part in again)]


def _wrap_styled(text: str, width: int, indent: str) -> list[str]:
    """Wrap text that may hold colour codes, measuring only what is seen."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else f"{indent}{word}"
        if line and _seen_len(trial) > width:
            lines.append(line)
            trial = f"{indent}{word}"
        line = trial
    return lines + [line] if line else lines


def _seen_len(text: str) -> int:
    return len(_CODES.sub("", text))


_CODES = re.compile("\x1b\\[[0-9;]*m")


def show_line(score: ShowScore) -> str:
    """One line for a show, for scripts: the cards, the starter, the total, the subtotals."""
    subtotals = ", ".join(
        f"{name} {points}" for name, points in score.subtotals().items() if points
    )
    cards = " ".join(card.ascii() for card in (*score.hand, score.starter))
    return f"{cards}  {score.total}" + (f"  ({subtotals})" if subtotals else "")


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


def game_title(info: GameInfo) -> str:
    """``You v Computer (normal): to 121, seed 7.``, with its label and start."""
    seats = " v ".join(
        seat.name + (f" ({seat.level.label})" if seat.level else "") for seat in info.seats
    )
    title = f"{seats}: to {info.rules.target}, seed {info.seed}"
    if info.label:
        title += f", {info.label}"
    if info.started:
        title += f", {info.started}"
    return printable(title + ".")


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


def possessive(name: str) -> str:
    """``Your`` for you, ``Computer's`` for anyone else (``James's``, as the style
    guides have it)."""
    return "Your" if name == "You" else f"{name}'s"


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
    line = f"  {decision.kind:<6}{chose}{' ' * max(15 - _seen_len(chose), 1)}{best}"
    notes = []
    if decision.given:
        notes.append(f"{decision.given} given away")
    if decision.chance:
        notes.append(f"{100 * decision.chance:.1f}% to win")
    elif decision.exact is not None and abs(decision.exact - decision.lost) >= 0.005:
        notes.append(f"hand+crib {decision.exact:.2f}")
    if decision.open_lost is not None:
        notes.append(f"open {round(decision.open_lost, 2):g}")
    if decision.lost >= 0.005 or notes:
        line += " " * max(36 - _seen_len(line), 1) + f"lost {decision.lost:5.2f}"
        line += f"  {decision.mark:<11}" + (f"({', '.join(notes)})" if notes else "")
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
    from cribcli.reasons import ThrowWhy  # (what ``score`` draws needs none of this)

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
            card = "a ten-card" if need == 10 else "an ace" if need == 1 else f"a {need}"
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


def match_lines(report: Report) -> list[str]:
    """A match's report for people."""
    from cribcli.tally import ROLES

    first, second = (printable(report.label(player)) for player in (0, 1))
    rate, low, high = report.win_rate(0)
    if report.duplicate:
        who, how = f"{first} v {second}", "each deal twice, the seats swapped"
    else:
        who, how = f"{first} (seat 0) v {second} (seat 1)", "taking turns to deal first"
    if report.best_of > 1:
        twice = "each match twice, the seats swapped; " if report.duplicate else ""
        how = f"{twice}a match's first deal cut for, then the loser of each game deals"
    games = f"{report.games} game{'s' if report.games != 1 else ''}"
    lines = [f"{who}: {games}, {how}, seed {report.seed}"]
    if report.best_of > 1:
        games = f"{report.matches} matches of best of {report.best_of} ({games})"
        lines = [f"{who}: {games}, seed {report.seed}", f"  ({how})"]
    if report.best_of > 1:
        share, least, most = report.match_rate(0)
        lines.append(
            f"  matches: {first} won {report.match_wins[0]}, {second} {report.match_wins[1]}: "
            f"{first} {100 * share:.1f}% (95% CI {100 * least:.1f}%-{100 * most:.1f}%)"
        )
    lines += [
        f"  {first} won {report.wins[0]}: {100 * rate:.1f}%"
        f" (95% CI {100 * low:.1f}%-{100 * high:.1f}%)",
        f"  {second} won {report.wins[1]}: {100 * (1 - rate):.1f}%",
        f"  skunks: {first} gave {report.skunks[0]} ({report.double_skunks[0]} double), "
        f"{second} gave {report.skunks[1]} ({report.double_skunks[1]} double)",
        f"  the first dealer won {100 * report.first_dealer_wins / max(report.games, 1):.1f}%",
        "",
        f"  a game (95% CI)   {first[:24]:>26}{second[:24]:>26}",
    ]
    for measure, scale in (("game points", 1), ("skunks", 100), ("double skunks", 100)):
        cells = [_interval(report.per_game(measure, p), scale) for p in (0, 1)]
        label = measure if scale == 1 else f"{measure} %"
        lines.append(f"  {label:<18}{cells[0]:>26}{cells[1]:>26}")
    spread = [_interval(report.per_game("spread", p), 1) for p in (0, 1)]
    lines.append(f"  {'spread':<18}{spread[0]:>26}{spread[1]:>26}")
    lines.append(
        f"  (game points: {report.game_points[0]} to {report.game_points[1]}; "
        f"spread: {report.spread:+d} for {first})"
    )
    for player, name in enumerate((first, second)):
        if report.forfeits[player]:
            lines.append(f"  {name} forfeited {report.forfeits[player]}:")
            lines.extend(f"    {printable(reason)}" for reason in report.reasons[player])
    if report.voids:
        lines.append(f"  no result in {report.voids} (not counted above):")
        lines.extend(f"    {printable(reason)}" for reason in report.void_reasons)
    lines += ["", f"  points a deal            {'pegging':>8}{'hand':>8}{'crib':>8}{'total':>8}"]
    for player, name in enumerate((first, second)):
        for role in ROLES:
            values = report.per_deal(player, role)
            crib = f"{values['crib']:8.2f}" if role == "dealer" else f"{'':>8}"
            lines.append(
                f"  {name[:14] + ' ' + str(player) + ' as ' + role:<24}{values['pegging']:8.2f}"
                f"{values['hand']:8.2f}{crib}{values['total']:8.2f}"
            )
    return lines


CROSSTABLE_MOST = 16
"""The most players whose crosstable is shown (16 fit 120 columns)."""


def tournament_lines(tournament: Tournament) -> list[str]:
    """A tournament's report for people: the crosstable, the standings with their
    tie-breaks, the bracket, each player's rating, the champion."""
    from cribcli.tournament import crosstable, qualifiers, ratings

    setup = tournament.setup
    names = [printable(name)[:20] for name in setup.names]
    count = len(names)
    kind = "round-robin" if setup.format == "round-robin" else "ACC: a round-robin qualifying"
    twice = ", each deal twice" if setup.duplicate else ""
    lines = [
        f"Tournament ({kind}): {count} players, each pair {setup.games} "
        f"game{'s' * (setup.games != 1)}{twice}, to {setup.target}, seed {setup.seed}",
    ]
    if count <= CROSSTABLE_MOST:
        lines += ["", "  games won-lost  " + "".join(f"{n + 1:>6}" for n in range(count))]
        table = crosstable(count, tournament.matches, tournament.results)
        for player, row in enumerate(table):
            cells = "".join(f"{cell or '.':>6}" for cell in row)
            lines.append(f"  {player + 1:>2} {names[player]:<13}{cells}")
    else:
        lines += ["", f"  (the crosstable of {count} players is too wide to show: --json has it)"]
    rated = {r.player: r for r in ratings(tournament)}
    lines += [
        "",
        f"  {'place':>5}  {'player':<20}{'games':>6}{'won':>5}{'points':>7}{'spread':>8}"
        f"{'rating':>8}{'(95%)':>7}  ahead on",
    ]
    for standing in tournament.standings():
        rating = rated[standing.player]
        lines.append(
            f"  {standing.place:>5}  {names[standing.player]:<20}{standing.games:>6}"
            f"{standing.wins:>5}{standing.game_points:>7}{standing.spread:>+8}"
            f"{round(rating.elo):>+8d}{f'±{rating.within:.0f}':>7}  {standing.decided_by}"
        )
    lines += [
        "  (points: game points, 2 a win, 3 a skunk; ranked by them, then games won, then",
        "  spread; rating: Elo against the field's average, from every game)",
    ]
    if setup.format == "acc" and tournament.knockout:
        qualified = qualifiers(count)
        lines += ["", f"  The knockout: the top {qualified} of {count}, best of {setup.best_of}"]
        last = max(match.round for match in tournament.knockout)
        for match in tournament.knockout:
            title = "final" if match.round == last else f"round {match.round}"
            high, low = match.seeds
            first = f"({high}) {names[tournament.seeds[high - 1]]}"
            if low is None:
                lines.append(f"  {title:<9} {first}: a bye")
                continue
            second = f"({low}) {names[tournament.seeds[low - 1]]}"
            told = ""
            if match.winner is not None:
                won = names[tournament.seeds[match.winner - 1]]
                told = f": {won} {max(match.score)}-{min(match.score)}"
            lines.append(f"  {title:<9} {first} v {second}{told}")
    champion = tournament.champion
    if champion is not None:
        lines += ["", f"  The winner: {names[champion]}"]
    if tournament.voids:
        lines.append(f"  ({tournament.voids} games had no result and are not counted)")
    return lines


def _interval(measured: tuple[float, float, float], scale: float) -> str:
    """A measure and its interval, as ``1.23 (1.10-1.36)`` (no interval from one unit)."""
    value, low, high = (x * scale for x in measured)
    if not math.isfinite(low):
        return f"{value:.2f}"
    return f"{value:.2f} ({low:.2f} to {high:.2f})"


Pegs = tuple[int, int]
"""A side's front peg (its score) and back peg (its score before the last points)."""


def pegs_of(events: Iterable[object], sides: int) -> list[Pegs]:
    """Each side's pegs after ``events``: the front peg moves on when the side scores, and
    the back peg takes its old hole, as on a board."""
    pegs = [(0, 0)] * sides
    for event in events:
        scores = getattr(event, "scores", None)
        if scores is None:
            continue
        for side, score in enumerate(scores):
            if score != pegs[side][0]:
                pegs[side] = (score, pegs[side][0])
    return pegs


_HOLES = {True: ("\u00b7", "\u25cf", "\u25cb"), False: (".", "O", "o")}
"""A hole, the front peg and the back peg: Unicode, or ASCII."""


def board_lines(
    sides: Sequence[tuple[str, Pegs]],
    target: int,
    skunk_line: int,
    style: Style,
    width: int = WIDE,
) -> list[str]:
    """The peg board: each side's pegs on its street of holes, in groups of five.

    Where the names and two rows of holes fit (at ``WIDE`` columns with names of eight
    letters), a hole a point in two rows, out and back (60 holes a row to 121, 30 to 61),
    a side's name and score in the margin; narrower, a cell for five holes, in groups of
    six cells, on one row of 40 columns. A name is never cut. The skunk line (the first
    hole that is not a skunk) is drawn ``|`` where it falls inside a row."""
    hole, front_peg, back_peg = _HOLES[style.unicode]
    label = max(8, *(len(name) for name, _ in sides))  # a name is never cut
    per_cell, group = 1, 5
    row_size = (target - 1) // 2
    wide = width >= label + 1 + row_size + row_size // group - 1
    if not wide:
        per_cell, group, row_size = 5, 6, target
    cells = -(-(target - 1) // per_cell)
    own_line = not wide and label + 5 + cells + (cells - 1) // group > width
    lines = []
    for name, (front, back) in sides:
        street = []
        for first in range(1, target, per_cell):  # the target's own hole is the game
            holes = range(first, first + per_cell)
            peg = style.bold(front_peg) if front in holes else back_peg if back in holes else hole
            street.append((first, peg))
        for start in range(0, len(street), row_size // per_cell):
            row = street[start : start + row_size // per_cell]
            text = ""
            for i in range(0, len(row), group):
                if i:
                    text += "|" if row[i][0] == skunk_line else " "
                text += "".join(peg for _, peg in row[i : i + group])
            if own_line:  # the names on lines of their own
                lines.extend([f"{name} {front}", f"  {text}"])
            elif not wide:
                lines.append(f"{name:<{label}}{front:>4} {text}")
            elif start == 0:
                lines.append(f"{name:<{label}} {text}")
            else:
                lines.append(f"{front:>3}{'':<{label - 3}} {text}")
    return lines


def hand_line(hand: Sequence[Card], count: int | None, style: Style) -> str:
    """A hand, with cards that would take the count past 31 dimmed (or in brackets)."""
    parts = []
    for card in hand:
        text = style.card(card)
        if count is not None and count + card.value > COUNT_LIMIT:
            text = style.faint(f"[{card.ascii() if not style.unicode else card.unicode()}]")
        parts.append(text)
    return " ".join(parts)


def _ladder_order(item: tuple[str, object]) -> tuple[int, str]:
    """Opponents by their place on the ladder (the rest, as engines and people, after)."""
    level = Level.parse(item[0])
    return (level.number if level else len(Level) + 1, item[0])


def stats_lines(history: History, *, served: bool = False) -> list[str]:
    """A player's history for people (``served``: in a served room's lobby, where only
    what can be done there is suggested, and a daily streak means nothing)."""
    if not history.games:
        if served:
            return ["No finished games yet: `solo` plays the computer, `new` opens a table."]
        return [
            "No finished games yet: 'cribbage play' starts one.",
            f"Daily streak: {history.daily_streak}.",
        ]
    share = 100 * history.wins / history.games
    lines = [f"Games: {history.games} played, {history.wins} won ({share:.0f}%)"]
    if history.with_takebacks:
        lines[0] += f"; {history.with_takebacks} with moves taken back"
    for level, (played, won) in sorted(history.by_level.items(), key=_ladder_order):
        known = Level.parse(level)
        lines.append(
            f"  against {known.label if known else printable(level)}: {played} played, {won} won"
        )
    lines.append(f"Skunks: {history.skunks_given} given, {history.skunks_taken} taken")
    lines.append(
        f"Points a deal        {'deals':>6}{'pegging':>9}{'hand':>7}{'crib':>7}{'total':>7}"
    )
    from cribcli.tally import ROLES

    for role in ROLES:
        v = history.per_deal(role)
        crib = f"{v['crib']:7.2f}" if role == "dealer" else f"{'':>7}"
        figures = f"{v['pegging']:9.2f}{v['hand']:7.2f}{crib}{v['total']:7.2f}"
        lines.append(f"  as {role:<16}{int(v['deals']):>6}{figures}")
    lines.append(f"Best hand: {history.best_hand} ({printable(history.best_game)})")
    if served:
        return lines
    lines.extend(_lost_lines(history))
    streak = history.daily_streak
    lines.append(f"Daily streak: {streak} day{'s' if streak != 1 else ''} in a row")
    return lines


def _lost_lines(history: History) -> list[str]:
    """How your decisions did in reviewed games, the last 10, the last 100 and all: the
    points they lost a decision by kind and in all, the accuracy and the rating."""
    games, _ = history.lost()
    if not games:
        return ["Your decisions: none of your games reviewed yet ('cribbage review --last')."]
    graded, _ = history.grade()
    if not graded:
        return ["Your decisions: review a game again to grade them ('cribbage review --last')."]
    lines = [
        "Your decisions in reviewed games: points lost a decision, accuracy, rating",
        f"{'':<17}{'games':>6}{'throws':>8}{'lays':>7}{'counts':>8}{'all':>6}{'accuracy':>10}",
    ]
    rows = [(window, *history.grade(last)) for window, last in GRADE_WINDOWS]
    for (window, games, grade), wider in zip(rows, [*rows[1:], None], strict=True):
        if wider is not None and wider[1] == games:  # the same games as the next row's
            continue
        widths = zip(KINDS, (8, 7, 8), grade.decisions, strict=True)
        rates = "".join(
            f"{grade.error_rate(kind):{width}.2f}" if n else f"{'-':>{width}}"
            for kind, width, n in widths
        )
        lines.append(
            f"  {window.replace('_', ' '):<15}{games:>6}{rates}{grade.error_rate():6.2f}"
            f"{grade.accuracy:10.1f}  {grade.rating}"
        )
    return lines


def daily_opening(day: str, *, today: bool) -> str:
    """What ``cribbage daily`` says as it starts: which day's deal it is."""
    if today:
        return f"The daily deal of {day}: everyone who plays today gets these cards."
    return f"The daily deal of {day}, a past day's: the cards everyone got that day."


def daily_lines(result: DailyResult, *, today: bool = True) -> list[str]:
    """What ``cribbage daily`` shows once a day's game is over (``today``: today's)."""
    share_alone = "'cribbage daily --share' prints the line above alone."
    streak = result.streak
    return [
        result.share,
        f"Daily streak: {streak} day{'s' if streak != 1 else ''} in a row.",
        f"A new deal comes tomorrow; {share_alone}" if today else share_alone,
    ]


def seed_line(seed: int | str) -> str:
    """The end of a game: the seed its promise was made of."""
    return f"The seed: {printable(str(seed))}; 'cribbage verify' deals every card again from it."
