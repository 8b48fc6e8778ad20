"""Warnings for the person at the terminal: one line on standard error, anything read
from a file or a pipe in it escaped."""

from __future__ import annotations

import sys

from cribcli.errors import printable


def warn(line: str) -> None:
    """``cribbage: LINE`` on standard error."""
    print(f"cribbage: {printable(line)}", file=sys.stderr, flush=True)
