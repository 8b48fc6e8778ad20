"""Text rendering, the REPL and the plain line mode."""
