"""Play together: a table server many people join from their own terminals (issue 24).

The wire protocol is ``sixtysix-table/1``: JSON messages over WebSockets, the referee messages
of the player protocol (``sixtysix-player/1``) for each seat plus the table's own (``join``,
``welcome``, ``update``, ``seats``...). The server keeps names and their secret tokens
(:mod:`.names`) and the Portal-scored standings (:mod:`.standings_db`) in SQLite; the client
keeps its tokens in the user data directory (:mod:`.tokens`); :mod:`.scripted` is a scripted
client for the tests and the benchmark.
"""
