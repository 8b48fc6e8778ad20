"""Plain line mode: the game read from lines of input (a pipe or a script), told as plain
text, or as JSON lines for another program. No colour, no cursor movement, no pauses.
"""

from __future__ import annotations

from typing import TextIO

from cribcli.record.store import LINE_LIMIT, bounded_lines
from cribcli.ui.seat import SeatUI


def run_lines(ui: SeatUI, lines: TextIO) -> bool:
    """Play from ``lines`` until the game ends (True) or the lines do (False: the caller
    says what became of the game).

    Each time the game waits for this seat, the table is shown (in JSON mode, the whole
    decision: :meth:`SeatUI.decision`). A line that cannot be used raises ScriptError
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
                ui.voice.typed(text)
                before = len(ui.session.events)
                error = ui.handle(text)
                if error is None and len(ui.session.events) != before:
                    break  # the game moved on: the computers play, then the table again
            if error is not None:
                ui.voice.refused(number, error)
            if ui.session.over or not ui.my_turn:
                break
            _ask(ui, table=False)  # a command, or an error: the question stands
        else:
            ui.voice.stopped()
            return False


def _ask(ui: SeatUI, *, table: bool) -> None:
    """What the game waits for, after the table (unless it was just shown)."""
    ui.voice.asked(ui.prompt(), ui.table_lines() if table else [], ui.decision())
