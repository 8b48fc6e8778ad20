"""Text rendering, the REPL and the plain line mode."""

PACE = 0.6
"""Seconds between the computers' moves where a person watches them (``play`` at a
terminal, a served table), so that each can be followed."""
