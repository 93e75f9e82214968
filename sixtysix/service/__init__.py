"""The table service: what any screen of a table needs, below every screen.

The words of the game in either language, reading typed moves, why a move is not allowed and
why a deal scored what it did, the public facts of a deal, the narration of events as data,
hints, take-back, the move timer, leaving and match scores and the standings. Nothing here
draws: the terminal (:mod:`sixtysix.play`), the table client and the environments draw it.
"""
