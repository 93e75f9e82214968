"""The generic trick-taking engine. Nothing in this package names a particular variant."""
