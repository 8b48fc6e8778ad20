"""The seeded random stream every deal, shuffle and computer's draw comes from: the same
numbers on every Python version, platform and core (compiled with the hot modules: the
computers draw hundreds of thousands of numbers for a game's review)."""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


class SeededStream:
    """A random stream that gives the same numbers on every Python version and platform.

    The algorithm, fixed for all time because game logs and daily deals depend on it:

    * the key is the UTF-8 encoding of ``f"{seed}/{label}"`` (an integer seed is written
      in decimal);
    * block ``n`` (n = 0, 1, 2, ...) is ``SHA-256(key + b"/" + n as 8 bytes big-endian)``;
    * the blocks are concatenated and read 8 bytes at a time as big-endian unsigned
      64-bit integers ``x``;
    * ``below(n)`` draws ``x`` until ``x < 2**64 - (2**64 % n)`` and returns ``x % n``
      (rejection sampling, so every result is equally likely).
    """

    __slots__ = ("_block", "_buffer", "_key")

    def __init__(self, seed: int | str, label: str = "deck") -> None:
        self._key = f"{seed}/{label}".encode()
        self._block = 0
        self._buffer: list[int] = []  # the last block's numbers not yet drawn, next last

    def _next64(self) -> int:
        if not self._buffer:
            digest = _sha256()(self._key + b"/" + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._buffer = list(_four_numbers().unpack(digest))
            self._buffer.reverse()
        return self._buffer.pop()

    def below(self, n: int) -> int:
        """A whole number in ``range(n)``, each equally likely."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        """One of the items, each equally likely."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place by Fisher-Yates: for i from len-1 down to 1, swap i with below(i+1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` different items, in random order, each choice equally likely: the first
        ``k`` steps of Fisher-Yates, from the front, on a copy."""
        pool = list(items)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


def seed_digest(seed: int | str) -> str:
    """The promise of a game's deal, shown before the first card: ``sha256:`` and the
    SHA-256 of the seed as the stream takes it (its UTF-8, a number in decimal), in hex.
    Once the seed is shown, anyone can check it is the one promised, and deal every card
    from it."""
    digest: str = _sha256()(f"{seed}".encode()).hexdigest()
    return "sha256:" + digest


@cache
def _sha256() -> Callable[[bytes], Any]:
    """hashlib's SHA-256, loaded at the first draw: a command that never shuffles starts
    without OpenSSL's start-up."""
    import hashlib

    return hashlib.sha256


@cache
def _four_numbers() -> Any:
    """A block (a SHA-256 digest) read as four big-endian unsigned 64-bit integers
    (``struct``, loaded at the first draw as hashlib is)."""
    import struct

    return struct.Struct(">4Q")
