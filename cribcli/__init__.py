"""cribcli: cribbage for the terminal."""

__version__ = "0.1.0.dev0"

from cribcli import native

native.choose()
