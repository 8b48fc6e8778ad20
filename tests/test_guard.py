"""What one served connection may send, without sockets (the guard's clock is given)."""

from __future__ import annotations

import pytest

from cribcli.ui.serve.guard import KEYS_AT_ONCE, OUTPUT_LIMIT, Bucket, Flood, KeyGuard, OutputWatch


def test_a_person_typing_is_never_stopped() -> None:
    guard = KeyGuard(line=200, lines_a_second=20)
    now = 0.0
    for _ in range(3_000):  # ten keys a second for five minutes, a line every 20 keys
        now += 0.1
        assert guard.keys_in("x", now) == "x"
        if int(now * 10) % 20 == 0:
            assert guard.keys_in("\r", now) == "\r"
    assert guard.dropped == 0


def test_keys_past_the_longest_line_are_dropped_until_enter() -> None:
    guard = KeyGuard(line=5, lines_a_second=20)
    assert guard.keys_in("abcdefgh", 0.0) == "abcde"
    assert guard.keys_in("\x7f\x7fxyz", 1.0) == "\x7f\x7fxy"  # two rubbed out: two more
    assert guard.keys_in("\r" + "12345678", 3.0) == "\r12345"  # a new line, a new limit
    assert guard.keys_in("\x03abc", 4.0) == "\x03abc"  # Ctrl-C empties the line too
    assert guard.dropped == 3 + 1 + 3
    assert KeyGuard(line=5, lines_a_second=20).keys_in("\x1b\x1b\x1bab", 0.0) == "\x1b\x1b\x1bab"


def test_a_paste_passes_and_a_flood_is_told() -> None:
    guard = KeyGuard(line=200, lines_a_second=20)
    assert len(guard.keys_in("5H JD\r" * 10, 0.0)) == 60  # ten lines pasted at once
    attack = "\x03" * 799 + "\r"  # the attack that froze the server, 15 times a second
    with pytest.raises(Flood, match="too many lines"):  # each Ctrl-C starts the prompt again
        KeyGuard(line=200, lines_a_second=20).keys_in(attack, 0.0)
    letters = "a" * 799 + "\r"  # the same with letters: dropped past 200, then too fast
    guard = KeyGuard(line=200, lines_a_second=20)
    assert guard.keys_in(letters, 0.0) == "a" * 200 + "\r"
    with pytest.raises(Flood, match="typing faster than anyone types"):
        guard.keys_in(letters, 1 / 15)
    with pytest.raises(Flood):  # and stays empty: the next keys at once are refused too
        guard.keys_in("x" * 150, 1 / 15)
    with pytest.raises(Flood, match="typing faster"):
        KeyGuard(line=200, lines_a_second=20).keys_in("x" * 24_000, 0.0)  # one write, 24 KB


def test_the_attack_is_closed_within_a_moment() -> None:
    """799 keys and Enter, 15 times a second: within the old line and line-rate limits,
    but far over the keys' rate; told within the first tenth of a second."""
    guard = KeyGuard(line=200, lines_a_second=20)
    sent = 0
    with pytest.raises(Flood):
        for n in range(150):
            guard.keys_in("a" * 79 + "\r", n / 150)
            sent += 80
    assert sent <= KEYS_AT_ONCE + 100


def test_lines_and_window_changes_have_a_rate() -> None:
    guard = KeyGuard(line=200, lines_a_second=2)
    guard.keys_in("\r" * 6, 0.0)  # three seconds' worth at once
    with pytest.raises(Flood, match="too many lines"):
        guard.keys_in("\r", 0.0)
    guard = KeyGuard(line=200, lines_a_second=2)
    for n in range(6):
        guard.resized(n * 0.001)
    with pytest.raises(Flood, match="too many window changes"):
        guard.resized(0.01)
    guard.resized(10.0)  # later, room again


def test_a_bucket_refills_at_its_rate_and_no_further() -> None:
    bucket = Bucket(rate=10, size=5)
    assert bucket.take(5, 0.0) and not bucket.take(1, 0.0)
    assert bucket.take(1, 0.2)  # 2 back (less the 1 over), 1 taken
    assert bucket.take(5, 100.0) and not bucket.take(1, 100.0)  # full is 5, however long


def test_a_client_that_stops_reading_is_found_out() -> None:
    watch = OutputWatch(stuck_limit=60)
    assert not watch.stopped_reading(0, 0.0)
    for second in range(1, 60):  # a slow link: always some waiting, but it goes down too
        assert not watch.stopped_reading(5_000 if second % 2 else 4_000, float(second))
    watch = OutputWatch(stuck_limit=60)
    assert not watch.stopped_reading(1_000, 0.0)
    assert not watch.stopped_reading(1_000, 59.0)
    assert watch.stopped_reading(1_000, 61.0)  # none of it taken for a minute
    assert OutputWatch().stopped_reading(OUTPUT_LIMIT + 1, 0.0)  # or too much, at once
