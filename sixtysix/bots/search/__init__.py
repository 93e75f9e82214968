"""The searches the players share: the generic alpha-beta :mod:`~sixtysix.bots.search.solver`
(with its leaf evaluation and state copier), the determinization
:mod:`~sixtysix.bots.search.estimate` (imagined deals searched and averaged, within a budget)
and the play-outs of :mod:`~sixtysix.bots.search.rollouts`.

The compiled two-player search (:mod:`sixtysix.bots.compiled`) is not here: with the compiled
two-player rules it stays at the top of :mod:`sixtysix.bots` until it gets a layer of its own.
"""
