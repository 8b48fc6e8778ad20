"""The rules engine: the deal, the discard, every pegging rule, the show, winning, views.

Each scenario's expected points are worked out by hand from the rules.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cribcli.rules.cards import Card, deck, parse_cards, shuffled_deck
from cribcli.rules.engine import (
    Claim,
    Discard,
    IllegalAction,
    Phase,
    Play,
    Rules,
    State,
    apply,
    legal_actions,
    new_game,
    seats_to_act,
    view,
)
from cribcli.rules.errors import CribbageError
from cribcli.rules.events import (
    CountRestarted,
    CribFromDeck,
    DealerCut,
    Dealt,
    Event,
    GameOver,
    Pegged,
    Played,
    RoundEnded,
    SaidGo,
    Shown,
    StarterCut,
)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def play_state(
    hands: list[str],
    *,
    dealer: int = 0,
    starter: str = "AS",
    scores: tuple[int, ...] | None = None,
    target: int = 121,
) -> State:
    """A state at the start of the play with the given hands (the crib from unused cards)."""
    players = len(hands)
    rules = Rules(players=players, target=target, cut_for_deal=players > 2)
    state, _ = new_game(rules, 1)
    held = tuple(cards(hand) for hand in hands)
    used = {card for hand in held for card in hand} | {Card.parse(starter)}
    crib = tuple(card for card in deck() if card not in used)[:4]
    return replace(
        state,
        phase=Phase.PLAY,
        dealer=dealer,
        dealt=held,
        hands=held,
        discards=((),) * players,
        crib=crib,
        starter=Card.parse(starter),
        to_play=(dealer + 1) % players,
        scores=scores if scores is not None else (0,) * rules.sides,
    )


def run(state: State, *plays: str) -> tuple[State, list[Event]]:
    """Lay the cards given as ``SEAT CARD`` in turn; return the state and every event."""
    events: list[Event] = []
    for text in plays:
        seat, card = text.split()
        state, more = apply(state, Play(int(seat), Card.parse(card)))
        events.extend(more)
    return state, events


def points(events: list[Event]) -> list[str]:
    out: list[str] = []
    for e in events:
        if isinstance(e, Played | Pegged):
            out.extend(f"{e.seat} {item.describe()}" for item in e.items)
        if isinstance(e, SaidGo):
            out.append(f"{e.seat} says go")
    return out


# --- dealing and discarding ------------------------------------------------------------


def test_two_players_six_cards_computer_deals_first() -> None:
    state, events = new_game(Rules(), 7)
    assert state.dealer == 1 and state.round == 1 and state.phase is Phase.DISCARD
    assert [len(hand) for hand in state.hands] == [6, 6]
    # dealt one at a time from the dealer's left: seat 0 gets the 1st, 3rd, 5th... card
    top = shuffled_deck(7, "round 1")
    assert state.hands[0] == tuple(top[0:12:2])
    assert state.hands[1] == tuple(top[1:12:2])
    assert isinstance(events[0], Dealt)


@pytest.mark.parametrize(("players", "size"), [(3, 5), (4, 5)])
def test_three_and_four_players_five_cards_and_cut_for_deal(players: int, size: int) -> None:
    state, events = new_game(Rules(players=players, cut_for_deal=True), 3)
    assert [len(hand) for hand in state.hands] == [size] * players
    cut = events[0]
    assert isinstance(cut, DealerCut) and cut.dealer == state.dealer
    assert len(cut.cuts) == players  # no tie with this seed: one cut each, the low card deals
    ranks = {seat: card.rank for seat, card in cut.cuts}
    assert all(ranks[cut.dealer] < rank for seat, rank in ranks.items() if seat != cut.dealer)


def test_cut_ties_cut_again() -> None:
    # seed 26: the first cut gives JH, 10S, 10H: seats 1 and 2 tie low and cut again
    state, events = new_game(Rules(players=3, cut_for_deal=True), 26)
    cut = events[0]
    assert isinstance(cut, DealerCut)
    assert [str(card) for _, card in cut.cuts[:3]] == ["JH", "10S", "10H"]
    assert [seat for seat, _ in cut.cuts[3:]] == [1, 2]
    second = dict(cut.cuts[3:])
    assert second[state.dealer].rank < second[3 - state.dealer].rank


def test_cut_for_deal_is_the_rule_with_three_or_four() -> None:
    with pytest.raises(CribbageError):
        Rules(players=3)
    with pytest.raises(CribbageError):
        Rules(players=5, cut_for_deal=True)
    with pytest.raises(CribbageError):
        Rules(target=100)


def test_three_player_crib_card_comes_off_the_deck() -> None:
    state, _ = new_game(Rules(players=3, cut_for_deal=True), 5)
    events: list[Event] = []
    for seat in seats_to_act(state):
        state, more = apply(state, Discard(seat, state.hands[seat][:1]))
        events.extend(more)
    deck_card = next(e for e in events if isinstance(e, CribFromDeck)).card
    starter = next(e for e in events if isinstance(e, StarterCut)).starter
    assert deck_card == state.deck[15] and starter == state.deck[16]
    assert len(state.crib) == 4 and deck_card in state.crib
    assert state.phase is Phase.PLAY
    assert state.to_play == (state.dealer + 1) % 3


def test_discard_order_from_the_dealers_left_and_illegal_discards() -> None:
    state, _ = new_game(Rules(), 7)
    assert seats_to_act(state) == (0, 1)
    hand = state.hands[0]
    with pytest.raises(IllegalAction, match="put 2 cards in the crib, not 1"):
        apply(state, Discard(0, hand[:1]))
    stranger = next(card for card in deck() if card not in hand)
    with pytest.raises(IllegalAction, match=f"{stranger} is not in your hand"):
        apply(state, Discard(0, (hand[0], stranger)))
    with pytest.raises(IllegalAction, match="put your cards in the crib first"):
        apply(state, Play(0, hand[0]))
    state, _ = apply(state, Discard(0, hand[:2]))
    with pytest.raises(IllegalAction, match="already"):
        apply(state, Discard(0, state.hands[0][:2]))
    assert len(legal_actions(state)) == 15  # seat 1: any 2 of 6


# --- the play -------------------------------------------------------------------------


def test_pone_leads_and_turns_alternate() -> None:
    state = play_state(["2C 3C 4C 6C", "KH QH JH 10H"], dealer=0)
    assert state.to_play == 1
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, Play(0, Card.parse("2C")))
    state, _ = run(state, "1 KH")
    assert state.to_play == 0


def test_run_completed_out_of_order() -> None:
    # 4, 6, 5: the 5 makes fifteen (2) and a run of three (3)
    state = play_state(["6C 9C 9D 9H", "4H 5H KH QH"], dealer=0)
    _, events = run(state, "1 4H", "0 6C", "1 5H")
    assert points(events) == ["1 fifteen for 2", "1 run of 3 for 3"]


def test_run_after_a_pair_broke_it() -> None:
    # 7, 7, 8, 6: a pair for 2, then the 6 makes a run of 3 (7 8 6), not 4. At 28 nobody
    # can lay a king or queen: seat 1 says go and seat 0 takes the go point.
    state = play_state(["7C 6C KD KH", "7H 8H KS QS"], dealer=0)
    state, events = run(state, "1 7H", "0 7C", "1 8H", "0 6C")
    assert points(events) == ["0 pair for 2", "0 run of 3 for 3", "1 says go", "0 go for 1"]


def test_thirty_one_scores_two_and_no_go() -> None:
    # K J (20) ... Q? no: K(10) Q(20) J(30) A(31): run of 3 for the J, 31 for 2 for the A
    state = play_state(["QH AS 2C 3C", "KH JH 4D 5D"], dealer=0, starter="9S")
    state, events = run(state, "1 KH", "0 QH", "1 JH", "0 AS")
    assert points(events) == ["1 run of 3 for 3", "0 31 for 2"]
    assert isinstance(events[-1], CountRestarted) and events[-1].leader == 1
    assert state.count == 0 and state.to_play == 1


def test_go_then_the_other_plays_on_and_takes_the_go() -> None:
    # K 9 Q = 29: seat 0 (10 5 3 left) says go; seat 1 lays its A (30) and, unable to lay
    # its 5, takes the go point. Seat 0 leads the new count: 10, 5 (fifteen for 2 to seat
    # 1), 5 (pair for 2), then seat 0 alone lays its 3 and scores the last card.
    state = play_state(["9C 10C 5C 3C", "KH QD AS 5D"], dealer=0, starter="8H")
    state, events = run(state, "1 KH", "0 9C", "1 QD")
    assert points(events) == ["0 says go"]
    assert state.to_play == 1
    state, events = run(state, "1 AS")
    assert points(events) == ["1 go for 1"]
    assert state.to_play == 0 and state.count == 0
    state, events = run(state, "0 10C", "1 5D", "0 5C", "0 3C")
    assert points(events) == ["1 fifteen for 2", "0 pair for 2", "0 last card for 1"]
    # the play is over: the show counts the pone's hand, the dealer's, then the crib
    shown = [(e.seat, e.show.is_crib) for e in events if isinstance(e, Shown)]
    assert shown == [(1, False), (0, False), (0, True)]
    assert isinstance(events[-1], Dealt) and events[-1].dealer == 1


def test_last_card_scores_only_when_it_is_not_31() -> None:
    state = play_state(["QH 10C 10S KC", "KH JH AS AD"], dealer=0, starter="2S")
    _, events = run(state, "1 KH", "0 QH", "1 JH", "1 AS", "0 10C", "1 AD", "0 10S", "0 KC")
    assert points(events)[:4] == ["1 run of 3 for 3", "0 says go", "1 31 for 2", "0 31 for 2"]
    assert not any("last card" in p for p in points(events))


def test_go_passes_round_the_table_with_three_players() -> None:
    # Dealer 0; seat 1 leads. K Q 8 = 28: seat 1 (5 4 9) says go, seat 2 lays its 2 (30),
    # seat 0 (6 9 7) says go, seat 1 has said go, and seat 2 cannot lay its 7 or 10: go
    # for 1 to seat 2, and seat 0, to its left, leads the next count.
    state = play_state(["8H 6H 9S 7C", "KH 5C 4D 9D", "QH 2C 7H 10S"], dealer=0, starter="AC")
    state, events = run(state, "1 KH", "2 QH", "0 8H")
    assert points(events) == ["1 says go"]
    assert state.to_play == 2
    state, events = run(state, "2 2C")
    assert points(events) == ["0 says go", "2 go for 1"]
    assert state.to_play == 0 and state.count == 0
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, Play(1, Card.parse("5C")))


def test_partners_share_a_score_with_four_players() -> None:
    # seats 0 and 2 against 1 and 3; dealer 3, seat 0 leads
    state = play_state(
        ["5H 2C 3C 4C", "10H 2D 3D 4D", "5S 2H 3H 4H", "9C 2S 3S 4S"], dealer=3, starter="KD"
    )
    state, events = run(state, "0 5H", "1 10H", "2 5S")
    # seat 1 makes fifteen (side 1); seat 2 pairs... no: 5 10 5 is no pair (not in a row)
    assert points(events) == ["1 fifteen for 2"]
    assert state.scores == (0, 2)
    state, events = run(state, "3 9C")
    assert state.count == 29


# --- winning -----------------------------------------------------------------------------


def test_win_by_his_heels_before_the_play() -> None:
    # seed 6: the first starter is the jack of hearts; the dealer (seat 1) has 119
    state, _ = new_game(Rules(), 6)
    state = replace(state, scores=(0, 119))
    state, _ = apply(state, Discard(0, state.hands[0][:2]))
    state, events = apply(state, Discard(1, state.hands[1][:2]))
    assert [type(e) for e in events] == [type(e) for e in events[:1]] + [
        StarterCut,
        Pegged,
        GameOver,
    ]
    heels = events[-2]
    assert isinstance(heels, Pegged) and heels.items[0].describe() == "his heels for 2"
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.winner == 1 and over.scores == (0, 121) and over.skunks == ("double skunk", "")
    assert state.phase is Phase.OVER and legal_actions(state) == []


def test_win_in_the_play_stops_everything() -> None:
    state = play_state(["5C 6C 7C 8C", "KH QH 4H 3H"], dealer=0, scores=(120, 100))
    state, events = run(state, "1 KH", "0 5C")
    assert isinstance(events[-1], GameOver) and events[-1].winner == 0
    assert events[-1].scores == (121, 100)  # the fifteen is worth 2: one is pegged
    assert events[-1].skunks == ("", "")
    with pytest.raises(IllegalAction, match="the game is over"):
        apply(state, Play(1, Card.parse("QH")))


def test_win_in_the_show_before_the_dealer_counts() -> None:
    # The pone (seat 1, at 115) pegs only a go in the play (116), then shows 5 5 10 J with
    # a 5 cut: 20, and wins. The dealer's run 6-7-8-9 is never counted.
    state = play_state(["7C 8C 9C 6D", "5H 5D 10H JC"], dealer=0, starter="5S", scores=(100, 115))
    state, events = run(state, "1 5H", "0 9C", "1 5D", "0 6D", "1 10H", "0 7C", "1 JC", "0 8C")
    assert points(events) == [
        "1 says go",
        "0 go for 1",
        "0 says go",
        "1 go for 1",
        "0 last card for 1",
    ]
    shown = [e for e in events if isinstance(e, Shown)]
    assert [(e.seat, e.show.is_crib) for e in shown] == [(1, False)]
    assert isinstance(events[-1], GameOver) and events[-1].winner == 1
    # the hand was worth 20, but only the 5 it needed are pegged: the game ends at 121
    assert shown[0].show.total == 20
    assert shown[0].scores == events[-1].scores == (102, 121)


@pytest.mark.parametrize(
    ("target", "score", "skunk"),
    [
        (121, 91, ""),
        (121, 90, "skunk"),
        (121, 61, "skunk"),
        (121, 60, "double skunk"),
        (61, 31, ""),
        (61, 30, "skunk"),
        (61, 0, "skunk"),
    ],
)
def test_skunks(target: int, score: int, skunk: str) -> None:
    assert Rules(target=target).skunk(score) == skunk


# --- what a seat may see ------------------------------------------------------------------


def test_view_does_not_change_when_hidden_cards_do() -> None:
    state, _ = new_game(Rules(), 11)
    state, _ = apply(state, Discard(0, state.hands[0][:2]))
    state, _ = apply(state, Discard(1, state.hands[1][:2]))
    state, _ = apply(state, Play(0, state.hands[0][0]))
    seen = view(state, 0)
    # Give seat 1 other cards, change the crib and the rest of the deck.
    visible = (
        set(state.hands[0])
        | set(state.dealt[0])
        | {state.starter}
        | {card for _, card in state.plays}
    )
    unseen = [card for card in deck() if card not in visible]
    other = replace(
        state,
        hands=(state.hands[0], tuple(unseen[-4:])),
        dealt=(state.dealt[0], tuple(unseen[-6:])),
        discards=(state.discards[0], tuple(unseen[-6:-4])),
        crib=state.crib[:2] + tuple(unseen[:2]),
        deck=tuple(reversed(state.deck)),
    )
    assert view(other, 0) == seen
    assert view(other, 1) != view(state, 1)
    assert seen.hand == state.hands[0] and seen.held == (3, 4)


def test_illegal_play_changes_nothing() -> None:
    state = play_state(["KC QC 6C 4C", "KH 5H 9H 8H"], dealer=0)
    state, _ = run(state, "1 KH", "0 KC", "1 5H")
    before = state
    with pytest.raises(IllegalAction, match="would take the count to 35: it can never pass 31"):
        apply(state, Play(0, Card.parse("QC")))
    with pytest.raises(IllegalAction, match="9H is not in your hand"):
        apply(state, Play(0, Card.parse("9H")))
    assert state == before
    assert legal_actions(state) == [Play(0, Card.parse("6C")), Play(0, Card.parse("4C"))]


def test_muggins_takes_missed_points_and_overclaims_score_the_truth() -> None:
    # The go test's round, under muggins. After the play: 3 each. The show counts, by hand:
    # pone KH QD AS 5D + 8H: K+5, Q+5 = 4. Dealer 9C 10C 5C 3C + 8H: 10+5 (2), a four-card
    # flush (4), 8-9-10 (3) = 9. Crib AC 2C 4C 6C + 8H: 8+6+A, 8+4+2+A = 4.
    state = play_state(["9C 10C 5C 3C", "KH QD AS 5D"], dealer=0, starter="8H")
    state = replace(state, rules=Rules(muggins=True))
    state, _ = run(state, "1 KH", "0 9C", "1 QD", "1 AS", "0 10C", "1 5D", "0 5C", "0 3C")
    assert state.phase is Phase.SHOW and state.scores == (3, 3)
    assert seats_to_act(state) == (1,)
    with pytest.raises(IllegalAction, match="not your count"):
        apply(state, Claim(0, 9))
    with pytest.raises(IllegalAction, match="from 0 to 29, not 30"):
        apply(state, Claim(1, 30))
    state, events = apply(state, Claim(1, 2))  # two missed: muggins
    shown, muggins = events
    assert isinstance(shown, Shown) and shown.show.total == 4 and shown.scored == 2
    assert isinstance(muggins, Pegged) and muggins.seat == 0
    assert muggins.items[0].describe() == "muggins for 2"
    assert state.scores == (5, 5)
    state, events = apply(state, Claim(0, 12))  # too many: the true 9 is scored
    assert state.scores == (14, 5) and len(events) == 1
    assert view(state, 1).crib == state.crib  # the crib is turned up to be counted
    state, events = apply(state, Claim(0, 4))
    assert isinstance(events[-2], RoundEnded) and events[-2].scores == (18, 5)
    assert isinstance(events[-1], Dealt) and state.phase is Phase.DISCARD


def test_a_deal_shown_is_kept_for_the_rest_of_the_game_each_seat_knowing_its_own_throw() -> None:
    state, _ = new_game(Rules(first_dealer=0), 11)
    first = state
    state, _ = apply(state, Discard(1, state.hands[1][:2]))
    state, _ = apply(state, Discard(0, state.hands[0][:2]))
    while state.round == 1 and state.phase is Phase.PLAY:
        state, _ = apply(state, legal_actions(state)[0])
    assert state.round == 2 and len(state.past) == 1
    deal = state.past[0]
    assert deal.dealer == 0 and deal.starter == first.deck[12]  # (dealt 12, then cut)
    assert deal.kept == (first.dealt[0][2:], first.dealt[1][2:])
    assert deal.thrown == (first.dealt[0][:2], first.dealt[1][:2])
    assert sorted(deal.crib) == sorted(first.dealt[0][:2] + first.dealt[1][:2])
    assert len(deal.plays) == 8 and {c for _, c in deal.plays} == {*deal.kept[0], *deal.kept[1]}
    mine, theirs = view(state, 0).past[0], view(state, 1).past[0]
    assert mine.thrown == (first.dealt[0][:2], ()) and theirs.thrown == ((), first.dealt[1][:2])
    assert mine.kept == deal.kept and mine.crib == deal.crib and mine.plays == deal.plays
    assert view(state, 0).past == (mine,) and view(first, 0).past == ()
