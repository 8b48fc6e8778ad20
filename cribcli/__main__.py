"""``python -m cribcli`` runs the ``cribbage`` command."""

from cribcli.cli import main

main()
