"""``sixtysix-player/1``: the line protocol through which any program plays a seat.

:mod:`~sixtysix.protocol.messages` builds and checks the messages (pure functions, no I/O, so
the same messages can travel over another transport); :mod:`~sixtysix.protocol.referee` runs
an external program as a seat; :mod:`~sixtysix.protocol.player` turns a ``choose(view)``
function into such a program. The reference is ``docs/protocol.md``.
"""
