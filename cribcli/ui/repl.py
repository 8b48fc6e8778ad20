"""The prompt_toolkit REPL: card completion, history, the board below the prompt the
whole time (the computers play while the prompt waits), Ctrl-C and Ctrl-D."""

from __future__ import annotations

import asyncio
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.application import in_terminal
from prompt_toolkit.application.current import create_app_session, get_app_session
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI, to_formatted_text
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.renderer import print_formatted_text
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import is_dumb_terminal

from cribcli.record.store import reason
from cribcli.rules.engine import seats_to_act
from cribcli.rules.errors import printable
from cribcli.ui.seat import Quit, SeatUI


class CardCompleter(Completer):
    """Offers the cards that make sense now (never one already typed), then commands."""

    def __init__(self, ui: SeatUI) -> None:
        self.ui = ui

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        word = document.get_word_before_cursor(WORD=True)
        before = document.text_before_cursor[: len(document.text_before_cursor) - len(word)]
        typed = {token.upper() for token in before.split()}
        options = [card for card in self.ui.completions() if card not in typed]
        if not before.strip():
            options += list(self.ui.commands)
        for option in options:
            if option.lower().startswith(word.lower()):
                yield Completion(option, start_position=-len(word))


class TableOutput(Vt100_Output):
    """A terminal's output for a prompt with the board below it, which draws the board at
    once: never after asking the terminal where its cursor is, a question whose answer
    comes a round trip later (prompt_toolkit asks again after every line told above the
    prompt, and until the answer comes it leaves the board out: over SSH, a blink a line)."""

    def get_rows_below_cursor_position(self) -> int:
        return 1  # known: the prompt and the board take the rows they need below it


def terminal_output() -> Output:
    """The output for the prompt on this process's terminal."""
    term = os.environ.get("TERM")
    return TableOutput.from_pty(sys.stdout, term=term, default_color_depth=ColorDepth.from_env())


def say(line: str) -> None:
    """Print a line that may hold colour codes, through prompt_toolkit's output: straight
    away, so only when no prompt is drawn, or above it (in ``in_terminal``)."""
    output = get_app_session().output
    print_formatted_text(output, to_formatted_text(ANSI(line + "\n")), TOOLBAR_STYLE)
    output.flush()


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
    ui: SeatUI,
    history: Path | None = None,
    *,
    pace: float = 0.0,
    warn: Callable[[str], None] = lambda line: None,
    input: Input | None = None,
    output: Output | None = None,
) -> bool:
    """Play at the prompt until the game ends (True); raises Quit on quit or Ctrl-D, and
    KeyboardInterrupt on Ctrl-C while the computer plays.

    The board stays on screen below the prompt, drawn to the terminal's width, the whole
    time: the computers play (``pace`` seconds between their moves) while the prompt
    waits, and what is typed meanwhile is taken in order once the game waits for you.
    After each show the game waits for Enter before the next deal."""
    board_below = output is not None or not is_dumb_terminal()
    if output is None and board_below:  # (a dumb one gets prompt_toolkit's plain prompt)
        output = terminal_output()
    prompt: PromptSession[str] = PromptSession(
        history=history_in(history, warn),
        completer=CardCompleter(ui),
        complete_while_typing=False,
        input=input,
        output=output,
        bottom_toolbar=lambda: ANSI("\n".join(ui.board(_width(prompt)))),
        style=TOOLBAR_STYLE,
    )
    ui.pausing = True
    with create_app_session(input=input, output=output):  # what is said goes there too
        return asyncio.run(_Repl(ui, prompt, pace, board_below).run())


TOOLBAR_STYLE = Style.from_dict({"bottom-toolbar": "noreverse"})
"""The board below the prompt in the terminal's own colours, not reversed."""


def _width(session: PromptSession[str]) -> int:
    return session.app.output.get_size().columns


class _Repl:
    """One game at the prompt: the person's lines, and the computers' moves between them."""

    def __init__(
        self, ui: SeatUI, prompt: PromptSession[str], pace: float, board_below: bool
    ) -> None:
        self.ui = ui
        self.prompt = prompt
        self.pace = pace
        self.board_below = board_below
        """Whether the board stays below the prompt (a dumb terminal draws no toolbar: the
        board scrolls with the table, and the computers play with no prompt up)."""
        self.typed_ahead: deque[str] = deque()
        """Lines typed while the computers played, taken in order when the game waits."""
        self.unfinished = ""
        """What was being typed when the computers finished: the next prompt keeps it."""
        self.shown_at = -1
        """How many events had happened when the table was last drawn."""
        self.waited_out = False
        """The prompt ended because the computers were done, not for a line typed."""

    async def run(self) -> bool:
        ui = self.ui
        while True:
            self._fit_to_screen()
            if ui.session.over:
                return True
            if not ui.between_deals and ui.session.computers_turn:
                await self._computers_play()
                continue
            self._show_table()
            if self.typed_ahead:
                text = self.typed_ahead.popleft()
                if text.strip():
                    ui.say(f"{self._message()}{printable(text)}")  # as if typed at this prompt
            else:
                text = await self._line(self._message()) or ""
            self._handle(text)

    def _fit_to_screen(self) -> None:
        """What is said is wrapped to the terminal's width, and a long text shown a
        screenful at a time: the rows above the prompt and the board (it may be resized)."""
        ui, size = self.ui, self.prompt.app.output.get_size()
        ui.table = replace(ui.table, width=size.columns)
        board = len(ui.board(size.columns)) if self.board_below else 0
        ui.rows = max(size.rows - board - 2, 5)

    def _message(self) -> str:
        if self.ui.between_deals:
            return "Press Enter for the next deal> "
        return f"{self.ui.prompt()}> "

    def _show_table(self) -> None:
        """The table above the prompt, when the game waits for you and it has moved on."""
        ui = self.ui
        if ui.between_deals or self.shown_at == len(ui.session.events):
            return
        self.shown_at = len(ui.session.events)
        ui.say("")
        for line in ui.table_lines(board=not self.board_below):
            ui.say(line)

    def _handle(self, text: str) -> None:
        ui = self.ui
        if ui.between_deals:  # the next deal is dealt, not told: nothing may act in it
            word = text.split()[0].lower() if text.strip() else ""
            between = [c.name for c in ui.commands.values() if c.between_deals]
            if not word and not ui.more:
                ui.next_deal()
            elif not word or word in between:
                ui.handle(text)
            else:
                ui.say(f"  press Enter for the next deal (or {', '.join(between)})")
            return
        error = ui.handle(text)
        if error:
            ui.say(f"  {error}")

    async def _computers_play(self) -> None:
        """The computers play until the game waits for you (or a show is to be read, or
        the game is over), with the prompt and the board up the whole time; a line typed
        meanwhile waits its turn."""
        if not self.board_below:  # a dumb terminal: no prompt to keep up, nothing to redraw
            await self._moves()
            return
        moves = asyncio.ensure_future(self._moves())
        try:
            while not moves.done():
                text = await self._line("waiting for " + self._whom() + "> ", until=moves)
                if text is not None:
                    self.typed_ahead.append(text)
            moves.result()
        finally:
            moves.cancel()

    def _whom(self) -> str:
        ui = self.ui
        seats = [s for s in seats_to_act(ui.session.state) if s != ui.seat]
        return ", ".join(ui.table.names[seat] for seat in seats) or "the computer"

    async def _moves(self) -> None:
        ui = self.ui
        while not ui.between_deals and ui.session.computers_turn:
            await asyncio.sleep(self.pace)
            # decided in a thread: an engine may take its time, and the prompt answers meanwhile
            step = asyncio.get_running_loop().run_in_executor(None, ui.session.computer_step)
            try:
                stepped = await asyncio.shield(step)
            except asyncio.CancelledError:
                await step  # its move is made (and saved) before the game is left
                raise
            if stepped is None:
                return
            async with in_terminal():
                ui.tell()
        if not ui.session.over and ui.my_turn:
            async with in_terminal():
                self._show_table()

    async def _line(self, message: str, until: asyncio.Future[None] | None = None) -> str | None:
        """One line from the prompt. Ctrl-C cancels it and asks again, or while the
        computers play (``until`` they are done, which ends the prompt with None) leaves;
        Ctrl-D leaves."""
        while True:
            default, self.unfinished = self.unfinished, ""
            self.waited_out = False
            self.prompt.app.erase_when_done = until is not None  # a line typed ahead: told later
            if until is not None:
                until.add_done_callback(self._end_waiting)
            try:
                text = await self.prompt.prompt_async(
                    message,
                    default=default,
                    pre_run=None if until is None else lambda: self._end_waiting(until),
                )
                return None if self.waited_out else text
            except KeyboardInterrupt:
                if until is not None and not self.prompt.default_buffer.text:
                    raise  # while the computers play, on an empty line: leave, saved
                continue  # clear the line, and ask again
            except EOFError:
                raise Quit from None
            finally:
                if until is not None:
                    until.remove_done_callback(self._end_waiting)

    def _end_waiting(self, until: asyncio.Future[None]) -> None:
        """The computers are done: the prompt that waited for them ends, keeping what was
        being typed for the next."""
        app = self.prompt.app
        if until.done() and app.future is not None and not app.future.done():
            self.unfinished = self.prompt.default_buffer.text
            self.waited_out = True
            app.exit(result="")
