"""The project's benchmarks: scripts that measure it, kept out of the ``sixtysix`` package.

A package of its own so that the scripts import each other by absolute names
(``from benchmarks.strength._duels import ...``) without touching ``sys.path``. Run each one
as a module from the repository root, for example ``python -m benchmarks.speed.throughput``.
Nothing in ``sixtysix`` imports from here, and the wheel does not ship it.
"""
