"""The prompt_toolkit REPL: card completion, history, a score bar, Ctrl-C and Ctrl-D."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import is_dumb_terminal

from cribcli.errors import printable
from cribcli.store import reason
from cribcli.ui.play import COMMANDS, GameUI, Quit


class CardCompleter(Completer):
    """Offers the cards that make sense now (never one already typed), then commands."""

    def __init__(self, ui: GameUI) -> None:
        self.ui = ui

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        word = document.get_word_before_cursor(WORD=True)
        before = document.text_before_cursor[: len(document.text_before_cursor) - len(word)]
        typed = {token.upper() for token in before.split()}
        options = [card for card in self.ui.completions() if card not in typed]
        if not before.strip():
            options += list(COMMANDS)
        for option in options:
            if option.lower().startswith(word.lower()):
                yield Completion(option, start_position=-len(word))


def say(line: str) -> None:
    """Print a line that may hold colour codes, through prompt_toolkit."""
    print_formatted_text(ANSI(line))


class KeptHistory(FileHistory):
    """The REPL's history in a file; if the file cannot be read or written (a read-only or
    full state folder), the game goes on with the history of this session only."""

    def __init__(self, path: Path, warn: Callable[[str], None]) -> None:
        super().__init__(str(path))
        self.path = path
        self.warn = warn
        self.working = True

    def load_history_strings(self) -> Iterable[str]:
        try:
            return list(super().load_history_strings())
        except (OSError, ValueError) as error:  # ValueError: not UTF-8
            self._fails(error)
            return []

    def store_string(self, string: str) -> None:
        if not self.working:
            return
        try:
            super().store_string(string)
        except OSError as error:
            self._fails(error)

    def _fails(self, error: Exception) -> None:
        if self.working:
            self.working = False
            why = reason(error) if isinstance(error, OSError) else "not UTF-8 text"
            self.warn(f"cannot keep the prompt's history in {self.path} ({why}): play goes on")


def history_in(path: Path | None, warn: Callable[[str], None]) -> History:
    """The prompt's history: kept in ``path`` if it can be, else for this session only."""
    if path is None:
        return InMemoryHistory()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        warn(f"cannot keep the prompt's history in {path} ({reason(error)}): play goes on")
        return InMemoryHistory()
    return KeptHistory(path, warn)


def run_repl(
    ui: GameUI,
    history: Path | None = None,
    *,
    warn: Callable[[str], None] = lambda line: None,
    input: Input | None = None,
    output: Output | None = None,
) -> bool:
    """Play at the prompt until the game ends (True); raises Quit on quit or Ctrl-D.

    The board stays on screen below the prompt, drawn to the terminal's width; after
    each show the game waits for Enter before the next deal."""
    store = history_in(history, warn)
    session: PromptSession[str] = PromptSession(
        history=store,
        completer=CardCompleter(ui),
        complete_while_typing=False,
        input=input,
        output=output,
        bottom_toolbar=lambda: ANSI("\n".join(ui.board(_width(session)))),
        style=_STYLE,
    )
    ui.wait = lambda: _after_show(ui, session)
    board_below = not is_dumb_terminal()  # a dumb terminal draws no toolbar: the board scrolls
    shown_at = -1  # how many events had happened when the table was last drawn
    while True:
        ui.table = replace(ui.table, width=_width(session))  # the terminal may be resized
        ui.run_computers()
        if ui.session.over:
            return True
        if shown_at != len(ui.session.events):
            shown_at = len(ui.session.events)
            ui.say("")
            for line in ui.table_lines(board=not board_below):
                ui.say(line)
        text = _line(session, f"{ui.prompt()}> ")
        error = ui.handle(text)
        if error:
            ui.say(f"  {printable(error)}")


_BETWEEN_DEALS = ("score", "log", "rules", "tips", "help", "quit")
"""What can be done while the show is on screen (the next deal is not told yet: nothing
that would show it, or act in it)."""

_STYLE = Style.from_dict({"bottom-toolbar": "noreverse"})
"""The board below the prompt in the terminal's own colours, not reversed."""


def _width(session: PromptSession[str]) -> int:
    return session.app.output.get_size().columns


def _after_show(ui: GameUI, session: PromptSession[str]) -> None:
    """Wait for Enter before the next deal; a command (score, quit...) works here too."""
    if ui.session.over:
        return
    while True:
        text = _line(session, "Press Enter for the next deal> ")
        if not text.strip():
            return
        if text.split()[0].lower() in _BETWEEN_DEALS:
            ui.handle(text)
        else:
            ui.say("  press Enter for the next deal (or score, log, rules, tips, help, quit)")


def _line(session: PromptSession[str], message: str) -> str:
    """One line from the prompt: Ctrl-C cancels it (asks again), Ctrl-D leaves."""
    while True:
        try:
            return session.prompt(message)
        except KeyboardInterrupt:
            continue
        except EOFError:
            raise Quit from None
