"""The game as a person plays it: what the prompt asks, what a line typed means, what is
said back. The same controller drives the prompt_toolkit REPL and the plain line mode.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from cribcli.protocol.messages import view_json
from cribcli.record.session import Session
from cribcli.review.coach import Best, Review, best_at, joined, judge_round, lays_lost, review
from cribcli.review.luck import Luck, luck_of
from cribcli.rules.cards import Card, parse_cards
from cribcli.rules.engine import Claim, Discard, Phase, Play, View, playable, seats_to_act, view
from cribcli.rules.errors import CribbageError, printable
from cribcli.rules.events import Dealt, GameOver, RoundEnded
from cribcli.ui.board import board_lines, hand_line, pegs_of
from cribcli.ui.narrate import Table, narrate, says
from cribcli.ui.render import WIDE
from cribcli.ui.texts import TIPS, page, rules
from cribcli.ui.voice import Events, Voice, Words


class Quit(Exception):
    """The player asked to stop (the game is saved)."""


@dataclass(frozen=True, slots=True)
class Command:
    """A word the prompt understands besides cards."""

    name: str
    help: str
    run: Callable[[SeatUI], None]
    between_deals: bool = False
    """Whether it can be typed while a show is on screen, before the next deal is told
    (nothing that would show the next deal, or act in it)."""


class Coach:
    """A seat's decisions judged as the game goes: each round's once its show is over
    (and kept), the whole game's at its end; at a table of two, the other seat's too at
    the end, for the game's luck."""

    def __init__(self, session: Session, seat: int) -> None:
        self.session = session
        self.seat = seat
        self.reviewed: dict[int, Review] = {}
        """This seat's decisions, judged, by round."""
        self.game_review: Review | None = None
        """The whole game's, once summed up at its end."""
        self.hints: dict[View, Best | None] = {}
        """The best throw or lay at each decision hinted at, by the seat's view of it
        (worked out once; a server works it out off its event loop first)."""

    def judged(self, round_number: int) -> Review:
        """This seat's decisions in a round, judged (once, and kept)."""
        if round_number not in self.reviewed:
            self.reviewed[round_number] = judge_round(
                self.session.info, self.session.actions, self.seat, round_number
            )
        return self.reviewed[round_number]

    def whole(self) -> Review:
        """Every round's decisions together (kept as :attr:`game_review`)."""
        last = self.session.state.round
        self.game_review = joined([self.judged(number) for number in range(1, last + 1)])
        return self.game_review

    def luck(self) -> Luck | None:
        """The game's luck (a game of two), the lays' losses as judged: this seat's as
        the game went, the other's now."""
        if self.session.info.rules.players != 2:
            return None
        other = review(self.session.info, self.session.actions, 1 - self.seat)
        return luck_of(self.session.events, lays_lost([self.whole(), other]))


class SeatUI:
    """One person's seat at the table: prompts, commands, narration."""

    def __init__(
        self,
        session: Session,
        seat: int,
        table: Table,
        *,
        say: Callable[[str], None],
        as_json: bool = False,
        coach: bool = False,
        pausing: bool = False,
        commands: Mapping[str, Command] | None = None,
    ) -> None:
        self.session = session
        self.seat = seat
        self.table = table
        words = Words(lambda: self.table, say, seat)
        self.voice: Voice = Events(say, seat) if as_json else words
        """Everything this seat is told goes through it: words, or JSON events."""
        self.say = self.voice.line
        """Tell the player a line: wrapped to the table's width (if it has one), or in
        JSON mode as a ``message`` event."""
        self.commands: Mapping[str, Command] = COMMANDS if commands is None else commands
        """The words this prompt understands besides cards: its help and its dispatch."""
        self.pausing = pausing
        """Stop telling after each round's show, until :meth:`next_deal` (the REPL waits
        for Enter there, so that the show can be read); else go straight on."""
        self.between_deals = False
        """A round's show has been told and the next deal has not (when pausing)."""
        self.told = len(session.events)
        """How many of the session's events have been told (a new game's first deal is
        told by the caller): the board shows the game as far as it has been told."""
        self.rows: int | None = None
        """How many lines fit on the screen above the prompt (None: no screen, a pipe):
        a long text is shown a screenful at a time."""
        self.more: list[str] = []
        """The rest of a long text, shown a screenful at a time on Enter."""
        self.coach = Coach(session, seat)
        self.coaching = coach
        """After each show, say what this seat's costly decisions of the round lost."""
        self.promised = False
        """The deal's promise was shown to this seat (:meth:`promise`): its seed is told
        as the narration reaches the game's end, after the last cards and the result."""

    def promise(self) -> None:
        """Show the deal's promise (where someone else deals: a served table, the daily
        game); the seed follows when the game is told to its end."""
        self.voice.promise(self.session.info.promise)
        self.promised = True

    # --- what happens ------------------------------------------------------------------

    def tell(self) -> None:
        """Say what has happened since last told, from this seat's side of the table;
        when pausing, stop after a round's show (:meth:`next_deal` goes on)."""
        events = self.session.events
        while self.told < len(events) and not self.between_deals:
            number = self.told
            event = events[number]
            self.told = number + 1
            self.voice.happened(events, number)
            if isinstance(event, RoundEnded) and self.coaching:
                self._coach_round(event.round)
            if isinstance(event, GameOver) and self.coaching:
                self._coach_game()
            if isinstance(event, GameOver) and self.promised:
                info = self.session.info
                self.voice.revealed(info.seed, info.promise)
            if isinstance(event, RoundEnded) and self.pausing:
                self.between_deals = True

    def next_deal(self) -> None:
        """After a show: go on, and tell the next deal."""
        self.between_deals = False
        self.tell()

    # --- the coach ---------------------------------------------------------------------

    def _coach_round(self, round_number: int) -> None:
        """After a show: each of the round's decisions that lost more than a slip."""
        for decision in self.coach.judged(round_number).decisions:
            if decision.costly:
                self.voice.coach(decision)

    def _coach_game(self) -> None:
        """At the end of the game: the last round's costly decisions (it had no show to
        follow, or the game ended in it), then what all the decisions lost, and where to
        see them."""
        self._coach_round(self.session.state.round)
        self.voice.coach_summary(self.coach.whole(), self.coach.luck(), self.session.info)

    def show_review(self) -> None:
        """The decisions of the last round whose show is over, each with what it lost."""
        last = self._last_ended()
        if last is None:
            self.say("Nothing to review yet: a round's decisions are judged once its show is over.")
            return
        self.voice.review(self.coach.judged(last), self.session.info)

    def _last_ended(self) -> int | None:
        """The last round whose show this seat has been told (or the last, once the game
        is over)."""
        if self.session.over:
            return self.session.state.round
        ended = [e.round for e in self.session.events[: self.told] if isinstance(e, RoundEnded)]
        return ended[-1] if ended else None

    # --- searches another process may do first (a server's) ----------------------------

    def hint_to_work_out(self) -> View | None:
        """This seat's view of the decision ``hint`` would be about now, if its hint is
        not worked out yet: a server has :func:`~cribcli.review.coach.best_at` worked out
        elsewhere and kept in :attr:`Coach.hints`, then ``hint`` only says it."""
        seen = self.view
        return seen if self._hinting(seen) and seen not in self.coach.hints else None

    def _hinting(self, seen: View) -> bool:
        """Whether there is a decision of this seat's to hint at."""
        return seen.phase in (Phase.DISCARD, Phase.PLAY) and self.my_turn

    def round_to_review(self) -> int | None:
        """The round ``review`` would judge now, if it is not judged yet (a server has
        it judged elsewhere and kept in :attr:`Coach.reviewed`)."""
        last = self._last_ended()
        return None if last is None or last in self.coach.reviewed else last

    def say_long(self, text: str) -> None:
        """A text of :mod:`cribcli.ui.texts`, wrapped to the screen's width; on a screen too
        small for it, a screenful at a time (Enter shows the next)."""
        lines = page(text, self.table.width).split("\n")
        if self.rows is not None and len(lines) > self.rows:
            lines, self.more = lines[: self.rows - 1], lines[self.rows - 1 :]
            lines.append(f"  ({len(self.more)} more lines: press Enter)")
        for line in lines:
            self.say(line)

    def show_more(self) -> None:
        """The next screenful of a long text."""
        rest, self.more = self.more, []
        self.say_long("\n".join(rest))

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

    def run_computers(self) -> None:
        """Let the computers act until it is this seat's turn or the game is over."""
        while True:
            if self.session.computer_step() is None:
                return
            self.tell()

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
        return self.pegs(width) + textwrap.wrap(self.status(), max(width - 1, 20))

    def pegs(self, width: int = WIDE) -> list[str]:
        """The peg board, as far as the game has been told."""
        rules = self.session.info.rules
        sides = [self.table.side_name(side) for side in range(rules.sides)]
        pegs = pegs_of(self.session.events[: self.told], rules.sides)
        board = list(zip(sides, pegs, strict=True))
        return board_lines(board, rules.target, rules.skunk_line, self.table.style, width)

    def status(self) -> str:
        """``Round 3: Computer deals. To go: You 105, Computer 103. Skunk line 91.``"""
        rules = self.session.info.rules
        told = self.session.events[: self.told]
        pegs = pegs_of(told, rules.sides)
        needs = ", ".join(
            f"{self.table.side_name(side)} {rules.target - front}"
            for side, (front, _) in enumerate(pegs)
        )
        status = f"To go: {needs}. Skunk line {rules.skunk_line}."
        dealt = next((e for e in reversed(told) if isinstance(e, Dealt)), None)
        if dealt is not None:
            dealer = says(self.table.names[dealt.dealer], "deals")
            status = f"Round {dealt.round}: {dealer}. {status}"
        return status

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
        """Do what a typed line says. Returns an error to show (one line), or None: what
        the person typed is escaped in it, and the cards it names are styled, ready to
        print as it is.

        Raises Quit for ``quit``.
        """
        text = line.strip()
        more, self.more = self.more, []  # typing anything else stops a long text
        if not text:
            if more:
                self.more = more
                self.show_more()
            return None
        word = text.split()[0].lower()
        command = self.commands.get(word)
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
            self.session.act(action)
        except CribbageError as error:
            return printable(str(error))
        self.tell()
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
        """The best throw or card to lay by the measure ``review`` judges them by, and
        why, in a few words."""
        seen = self.view
        if not self._hinting(seen):
            said = "No hints at the count: fifteens, pairs, runs, flush, nobs."
            self.say(said if seen.phase is Phase.SHOW else "Nothing to hint at now.")
            return
        what = "throw" if seen.phase is Phase.DISCARD else "lay"
        if seen not in self.coach.hints:
            self.coach.hints[seen] = best_at(seen, self.session.info.seed)
        best = self.coach.hints[seen]
        if best is None:  # no hand the others could hold fits what was seen
            self.say("No hint: what was laid fits no hand the others could hold.")
            return
        self.voice.hint(what, best, seen)

    def show_hand(self) -> None:
        """Your cards, and what you threw."""
        seen = self.view
        self.say(f"Your hand: {self.table.style.cards(sorted(seen.hand))}")
        if seen.discards:
            self.say(f"In the crib from you: {self.table.style.cards(sorted(seen.discards))}")
        if seen.kept and seen.phase is Phase.PLAY:
            self.say(f"For the show: {self.table.style.cards(sorted(seen.kept))}")

    def show_score(self) -> None:
        """The scores, plainly: ``You 9, Computer 14; you need 112``."""
        rules = self.view.rules
        pegs = pegs_of(self.session.events[: self.told], rules.sides)
        scores = self.table.scores([front for front, _ in pegs])
        need = rules.target - pegs[rules.side_of(self.seat)][0]
        self.say(f"{scores}; you need {need}.")

    def show_log(self) -> None:
        """This round so far."""
        events = self.session.events[: self.told]
        start = max(i for i, e in enumerate(events) if isinstance(e, Dealt))
        for event in events[start:]:
            for line in narrate(event, self.table):
                self.say(line)

    def undo(self) -> None:
        """Take back your last move, and the answers to it (practice games, this round)."""
        from cribcli.services.games import no_takebacks

        why = no_takebacks(self.session.info)
        if why is None:
            try:
                taken = self.session.take_back(self.seat)
            except CribbageError as error:
                why = str(error)
            else:
                self.told = len(self.session.events)
                self.voice.taken_back(taken)
                return
        self.say(why)

    def show_help(self) -> None:
        """What can be typed."""
        self.say("Type cards (5H, 10D, TD, 5h) to discard or to lay, or a command:")
        width = max(len(name) for name in self.commands)
        for command in self.commands.values():
            self.say(f"  {command.name:<{width}} {command.help}")

    def quit(self) -> None:
        """Stop; the game is saved."""
        raise Quit


COMMANDS = {
    command.name: command
    for command in (
        Command("hint", "the best throw or card to lay, and why", SeatUI.hint),
        Command("hand", "your cards", SeatUI.show_hand),
        Command("score", "the scores", SeatUI.show_score, between_deals=True),
        Command("log", "this round so far", SeatUI.show_log, between_deals=True),
        Command("tips", "advice on playing well", lambda ui: ui.say_long(TIPS), True),
        Command(
            "rules",
            "the rules in brief",
            lambda ui: ui.say_long(rules(ui.view.rules.target)),
            between_deals=True,
        ),
        Command("undo", "take back your last move (practice games)", SeatUI.undo),
        Command("review", "what your decisions in the last round cost", SeatUI.show_review),
        Command("help", "this list", SeatUI.show_help, between_deals=True),
        Command("quit", "save the game and leave; it carries on next time", SeatUI.quit, True),
    )
}
"""The words ``play``'s prompt understands besides cards: its help, its dispatch, its
completion, and what may be typed between deals."""
