"""A game on record: the log's format (``log``), reading a log (``reader``) and replaying
it through the rules (``replay``); a game between seats written to its log as it goes
(``session``); the daily game's description (``daily``); where logs and the other files
live on disk, written so that nothing is half-written (``store``); and the worker
processes that play and read games (``workers``).

Imports the rules and the players, nothing above them.
"""
