"""``cribbage review``: each decision of a game marked by what it cost."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from cribcli.players import Level, computer, table_search
from cribcli.players.hard import ENDGAME
from cribcli.record.log import GameInfo, GameLog, Seat, dumps
from cribcli.record.reader import loads
from cribcli.record.replay import Replay, replay
from cribcli.record.session import run_game
from cribcli.review import coach
from cribcli.review.coach import (
    MARKS,
    Decision,
    Moment,
    Review,
    judge_lay,
    judge_throw,
    mark_of,
    moment_view,
    parse_laid,
    review,
)
from cribcli.review.history import history
from cribcli.review.stats import Lost, digest_of, read_game
from cribcli.rules.cards import Card, deck, parse_cards
from cribcli.rules.engine import Action, Discard, Play, Rules, State, new_game, view
from cribcli.rules.events import RoundEnded
from cribcli.ui.coaching import coach_line, review_lines
from cribcli.ui.reports import stats_lines
from tests.conftest import Run
from tests.scripted import moves

ROOT = Path(__file__).parent.parent
FIXTURE = ROOT / "tests" / "logs" / "2-players.toml"


@cache
def hard_game(seed: int) -> Replay:
    """A finished game, hard (seat 0) against normal (seat 1)."""
    levels = (Level.HARD, Level.NORMAL)
    seats = tuple(Seat(str(level), "computer", level) for level in levels)
    info = GameInfo(Rules(), seats, seed)
    _, events = run_game(info, [computer(level, seed, n) for n, level in enumerate(levels)])
    return replay(loads(dumps(info, events)))


def game(replayed: Replay) -> tuple[GameInfo, list[Action]]:
    return replayed.log.info, replayed.actions


# --- the measure ------------------------------------------------------------------------


def test_marks_go_by_the_points_lost() -> None:
    assert [mark_of(lost) for lost in (0.0, 0.09, 0.1, 0.49, 0.5, 1.0, 1.99, 2.0, 9.0)] == [
        "",
        "",
        "slip",
        "slip",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert [at for at, _ in MARKS] == sorted((at for at, _ in MARKS), reverse=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 4])
def test_the_hard_computer_loses_nothing_by_its_own_measure(seed: int) -> None:
    replayed = hard_game(seed)
    judged = review(*game(replayed), 0)
    throws = [d for d in judged.decisions if d.kind == "throw"]
    assert len(throws) == judged.deals >= 5
    assert all(d.lost == 0 for d in throws if d.chance is None)
    # Its lays are searched alike, over the same hands, away from the end. Near it, the
    # review searches to win over more hands than hard does (so it may find a card really
    # likelier to win where hard could not tell, or not find one where hard did): the
    # rounds that ended with a side within ENDGAME of home are left out.
    near = {
        event.round
        for event in replayed.events
        if isinstance(event, RoundEnded) and max(event.scores) >= 121 - ENDGAME
    }
    near.add(len([e for e in replayed.events if isinstance(e, RoundEnded)]) + 1)  # the last
    far = [d for d in judged.decisions if d.round not in near]
    assert far and all(d.lost == 0 for d in far)


@pytest.mark.slow
def test_a_throw_that_is_not_the_best_loses_the_advice_difference(cribbage: Run) -> None:
    replayed = hard_game(3)
    judged = review(*game(replayed), 1)
    worse = [d for d in judged.decisions if d.kind == "throw" and set(d.best) != set(d.chose)]
    assert worse, "normal always threw as hard would: pick another seed"
    for decision in worse:
        dealt = replayed.log.rounds[decision.round - 1]
        hand = dealt.dealt[1].split()
        crib = "--dealer" if dealt.dealer == 1 else "--pone"
        rows = json.loads(cribbage("discard-advice", *hand, crib, "--json").out)
        net = {frozenset(row["discard"]): row["net"] for row in rows}
        difference = (
            net[frozenset(map(str, decision.best))] - net[frozenset(map(str, decision.chose))]
        )
        assert decision.exact == pytest.approx(difference, abs=0.01)
        if decision.chance is None:
            assert decision.lost > 0


def position_three() -> State:
    """The third position of issue 17: the other program's dealer leads 108-93, and hard,
    pone, needs 28 with 5H 5S 6D 6C QD 7S. It kept 5-5-6-6, 3.43 below the best
    discard by the exact hand and crib (6 QD: 8.86 against 5.43). The dealer needs only
    13, which it makes in most deals; the pone's one hope is a big hand and the play, and
    5-5-6-6 makes 24 with a 4 cut (16 with a 7), where 5-5-6-7 makes at most 20."""
    state, _ = new_game(Rules(), 5)
    hand = tuple(parse_cards("5H 5S 6D 6C QD 7S"))
    other = tuple(card for card in deck() if card not in hand)[:6]
    return replace(state, hands=(hand, other), dealt=(hand, other), scores=(93, 108), dealer=1)


def test_a_throw_for_the_win_says_why() -> None:
    seen = view(position_three(), 0)
    thrown = computer(Level.HARD, 1, 0).discard(seen)
    assert set(thrown) == set(parse_cards("QD 7S"))  # 5-5-6-6 kept, as it was
    kept = judge_throw(seen, thrown)
    assert kept.lost == 0 and kept.for_the_win is not None
    assert set(kept.for_the_win.by_points) in ({*parse_cards("6C QD")}, {*parse_cards("6D QD")})
    assert kept.for_the_win.points > 2.5  # hand and crib 3.43 less; 5-5-6-6 pegs better
    assert kept.for_the_win.chance > 1.5 * kept.for_the_win.by_points_chance
    info = GameInfo(Rules(), (Seat("ann"), Seat("bob")), 1)
    lines = review_lines(Review(0, (kept,), 1, (1,)), info)
    assert lines[2].split() == ["throw", "QD", "7S", "best"]
    assert re.fullmatch(
        r" {6}best for the win: 3\.\d% against 1\.\d% throwing 6[CD] QD \(\+2\.\d\d points\)",
        lines[3],
    )
    # Thrown by points, the line says what it cost and why the other was best.
    by_points = judge_throw(seen, kept.for_the_win.by_points)
    assert set(by_points.best) == set(thrown) and by_points.lost > 0.5
    lines = review_lines(Review(0, (by_points,), 1, (1,)), info)
    assert "best QD 7S" in lines[2] and "% to win)" in lines[2]
    assert lines[3].startswith("      best for the win: ")
    assert max(map(len, lines)) <= 80
    told = json.loads(json.dumps(by_points.as_json()))
    assert told["for_the_win"]["points"] == round(kept.for_the_win.points, 2)
    assert " was best. It is best for the win: " in coach_line(by_points)
    assert told["for_the_win"]["win_chance"] > told["for_the_win"]["by_points_win_chance"]


def lay_lost(moment: Moment, card: str) -> float:
    found = judge_lay(moment_view(moment), Card.parse(card), coach.SEED)
    assert found is not None
    return found.lost


def test_leading_a_five_into_the_tens_is_marked() -> None:
    lead = Moment(
        tuple(Card.parse(c) for c in ["4H", "5S", "6D", "JC"]),
        (),
        Card.parse("2C"),
        (Card.parse("9C"), Card.parse("KD")),
        dealer=False,
    )
    five, four = lay_lost(lead, "5S"), lay_lost(lead, "4H")
    assert mark_of(five) in ("inaccuracy", "mistake", "blunder")
    assert four < 0.25 and five > four + 1  # a low lead costs little, if anything


def test_pairing_into_a_pair_royal_for_fifteen_is_marked() -> None:
    on_a_five = Moment(
        tuple(Card.parse(c) for c in ["5D", "KH", "2S", "3C"]),
        parse_laid("them 5C"),
        Card.parse("9S"),
        (Card.parse("9C"), Card.parse("8D")),
        dealer=True,
    )
    assert mark_of(lay_lost(on_a_five, "5D")) != ""
    assert lay_lost(on_a_five, "KH") == 0


# --- never a hidden card ----------------------------------------------------------------


def hidden_changed(state: State, seat: int) -> State:
    """The same game for ``seat``: the other hands' cards not yet laid, and the crib's that
    are not the seat's, swapped for cards the seat cannot see (the deck's too)."""
    others = [n for n in range(state.rules.players) if n != seat]
    seen = {*state.dealt[seat], *(card for _, card in state.plays)}
    if state.starter is not None:
        seen.add(state.starter)
    hidden = [card for n in others for card in (*state.hands[n], *(state.discards[n] or ()))]
    spare = [card for card in reversed(deck()) if card not in seen and card not in hidden]
    swap = dict(zip(hidden, spare, strict=False))
    hands = tuple(
        hand if n == seat else tuple(swap.get(card, card) for card in hand)
        for n, hand in enumerate(state.hands)
    )
    deck_after = tuple(swap.get(card, card) for card in state.deck)
    crib = tuple(swap.get(card, card) for card in state.crib)
    return replace(state, hands=hands, crib=crib, deck=deck_after)


@pytest.mark.parametrize(
    "log", ["2-players.toml", pytest.param("3-players.toml", marks=pytest.mark.slow)]
)
def test_the_lays_are_judged_without_the_hidden_cards(
    monkeypatch: pytest.MonkeyPatch, log: str
) -> None:
    replayed = replay(loads((ROOT / "tests" / "logs" / log).read_text(encoding="utf-8")))

    def judged() -> list[Decision]:
        return [
            d
            for number in (1, 2)
            for d in review(*game(replayed), 0, round_number=number, open_play=True).decisions
        ]

    plain = judged()
    real_positions = coach.positions

    def changed(info: GameInfo, actions: list[Action]) -> Iterator[tuple[State, Action | None]]:
        for state, action in real_positions(info, actions):
            changes = isinstance(action, Discard | Play) and action.seat == 0
            yield (hidden_changed(state, 0) if changes else state), action

    monkeypatch.setattr(coach, "positions", changed)
    blind = judged()
    assert [d.kind for d in plain].count("lay") >= 4
    assert [d.kind for d in plain].count("throw") == 2
    marks = [(d.round, d.kind, d.chose, d.best, d.lost, d.exact, d.mark) for d in plain]
    assert marks == [(d.round, d.kind, d.chose, d.best, d.lost, d.exact, d.mark) for d in blind]
    # --open looks: with other cards there, some lay is judged otherwise.
    assert [d.open_lost for d in plain] != [d.open_lost for d in blind]


# --- the command ------------------------------------------------------------------------


def test_a_round_s_review_reads_as_people_read_it(cribbage: Run) -> None:
    result = cribbage("review", str(FIXTURE), "--ascii", "--round", "1")
    assert result.status == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("Ann (easy) v Bob (easy): to 121, seed 9")
    assert lines[1:4] == [
        "Ann's decisions (seat 0), marked by what they lost.",
        "Round 1 (Bob's crib)",
        "  throw 10S 5D         best 10S 3D  lost  4.01  blunder    (hand+crib 4.10)",
    ]
    # why the best was best, in the coach's words: 6S 6C 5S 5D kept make no fifteen
    # (5+5, 6+6, 5+6 and the threes all miss), two pairs, no run
    assert re.fullmatch(r"      10S 3D: keeps two pairs; hand \d+\.\d, crib -\d+\.\d.*", lines[4])
    assert any(line.startswith("  lay   ") for line in lines)
    summary = next(line for line in lines if " decisions over 1 deal: " in line)
    assert re.fullmatch(r"\d+ decisions over 1 deal: \d+\.\d\d points lost\.", summary)


@pytest.mark.slow
def test_review_of_a_log(cribbage: Run, snapshot: SnapshotAssertion) -> None:
    result = cribbage("review", str(FIXTURE), "--ascii")
    assert result.status == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("Ann (easy) v Bob (easy): to 121, seed 9")
    assert lines[1] == "Ann's decisions (seat 0), marked by what they lost."
    assert lines[2] == "Round 1 (Bob's crib)"
    assert lines[3].startswith("  throw ")
    # under each costly decision, why the best was best, in the coach's words
    assert re.fullmatch(r"      10S 3D: keeps .+; hand \d+\.\d, crib -\d+\.\d.*", lines[4])
    # the figures themselves are the snapshot's
    summary = next(i for i, line in enumerate(lines) if line.startswith("49 decisions over 13 "))
    assert re.fullmatch(r"49 decisions over 13 deals: \d+\.\d\d points lost\.", lines[summary])
    assert lines[summary + 1].startswith("A deal: ") and " lost (throws " in lines[summary + 1]
    assert lines[summary + 2].startswith("Marks: ")
    assert re.fullmatch(
        r"Accuracy \d+\.\d, \w+: \d\.\d\d points lost a decision \(throws .*, lays .*\)\.",
        lines[summary + 3],
    )
    assert lines[summary + 4] == "Costliest:"
    assert [line.split(",")[0] for line in lines[summary + 5 : summary + 8]] == [
        "  round 13",
        "  round 9",
        "  round 5",
    ]
    # then every seat graded, and the luck
    assert lines[summary + 8 : summary + 10] == ["", lines[summary + 9]]
    assert lines[summary + 9].startswith("Every seat")
    assert [line.split()[0] for line in lines[summary + 10 : summary + 12]] == ["Ann", "Bob"]
    assert lines[summary + 13].startswith("Luck, in points")
    luck = next(i for i, line in enumerate(lines) if line.startswith("With luck even, "))
    # then the game's story: Ann's chance after every deal, her costliest mistakes marked
    assert lines[luck + 1 : luck + 3] == [
        "",
        "Ann's chance to win, before the first deal and after each:",
    ]
    chart = lines[luck + 3 :]
    assert chart[0].startswith("100% |") and chart[-4].rstrip().endswith(("1", "2", "3"))
    assert [line.split(",")[0] for line in chart[-3:]] == [
        "  1: round 13",
        "  2: round 9",
        "  3: round 5",
    ]
    assert max(len(line) for line in lines) <= 80
    assert result.out == snapshot
    # A log from elsewhere is not one of your games: the history leaves it out.
    assert json.loads(cribbage("stats", "--json").out)["lost_per_deal"]["all"]["games"] == 0


def test_review_json(cribbage: Run) -> None:
    result = cribbage("review", str(FIXTURE), "--json", "--seat", "1", "--open", "--round", "3")
    rows = [json.loads(line) for line in result.out.splitlines()]
    *decisions, summary = rows
    assert {row["kind"] for row in decisions} == {"throw", "lay"}
    assert all("open_lost" in row for row in decisions if row["kind"] == "lay")
    assert all(
        row["mark"] in (None, "slip", "inaccuracy", "mistake", "blunder") for row in decisions
    )
    total = summary["summary"]
    assert total["seat"] == 1 and total["decisions"] == len(decisions)
    assert total["lost"] == pytest.approx(sum(row["lost"] for row in decisions), abs=0.05)
    assert sum(total["marks"].values()) == sum(row["mark"] is not None for row in decisions)
    assert 1 <= len(total["costliest"]) <= 3


def test_review_of_one_round(cribbage: Run) -> None:
    result = cribbage("review", str(FIXTURE), "--round", "2", "--json")
    *decisions, summary = [json.loads(line) for line in result.out.splitlines()]
    assert {row["round"] for row in decisions} == {2}
    assert summary["summary"]["deals"] == 1


@pytest.mark.parametrize(
    "log",
    ["3-players.toml", pytest.param("4-players.toml", marks=pytest.mark.slow), "short-game.toml"],
)
def test_review_of_other_tables(cribbage: Run, log: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_search, "MOST_DEALS", 6)  # the shape, not the search's depth
    path = str(ROOT / "tests" / "logs" / log)
    result = cribbage("review", path, "--json", "--round", "2")
    assert result.status == 0, result.err
    *decisions, summary = [json.loads(line) for line in result.out.splitlines()]
    assert summary["summary"]["deals"] == sum(row["kind"] == "throw" for row in decisions) > 0
    if log != "short-game.toml":  # one card thrown; the lays judged at the table too
        assert all(len(row["chose"]) == 1 for row in decisions)
        assert any(row["kind"] == "lay" and row["lost"] > 0 for row in decisions)


@pytest.mark.slow
@pytest.mark.parametrize(("miss", "players", "swing"), [(2, 2, 2), (-3, 2, 2), (2, 3, 1.5)])
def test_review_of_a_muggins_game_counts_the_points_given_away(
    cribbage: Run, miss: int, players: int, swing: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_search, "MOST_DEALS", 40)  # the counts are the point here
    script = "\n".join(moves(5, muggins=True, miss=miss, players=players)) + "\n"
    played = cribbage("play", "--seed", "5", "--muggins", "--players", str(players), stdin=script)
    assert played.status == 0, played.err
    log = loads(next((Path(os.environ["CRIBBAGE_HOME"]) / "games").glob("*.toml")).read_text())
    result = cribbage("review", "--last", "--json")
    *decisions, summary = [json.loads(line) for line in result.out.splitlines()]
    rounds = [row["round"] for row in decisions]
    assert rounds == sorted(rounds)  # each count in its round, after the lays
    counts = [row for row in decisions if row["kind"] == "count"]
    # The true counts, from the log's own points: what seat 0 scored for each count, and
    # the muggins the other side took right after it.
    true = []
    for entries in (r.points for r in log.rounds):
        for n, entry in enumerate(entries):
            if entry.startswith(("0 hand for ", "0 crib for ")):
                after = entries[n + 1] if n + 1 < len(entries) else ""
                taken = int(after.split()[-1]) if after.startswith("1 muggins for ") else 0
                true.append(int(entry.split()[-1]) + taken)
    claims = log_claims(log)
    assert len(counts) == len(claims) == len(true) > 0
    for row, claim, worth in zip(counts, claims, true, strict=True):
        assert (row["claimed"], row["true"]) == (claim, worth)
        # Missed points are off seat 0's score and onto another side's: twice as many in
        # the measure of throws and lays (ours less theirs), one and a half with three.
        assert row["given"] == max(worth - claim, 0)
        assert row["lost"] == swing * row["given"]
    text = cribbage("review", "--last").out
    if miss > 0:
        assert any(row["given"] == miss for row in counts)
        assert f"claimed {claims[0]}" in text and f"({miss} given away)" in text
        assert summary["summary"]["lost_per_deal"]["counts"] > 0
    else:
        assert all(row["lost"] == 0 for row in counts)
        assert any(row["true"] < row["claimed"] for row in counts)


def log_claims(log: GameLog) -> list[int]:
    """Seat 0's claims in a muggins log, in order."""
    return [int(c.split()[-1]) for r in log.rounds for c in r.claims if c.startswith("0 ")]


def test_review_refuses_in_one_line(cribbage: Run, tmp_path: Path) -> None:
    seat = cribbage("review", str(FIXTURE), "--seat", "3")
    assert seat.status == 2 and seat.err == "cribbage: the game has seats 0 to 1, not 3\n"
    far = cribbage("review", str(FIXTURE), "--round", "40")
    assert far.status == 2 and "the game has 13 rounds, not 40" in far.err
    none = cribbage("review", "--last", "--data-dir", str(tmp_path))
    assert none.status == 1 and "no finished game yet" in none.err
    both = cribbage("review", str(FIXTURE), "--last")
    assert both.status == 2 and both.err == "cribbage: give a game log or --last, not both\n"
    broken = tmp_path / "broken.toml"
    broken.write_text(FIXTURE.read_text(encoding="utf-8").replace("seed = 9", "seed = 8"))
    bad = cribbage("review", str(broken))
    assert bad.status == 1 and len(bad.err.splitlines()) == 1


# --- the coach at the table -------------------------------------------------------------


def test_the_coach_speaks_after_the_first_show(cribbage: Run, home: Path) -> None:
    # seed 3: the easy-playing script's throw and a lay of the first round cost it
    script = "\n".join(moves(3)[:5]) + "\nquit\n"  # the first round, to its show
    result = cribbage("play", "--seed", "3", "--level", "normal", "--coach", stdin=script)
    assert result.status == 0, result.err
    lines = result.out.splitlines()
    shown = next(n for n, line in enumerate(lines) if line.startswith("Scores after round 1:"))
    said = [line for line in lines[shown + 1 :] if line.startswith("Coach: ")]
    judged = review(*game(replay(loads((home / "save.toml").read_text()))), 0, round_number=1)
    costly = [d for d in judged.decisions if d.costly]
    assert len(said) == len(costly) > 0  # each costly decision, once, after the show
    for line, decision in zip(said, costly, strict=True):
        assert line == coach_line(decision)


@pytest.mark.slow
def test_the_coach_speaks_after_each_show_and_at_the_end(cribbage: Run, home: Path) -> None:
    script = "\n".join(moves(7)) + "\n"
    result = cribbage("play", "--seed", "7", "--level", "normal", "--coach", stdin=script)
    assert result.status == 0, result.err
    lines = result.out.splitlines()
    said = [n for n, line in enumerate(lines) if line.startswith("Coach: your ")]
    assert said, "the easy-playing script makes costly decisions"
    won = next(n for n, line in enumerate(lines) if " wins: " in line)
    for n in said[:-1]:  # each after a round's scores (the last round's after the end)
        before = next(lines[m] for m in range(n, 0, -1) if not lines[m].startswith("Coach"))
        assert before.startswith("Scores after round ") or n > won
        assert " was best" in lines[n] and "(" in lines[n]
        assert re.search(r" was best: (keeps |.* for the play)", lines[n])  # and why
    summary = lines[said[-1]]
    assert summary.startswith("Coach: your decisions lost ") and " a deal: accuracy " in summary
    marks = lines[said[-1] + 1]
    assert marks.startswith("Marks: ") and marks.endswith(
        "'cribbage review --last' shows each decision."
    )
    luck = lines[said[-1] + 2]
    assert luck.startswith("Luck: yours ") and "With luck even, " in luck
    assert said[-1] > won
    # The same numbers as the review of the game, line for line.
    judged = cribbage("review", "--last", "--json").out.splitlines()
    total = json.loads(judged[-1])["summary"]
    assert f"lost {total['lost']:.1f} points this game" in summary
    assert f"accuracy {total['accuracy']:.1f}, {total['rating']}." in summary
    assert f"Luck: yours {total['luck']['seats'][0]['total']:+.1f} (deal " in luck
    costly = [json.loads(row) for row in judged[:-1]]
    assert len(said) - 1 == sum(row["mark"] not in (None, "slip") for row in costly)
    assert "coach = true" in (home / "settings.toml").read_text(encoding="utf-8")


def test_the_coach_is_remembered_until_sent_away(cribbage: Run, home: Path) -> None:
    script = "\n".join(moves(7)[:12]) + "\nquit\n"
    assert cribbage("play", "--seed", "7", "--coach", stdin="quit\n").status == 0
    again = cribbage("play", stdin=script)
    assert "Coach: " in again.out
    assert cribbage("play", "--no-coach", stdin="quit\n").status == 0
    assert "coach = false" in (home / "settings.toml").read_text(encoding="utf-8")


def test_review_at_the_prompt_waits_for_the_show(cribbage: Run) -> None:
    typed = moves(7)
    script = "review\n" + "\n".join(typed[:12]) + "\nreview\nquit\n"
    result = cribbage("play", "--seed", "7", "--level", "normal", stdin=script)
    assert result.status == 0, result.err
    assert "Nothing to review yet: a round's decisions are judged once its show is over." in (
        result.out
    )
    after = result.out.split("Nothing to review yet")[1]
    assert re.search(r"\nRound \d+ \((your|\w+'s) crib\)\n  throw ", after)
    assert "decisions over 1 deal: " in after


def test_the_coach_speaks_json_to_programs(cribbage: Run) -> None:
    script = "\n".join(moves(7)[:12]) + "\nreview\nquit\n"
    result = cribbage("play", "--seed", "7", "--coach", "--json", stdin=script)
    events = [json.loads(line) for line in result.out.splitlines()]
    coach = [e for e in events if e["event"] == "coach"]
    assert coach and all(e["lost"] >= 0.5 and e["mark"] for e in coach)
    review_events = [e for e in events if e["event"] == "review"]
    assert review_events and {e["kind"] for e in review_events} == {"throw", "lay"}


# --- in the history -----------------------------------------------------------------------


@pytest.mark.slow
def test_reviewed_games_count_in_the_stats(cribbage: Run, home: Path) -> None:
    script = "\n".join(moves(7)) + "\n"
    assert cribbage("play", "--seed", "7", "--no-coach", stdin=script).status == 0
    none = cribbage("stats")
    assert "Your decisions: none of your games reviewed yet ('cribbage review" in none.out
    for log in (home / "games").glob("*.toml"):
        log.unlink()
    assert cribbage("play", "--seed", "7", "--coach", stdin=script).status == 0
    coached = json.loads(cribbage("stats", "--json").out)["lost_per_deal"]["all"]
    assert coached["games"] == 1
    summary = json.loads(cribbage("review", "--last", "--json").out.splitlines()[-1])["summary"]
    assert coached["deals"] == summary["deals"]
    assert coached["total"] == pytest.approx(summary["lost_per_deal"]["all"], abs=0.01)
    # A game played without the coach counts once it is reviewed.
    script = "\n".join(moves(9)) + "\n"
    assert cribbage("play", "--seed", "9", "--no-coach", stdin=script).status == 0
    assert json.loads(cribbage("stats", "--json").out)["lost_per_deal"]["all"]["games"] == 1
    assert cribbage("review", "--last").status == 0
    assert json.loads(cribbage("stats", "--json").out)["lost_per_deal"]["all"]["games"] == 2
    assert json.loads(cribbage("stats", "--json").out)["decisions"]["all"]["games"] == 2
    lines = cribbage("stats").out.splitlines()
    header = next(n for n, line in enumerate(lines) if line.startswith("Your decisions"))
    assert lines[header + 2].startswith("  all                 2 ")


def test_the_stats_set_this_month_against_the_months_before() -> None:
    game = read_game("game.toml", FIXTURE.read_text(encoding="utf-8"))
    games = [
        replace(game, day="2026-12-02", lost=Lost(10, 5.0, 2.0, 0.0)),
        replace(game, day="2026-11-20", lost=Lost(10, 10.0, 4.0, 0.0)),
        replace(game, day="2026-10-01", lost=Lost(10, 12.0, 6.0, 0.0)),
        replace(game, day="2026-12-01", lost=None),
    ]
    total = history(games, today="2026-12-15")
    assert total.lost("this month") == (1, Lost(10, 5.0, 2.0, 0.0))
    assert total.lost("before") == (2, Lost(20, 22.0, 10.0, 0.0))
    assert total.lost()[0] == 3
    by_month = total.as_json()["lost_per_deal"]
    assert by_month["this_month"] == {  # type: ignore[index]
        "games": 1, "deals": 10, "throws": 0.5, "lays": 0.2, "counts": 0.0, "total": 0.7
    }  # fmt: skip
    # Reviews kept before decisions were counted grade nothing: the review is asked again.
    lines = stats_lines(total)
    assert "Your decisions: review a game again to grade them ('cribbage review --last')." in lines


@pytest.mark.slow
def test_a_progress_bar_on_a_terminal_only(cribbage: Run) -> None:
    import pexpect

    piped = cribbage("review", str(FIXTURE))
    assert piped.status == 0 and piped.err == ""
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cribcli", "review", str(FIXTURE)],
        env={**os.environ, "TERM": "xterm", "COLUMNS": "80"},
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 80),
    )
    child.expect("Reviewing")
    child.expect("Costliest:")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_review_of_a_daily_game_and_a_match_game(cribbage: Run, home: Path) -> None:
    day = "2026-12-01"
    typed = "\n".join(moves(f"daily/{day}", "hard")) + "\n"
    assert cribbage("daily", "--date", day, stdin=typed).status == 0
    daily = cribbage("review", "--last")
    assert daily.status == 0, daily.err
    assert f"daily {day}" in daily.out.splitlines()[0]
    assert "Your decisions (seat 0)" in daily.out
    assert "(your crib)" in daily.out and "(Computer's crib)" in daily.out
    match = cribbage("match", "hard", "normal", "--games", "1", "--log-dir", str(home / "m"))
    assert match.status == 0, match.err
    (log,) = (home / "m").glob("*.toml")
    hard = cribbage("review", str(log), "--json")
    summary = json.loads(hard.out.splitlines()[-1])["summary"]
    assert summary["seat"] == 0
    throws = [json.loads(line) for line in hard.out.splitlines()[:-1]]
    assert all(row["lost"] == 0 for row in throws if row["kind"] == "throw" and "chance" not in row)


def test_a_kept_review_counts_for_the_log_it_reviewed(cribbage: Run, home: Path) -> None:
    from cribcli.record.store import Places
    from cribcli.services.games import keep_review

    games = home / "games"
    games.mkdir()
    log = games / "game.toml"
    text = FIXTURE.read_text(encoding="utf-8")
    log.write_text(text, encoding="utf-8")
    places = Places.find(str(home))

    def reviewed() -> object:
        return json.loads(cribbage("stats", "--json").out)["lost_per_deal"]["all"]["games"]

    elsewhere = home / "elsewhere.toml"
    elsewhere.write_text(text, encoding="utf-8")
    keep_review(elsewhere, places, text, Lost(13, 1.0, 2.0, 0.0), print)
    assert reviewed() == 0  # not one of your games
    keep_review(log, places, text, Lost(13, 1.0, 2.0, 0.0), print)
    assert reviewed() == 1
    os.utime(log)  # touched: the index replays it, the review still fits it
    assert reviewed() == 1
    log.write_text(text.replace("fixture", "fixtures"), encoding="utf-8")  # another game
    assert reviewed() == 0


@pytest.mark.slow
def test_a_review_is_kept_for_the_log_it_reviewed(cribbage: Run, home: Path) -> None:
    games = home / "games"
    games.mkdir()
    log = games / "game.toml"
    log.write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")

    def reviewed() -> int:
        found = json.loads(cribbage("stats", "--json").out)["lost_per_deal"]["all"]["games"]
        assert isinstance(found, int)
        return found

    assert reviewed() == 0
    assert cribbage("review", str(log)).status == 0
    assert reviewed() == 1
    os.utime(log)  # touched: the index replays it, the review still fits it
    assert reviewed() == 1
    index = home / "stats-index.json"
    made = json.loads(index.read_text(encoding="utf-8"))
    made["made_by"] = "cribbage 0.0.1, log format 1, index 1"  # an upgrade rebuilds it
    index.write_text(json.dumps(made), encoding="utf-8")
    assert reviewed() == 1
    # The log changed since (still a good log): the review was of another one.
    log.write_text(log.read_text(encoding="utf-8").replace("fixture", "fixtures"), "utf-8")
    assert cribbage("replay", str(log), "--quiet").status == 0
    assert reviewed() == 0


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1, 2]",
        '{"games": {"game.toml": {"digest": "00", "lost": [1, 2, 3, 4]}}}',
        '{"games": {"game.toml": {"digest": "DIGEST", "lost": [1, -2, 0, 0]}}}',
        '{"games": {"game.toml": {"digest": "DIGEST", "lost": [true, 2, 0, 0]}}}',
        '{"games": {"game.toml": {"digest": "DIGEST", "lost": [1, 2, 0]}}}',
        '{"games": {"game.toml": {"digest": "DIGEST", "lost": [1, NaN, 0, 0]}}}',
        '{"games": {"game.toml": "\\u001b[2J"}}',
    ],
)
def test_a_reviews_file_that_is_not_one_is_not_believed(
    cribbage: Run, home: Path, text: str
) -> None:
    games = home / "games"
    games.mkdir()
    (games / "game.toml").write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    digest = digest_of(FIXTURE.read_text(encoding="utf-8"))
    (home / "reviews.json").write_text(text.replace("DIGEST", digest), encoding="utf-8")
    result = cribbage("stats", "--json")
    assert result.status == 0 and result.err == ""
    assert json.loads(result.out)["lost_per_deal"]["all"]["games"] == 0
    # The same file with a good entry is believed: the test above is not vacuous.
    good = '{"games": {"game.toml": {"digest": "DIGEST", "lost": [13, 2, 1, 0]}}}'
    (home / "reviews.json").write_text(good.replace("DIGEST", digest), encoding="utf-8")
    assert json.loads(cribbage("stats", "--json").out)["lost_per_deal"]["all"]["games"] == 1
