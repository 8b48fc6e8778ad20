"""What a person meets first: the words a hint and the coach give for why, the end of a
game, the cut for the deal, the plain score, long texts a screenful at a time, the rules
of a short game, and the days and seats commands name. Each checked against the rules,
worked by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cribcli.players import Level, computer
from cribcli.record.log import GameInfo, Seat
from cribcli.record.session import Session
from cribcli.review.coach import best_throw, judge_throw
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.engine import Rules, new_game
from cribcli.rules.events import DealerCut, GameOver
from cribcli.rules.reasons import ThrowWhy
from cribcli.rules.scoring import kept_items
from cribcli.rules.tally import Points
from cribcli.ui.coaching import kept_words, why_words
from cribcli.ui.narrate import Table, cut_line, summary_lines
from cribcli.ui.render import PLAIN, Style
from cribcli.ui.seat import SeatUI
from tests.conftest import Run

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("kept", "words"),
    [
        ("5H 6C 7D 8S", "fifteen 2 and a run of 4"),  # 7+8; 5-6-7-8
        ("5H 5S JD 4C", "fifteen 4 and a pair"),  # 5H+JD, 5S+JD; the fives
        ("3C 3D 3H KS", "three of a kind"),  # three pairs of threes
        ("4C 4D 9H 9S", "two pairs"),
        ("6H 7H 7D 8S", "fifteen 4, a pair and a double run of 3"),  # 7+8 twice; 6-7-8 twice
        ("2H 4H 6H 8H", "a flush"),  # four hearts, nothing else
        ("AC 2D 9H KS", "nothing that scores yet"),
    ],
)
def test_what_kept_cards_score_among_themselves(kept: str, words: str) -> None:
    assert kept_words(kept_items(parse_cards(kept))) == words


def at_the_table(seed: int = 7, target: int = 121) -> SeatUI:
    seats = (Seat("You"), Seat("Computer", "computer", Level.NORMAL))
    info = GameInfo(Rules(target=target), seats, seed)
    session = Session.start(info, {1: computer("normal", seed, 1)})
    return SeatUI(session, 0, Table(info.rules, ("You", "Computer"), viewer=0), say=print)


def test_the_hint_says_why_by_the_review_s_measure(capsys: pytest.CaptureFixture[str]) -> None:
    ui = at_the_table()
    ui.hint()
    said = capsys.readouterr().out.strip()
    match = re.fullmatch(
        r"Hint: throw (\S+ \S+): keeps (.+); hand (\d+\.\d), crib -(\d+\.\d)(, pegging .+)?\.",
        said,
    )
    assert match, said
    thrown = parse_cards(match.group(1))
    seen = ui.view
    # the throw the review would call best: it loses nothing by the review's measure
    assert judge_throw(seen, thrown).lost == 0.0
    kept = [card for card in seen.hand if card not in thrown]
    assert match.group(2) == kept_words(kept_items(kept))
    best = best_throw(seen)
    assert isinstance(best.why, ThrowWhy)
    assert set(best.cards) == set(thrown) and f"{best.why.hand:.1f}" == match.group(3)


def test_near_the_end_the_hint_and_the_review_use_one_measure() -> None:
    from dataclasses import replace

    ui = at_the_table()
    session = ui.session
    session.state = replace(session.state, scores=(111, 114))  # both within sight of home
    seen = ui.view
    best = best_throw(seen)
    assert best.why.chance is not None  # chosen for the chance of winning
    judged = judge_throw(seen, best.cards)
    assert judged.lost == 0.0 and judged.chance == 0.0  # the review finds nothing better
    assert set(judged.best) == set(best.cards)


def test_a_lay_s_why_names_what_it_leaves() -> None:
    from cribcli.rules.reasons import LayWhy

    leaves = {
        21: "21: a ten-card makes 31",
        5: "5: a ten-card makes 15",
        10: "10: a 5 makes 15",
        14: "14: an ace makes 15",
        3: "3: no one card makes 15",
        17: "17: no one card makes 31",
        31: "31, and the count starts again",
    }
    for count, words in leaves.items():
        why = LayWhy((), False, count, 0.4, Card.parse("7S"), -0.24)
        assert why_words(why, PLAIN) == (
            f"nothing you lay scores; it leaves {words}; net +0.4 for the play (7S: -0.2)"
        )
    minus = why_words(LayWhy((), True, 10, -1.25), Style(unicode=True))
    assert minus == "it scores nothing now; it leaves 10: a 5 makes 15; net \u22121.2 for the play"


def test_a_tie_in_the_cut_for_the_deal_is_told_and_cut_again() -> None:
    for players, names in ((2, ("You", "Computer")), (3, ("You", "Left", "Right"))):
        rules = Rules(players=players, cut_for_deal=True)
        cuts = (new_game(rules, seed)[1][0] for seed in range(1000))
        cut = next(c for c in cuts if isinstance(c, DealerCut) and len(c.cuts) > players)
        line = cut_line(cut, Table(rules, names))
        first = cut.cuts[:players]
        low = min(card.rank for _, card in first)
        tied = [names[seat] for seat, card in first if card.rank == low]
        assert len(tied) > 1
        if len(tied) == players:
            assert ": a tie, so the cut is made again; " in line
        else:
            assert f": {' and '.join(tied)} tie for low card, and cut again; " in line
        assert line.endswith(f"{names[cut.dealer]} deal{'s' * (cut.dealer != 0)} first.")


def test_the_end_of_a_game_summed_up() -> None:
    table = Table(Rules(), ("You", "Computer"))
    over = GameOver(1, (83, 121), ("skunk", ""))
    points = (Points(18, 43, 22), Points(24, 76, 21))
    lines = summary_lines(over, 10, 23, points, table)
    assert lines == [
        "Computer wins 121 to 83, a skunk, after 10 deals in 23 minutes.",
        "Points     pegging  hand  crib  total",
        "  You           18    43    22     83",
        "  Computer      24    76    21    121",
    ]
    # In a game of two, what the cards dealt and cut gave each side (cribcli.review.luck).
    lucky = summary_lines(over, 10, 23, points, table, cards_luck=(4.26, -2.1))
    assert lucky[-1] == (
        "The cards' luck (dealt and cut, against the average): you +4.3, Computer -2.1."
    )
    partners = Table(Rules(players=4, cut_for_deal=True), ("You", "Left", "Partner", "Right"))
    lines = summary_lines(GameOver(0, (121, 100), ("", "")), 9, 0, points, partners)
    assert lines[0] == "You & Partner win 121 to 100, no skunk, after 9 deals in under a minute."


def test_score_is_said_plainly_with_what_you_need(capsys: pytest.CaptureFixture[str]) -> None:
    ui = at_the_table()
    ui.handle("score")
    assert capsys.readouterr().out == "You 0, Computer 0; you need 121.\n"
    short = at_the_table(target=61)
    short.handle("score")
    assert capsys.readouterr().out == "You 0, Computer 0; you need 61.\n"


def test_the_rules_of_a_short_game_say_61(capsys: pytest.CaptureFixture[str]) -> None:
    at_the_table(target=61).handle("rules")
    said = capsys.readouterr().out
    assert "The first to 61 wins at once" in said and "121" not in said


def test_a_long_text_a_screenful_at_a_time(capsys: pytest.CaptureFixture[str]) -> None:
    ui = at_the_table()
    ui.table = Table(ui.table.rules, ui.table.names, viewer=0, width=40)
    ui.rows = 12
    ui.handle("tips")
    first = capsys.readouterr().out.splitlines()
    assert len(first) == 12 and re.fullmatch(r"  \((\d+) more lines: press Enter\)", first[-1])
    left = int(first[-1].split("(")[1].split()[0])
    pages = [first]
    while ui.more:
        ui.handle("")  # Enter: the next screenful
        pages.append(capsys.readouterr().out.splitlines())
    shown = [line for page in pages for line in page if "more lines: press Enter" not in line]
    assert len(shown) == 11 + left and all(len(line) <= 40 for line in shown)
    assert all(len(page) <= 12 for page in pages)
    ui.handle("tips")
    capsys.readouterr()
    ui.handle("score")  # anything else stops the text
    assert not ui.more


def test_daily_says_which_day_s_deal_it_is(cribbage: Run, tmp_path: Path) -> None:
    result = cribbage("daily", "--date", "2026-11-30", "--data-dir", str(tmp_path), stdin="quit\n")
    assert result.out.startswith(
        "The daily deal of 2026-11-30, a past day's: the cards everyone got that day.\n"
    )


def test_a_match_against_a_missing_program_fails_before_any_game(
    cribbage: Run, tmp_path: Path
) -> None:
    for words in (
        ("match", "hard", "engine:nosuchprog", "--games", "2"),
        ("play", "--opponent", "engine:nosuchprog", "--data-dir", str(tmp_path)),
    ):
        result = cribbage(*words)
        assert result.status == 1, words
        assert result.err == (
            "cribbage: the engine `nosuchprog` cannot play: there is no program `nosuchprog`\n"
        )
        assert result.out == ""


def test_a_served_game_is_reviewed_from_its_player_s_seat(cribbage: Run, tmp_path: Path) -> None:
    log = (ROOT / "tests" / "logs" / "2-players.toml").read_text(encoding="utf-8")
    served = re.sub(r'player = "computer", level = "easy"', 'player = "human"', log)
    folder = tmp_path / "server" / "players" / "Bob"
    (folder / "games").mkdir(parents=True)
    (folder / "settings.toml").write_text('name = "Bob"\n', encoding="utf-8")
    (folder / "games" / "2026-12-01-table-1.toml").write_text(served, encoding="utf-8")
    result = cribbage("review", "--last", "--round", "1", "--data-dir", str(folder))
    assert result.status == 0, result.err
    lines = result.out.splitlines()
    assert lines[1] == "Bob's decisions (seat 1), marked by what they lost."
    assert lines[2] == "Round 1 (your crib)"  # Bob dealt the first round
    path = folder / "games" / "2026-12-01-table-1.toml"
    assert cribbage("review", str(path), "--round", "1").out.splitlines()[1].startswith("Bob's")
    elsewhere = tmp_path / "game.toml"
    elsewhere.write_text(served, encoding="utf-8")
    assert (
        cribbage("review", str(elsewhere), "--round", "1").out.splitlines()[1].startswith("Ann's")
    )


def test_a_refusal_shows_the_cards_in_colour_and_what_was_typed_escaped() -> None:
    """The seat's own styling reaches the screen as styling (a served `go` showed
    ``\\x1b[31m10♦\\x1b[0m`` as text); what the person typed is escaped."""
    ui = at_the_table()
    ui.table = Table(ui.table.rules, ui.table.names, Style(unicode=True, color=True), viewer=0)
    typed = ui.handle("\x1b[2J 5H")
    assert typed is not None and "`\\x1b[2J` is not a card" in typed and "\x1b" not in typed
    ui.handle(" ".join(str(card) for card in sorted(ui.view.hand)[:2]))
    ui.run_computers()
    while ui.my_turn and not ui.view.playable():  # (a go is said for the seat)
        ui.run_computers()
    said = ui.handle("go")
    assert said is not None and said.startswith("you can still lay ")
    assert "\x1b[" in said and "\\x1b" not in said
