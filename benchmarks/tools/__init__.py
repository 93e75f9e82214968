"""Tuning tools: ``python -m benchmarks.tools.NAME`` from the repository root."""
