"""A player's history, read from the finished games' logs (the logs are the record).

Reading thousands of logs must be quick, so each is read by a scanner that knows the
layout cribbage writes (one key or array item a line); a log whose layout it does not
recognise is read with the TOML parser instead. The player is seat 0 (the person who
played); the other seats are the computer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cribcli.errors import CribbageError
from cribcli.record import parse_toml


class StatsError(CribbageError):
    """A log that cannot be read for the record."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What the history needs of one finished game, from seat 0's side."""

    name: str
    day: str
    """The date it was played, YYYY-MM-DD (empty if the log does not say)."""
    level: str
    players: int
    won: bool
    skunk_given: str
    skunk_taken: str
    deals: tuple[tuple[bool, int, int, int], ...]
    """Each finished deal: whether seat 0 dealt, and its pegging, hand and crib points."""
    best_hand: int


_POINT = re.compile(r'^\s*"(\d+) (.*)",?$')


def _points(chunk: str) -> list[tuple[str, str]]:
    """A round's point entries: (seat, reasons)."""
    block = chunk.partition("points = [\n")[2].partition("\n]")[0]
    return [(m.group(1), m.group(2)) for m in map(_POINT.match, block.splitlines()) if m]


_FOR = re.compile(r"for (\d+)")


def read_game(name: str, text: str) -> GameRecord:
    """One finished log's record. Raises StatsError if it is not a finished game log."""
    misread = (ValueError, IndexError, KeyError, TypeError, AttributeError)
    try:
        return _scan(name, text)
    except misread:
        pass
    try:
        return _from_toml(name, parse_toml(text))
    except misread as error:
        raise StatsError(f"not a finished game log ({error})") from None


def _scan(name: str, text: str) -> GameRecord:
    """The fast reader for logs as cribbage writes them."""
    if "\nformat = 1\n" not in text or "\n[result]\n" not in text:
        raise ValueError("not a finished log in cribbage's layout")
    head, _, rest = text.partition("\n[[rounds]]\n")
    rounds_text, _, result_text = rest.rpartition("\n[result]\n")
    top = dict(re.findall(r"^(\w+) = (.+)$", head, re.M))
    level = re.search(r'player = "computer", level = "(\w+)"', head)
    result = _result_block(result_text)
    rounds = []
    for chunk in rounds_text.split("\n[[rounds]]\n"):
        dealer = int(re.search(r"^dealer = (\d+)$", chunk, re.M).group(1))  # type: ignore[union-attr]
        if "\nscores = [" not in chunk:
            continue  # the last deal, cut short by the end of the game
        rounds.append((dealer, _points(chunk)))
    return _record(
        name,
        _day(top.get("started", ""), top.get("label", "")),
        level.group(1) if level else "",
        int(re.search(r"^players = (\d+)$", head, re.M).group(1)),  # type: ignore[union-attr]
        int(result["winner"]),
        result["skunks"],
        rounds,
        _all_points(rounds_text),
    )


def _result_block(text: str) -> dict[str, Any]:
    winner = re.search(r"^winner = (\d+)$", text, re.M)
    skunks = re.search(r"^skunks = \[(.*?)\]", text, re.M | re.S)
    if winner is None or skunks is None:
        raise ValueError("no result")
    return {"winner": winner.group(1), "skunks": re.findall(r'"([^"]*)"', skunks.group(1))}


def _all_points(rounds_text: str) -> list[tuple[str, str]]:
    """Every point entry of every round, the last unfinished one included."""
    return [entry for chunk in rounds_text.split("\n[[rounds]]\n") for entry in _points(chunk)]


def _from_toml(name: str, doc: dict[str, Any]) -> GameRecord:
    if doc["format"] != 1 or "result" not in doc:
        raise ValueError("not a finished format-1 log")

    def split(entry: str) -> tuple[str, str]:
        seat, _, reasons = entry.partition(" ")
        return seat, reasons

    rounds = [
        (int(r["dealer"]), [split(p) for p in r.get("points", [])])
        for r in doc["rounds"]
        if "scores" in r
    ]
    every = [split(p) for r in doc["rounds"] for p in r.get("points", [])]
    level = next((s.get("level", "") for s in doc["seats"] if s.get("player") == "computer"), "")
    return _record(
        name,
        _day(str(doc.get("started", "")), str(doc.get("label", ""))),
        level,
        int(doc["rules"]["players"]),
        int(doc["result"]["winner"]),
        list(doc["result"]["skunks"]),
        rounds,
        every,
    )


def _day(started: str, label: str) -> str:
    found = re.search(r"\d{4}-\d{2}-\d{2}", started.strip('"')) or re.search(
        r"\d{4}-\d{2}-\d{2}", label
    )
    return found.group(0) if found else ""


def _record(
    name: str,
    day: str,
    level: str,
    players: int,
    winner: int,
    skunks: list[str],
    rounds: list[tuple[int, list[tuple[str, str]]]],
    every: list[tuple[str, str]],
) -> GameRecord:
    sides = 2 if players == 4 else players
    mine = 0  # seat 0's side is side 0
    deals = []
    for dealer, points in rounds:
        pegging = hand = crib = 0
        for seat, reasons in points:
            if int(seat) % sides != mine:
                continue
            scored = sum(int(n) for n in _FOR.findall(reasons))
            if reasons.startswith("hand for"):
                hand += scored
            elif reasons.startswith("crib for"):
                crib += scored
            else:
                pegging += scored
        deals.append((dealer % sides == mine, pegging, hand, crib))
    best = max(
        (
            int(reasons[len("hand for ") :])
            for seat, reasons in every
            if seat == "0" and reasons.startswith("hand for ")
        ),
        default=0,
    )
    taken = skunks[mine] if mine < len(skunks) else ""
    given = next((s for side, s in enumerate(skunks) if side != mine and s), "")
    return GameRecord(
        name=name,
        day=day,
        level=level,
        players=players,
        won=winner == mine,
        skunk_given=given if winner == mine else "",
        skunk_taken=taken,
        deals=tuple(deals),
        best_hand=best,
    )


@dataclass
class History:
    """The sums over many games."""

    games: int = 0
    wins: int = 0
    by_level: dict[str, list[int]] = field(default_factory=dict)
    """level -> [played, won]"""
    skunks_given: int = 0
    skunks_taken: int = 0
    deals: dict[str, list[int]] = field(default_factory=dict)
    """"dealer" or "pone" -> [deals, pegging, hand, crib]"""
    best_hand: int = 0
    best_game: str = ""

    def add(self, game: GameRecord) -> None:
        """Count one game in."""
        self.games += 1
        self.wins += game.won
        level = self.by_level.setdefault(game.level or "?", [0, 0])
        level[0] += 1
        level[1] += game.won
        self.skunks_given += bool(game.skunk_given)
        self.skunks_taken += bool(game.skunk_taken)
        for dealt, pegging, hand, crib in game.deals:
            sums = self.deals.setdefault("dealer" if dealt else "pone", [0, 0, 0, 0])
            sums[0] += 1
            sums[1] += pegging
            sums[2] += hand
            sums[3] += crib
        if game.best_hand > self.best_hand:
            self.best_hand, self.best_game = game.best_hand, game.name

    def per_deal(self, role: str) -> dict[str, float]:
        """Average points a deal as dealer or pone: pegging, hand, crib, total."""
        deals, pegging, hand, crib = self.deals.get(role, [0, 0, 0, 0])
        if not deals:
            return {"deals": 0, "pegging": 0.0, "hand": 0.0, "crib": 0.0, "total": 0.0}
        values = {"pegging": pegging / deals, "hand": hand / deals, "crib": crib / deals}
        return {"deals": deals, **values, "total": sum(values.values())}

    def as_json(self) -> dict[str, object]:
        """The history for scripts."""
        return {
            "games": self.games,
            "wins": self.wins,
            "by_level": {
                level: {"played": played, "won": won}
                for level, (played, won) in sorted(self.by_level.items())
            },
            "skunks_given": self.skunks_given,
            "skunks_taken": self.skunks_taken,
            "per_deal": {role: self.per_deal(role) for role in ("dealer", "pone")},
            "best_hand": {"points": self.best_hand, "game": self.best_game},
        }


def history(games: Iterable[GameRecord], since: str = "") -> History:
    """The sums of the games played on or after ``since`` (YYYY-MM-DD; all if empty)."""
    total = History()
    for game in games:
        if since and (not game.day or game.day < since):
            continue
        total.add(game)
    return total
