"""Playing in the terminal: the game loop, its rendering, input, timer, standings and saves.

The loop (:mod:`sixtysix.play.session`) knows no terminal: it reads from an input source and
writes to a screen, so tests drive it with scripted input and an injected clock, and the
terminal (:mod:`sixtysix.play.terminal`) is one more source and screen.
"""
