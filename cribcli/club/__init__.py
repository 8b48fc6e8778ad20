"""The club that ``cribbage serve`` keeps: its database of accounts, ratings and the
indexes of games (``database``), the ratings worked out from the logs (``ratings``), the
room's tables and seats (``lobby``) and the served games on disk (``served``).

Imports everything below it; the people's terminals are ``ui.serve``'s.
"""
