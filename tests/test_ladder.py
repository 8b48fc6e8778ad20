"""The ladder of levels 1 to 10: how a level is named, and how the levels between easy and
normal slip as people do (more when the choice is close, more readily in the play, never
absurdly, never illegally)."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cribcli.players import LEVELS_HELP, Level, computer
from cribcli.players.ladder import SLIPS, SlippingPlayer, chances, lay_losses, pick
from cribcli.players.normal import NormalPlayer
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.engine import Phase, Rules, State, new_game, view
from cribcli.rules.errors import CribbageError
from cribcli.rules.stream import SeededStream
from cribcli.services.match import check_player


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split()))


# --- naming a level ------------------------------------------------------------------


def test_the_names_sit_on_the_ladder_easy_1_normal_9_hard_10() -> None:
    assert [level.number for level in Level] == list(range(1, 11))
    assert (Level.EASY.number, Level.NORMAL.number, Level.HARD.number) == (1, 9, 10)
    assert Level.parse("1") is Level.EASY and Level.parse("9") is Level.NORMAL
    assert Level.parse("10") is Level.HARD and Level.parse(" Hard ") is Level.HARD
    assert Level.parse("7") is Level.SEVEN and str(Level.SEVEN) == "7"
    assert LEVELS_HELP == "1 to 10, or easy (1), normal (9), hard (10)"
    assert (Level.SEVEN.label, Level.HARD.label) == ("level 7", "hard")


def test_a_level_is_read_as_it_is_shown() -> None:
    assert Level.parse("level 7") is Level.SEVEN and Level.parse("Level 10") is Level.HARD
    assert Level.parse(Level.FOUR.label) is Level.FOUR and Level.parse("level hard") is Level.HARD


@pytest.mark.parametrize(
    "given", ["0", "11", "07x", "\uff11", "", "medium", "100", "-3", "2.5", "7" + " " * 20, 7, None]
)
def test_anything_else_is_no_level(given: object) -> None:
    assert Level.parse(given) is None


def test_a_table_names_its_computers_level() -> None:
    from cribcli.club.lobby import TableSetup

    assert "1 computer at level 5" in TableSetup(computers=1, level=Level.FIVE).describe()
    assert "2 hard computers" in TableSetup(players=3, computers=2, level=Level.HARD).describe()


def test_a_match_takes_a_number_and_gives_back_the_name() -> None:
    assert check_player("10") == "hard" and check_player("4") == "4"
    assert check_player("9:spread") == "normal:spread"
    with pytest.raises(CribbageError, match="1 to 10"):
        check_player("12")


def test_the_computer_of_each_number_is_the_level_s_player() -> None:
    assert isinstance(computer("9", 1, 0), NormalPlayer)
    for level in list(Level)[1:8]:
        player = computer(str(level.number), 1, 0)
        assert isinstance(player, SlippingPlayer) and player.slips == SLIPS[level]
    with pytest.raises(CribbageError, match="no level `11`"):
        computer("11", 1, 0)


# --- how they slip -------------------------------------------------------------------


def test_a_slip_is_likelier_the_closer_the_choice() -> None:
    close = dict(chances([("best", 0.0), ("second", 0.2)], 1.0, 5.0))
    clear = dict(chances([("best", 0.0), ("second", 2.0)], 1.0, 5.0))
    assert close["second"] / close["best"] == pytest.approx(math.exp(-0.2))
    assert clear["second"] / clear["best"] == pytest.approx(math.exp(-2.0))
    assert close["second"] > 0.45 > 0.12 > clear["second"]


def test_nothing_beyond_the_limit_is_ever_chosen() -> None:
    losses = [("best", 0.0), ("slip", 1.5), ("absurd", 6.0)]
    assert [choice for choice, _ in chances(losses, 100.0, 5.0)] == ["best", "slip"]
    drawn = {pick(losses, 100.0, 5.0, SeededStream(n, "t")) for n in range(200)}
    assert drawn == {"best", "slip"}


@given(
    st.lists(st.floats(0.0, 30.0), min_size=1, max_size=15),
    st.floats(0.05, 50.0),
    st.floats(0.0, 20.0),
    st.integers(0, 10**6),
)
def test_a_pick_is_within_the_limit_and_the_chances_add_to_one(
    slips: list[float], temperature: float, absurd: float, seed: int
) -> None:
    losses = [(0, 0.0), *enumerate(slips, start=1)]
    fair = chances(losses, temperature, absurd)
    assert math.isclose(sum(chance for _, chance in fair), 1.0)
    assert fair[0][0] == 0 and all(chance >= 0 for _, chance in fair)
    chosen = pick(losses, temperature, absurd, SeededStream(seed, "pick"))
    assert dict(losses)[chosen] <= absurd


def test_each_level_up_slips_less_far_and_the_play_runs_hotter_than_the_throw() -> None:
    levels = [SLIPS[level] for level in list(Level)[1:8]]
    assert set(SLIPS) == set(list(Level)[1:8])
    for lower, higher in itertools.pairwise(levels):
        assert higher.throw < lower.throw and higher.play < lower.play
        assert higher.absurd < lower.absurd
    assert all(slips.play > slips.throw for slips in levels)


def playing(hand: str, pile: str, to_play: int = 0) -> State:
    state, _ = new_game(Rules(first_dealer=1), 1)
    laid = cards(pile)
    return replace(
        state,
        phase=Phase.PLAY,
        hands=(cards(hand), ()),
        pile=laid,
        plays=tuple((1, card) for card in laid),
        to_play=to_play,
        passed=frozenset({1}),
        starter=cards("9D")[0],
        discards=(cards("QC JC"), cards("5D 6D")),
    )


def test_a_lay_s_loss_worked_by_hand() -> None:
    # The other side has said go on 20 (a ten and a ten). The third ten is three of a
    # kind for 6, and the ace then makes 31 for 2: 8. The ace first makes 21, nothing,
    # and the ten then 31 for 2: 2. Both lay two cards: the ace loses 6.
    state = playing("AS 10S", "10H 10C")
    assert lay_losses(view(state, 0)) == {10: 0.0, 1: 6.0}
    # With a king instead, either order makes 31 for 2: both are best, neither a slip.
    assert lay_losses(view(playing("AS KH", "10H 10C"), 0)) == {1: 0.0, 13: 0.0}
    # On a 2, the other out: 4-9-9-K. The 4 first, then a 9 makes 15 (2), the other 9 a
    # pair (2) and 24... a king would pass 31: 4 points in three cards. A 9 first: 11,
    # then the 4 makes 15 (2), the other 9 gives 24, no pair (4 between): 2 points. The
    # king first: 12, 9 makes 21, 9 a pair (2), 30: 2. The best is the 4.
    losses = lay_losses(view(playing("4S 9C 9D KH", "2H"), 0))
    assert losses[4] == 0.0 and losses[9] == pytest.approx(2.0) and losses[13] > 0


def test_a_slipping_player_lays_only_what_fits_and_replays_alike() -> None:
    # On 25 only the ace, the two or the five fit: every rung lays one of them, and the
    # same game's seed gives the same card every time.
    state = playing("AS 2C 5D KH", "10H 10C 5S")
    seen = view(replace(state, passed=frozenset()), 0)
    for level in list(Level)[1:8]:
        laid = {SlippingPlayer(seed, 0, level).play(seen) for seed in range(30)}
        assert laid <= set(cards("AS 2C 5D"))
        again = SlippingPlayer(7, 0, level).play(seen)
        assert again == SlippingPlayer(7, 0, level).play(seen)


def test_the_top_rung_throws_nearly_as_normal_and_the_bottom_far_wider() -> None:
    state, _ = new_game(Rules(first_dealer=0), 1)
    dealt = cards("5H 5S JD 4C 9S KH")
    seen = view(replace(state, hands=(dealt, state.hands[1])), 0)
    best = set(NormalPlayer(1, 0).discard(seen))
    top = [set(SlippingPlayer(n, 0, Level.EIGHT).discard(seen)) for n in range(40)]
    bottom = [set(SlippingPlayer(n, 0, Level.TWO).discard(seen)) for n in range(40)]
    assert top.count(best) > 2 * bottom.count(best)
    assert len({frozenset(t) for t in bottom}) > len({frozenset(t) for t in top})
