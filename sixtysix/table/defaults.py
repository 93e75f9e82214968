"""The table's defaults, in a module light enough for the command line to import at once."""

from __future__ import annotations

from sixtysix.service.timer import DEFAULT_MOVE_TIME, MAX_MOVE_TIME, MIN_MOVE_TIME

#: The server a client talks to unless told (``--server`` or ``$SIXTYSIX_SERVER``).
DEFAULT_SERVER = "ws://127.0.0.1:6666"
SERVER_ENV = "SIXTYSIX_SERVER"
#: How long the server keeps a dropped seat by default (seconds): the client retries as long.
DEFAULT_RECONNECT_TIME = 180
#: A rated table's move time, default and bounds (seconds): the Portal's, as ``play`` keeps
#: them. A test table has no timer (RULES.md "Play on the Portal").
MOVE_TIME = DEFAULT_MOVE_TIME
MOVE_TIME_RANGE = (MIN_MOVE_TIME, MAX_MOVE_TIME)
