"""Bulk simulation: many independent games, reproducible from one seed."""
