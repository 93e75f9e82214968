"""Computer players. They receive a seat's :class:`~sixtysix.core.view.View`, nothing more.

Laid out by concept. At the top is what the rest of sixtysix uses: ``base`` (the ``Bot`` class
plugins subclass, and its parameters), ``levels``, ``seating``, ``external`` (``exec:``
programs as bots) and ``analysis`` (hints and reviews). Below it, ``players`` (the built-in
players), ``search`` (the searches they share) and ``inference`` (imagining the hidden cards
and weighing the imagined deals). The compiled two-player search (``compiled``, its kernels,
their ``_layout``, and ``warm``) stays at the top until it gets a layer of its own.
"""
