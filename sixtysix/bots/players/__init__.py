"""The built-in players: ``random``, the ``heuristic`` rule player, ``pimc`` and the ``expert``.

Each registers itself as a plugin (``register_bots``) and plays from its seat's view alone;
the searches they use are in :mod:`sixtysix.bots.search`, what they make of the hidden cards in
:mod:`sixtysix.bots.inference`.
"""
