"""The errors a user can cause. Each carries a message a player can read as it is.

The CLI turns them into one line on stderr and an exit status; nothing below the CLI
prints or exits.
"""

from enum import IntEnum


class CribbageError(ValueError):
    """Base of every error the user can cause."""


class CardError(CribbageError):
    """A token that is not a card."""


class HandError(CribbageError):
    """Cards that do not make a legal hand: a duplicate, the wrong number, no starter."""


class UsageProblem(CribbageError):
    """The command line asks for something that cannot be done as things stand (exit 2)."""


def printable(text: str) -> str:
    """Text read from a file, a pipe or a program, safe to print: every character that is
    not printable (escape sequences, newlines, other controls, direction overrides) is
    written as its escape, ``\\x1b``, ``\\n``, ``\\u202e``, so that nothing read can
    move the cursor, change the terminal or forge a line."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


class Exit(IntEnum):
    """The program's exit statuses (the manual's EXIT STATUS)."""

    OK = 0
    DATA = 1
    """Bad data, or a game that could not be kept where it belongs."""
    USAGE = 2
    UNCHECKED = 3
    """``verify``: a log from before games promised their deal, which cannot be checked."""
    INTERRUPTED = 130
    """Ctrl-C (SIGINT): 128 + 2."""

    @staticmethod
    def signalled(signum: int) -> int:
        """The status for a stop by signal ``signum``: 128 + it (SIGTERM 143, SIGHUP 129)."""
        return 128 + signum
