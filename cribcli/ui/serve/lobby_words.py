"""The lobby's words: what a person in the served room's lobby can type (:data:`LOBBY`,
one table for its help and its dispatch): open, join or watch a table, play the computer
alone, the ladder, your history, your last games played back, your adjourned games."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cribcli.club.lobby import NEW_USAGE, ServedTable, TableSetup, parse_setup
from cribcli.club.ratings import anchors as anchor_marks
from cribcli.players import LEVELS_HELP, Level
from cribcli.record.log import LOG_LIMIT
from cribcli.record.reader import loads
from cribcli.record.replay import Replay, replay
from cribcli.record.store import read_text
from cribcli.review.history import history_of
from cribcli.rules.errors import CribbageError, printable
from cribcli.ui import PACE
from cribcli.ui.narrate import Table
from cribcli.ui.playback import moves_of
from cribcli.ui.reports import stats_lines
from cribcli.ui.serve.share import in_thread
from cribcli.ui.serve.visitor import Visitor, Watching


async def in_lobby(visitor: Visitor, text: str) -> bool:
    """Do what a line typed in the lobby says (by :data:`LOBBY`); False to leave."""
    words = text.split()
    word, rest = words[0].lower(), words[1:]
    command = next((c for c in LOBBY if word == c.name or word in c.aliases), None)
    if command is None or (command.name == "leave" and visitor.seated is None):
        raise CribbageError(f"`{word[:20]}` is not a lobby command: `help` lists them")
    if command.name == "quit":
        return False
    if command.name in ("adjourned", "resume"):  # read logs: in a thread
        await (adjourned(visitor, rest) if command.name == "adjourned" else resume(visitor, rest))
        return True
    if command.name == "top":  # reads the store: in a thread
        for line in await in_thread(top, visitor):
            visitor.say(line)
        return True
    if command.name == "replay":  # reads logs: in a thread
        await replay_game(visitor, rest)
        return True
    if command.name == "stats":  # may read many logs: in a thread
        for line in await in_thread(stats, visitor):
            visitor.say(line)
        return True
    command.run(visitor, rest)
    return True


ANYWHERE = frozenset({"top", "stats", "tables"})
"""The lobby's words that only read, understood at a table and by a watcher too."""


async def anywhere(visitor: Visitor, text: str) -> bool:
    """A lobby word that only reads (:data:`ANYWHERE`), typed wherever the person is:
    whether ``text`` was one (and it was done)."""
    words = text.split()
    if len(words) != 1 or words[0].lower() not in ANYWHERE:
        return False
    if words[0].lower() == "tables":
        visitor.show_lobby()
    else:
        await in_lobby(visitor, words[0])
    return True


def show_help(visitor: Visitor, rest: list[str]) -> None:
    for line in lobby_help():
        visitor.say(line)


def new(visitor: Visitor, rest: list[str]) -> None:
    open_table(visitor, parse_setup(rest))


def solo(visitor: Visitor, rest: list[str]) -> None:
    level = Level.parse(" ".join(rest)) if rest else Level.NORMAL
    if level is None:
        visitor.say(f"solo LEVEL: {LEVELS_HELP}.")
        return
    open_table(visitor, TableSetup(computers=1, level=level))


def table_named(visitor: Visitor, rest: list[str], verb: str) -> ServedTable:
    """The table ``rest`` names by its number (for ``join`` or ``watch``). Raises
    CribbageError if it names none that plays or waits."""
    if len(rest) != 1 or not re.fullmatch(r"[0-9]{1,6}", rest[0]):
        raise CribbageError(f"{verb} a table by its number, e.g. `{verb} 2`")
    table = visitor.room.lobby.tables.get(int(rest[0]))
    if table is None or table.over:
        raise CribbageError(f"there is no table {rest[0]}")
    return table


def join(visitor: Visitor, rest: list[str]) -> None:
    room = visitor.room
    table = table_named(visitor, rest, "join")
    if room.lobby.table_of(visitor.name) not in (None, table):
        raise CribbageError("you sit at another table: `leave` it first")
    if any(v.watched is table for v in room.named(visitor.name)):
        raise CribbageError(f"you watch table {table.number}: a watcher does not sit at it")
    if table.seat_of(visitor.name) is not None and table.started:
        visitor.sit_back(table)
        return
    table.sit(visitor.name)
    visitor.sit(table)
    visitor.say(f"You sit at table {table.number}.")
    room.tell_table(table, f"{visitor.name} sits down.", but=visitor)
    room.tell_lobby(
        f"{visitor.name} sits at table {table.number}"
        + ("; its game begins." if table.ready else f": `join {table.number}` for a seat."),
        but=visitor,
    )
    if table.ready:
        room.start(table)
    room.changed()


def open_table(visitor: Visitor, setup: TableSetup) -> None:
    room = visitor.room
    table = room.lobby.open_table(visitor.name, setup, room.games.saver)
    room.log(f"{visitor.name} opens table {table.number} ({setup.describe()})")
    visitor.sit(table)
    if table.ready:
        visitor.say(f"Table {table.number}: you and the computer.")
        room.start(table)
    else:
        visitor.say(
            f"Table {table.number} is open ({setup.describe()}): the others join with "
            f"`join {table.number}`; `leave` gives it up."
        )
        room.tell_lobby(
            f"{visitor.name} opens table {table.number} ({setup.describe()}): "
            f"`join {table.number}` sits there, `watch {table.number}` watches it.",
            but=visitor,
        )
    room.changed()


def stats(visitor: Visitor) -> list[str]:
    """Your history (worked out in a thread: it may read many logs)."""
    from datetime import date

    warnings: list[str] = []
    total = history_of(
        visitor.room.places(visitor.name),
        since="",
        today=date.today().isoformat(),
        warn=warnings.append,
    )
    lines = stats_lines(total, served=True)
    account = visitor.room.club.account(visitor.name)
    if account is not None:
        lines.append(f"A member since {account.first_seen[:10]}.")
    standing = visitor.room.club.standing(visitor.name)
    if standing is not None:
        recent = " ".join(str(step.rating) for step in standing.history[-10:])
        lines += [
            f"Your rating: {standing.rating} ±{standing.uncertainty} after "
            f"{standing.games} rated game{'s' * (standing.games != 1)} "
            f"(the computer's levels are fixed marks; `top` shows the ladder).",
            f"  after each of your last games: {recent}",
        ]
    if warnings:  # (which files, and why, is the server's business: how many is yours)
        left_out = len(warnings)
        lines.append(f"{left_out} of your games could not be read, and are left out.")
    return lines


async def replay_game(visitor: Visitor, rest: list[str]) -> None:
    """``replay``: your last games, numbered; ``replay N``: game N played back as the
    table showed it, every hand seen, a move every so often (``2x``: twice as often);
    any line typed stops it."""
    words = [word.lower() for word in rest]
    speed = 2.0 if "2x" in words else 1.0
    numbers = [word for word in words if word != "2x" and word != "1x"]
    if len(numbers) > 1 or (numbers and not re.fullmatch(r"[0-9]{1,2}", numbers[0])):
        raise CribbageError("replay one of your last games by its number, e.g. `replay 1`")
    games = await in_thread(last_games, visitor)
    if not games:
        raise CribbageError("no finished games yet: `solo` plays the computer")
    if not numbers:
        for number, (_, line) in enumerate(games, start=1):
            visitor.say(f"  {number}: {printable(line)}")
        visitor.say("  `replay N` plays one back (`replay N 2x` twice as fast).")
        return
    number = int(numbers[0])
    if not 1 <= number <= len(games):
        raise CribbageError(f"there is no game {number}: `replay` lists your last games")
    replayed = await in_thread(_replayed, games[number - 1][0])
    info = replayed.log.info
    names = tuple(seat.name for seat in info.seats)
    table = Table(info.rules, names, visitor.style, width=visitor.width())
    moves = moves_of(replayed.events, table)
    visitor.say(f"Game {number}, played back ({len(moves)} moves); type anything to stop.")
    visitor.playback = asyncio.create_task(play_back(visitor, [m.lines for m in moves], speed))


async def play_back(visitor: Visitor, moves: list[tuple[str, ...]], speed: float) -> None:
    for lines in moves:
        visitor.tell(lines)
        await asyncio.sleep(PACE / speed)
    visitor.tell(["  The replay is over."])


def top(visitor: Visitor) -> list[str]:
    """(In a thread.) The ladder, its first twenty, and your place on it."""
    rungs = visitor.room.club.ladder()
    if not rungs:
        return ["  Nobody is rated yet: every finished game rates its people."]
    lines = [f"  {'':>3} {'name':<20} {'rating':>6} {'±':>4} {'games':>5}  last seen"]
    mine = [r for r in rungs if r.name.lower() == visitor.name.lower()]
    for rung in rungs[:TOP] + [r for r in mine if r not in rungs[:TOP]]:
        account = visitor.room.club.account(rung.name)  # (the last login, else game)
        seen = (account.last_seen if account else rung.last_seen or "")[:10]
        lines.append(
            f"  {rung.place:>3} {printable(rung.name):<20} {rung.rating:>6} "
            f"{rung.uncertainty:>4} {rung.games:>5}  {seen}"
        )
    anchors = ", ".join(f"{level.label} {a.rating}" for level, a in anchor_marks().items())
    lines.append(f"  The computer's fixed marks: {anchors}.")
    return lines


def last_games(visitor: Visitor) -> list[tuple[Path, str]]:
    """(In a thread.) Your last finished games, newest first: each one's file and a
    line saying what it was."""
    games = visitor.room.places(visitor.name).games
    found = []
    with contextlib.suppress(OSError):
        paths = sorted(games.glob("*.toml"), reverse=True)[:LAST_GAMES]
        for path in paths:
            with contextlib.suppress(CribbageError, ValueError, RecursionError):
                log = loads(read_text(path, LOG_LIMIT, follow_links=False) or "")
                names = " v ".join(seat.name for seat in log.info.seats)
                result = log.result
                told = f", {' - '.join(map(str, result.scores))}" if result is not None else ""
                found.append((path, f"{path.stem}: {names}{told}"))
    return found


async def adjourned(visitor: Visitor, rest: list[str]) -> None:
    games = await in_thread(visitor.room.games.adjourned, visitor.name)
    if not games:
        visitor.say("  No adjourned games: at a table, `adjourn` puts one away.")
        return
    for number, game in enumerate(games, start=1):
        names = " v ".join(game.names)
        score = "-".join(map(str, game.scores))
        when = game.adjourned[:10]
        visitor.say(f"  {number}: {printable(names)}, to {game.target}, {score} (put away {when})")
    visitor.say("  `resume N` carries one on when its people are here.")


async def resume(visitor: Visitor, rest: list[str]) -> None:
    if len(rest) != 1 or not re.fullmatch(r"[0-9]{1,4}", rest[0]):
        raise CribbageError("resume an adjourned game by its number, e.g. `resume 1`")
    if visitor.seated is not None:
        raise CribbageError("you sit at a table: `leave` it first")
    visitor.sit_back(await visitor.room.resume(visitor, int(rest[0])))


def watch_table(visitor: Visitor, rest: list[str]) -> None:
    room = visitor.room
    table = table_named(visitor, rest, "watch")
    if visitor.seated is not None or table.seat_of(visitor.name) is not None:
        raise CribbageError("you sit at a table: a player does not watch (`leave` first)")
    if table.setup.private:
        raise CribbageError(f"table {table.number} is private: nobody watches it")
    visitor.watching = Watching(table)
    if table.session is not None:
        visitor.watching.ui = visitor.watcher_ui(table)
    visitor.say(
        f"You watch table {table.number}: every card laid and every show, no hand before "
        "it is shown. `say` talks to the other watchers; `leave` for the lobby."
    )
    room.log(f"{visitor.name} watches table {table.number}")
    room.changed(table)


@dataclass(frozen=True, slots=True)
class LobbyCommand:
    """A word the lobby understands: how it is typed, what it does, and its other
    spellings."""

    name: str
    usage: str
    help: str
    run: Callable[[Visitor, list[str]], None]
    aliases: tuple[str, ...] = ()


LOBBY = (
    LobbyCommand("new", NEW_USAGE, "open a table", new),
    LobbyCommand("solo", "solo [LEVEL]", "play the computer alone", solo),
    LobbyCommand("join", "join N", "sit at table N (or back in your seat)", join),
    LobbyCommand("watch", "watch N", "watch table N (its cards laid and shows)", watch_table),
    LobbyCommand("top", "top", "the ladder: the club's ratings", lambda v, rest: None),
    LobbyCommand("adjourned", "adjourned", "your adjourned games", lambda v, rest: None),
    LobbyCommand(
        "replay", "replay [N] [2x]", "your last games; game N played back", lambda v, rest: None
    ),
    LobbyCommand("resume", "resume N", "carry on adjourned game N", lambda v, rest: None),
    LobbyCommand("say", "say TEXT", "to everyone in the lobby", lambda visitor, rest: None),
    LobbyCommand("tell", "tell NAME TEXT", "to one person, anywhere", lambda visitor, rest: None),
    LobbyCommand(
        "mute", "mute [NAME]", "what NAME says no longer reaches you", lambda visitor, rest: None
    ),
    LobbyCommand(
        "tables",
        "tables [all]",
        "who is here and the tables (all: every one, in a busy room)",
        lambda visitor, rest: visitor.show_lobby(whole=[w.lower() for w in rest] == ["all"]),
        ("who", "look", "lobby"),
    ),
    LobbyCommand(
        "leave",
        "leave",
        "give up your seat at a table not yet begun",
        lambda visitor, rest: visitor.leave(),
    ),
    LobbyCommand("stats", "stats", "your history", lambda visitor, rest: None),
    LobbyCommand("help", "help", "this list", show_help, ("?",)),
    LobbyCommand(
        "quit",
        "quit",
        "leave (a game in progress waits for you)",
        lambda visitor, rest: None,
        ("exit", "bye"),
    ),
)
"""The lobby's words, for its help and its dispatch (``stats`` and ``quit`` are run by
:meth:`Visitor._in_lobby` itself: one reads in a thread, the other ends the visit)."""


def lobby_help() -> list[str]:
    """What can be typed in the lobby, from :data:`LOBBY`."""
    lines = ["In the lobby:"]
    for command in LOBBY:
        if len(command.usage) > 24:  # (``new``'s options take lines of their own)
            lines += [f"  {command.name:<24} {command.help}:", f"    {command.usage}"]
        else:
            lines.append(f"  {command.usage:<24} {command.help}")
    return [*lines, "At a table, `help` lists what can be typed there."]


TOP = 20
"""The ladder's rows ``top`` shows (and yours, if lower)."""
LAST_GAMES = 10
"""The games ``replay`` lists."""


def _replayed(path: Path) -> Replay:
    """(In a thread.) A filed game, read and replayed through the rules."""
    text = read_text(path, LOG_LIMIT, follow_links=False)
    if text is None:
        raise CribbageError("that game is no longer there")
    return replay(loads(text))
