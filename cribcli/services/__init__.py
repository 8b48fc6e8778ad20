"""The application: a game's whole life on disk for play, daily and served tables alike
(``games``), matches and tournaments and where they are played (``match``,
``tournament``, ``runner``), practice on your own costly decisions (``training``) and the
day's problems (``quiz``).

Imports everything below it (rules, players, record, protocol, review); draws nothing.
"""
