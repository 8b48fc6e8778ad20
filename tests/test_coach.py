"""The coach: ``cribbage peg-advice`` and what a card laid is worth."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from cribcli.players import computer
from cribcli.players.hard import HardPlayer
from cribcli.record.session import next_action
from cribcli.review.coach import ME, THEM, Moment, moment_view, parse_laid, peg_advice
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.engine import Phase, Rules, apply, new_game, view
from cribcli.rules.errors import UsageProblem
from tests.conftest import Run


def moment(hand: str, laid: str, starter: str, thrown: str, *, dealer: bool) -> Moment:
    return Moment(
        tuple(parse_cards(hand)),
        parse_laid(laid),
        Card.parse(starter),
        tuple(parse_cards(thrown)),
        dealer=dealer,
    )


def ranking(advice_of: Moment) -> list[str]:
    return [str(lay.card) for lay in peg_advice(advice_of).values]


# --- hand-worked positions ----------------------------------------------------------------


def test_the_dealer_answers_a_ten_with_the_five_for_fifteen() -> None:
    # 5 on 10 is 15 for 2, and a ten from the pone next makes only 25.
    advice = peg_advice(moment("4H 5S 6D JC", "them 10S", "2C", "9C KD", dealer=True))
    assert advice.count == 10 and [str(card) for card in advice.pile] == ["10S"]
    best = advice.values[0]
    assert str(best.card) == "5S" and best.now == 2
    assert [lay.now for lay in advice.values[1:]] == [0, 0, 0]


def test_the_pone_never_leads_a_five_into_the_tens() -> None:
    # Sixteen ten-cards make 15 on a 5: it is the worst lead of 4-5-6-J.
    assert ranking(moment("4H 5S 6D JC", "", "2C", "9C KD", dealer=False))[-1] == "5S"


def test_fifteen_beats_a_pair_that_opens_a_pair_royal_for_fifteen() -> None:
    # On a 5 led, the king and the 5 both make 2; the pair leaves count 10, where their
    # third 5 is a pair royal and 15 (8 points); the king leaves 15, where little scores.
    advice = peg_advice(moment("5D KH 2S 3C", "them 5C", "9S", "9C 8D", dealer=True))
    first, second = advice.values[:2]
    assert (str(first.card), first.now) == ("KH", 2)
    assert (str(second.card), second.now) == ("5D", 2)
    assert first.net > second.net


def test_thirty_one_is_taken_after_their_go() -> None:
    # They said go on 27: the 4 makes 31 for 2; the 3 makes 30 and a go, 1.
    advice = peg_advice(moment("4H 3S", "me 10S them 9H me 8C", "2C", "9C KD", dealer=False))
    assert advice.their_go and advice.count == 27
    assert [(str(lay.card), lay.now) for lay in advice.values] == [("4H", 2), ("3S", 0)]


def test_the_counts_are_worked_out_through_a_go() -> None:
    # 10 9 8 3 is 30; neither can go on, they peg the go, and the new count is mine to lead.
    advice = peg_advice(
        moment("4H 5S", "me 10S them 9H me 8C them 3C", "2C", "9C KD", dealer=False)
    )
    assert advice.count == 0 and advice.pile == ()


# --- only what the player has seen ----------------------------------------------------------


def test_the_moment_shows_only_what_the_player_has_seen() -> None:
    known = set(parse_cards("4H 5S 6D JC 10S 2C 9C KD"))
    seen = moment_view(moment("4H 5S 6D JC", "them 10S", "2C", "9C KD", dealer=True))
    assert seen.hand == tuple(parse_cards("4H 5S 6D JC"))
    assert seen.held == (4, 3) and seen.count == 10
    shown = {
        *seen.hand,
        *seen.discards,
        *seen.kept,
        *seen.pile,
        *seen.crib,
        *(card for _, card in seen.plays),
        seen.starter,
    }
    assert shown <= known  # the cards filled in for the other hand are nowhere in it


def positions(seed: int) -> list[Moment]:
    """Every moment of one real game's first two rounds where seat 0 has a choice to lay."""
    players = [computer("normal", seed, seat) for seat in (0, 1)]
    state, _ = new_game(Rules(first_dealer=seed % 2), seed)
    found = []
    while state.round <= 2 and state.phase is not Phase.OVER:
        seen = view(state, 0)
        if state.phase is Phase.PLAY and state.to_play == 0 and len(seen.playable()) > 1:
            assert seen.starter is not None
            found.append(
                Moment(
                    seen.hand,
                    tuple((ME if who == 0 else THEM, card) for who, card in seen.plays),
                    seen.starter,
                    seen.discards,
                    dealer=seen.is_dealer,
                )
            )
        state, _ = apply(state, next_action(state, players))
    return found


@pytest.mark.parametrize("seed", [1])
def test_the_best_lay_is_the_hard_computers(seed: int) -> None:
    the_best_lay_is_the_hard_computers(seed)


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000))
def test_the_best_lay_is_always_the_hard_computers(seed: int) -> None:
    the_best_lay_is_the_hard_computers(seed)


def the_best_lay_is_the_hard_computers(seed: int) -> None:
    """At each moment of a game's first two rounds: peg-advice's best is what hard lays."""
    for at in positions(seed):
        seen = moment_view(at)
        advice = peg_advice(at)
        laid = HardPlayer("peg-advice", ME).play(seen)
        best = advice.values[0].net
        assert next(lay.net for lay in advice.values if lay.card == laid) == pytest.approx(best)
        assert {lay.card for lay in advice.values} == set(seen.playable())


# --- what is refused ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "laid", "thrown", "dealer", "says"),
    [
        ("4H 5S 6D", "", "9C KD", True, "you hold 3 and laid 0: that should make 4"),
        ("4H 5S 6D JC", "", "9C", True, "give the 2 cards you threw, not 1"),
        ("4H 5S 6D JC", "", "9C KD", True, "it is not yours to lay"),
        (
            "4H 5S 6D JC",
            "them 10S",
            "9C KD",
            False,
            "card 1 laid, `them 10S`: the turn to lay was yours (the pone leads: --dealer if",
        ),
        (
            "5S 6D",
            "me 4H me 8C",
            "9C KD",
            False,
            "card 2 laid, `me 8C`: the turn to lay was theirs",
        ),
        ("6D", "me KH them QC me QD me 5S", "9C KD", False, "card 4 laid, `me 5S`: "),
        ("4H 5S 6D JC", "them 4H", "9C KD", True, "4H appears twice"),
        ("4H 5S 6D JC", "them", "9C KD", True, "give each card laid after who laid it"),
        ("4H 5S 6D JC", "him 10S", "9C KD", True, "`him` is not who laid a card"),
    ],
)
def test_impossible_moments_are_told(
    hand: str, laid: str, thrown: str, dealer: bool, says: str
) -> None:
    with pytest.raises(Exception) as raised:
        peg_advice(moment(hand, laid, "2C", thrown, dealer=dealer))
    assert says in str(raised.value)
    assert isinstance(raised.value, UsageProblem) or "appears twice" in says


# --- the command ------------------------------------------------------------------------------

EXAMPLE = ("4H", "5S", "6D", "JC", "--dealer", "--laid", "them 10S", "-s", "2C")
THROWN = ("--thrown", "9C", "KD")


def test_peg_advice_table(cribbage: Run, snapshot: SnapshotAssertion) -> None:
    result = cribbage("peg-advice", *EXAMPLE, *THROWN, "--ascii")
    assert result.status == 0
    lines = result.out.splitlines()
    assert lines[0] == "The count is 10: 10S."
    assert lines[3].startswith(" * 5S      2   +")
    assert len(lines) == 3 + 4
    assert result.out == snapshot


def test_peg_advice_json_and_top(cribbage: Run) -> None:
    rows = json.loads(cribbage("peg-advice", *EXAMPLE, *THROWN, "--json").out)
    assert rows[0]["card"] == "5S"
    assert [row["net"] for row in rows] == sorted((row["net"] for row in rows), reverse=True)
    assert rows[0]["now"] == 2
    top = json.loads(cribbage("peg-advice", *EXAMPLE, *THROWN, "--json", "--top", "2").out)
    assert top == rows[:2]


@pytest.mark.parametrize(
    ("words", "says"),
    [
        ((*EXAMPLE, *THROWN, "--pone"), "--dealer and --pone contradict each other: give one"),
        (("4H", "5S", "6D", "JC", "-s", "2C", *THROWN), "say whose crib it is"),
        ((*EXAMPLE, "--thrown", "9C", "4H"), "4H appears twice"),
        ((*EXAMPLE, "--thrown", "9C", "ZZ"), "ZZ"),
    ],
)
def test_peg_advice_refuses_in_one_line(cribbage: Run, words: tuple[str, ...], says: str) -> None:
    result = cribbage("peg-advice", *words)
    assert result.status == 2
    assert says in result.err and len(result.err.splitlines()) == 1
    assert "Traceback" not in result.err


def test_peg_advice_needs_the_starter_and_the_throw(cribbage: Run) -> None:
    result = cribbage("peg-advice", "4H", "5S", "6D", "JC", "--dealer")
    assert result.status == 2 and "--starter" in result.err
