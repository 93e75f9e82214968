"""JSON from outside the program, read within bounds: a size, a nesting depth, finite numbers.

``json.loads`` recurses once per level of nesting, so a line of a few kilobytes of ``[`` raises
:class:`RecursionError`, which no caller expects. :func:`loads` measures the nesting first with
a scan that does not recurse (brackets inside strings do not count) and refuses anything deeper
than ``max_depth``, larger than ``max_bytes``, malformed, or holding a number Python cannot
hold (``NaN``, ``Infinity``, ``1e999``, more digits than ``int()`` reads), always with one
:class:`JSONInputError`: a ``ValueError`` of the project, which each caller already turns into
its one-line error.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator
from itertools import accumulate
from typing import Any

from sixtysix.core.errors import SixtySixError

#: Deepest nesting of arrays and objects read by default: the deepest message of either
#: protocol is 5 levels and a record or table file 6, so honest input has a wide margin, and
#: ``json.loads`` stays far from the interpreter's recursion limit (1000).
MAX_DEPTH = 64
#: Largest input read by default (bytes of UTF-8): one line or frame of either protocol.
MAX_BYTES = 64 * 1024


class JSONInputError(SixtySixError, ValueError):
    """JSON from outside that is refused; ``kind`` says why: ``size``, ``depth``, ``syntax``
    or ``number``, and the message says it in a few words (no part of the input)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


# Every escape (a backslash and the byte after it); what is left of the text once they are
# gone is quotes that open and close strings, in turn. Of that, only quotes and brackets matter
# to the depth (in UTF-8 no byte of another character is one of them).
_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_NOT_MARKS = bytes(b for b in range(256) if b not in b'"[]{}')
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def _levels(raw: bytes) -> Iterator[int]:
    """The depth after each bracket outside strings, in order."""
    if b"\\" in raw:
        raw = _ESCAPE.sub(b"", raw)
    marks = raw.translate(None, _NOT_MARKS)
    # Two quotes in a row are a string without brackets, or the end of one string and the
    # start of the next with no bracket between: either way nothing to count, and dropping
    # them keeps the quotes that are left alternating.
    outside = b"".join(marks.replace(b'""', b"").split(b'"')[::2])
    return accumulate(map(_STEP.__getitem__, outside))


def depth(text: str | bytes) -> int:
    """The deepest nesting of arrays and objects in ``text`` (0 for a bare value), brackets in
    strings not counted, found without recursing. On malformed text it is never less than the
    depth a parser reaches before it finds the error, so it bounds ``json.loads``."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return max(_levels(raw), default=0)


def _deeper_than(raw: bytes, limit: int) -> bool:
    """Whether ``raw`` is nested deeper than ``limit``: :func:`depth`, stopping at the first
    bracket past the limit (a line of ``[`` is refused after ``limit + 1`` of them)."""
    return next(filter(limit.__lt__, _levels(raw)), None) is not None


def _refuse_constant(name: str) -> Any:
    raise JSONInputError("number", f"{name}, which is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONInputError("number", "a number beyond the range of a float")
    return value


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite)


def loads(data: str | bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """The value of ``data`` (a ``str``, or ``bytes`` of UTF-8), or :class:`JSONInputError` if
    it is larger than ``max_bytes``, nested deeper than ``max_depth``, malformed, or holds a
    number that is not finite or has more digits than ``int()`` reads."""
    # A character is at least a byte: a string too long is not encoded to be measured.
    size = len(data)
    if isinstance(data, bytes):
        raw = data
    elif size <= max_bytes:
        raw = data.encode("utf-8", "surrogatepass")
        size = len(raw)
    if size > max_bytes:
        raise JSONInputError("size", f"larger than {max_bytes} bytes")
    # No more brackets than the limit: no need to look closer (every real message).
    if raw.count(b"[") + raw.count(b"{") > max_depth and _deeper_than(raw, max_depth):
        raise JSONInputError("depth", f"nested too deeply (more than {max_depth} levels)")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise JSONInputError("syntax", "not UTF-8") from None
    try:
        return _DECODER.decode(text)
    except JSONInputError:
        raise
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
        raise JSONInputError("syntax", f"not valid JSON ({where})") from None
    except ValueError:  # only int()'s digit limit gets here
        limit = sys.get_int_max_str_digits()
        raise JSONInputError("number", f"a number of more than {limit} digits") from None
    except RecursionError:  # only if the caller's own stack is already near the limit
        raise JSONInputError("depth", "nested too deeply to read") from None


__all__ = ["MAX_BYTES", "MAX_DEPTH", "JSONInputError", "depth", "loads"]
