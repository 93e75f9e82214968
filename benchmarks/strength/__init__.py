"""Strength benchmarks: ``python -m benchmarks.strength.NAME`` from the repository root.

Their own tests (``test_*.py`` here) run with ``pytest benchmarks/strength``.
"""
