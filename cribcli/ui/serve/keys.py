"""The line editor's keys, fed from the SSH channel with no file descriptor between.

prompt_toolkit's own inputs read a file descriptor: a connection fed through its pipe
input held three descriptors (the socket and the pipe's two ends), and the reader checks
the pipe with ``select()``, which fails past descriptor 1024, so one server stopped at
about 250 people. This input is a queue in memory that the channel's data fills, and it
wakes the editor with a call on the event loop: a connection holds its socket alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable, Generator
from contextlib import AbstractContextManager

from prompt_toolkit.input import typeahead
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress

KEYS_WAITING = 4096
"""The most keys a connection may have waiting for its editor (a pipe held about 64 KiB):
past it, the person types faster than the table can read."""


_NUMBERS = itertools.count(1)
"""Each channel input's own number."""


class TooManyKeys(Exception):
    """More keys are waiting than the editor will read (:data:`KEYS_WAITING`)."""


class ChannelInput(PipeInput):
    """Keys sent by the channel (:meth:`send_text`), read by the line editor in the same
    event loop; the editor is woken by a call scheduled on the loop, not by a descriptor."""

    def __init__(self) -> None:
        self._hash = f"channel-{next(_NUMBERS)}"  # (never an id(): ids are used again)
        self._keys: list[KeyPress] = []
        self._parser = Vt100Parser(self._keys.append)
        self._ready: Callable[[], None] | None = None
        self._woken = False
        self._closed = False

    def send_text(self, data: str) -> None:
        """The client's keys, already checked by the guard. Raises :class:`TooManyKeys`
        when the editor is that far behind."""
        if self._closed:
            return
        self._parser.feed(data)
        if len(self._keys) > KEYS_WAITING:
            raise TooManyKeys
        self._wake()

    def send_bytes(self, data: bytes) -> None:
        self.send_text(data.decode("utf-8", "replace"))

    def _wake(self) -> None:
        if self._ready is None or self._woken:
            return
        self._woken = True
        asyncio.get_running_loop().call_soon(self._call_ready)

    def _call_ready(self) -> None:
        self._woken = False
        if self._ready is not None:
            self._ready()

    def read_keys(self) -> list[KeyPress]:
        keys = self._keys[:]
        self._keys.clear()
        return keys

    def flush_keys(self) -> list[KeyPress]:
        self._parser.flush()
        return self.read_keys()

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """No more keys: the editor, woken, sees the input closed and stops."""
        self._closed = True
        # prompt_toolkit keeps the keys typed ahead in a table of its own, by input, for
        # as long as the process runs: this one's entry goes with it.
        getattr(typeahead, "_buffer", {}).pop(self._hash, None)
        with contextlib.suppress(RuntimeError):  # (no loop running: nobody to wake)
            self._wake()

    def fileno(self) -> int:
        raise NotImplementedError("keys from an SSH channel have no file descriptor")

    def typeahead_hash(self) -> str:
        """Whose keys typed ahead (past an Enter) prompt_toolkit keeps for the next
        prompt: this connection's own, never another's."""
        return self._hash

    def raw_mode(self) -> AbstractContextManager[None]:
        return contextlib.nullcontext()

    def cooked_mode(self) -> AbstractContextManager[None]:
        return contextlib.nullcontext()

    def attach(self, input_ready_callback: Callable[[], None]) -> AbstractContextManager[None]:
        return self._reading(input_ready_callback)

    def detach(self) -> AbstractContextManager[None]:
        return self._reading(None)

    @contextlib.contextmanager
    def _reading(self, ready: Callable[[], None] | None) -> Generator[None, None, None]:
        """While inside, ``ready`` is woken for keys (None: nobody is); keys that came
        while nobody read wake it at once, and so does the input closed."""
        previous, self._ready = self._ready, ready
        if self._keys or self._closed:
            self._wake()
        try:
            yield
        finally:
            self._ready = previous
