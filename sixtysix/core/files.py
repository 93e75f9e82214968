"""Writing a file whole or not at all, and only ever over a regular file.

Records and session files are written to a temporary file beside the target and renamed over
it, so a reader never sees half a file. Each write has its own temporary name, so two
processes saving at once never trip over each other's. The rename only ever replaces a regular
file: a path naming a device, a FIFO, a directory or a file of ``/proc`` is refused in one
line, since renaming over ``/dev/null`` would replace the device itself.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from sixtysix.core.errors import SixtySixError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None  # type: ignore[assignment]


class FileTargetError(SixtySixError, OSError):
    """A path the program will not, or cannot, write a file to."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def regular_target(path: Path) -> Path:
    """The regular file to write for ``path``: the file it names (through any symlinks), or a
    new file in an existing directory. Anything else raises :class:`FileTargetError`."""
    real = Path(os.path.realpath(path))
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        if not real.parent.is_dir():
            raise FileTargetError(f"cannot write {path}: {real.parent} does not exist") from None
        return real
    except NotADirectoryError:
        raise FileTargetError(f"cannot write {path}: a part of its folder is a file") from None
    except OSError as exc:
        raise FileTargetError(f"cannot write {path}: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        raise FileTargetError(f"cannot write {path}: it is {_kind(mode)}, not a regular file")
    return real


def _temporary(target: Path, mode: int = 0o666) -> tuple[int, Path]:
    """A new file beside ``target`` with a name of its own (``O_EXCL``), created with
    ``mode`` less the umask (the usual ``0o666`` unless a secret asks for less)."""
    while True:
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), tmp
        except FileExistsError:  # pragma: no cover - 48 random bits
            continue
        except OSError as exc:
            raise FileTargetError(
                f"cannot write {target}: cannot create a file in {target.parent} ({exc.strerror})"
            ) from None


def check_writable(path: Path) -> Path:
    """Fail now, in one line, if ``path`` could not be written later: it must be a regular
    file or a new one, in a directory where a file can be created (not ``/proc``)."""
    target = regular_target(path)
    fd, tmp = _temporary(target)
    os.close(fd)
    tmp.unlink()
    return target


def write_text_atomic(path: Path, text: str, mode: int = 0o666) -> None:
    """Write ``text`` to ``path`` whole: a temporary file of this write alone, created with
    ``mode`` (less the umask), then a rename over the target, checked to be a regular file."""
    target = regular_target(path)
    fd, tmp = _temporary(target, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        # Checked again just before the rename: it must never replace anything but a file.
        regular_target(target)
        os.replace(tmp, target)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and not isinstance(exc, FileTargetError):
            raise FileTargetError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


@contextlib.contextmanager
def locked_beside(
    path: Path, failure: Callable[[OSError], Exception], mode: int = 0o666
) -> Iterator[None]:
    """Hold an exclusive lock on ``<path>.lock`` for the block, so one process at a time reads,
    repairs and writes ``path`` (the folder and the lock file are made if need be; no lock
    where ``fcntl`` is missing). A lock that cannot be opened raises ``failure(error)``."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700 if mode & 0o077 == 0 else 0o777)
        fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, mode)
    except OSError as exc:
        raise failure(exc) from None
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def aside_name(path: Path) -> Path:
    """A free name beside ``path`` for a damaged copy of it: ``<name>.damaged-<UTC stamp>``."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    return aside
