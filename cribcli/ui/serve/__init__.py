"""``cribbage serve``: the game over SSH, so that friends play each other with nothing
to install. Each connection gets the same prompt and table as ``cribbage play``, with its
own seat's view only; a lobby lists who is here and the tables, and starts or joins one.

- :mod:`~cribcli.ui.serve.ssh`: the SSH side, who may come in, each person's terminal
  (the only importer of asyncssh, an optional extra: this package is imported only by
  ``serve``);
- :mod:`~cribcli.ui.serve.room`: the people connected, each table's moves told to the
  people at it, its computers playing;
- :mod:`~cribcli.ui.serve.visitor`: one person's words, in the lobby and at a table.

The games on disk are :mod:`cribcli.club.served`'s; the tables and seats,
:mod:`cribcli.club.lobby`'s.
"""

from cribcli.ui.serve.room import AS_MANY_AS_FIT, Limits, Room, ServeOptions
from cribcli.ui.serve.ssh import host_key, load_keys, serve

__all__ = ["AS_MANY_AS_FIT", "Limits", "Room", "ServeOptions", "host_key", "load_keys", "serve"]
