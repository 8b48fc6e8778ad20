"""``cribbage serve``: friends play each other over SSH."""

from __future__ import annotations

from pathlib import Path

import click

from cribcli.cli import Command
from cribcli.commands.options import data_dir_option
from cribcli.commands.seating import check_scheduler
from cribcli.rules.errors import CribbageError, Exit, UsageProblem

SERVE_EXAMPLES = """\b
Examples:
  cribbage serve --authorized-keys friends.txt     friends.txt: `ann ssh-ed25519 AAAA...`
  ssh -p 2222 ann@localhost                        then `new`, `join 1`, `solo hard`
  cribbage serve --open --host 0.0.0.0 --port 2222 anyone, under the name they give
"""


def check_store(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A PostgreSQL store's address: ``postgresql://...`` (the SQLite store needs none)."""
    if value is None or value == "":
        return None
    from cribcli.club.engines import POSTGRES_SCHEMES

    if not value.startswith(POSTGRES_SCHEMES) or len(value) > 1000 or not value.isprintable():
        raise click.BadParameter("give the store as postgresql://USER@HOST/DATABASE")
    return value


@click.command(cls=Command, epilog=SERVE_EXAMPLES)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=2222, show_default=True, help="The port."
)
@click.option(
    "--authorized-keys",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Let in the keys in FILE, one `NAME KEY` a line (KEY as in authorized_keys).",
)
@click.option(
    "--open",
    "open_door",
    is_flag=True,
    help="Let anyone in, under the name they give (a name keeps its first key).",
)
@click.option(
    "--max-connections", type=click.IntRange(1), metavar="N",
    help="Connections at once, in all.  [default: as many as the machine's open files and "
    "memory hold; the operator log says how many]",
)  # fmt: skip
@click.option(
    "--per-key", type=click.IntRange(1), default=3, show_default=True,
    help="Connections at once under one name.",
)  # fmt: skip
@click.option(
    "--max-tables", type=click.IntRange(1), default=50, show_default=True,
    help="Tables at once.",
)  # fmt: skip
@click.option(
    "--idle", type=click.FloatRange(10), default=1800.0, show_default=True, metavar="SECONDS",
    help="Close a connection with nothing typed for this long.",
)  # fmt: skip
@click.option(
    "--line-limit", type=click.IntRange(20, 10_000), default=200, show_default=True,
    help="The longest line a person may type.",
)  # fmt: skip
@click.option(
    "--line-rate", type=click.IntRange(1, 1000), default=20, show_default=True,
    help="Lines (and window resizes) a second a connection may send.",
)  # fmt: skip
@click.option(
    "--new-names-per-hour", type=click.IntRange(1), default=5, show_default=True,
    help="With --open: new names one address may give in an hour.",
)  # fmt: skip
@click.option(
    "--max-names", type=click.IntRange(1), default=10_000, show_default=True,
    help="With --open: the most names the server keeps.",
)  # fmt: skip
@click.option(
    "--forget-names", type=click.FloatRange(min=0, min_open=True), default=30.0,
    show_default=True, metavar="DAYS",
    help="With --open: forget a name that never finished a game after this many days.",
)  # fmt: skip
@click.option(
    "--scheduler", metavar="ADDRESS", callback=check_scheduler,
    help="The tables' computers decide, and hints and reviews are worked out, on the Dask "
    "cluster whose scheduler is at ADDRESS (tcp://host:8786), not in this machine's "
    "processes (needs cribcli[cluster]; see docs/serve.md).",
)  # fmt: skip
@click.option(
    "--store", metavar="ADDRESS", envvar="CRIBBAGE_STORE", callback=check_store,
    help="Keep the club (accounts, ratings, the indexes of games) in the PostgreSQL "
    "database at ADDRESS (postgresql://user@host/db; a password is best left to "
    "PGPASSWORD or ~/.pgpass), shared with other servers, not in the folder's SQLite "
    "file (needs cribcli[postgres]; see docs/serve.md).  [env: CRIBBAGE_STORE]",
)  # fmt: skip
@click.option(
    "--rebuild-ratings", is_flag=True,
    help="Work the club's ratings out again from the filed games' logs alone, then stop.",
)  # fmt: skip
@data_dir_option
def serve(
    host: str,
    port: int,
    authorized_keys: str | None,
    open_door: bool,
    max_connections: int | None,
    per_key: int,
    max_tables: int,
    idle: float,
    line_limit: int,
    line_rate: int,
    new_names_per_hour: int,
    max_names: int,
    forget_names: float,
    scheduler: str | None,
    store: str | None,
    rebuild_ratings: bool,
    data_dir: str | None,
) -> None:
    """Let people play each other over SSH: `ssh -p PORT NAME@HOST`.

    A lobby shows who is connected and the tables; a table has 2, 3 or 4 seats, to 121 or
    61, muggins or not, its empty seats filled by people who join or by the computer. Each
    person sees the table as `cribbage play` draws it, with their own hand only. A person
    who drops keeps their seat: connecting again puts them back; after the time the
    table's creator set, the others may let the computer play for them (`takeover`).
    Every game is saved as it is played, carried on when the server starts again, and
    filed for each person who played it (their `stats` count it). People are let in by
    their keys (--authorized-keys), or anyone with --open (a name is one person whatever
    its case, shown as first written). Needs the serve extra:
    pip install 'cribcli[serve]'. Ctrl-C or SIGTERM stops it, every game saved.
    """
    import asyncio

    from cribcli.club.served import ServerLock
    from cribcli.record.store import Places, reason
    from cribcli.rules.errors import printable

    root = Places.find(data_dir).data / "server"
    if rebuild_ratings:
        from cribcli.club.served import filed_logs, open_club, read_logs

        with ServerLock(root):
            try:
                club = open_club(root, store)
                rated = club.rebuild(read_logs(root, filed_logs(root)))
            except ImportError:
                raise UsageProblem("ratings need openskill: pip install 'cribcli[serve]'") from None
            people = len(club.standings())
            club.close()
        click.echo(f"Ratings worked out again from {rated} rated games: {people} people.")
        return
    if authorized_keys is None and not open_door:
        raise UsageProblem("say who may come in: --authorized-keys FILE, or --open for anyone")
    if authorized_keys is not None and open_door:
        raise UsageProblem("--authorized-keys and --open: choose one")
    try:
        from cribcli.ui import serve as served
    except ImportError:
        raise UsageProblem("serving needs asyncssh: pip install 'cribcli[serve]'") from None
    options = served.ServeOptions(
        root=root,
        host=host,
        port=port,
        authorized_keys=Path(authorized_keys) if authorized_keys else None,
        open=open_door,
        scheduler=scheduler,
        store=store,
        limits=served.Limits(
            connections=max_connections or served.AS_MANY_AS_FIT,
            per_key=per_key,
            tables=max_tables,
            idle=idle,
            line=line_limit,
            rate=line_rate,
            new_names_per_hour=new_names_per_hour,
            names=max_names,
            forget_after=forget_names * 86_400.0,
        ),
    )

    def told(line: str) -> None:
        click.echo(f"cribbage serve: {printable(line)}", err=True)

    try:
        with ServerLock(root):
            signum = asyncio.run(served.serve(options, told))
    except OSError as error:
        raise CribbageError(f"cannot serve on {host} port {port}: {reason(error)}") from None
    if signum is not None:  # stopped by Ctrl-C (130) or SIGTERM (143), every game saved
        click.get_current_context().exit(Exit.signalled(signum))
