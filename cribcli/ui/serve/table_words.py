"""The words at a served table, and a watcher's: the game's own (from the prompt's one
command table) and the table's (who sits where, take a seat back or let the computer play
for someone away, leave, adjourn)."""

from __future__ import annotations

from dataclasses import replace

from cribcli.review.coach import best_at, judge_round
from cribcli.rules.errors import CribbageError, printable
from cribcli.ui.seat import COMMANDS, Command, SeatUI
from cribcli.ui.serve.share import charge_here
from cribcli.ui.serve.visitor import Visitor

SLOW = frozenset({"hint", "review"})
"""Commands that search (the hard computer's play, a round's review): their searches are
done off the event loop first (:func:`work_out`)."""


WORK_OUT_TRIES = 3
"""Times a hint or review is worked out for a game that moves on meanwhile."""


async def at_game(visitor: Visitor, text: str, ui: SeatUI) -> None:
    seated = visitor.seated
    assert seated is not None
    table, room = seated.table, visitor.room
    word = text.split()[0].lower()
    if word in ("quit", "lobby"):  # (what people type for `leave`)
        visitor.leave()
        return
    if word == "undo":
        visitor.say("  no takebacks at a served table: the others have seen the moves")
        return
    if word == "adjourn":
        await visitor.room.adjourn(visitor, table)
        return
    if table.taken(ui.seat) and word not in ui.commands:
        visitor.say("  the computer plays for you now: `sit` takes your seat back")
        return
    ui.table = replace(ui.table, width=visitor.width())
    visitor.catch_up()  # what happened since the prompt was drawn, told first, in order
    if word in SLOW:  # a search: elsewhere, so that every other table goes on
        await work_out(visitor, word, ui)
    error = ui.handle(text)
    if error:
        visitor.say(f"  {error}")  # escaped and styled by the seat
    visitor.show_table()
    room.changed(table)


async def work_out(visitor: Visitor, word: str, ui: SeatUI) -> None:
    """The search ``hint`` or ``review`` would make now, made in the room's worker
    processes (or on its cluster) and kept by the seat's coach, its CPU charged to the
    person who asked; then the command only says it. If the game moved on meanwhile (a
    computer's throw, a clock), what it asks now is worked out the same way, a few times
    at most (then the command says it as the game stands)."""
    session, elsewhere = ui.session, visitor.room.elsewhere
    for _ in range(WORK_OUT_TRIES):
        if word == "hint" and (seen := ui.hint_to_work_out()) is not None:
            best, used = await elsewhere.run_timed(best_at, seen, session.info.seed)
            ui.coach.hints.setdefault(seen, best)
        elif word == "review" and (number := ui.round_to_review()) is not None:
            actions = tuple(session.actions)
            judged, used = await elsewhere.run_timed(
                judge_round, session.info, actions, ui.seat, number
            )
            ui.coach.reviewed.setdefault(number, judged)
        else:
            return
        charge_here(used)


def table_commands(visitor: Visitor) -> dict[str, Command]:
    """What can be typed at a served table besides cards, for its help and its
    dispatch: the game's words (no takebacks: the others have seen the moves; `quit`
    leaves the table, as `leave` does), and the table's own."""
    game = {name: command for name, command in COMMANDS.items() if name not in ("undo", "quit")}
    own = (
        Command("who", "who sits where, and who is away", lambda ui: who(visitor)),
        Command(
            "takeover",
            "let the computer play for someone away long enough",
            lambda ui: take_over(visitor),
        ),
        Command("sit", "take your seat back from the computer", lambda ui: take_back(visitor)),
        Command("leave", "back to the lobby (your seat waits for you)", lambda ui: visitor.leave()),
    )
    talk = (
        Command("adjourn", "put the game away for another day, if all agree", lambda ui: None),
        Command("say", "say TEXT: to the players and the watchers", lambda ui: None),
        Command("tell", "tell NAME TEXT: to one person, anywhere", lambda ui: None),
        Command("mute", "mute [NAME]: what NAME says no longer reaches you", lambda ui: None),
        Command("tables", "who is here, and the tables", lambda ui: None),
        Command("top", "the ladder: the club's ratings", lambda ui: None),
        Command("stats", "your history", lambda ui: None),
    )
    help_last = game.pop("help")
    mine = {command.name: command for command in (*own, *talk)}
    return {**game, **mine, "help": help_last}


def who(visitor: Visitor) -> None:
    table = visitor.table or visitor.watched
    if table is None:
        return
    room = visitor.room
    watchers = room.watching(table)
    visitor.say(f"  {printable(table.describe(room.now(), room.idle_times(), len(watchers)))}")
    if watchers:
        names = sorted({v.name for v in watchers})
        visitor.say(f"  watching: {printable(', '.join(names))}")


def take_back(visitor: Visitor) -> None:
    """``sit``: back in one's own seat after the computer took it over."""
    seated = visitor.seated
    if seated is None:
        return
    table = seated.table
    if not table.taken(seated.seat):
        visitor.say("  you play your own seat: the computer does not")
        return
    table.give_back(seated.seat)
    visitor.say("  Your seat is yours again.")
    visitor.room.tell_table(table, f"{visitor.name} plays again.", but=visitor)
    visitor.room.log(f"{visitor.name} takes the seat back at table {table.number}")
    seated.shown = ()
    visitor.show_table()
    visitor.room.changed(table)


def take_over(visitor: Visitor) -> None:
    table = visitor.table
    if table is None:
        return
    now = visitor.room.now()
    seats = [seat for seat in table.away if table.can_take_over(seat, now)]
    if not seats:
        waits = [
            table.setup.away - (now - since)
            for seat, since in table.away.items()
            if not table.taken(seat)
        ]
        if waits:
            visitor.say(f"  wait {max(min(waits), 0):.0f} more seconds for them to come back")
        else:
            visitor.say("  nobody is away")
        return
    for seat in seats:
        table.take_over(seat)
        whom = table.names()[seat]
        visitor.room.tell_table(table, f"the computer plays for {whom} from now")
        visitor.room.log(
            f"the computer plays for {whom} at table {table.number} ({visitor.name} asked)"
        )
    visitor.room.changed(table)


def at_watch(visitor: Visitor, text: str) -> None:
    word = text.split()[0].lower()
    if word in ("leave", "quit", "lobby"):
        visitor.stop_watching()
    elif word in ("who", "tables"):
        who(visitor)
    elif word in ("help", "?"):
        for line in WATCH_HELP:
            visitor.say(line)
    else:
        raise CribbageError(f"`{word[:20]}` is not something a watcher does: `help` lists what is")


WATCH_HELP = (
    "Watching a table:",
    "  say TEXT         to the other watchers (to the players too once the game is over)",
    "  tell NAME TEXT   to one person (not to a player of this game while it runs)",
    "  mute [NAME]      what NAME says no longer reaches you; `unmute NAME` undoes it",
    "  who              who plays, and who watches",
    "  tables, top      who is here and the tables; the ladder",
    "  stats            your history",
    "  leave            back to the lobby",
)
"""What a watcher can type."""
