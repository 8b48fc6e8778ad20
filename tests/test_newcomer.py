"""What a newcomer trips on (issue 47), each at the level that owns it: the served room's
words and talk, the seed told after the game's end, and the first screen of ``play``."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from cribcli.club.lobby import TableSetup
from cribcli.ui.serve import visitor as visitor_module
from cribcli.ui.serve.person import Person
from tests.conftest import Run
from tests.test_room import Connected, room_at


def test_a_player_and_a_watcher_of_a_running_game_tell_each_other_nothing_either_way(
    tmp_path: Path,
) -> None:
    room = room_at(tmp_path)
    table = room.lobby.open_table("ann", TableSetup(), room.games.saver)
    table.sit("bob")
    room.games.start(table)

    room.came(SimpleNamespace(name="eve", watched=table, table=None))
    assert room.kept_apart("eve", "ann") == (
        "ann plays at the table you watch: not while the game runs"
    )
    assert room.kept_apart("ann", "eve") == "eve watches your game: not while it runs"
    assert room.kept_apart("ann", "bob") is not None  # (players: `say` at the table)
    assert room.kept_apart("eve", "dan") is None


def test_the_lobby_s_reading_words_are_understood_at_a_table_and_by_a_watcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    monkeypatch.setattr(visitor_module, "say", said.append)

    async def main() -> None:
        room = room_at(tmp_path)
        ann = Person(room, Connected("ann"))
        eve = Person(room, Connected("eve"))
        for someone in [ann, eve]:
            room.came(someone)
        assert await ann._line("solo")
        assert ann.seated is not None
        for word, shown in (
            ("top", r"Nobody is rated yet"),
            ("tables", r"Here: ann, eve\."),
            ("stats", r"No finished games yet"),
        ):
            said.clear()
            assert await ann._line(word)
            assert any(re.search(shown, line) for line in said), (word, said)
            assert not any("is not a card" in line for line in said), said
        said.clear()
        assert await ann._line("help")
        for word in ("tables", "top", "stats"):
            assert any(re.match(rf"  {word} ", line) for line in said), (word, said)
        assert await eve._line("watch 1") is True
        said.clear()
        assert await eve._line("top")
        assert any("Nobody is rated yet" in line for line in said), said

    asyncio.run(main())


def test_the_lobby_hears_a_table_open_and_the_waiting_player_hears_who_sits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(visitor_module, "say", lambda line: None)

    async def main() -> None:
        room = room_at(tmp_path)
        ann, bob, eve = (Person(room, Connected(name)) for name in ("ann", "bob", "eve"))
        for someone in [ann, bob, eve]:
            room.came(someone)
        assert await ann._line("new 2")
        assert (
            eve._outbox
            == bob._outbox
            == ["  ann opens table 1 (2 seats, to 121): `join 1` sits there, `watch 1` watches it."]
        )
        assert ann._outbox == []
        eve._outbox.clear()
        assert await bob._line("join 1")
        assert "  bob sits down." in ann._outbox
        assert eve._outbox == ["  bob sits at table 1; its game begins."]

    asyncio.run(main())


# --- train and quiz: help, hint, quit, and words they do not understand -----------------


def test_the_quiz_answers_help_hint_and_quit_and_keeps_what_was_answered(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cribcli.services.quiz import discard_problem

    monkeypatch.setenv("CRIBBAGE_HOME", str(tmp_path))
    day = "2026-11-02"
    throw = " ".join(str(card) for card in discard_problem(day).hand[:2])
    unknown = "\n".join(f"word{n}" for n in range(12))
    typed = f"help\nhint\n{unknown}\n{throw}\nhint\nquit\nnever read\n"
    done = cribbage("quiz", "--date", day, stdin=typed)
    assert done.status == 0, done.err
    out = done.out
    assert "Type the two cards to throw, e.g. 5H JD; `hint` for a hint; `quit` stops" in out
    assert "Hint: Into your own crib, throw cards that help each other" in out
    assert out.count(": try again") == 12  # a dozen unknown words: asked again each time
    assert "Hint: A card below 5 is a safe lead" in out  # the pegging problem's hint
    assert out.rstrip().endswith(
        "Stopped: your answers are kept; the rest of the quiz waits for you."
    )
    kept = json.loads((tmp_path / "quiz.json").read_text(encoding="utf-8"))["days"][day]
    assert kept[0] is not None and kept[1] is None  # the throw kept, the lay still to come


def test_the_quiz_in_json_with_no_answer_says_so(cribbage: Run, tmp_path: Path) -> None:
    ended = cribbage("quiz", "--date", "2026-11-02", "--json", "--data-dir", str(tmp_path))
    assert ended.status == 2
    last = json.loads(ended.out.splitlines()[-1])
    assert last == {"event": "stopped", "day": "2026-11-02", "answered": 0, "why": "input ended"}


def test_at_a_terminal_a_person_is_asked_again_for_as_long_as_it_takes() -> None:
    from cribcli.services.quiz import drill
    from cribcli.ui.quizzing import count_drill

    hand = drill("seed 7", 1)
    wrong = (f"no{n}" for n in range(500))
    typed = iter([*wrong, str(hand[0].show.total)])
    said: list[str] = []
    status = count_drill(hand, lambda _: next(typed), said.append, lambda: 0.0, patient=True)
    assert status == 0 and said[-1].startswith("1 of 1 right")
    piped = iter(f"no{n}" for n in range(500))
    said.clear()
    assert count_drill(hand, lambda _: next(piped), said.append, lambda: 0.0) == 2
    assert sum("try again" in line for line in said) == 100  # a pipe of nonsense ends


# --- the tournament's report and its progress ---------------------------------------------


def _small_acc() -> tuple[object, list[tuple[int, int, str]]]:
    from cribcli.services.tournament import TournamentSetup, local_play, run_tournament

    heard: list[tuple[int, int, str]] = []
    setup = TournamentSetup(("easy", "5", "normal", "5"), "acc", 1, 3, 61)
    done = run_tournament(setup, local_play(1), on_unit=lambda *told: heard.append(told))
    return done, heard


def test_the_tournament_s_report_fits_80_and_40_columns_and_names_a_level() -> None:
    from cribcli.services.tournament import Tournament
    from cribcli.ui.reports import tournament_lines

    done, _ = _small_acc()
    assert isinstance(done, Tournament)
    for width in (80, 40):
        lines = tournament_lines(done, width)
        assert all(len(line) <= width for line in lines), (width, lines)
        text = "\n".join(lines)
        assert "level 5 #1" in text and " 5 #1" not in text.replace("level 5 #1", "")
        assert "a bye" not in text  # two qualifiers: the final at once
        # wrapped only between words: the same words as one column wider, where fewer wrap
        wider = "\n".join(tournament_lines(done, width + 1 if width < 80 else 200))
        assert sorted(text.split()) == sorted(wider.split())


def test_the_tournament_s_progress_says_what_it_counts_stage_by_stage() -> None:
    _, heard = _small_acc()
    stages = [what for _, _, what in heard]
    assert stages[0] == "qualifying games" and stages[-1] == "the final"
    qualifying = [(done, of) for done, of, what in heard if what == "qualifying games"]
    assert qualifying[-1] == (6, 6) and [done for done, _ in qualifying] == list(range(7))
    final = [(done, of) for done, of, what in heard if what == "the final"]
    assert final == [(0, 1), (1, 1)]  # the knockout counted on its own, from 0


# --- the smaller things ---------------------------------------------------------------------


def test_the_quiz_s_share_line_says_a_loss_one_way_all_day(tmp_path: Path) -> None:
    from cribcli.review.history import QuizDays, kept_loss
    from cribcli.services.quiz import share_line

    book = QuizDays(tmp_path / "quiz.json")
    throw, lay = kept_loss(1.0951), kept_loss(0.0)  # as the quiz says it at the answer
    book.keep("2026-12-05", throw=throw, lay=lay, today="2026-12-05")
    kept = book.read()["2026-12-05"]
    assert kept.throw is not None and kept.lay is not None
    said = share_line("2026-12-05", throw, lay)
    assert share_line("2026-12-05", kept.throw, kept.lay) == said  # again, from the book
    assert "discard 1.10 lost" in said


def test_a_trained_position_says_its_game_by_day_and_opponent_not_file() -> None:
    from cribcli.players import Level
    from cribcli.record.log import GameInfo, Seat
    from cribcli.rules.engine import Rules
    from cribcli.ui.quizzing import _game_words

    seats = (Seat("You"), Seat("Computer", "computer", Level.HARD))
    info = GameInfo(Rules(), seats, 7, started="2026-12-05T10:30:00")
    assert _game_words(info, 0) == "The game of 2026-12-05 v Computer (hard)"


def test_review_says_an_8_and_no_loss_for_the_best() -> None:
    from cribcli.review.coach import Decision
    from cribcli.rules.cards import parse_cards
    from cribcli.ui.coaching import _decision_line, _leaves
    from cribcli.ui.render import PLAIN

    assert _leaves(23) == "23: an 8 makes 31" and _leaves(7) == "7: an 8 makes 15"
    assert _leaves(14) == "14: an ace makes 15" and _leaves(9) == "9: a 6 makes 15"
    cards = tuple(parse_cards(["5H", "5S"]))
    best = Decision(3, "throw", cards, cards, 0.0, chance=0.941)
    line = _decision_line(best, PLAIN)
    assert "lost" not in line and "best" in line and "94.1% to win" in line


def test_a_solo_served_table_shows_the_hand_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cribcli.services.games import computer_action

    said: list[str] = []
    monkeypatch.setattr(visitor_module, "say", said.append)

    async def main() -> None:
        room = room_at(tmp_path)
        ann = Person(room, Connected("ann"))
        room.came(ann)
        await ann._line("solo")
        ann.catch_up()  # the deal
        table = ann.table
        assert table is not None and table.session is not None
        session = table.session
        seat = session.computer_to_act()
        assert seat is not None  # the computer throws to the crib: nothing of ann's changes
        session.act(computer_action(session.info, session.state, seat))
        ann.catch_up()

    asyncio.run(main())
    assert sum("Your hand" in line for line in said) == 1, said


def test_another_game_is_dealt_first_by_the_loser(tmp_path: Path) -> None:
    from cribcli.services.games import NewGame, game_info
    from cribcli.ui.playing import _loser

    lost_by_you = SimpleNamespace(
        state=SimpleNamespace(winner=1), info=SimpleNamespace(rules=SimpleNamespace(players=2))
    )
    assert _loser(lost_by_you) == 0  # type: ignore[arg-type]
    won_by_you = SimpleNamespace(
        state=SimpleNamespace(winner=0), info=SimpleNamespace(rules=SimpleNamespace(players=2))
    )
    assert _loser(won_by_you) == 1  # type: ignore[arg-type]
    from cribcli.record.store import Places

    places = Places.find(str(tmp_path))
    assert game_info(NewGame(first_dealer=0, seed=1), places).rules.first_dealer == 0
    assert game_info(NewGame(seed=1), places).rules.first_dealer == 1  # a first game


def test_play_opens_with_the_deal_and_daily_with_its_promise(
    cribbage: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person playing the computer on their own machine has nobody to distrust: the
    first screen is the deal. The daily game, dealt for everyone, shows its promise."""
    monkeypatch.setenv("CRIBBAGE_HOME", str(tmp_path / "one"))
    alone = cribbage("play", "--seed", "3", stdin="quit\n")
    assert "sha256:" not in alone.out and "promise" not in alone.out
    assert alone.out.lstrip().startswith("Round 1. Computer deals.")
    monkeypatch.setenv("CRIBBAGE_HOME", str(tmp_path / "two"))
    day = cribbage("daily", "--date", "2026-12-01", stdin="quit\n")
    assert "The deal's promise, the digest of its seed" in day.out
