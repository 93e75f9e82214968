"""Hook specifications and the plugin manager (entry-point group ``sixtysix``).

Plugins import :data:`hookimpl` from here and implement the hooks of
:mod:`sixtysix.plugins.hookspecs`.
"""

import pluggy

PROJECT = "sixtysix"
hookimpl = pluggy.HookimplMarker(PROJECT)
hookspec = pluggy.HookspecMarker(PROJECT)

__all__ = ["PROJECT", "hookimpl", "hookspec"]
