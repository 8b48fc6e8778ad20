"""Talking in the served room: ``say`` to those where you are, ``tell`` one person
anywhere, ``mute`` and ``unmute``; what may not reach whom is the room's to say."""

from __future__ import annotations

import re

from cribcli.club.wire import NAME, Told
from cribcli.rules.errors import CribbageError, printable
from cribcli.ui.serve.visitor import Visitor

MUTES_LIMIT = 100
"""The most people one person may mute."""


def talked(visitor: Visitor, text: str) -> bool:
    """``say``, ``tell``, ``mute`` and ``unmute``, wherever this person is: whether
    ``text`` was one of them."""
    word, _, rest = text.partition(" ")
    word, rest = word.lower(), rest.strip()
    if word not in ("say", "tell", "mute", "unmute"):
        return False
    if word in ("mute", "unmute"):
        mute(visitor, rest, word == "mute")
        return True
    if not rest or (word == "tell" and " " not in rest):
        raise CribbageError(f"what to say: `{'say TEXT' if word == 'say' else 'tell NAME TEXT'}`")
    if not visitor.room.may_talk(visitor.name):
        raise CribbageError("you talk faster than anyone can read: wait a moment")
    if word == "say":
        say_aloud(visitor, rest)
    else:
        whom, _, said = rest.partition(" ")
        tell(visitor, whom, said.strip())
    return True


def say_aloud(visitor: Visitor, text: str) -> None:
    """To the table (its players and watchers), from a player; to the other watchers
    only, from a watcher while the game runs; to the lobby, from the lobby."""
    room = visitor.room
    said = printable(text)
    table = visitor.table or visitor.watched
    if table is None:
        hearers = [
            v
            for v in room.visitors
            if v.table is None
            and v.watched is None
            and room.kept_apart(visitor.name, v.name) is None
        ]
        where = "in the lobby"
    elif visitor.watched is not None and table.started and not table.over:
        hearers = [v for v in room.watching(table) if table.seat_of(v.name) is None]
        where = "to the watchers"
    else:
        hearers = room.at(table) + room.watching(table)
        where = f"at table {table.number}"
    for hearer in hearers:
        if hearer.name == visitor.name:
            continue
        if not room.muted(hearer.name, visitor.name):
            hearer.tell([f"{visitor.name} says: {said}"])
    visitor.say(f"You say {where}: {said}")


def tell(visitor: Visitor, whom: str, text: str) -> None:
    room = visitor.room
    hearers = [v for v in room.visitors if v.name.lower() == whom.lower()]
    if not hearers and room.wire is not None and NAME.fullmatch(whom):
        room.later(tell_elsewhere(visitor, Told(visitor.name, whom, printable(text))))
        return
    if not hearers:
        raise CribbageError(f"nobody called `{printable(whom[:20])}` is here")
    apart = room.kept_apart(visitor.name, hearers[0].name)
    if apart is not None:
        raise CribbageError(apart)
    said = printable(text)
    if not room.muted(hearers[0].name, visitor.name):
        for hearer in hearers:
            hearer.tell([f"{visitor.name} tells you: {said}"])
    visitor.say(f"You tell {hearers[0].name}: {said}")


async def tell_elsewhere(visitor: Visitor, told: Told) -> None:
    """A ``tell`` for someone not here, sent to the club's server they are connected to."""
    wire = visitor.room.wire
    assert wire is not None
    if await wire.tell(told):
        visitor.tell([f"You tell {told.hearer}: {told.text}"])
    else:
        who = printable(told.hearer)
        visitor.tell([f"  nobody called `{who}` is here, nor on the club's other servers"])


def mute(visitor: Visitor, whom: str, mute: bool) -> None:
    room = visitor.room
    muted = room.mutes.setdefault(visitor.name.lower(), set())
    if not whom:
        listed = ", ".join(sorted(muted)) or "nobody"
        visitor.say(f"  muted: {printable(listed)}")
        return
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,19}", whom):
        raise CribbageError("mute a person by their name, e.g. `mute bob`")
    if mute:
        if len(muted) >= MUTES_LIMIT:
            raise CribbageError(f"you mute {MUTES_LIMIT} people already: `unmute` one first")
        muted.add(whom.lower())
        visitor.say(f"  What {whom} says no longer reaches you (`unmute {whom}` undoes it).")
    else:
        muted.discard(whom.lower())
        visitor.say(f"  What {whom} says reaches you again.")
