"""Speed benchmarks: ``python -m benchmarks.speed.NAME`` from the repository root."""
