"""The engine protocol (docs/engine-protocol.md): any program that reads and writes a JSON
object a line can sit at the table.

- :mod:`~cribcli.protocol.messages`: what a seat is told and what it answers, both sides
  (``cribbage engine`` speaks it as a player);
- :mod:`~cribcli.protocol.referee`: running a program at the table: starting it, asking
  it with a time limit, stopping it and anything it started.
"""
