"""The game's rules: cards, counting a show and the play, the engine that deals and
applies every action, the events it tells, and the exact analysis of a throw.

Nothing here imports anything else of cribcli, nor knows about files, terminals, Click,
processes or the clock: it is the core every other folder builds on.
"""
