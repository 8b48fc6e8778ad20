"""Luck told apart from skill: the starter's and the play's worked by hand, the parts
adding up to each seat's luck, and the luck shown by the review and the coach."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from cribcli.players import pegs
from cribcli.record.reader import loads
from cribcli.record.replay import Replay, replay
from cribcli.review.coach import Review
from cribcli.review.luck import Luck, average_six, luck_of
from cribcli.rules.cards import Card, deck, parse_cards
from cribcli.rules.events import Dealt, Discarded, Event, Pegged, Played, RoundEnded, StarterCut
from cribcli.rules.scoring import PegItem, PegKind
from cribcli.ui.coaching import coach_summary, luck_lines
from tests.conftest import Run

LOGS = Path(__file__).resolve().parent / "logs"

# The dealer (seat 0) is dealt four aces and two kings and throws the kings; the pone
# (seat 1) throws two queens. Four aces score 12 whatever the starter (no fifteen can
# be made: 4 + 10 is 14; no run), so the dealer's hand has no starter luck at all.
DEALER = tuple(parse_cards("AC AD AH AS KC KD"))
PONE = tuple(parse_cards("QH QS 2H 3H 4H 6H"))


def one_deal(starter: Card, played: list[Event] | None = None) -> list[Event]:
    return [
        Dealt(1, 0, (DEALER, PONE)),
        Discarded(0, DEALER[4:]),
        Discarded(1, PONE[:2]),
        StarterCut(starter),
        *(played or []),
        RoundEnded(1, (0, 0)),
    ]


def starter_luck(starter: str, seat: int) -> float:
    luck = luck_of(one_deal(parse_cards(starter)[0]), {})
    assert luck is not None
    return luck.deals[seat].starter


def test_the_starter_luck_worked_by_hand() -> None:
    # The crib KC KD QH QS scores 4 (two pairs); with a 5, four fifteens more (12); with
    # a jack, four runs of three (16); with a king or a queen, three of a kind and a pair
    # (8). Of the 40 cards not dealt: four 5s, four jacks, two kings, two queens. So the
    # crib's average is (4*12 + 4*16 + 2*8 + 2*8 + 28*4) / 40 = 256 / 40 = 6.4, and his
    # heels' 2 * 4/40 = 0.2.
    assert starter_luck("5H", 0) == pytest.approx(12 - 6.4 - 0.2)
    assert starter_luck("JC", 0) == pytest.approx(16 - 6.4 + 2 - 0.2)
    assert starter_luck("KH", 0) == pytest.approx(8 - 6.4 - 0.2)
    assert starter_luck("7C", 0) == pytest.approx(4 - 6.4 - 0.2)


@pytest.mark.parametrize("seat", [0, 1])
def test_the_starter_luck_averages_nothing_over_every_starter(seat: int) -> None:
    dealt = set(DEALER + PONE)
    undealt = [card for card in deck() if card not in dealt]
    assert len(undealt) == 40
    total = sum(starter_luck(str(card), seat) for card in undealt)
    assert total == pytest.approx(0.0, abs=1e-9)


def test_the_play_luck_worked_by_hand() -> None:
    # The dealer pegs a fifteen (2); the pone a go (1) and the last card (1): even.
    # The dealer's lays lost half a point by the review, the pone's nothing. The play
    # was expected to give the dealer the two kept hands' edges, halved each way.
    played: list[Event] = [
        Played(1, parse_cards("6H")[0], 6, (), (0, 0)),
        Played(0, parse_cards("9C")[0], 15, (PegItem(PegKind.FIFTEEN, 2),), (2, 0)),
        Pegged(1, (PegItem(PegKind.GO, 1),), (2, 1)),
        Pegged(1, (PegItem(PegKind.LAST_CARD, 1),), (2, 2)),
        Pegged(0, (PegItem(PegKind.HIS_HEELS, 2),), (4, 2)),  # not the play's
    ]
    luck = luck_of(one_deal(parse_cards("7C")[0], played), {(1, 0): 0.5})
    assert luck is not None
    expected = pegs.edge(DEALER[:4], dealer=True) - pegs.edge(PONE[2:], dealer=False)
    shared = (2 - 2) + (0.5 - 0.0) - expected / 2
    assert luck.deals[0].play == pytest.approx(shared / 2)
    assert luck.deals[1].play == pytest.approx(-shared / 2)


def test_the_deal_luck_is_the_six_against_the_average_six() -> None:
    luck = luck_of(one_deal(parse_cards("7C")[0]), {})
    assert luck is not None
    from cribcli.rules.analysis import analyse

    best = analyse(PONE, dealer=False)[0]
    assert luck.deals[1].deal == pytest.approx(best.hand - average_six(False))
    # Sixes dealt to a dealer are worth more to their own side (the crib is its own).
    assert 12 < average_six(True) < 15 and 7 < average_six(False) < 9.5


@cache
def played() -> Replay:
    """The 8-round game of two in ``tests/logs``."""
    return replay(loads((LOGS / "short-game.toml").read_text(encoding="utf-8")))


def whole_game() -> tuple[Luck, list[str]]:
    """Its luck, each seat's lays taken to have lost a quarter point a round."""
    replayed = played()
    lost = {(r, seat): 0.25 for r in range(1, 9) for seat in (0, 1)}
    luck = luck_of(replayed.events, lost)
    assert luck is not None
    return luck, [seat.name for seat in replayed.log.info.seats]


def test_a_games_luck_adds_up() -> None:
    luck, _ = whole_game()
    rounds = {d.round for d in luck.deals}
    assert len(luck.deals) == 2 * len(rounds)
    for seat in luck.seats():
        own = [d for d in luck.deals if d.seat == seat.seat]
        assert seat.deal == pytest.approx(sum(d.deal for d in own))
        assert seat.starter == pytest.approx(sum(d.starter for d in own))
        assert seat.play == pytest.approx(sum(d.play for d in own))
        assert seat.total == pytest.approx(sum(d.total for d in own))
        assert seat.skill_only == pytest.approx(seat.score - seat.total)
    # The play's luck is one event between two: what one side gains the other loses.
    assert sum(d.play for d in luck.deals) == pytest.approx(0.0, abs=1e-9)
    margin = luck.scores[0] - luck.scores[1]
    between = luck.seat(0).total - luck.seat(1).total
    assert luck.skill_margin(0) == pytest.approx(margin - between)
    assert luck.skill_margin(1) == pytest.approx(-luck.skill_margin(0))


def test_no_luck_at_a_table_of_three() -> None:
    replayed = replay(loads((LOGS / "3-players.toml").read_text(encoding="utf-8")))
    assert luck_of(replayed.events, {}) is None


def test_the_luck_as_a_person_reads_it() -> None:
    luck, names = whole_game()
    lines = luck_lines(luck, played().log.info)
    assert lines[0].split() == [
        "Luck,", "in", "points", "deal", "starter", "play", "in", "all", "score", "skill", "only"
    ]  # fmt: skip
    assert [line.split()[0] for line in lines[1:3]] == names
    ahead = names[0] if luck.skill_margin(0) > 0 else names[1]
    assert lines[3] == (
        f"With luck even, {ahead} would have been ahead by {abs(luck.skill_margin(0)):.1f} points."
    )
    summary = coach_summary(Review(0, (), 0), luck, names)
    assert summary[2].startswith(f"Luck: yours {luck.seat(0).total:+.1f} (deal ")


@pytest.mark.slow
def test_the_review_gives_the_luck(cribbage: Run) -> None:
    shown = cribbage("review", str(LOGS / "short-game.toml"), "--json")
    assert shown.status == 0
    summary = json.loads(shown.out.splitlines()[-1])["summary"]
    seats = summary["luck"]["seats"]
    assert [seat["name"] for seat in seats] == ["Ann", "Bob"]
    for seat in seats:
        assert seat["total"] == pytest.approx(
            seat["deal"] + seat["starter"] + seat["play"], abs=0.02
        )
        assert seat["skill_only"] == pytest.approx(seat["score"] - seat["total"], abs=0.02)
    # One round alone has no luck: the game's is weighed whole.
    alone = cribbage("review", str(LOGS / "short-game.toml"), "--round", "2", "--json")
    assert "luck" not in json.loads(alone.out.splitlines()[-1])["summary"]
