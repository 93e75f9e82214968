"""The built-in variant plugins, each registered through the ``sixtysix`` entry points."""
