"""What a seat makes of the cards it cannot see, from its view alone.

:mod:`~sixtysix.bots.inference.sampling` imagines them: complete deals consistent with the view
(with :mod:`~sixtysix.bots.inference.draws`, :mod:`~sixtysix.bots.inference.duties` and
:mod:`~sixtysix.bots.inference.views`); :mod:`~sixtysix.bots.inference.play` and, at tables of
three or four, :mod:`~sixtysix.bots.inference.table` weigh the imagined deals by how well they
explain the other seats' actions.
"""
