"""Signals and broken pipes, seen from outside as a user would see them.

* SIGTERM and SIGHUP at the interactive prompt (in a real pseudo-terminal) put the terminal
  back as it was, keep the game's save and let go of its lock;
* ``cribbage score -`` read by a reader that stops early ends quietly with status 0;
* ``cribbage match --jobs 2`` leaves no worker running and no log written after it dies;
* ``kill -9`` at random moments while a game is played from a pipe loses no move.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pexpect
import pytest

from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.rules.engine import Action, Discard, Play
from tests.conftest import interrupt_as_usual
from tests.scripted import moves
from tests.terminal import ANSI, HANG, environment, settle

ROOT = Path(__file__).resolve().parents[1]
STTY_LINE = re.compile(r"^[0-9a-f]+(?::[0-9a-f]+)+\r?$", re.MULTILINE)
PASTE_ON, PASTE_OFF = "\x1b[?2004h", "\x1b[?2004l"


# --- a signal at the prompt, in a pseudo-terminal -----------------------------------------


def spawn_in_shell(
    home: Path, options: str = "--seed 7 --level normal --fast"
) -> pexpect.spawn[str]:
    """``stty -g; cribbage play OPTIONS; echo EXIT=$?; stty -g`` in a new pseudo-terminal."""
    play = f"{shlex.quote(sys.executable)} -m cribcli play {options}"
    return pexpect.spawn(
        "sh",
        ["-c", f"stty -g; {play}; echo EXIT=$?; stty -g"],
        cwd=str(ROOT),
        env=environment(str(home)),
        encoding="utf-8",
        timeout=HANG,
        dimensions=(30, 80),
    )


def read_to_end(child: pexpect.spawn[str], timeout: float = 30) -> str:
    """The raw output until the shell ends."""
    child.expect(pexpect.EOF, timeout=timeout)
    text = child.before
    assert isinstance(text, str)
    return text


def game_pid(home: Path) -> int:
    """The process id the running game wrote into its lock file."""
    return int((home / "save.toml.lock").read_text(encoding="ascii").strip())


def saved_actions(save: Path) -> list[Action]:
    """The actions of the game in a save, replayed through the rules."""
    return replay(loads(save.read_text(encoding="utf-8"))).actions


def every_paste_mode_ended(output: str) -> bool:
    """Whether every bracketed paste turned on is turned off again later."""
    on = [m.start() for m in re.finditer(re.escape(PASTE_ON), output)]
    off = [m.start() for m in re.finditer(re.escape(PASTE_OFF), output)]
    return bool(on) and all(any(o > start for o in off) for start in on)


@pytest.mark.slow
@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
@pytest.mark.parametrize("moment", ["first prompt", "after a discard"])
def test_a_signal_at_the_prompt_puts_the_terminal_back(
    tmp_path: Path, signal_number: int, moment: str
) -> None:
    discard = moves(7, enter=True)[0]
    child = spawn_in_shell(tmp_path)
    try:
        before = settle(child, raw=True)
        assert "Put 2 in the crib>" in ANSI.sub("", before)
        if moment == "after a discard":
            child.sendline(discard)
            before += settle(child, raw=True)
        os.kill(game_pid(tmp_path), signal_number)
        after = read_to_end(child)
    finally:
        child.close(force=True)
    output = before + after

    settings = [line.strip() for line in STTY_LINE.findall(output)]
    assert len(settings) == 2, output
    assert settings[0] == settings[1], "the terminal was not put back as it was"
    status = re.search(r"EXIT=(\d+)", output)
    assert status is not None, output
    assert int(status.group(1)) == 128 + signal_number
    assert PASTE_OFF in after
    assert every_paste_mode_ended(output)
    assert "Traceback" not in output
    assert not (tmp_path / "save.toml.lock").exists()
    actions = saved_actions(tmp_path / "save.toml")
    discards = [" ".join(map(str, a.cards)) for a in actions if isinstance(a, Discard)]
    mine = [a for a in actions if a.seat == 0]
    if moment == "after a discard":
        assert discard in discards
        assert len(mine) == 1
    else:
        assert mine == []


@pytest.mark.slow
@pytest.mark.parametrize("question", ["How strong a computer?", "Abandon the saved game"])
def test_a_signal_at_a_question_before_the_game(tmp_path: Path, question: str) -> None:
    options = "--seed 7 --fast"
    if question.startswith("Abandon"):
        done = subprocess.run(
            [sys.executable, "-m", "cribcli", "play", *options.split(), "--level", "easy"],
            input="",
            env={**os.environ, "CRIBBAGE_HOME": str(tmp_path)},
            capture_output=True,
            timeout=30,
        )
        assert done.returncode == 0, done.stderr
        options = "--new --fast"
    saved = (tmp_path / "save.toml").read_bytes() if question.startswith("Abandon") else None
    child = spawn_in_shell(tmp_path, options)
    try:
        child.expect_exact(question, timeout=30)
        before = f"{child.before}{question}"
        time.sleep(0.3)
        os.kill(game_pid(tmp_path), signal.SIGTERM)
        output = before + read_to_end(child)
    finally:
        child.close(force=True)
    status = re.search(r"EXIT=(\d+)", output)
    assert status is not None and int(status.group(1)) == 128 + signal.SIGTERM, output
    assert "Traceback" not in output and "Stopped" not in output
    settings = [line.strip() for line in STTY_LINE.findall(output)]
    assert len(settings) == 2 and settings[0] == settings[1], output
    if saved is not None:
        assert (tmp_path / "save.toml").read_bytes() == saved  # not abandoned


# --- a filter whose reader goes away --------------------------------------------------------


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_score_as_a_filter_stops_quietly_when_its_reader_goes(
    tmp_path: Path, as_json: bool
) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("5H 5S 5C JD 5D\n" * 20_000, encoding="ascii")
    errors = tmp_path / "stderr.txt"
    command = [sys.executable, "-m", "cribcli", "score", "-", *(["--json"] if as_json else [])]
    with hands.open("rb") as stdin, errors.open("wb") as stderr:
        process = subprocess.Popen(
            command, cwd=ROOT, stdin=stdin, stdout=subprocess.PIPE, stderr=stderr
        )
        assert process.stdout is not None
        first = process.stdout.readline()
        process.stdout.close()
        status = process.wait(timeout=30)
    assert b"29" in first
    assert errors.read_text(encoding="utf-8") == ""
    assert status == 0


# --- a match's worker processes -------------------------------------------------------------


def proc_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rsplit(")", 1)[1].split()


def running(pid: int) -> bool:
    """Whether a process (not a child of ours) still runs: it exists and is no zombie."""
    fields = proc_fields(pid)
    return fields is not None and fields[0] != "Z"


def cpu_ticks(pid: int) -> int:
    """The clock ticks a process has run for (0 if it is gone)."""
    fields = proc_fields(pid)
    return 0 if fields is None else int(fields[11]) + int(fields[12])


def children(pid: int) -> list[int]:
    """The process ids of a process's children."""
    found = subprocess.run(
        ["pgrep", "-P", str(pid)], capture_output=True, text=True, timeout=10, check=False
    )
    return [int(word) for word in found.stdout.split()]


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``condition`` until it is true, or fail saying ``what``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout} s: {what}")
        time.sleep(0.05)


def files_in(folder: Path) -> int:
    return sum(1 for _ in folder.iterdir()) if folder.exists() else 0


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pgrep") is None, reason="needs pgrep")
@pytest.mark.parametrize(
    ("signal_number", "status"),
    [
        (signal.SIGTERM, 128 + signal.SIGTERM),
        (signal.SIGKILL, -signal.SIGKILL),
        (signal.SIGINT, 130),
        (signal.SIGHUP, 128 + signal.SIGHUP),
    ],
    ids=["TERM", "KILL", "INT", "HUP"],
)
def test_match_workers_stop_with_the_match(tmp_path: Path, signal_number: int, status: int) -> None:
    logs = tmp_path / "logs"
    errors = tmp_path / "stderr.txt"
    command = [sys.executable, "-m", "cribcli", "match", "hard", "hard"]
    command += ["--games", "40", "--jobs", "2", "--log-dir", str(logs)]
    with errors.open("wb") as stderr:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            start_new_session=True,
            preexec_fn=interrupt_as_usual,
        )
        try:
            wait_for(lambda: len(children(process.pid)) >= 2, 30, "no two workers")
            workers = children(process.pid)
            wait_for(
                lambda: all(cpu_ticks(w) >= 10 for w in workers), 30, "the workers do not play"
            )
            os.kill(process.pid, signal_number)
            assert process.wait(timeout=30) == status
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=30)
    try:
        wait_for(lambda: not any(map(running, workers)), 2, "a worker still runs")
    finally:
        for worker in filter(running, workers):  # a failed test leaves no game playing
            os.kill(worker, signal.SIGKILL)
    written = files_in(logs)
    time.sleep(2)
    assert files_in(logs) == written, "a log was written after the match died"
    stderr_text = errors.read_text(encoding="utf-8")
    assert "Traceback" not in stderr_text
    assert "Process ForkPoolWorker" not in stderr_text


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pgrep") is None, reason="needs pgrep")
def test_sigterm_to_the_match_s_group_stops_it_and_tells_the_games_played(tmp_path: Path) -> None:
    """As `timeout`, service managers and CI runners stop a program: SIGTERM to its whole
    process group, workers and all. The match ends, tells the games finished (and keeps
    their logs), and leaves no worker."""
    logs = tmp_path / "logs"
    command = [sys.executable, "-m", "cribcli", "match", "normal", "normal", "--json"]
    command += ["--games", "400", "--jobs", "2", "--log-dir", str(logs)]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        wait_for(lambda: files_in(logs) >= 24, 60, "no games played")
        workers = children(process.pid)
        os.killpg(process.pid, signal.SIGTERM)
        out, err = process.communicate(timeout=30)  # a ceiling: only a hang meets it
        assert process.returncode == 128 + signal.SIGTERM
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)  # (its pipes closed, or a later test is blamed)
    wait_for(lambda: not any(map(running, workers)), 10, "a worker still runs")
    told = re.search(r"cribbage: stopped after (\d+) of 400 games", err)
    assert told is not None and "Traceback" not in err
    played = int(told.group(1))  # the games whose results came back, in order
    if played:  # (all but certain, with 24 logs written: not for the test to assume)
        assert json.loads(out)["games"] == played
    else:
        assert out == ""
    assert files_in(logs) >= played


# --- kill -9 in a loop ----------------------------------------------------------------------

SEED = 11
PACE = 0.12
"""Seconds between the lines fed to a game: the whole game takes a fraction of a second
from a pipe at once, so lines come as if typed, and the kills land during the game."""


def person_moves(save: Path) -> int:
    """How many of the person's (seat 0's) moves a save holds (0 if there is none)."""
    if not save.exists():
        return 0
    return sum(1 for a in saved_actions(save) if isinstance(a, Discard | Play) and a.seat == 0)


def moves_echoed(output: str) -> tuple[int, int]:
    """Of the moves a game read from a pipe (it echoes each as ``> 5H``): how many it went
    on past (so had saved: it saves before it tells), and how many it read."""
    lines = output.splitlines()
    echoes = [number for number, line in enumerate(lines) if line.startswith("> ")]
    return sum(1 for number in echoes if number < len(lines) - 1), len(echoes)


def finished_logs(data: Path) -> list[Path]:
    return sorted((data / "games").glob("*.toml"))


def logged_actions(log: Path) -> list[Action]:
    return replay(loads(log.read_text(encoding="utf-8"))).actions


def play_whole_game(data: Path, typed: list[str]) -> list[Action]:
    """Play a whole game uninterrupted; the actions of its finished log."""
    command = [sys.executable, "-m", "cribcli", "play", "--seed", str(SEED), "--level", "normal"]
    subprocess.run(
        [*command, "--data-dir", str(data)],
        cwd=ROOT,
        input="\n".join(typed) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    [log] = finished_logs(data)
    return logged_actions(log)


def type_lines(
    stream: IO[bytes], lines: list[str], stop: threading.Event, ready: threading.Event | None = None
) -> None:
    """Write one line every PACE seconds, until done, stopped or the reader is gone (from
    when the game is ``ready``, if given: at its first prompt)."""
    if ready is not None:
        ready.wait(HANG)
    with contextlib.suppress(OSError):  # the game was killed
        for line in lines:
            if stop.wait(PACE):
                break
            stream.write(line.encode() + b"\n")
            stream.flush()
    with contextlib.suppress(OSError):
        stream.close()


def play_until(data: Path, options: list[str], lines: list[str], pause: float) -> int:
    """Play from a pipe fed ``lines``; kill -9 the game ``pause`` seconds after it has
    reached its first prompt and echoed the move typed there (timed from what the game
    did, not from its start: a busy machine starts it slowly), unless it ended first.
    Its exit status; what it wrote is in DATA/../stdout.txt and stderr.txt."""
    out, err = data.parent / "stdout.txt", data.parent / "stderr.txt"
    with err.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "cribcli", "play", *options, "--data-dir", str(data)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
    assert process.stdin is not None and process.stdout is not None
    stop, asked, echoed = threading.Event(), threading.Event(), threading.Event()
    typist = threading.Thread(target=type_lines, args=(process.stdin, lines, stop, asked))
    typist.start()
    reader = threading.Thread(target=copy_echoes, args=(process.stdout, out, asked, echoed))
    reader.start()
    try:
        if echoed.wait(HANG) and process.poll() is None:  # (a ceiling: only a hang)
            time.sleep(pause)
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGKILL)
    finally:
        status = process.wait(timeout=HANG)
        stop.set()
        typist.join(timeout=HANG)
        reader.join(timeout=HANG)
        process.stdout.close()
    return status


def copy_echoes(
    stream: IO[bytes], out: Path, asked: threading.Event, echoed: threading.Event
) -> None:
    """What the game writes, into ``out``; ``asked`` is set once it asks for a move (its
    first prompt), ``echoed`` once it echoes one."""
    with out.open("wb") as copy:
        for line in stream:
            copy.write(line)
            copy.flush()
            if line.rstrip().endswith(b":"):
                asked.set()
            if line.startswith(b"> "):
                echoed.set()
    asked.set()  # it ended
    echoed.set()


@pytest.mark.slow
def test_kill_9_at_random_moments_loses_no_move(tmp_path: Path) -> None:
    typed = moves(SEED, level="normal")
    reference = play_whole_game(tmp_path / "reference", typed)
    data = tmp_path / "game"
    save = data / "save.toml"
    chance = random.Random(20261201)
    kills = 0
    for _ in range(60):
        if finished_logs(data):
            break  # killed after the game was filed: it is over
        held = person_moves(save)
        options = [] if save.exists() else ["--seed", str(SEED), "--level", "normal"]
        status = play_until(data, options, typed[held:], chance.uniform(0.0, 0.3))
        # nothing to tell: no save set aside, no lock found held, no move refused
        assert (tmp_path / "stderr.txt").read_text(encoding="utf-8") == ""
        if status != -signal.SIGKILL:
            assert status == 0
            break
        kills += 1
        if not finished_logs(data):
            saved, read = moves_echoed((tmp_path / "stdout.txt").read_text(encoding="utf-8"))
            now = person_moves(save)
            assert held + saved <= now <= held + read, f"kill {kills}: {held}+{saved} > {now}"
    else:
        raise AssertionError(f"the game did not end after {kills} kills")

    logs = finished_logs(data)
    assert len(logs) == 1, f"finished games filed: {logs}"
    assert logged_actions(logs[0]) == reference
    assert list(data.glob(".save.toml.*.tmp")) == []
    assert kills >= 10


def test_a_process_forked_under_the_stop_handler_ends_on_the_signal() -> None:
    """A worker forked while the program turns SIGTERM into an exception (before the
    worker sets handlers of its own) must end on SIGTERM, not raise where nothing catches
    it and live on: that left `match` waiting for a worker after `kill -TERM -PGID`."""
    from cribcli.ui.signals import stopped_by_signals

    with stopped_by_signals():
        child = os.fork()
        if child == 0:  # the child: the parent's handler, as a fork just made has
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(30)  # (only if the signal did not end it)
            finally:
                os._exit(3)
        _, status = os.waitpid(child, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM


def _group_and_held(_: int) -> tuple[int, int, frozenset[int]]:
    """In a worker: its process id, its process group and the signals it holds back."""
    return os.getpid(), os.getpgid(0), frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, []))


def test_match_workers_are_groups_of_their_own_and_hold_no_stop() -> None:
    """A stop sent to the program's process group must not kill a worker in the middle of
    taking a task or giving back a result (the pool's lock would be kept for ever, and the
    match would wait for it: it hung once in 16 to 74 runs on a loaded machine): each
    worker is a group of its own, which the program ends in order. And the stop signals,
    held as a worker is forked (so that one that comes then is not lost), are no longer
    held once it runs."""
    from cribcli.record.workers import _HELD, spread

    with spread(_group_and_held, list(range(8)), 2) as results:
        seen = list(results)
    assert {pid for pid, _, _ in seen} - {os.getpid()}  # (it ran in workers)
    for pid, group, held in seen:
        assert group == pid != os.getpgid(0)
        assert not held & _HELD
    assert not frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, [])) & _HELD  # nor here


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pgrep") is None, reason="needs pgrep")
def test_ctrl_z_pauses_the_match_s_workers_and_fg_goes_on(tmp_path: Path) -> None:
    """At a terminal, Ctrl-Z pauses a match and its workers (each a process group of its
    own, which the terminal's Ctrl-Z does not reach), `fg` sets them all going again, and
    Ctrl-C then ends it with the games played so far and no worker left."""
    match = f"{shlex.quote(sys.executable)} -m cribcli match normal normal --games 4000 --jobs 2"
    shell = pexpect.spawn(
        "bash",
        ["--norc", "--noprofile", "-i"],
        cwd=str(ROOT),
        env=environment(str(tmp_path)),
        encoding="utf-8",
        timeout=HANG,
        dimensions=(30, 100),
    )
    try:
        shell.sendline(match)
        assert shell.pid is not None
        bash = shell.pid
        main: list[int] = []
        workers: list[int] = []

        def started() -> bool:
            main[:] = children(bash)[:1]
            workers[:] = children(main[0]) if main else []
            # (Ctrl-Z once both play: not as a worker is forked and sets its handlers)
            return len(workers) == 2 and all(cpu_ticks(pid) >= 10 for pid in workers)

        wait_for(started, HANG, "the match and its two workers did not start")

        def states(wanted: str) -> Callable[[], bool]:
            return lambda: all((proc_fields(pid) or ["?"])[0] == wanted for pid in main + workers)

        shell.sendcontrol("z")
        wait_for(states("T"), HANG, "Ctrl-Z did not pause the match and its workers")
        paused = [cpu_ticks(pid) for pid in workers]
        time.sleep(0.5)
        assert [cpu_ticks(pid) for pid in workers] == paused  # (stopped: no work at all)
        shell.sendline("fg")
        wait_for(
            lambda: not any((proc_fields(pid) or ["T"])[0] == "T" for pid in main + workers),
            HANG,
            "fg did not set them going again",
        )
        shell.sendcontrol("c")
        shell.sendline("echo EXIT=$?")  # (fg's status: the match's own)
        shell.expect(r"EXIT=(\d+)")
        assert isinstance(shell.match, re.Match) and shell.match.group(1) == "130"
        wait_for(lambda: not any(map(running, workers)), HANG, "a worker still runs")
    finally:
        shell.close(force=True)
        for pid in filter(running, main + workers):  # a failed test leaves no game playing
            os.kill(pid, signal.SIGKILL)
