"""The commands of ``cribbage``, a module for each few: the command line loads a
command's module only when that command runs (see :class:`cribcli.cli.Group`)."""
