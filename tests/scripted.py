"""Moves for a scripted game: what a person at seat 0 types, found by playing the game
through the engine with the same computer the command will face."""

from __future__ import annotations

from cribcli.players import computer
from cribcli.players.easy import EasyPlayer
from cribcli.record.session import next_action
from cribcli.rules.engine import (
    Claim,
    Discard,
    Phase,
    Play,
    Rules,
    apply,
    new_game,
    seats_to_act,
    view,
)
from cribcli.rules.events import RoundEnded


def moves(
    seed: int | str,
    level: str = "normal",
    players: int = 2,
    target: int = 121,
    *,
    enter: bool = False,
    muggins: bool = False,
    miss: int = 0,
) -> list[str]:
    """Every line a person types for a whole game (seat 0 plays like the easy computer).

    With ``enter``, an empty line where the REPL waits for Enter (after a show).
    With ``muggins``, the person counts each hand and crib, ``miss`` points short.
    """
    rules = Rules(players=players, target=target, cut_for_deal=players > 2, muggins=muggins)
    seats = [EasyPlayer(seed, 0)] + [computer(level, seed, s) for s in range(1, players)]
    state, _ = new_game(rules, seed)
    typed: list[str] = []
    shown = False
    while state.phase is not Phase.OVER:
        action = next_action(state, seats)
        if action.seat == 0:
            if enter and shown:
                typed.append("")
                shown = False
            seen = view(state, 0)
            if isinstance(action, Claim):
                action = Claim(0, max(action.points - miss, 0))
                typed.append(str(action.points))
            elif isinstance(action, Discard):
                typed.append(" ".join(str(card) for card in action.cards))
            elif isinstance(action, Play):
                typed.append(str(action.card).lower() if len(seen.plays) % 2 else str(action.card))
        state, events = apply(state, action)
        shown = shown or any(isinstance(e, RoundEnded) for e in events)
    assert seats_to_act(state) == ()
    return typed
