"""The client's defaults, in a module light enough for the command line to import at once."""

from __future__ import annotations

#: The server a client talks to unless told (``--server`` or ``$SIXTYSIX_SERVER``).
DEFAULT_SERVER = "ws://127.0.0.1:6666"
SERVER_ENV = "SIXTYSIX_SERVER"
#: How long the server keeps a dropped seat by default (seconds): the client retries as long.
DEFAULT_RECONNECT_TIME = 180
