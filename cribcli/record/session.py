"""A game between seats: ask each seat for its action, feed it to the engine, tell the
listeners what happened, and hand the log to be saved after every action.

No files here: saving is the caller's ``save`` callback (the store writes it atomically).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from cribcli.players.base import Player, PlayerFailed
from cribcli.record.log import GameInfo, GameLog, begin, dumps
from cribcli.record.replay import replay
from cribcli.rules.cards import Card
from cribcli.rules.engine import (
    Action,
    Claim,
    Discard,
    Forfeit,
    Phase,
    Play,
    State,
    View,
    apply,
    seats_to_act,
    showing,
    view,
)
from cribcli.rules.errors import CribbageError
from cribcli.rules.events import Event


def next_action(state: State, players: Sequence[Player]) -> Action:
    """Ask the seat the game waits for (the first, during the discard) for its action."""
    seat = seats_to_act(state)[0]
    return _asked(state, players[seat], seat)


def _asked(state: State, player: Player, seat: int) -> Action:
    if state.phase is Phase.SHOW:
        # The computer always counts its own hand and crib right.
        return Claim(seat, showing(state).total)
    seen = view(state, seat)
    if state.phase is Phase.DISCARD:
        return Discard(seat, tuple(player.discard(seen)))
    return Play(seat, player.play(seen))


def decide(state: State, player: Player, seat: int) -> Action:
    """What ``player``, a computer or an engine in ``seat`` (one the game waits for), does
    now: its action, or a forfeit if it fails. Changes nothing."""
    try:
        return _asked(state, player, seat)
    except PlayerFailed as failure:
        return Forfeit(seat, failure.reason)


def run_game(
    info: GameInfo,
    players: Sequence[Player],
    *,
    on_event: Callable[[Event], None] | None = None,
    save: Callable[[str], None] | None = None,
) -> tuple[State, list[Event]]:
    """Play a game between computers to its end; return the final state and every event.

    ``on_event`` hears each event as it happens; ``save`` gets the whole log as TOML text
    after every action, so a game stopped at any moment loses nothing.
    """
    session = Session.start(info, dict(enumerate(players)), save)
    heard = 0
    while True:
        if on_event:
            for event in session.events[heard:]:
                on_event(event)
            heard = len(session.events)
        if session.over:
            return session.state, session.events
        session.computer_step()


class Session:
    """A game in progress between a person (or several) and computer seats.

    The person's actions come from outside (:meth:`act`); the computers' come from
    :meth:`computer_step`. After every action the whole log goes to ``save``.
    """

    def __init__(
        self,
        info: GameInfo,
        state: State,
        events: list[Event],
        computers: dict[int, Player],
        save: Callable[[str], None] | None = None,
        actions: list[Action] | None = None,
    ) -> None:
        self.info = info
        self.state = state
        self.events = events
        self.computers = computers
        self._save = save
        self.actions = actions if actions is not None else []
        """Every action taken so far, in order (the game is these, folded)."""

    @classmethod
    def start(
        cls,
        info: GameInfo,
        computers: dict[int, Player],
        save: Callable[[str], None] | None = None,
    ) -> Session:
        """A new game."""
        state, events = begin(info)
        session = cls(info, state, list(events), computers, save)
        session.save()
        session.tell(events)
        return session

    @classmethod
    def resume(
        cls,
        log: GameLog,
        computers: dict[int, Player],
        save: Callable[[str], None] | None = None,
    ) -> Session:
        """A game carried on from its log (raises LogError if the log is wrong)."""
        replayed = replay(log)
        assert replayed.state is not None
        return cls(log.info, replayed.state, replayed.events, computers, save, replayed.actions)

    def save_to(self, save: Callable[[str], None] | None) -> None:
        """From now on, save with ``save`` (None: nowhere; the game was put away)."""
        self._save = save

    def save(self) -> None:
        """Hand the whole log to the saver."""
        if self._save:
            self._save(dumps(self.info, self.events))

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.phase is Phase.OVER

    def computer_to_act(self) -> int | None:
        """A computer's seat the game waits for (during the discard, any of them)."""
        return next((s for s in seats_to_act(self.state) if s in self.computers), None)

    @property
    def waiting_for(self) -> int | None:
        """The seat the game waits for, or None when it is over."""
        seats = seats_to_act(self.state)
        return seats[0] if seats else None

    def act(self, action: Action) -> list[Event]:
        """Take an action (raises IllegalAction, changing nothing, if it is not legal)."""
        self.state, events = apply(self.state, action)
        self.events.extend(events)
        self.actions.append(action)
        self.save()
        self.tell(events)
        return events

    def tell(self, events: Sequence[Event]) -> None:
        """Tell the players that listen what happened."""
        for player in self.computers.values():
            hear = getattr(player, "hear", None)  # (a Listener: a program at the table)
            if hear is not None:
                hear(events)

    def take_back(self, seat: int) -> list[Action]:
        """Take back the seat's last action of this round, and every action after it (the
        other seats' answers); the game is as it was before it. Returns what was taken
        back. Raises CribbageError if the seat has not acted this round, or if its last
        action was the discard and the starter has been cut since: what is seen stays
        seen, so a discard stands once the starter is turned."""
        state, events = begin(self.info)
        before: list[tuple[State, int]] = []  # the state before each action, events so far
        for action in self.actions:
            before.append((state, len(events)))
            state, more = apply(state, action)
            events.extend(more)
        last = next(
            (
                i
                for i in range(len(self.actions) - 1, -1, -1)
                if self.actions[i].seat == seat and before[i][0].round == self.state.round
            ),
            None,
        )
        if last is None:
            raise CribbageError("nothing of yours to take back in this round")
        if before[last][0].starter is None and self.state.starter is not None:
            raise CribbageError("the starter is turned: your discard stands")
        taken = self.actions[last:]
        self.state, told = before[last]
        self.events = events[:told]
        self.actions = self.actions[:last]
        self.info = replace(self.info, takebacks=self.info.takebacks + 1)
        self.save()
        return taken

    @property
    def computers_turn(self) -> bool:
        """Whether the seat the game waits for first is a computer's (at the discard, the
        seats act from the dealer's left)."""
        return self.waiting_for in self.computers

    def computer_step(self) -> list[Event] | None:
        """Let the computer the game waits for act; None if it waits for a person."""
        seat = self.waiting_for
        if seat is None or seat not in self.computers:
            return None
        return self.act(decide(self.state, self.computers[seat], seat))

    def players(self) -> list[Player]:
        """A player for every seat (a person's stands in, never asked)."""
        return [self.computers.get(seat, _NOBODY) for seat in range(self.info.rules.players)]


class _Nobody:
    """Stands in a person's seat in the list of players; never asked."""

    def discard(self, view: View) -> tuple[Card, ...]:
        raise AssertionError("a person's seat was asked to discard")  # pragma: no cover

    def play(self, view: View) -> Card:
        raise AssertionError("a person's seat was asked to play")  # pragma: no cover


_NOBODY = _Nobody()
