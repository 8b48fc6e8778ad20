"""What one connection may send, checked before anything else sees it: keys past the
longest line are dropped, every key counts against a rate, and so do lines and window
changes. Pure (the time is given), so that it is tested without sockets.

The rates are token buckets: a person may paste a line or two at once (the burst), and
type on at any human speed for ever; a program that floods runs the bucket dry and is
told why. A person typing at 10 keys a second never comes near either limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

KEYS_A_SECOND = 100.0
"""Keys a second a connection may send, on average."""
KEYS_AT_ONCE = 1_000
"""Keys it may send at once (a pasted line or a few)."""
OUTPUT_LIMIT = 1 << 18
"""Bytes of a connection's output that may wait unsent (256 KiB): a client that has
stopped reading is closed, not fed."""
STUCK_LIMIT = 120.0
"""Seconds a connection's output may wait unsent without any of it being taken."""


_STARTS_AGAIN = frozenset("\r\n\x03\x15")
"""Enter, Ctrl-C and Ctrl-U: the line is empty again."""
_RUBS_OUT = frozenset("\x08\x7f")
_NOT_TEXT = "\ufffd"
"""What the connection makes of bytes that are not UTF-8 (its decoder replaces them)."""
"""Backspace (either code): one key fewer in the line."""


class Flood(Exception):
    """More than a connection may send: why, in a few words."""


@dataclass
class Bucket:
    """A token bucket: ``size`` at once, refilled at ``rate`` a second."""

    rate: float
    size: float
    level: float | None = None
    """Tokens left (None before the first use: full)."""
    when: float = 0.0

    def take(self, count: float, now: float) -> bool:
        """Take ``count`` tokens at time ``now``; False if there are not so many (then
        the bucket is empty: a flood does not refill it at once)."""
        level = self.size if self.level is None else self.level
        level = min(self.size, level + max(0.0, now - self.when) * self.rate) - count
        self.when = now
        self.level = max(level, 0.0)
        return level >= 0


@dataclass
class KeyGuard:
    """One connection's keys: :meth:`keys` gives what may reach the line editor."""

    line: int
    """The longest line: keys past it are dropped until the next Enter."""
    lines_a_second: float
    """Lines (and window changes) a second, on average; three seconds' worth at once."""
    keys: Bucket = field(default_factory=lambda: Bucket(KEYS_A_SECOND, KEYS_AT_ONCE))
    lines: Bucket = field(init=False)
    length: int = 0
    """Keys in the line being typed (kept ones)."""
    dropped: int = 0
    """Keys dropped past the longest line, all told."""
    undecodable: int = 0
    """Bytes dropped that were not UTF-8 text (each came as U+FFFD), all told."""

    def __post_init__(self) -> None:
        self.lines = Bucket(self.lines_a_second, 3 * self.lines_a_second)

    def keys_in(self, data: str, now: float) -> str:
        """What of ``data`` (sent at ``now``) the editor may see. Raises Flood."""
        if not self.keys.take(len(data), now):
            raise Flood("typing faster than anyone types")
        # Enter, and Ctrl-C (which starts the prompt again: as dear as a line)
        ends = data.count("\r") + data.count("\n") - data.count("\r\n") + data.count("\x03")
        if ends and not self.lines.take(ends, now):
            raise Flood("too many lines at once")
        kept = []
        for key in data:
            if key == _NOT_TEXT:
                self.undecodable += 1
                continue
            if key in _STARTS_AGAIN:
                self.length = 0
            elif key in _RUBS_OUT:
                self.length = max(0, self.length - 1)
            elif key < " ":
                pass  # other controls (an arrow's escape) put nothing in the line
            elif self.length >= self.line:
                self.dropped += 1
                continue
            else:
                self.length += 1
            kept.append(key)
        return "".join(kept)

    def resized(self, now: float) -> None:
        """A window change. Raises Flood."""
        if not self.lines.take(1, now):
            raise Flood("too many window changes")


@dataclass
class OutputWatch:
    """One connection's output waiting unsent, looked at now and then: over
    :data:`OUTPUT_LIMIT`, or some waiting and none of it taken for :data:`STUCK_LIMIT`
    seconds, and the client has stopped reading."""

    limit: int = OUTPUT_LIMIT
    stuck_limit: float = STUCK_LIMIT
    stuck_since: float | None = None
    last: int = 0

    def stopped_reading(self, waiting: int, now: float) -> bool:
        """Whether the client has stopped reading, ``waiting`` bytes unsent at ``now``."""
        if waiting == 0 or waiting < self.last:
            self.stuck_since = None
        elif self.stuck_since is None:
            self.stuck_since = now
        self.last = waiting
        stuck = self.stuck_since is not None and now - self.stuck_since > self.stuck_limit
        return waiting > self.limit or stuck
