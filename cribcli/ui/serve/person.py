"""A person in the served room made whole: their screen (:class:`Visitor`) and their
words, wherever they are: talk first, then the game's words at a table, a watcher's, or
the lobby's."""

from __future__ import annotations

from cribcli.ui.seat import Command
from cribcli.ui.serve import lobby_words, table_words, talk
from cribcli.ui.serve.visitor import Visitor


class Person(Visitor):
    """A visitor who can do what the room offers."""

    async def line(self, text: str) -> bool:
        if talk.talked(self, text):
            return True
        if (self.seated or self.watching) and await lobby_words.anywhere(self, text):
            return True
        if self.seated is not None and self.seated.ui is not None:
            await table_words.at_game(self, text, self.seated.ui)
            return True
        if self.watching is not None:
            table_words.at_watch(self, text)
            return True
        return await lobby_words.in_lobby(self, text)

    def table_commands(self) -> dict[str, Command]:
        return table_words.table_commands(self)
