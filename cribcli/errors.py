"""The errors a user can cause. Each carries a message a player can read as it is.

The CLI turns them into one line on stderr and an exit status; nothing below the CLI
prints or exits.
"""


class CribbageError(ValueError):
    """Base of every error the user can cause."""


class CardError(CribbageError):
    """A token that is not a card."""


class HandError(CribbageError):
    """Cards that do not make a legal hand: a duplicate, the wrong number, no starter."""


class UsageProblem(CribbageError):
    """The command line asks for something that cannot be done as things stand (exit 2)."""
