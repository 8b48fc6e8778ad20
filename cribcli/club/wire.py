"""What the servers of one club say to each other through their shared PostgreSQL store:
a ``tell`` for a person connected to another server, by PostgreSQL's own LISTEN/NOTIFY (no
other program to run: the database every server already reaches carries it, to the
servers listening at that moment, in the order sent).

Each server keeps one connection listening. Its process in the database is the server's
mark in the store's list of who is connected where (:meth:`Club.present`): when a server
dies its connection goes, and the people it held are nowhere at once, with no timer to
wait for. A lost database is listened to again as soon as it is back, and everyone here is
noted afresh.

A message read is untrusted: bounded, its shape checked, and anything else dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from cribcli.club.database import LISTENER, Club
from cribcli.club.engines import CONNECT_TIME
from cribcli.rules.errors import printable

CHANNEL = "cribbage_tell"
"""The channel every server of a club listens on."""
PAYLOAD_LIMIT = 4000
"""The most bytes of a message between servers (PostgreSQL's own limit is 8000)."""
TEXT_LIMIT = 1000
"""The most characters of what is told."""
AGAIN_FIRST, AGAIN_MOST = 0.5, 30.0
"""Seconds between tries to listen again after the database went away: the first wait,
doubled up to the longest."""
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,19}")


@dataclass(frozen=True, slots=True)
class Told:
    """A ``tell`` from a person on another server."""

    speaker: str
    hearer: str
    text: str


def message(told: Told, home: str) -> str:
    """A ``tell`` as it goes between servers: what is told shortened, never the message,
    until it fits."""
    text = told.text[:TEXT_LIMIT]
    while True:
        data = {"from": told.speaker, "to": told.hearer, "text": text, "home": home}
        payload = json.dumps(data, ensure_ascii=False)
        if len(payload.encode()) <= PAYLOAD_LIMIT:
            return payload
        text = text[: len(text) * 3 // 4]


def read_message(payload: str, home: str) -> Told | None:
    """A message between servers, if it is a ``tell`` from another server, well formed."""
    if len(payload.encode()) > PAYLOAD_LIMIT:
        return None
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("home") == home:
        return None
    speaker, hearer, text = data.get("from"), data.get("to"), data.get("text")
    if not (isinstance(speaker, str) and isinstance(hearer, str) and isinstance(text, str)):
        return None
    if not (NAME.fullmatch(speaker) and NAME.fullmatch(hearer)):
        return None
    return Told(speaker, hearer, printable(text[:TEXT_LIMIT]))


class Wire:
    """This server's line to the other servers of its club."""

    def __init__(
        self,
        club: Club,
        address: str,
        heard: Callable[[Told], None],
        here: Callable[[], list[str]],
        told: Callable[[str], None],
    ) -> None:
        self.club = club
        self.address = address
        self.heard = heard
        """What to do with a ``tell`` for someone here."""
        self.here = here
        """Who is connected here, to note afresh when the line is made."""
        self.told = told
        """The operator's log."""
        self.server: str | None = None
        """The listening connection, as the database names it (None while it is lost)."""
        self.listening: asyncio.Task[None] | None = None
        self.arrivals: asyncio.Queue[str] = asyncio.Queue()
        """The names whose connections came or went, to note in the store in turn."""
        self.noting: asyncio.Task[None] | None = None

    @property
    def home(self) -> str:
        assert self.club.home is not None
        return self.club.home

    async def start(self) -> None:
        """Listen, from now until :meth:`close`: first connection made before this
        returns (an unreachable database is told, and tried again, meanwhile)."""
        ready = asyncio.Event()
        self.listening = asyncio.create_task(self._listen(ready))
        self.noting = asyncio.create_task(self._note())
        await ready.wait()

    async def close(self) -> None:
        for task in (self.listening, self.noting):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _listen(self, ready: asyncio.Event) -> None:
        import psycopg

        wait, lost = AGAIN_FIRST, False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.address, autocommit=True, connect_timeout=CONNECT_TIME
                ) as db:
                    await db.execute(f"LISTEN {CHANNEL}")
                    cursor = await db.execute(
                        f"SELECT {LISTENER} FROM pg_stat_activity WHERE pid = pg_backend_pid()"
                    )
                    row = await cursor.fetchone()
                    assert row is not None
                    self.server = str(row[0])
                    await asyncio.to_thread(self.club.all_present, self.here(), self.server)
                    if lost:
                        self.told("the other servers of the club are heard again")
                    wait, lost = AGAIN_FIRST, False
                    ready.set()
                    async for note in db.notifies():
                        found = read_message(note.payload, self.home)
                        if found is not None:
                            self.heard(found)
            except Exception as error:
                self.server = None
                if not lost:
                    said = " ".join(str(error).split())[:200]
                    self.told(f"the other servers of the club are not heard ({said}): trying again")
                    lost = True
                ready.set()
            await asyncio.sleep(wait)
            wait = min(wait * 2, AGAIN_MOST)

    def came_or_went(self, name: str) -> None:
        """A connection of ``name``'s came or went: whether they are here is noted in the
        store (in turn, as it is then, so that a quick return is never noted as gone)."""
        self.arrivals.put_nowait(name)

    async def _note(self) -> None:
        while True:
            name = await self.arrivals.get()
            if self.server is None:
                continue  # (noted with everyone when the line is made again)
            here = any(person.lower() == name.lower() for person in self.here())
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.club.present, name, self.server, here)

    async def tell(self, told: Told) -> bool:
        """A ``tell`` for a person who is not here: sent if they are connected to another
        server of the club. Whether it was."""
        if self.server is None:
            return False
        try:
            if not await asyncio.to_thread(self.club.elsewhere, told.hearer):
                return False
            await asyncio.to_thread(self.club.notify, CHANNEL, message(told, self.home))
        except Exception:
            return False
        return True
