"""What the person at the terminal is told on standard error: warnings, one line each,
anything read from a file or a pipe in it escaped; and the progress of a long task."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from cribcli.rules.errors import printable

Progress = Callable[[int, int], None]
"""Hears how much of a task is done: (done, of)."""


def warn(line: str) -> None:
    """``cribbage: LINE`` on standard error."""
    print(f"cribbage: {printable(line)}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def progress(label: str, *, after: float = 0.0, least: int = 0) -> Iterator[Progress]:
    """A progress bar on standard error while the block runs, for the task that reports
    to the :data:`Progress` given: only on a terminal, only for a task of ``least`` steps
    or more, and only once it has taken ``after`` seconds (a quick task shows none)."""
    began = time.monotonic()
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def tell(done: int, of: int) -> None:
            if not bars:
                if of < least or not sys.stderr.isatty() or time.monotonic() - began < after:
                    return
                import click

                bar = click.progressbar(length=of, label=label, file=sys.stderr)
                bars.append(stack.enter_context(bar))
            bars[0].update(done - bars[0].pos)

        yield tell


StageProgress = Callable[[int, int, str], None]
"""Hears how much of a stage of a task is done, and what the stage counts: (done, of,
what)."""


@contextlib.contextmanager
def stages(label: str, *, least: int = 0) -> Iterator[StageProgress]:
    """A progress bar for each stage of a task, labelled with what it counts (``Playing
    qualifying games``), a new one when the stage changes: only on a terminal, only for
    a stage of ``least`` steps or more."""
    with contextlib.ExitStack() as stack:
        shown: list[tuple[str, Any]] = []

        def tell(done: int, of: int, what: str) -> None:
            if not shown or shown[-1][0] != what:
                if shown:
                    stack.close()  # the stage before, ended where it was
                if of < least or not sys.stderr.isatty():
                    shown.append((what, None))
                    return
                import click

                bar = click.progressbar(length=of, label=f"{label} {what}", file=sys.stderr)
                shown.append((what, stack.enter_context(bar)))
            bar = shown[-1][1]
            if bar is not None:
                bar.update(done - bar.pos)

        yield tell
