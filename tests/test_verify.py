"""Deals anyone can check: the promise (a digest of the seed) every log records, and
``cribbage verify``, which deals every card again from the seed. The digests here are
worked out by hand with ``printf %s SEED | sha256sum``, not by the code under test."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cribcli.players import Level, computer
from cribcli.record.log import GameInfo, LogError, Seat, dumps
from cribcli.record.reader import loads
from cribcli.record.replay import verify
from cribcli.record.session import run_game
from cribcli.rules.engine import Rules
from cribcli.rules.errors import CribbageError
from cribcli.rules.stream import seed_digest
from tests.conftest import Run

LOGS = Path(__file__).parent / "logs"


def test_the_digest_is_sha256_of_the_seed_as_text() -> None:
    # printf %s 13 | sha256sum; printf %s daily/2026-12-02 | sha256sum
    assert seed_digest(13) == (
        "sha256:3fdba35f04dc8c462986c992bcf875546257113072a909c162f7e470e581e278"
    )
    assert seed_digest("13") == seed_digest(13)  # the shuffle takes them alike too
    assert seed_digest("daily/2026-12-02") == (
        "sha256:32f0b3a4a1a5f2bf358e42a9df44d82d59fe58c42a4c540c8aeb525ca9b3cfc1"
    )


def played(seed: int | str, players: int = 2) -> str:
    """The log of a whole game between easy computers."""
    seats = tuple(Seat(f"P{n}", "computer", Level.EASY) for n in range(players))
    info = GameInfo(Rules(players=players, cut_for_deal=True), seats, seed, label="fixture")
    _, events = run_game(info, [computer("easy", seed, n) for n in range(players)])
    return dumps(info, events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_game_written_records_its_promise_and_is_fair(players: int) -> None:
    text = played(7, players)
    digest = "sha256:7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"
    assert f'commitment = "{digest}"' in text and "format = 3\n" in text
    assert verify(loads(text)) == ([], True)
    assert verify(loads(text)).fair is True


FINISHED = sorted(path.name for path in LOGS.glob("*.toml") if path.name != "stops-mid-game.toml")


@pytest.mark.parametrize("name", FINISHED)
def test_the_older_logs_are_the_seed_s_deal_but_cannot_be_checked(name: str) -> None:
    log = loads((LOGS / name).read_text(encoding="utf-8"))
    assert log.info.commitment is None and log.format < 3  # from before the promise
    assert verify(log) == ([], False)
    assert verify(log).fair is None  # the cards are the seed's, the seed unpromised


def test_a_log_that_lost_its_promise_is_not_fair() -> None:
    """Whoever deals from a seed of their choosing and drops the promise does not pass."""
    text = played(7)
    dropped = "".join(line for line in text.splitlines(True) if not line.startswith("commitment"))
    verdict = verify(loads(dropped))
    assert verdict.fair is False and not verdict.promised
    assert verdict.differences == [
        "the log records no promise of its deal, but its format (3) always does: the seed "
        "could have been chosen after the deal"
    ]
    older = dropped.replace("format = 3\n", "format = 2\n")
    assert verify(loads(older)).fair is None  # passed off as older: still not fair


def test_a_game_not_over_is_not_checked() -> None:
    text = (LOGS / "stops-mid-game.toml").read_text(encoding="utf-8")
    with pytest.raises(CribbageError, match="the game is not over"):
        verify(loads(text))


def test_a_changed_seed_breaks_the_promise_and_every_deal() -> None:
    text = played(7).replace("seed = 7\n", "seed = 8\n")
    found = verify(loads(text)).differences
    assert found[0].startswith("the seed 8 has the digest sha256:2c624232cdd221771294dfbb310aca00")
    assert "not the one promised before the first deal, sha256:7902699be42c" in found[0]
    dealt = re.compile(r"round 1: seat \d \(P\d\) was dealt .*, the seed deals ")
    assert any(dealt.match(line) for line in found)


def test_a_changed_card_is_named() -> None:
    text = played(7)
    starter = re.search(r'starter = "(\w+)"', text)
    assert starter is not None
    other = "AS" if starter.group(1) != "AS" else "2S"
    changed = text.replace(starter.group(0), f'starter = "{other}"', 1)
    assert verify(loads(changed)).differences == [
        f"round 1: the starter is {other}, the seed's is {starter.group(1)}"
    ]


def test_a_changed_promise_is_named() -> None:
    text = played(7).replace("7902699be42c", "000000000000")
    (found,) = verify(loads(text)).differences
    assert "not the one promised before the first deal, sha256:000000000000" in found


def test_a_promise_that_is_no_digest_is_refused() -> None:
    text = played(7).replace('commitment = "sha256:7902', 'commitment = "md5:7902')
    with pytest.raises(LogError, match="`commitment` is `sha256:` and 64 hexadecimal digits"):
        loads(text)


def test_verify_says_fair_or_what_differs(cribbage: Run, tmp_path: Path) -> None:
    log = tmp_path / "game.toml"
    log.write_text(played(7), encoding="utf-8")
    fair = cribbage("verify", str(log))
    assert fair.status == 0 and fair.err == ""
    assert fair.out.splitlines()[0].startswith("Fair: every card of its ")
    assert "Seed:   7\n" in fair.out and f"Digest: {seed_digest(7)}\n" in fair.out
    log.write_text(played(7).replace("seed = 7\n", "seed = 8\n"), encoding="utf-8")
    unfair = cribbage("verify", str(log))
    assert unfair.status == 1
    assert unfair.out.startswith("Not fair: ") and "  round 1: seat " in unfair.out
    as_json = json.loads(cribbage("verify", str(log), "--json").out)
    assert as_json["fair"] is False and as_json["seed"] == 8
    assert as_json["promised"] == seed_digest(7) and as_json["digest"] == seed_digest(8)
    from_stdin = cribbage("verify", "-", stdin=played(5))
    assert from_stdin.status == 0 and from_stdin.out.startswith("Fair:")


def test_verify_says_what_it_cannot_check_and_refuses_a_game_not_over(
    cribbage: Run, tmp_path: Path
) -> None:
    log = tmp_path / "game.toml"
    dropped = "".join(line for line in played(7).splitlines(True) if "commitment" not in line)
    log.write_text(dropped, encoding="utf-8")
    lost = cribbage("verify", str(log))
    assert lost.status == 1 and lost.out.startswith("Not fair: 1 thing differs")
    said = json.loads(cribbage("verify", str(log), "--json").out)
    assert said["fair"] is False and said["promised"] is False
    older = cribbage("verify", str(LOGS / "2-players.toml"))
    assert older.status == 3 and older.out.startswith("Cannot be checked: every card of its")
    said = json.loads(cribbage("verify", str(LOGS / "2-players.toml"), "--json").out)
    assert said["fair"] is None and said["promised"] is False
    going = cribbage("verify", str(LOGS / "stops-mid-game.toml"))
    assert going.status == 1 and going.out == "" and going.err.count("\n") == 1
    assert "the game is not over" in going.err
    seed = loads((LOGS / "stops-mid-game.toml").read_text(encoding="utf-8")).info.seed
    assert f"seed = {seed}" not in going.err and "Seed:" not in going.err


def test_verify_refuses_what_is_not_a_log(cribbage: Run, tmp_path: Path) -> None:
    missing = cribbage("verify", str(tmp_path / "nothing.toml"))
    assert missing.status == 1 and missing.err.count("\n") == 1
    neither = cribbage("verify")
    assert neither.status == 2 and "give a game log to check" in neither.err
