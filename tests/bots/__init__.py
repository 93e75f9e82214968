"""Tests of the computer players."""
