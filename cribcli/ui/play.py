"""The game as a person plays it: what the prompt asks, what a line typed means, what is
said back. The same controller drives the prompt_toolkit REPL and the plain line mode.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from cribcli.cards import Card, parse_cards
from cribcli.engine import Claim, Discard, Phase, Play, View, playable, view
from cribcli.errors import CribbageError
from cribcli.events import Dealt, Event, RoundEnded, event_json
from cribcli.session import Session
from cribcli.ui.narrate import Table, narrate, says
from cribcli.ui.render import hand_line, score_bar
from cribcli.ui.texts import RULES, TIPS


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
    ) -> None:
        self.session = session
        self.seat = seat
        self.table = table
        self.say = say
        self.pause = pause
        self.as_json = as_json
        self.round_over = False
        """Set when a show has just been counted: the REPL waits for Enter."""

    # --- what happens ------------------------------------------------------------------

    def tell(self, events: list[Event]) -> None:
        """Say what happened, from this seat's side of the table."""
        for event in events:
            if self.as_json:
                self.say(json.dumps(self._public_json(event)))
                continue
            for line in narrate(event, self.table):
                self.say(line)
            if isinstance(event, RoundEnded):
                self.round_over = True

    def _public_json(self, event: Event) -> dict[str, object]:
        data = event_json(event)
        if isinstance(event, Dealt):
            data["hands"] = [
                [str(c) for c in hand] if seat == self.seat else len(hand)
                for seat, hand in enumerate(event.hands)
            ]
        elif data["event"] in ("discarded", "crib_from_deck") and data.get("seat") != self.seat:
            data.pop("cards", None)
            data.pop("card", None)
        return data

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
        return self.session.waiting_for == self.seat

    def prompt(self) -> str:
        """What the game waits for: ``Put 2 in the crib``, ``Your play, count 17``, or
        (under muggins) ``Count your hand, 5H 5S JD 4C with 5D``."""
        seen = self.view
        if seen.phase is Phase.DISCARD:
            return f"Put {seen.rules.discard_size} in the crib"
        if seen.phase is Phase.PLAY:
            return f"Your play, count {seen.count}"
        if seen.phase is Phase.SHOW and seen.starter is not None:
            style = self.table.style
            what, cards = ("crib", seen.crib) if seen.crib else ("hand", seen.kept)
            return f"Count your {what}, {style.cards(cards)} with {style.card(seen.starter)}"
        return "Game over"

    def table_lines(self) -> list[str]:
        """The table: scores, the starter, the count, the crib's owner, your hand."""
        seen = self.view
        style = self.table.style
        sides = [self.table.side_name(side) for side in range(seen.rules.sides)]
        lines = score_bar(sides, seen.scores, seen.rules.target, style)
        crib = "your" if seen.dealer == self.seat else self.table.whose(seen.dealer)
        dealer = says(self.table.names[seen.dealer], "deals")
        lines.append(f"Round {seen.round}: {dealer}, {crib} crib")
        if seen.starter is not None:
            pile = style.cards(seen.pile) if seen.pile else "-"
            lines.append(f"Starter {style.card(seen.starter)}   count {seen.count}: {pile}")
        count = seen.count if seen.phase is Phase.PLAY else None
        lines.append(f"Your hand: {hand_line(seen.hand, count, style)}")
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
        if seen.phase is Phase.SHOW and not text.isdigit():
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
            return [str(card) for card in seen.hand]
        if seen.phase is not Phase.PLAY:
            return []
        return [str(card) for card in playable(seen.hand, seen.count)]

    # --- commands -------------------------------------------------------------------

    def hint(self) -> None:
        """The best discard by the exact analysis, or the hard computer's play."""
        from cribcli.analysis import analyse
        from cribcli.players import Level, computer

        seen = self.view
        if seen.phase is Phase.SHOW:
            self.say("No hints at the count: fifteens, pairs, runs, flush, nobs.")
        elif seen.phase is Phase.DISCARD:
            best = analyse(seen.hand, dealer=seen.is_dealer, players=seen.rules.players)[0]
            self.say(
                f"Hint: throw {self.table.style.cards(best.discard)}, keep "
                f"{self.table.style.cards(best.keep)} (hand {best.hand:.2f}, crib "
                f"{best.crib:.2f}, net {best.net:.2f})"
            )
        elif seen.phase is Phase.PLAY and self.my_turn:
            card = computer(Level.HARD, self.session.info.seed, self.seat).play(seen)
            self.say(f"Hint: lay {self.table.style.card(card)}")
        else:
            self.say("Nothing to hint at now.")

    def show_hand(self) -> None:
        """Your cards, and what you threw."""
        seen = self.view
        self.say(f"Your hand: {self.table.style.cards(seen.hand)}")
        if seen.discards:
            self.say(f"In the crib from you: {self.table.style.cards(seen.discards)}")
        if seen.kept and seen.phase is Phase.PLAY:
            self.say(f"For the show: {self.table.style.cards(seen.kept)}")

    def show_score(self) -> None:
        """The scores."""
        for line in self.table_lines()[: self.view.rules.sides]:
            self.say(line)

    def show_log(self) -> None:
        """This round so far."""
        events = self.session.events
        start = max(i for i, e in enumerate(events) if isinstance(e, Dealt))
        for event in events[start:]:
            for line in narrate(event, self.table):
                self.say(line)

    def show_help(self) -> None:
        """What can be typed."""
        self.say("Type cards (5H, 10D, TD, 5h) to discard or to lay, or a command:")
        for command in COMMANDS.values():
            self.say(f"  {command.name:<6} {command.help}")

    def quit(self) -> None:
        """Stop; the game is saved."""
        raise Quit


COMMANDS = {
    command.name: command
    for command in (
        Command("hint", "the best discard, or a good card to lay", GameUI.hint),
        Command("hand", "your cards", GameUI.show_hand),
        Command("score", "the scores", GameUI.show_score),
        Command("log", "this round so far", GameUI.show_log),
        Command("tips", "advice on playing well", lambda ui: ui.say(TIPS)),
        Command("rules", "the rules in brief", lambda ui: ui.say(RULES)),
        Command("help", "this list", GameUI.show_help),
        Command("quit", "save the game and leave; it carries on next time", GameUI.quit),
    )
}
