"""How a seat is told things: in words for a person (:class:`Words`), or as JSON events
for a program (:class:`Events`, ``--json``: ``docs/json-protocol.md``). Everything a seat
hears goes through one of them, so the two cannot drift apart: a new thing to tell is a
method of :class:`Voice`, and the type checker names both places it must be written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from cribcli.protocol.messages import public_event
from cribcli.rules.engine import Action, Claim, Discard, Play, View
from cribcli.rules.errors import printable
from cribcli.rules.events import CribFromDeck, Dealt, Discarded, Event, GameOver, Shown
from cribcli.rules.tally import Points
from cribcli.ui.coaching import coach_line, coach_summary, review_lines, why_words
from cribcli.ui.narrate import Table, narrate, summary_lines
from cribcli.ui.render import WIDE, fit, seed_line
from cribcli.ui.reports import daily_lines

if TYPE_CHECKING:
    from cribcli.record.log import GameInfo
    from cribcli.review.coach import Best, Decision, Review
    from cribcli.review.history import DailyResult
    from cribcli.review.luck import Luck


class Voice(Protocol):
    """What a seat can be told."""

    def line(self, text: str) -> None:
        """A line for the person (a program gets it as a ``message``)."""
        ...

    def happened(self, events: Sequence[Event], number: int) -> None:
        """``events[number]`` happened (``events``: the game's so far, for what it needs
        to be told: who threw what into the crib)."""
        ...

    def coach(self, decision: Decision) -> None:
        """The coach after a show: a decision that lost more than a slip."""
        ...

    def coach_summary(self, whole: Review, luck: Luck | None, info: GameInfo) -> None:
        """The coach at the end of the game: what all the decisions lost, and the luck."""
        ...

    def review(self, judged: Review, info: GameInfo) -> None:
        """A round's decisions, each with what it lost (``review`` at the prompt)."""
        ...

    def hint(self, what: str, best: Best, seen: View) -> None:
        """What ``hint`` found: the cards to throw or lay (``what``), and why."""
        ...

    def taken_back(self, taken: Sequence[Action]) -> None:
        """What ``undo`` took back."""
        ...

    def summary(
        self,
        over: GameOver,
        deals: int,
        minutes: int | None,
        points: Sequence[Points],
        board: Sequence[str],
        cards_luck: Sequence[float] = (),
    ) -> None:
        """The end of a game summed up (after the board that stood below the prompt),
        with what the cards gave each side in a game of two."""
        ...

    def promise(self, digest: str) -> None:
        """Before the first card: the digest of the game's secret seed, its promise that
        the deal is the seed's (``cribbage verify`` checks it once the seed is shown)."""
        ...

    def revealed(self, seed: int | str, digest: str) -> None:
        """At the end of the game: the seed promised by ``digest``."""
        ...

    def filed(self, path: Path, in_games: bool) -> None:
        """Where the finished game's log went (``in_games``: with the player's games)."""
        ...

    def daily(self, result: DailyResult, today: bool) -> None:
        """A finished daily game's result."""
        ...

    def whole_log(self, text: str) -> None:
        """The last resort for a log that could be written nowhere: the log itself."""
        ...

    def asked(self, prompt: str, table: list[str], decision: dict[str, object]) -> None:
        """In line mode, what the game waits for: the prompt after the table (``table``:
        its lines, or none if it was just shown), or the whole ``decision``."""
        ...

    def typed(self, text: str) -> None:
        """In line mode, a line read, as it is used."""
        ...

    def refused(self, number: int, why: str) -> None:
        """In line mode, line ``number`` could not be used. Raises ScriptError for a
        person's script (it stops there); a program is told, and asked again."""
        ...

    def stopped(self) -> None:
        """In line mode, the lines ended before the game did (the game is saved)."""
        ...


class ScriptError(Exception):
    """A line of a script could not be used: its number and the reason."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(f"line {number}: {reason}")


class Words(Voice):
    """A seat told in words, wrapped to the table's width (if it has one)."""

    def __init__(self, table: Callable[[], Table], say: Callable[[str], None], seat: int) -> None:
        self.table = table
        """The table as it is now (its width follows the terminal's)."""
        self._say = say
        self.seat = seat

    def line(self, text: str) -> None:
        width = self.table().width
        if width is None:
            self._say(text)
            return
        for line in text.split("\n"):  # wrapped at spaces, never mid-word
            for part in fit(line, width or WIDE):
                self._say(part)

    def happened(self, events: Sequence[Event], number: int) -> None:
        event = events[number]
        table = self.table()
        if isinstance(event, Shown) and not (number and isinstance(events[number - 1], Shown)):
            self.line("")  # the show begins
        for line in narrate(event, table):
            self.line(line)
        if isinstance(event, Shown) and event.show.is_crib:
            self.line(f"  thrown: {self._thrown(events[:number], table)}")

    def _thrown(self, events: Sequence[Event], table: Table) -> str:
        """Who put which cards in this round's crib, from the round's events."""
        start = max(i for i, e in enumerate(events) if isinstance(e, Dealt))
        style, parts = table.style, []
        for event in events[start:]:
            if isinstance(event, Discarded):
                whom = "you" if event.seat == self.seat else table.names[event.seat]
                parts.append(f"{style.cards(sorted(event.cards))} from {whom}")
            elif isinstance(event, CribFromDeck):
                parts.append(f"{style.card(event.card)} from the deck")
        return ", ".join(parts)

    def coach(self, decision: Decision) -> None:
        self.line(coach_line(decision, self.table().style))

    def coach_summary(self, whole: Review, luck: Luck | None, info: GameInfo) -> None:
        names = [printable(seat.name) for seat in info.seats]
        for line in coach_summary(whole, luck, names):
            self.line(line)

    def review(self, judged: Review, info: GameInfo) -> None:
        for line in review_lines(judged, info, self.table().style)[1:]:
            self.line(line)

    def hint(self, what: str, best: Best, seen: View) -> None:
        style = self.table().style
        self.line(f"Hint: {what} {style.cards(sorted(best.cards))}: {why_words(best.why, style)}.")

    def taken_back(self, taken: Sequence[Action]) -> None:
        table = self.table()
        style, parts = table.style, []
        for action in taken:
            whose = "your" if action.seat == self.seat else table.whose(action.seat)
            if isinstance(action, Play):
                parts.append(f"{whose} {style.card(action.card)}")
            elif isinstance(action, Discard):
                mine = action.seat == self.seat
                parts.append(f"{whose} discard" + (f" {style.cards(sorted(action.cards))}" * mine))
            else:
                parts.append(f"{whose} count")
        self.line(f"Taken back: {', '.join(parts)}.")

    def summary(
        self,
        over: GameOver,
        deals: int,
        minutes: int | None,
        points: Sequence[Points],
        board: Sequence[str],
        cards_luck: Sequence[float] = (),
    ) -> None:
        summed = summary_lines(over, deals, minutes, points, self.table(), cards_luck)
        for line in ["", *board, *summed]:
            self.line(line)

    def promise(self, digest: str) -> None:
        self.line("The deal's promise, the digest of its seed (the seed is shown at the end):")
        width = self.table().width or WIDE
        if len(digest) + 2 > width:  # too narrow for it whole: in groups of 16 digits
            kind, _, hexes = digest.partition(":")
            digest = f"{kind}: " + " ".join(hexes[n : n + 16] for n in range(0, len(hexes), 16))
        self.line(f"  {digest}")

    def revealed(self, seed: int | str, digest: str) -> None:
        self.line(seed_line(seed))

    def filed(self, path: Path, in_games: bool) -> None:
        if in_games:
            self.line(f"The game's log is in {path} ('cribbage replay --last' tells it again).")

    def daily(self, result: DailyResult, today: bool) -> None:
        for line in daily_lines(result, today=today):
            self.line(line)

    def whole_log(self, text: str) -> None:
        self.line("The game's log, which could not be written to any file:")
        for line in text.splitlines():
            self._say(line)

    def asked(self, prompt: str, table: list[str], decision: dict[str, object]) -> None:
        if table:
            self.line("")
        for line in table:
            self.line(line)
        self.line(f"{prompt}:")

    def typed(self, text: str) -> None:
        self.line(f"> {printable(text)}")

    def refused(self, number: int, why: str) -> None:
        raise ScriptError(number, why)

    def stopped(self) -> None:
        pass  # the caller says how the game was left


class Events(Voice):
    """A seat told as JSON events, one a line, for a program (``--json``)."""

    def __init__(self, write: Callable[[str], None], seat: int) -> None:
        self.write = write
        self.seat = seat

    def emit(self, data: dict[str, object]) -> None:
        """One event."""
        self.write(json.dumps(data))

    def line(self, text: str) -> None:
        self.emit({"event": "message", "text": text})

    def happened(self, events: Sequence[Event], number: int) -> None:
        self.emit(public_event(events[number], self.seat))

    def coach(self, decision: Decision) -> None:
        self.emit({"event": "coach", **decision.as_json()})

    def coach_summary(self, whole: Review, luck: Luck | None, info: GameInfo) -> None:
        names = [seat.name for seat in info.seats]
        luck_json = {"luck": luck.as_json(names)} if luck is not None else {}
        self.emit({"event": "coach", **whole.summary_json(more=luck_json)})

    def review(self, judged: Review, info: GameInfo) -> None:
        for decision in judged.decisions:
            self.emit({"event": "review", **decision.as_json()})

    def hint(self, what: str, best: Best, seen: View) -> None:
        shown: dict[str, object] = {"lay": str(best.cards[0])}
        if what == "throw":
            kept = [card for card in sorted(seen.hand) if card not in best.cards]
            shown = {
                "discard": [str(c) for c in sorted(best.cards)],
                "keep": [str(c) for c in kept],
            }
        self.emit({"event": "hint", **shown, "why": best.why.as_json()})

    def taken_back(self, taken: Sequence[Action]) -> None:
        self.emit({"event": "taken_back", "moves": [self._move(action) for action in taken]})

    def _move(self, action: Action) -> dict[str, object]:
        """A move taken back, as a program may see it (another seat's discard unseen)."""
        if isinstance(action, Play):
            return {"seat": action.seat, "card": str(action.card)}
        if isinstance(action, Discard):
            cards = [str(c) for c in sorted(action.cards)] if action.seat == self.seat else None
            return {"seat": action.seat, "discard": cards}
        if isinstance(action, Claim):
            return {"seat": action.seat, "count": action.points}
        return {"seat": action.seat, "forfeit": action.reason}

    def summary(
        self,
        over: GameOver,
        deals: int,
        minutes: int | None,
        points: Sequence[Points],
        board: Sequence[str],
        cards_luck: Sequence[float] = (),
    ) -> None:
        totals = [p._asdict() | {"total": sum(p)} for p in points]
        luck = {"cards_luck": [round(n, 2) for n in cards_luck]} if cards_luck else {}
        self.emit({"event": "summary", "deals": deals, "points": totals, **luck})

    def promise(self, digest: str) -> None:
        self.emit({"event": "promise", "digest": digest})

    def revealed(self, seed: int | str, digest: str) -> None:
        self.emit({"event": "seed", "seed": seed, "digest": digest})

    def filed(self, path: Path, in_games: bool) -> None:
        self.emit({"event": "saved", "path": str(path)})

    def daily(self, result: DailyResult, today: bool) -> None:
        self.emit(result.as_json())

    def whole_log(self, text: str) -> None:
        self.emit({"event": "log", "text": text})

    def asked(self, prompt: str, table: list[str], decision: dict[str, object]) -> None:
        self.emit(decision)

    def typed(self, text: str) -> None:
        pass  # a program knows what it wrote

    def refused(self, number: int, why: str) -> None:
        self.emit({"event": "error", "line": number, "message": why})

    def stopped(self) -> None:
        self.emit({"event": "stopped", "reason": "end of input"})
