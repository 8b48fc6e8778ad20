"""A game between seats: ask each seat for its action, feed it to the engine, tell the
listeners what happened, and hand the log to be saved after every action.

No files here: saving is the caller's ``save`` callback (the store writes it atomically).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cribcli.engine import Action, Discard, Phase, Play, State, apply, new_game, seats_to_act, view
from cribcli.events import Event
from cribcli.players.base import Player
from cribcli.record import GameInfo, dumps


def next_action(state: State, players: Sequence[Player]) -> Action:
    """Ask the seat the game waits for (the first, during the discard) for its action."""
    seat = seats_to_act(state)[0]
    seen = view(state, seat)
    if state.phase is Phase.DISCARD:
        return Discard(seat, tuple(players[seat].discard(seen)))
    return Play(seat, players[seat].play(seen))


def run_game(
    info: GameInfo,
    players: Sequence[Player],
    *,
    on_event: Callable[[Event], None] | None = None,
    save: Callable[[str], None] | None = None,
) -> tuple[State, list[Event]]:
    """Play a game to its end; return the final state and every event.

    ``on_event`` hears each event as it happens; ``save`` gets the whole log as TOML text
    after every action, so a game stopped at any moment loses nothing.
    """
    state, events = new_game(info.rules, info.seed)
    history = list(events)
    for event in events:
        if on_event:
            on_event(event)
    if save:
        save(dumps(info, history))
    while state.phase is not Phase.OVER:
        state, events = apply(state, next_action(state, players))
        history.extend(events)
        for event in events:
            if on_event:
                on_event(event)
        if save:
            save(dumps(info, history))
    return state, history
