"""The game as a person plays it: what the prompt asks, what a line typed means, what is
said back. The same controller drives the prompt_toolkit REPL and the plain line mode.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from cribcli.cards import Card, parse_cards
from cribcli.coach import Review, joined, review
from cribcli.engine import (
    Action,
    Claim,
    Discard,
    Phase,
    Play,
    View,
    playable,
    seats_to_act,
    view,
)
from cribcli.errors import CribbageError
from cribcli.events import (
    CribFromDeck,
    Dealt,
    Discarded,
    Event,
    GameOver,
    RoundEnded,
    Shown,
)
from cribcli.protocol import public_event, view_json
from cribcli.session import Session
from cribcli.ui.narrate import Table, narrate, says
from cribcli.ui.render import (
    WIDE,
    board_lines,
    coach_line,
    coach_summary,
    fit,
    hand_line,
    pegs_of,
    review_lines,
)
from cribcli.ui.texts import RULES, TIPS, page


class Quit(Exception):
    """The player asked to stop (the game is saved)."""


@dataclass(frozen=True, slots=True)
class Command:
    """A word the prompt understands besides cards."""

    name: str
    help: str
    run: Callable[[GameUI], None]


class GameUI:
    """One person's seat at the table: prompts, commands, narration."""

    def __init__(
        self,
        session: Session,
        seat: int,
        table: Table,
        *,
        say: Callable[[str], None],
        pause: Callable[[], None] = lambda: None,
        as_json: bool = False,
        coach: bool = False,
    ) -> None:
        self.session = session
        self.seat = seat
        self.table = table
        self._out = say
        self.say = say
        """Tell the player a line: wrapped to the table's width (if it has one), or in
        JSON mode as a ``message`` event."""
        if as_json:
            self.say = self._message
        elif table.width is not None:
            self.say = _fitted(say, lambda: self.table.width or WIDE)
        self.pause = pause
        self.as_json = as_json
        self.wait: Callable[[], None] | None = None
        """Called once a round's show has been told, before the next deal is (the REPL
        waits for Enter there); None: go straight on."""
        self.told = len(session.events)
        """How many of the session's events have been told (a new game's first deal is
        told by the caller): the board shows the game as far as it has been told."""
        self.coach = coach
        """After each show, say what this seat's costly decisions of the round lost."""
        self.reviewed: dict[int, Review] = {}
        """This seat's decisions, judged, by round (each once its show is over)."""
        self.game_review: Review | None = None
        """The whole game's, once the coach has summed it up at the end."""

    # --- what happens ------------------------------------------------------------------

    def tell(self, events: list[Event]) -> None:
        """Say what happened, from this seat's side of the table. ``events`` are the
        latest of the session's."""
        first = len(self.session.events) - len(events)
        for number, event in enumerate(events, start=first):
            previous = self.session.events[number - 1] if number else None
            self.told = number + 1
            if self.as_json:
                self.emit(public_event(event, self.seat))
                if isinstance(event, RoundEnded) and self.coach:
                    self._coach_round(event.round)
                if isinstance(event, GameOver) and self.coach:
                    self._coach_game()
                continue
            if isinstance(event, Shown) and not isinstance(previous, Shown):
                self.say("")  # the show begins
            for line in narrate(event, self.table):
                self.say(line)
            if isinstance(event, Shown) and event.show.is_crib:
                self.say(f"  thrown: {self._thrown(number)}")
            if isinstance(event, RoundEnded) and self.coach:
                self._coach_round(event.round)
            if isinstance(event, GameOver) and self.coach:
                self._coach_game()
            if isinstance(event, RoundEnded) and self.wait is not None:
                self.wait()

    # --- the coach ---------------------------------------------------------------------

    def judged(self, round_number: int) -> Review:
        """This seat's decisions in a round, judged (once, and kept)."""
        if round_number not in self.reviewed:
            self.reviewed[round_number] = review(
                self.session.info, self.session.actions, self.seat, round_number=round_number
            )
        return self.reviewed[round_number]

    def _coach_round(self, round_number: int) -> None:
        """After a show: each of the round's decisions that lost more than a slip."""
        for decision in self.judged(round_number).decisions:
            if decision.costly:
                if self.as_json:
                    self.emit({"event": "coach", **decision.as_json()})
                else:
                    self.say(coach_line(decision, self.table.style))

    def _coach_game(self) -> None:
        """At the end of the game: the last round's costly decisions (it had no show to
        follow, or the game ended in it), then what all the decisions lost, and where to
        see them."""
        last = self.session.state.round
        self._coach_round(last)
        whole = joined([self.judged(number) for number in range(1, last + 1)])
        self.game_review = whole
        if self.as_json:
            self.emit({"event": "coach", **whole.summary_json()})
            return
        for line in coach_summary(whole):
            self.say(line)

    def show_review(self) -> None:
        """The decisions of the last round whose show is over, each with what it lost."""
        ended = [e.round for e in self.session.events[: self.told] if isinstance(e, RoundEnded)]
        if self.session.over:
            ended.append(self.session.state.round)
        if not ended:
            self.say("Nothing to review yet: a round's decisions are judged once its show is over.")
            return
        judged = self.judged(ended[-1])
        if self.as_json:
            for decision in judged.decisions:
                self.emit({"event": "review", **decision.as_json()})
            return
        for line in review_lines(judged, self.session.info, self.table.style)[1:]:
            self.say(line)

    def _thrown(self, upto: int) -> str:
        """Who put which cards in this round's crib, from the round's events."""
        events = self.session.events[:upto]
        start = max(i for i, e in enumerate(events) if isinstance(e, Dealt))
        style, parts = self.table.style, []
        for event in events[start:]:
            if isinstance(event, Discarded):
                parts.append(f"{style.cards(sorted(event.cards))} from {self._whom(event.seat)}")
            elif isinstance(event, CribFromDeck):
                parts.append(f"{style.card(event.card)} from the deck")
        return ", ".join(parts)

    def emit(self, data: dict[str, object]) -> None:
        """One JSON line (line mode with --json)."""
        self._out(json.dumps(data))

    def _message(self, text: str) -> None:
        self.emit({"event": "message", "text": text})

    def decision(self) -> dict[str, object]:
        """What the game waits for from this seat, whole, for a program to answer: what
        is awaited, the cards held (and those that can be laid), the count and the pile,
        the starter, the scores, the round and who deals; at a count, what is counted."""
        seen = self.view
        waiting = {Phase.DISCARD: "discard", Phase.PLAY: "play", Phase.SHOW: "count"}
        data: dict[str, object] = {
            "event": "prompt",
            "waiting_for": waiting.get(seen.phase, "nothing"),
            "prompt": self.prompt(),
            **view_json(seen),
        }
        if seen.phase is Phase.SHOW:
            what, cards = ("crib", seen.crib) if seen.crib else ("hand", seen.kept)
            data["counting"] = {"what": what, "cards": [str(card) for card in sorted(cards)]}
        return data

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

    def _whom(self, seat: int) -> str:
        return "you" if seat == self.seat else self.table.names[seat]

    def run_computers(self) -> None:
        """Let the computers act until it is this seat's turn or the game is over."""
        while True:
            events = self.session.computer_step()
            if events is None:
                return
            self.pause()
            self.tell(events)

    @property
    def view(self) -> View:
        """What this seat may know now."""
        return view(self.session.state, self.seat)

    @property
    def my_turn(self) -> bool:
        """Whether the game waits for this seat."""
        return self.seat in seats_to_act(self.session.state)

    def prompt(self) -> str:
        """What the game waits for: ``Put 2 in the crib``, ``Your play, count 17``, or
        (under muggins) ``Count your hand`` (the cards are on the line above: a prompt
        is plain text, never colour)."""
        seen = self.view
        if seen.phase is Phase.DISCARD:
            return f"Put {seen.rules.discard_size} in the crib"
        if seen.phase is Phase.PLAY:
            return f"Your play, count {seen.count}"
        if seen.phase is Phase.SHOW and seen.starter is not None:
            return f"Count your {'crib' if seen.crib else 'hand'}"
        return "Game over"

    def board(self, width: int = WIDE) -> list[str]:
        """The state at a glance, as far as it has been told: the peg board, who deals,
        what each side needs."""
        rules, style = self.session.info.rules, self.table.style
        told = self.session.events[: self.told]
        dealt = next((e for e in reversed(told) if isinstance(e, Dealt)), None)
        sides = [self.table.side_name(side) for side in range(rules.sides)]
        pegs = pegs_of(told, rules.sides)
        board = list(zip(sides, pegs, strict=True))
        lines = board_lines(board, rules.target, rules.skunk_line, style, width)
        needs = ", ".join(
            f"{side} {rules.target - front}" for side, (front, _) in zip(sides, pegs, strict=True)
        )
        status = f"To go: {needs}. Skunk line {rules.skunk_line}."
        if dealt is not None:
            dealer = says(self.table.names[dealt.dealer], "deals")
            status = f"Round {dealt.round}: {dealer}. {status}"
        return lines + textwrap.wrap(status, max(width - 1, 20))

    def table_lines(self, board: bool = True) -> list[str]:
        """The table: the board (unless it stays on screen apart), the starter and the
        count, and your cards, sorted: those you hold, or at a count those you count."""
        seen = self.view
        style = self.table.style
        width = min(self.table.width or WIDE, WIDE - 1)  # a board that scrolls is small
        lines = self.board(width) if board else []
        if seen.starter is not None and seen.phase is not Phase.SHOW:
            pile = style.cards(seen.pile) if seen.pile else "-"
            lines.append(f"Starter {style.card(seen.starter)}   count {seen.count}: {pile}")
        if seen.phase is Phase.SHOW and seen.starter is not None:
            what, cards = ("crib", seen.crib) if seen.crib else ("hand", seen.kept)
            lines.append(
                f"Your {what}: {style.cards(sorted(cards))}, starter {style.card(seen.starter)}"
            )
        else:
            count = seen.count if seen.phase is Phase.PLAY else None
            lines.append(f"Your hand: {hand_line(sorted(seen.hand), count, style)}")
        return lines

    # --- what a line means ------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """Do what a typed line says. Returns an error to show (one line), or None.

        Raises Quit for ``quit``.
        """
        text = line.strip()
        if not text:
            return None
        word = text.split()[0].lower()
        command = COMMANDS.get(word)
        if command is not None:
            command.run(self)
            return None
        if not self.my_turn:
            return "it is not your turn"
        seen = self.view
        if seen.phase is Phase.SHOW and not re.fullmatch(r"[0-9]{1,3}", text):
            return "type the number of points you count, e.g. 12"
        if word == "go" and seen.phase is Phase.PLAY:
            cards = self.table.style.cards(playable(seen.hand, seen.count), sep=" or ")
            return f"you can still lay {cards}: go is said for you when no card fits"
        try:
            if seen.phase is Phase.SHOW:
                action: Discard | Play | Claim = Claim(self.seat, int(text))
            else:
                action = self._action(parse_cards(text))
            events = self.session.act(action)
        except CribbageError as error:
            return str(error)
        self.tell(events)
        return None

    def _action(self, cards: list[Card]) -> Discard | Play:
        seen = self.view
        if seen.phase is Phase.SHOW:
            raise CribbageError("type the number of points you count, e.g. 12")
        if seen.phase is Phase.DISCARD:
            return Discard(self.seat, tuple(cards))
        if len(cards) != 1:
            raise CribbageError(f"lay one card, not {len(cards)}")
        return Play(self.seat, cards[0])

    def completions(self) -> list[str]:
        """The cards worth offering now: the hand to discard from, or the playable cards."""
        seen = self.view
        if not self.my_turn:
            return []
        if seen.phase is Phase.DISCARD:
            return [str(card) for card in sorted(seen.hand)]
        if seen.phase is not Phase.PLAY:
            return []
        return [str(card) for card in sorted(playable(seen.hand, seen.count))]

    # --- commands -------------------------------------------------------------------

    def hint(self) -> None:
        """The best discard by the exact analysis, or the hard computer's play."""
        from cribcli.analysis import analyse
        from cribcli.players import Level, computer

        seen = self.view
        if seen.phase is Phase.DISCARD and self.my_turn:
            best = analyse(seen.hand, dealer=seen.is_dealer, players=seen.rules.players)[0]
            if self.as_json:
                self.emit({"event": "hint", **best.as_json()})
                return
            self.say(
                f"Hint: throw {self.table.style.cards(sorted(best.discard))}, keep "
                f"{self.table.style.cards(sorted(best.keep))} (hand {best.hand:.2f}, crib "
                f"{best.crib:.2f}, net {best.net:.2f})"
            )
        elif seen.phase is Phase.PLAY and self.my_turn:
            card = computer(Level.HARD, self.session.info.seed, self.seat).play(seen)
            if self.as_json:
                self.emit({"event": "hint", "lay": str(card)})
                return
            self.say(f"Hint: lay {self.table.style.card(card)}")
        elif seen.phase is Phase.SHOW:
            self.say("No hints at the count: fifteens, pairs, runs, flush, nobs.")
        else:
            self.say("Nothing to hint at now.")

    def show_hand(self) -> None:
        """Your cards, and what you threw."""
        seen = self.view
        self.say(f"Your hand: {self.table.style.cards(sorted(seen.hand))}")
        if seen.discards:
            self.say(f"In the crib from you: {self.table.style.cards(sorted(seen.discards))}")
        if seen.kept and seen.phase is Phase.PLAY:
            self.say(f"For the show: {self.table.style.cards(sorted(seen.kept))}")

    def show_score(self) -> None:
        """The scores."""
        for line in self.table_lines()[: self.view.rules.sides]:
            self.say(line)

    def show_log(self) -> None:
        """This round so far."""
        events = self.session.events[: self.told]
        start = max(i for i, e in enumerate(events) if isinstance(e, Dealt))
        for event in events[start:]:
            for line in narrate(event, self.table):
                self.say(line)

    def undo(self) -> None:
        """Take back your last move, and the answers to it (practice games, this round)."""
        from cribcli.games import no_takebacks

        why = no_takebacks(self.session.info)
        if why is None:
            try:
                taken = self.session.take_back(self.seat)
            except CribbageError as error:
                why = str(error)
            else:
                self.told = len(self.session.events)
                if self.as_json:
                    self.emit({"event": "taken_back", "moves": [self._move(a) for a in taken]})
                    return
                style = self.table.style
                parts = []
                for action in taken:
                    whose = "your" if action.seat == self.seat else self.table.whose(action.seat)
                    if isinstance(action, Play):
                        parts.append(f"{whose} {style.card(action.card)}")
                    elif isinstance(action, Discard):
                        shown = (
                            f" {style.cards(sorted(action.cards))}"
                            if action.seat == self.seat
                            else ""
                        )
                        parts.append(f"{whose} discard{shown}")
                    else:
                        parts.append(f"{whose} count")
                self.say(f"Taken back: {', '.join(parts)}.")
                return
        self.say(why)

    def show_help(self) -> None:
        """What can be typed."""
        self.say("Type cards (5H, 10D, TD, 5h) to discard or to lay, or a command:")
        for command in COMMANDS.values():
            self.say(f"  {command.name:<6} {command.help}")

    def quit(self) -> None:
        """Stop; the game is saved."""
        raise Quit


def _fitted(say: Callable[[str], None], width: Callable[[], int]) -> Callable[[str], None]:
    """``say``, each line wrapped at spaces (never mid-word) to the width the table has
    when it is said (a terminal can be resized)."""

    def fitted(text: str) -> None:
        for line in text.split("\n"):
            for part in fit(line, width()):
                say(part)

    return fitted


COMMANDS = {
    command.name: command
    for command in (
        Command("hint", "the best discard, or a good card to lay", GameUI.hint),
        Command("hand", "your cards", GameUI.show_hand),
        Command("score", "the scores", GameUI.show_score),
        Command("log", "this round so far", GameUI.show_log),
        Command("tips", "advice on playing well", lambda ui: ui.say(page(TIPS, ui.table.width))),
        Command("rules", "the rules in brief", lambda ui: ui.say(page(RULES, ui.table.width))),
        Command("undo", "take back your last move (practice games)", GameUI.undo),
        Command("review", "what your decisions in the last round cost", GameUI.show_review),
        Command("help", "this list", GameUI.show_help),
        Command("quit", "save the game and leave; it carries on next time", GameUI.quit),
    )
}
