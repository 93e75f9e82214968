"""``sixtysix serve`` on a small disk of its own: a tmpfs, for the tests of a full disk.

Run in a private mount namespace, as root::

    unshare --mount --propagation private python tmpfs_server.py DATA OUT SIZE BALLAST -- ARGS

It mounts a tmpfs of SIZE (e.g. ``300k``) at DATA, seen by this namespace alone (it goes with
the last process in it), fills BALLAST bytes of it with a file, starts ``sixtysix serve --data
DATA ARGS`` and prints ``pid N``, the server's process id. A line ``free`` on its stdin deletes
the ballast (answered ``freed``): room on the disk again. When the server ends, its table
files are copied to OUT, outside the tmpfs, and this exits with the server's status. Where no
tmpfs can be mounted it prints why and exits with :data:`CANNOT`.

It imports nothing from the tests, so it runs wherever it is put.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading

#: The exit status when no tmpfs can be mounted here (the test is skipped, with the reason).
CANNOT = 77


def main(argv: list[str]) -> int:
    data, out, size, ballast_bytes, separator, *serve = argv
    assert separator == "--", "usage: DATA OUT SIZE BALLAST -- SERVE-ARGS"
    os.makedirs(data, exist_ok=True)
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", data],
        capture_output=True,
        text=True,
        check=False,
    )
    if mount.returncode != 0:
        print(f"cannot mount a tmpfs: {mount.stderr.strip() or mount.returncode}", flush=True)
        return CANNOT
    ballast = os.path.join(data, "ballast")
    with open(ballast, "wb") as file:
        file.write(b"\0" * int(ballast_bytes))
    server = subprocess.Popen([sys.executable, "-m", "sixtysix", "serve", "--data", data, *serve])
    print(f"pid {server.pid}", flush=True)

    def commands() -> None:
        for line in sys.stdin:
            if line.strip() == "free":
                os.unlink(ballast)
                print("freed", flush=True)

    threading.Thread(target=commands, daemon=True).start()
    status = server.wait()
    shutil.copytree(os.path.join(data, "tables"), out)
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
