"""The terminal: ``sixtysix play``'s game loop and screen, its saves, and a person's seat at
a remote table (``sixtysix join``).

The loop (:mod:`sixtysix.play.session`) knows no terminal: it reads from an input source and
writes to a screen, so tests drive it with scripted input and an injected clock, and the
terminal (:mod:`sixtysix.play.terminal`) is one more source and screen. What it says and
reads comes from the table service (:mod:`sixtysix.service`); how it is drawn, from
:mod:`sixtysix.text`.
"""
