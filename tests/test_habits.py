"""Hard's reading of the player across the table: which style its shown deals fit, from
what hard may see (the hands and crib shown, the cards laid, its own throw)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cribcli.players import Level, Player, computer
from cribcli.players.careful import unseen_after
from cribcli.players.habits import (
    FIRST,
    PRIOR,
    Habits,
    Style,
    _mixture,
    deal_evidence,
    greedy_lays,
    laid_as,
    likely_keeps,
)
from cribcli.players.hard import HardPlayer
from cribcli.players.reading import KEPT, LAID, Reading, Sample
from cribcli.players.styles import CribMindedPlayer, GreedyPlayer
from cribcli.rules.analysis import analyse
from cribcli.rules.cards import Card, deck, parse_cards, shuffled_deck
from cribcli.rules.engine import (
    Discard,
    Phase,
    Play,
    Rules,
    ShownDeal,
    State,
    apply,
    new_game,
    view,
)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split()))


def ranks(hand: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(sorted(card.rank for card in hand))


def test_the_greedy_lay_worked_by_hand() -> None:
    # On a 7: the 8 makes 15 and the 7 a pair, 2 each; the higher of them is the 8.
    assert greedy_lays((1, 7, 8, 13), (7,), 7) == {8}
    # Nothing scores on 30 but the ace (31 for 2); on 2-9-9, 20, of three that score
    # nothing, the ten and the king (alike in value) beat the ace; on 3-9-8 the ten makes
    # a run of three (8-9-10) and is alone.
    assert greedy_lays((1, 10, 13), (10, 10, 10), 30) == {1}
    assert greedy_lays((1, 10, 13), (2, 9, 9), 20) == {10, 13}
    assert greedy_lays((1, 10, 13), (3, 9, 8), 20) == {10}


@pytest.mark.parametrize(
    ("style", "player"),
    [(Style.GREEDY, GreedyPlayer), (Style.CRIB_MINDED, CribMindedPlayer), (Style.CAREFUL, None)],
)
def test_each_style_s_keeps_name_what_its_player_keeps(style: Style, player: type | None) -> None:
    named = 0
    for n in range(24):
        six = tuple(shuffled_deck(n, "habits")[:6])
        dealer = n % 2 == 0
        if player is None:
            kept = analyse(six, dealer=dealer)[0].keep
        else:
            state, _ = new_game(Rules(first_dealer=0 if dealer else 1), 1)
            seen = view(replace(state, hands=(six, state.hands[1])), 0)
            thrown = player(1, 0).discard(seen)
            kept = tuple(card for card in six if card not in thrown)
        named += ranks(kept) in likely_keeps(ranks(six), dealer, style)
    assert named >= 20  # (by ranks alone: suits, a flush or his nobs, move a few)


def one_deal(seed: int, other: Player, dealer: int) -> ShownDeal:
    """A deal played to its show between the normal computer (seat 0) and ``other``
    (seat 1), as seat 0 saw it."""
    state, _ = new_game(Rules(first_dealer=dealer), seed)
    players = [computer("normal", seed, 0), other]
    while state.round == 1:
        assert state.phase in (Phase.DISCARD, Phase.PLAY)
        state = act(state, players)
    return view(state, 0).past[0]


def act(state: State, players: list[Player]) -> State:
    if state.phase is Phase.DISCARD:
        seat = next(s for s in (1, 0) if state.discards[s] is None)
        thrown = players[seat].discard(view(state, seat))
        return apply(state, Discard(seat, thrown))[0]
    to_play = state.to_play
    assert to_play is not None
    return apply(state, Play(to_play, players[to_play].play(view(state, to_play))))[0]


@pytest.mark.parametrize(
    ("style", "other"),
    [
        (Style.CAREFUL, lambda n: computer("normal", n, 1)),
        (Style.GREEDY, lambda n: GreedyPlayer(n, 1)),
        (Style.CRIB_MINDED, lambda n: CribMindedPlayer(n, 1)),
        (Style.RANDOM, lambda n: computer("easy", n, 1)),
    ],
)
def test_a_few_shown_deals_tell_the_style(style: Style, other: object) -> None:
    make = other  # (a player of the style, for each deal's seed)
    assert callable(make)
    deals = tuple(one_deal(n, make(n), n % 2) for n in range(6))
    for deal in deals:
        assert deal.thrown[1] == ()  # hard never sees which cards the other threw ...
        assert len(deal.crib) == 4  # ... only the crib, beside its own two
    mixture = dict(_mixture(deals, 1))
    assert mixture[style] > 0.9, mixture
    assert _mixture((), 1) == FIRST == ((Style.CAREFUL, 1.0),)  # before a show: as ever
    assert dict(_mixture(deals[:1], 1)) != pytest.approx(PRIOR)  # one deal moves it


@pytest.mark.parametrize(("level", "least"), [("7", 0.8), ("8", 0.9)])
def test_a_player_who_strays_now_and_then_reads_as_loose(level: str, least: float) -> None:
    """Levels 7 and 8 keep and lay as normal does but for one decision in three or four:
    over a game's deals they read as loose (not as random, whose reading says nothing of
    their hands), and hard weighs a hand by that: careful's weights for most of it,
    random's for the rest."""
    deals = tuple(one_deal(n, computer(level, n, 1), n % 2) for n in range(12))
    mixture = dict(_mixture(deals, 1))
    assert mixture[Style.LOOSE] > least, mixture
    noticed = dict(Habits(tuple(mixture.items())).noticed)
    assert Style.LOOSE not in noticed and set(noticed) <= {Style.CAREFUL, Style.RANDOM}
    assert noticed[Style.CAREFUL] > 0.5


def test_a_careful_player_s_reading_is_not_loosened_by_the_loose_style() -> None:
    """Against normal, from the first deal shown, hard weighs hands by careful's weights
    alone: the chance that it is loose is too small to bring random's into the weighing."""
    deals = tuple(one_deal(n, computer("normal", n, 1), n % 2) for n in range(3))
    for shown in range(1, 4):
        habits = Habits(_mixture(deals[:shown], 1))
        assert [style for style, _ in habits.noticed] == [Style.CAREFUL], habits


def test_a_keep_counts_for_the_styles_that_would_have_kept_it() -> None:
    # Seat 1 (pone) kept 5-5-J-K and threw A-2 (the crib less seat 0's own 6-7); the
    # play is left out, so that the keep alone speaks.
    deal = ShownDeal(
        dealer=0,
        starter=cards("9D")[0],
        kept=(cards("3C 4C 8H 9H"), cards("5H 5S JD KC")),
        crib=cards("6C 7C AH 2D"),
        plays=(),
        thrown=(cards("6C 7C"), ()),
    )
    evidence = deal_evidence(deal, 1)
    six = (1, 2, 5, 5, 11, 13)
    for style in (Style.CAREFUL, Style.GREEDY, Style.CRIB_MINDED):
        kept_so = (5, 5, 11, 13) in likely_keeps(six, False, style)
        assert (evidence[style] > evidence[Style.RANDOM]) == kept_so, style


def test_hard_weighs_the_hands_it_deals_by_the_style_it_has_read() -> None:
    # The other led a king. A careful player leads a card under 5 when it has one (a king
    # led says it has none); a greedy one leads its highest card, so that a king led says
    # nothing of its low cards.
    reading = Reading(laid=(13,), plays=((True, 13),), starter=9, dealer=False)
    low = Sample(held=(2, 6, 8), thrown=(10, 12))
    hidden = unseen_after((2, 6, 8, 13, 10, 12, 9))
    assert not laid_as(Style.CAREFUL, reading.plays, low.held, hidden)
    assert laid_as(Style.GREEDY, reading.plays, low.held, hidden)
    six = (2, 6, 8, 10, 12, 13)
    kept = (2, 6, 8, 13)
    for style, laid in ((Style.CAREFUL, 1), (Style.GREEDY, LAID)):
        read = reading._replace(habits=Habits(((style, 1.0),)))
        keep = KEPT if kept in likely_keeps(six, False, style) else 1
        assert read.weights(low) == (keep * laid,)
    assert reading.habits == Habits(FIRST)  # before a show: careful


def test_the_reading_needs_nothing_hidden() -> None:
    # The same view, whatever the other's hidden throw was in the state: the habits are
    # read from the view alone.
    state, _ = new_game(Rules(first_dealer=0), 3)
    deal = one_deal(3, GreedyPlayer(3, 1), 0)
    unseen = [card for card in deck() if card not in deal.crib]
    hidden = replace(deal, thrown=(deal.thrown[0], tuple(unseen[:2])))
    a = view(replace(state, past=(hidden,)), 0)
    b = view(replace(state, past=(replace(deal, thrown=(deal.thrown[0], ())),)), 0)
    assert a == b and Habits.of(a) == Habits.of(b)


def test_hard_reads_the_player_from_the_games_before_this_one() -> None:
    """In a match's next game (or a table's, or another game at the terminal) hard does
    not start its reading afresh: the deals the game carries (its log's ``earlier``)
    tell the style before the game's own first show, and a resumed game reads the same."""
    from cribcli.record.log import GameInfo, Seat, begin, carried, dumps
    from cribcli.record.reader import loads
    from cribcli.record.session import run_game

    rules = Rules(target=61, first_dealer=0)
    seats = (Seat("Hard", "computer", Level.HARD), Seat("Greedy"))
    first = GameInfo(rules, seats, 8)
    state, _ = run_game(first, [computer("normal", 8, 0), GreedyPlayer(8, 1)])
    fresh, _ = begin(first)
    assert Habits.of(view(fresh, 0)) == Habits(FIRST)  # a first game: careful, as ever
    second = replace(first, seed=9, earlier=carried(state.past))
    for info in (second, loads(dumps(second, [])).info):
        carrying, _ = begin(info)
        habits = Habits.of(view(carrying, 0))
        assert habits.chance(Style.GREEDY) > 0.9, habits


@pytest.mark.parametrize(
    ("dealer", "dealt", "read_careful", "read_crib_minded"),
    [
        # Its own crib: a crib-minded pone throws it the two cards that help it least (the
        # careful pone's throws help it a little more), so hard feeds it the 5 and the
        # king, keeping 9-10 and the ace-3 for the fifteens, rather than throw ace-3.
        (0, "10S 5C 9C AS KS 3H", "AS 3H", "5C KS"),
        # The other's crib: a crib-minded dealer throws it its best two (its crib is worth
        # nearly two points more than a careful dealer's), so a jack there is a jack
        # beside its fives and nobs for it more often: hard keeps the jack, throws the 3.
        (1, "9H 7C JH 3D AC 8S", "JH AC", "3D AC"),
    ],
)
def test_hard_values_the_crib_as_the_player_it_has_read_throws(
    dealer: int, dealt: str, read_careful: str, read_crib_minded: str
) -> None:
    deals = tuple(one_deal(n, CribMindedPlayer(n, 1), n % 2) for n in range(6))
    state, _ = new_game(Rules(first_dealer=dealer), 7)
    hand = cards(dealt)
    reading = view(replace(state, hands=(hand, state.hands[1]), past=deals), 0)
    assert Habits.of(reading).chance(Style.CRIB_MINDED) > 0.99
    assert set(HardPlayer(1, 0).discard(reading)) == set(cards(read_crib_minded))
    afresh = replace(reading, past=())  # no deal shown: careful, as ever
    assert set(HardPlayer(1, 0).discard(afresh)) == set(cards(read_careful))
