"""``cribbage train``: your costly decisions, worst first, asked again; two right in a
row rest a position; the state survives restarts and hostile files."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.record.store import Places
from cribcli.review.coach import Review, best_lay, best_throw, joined, review
from cribcli.review.stats import Costly, Lost, Reviews, digest_of
from cribcli.rules.engine import Discard
from cribcli.services.training import Repetitions, set_up, to_train
from cribcli.ui.quizzing import Trainer
from tests.conftest import Run

LOG = Path(__file__).resolve().parent / "logs" / "short-game.toml"
NAME = "2026-12-01-seed-1.toml"


@cache
def reviewed() -> Review:
    """Seat 0's first three rounds reviewed (costly throws and a costly lay among them)."""
    game = replay(loads(LOG.read_text(encoding="utf-8")))
    rounds = [review(game.log.info, game.actions, 0, round_number=n) for n in (1, 2, 3)]
    return joined(rounds)


def filed(tmp_path: Path) -> Places:
    """A data folder holding the fixture's game of two easy players, seat 0 reviewed."""
    places = Places(tmp_path, tmp_path, tmp_path)
    places.games.mkdir()
    shutil.copy(LOG, places.games / NAME)
    text = LOG.read_text(encoding="utf-8")
    Reviews(places.reviews).keep(NAME, digest_of(text), reviewed().as_lost())
    return places


def test_a_review_keeps_the_costly_decisions() -> None:
    lost = reviewed().as_lost()
    costly = [d for d in reviewed().decisions if d.costly]
    assert len(lost.costly) == len(costly) > 0
    assert [c.at for c in lost.costly] == [d.at for d in costly]
    assert all(c.lost >= 0.5 for c in lost.costly)


def test_worst_first_and_by_kind(tmp_path: Path) -> None:
    places = filed(tmp_path)
    waiting = to_train(places)
    assert [p.lost for p in waiting] == sorted((p.lost for p in waiting), reverse=True)
    lays = to_train(places, "lay")
    assert lays and all(p.kind == "lay" for p in lays)
    first = set_up(places, waiting[0], print)
    assert first is not None and first.seen.seat == 0


def answers(*lines: str) -> Iterator[str | None]:
    yield from lines
    while True:
        yield None


def best_answer(places: Places, kind: str) -> str:
    found = next(f for p in to_train(places, kind) if (f := set_up(places, p, print)) is not None)
    if kind == "throw":
        return " ".join(str(card) for card in best_throw(found.seen).cards)
    best = best_lay(found.seen, found.info.seed)
    assert best is not None
    return str(best.cards[0])


def train(places: Places, kind: str, *typed: str, as_json: bool = False) -> list[str]:
    said: list[str] = []
    lines = answers(*typed)
    trainer = Trainer(lambda _: next(lines), said.append, said.append, as_json=as_json)
    assert trainer.run(places, kind, limit=1) == 0
    return said


def test_two_right_in_a_row_rest_a_position_across_restarts(tmp_path: Path) -> None:
    places = filed(tmp_path)
    first = to_train(places, "throw")[0]
    right = best_answer(places, "throw")
    said = train(places, "throw", right)
    assert said[-1].startswith("1 of 1 right;")
    assert any(line.startswith("Right, the best: keeps ") for line in said)
    assert Repetitions(places.training).read()[first.key] == (1, 1)
    assert to_train(places, "throw")[0] == first  # once is not enough
    found = set_up(places, first, print)
    assert found is not None and isinstance(found.action, Discard)
    wrong = " ".join(str(card) for card in found.action.cards)  # as it was thrown: costly
    said = train(places, "throw", wrong)
    assert any(" was best" in line for line in said)
    assert Repetitions(places.training).read()[first.key] == (0, 2)  # back to none
    train(places, "throw", right)
    train(places, "throw", right)
    assert first not in to_train(places, "throw")  # rests


def test_a_lay_asked_again(tmp_path: Path) -> None:
    places = filed(tmp_path)
    said = train(places, "lay", best_answer(places, "lay"), as_json=True)
    events = [json.loads(line) for line in said]
    assert events[0]["event"] == "position" and events[0]["kind"] == "lay"
    assert events[1]["event"] == "trained" and events[1]["right"] is True
    left = len(to_train(places, "lay"))
    assert events[-1] == {"event": "training", "asked": 1, "right": 1, "left": left}


def test_a_game_changed_since_its_review_is_not_asked(tmp_path: Path) -> None:
    places = filed(tmp_path)
    log = places.games / NAME
    before = to_train(places)
    log.write_text(log.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert to_train(places) == []  # its review is not of this log any more
    assert all(set_up(places, p, print) is None for p in before[:3])
    said = train(places, "throw")
    assert said[-1].startswith("Nothing to train")


@pytest.mark.parametrize(
    "hostile",
    [
        "[",
        "[]",
        '{"positions": 7}',
        '{"positions": {"x@1": [3, 1]}}',  # more right in a row than asked
        '{"positions": {"x@1": [true, 1]}}',
        '{"positions": {"x@1": [1, -1]}}',
        "\x00" * 8,
    ],
)
def test_a_hostile_training_file_is_read_as_nothing(tmp_path: Path, hostile: str) -> None:
    path = tmp_path / "training.json"
    path.write_text(hostile, encoding="utf-8")
    assert Repetitions(path).read() == {}
    Repetitions(path).answered("x@1", True)  # and is written over whole
    assert Repetitions(path).read() == {"x@1": (1, 1)}


def test_hostile_costly_entries_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "reviews.json"
    digest = "cd" * 32
    lost = Lost(2, 1.0, 1.0, 0.0, (2, 3, 0), (Costly(4, "lay", 1.0),))
    Reviews(path).keep("g.toml", digest, lost)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["games"]["g.toml"]["costly"] += [
        [-1, "lay", 1.0], [5, "dance", 1.0], [6, "lay", 1e9], [7, "lay"], "x", [True, "lay", 1],
    ]  # fmt: skip
    path.write_text(json.dumps(data), encoding="utf-8")
    assert Reviews(path).read()["g.toml"][1].costly == (Costly(4, "lay", 1.0),)


def test_a_hostile_reviews_file_points_nowhere_it_should_not(tmp_path: Path) -> None:
    places = filed(tmp_path)
    data = json.loads(places.reviews.read_text(encoding="utf-8"))
    entry = data["games"][NAME]
    for odd in ("../outside.toml", "a\x00b.toml", "\x1b[31mred.toml", "/etc/x.toml", ".h.toml"):
        data["games"][odd] = entry
    # An action of the other seat, named as one of the player's throws.
    game = replay(loads(LOG.read_text(encoding="utf-8")))
    theirs = next(n for n, a in enumerate(game.actions) if isinstance(a, Discard) and a.seat == 1)
    entry["costly"].append([theirs, "throw", 50.0])  # the worst, so asked first
    places.reviews.write_text(json.dumps(data), encoding="utf-8")
    assert set(Reviews(places.reviews).read()) == {NAME}
    waiting = to_train(places, "throw")
    assert waiting[0].at == theirs  # listed (the file says so) ...
    assert set_up(places, waiting[0], print) is None  # ... but never shown: not yours
    said = train(places, "throw", best_answer(places, "throw"))
    assert not any("Bob" in line and "Dealt" in line for line in said)


def test_nothing_to_train_yet(cribbage: Run, home: Path) -> None:
    done = cribbage("train", stdin="")
    assert done.status == 0
    assert done.out.startswith("Nothing to train: no costly decision of yours waits.")
