"""Looking back at games: what each decision was worth and the marks (``coach``), luck
told from skill (``luck``), the accuracy bands (``grading``), and a player's history from
their logs (``stats``).

Imports the rules, the players and the record, nothing above them.
"""
