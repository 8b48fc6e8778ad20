"""Plain line mode: the game read from lines of input (a pipe or a script), told as plain
text, or as JSON lines for another program. No colour, no cursor movement, no pauses.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TextIO

from cribcli.engine import Phase
from cribcli.store import LINE_LIMIT, bounded_lines
from cribcli.ui.play import GameUI
from cribcli.ui.render import printable


class ScriptError(Exception):
    """A line of the script could not be used: its number and the reason."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(f"line {number}: {reason}")


def run_lines(ui: GameUI, lines: TextIO, say: Callable[[str], None]) -> bool:
    """Play from ``lines`` until the game ends (True) or the lines do (False: the caller
    says what became of the game).

    Raises ScriptError for a line that cannot be used, and Quit for ``quit``.
    """
    source = iter(enumerate(bounded_lines(lines), start=1))
    while True:
        ui.run_computers()
        if ui.session.over:
            return True
        _ask(ui, say)
        for number, line in source:
            if len(line.rstrip("\n")) > LINE_LIMIT:
                raise ScriptError(number, f"longer than {LINE_LIMIT} characters")
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            if not ui.as_json:
                say(f"> {printable(text)}")
            error = ui.handle(text)
            if error:
                raise ScriptError(number, error)
            if ui.my_turn and not ui.session.over:
                # a command (hint, hand...) leaves the question open
                say(
                    json.dumps({"event": "prompt", "prompt": ui.prompt()})
                    if ui.as_json
                    else f"{ui.prompt()}:"
                )
                continue
            break
        else:
            if ui.as_json:
                say(json.dumps({"event": "stopped", "reason": "end of input"}))
            return False


def _ask(ui: GameUI, say: Callable[[str], None]) -> None:
    """Show the table and what the game waits for."""
    if ui.as_json:
        seen = ui.view
        say(
            json.dumps(
                {
                    "event": "prompt",
                    "waiting_for": "discard" if seen.phase is Phase.DISCARD else "play",
                    "prompt": ui.prompt(),
                    "hand": [str(card) for card in seen.hand],
                    "playable": ui.completions(),
                    "count": seen.count,
                    "scores": list(seen.scores),
                }
            )
        )
        return
    say("")
    for line in ui.table_lines():
        say(line)
    say(f"{ui.prompt()}:")
