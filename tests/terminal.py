"""A game in a real pseudo-terminal (pexpect), for the tests that need one: started as a
person would start it, and read until it waits for them."""

from __future__ import annotations

import os
import re
import time

import pexpect

PROMPT = (
    r"(Put \d in the crib>|Your play, count \d+>|Press Enter for the next deal>"
    r"|Another game\? \[Y/n\]:|\[[a-z]+\]:|\[Y/n\]:|\[y/N\]:)"
)
"""What the game says when it waits for the person (prompt_toolkit draws a prompt's
trailing space as a cursor move: matched without it)."""
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""A terminal's control sequence."""
HANG = 120.0
"""Seconds of waiting that can only be a hang (a ceiling, never a measure)."""


def environment(home: str) -> dict[str, str]:
    """What a person's terminal has: UTF-8, colour, 80 columns; the games in ``home``."""
    env = {
        **os.environ,
        "CRIBBAGE_HOME": home,
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "COLUMNS": "80",
        "LINES": "30",
    }
    env.pop("NO_COLOR", None)
    return env


def drawn(text: str) -> str:
    """A pattern for ``text`` as prompt_toolkit draws it: a key at a time, with escape
    codes between the letters."""
    return "(?:\x1b\\[[0-9;?]*[A-Za-z])*".join(re.escape(letter) for letter in text)


def settle(child: pexpect.spawn[str], timeout: float = HANG, *, raw: bool = False) -> str:
    """Read until the program waits at a prompt with nothing more to say; the text read
    (without control sequences, unless ``raw``).

    prompt_toolkit redraws its prompt as keys arrive, and the board below it, so waiting
    for the prompt's words alone could match a stale drawing: wait for the output to go
    quiet with a prompt the last thing asked (not the prompt that waits for the computer).
    ``timeout`` is a ceiling that only catches a hang.
    """
    text = ""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            text += child.read_nonblocking(100_000, timeout=0.3)
        except pexpect.TIMEOUT:
            asked = list(re.finditer(PROMPT + "|waiting for ", ANSI.sub("", text)))
            if asked and asked[-1].group() != "waiting for ":
                return text if raw else ANSI.sub("", text)
        except pexpect.EOF:
            return text if raw else ANSI.sub("", text)
    raise AssertionError(f"no prompt: {ANSI.sub('', text)[-300:]!r}")
