"""``cribbage quiz``: the day's problems (a throw whose best is not the greedy one, a
pegging trap), graded and kept; and the counting drill (a missed his nobs)."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from cribcli.commands.training import ask_line
from cribcli.review.history import QuizAnswer, QuizDays
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.errors import CribbageError, UsageProblem
from cribcli.rules.scoring import kept_items
from cribcli.services.quiz import (
    INSTRUCTIVE,
    CountHand,
    DiscardProblem,
    PeggingProblem,
    discard_problem,
    drill,
    grade_lay,
    grade_throw,
    obvious_lay,
    obvious_throw,
    pegging_problem,
    share_line,
)
from cribcli.ui.quizzing import count_drill
from tests.conftest import Run

DAY = "2026-11-02"


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split()))


def test_a_throw_whose_best_is_not_the_greedy_one() -> None:
    # The dealer holds JD 5C KH JH QD 9D. Counted alone, 5C J Q K is the most a four can
    # make: three fifteens (5 with each ten-card) and a run of three, 9; J J Q K makes a
    # double run and a pair, 8. The greedy player keeps the five. But the five is worth
    # more in the dealer's own crib: thrown with the 9, it beats the greedy throw.
    hand = cards("JD 5C KH JH QD 9D")
    greedy = obvious_throw(hand, dealer=True)
    assert 5 in {card.rank for card in greedy}
    assert sum(item.points for item in kept_items(greedy)) == 9
    problem = DiscardProblem("2026-12-01", hand, True, 0.0)
    thrown = tuple(card for card in hand if card not in greedy)
    as_greedy = grade_throw(problem, thrown)
    assert set(as_greedy.best) == set(cards("5C 9D"))
    assert as_greedy.lost >= INSTRUCTIVE and as_greedy.mark == "inaccuracy"
    best = grade_throw(problem, cards("9D 5C"))
    assert best.lost == 0 and best.mark == ""
    assert best.best_net == pytest.approx(best.best_hand + best.best_crib)
    with pytest.raises(UsageProblem, match="two of the six"):
        grade_throw(problem, cards("5C 2S"))


def test_the_days_discard_problem_is_the_same_for_everyone_and_teaches() -> None:
    problem = discard_problem(DAY)
    assert problem == discard_problem(DAY)
    assert problem.hand != discard_problem("2026-12-03").hand
    assert trap() == pegging_problem(DAY)  # the same moment and values every time
    assert problem.gap >= INSTRUCTIVE
    greedy = obvious_throw(problem.hand, problem.dealer)
    thrown = tuple(card for card in problem.hand if card not in greedy)
    assert grade_throw(problem, thrown).lost == pytest.approx(problem.gap)


@cache
def trap() -> PeggingProblem:
    return pegging_problem(DAY)


def test_a_pegging_trap() -> None:
    # The day's problem: the dealer holds QD KD JC 4C after the pone's KC. Pairing the
    # king takes 2 now, but on a count of 20 the pone pairs it again for three of a kind
    # (6) whenever it holds another king, and ten-cards left on 20 give nothing back; the
    # 4 (14) takes nothing now and is worth more than two points more by the end of the
    # play, as the search of the other's hands finds.
    problem = trap()
    assert problem.moment.hand == cards("QD KD JC 4C")
    assert [card for _, card in problem.moment.laid] == list(cards("KC"))
    assert problem.count == 10 and problem.moment.dealer
    now = {str(lay.card): lay.now for lay in problem.values}
    assert now == {"QD": 0, "KD": 2, "JC": 0, "4C": 0}
    greedy = obvious_lay(problem.values)
    assert str(greedy.card) == "KD" and str(problem.values[0].card) == "4C"
    graded = grade_lay(problem, greedy.card)
    assert graded.lost == pytest.approx(problem.gap) and graded.lost >= 2
    assert graded.mark == "blunder"
    assert grade_lay(problem, problem.values[0].card).lost == 0
    with pytest.raises(UsageProblem, match="cannot be laid"):
        grade_lay(problem, cards("KH")[0])


def test_the_line_to_share() -> None:
    assert share_line(DAY, 0.0, 0.62) == (
        "cribbage quiz 2026-11-02: discard best, pegging 0.62 lost (inaccuracy)"
    )
    assert share_line(DAY, 2.5, 0.2) == (
        "cribbage quiz 2026-11-02: discard 2.50 lost (blunder), pegging 0.20 lost (slip)"
    )


def answers(*lines: str) -> Iterator[str | None]:
    yield from lines
    while True:
        yield None


def test_a_count_with_a_missed_his_nobs() -> None:
    # 5H 5S JD 4C with the 5D: four fifteens (8), three pairs (6) and his nobs (the jack
    # of the starter's suit), 15. Counted 14, the nobs forgotten.
    said: list[str] = []
    typed = answers("14")
    times = iter([100.0, 112.5])
    hand = CountHand(cards("5H 5S JD 4C"), cards("5D")[0], crib=False)
    status = count_drill([hand], lambda _: next(typed), said.append, lambda: next(times))
    assert status == 0
    assert said[0] == "Hand 1 of 1: 5H 5S JD 4C, starter 5D"
    assert said[1] == "It is 15; you said 14 (1 short):"
    assert "  his nobs JD for 1       15" in said
    assert said[-1] == "0 of 1 right (0%) in 12 s, 12.5 s a hand."


def test_the_drill_asks_again_and_stops_at_the_end_of_input() -> None:
    said: list[str] = []
    typed = answers("twelve", "30", "17")
    hands = drill("seed 7", 2)
    assert hands == drill("seed 7", 2) and len(hands) == 2
    status = count_drill(hands, lambda _: next(typed), said.append, lambda: 0.0)
    assert said[1].startswith("`twelve` is not a count") and said[2].startswith("`30` is not")
    assert status == 2 and re.fullmatch(r"No more answers: [01] of 1 right\.", said[-1])


def test_a_round_of_ten_has_cribs_and_kept_hands() -> None:
    hands = drill("any", 10)
    assert len(hands) == 10 and len({hand.hand for hand in hands}) == 10
    assert all(len(hand.hand) == 4 and hand.starter not in hand.hand for hand in hands)


def test_the_quiz_book_reads_only_what_it_wrote(tmp_path: Path) -> None:
    path = tmp_path / "quiz.json"
    book = QuizDays(path)
    book.keep("2026-12-01", throw=0.0, today="2026-12-01")
    book.keep("2026-12-01", lay=0.5, today="2026-12-01")
    book.keep("2026-12-02", throw=1.0, lay=0.0, today="2026-12-02")
    book.keep("2026-12-02", throw=0.0, lay=2.0, today="2026-12-02")  # the first counts
    book.keep("2026-11-30", throw=0.0, lay=0.0, today="2026-12-02")  # a past day, late
    assert book.read() == {
        "2026-12-01": QuizAnswer(0.0, 0.5, True),
        "2026-12-02": QuizAnswer(1.0, 0.0, True),
        "2026-11-30": QuizAnswer(0.0, 0.0, False),
    }
    # Only days answered whole on the day make a streak: a past day answered late does
    # not fill a gap.
    assert book.streak("2026-12-02") == 2 and book.streak("2026-12-04") == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    data["days"].update(
        {
            "not a day": [0, 0, True],
            "2026-12-03": [True, 0, True],
            "2026-12-04": [1e9, 0, True],
            "2026-12-05": [0, 0, 1],
            "2026-12-06": [0, 0],
            "x": "y",
        }
    )
    path.write_text(json.dumps(data), encoding="utf-8")
    assert set(book.read()) == {"2026-12-01", "2026-12-02", "2026-11-30"}
    for hostile in ("[", "[]", '{"days": 7}', "\x00" * 10):
        path.write_text(hostile, encoding="utf-8")
        assert book.read() == {}
    path.write_bytes(b"{" * (2 << 20))  # too big to read: nothing
    assert book.read() == {}


def test_the_quiz_through_a_pipe(cribbage: Run, home: Path) -> None:
    problem = discard_problem(DAY)
    greedy = obvious_throw(problem.hand, problem.dealer)
    throw = " ".join(str(card) for card in problem.hand if card not in greedy)
    pegging = trap()
    script = f"{throw}\nKH\n{pegging.values[0].card}\n"
    done = cribbage("quiz", "--date", DAY, stdin=script)
    assert done.status == 0, done.err
    out = done.out
    assert f"The discard problem of {DAY}" in out and "Best: throw " in out
    assert "KH cannot be laid: choose one of" in out
    assert "KD takes 2 now, and gives more back before the play is over." in out
    assert f"cribbage quiz {DAY}: discard {problem.gap:.2f} lost" in out
    assert "pegging best" in out
    assert json.loads((home / "quiz.json").read_text(encoding="utf-8"))["days"][DAY]
    again = cribbage("quiz", "--date", DAY, "--json", stdin="")
    event = json.loads(again.out.splitlines()[-1])
    assert event["event"] == "quiz" and event["share"].startswith(f"cribbage quiz {DAY}: ")
    assert event["streak"] == 0  # a past day's quiz makes no streak


def test_an_answer_is_kept_as_soon_as_it_is_graded(cribbage: Run, home: Path) -> None:
    problem = discard_problem(DAY)
    throw = " ".join(str(card) for card in problem.hand[:2])
    first = cribbage("quiz", "--date", DAY, stdin=f"{throw}\n")  # then input ends
    assert first.status == 2 and "the rest of the quiz waits for you" in first.out
    kept = json.loads((home / "quiz.json").read_text(encoding="utf-8"))["days"][DAY]
    assert kept[0] is not None and kept[1] is None
    # Coming back asks only the pegging problem: the throw, seen graded, is not asked again.
    back = cribbage("quiz", "--date", DAY, stdin=f"{trap().values[0].card}\n")
    assert back.status == 0
    assert "The discard problem" not in back.out and "The pegging problem" in back.out
    assert "pegging best" in back.out


def test_the_quiz_kept_nothing_without_answers(cribbage: Run, home: Path) -> None:
    ended = cribbage("quiz", "--date", DAY, "--json", stdin="")
    assert ended.status == 2
    first = json.loads(ended.out.splitlines()[0])
    assert first["event"] == "problem" and first["kind"] == "discard"
    assert not (home / "quiz.json").exists()
    future = cribbage("quiz", "--date", "2999-01-01")
    assert future.status == 2 and "has not come yet" in future.err


def stdin_of(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict")
    monkeypatch.setattr(sys, "stdin", stream)


def test_an_answer_is_read_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin_of(b"5H 6S\n" + b"1" * 300 + b"\n12", monkeypatch)
    assert ask_line("? ") == "5H 6S\n"
    with pytest.raises(CribbageError, match="too long: at most 200"):
        ask_line("? ")  # (and the rest of that line is passed over)
    assert ask_line("? ") == "12"  # a last line with no line end
    assert ask_line("? ") is None
    stdin_of(b"\xff\xfe\n", monkeypatch)
    with pytest.raises(CribbageError, match="not text"):
        ask_line("? ")
    stdin_of(b"0" * (1 << 20), monkeypatch)  # no line end, ever: taken as the end
    assert ask_line("? ") is None
    monkeypatch.setattr(sys, "stdin", None)
    assert ask_line("? ") is None


def test_the_drill_as_json_shows_each_hand_before_asking() -> None:
    said: list[str] = []
    typed = answers("19")  # what players call a hand of nothing: 0
    hand = CountHand(cards("KH QD 9S 2C"), cards("7D")[0], crib=True)
    assert hand.show.total == 0
    count_drill([hand], lambda _: next(typed), said.append, lambda: 1.0, as_json=True)
    events = [json.loads(line) for line in said]
    assert events[0] == {
        "event": "problem", "kind": "count", "hand": ["KH", "QD", "9S", "2C"],
        "starter": "7D", "crib": True,
    }  # fmt: skip
    assert events[1]["said"] == 0 and events[1]["right"] is True
    assert events[2] == {"event": "drill", "right": 1, "hands": 1, "seconds": 0.0}
