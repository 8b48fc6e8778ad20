"""The club's ratings: people against each other and against the computers' fixed anchors,
at two, three and four players, and worked out again from the logs alone.

Games are the fixture logs of tests/logs with other people in the seats: the ratings read
only who sat where, the result and when the game started."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from cribcli.club import ratings
from cribcli.club.ratings import (
    ANCHOR_SIGMA,
    MU,
    SIGMA,
    Standing,
    anchors,
    fit_levels,
    ladder,
    places,
    rate_game,
    rating_of,
    rebuild,
)
from cribcli.players import Level, measured
from cribcli.record.log import GameLog, Seat
from cribcli.record.reader import loads
from tests.test_tables import tool

LOGS = Path(__file__).parent / "logs"


def fixture(name: str) -> GameLog:
    return loads((LOGS / name).read_text(encoding="utf-8"))


TWO = fixture("2-players.toml")  # seat 1 won, 121 to 118
THREE = fixture("3-players.toml")  # seat 1 won; seat 2 had 119, seat 0 89
FOUR = fixture("4-players.toml")  # seats 1 and 3 won, 128 to 104


def seated(log: GameLog, *seats: Seat | str, started: str | None = None) -> GameLog:
    """The game with these in its seats: a person's name, or a computer."""
    placed = tuple(Seat(seat) if isinstance(seat, str) else seat for seat in seats)
    return replace(log, info=replace(log.info, seats=placed, started=started))


def computer(level: str) -> Seat:
    return Seat(level.capitalize(), "computer", Level(level))


def day(n: int) -> str:
    return f"2026-03-{n:02}T20:00:00+01:00"


# --- the scale, worked by hand --------------------------------------------------------


def test_the_normal_computer_reads_1500_and_a_newcomer_less() -> None:
    # c = sqrt(2 (25/3)^2 + 2 * 1^2) = 11.8697; 400 / (ln 10 * c) = 14.635 points a mu
    assert abs(ratings.SCALE - 14.635) < 0.001
    assert rating_of(MU, ANCHOR_SIGMA) == 1500
    # a newcomer: 25 - 3 * 25/3 = 0, against the normal computer's 25 - 3 = 22
    assert rating_of(MU, SIGMA) == round(1500 - 22 * 14.635) == 1178
    assert Standing("Ann").rating == 1178 and Standing("Ann").uncertainty == 122


def test_400_points_are_odds_of_ten_to_one() -> None:
    gap = 400 / ratings.SCALE
    assert ratings.chance(MU + gap, MU) == pytest.approx(10 / 11)
    assert ratings.chance(MU, MU) == 0.5


def test_the_fit_of_one_pair_gives_its_record_with_half_a_game_more_each() -> None:
    # 3 of 4 won: counted as 3.5 of 5, a share of 0.7 = 1 / (1 + exp(-gap / c))
    fitted = fit_levels({(Level.HARD, Level.NORMAL): (4, 3)})
    assert fitted[Level.NORMAL] == MU
    assert fitted[Level.HARD] - MU == pytest.approx(ratings.SETTLED_SPREAD * math.log(0.7 / 0.3))
    even = fit_levels({(Level.HARD, Level.NORMAL): (50, 25)})
    assert even[Level.HARD] == pytest.approx(MU)
    swept = fit_levels({(Level.NORMAL, Level.EASY): (10, 10)})
    assert swept[Level.EASY] == pytest.approx(MU - ratings.SETTLED_SPREAD * math.log(10.5 / 0.5))


# --- the shipped anchors --------------------------------------------------------------


def test_the_shipped_anchors_rise_with_the_level_from_1_to_10() -> None:
    levels = anchors()
    assert list(levels) == list(Level)  # every level has one, in the order of their marks
    marks = [levels[level].mu for level in Level]
    assert marks == sorted(marks) and len(set(marks)) == len(marks)
    assert levels[Level.NORMAL].mu == MU and levels[Level.NORMAL].rating == 1500
    assert {anchor.sigma for anchor in levels.values()} == {ANCHOR_SIGMA}


def test_each_level_beats_the_one_below_it_in_55_to_65_percent_of_its_games() -> None:
    # The ladder's calibration, as shipped: each step's share of 1,000 duplicate games.
    table = measured.read(ratings.ANCHORS)
    ladder = list(Level)
    for weaker, stronger in itertools.pairwise(ladder):
        match = table["matches"][f"{stronger} v {weaker}"]
        assert match["games"] >= 1000 and 0.55 <= match["win rate"] <= 0.65


def test_the_anchors_file_is_its_writer_s_and_its_levels_are_fitted_to_its_matches() -> None:
    shipped = (measured.FOLDER / ratings.ANCHORS).read_text(encoding="utf-8")
    table = json.loads(shipped)
    assert measured.dumps(table) == shipped
    assert {"about", "made_by"} <= set(table)
    games = int(table["made_by"].split("--games ")[1].split()[0])
    matches = {}
    for key, match in table["matches"].items():
        first, second = (Level(name) for name in key.split(" v "))
        assert match["games"] == games and sum(match["blocks"]) == match["wins"]
        assert match["win rate"] == round(match["wins"] / games, 4)
        matches[first, second] = (match["games"], match["wins"])
    assert set(matches) == set(tool("anchors").PAIRS)
    for level, mu in fit_levels(matches).items():
        assert table["levels"][level] == {"mu": round(mu, 2), "rating": rating_of(round(mu, 2), 1)}


@pytest.mark.slow
def test_the_anchors_matches_are_what_the_tool_plays() -> None:
    made = tool("anchors")
    table = measured.read(ratings.ANCHORS)
    seed = table["made_by"].split("--seed ")[1]
    for pair in ((Level.FIVE, Level.FOUR), (Level.NORMAL, Level.EASY), (Level.HARD, Level.NORMAL)):
        again = made.play(pair, made.BLOCK, seed, jobs=1)
        assert made.blocks(again) == table["matches"][made.match_key(pair)]["blocks"][:1]


# --- people against the computers -----------------------------------------------------


def test_beating_the_hard_computer_raises_a_person_above_one_who_loses_to_it() -> None:
    won = seated(TWO, computer("hard"), "Ann", started=day(1))
    lost = seated(TWO, "Bob", computer("hard"), started=day(1))
    after = rebuild([won, lost])
    ann, bob = after["ann"], after["bob"]
    assert ann.mu > MU > bob.mu
    assert ann.rating > Standing("x").rating > bob.rating
    assert ann.sigma < SIGMA and bob.sigma < SIGMA  # each game tells something
    assert set(after) == {"ann", "bob"}  # the computer is not rated


def test_beating_the_hard_computer_is_worth_more_than_beating_easy() -> None:
    hard = rate_game(seated(TWO, computer("hard"), "Ann"), {})["ann"]
    easy = rate_game(seated(TWO, computer("easy"), "Ann"), {})["ann"]
    assert hard.mu > easy.mu > MU
    assert easy.mu - MU < (hard.mu - MU) / 10  # easy plays at random: beating it says little


def test_a_loss_lowers_a_person_s_rating() -> None:
    before = rate_game(seated(TWO, computer("normal"), "Ann", started=day(1)), {})
    after = rate_game(seated(TWO, "Ann", computer("normal"), started=day(2)), before)["ann"]
    assert after.mu < before["ann"].mu and after.rating < before["ann"].rating
    assert after.games == 2 and after.last_seen == day(2)


def test_the_computers_never_move() -> None:
    shipped = {level: anchor.mu for level, anchor in anchors().items()}
    games = [seated(TWO, computer("hard"), f"P{n}", started=day(n)) for n in range(1, 9)]
    after = rebuild(games)
    assert set(after) == {f"p{n}" for n in range(1, 9)}
    assert {level: anchor.mu for level, anchor in anchors().items()} == shipped
    # eight wins in a row against hard: each winner starts afresh, so all rise alike
    assert len({round(standing.mu, 9) for standing in after.values()}) == 1


@pytest.mark.parametrize("log", [TWO, THREE, FOUR], ids=["two", "three", "four"])
def test_a_game_between_computers_changes_nothing(log: GameLog) -> None:
    assert all(seat.player == "computer" for seat in log.info.seats)
    known = {"ann": Standing("Ann", mu=30.0, sigma=2.0, games=12)}
    assert rate_game(log, known) == {}
    assert rebuild([log, replace(log, info=replace(log.info, started=day(1)))]) == {}


def test_games_with_an_engine_or_no_result_are_not_rated() -> None:
    engine = Seat("Bot", "engine", command="./bot")
    assert rate_game(seated(TWO, engine, "Ann"), {}) == {}
    assert rate_game(replace(seated(TWO, computer("hard"), "Ann"), result=None), {}) == {}
    assert rate_game(seated(TWO, "Ann", "ANN"), {}) == {}  # one person in two seats


# --- people against people ------------------------------------------------------------


def test_partners_at_four_move_together() -> None:
    after = rate_game(seated(FOUR, "Ann", "Bob", "Cat", "Dan"), {})
    assert after["bob"].mu == after["dan"].mu > MU > after["ann"].mu == after["cat"].mu
    assert all(
        standing.history[-1].place == (1 if standing.mu > MU else 2) for standing in after.values()
    )
    # a person whose partner is the computer: the pair won, the person with it
    with_hard = rate_game(seated(FOUR, "Ann", "Bob", computer("normal"), computer("hard")), {})
    assert with_hard["bob"].mu > MU > with_hard["ann"].mu


def test_at_three_the_order_by_score_matters() -> None:
    after = rate_game(seated(THREE, "Ann", "Bob", "Cat"), {})
    assert after["bob"].mu > after["cat"].mu > after["ann"].mu  # 121, 119, 89
    assert [after[name].history[-1].place for name in ("ann", "bob", "cat")] == [3, 1, 2]
    assert THREE.result is not None
    swapped = replace(THREE, result=replace(THREE.result, scores=(119, 121, 89)))
    again = rate_game(seated(swapped, "Ann", "Bob", "Cat"), {})
    assert again["ann"].mu == after["cat"].mu and again["cat"].mu == after["ann"].mu


def test_places_share_equal_scores_and_put_a_forfeit_last() -> None:
    assert THREE.result is not None
    rules, result = THREE.info.rules, THREE.result
    assert places(result, rules) == (3, 1, 2)
    assert places(replace(result, scores=(100, 121, 100)), rules) == (2, 1, 2)
    forfeit = replace(result, winner=0, scores=(80, 40, 90), forfeit=2)
    assert places(forfeit, rules) == (1, 2, 3)
    assert TWO.result is not None
    assert places(TWO.result, TWO.info.rules) == (2, 1)


def test_an_upset_moves_more_than_the_expected() -> None:
    strong = Standing("Ann", mu=35.0, sigma=3.0, games=40)
    weak = Standing("Bob", mu=20.0, sigma=3.0, games=40)
    known = {"ann": strong, "bob": weak}
    expected = rate_game(seated(TWO, "Bob", "Ann"), known)
    upset = rate_game(seated(TWO, "Ann", "Bob"), known)
    assert upset["bob"].mu - weak.mu > expected["ann"].mu - strong.mu > 0


# --- the logs are the truth -----------------------------------------------------------


def club() -> list[GameLog]:
    """A month of games at two, three and four, people and computers."""
    return [
        seated(TWO, computer("normal"), "Ann", started=day(1)),
        seated(TWO, "Bob", "Ann", started=day(2)),
        seated(THREE, "Cat", "Bob", computer("hard"), started=day(3)),
        seated(FOUR, "Ann", "Bob", "Cat", computer("easy"), started=day(4)),
        seated(TWO, "Cat", computer("hard"), started=day(4)),  # at the same moment
        seated(TWO, "ann", "Cat", started="2026-03-05T21:30:00+03:00"),  # 18:30 UTC
        seated(TWO, "Dan", "Cat", started=day(5)),  # 19:00 UTC
        seated(TWO, computer("easy"), "Dan"),  # its log does not say when: first
    ]


def in_order(games: list[GameLog]) -> dict[str, Standing]:
    """The games rated one after the other, as given."""
    rated: dict[str, Standing] = {}
    for game in games:
        rated.update(rate_game(game, rated))
    return rated


def test_rebuild_gives_the_same_ratings_whatever_order_the_logs_come_in() -> None:
    games = club()
    first = rebuild(games)
    assert set(first) == {"ann", "bob", "cat", "dan"}
    for order in (games[::-1], games[3:] + games[:3], sorted(games, key=repr)):
        assert rebuild(order) == first


def test_rebuild_rates_the_games_in_the_order_they_started() -> None:
    games = [game for n, game in enumerate(club()) if n != 4]  # (no two at one moment)
    undated, late, early = games[-1], games[-2], games[-3]
    started = [undated, *games[:-3], early, late]
    assert rebuild(games[::-1]) == in_order(started)
    # 21:30+03:00 is before 20:00+01:00, though its text sorts after: the order matters
    assert in_order([undated, *games[:-3], late, early]) != in_order(started)


def test_a_game_filed_for_each_person_counts_once() -> None:
    game = seated(TWO, "Ann", "Bob", started=day(1))
    assert rebuild([game, game, loads_again(game)]) == rebuild([game])
    assert rebuild([game])["bob"].games == 1


def loads_again(log: GameLog) -> GameLog:
    """An equal log read separately (as from another person's folder)."""
    return replace(log, info=replace(log.info))


def test_a_person_s_history_and_names_whatever_their_case() -> None:
    games = [
        seated(TWO, computer("normal"), "Ann", started=day(1)),
        seated(TWO, "ANN", computer("normal"), started=day(2)),
        seated(THREE, "Bob", "ann", "Cat", started=day(3)),
    ]
    ann = rebuild(games)["ann"]
    assert ann.name == "ann" and ann.games == 3 and ann.last_seen == day(3)
    assert [step.started for step in ann.history] == [day(1), day(2), day(3)]
    assert [step.place for step in ann.history] == [1, 2, 1]
    assert [step.sides for step in ann.history] == [2, 2, 3]
    assert ann.history[-1].rating == ann.rating and ann.history[-1].mu == ann.mu
    assert ann.history[1].rating < ann.history[0].rating < ann.history[2].rating


# --- the ladder -----------------------------------------------------------------------


def test_the_ladder_lists_people_by_rating_with_their_games_and_last_seen() -> None:
    after = rebuild(club())
    rungs = ladder(after)
    assert [rung.rating for rung in rungs] == sorted(
        (s.rating for s in after.values()), reverse=True
    )
    assert [rung.place for rung in rungs] == [1, 2, 3, 4]
    top = after[rungs[0].name.lower()]
    assert (rungs[0].uncertainty, rungs[0].games, rungs[0].last_seen) == (
        top.uncertainty,
        top.games,
        top.last_seen,
    )


def test_equal_ratings_share_a_place_more_games_first() -> None:
    known = {
        "ann": Standing("Ann", 30.0, 2.0, games=3),
        "bob": Standing("Bob", 30.0, 2.0, games=9),
        "cat": Standing("Cat", 20.0, 2.0, games=1),
    }
    rungs = ladder(known)
    assert [(rung.place, rung.name) for rung in rungs] == [(1, "Bob"), (1, "Ann"), (3, "Cat")]
    assert ladder({}) == []
