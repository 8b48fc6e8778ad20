"""Plain line mode: the game read from lines of input (a pipe or a script), told as plain
text, or as JSON lines for another program. No colour, no cursor movement, no pauses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from cribcli.errors import printable
from cribcli.store import LINE_LIMIT, bounded_lines
from cribcli.ui.play import GameUI


class ScriptError(Exception):
    """A line of the script could not be used: its number and the reason."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(f"line {number}: {reason}")


def run_lines(ui: GameUI, lines: TextIO, say: Callable[[str], None]) -> bool:
    """Play from ``lines`` until the game ends (True) or the lines do (False: the caller
    says what became of the game).

    Each time the game waits for this seat, the table is shown (in JSON mode, the whole
    decision: :meth:`GameUI.decision`). A line that cannot be used raises ScriptError
    (in JSON mode it is answered with an ``error`` event, and the question is asked
    again: a program can correct itself). Raises Quit for ``quit``.
    """
    source = iter(enumerate(bounded_lines(lines), start=1))
    while True:
        ui.run_computers()
        if ui.session.over:
            return True
        _ask(ui, table=True)
        for number, line in source:
            if len(line.rstrip("\n")) > LINE_LIMIT:
                error: str | None = f"longer than {LINE_LIMIT} characters"
            else:
                text = line.split("#", 1)[0].strip()
                if not text:
                    continue
                if not ui.as_json:
                    say(f"> {printable(text)}")
                before = len(ui.session.events)
                error = ui.handle(text)
                if error is None and len(ui.session.events) != before:
                    break  # the game moved on: the computers play, then the table again
            if error is not None:
                if not ui.as_json:
                    raise ScriptError(number, error)
                ui.emit({"event": "error", "line": number, "message": error})
            if ui.session.over or not ui.my_turn:
                break
            _ask(ui, table=False)  # a command, or an error: the question stands
        else:
            if ui.as_json:
                ui.emit({"event": "stopped", "reason": "end of input"})
            return False


def _ask(ui: GameUI, *, table: bool) -> None:
    """What the game waits for, after the table (unless it was just shown)."""
    if ui.as_json:
        ui.emit(ui.decision())
        return
    if table:
        ui.say("")
        for line in ui.table_lines():
            ui.say(line)
    ui.say(f"{ui.prompt()}:")
