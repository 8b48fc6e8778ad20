"""Game logs: random games replay to the same events, and broken logs are named precisely."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from cribcli.players.easy import EasyPlayer
from cribcli.record.log import GameInfo, LogError, Seat
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.session import run_game
from cribcli.rules.cards import deck
from cribcli.rules.engine import Phase, Play, Rules, State, apply, new_game
from cribcli.rules.events import Dealt, Event, GameOver, Played, Shown
from cribcli.rules.scoring import peg_points, show_total

LOGS = Path(__file__).parent / "logs"


def game(players: int, seed: int, target: int = 121) -> GameInfo:
    rules = Rules(players=players, target=target, cut_for_deal=players > 2)
    return GameInfo(rules, tuple(Seat(f"P{i}") for i in range(players)), seed)


def play(info: GameInfo, saves: list[str] | None = None) -> tuple[State, list[Event]]:
    players = [EasyPlayer(info.seed, seat) for seat in range(info.rules.players)]
    return run_game(info, players, save=saves.append if saves is not None else None)


@pytest.mark.parametrize(("players", "seed", "target"), [(2, 11, 121), (3, 12, 61), (4, 13, 61)])
def test_games(players: int, seed: int, target: int) -> None:
    a_game_keeps_the_rules(players, seed, target)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(min_value=0, max_value=10**9),
    target=st.sampled_from([121, 61]),
)
def test_random_games(players: int, seed: int, target: int) -> None:
    a_game_keeps_the_rules(players, seed, target)


def a_game_keeps_the_rules(players: int, seed: int, target: int) -> None:
    """A game between computers: one winner at the target, no card lost or duplicated,
    every point what the rules give afresh, and its log replays to the same game."""
    info = game(players, seed, target)
    saves: list[str] = []
    state, events = play(info, saves)
    rules = info.rules
    # exactly one winner, at the target (points beyond it are not pegged); nobody else
    # reached it, and no score ever went past it
    over = [e for e in events if isinstance(e, GameOver)]
    assert len(over) == 1 and events[-1] is over[0]
    assert state.phase is Phase.OVER and state.winner == over[0].winner
    assert state.scores[state.winner] == target
    assert all(s <= target for e in events for s in getattr(e, "scores", ()))
    assert all(s < target for side, s in enumerate(state.scores) if side != state.winner)
    # no card lost or duplicated: each deal is 52 distinct cards, hands drawn from it
    for event in events:
        if isinstance(event, Dealt):
            dealt = [card for hand in event.hands for card in hand]
            assert len(dealt) == len(set(dealt)) == rules.dealt_size * players
    # every point is what the scoring core gives afresh
    pile: list = []  # type: ignore[type-arg]
    for event in events:
        if isinstance(event, Played):
            pile = pile if sum(c.value for c in pile) + event.card.value <= 31 else []
            pile.append(event.card)
            assert event.items == peg_points(pile)
            if event.count == 31:
                pile = []
        elif isinstance(event, Shown):
            show = event.show
            assert show.total == show_total(show.hand, show.starter, crib=show.is_crib)
        elif isinstance(event, Dealt):
            pile = []
    # the log written as the game went replays to the same events, at every save
    replayed = replay(loads(saves[-1]))
    assert replayed.finished and replayed.events == events
    middle = replay(loads(saves[len(saves) // 2]))
    assert middle.events == events[: len(middle.events)]


def test_card_conservation_in_every_state() -> None:
    from cribcli.record.session import next_action
    from cribcli.rules.engine import apply, new_game

    for players in (2, 3, 4):
        info = game(players, 99)
        seats = [EasyPlayer(99, seat) for seat in range(players)]
        state, _ = new_game(info.rules, 99)
        while state.phase is not Phase.OVER:
            held = [card for hand in state.hands for card in hand]
            laid = [card for _, card in state.plays]
            crib = list(state.crib)
            dealt_count = info.rules.dealt_size * players
            rest = list(state.deck[dealt_count:])
            if len(crib) == 4 and players == 3:
                rest = rest[1:]  # the deck card went to the crib
            everything = held + laid + crib + rest
            assert Counter(everything) == Counter(deck()), state.round
            state, _ = apply(state, next_action(state, seats))


def test_fixture_logs_replay() -> None:
    for path in sorted(LOGS.glob("*.toml")):
        replayed = replay(loads(path.read_text(encoding="utf-8")))
        assert replayed.finished == (path.stem != "stops-mid-game"), path.name


TWO = (LOGS / "2-players.toml").read_text(encoding="utf-8")


def first_play(text: str) -> str:
    start = text.index("plays = [") + len("plays = [\n    ")
    return text[start : text.index(",", start)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: "this is not toml = = =", "not a game log: the TOML does not parse"),
        (lambda t: t.replace("format = 1", "format = 9"), "log format 9 is not one"),
        (lambda t: t.replace("format = 1\n", ""), "there is no `format`"),
        (
            lambda t: re.sub(r"\nseed = (\d+)", "\nseed = 999", t),
            "round 1: the log says the deal is",
        ),
        (lambda t: t.replace("target = 121", "target = 100"), "rules: a game is played to 121"),
        (lambda t: t.replace("players = 2", "players = 3"), "with three or four players"),
        (lambda t: t.replace('starter = "', 'starter = "X', 1), "`X"),
        (
            lambda t: t.replace("\ndealer = 1\n", "\ndealer = 0\n", 1),
            "round 1: the log says the dealer is 0",
        ),
        (
            lambda t: t.replace(first_play(t), '"0 1H"', 1),
            "round 1, play 1 (`0 1H`): `1H` is not a card",
        ),
        (
            lambda t: t.replace(first_play(t), '"1 KS"', 1),
            "round 1, play 1 (`1 KS`): it is not your turn",
        ),
        (lambda t: t.replace(first_play(t), '"0 QS"', 1), "QS is not in your hand"),
        (lambda t: t.replace("for 2", "for 3", 1), "the rules give"),
        (lambda t: t.replace('    "1 go",\n', "", 1), "the rules give `1 go`"),
        (
            lambda t: t.replace("[result]\nwinner = 1", "[result]\nwinner = 0"),
            "result: the log says the winner is 0",
        ),
        (lambda t: t[: t.index("[result]")], "the game is over but the log gives no result"),
        (lambda t: t.replace("rounds", "ruonds"), "`rounds` is missing"),
    ],
)
def test_corrupt_logs_are_named(change, message: str) -> None:  # type: ignore[no-untyped-def]
    text = change(TWO)
    assert text != TWO
    with pytest.raises(LogError) as caught:
        replay(loads(text))
    assert message in str(caught.value)


def edited(change) -> str:  # type: ignore[no-untyped-def]
    """The two-player log with its document changed."""
    doc = tomllib.loads(TWO)
    change(doc)
    return tomli_w.dumps(doc)


def test_a_play_past_31_is_named_with_round_and_action() -> None:
    # Round 1 of the two-player log: find a card laid when the same seat held a card that
    # would have passed 31, and record that card instead.
    replayed = replay(loads(TWO))
    state, _ = new_game(replayed.log.info.rules, replayed.log.info.seed)
    plays = 0
    for action in replayed.actions:
        if isinstance(action, Play):
            too_big = [c for c in state.hands[action.seat] if state.count + c.value > 31]
            if too_big:
                break
            plays += 1
        state, _ = apply(state, action)
    assert state.round == 1
    entries = tomllib.loads(TWO)["rounds"][0]["plays"]
    # the position of this play among the round's entries (gos included)
    position = [i for i, e in enumerate(entries) if not e.endswith("go")][plays]
    text = edited(
        lambda doc: doc["rounds"][0]["plays"].__setitem__(position, f"{action.seat} {too_big[0]}")
    )
    with pytest.raises(LogError) as caught:
        replay(loads(text))
    assert str(caught.value) == (
        f"round 1, play {position + 1} (`{action.seat} {too_big[0]}`): {too_big[0]} would take "
        f"the count to {state.count + too_big[0].value}: it can never pass 31"
    )


def test_a_card_twice_in_a_discard() -> None:
    def twice(doc: dict) -> None:  # type: ignore[type-arg]
        card = doc["rounds"][0]["discards"][0].split()[0]
        doc["rounds"][0]["discards"][0] = f"{card} {card}"

    with pytest.raises(LogError, match=r"^round 1, seat 0's discard: the same card twice$"):
        replay(loads(edited(twice)))


def test_a_card_that_is_not_dealt_in_a_discard() -> None:
    def stranger(doc: dict) -> None:  # type: ignore[type-arg]
        dealt = doc["rounds"][0]["dealt"][0].split()
        other = next(c for c in deck() if str(c) not in dealt)
        doc["rounds"][0]["discards"][0] = f"{dealt[0]} {other}"

    with pytest.raises(LogError, match=r"^round 1, seat 0's discard: .. is not in your hand$"):
        replay(loads(edited(stranger)))


def test_a_log_that_stops_mid_game_replays_as_far_as_it_goes() -> None:
    replayed = replay(loads((LOGS / "stops-mid-game.toml").read_text(encoding="utf-8")))
    assert not replayed.finished
    assert replayed.where_it_stops().startswith("round ")


def test_a_format_1_log_reads_with_its_winner_stopped_at_the_target() -> None:
    """Format 1 pegged past the target (the 4-player fixture ended 104-128); the rules
    stop at it, and so does reading an old log. A format 2 log saying 128 is wrong."""
    text = (LOGS / "4-players.toml").read_text(encoding="utf-8")
    assert "format = 1" in text and "    128," in text
    replayed = replay(loads(text))
    assert replayed.finished and replayed.log.result is not None
    assert replayed.log.result.scores == (104, 121)
    with pytest.raises(LogError, match="the final scores"):
        replay(loads(text.replace("format = 1", "format = 2")))


# --- the deals a game carries from the games before it ---------------------------------


def carrying_game() -> tuple[GameInfo, str]:
    """A game that carries the deals of the one before it, and its log."""
    from cribcli.record.log import carried, dumps

    first, _ = play(game(2, 21, 61))
    info = GameInfo(Rules(target=61), (Seat("P0"), Seat("P1")), 22, earlier=carried(first.past))
    _, events = play(info)
    return info, dumps(info, events)


def test_a_log_carries_the_deals_before_it_and_replays() -> None:
    """The deals of the games before a game are in its log (``[[earlier]]``, each card
    as the rounds write them), read back as they were, and the game's past begins with
    them, as the computer saw it when it played."""
    from cribcli.record.log import EARLIER_LIMIT, carried

    info, text = carrying_game()
    assert 3 <= len(info.earlier) <= EARLIER_LIMIT
    doc = tomllib.loads(text)
    first = info.earlier[0]
    assert doc["earlier"][0]["kept"] == [" ".join(map(str, kept)) for kept in first.kept]
    assert doc["earlier"][0]["plays"][0] == f"{first.plays[0][0]} {first.plays[0][1]}"
    log = loads(text)
    assert log.info.earlier == info.earlier
    replayed = replay(log)
    assert replayed.finished and replayed.state is not None
    assert replayed.state.past[: len(info.earlier)] == info.earlier
    past = replayed.state.past
    assert len(past) > len(info.earlier) and carried(past) == past[-EARLIER_LIMIT:]


def first_two(cards: str) -> str:
    return " ".join(cards.split()[:2])


THROW = "each seat's throw (as it is told) is 2 of the crib's cards"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda deal: deal.update(crib=deal["kept"][0]), "a card is shown twice"),
        (lambda deal: deal.update(dealer=2), "the dealer is seat 0 to 1"),
        (lambda deal: deal.update(kept=deal["kept"][:1]), "each of the 2 seats shows 4 cards"),
        (lambda deal: deal.update(thrown=[first_two(deal["kept"][0]), deal["thrown"][1]]), THROW),
        (lambda deal: deal.update(thrown=[deal["thrown"][0], ""]), THROW),
        (lambda deal: deal.update(thrown=[deal["thrown"][0]] * 2), THROW),
        (lambda deal: deal.update(plays=[f"1 {deal['kept'][0].split()[0]}"]), "a card laid is one"),
        (lambda deal: deal.update(plays=["0 go"]), "a card for each play"),
        (lambda deal: deal.update(starter="5H 5S"), "one starter"),
        (lambda deal: deal.update(plays=["0 AS"] * 9), "too many cards"),
        (lambda deal: deal.pop("crib"), "earlier[0]: `crib` is missing"),
    ],
)
def test_an_earlier_deal_that_is_no_deal_is_named(change, message: str) -> None:  # type: ignore[no-untyped-def]
    """A log's earlier deals are checked as it is read: the computer reads them, so a
    log edited to hold something no deal could be is refused, saying where and why."""
    _, text = carrying_game()
    doc = tomllib.loads(text)
    change(doc["earlier"][0])
    with pytest.raises(LogError) as caught:
        loads(tomli_w.dumps(doc))
    assert message in str(caught.value)
    assert str(caught.value).startswith("earlier[0]")
    doc["earlier"] = [doc["earlier"][1]] * 25
    with pytest.raises(LogError, match="at most 24 deals"):
        loads(tomli_w.dumps(doc))
