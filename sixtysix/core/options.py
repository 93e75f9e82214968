"""Typed, documented, strictly validated variant options.

A variant declares its options as a frozen dataclass whose fields are made with :func:`option`;
the defaults and one-line docs live next to the type, so ``sixtysix rules`` and the validation
error messages are generated from the same source.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from sixtysix.core.errors import OptionError, shown

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
#: Digits as the command line writes a number: ASCII only (``int()`` would also take ``٣``).
_DIGITS = re.compile(r"[0-9]+")

#: The default largest value of an integer option: beyond any table's use, and small enough
#: that a match to the target always ends and every number stays machine-sized.
MAX_INT_OPTION = 1000


def option(
    default: Any,
    doc: str,
    *,
    choices: tuple[str, ...] | None = None,
    maximum: int = MAX_INT_OPTION,
) -> Any:
    """A dataclass field for an option: its default, a one-line doc and, for text, its choices
    (for an integer, its largest value)."""
    return dataclasses.field(
        default=default, metadata={"doc": doc, "choices": choices, "maximum": maximum}
    )


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """What :func:`option` declared, read back for validation and documentation."""

    name: str
    kind: str  # "bool" | "int" | "choice"
    default: bool | int | str
    doc: str
    choices: tuple[str, ...] | None = None
    maximum: int = MAX_INT_OPTION

    def describe_values(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            return f"a positive integer up to {self.maximum}"
        assert self.choices is not None
        return "one of " + ", ".join(self.choices)

    def coerce(self, value: object, variant: str, *, strict: bool = False) -> bool | int | str:
        """Turn a value into this option's value: text from the command line (``yes``, ``7``)
        or, with ``strict``, a JSON value from a record, which must have the option's type
        (``true``/``false``, an integer; RULES.md)."""
        bad = OptionError(
            f"option {self.name!r} of {variant} must be {self.describe_values()}"
            f" (got {shown(value)})"
        )
        text = value.strip().lower() if isinstance(value, str) and not strict else None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if text in _TRUE | _FALSE:
                return text in _TRUE
            raise bad
        if self.kind == "int":
            if isinstance(value, int) and not isinstance(value, bool):
                number = value
            elif text is not None and _DIGITS.fullmatch(text):
                # Too many digits is too large: no need to convert (nor to hit int()'s limit).
                number = int(text) if len(text) <= len(str(self.maximum)) else self.maximum + 1
            else:
                raise bad
            if not 1 <= number <= self.maximum:
                raise bad
            return number
        assert self.choices is not None
        if isinstance(value, str) and value.strip().lower() in self.choices:
            return value.strip().lower()
        raise bad


@dataclass(frozen=True)
class Options:
    """Base of every variant's options dataclass."""

    variant_name: ClassVar[str] = "variant"

    @classmethod
    def specs(cls) -> tuple[OptionSpec, ...]:
        """The declared options, read from the dataclass once per class (a match's record and
        every variant built asks for them)."""
        found = _SPECS.get(cls)
        if found is None:
            found = _SPECS[cls] = _read_specs(cls)
        return found

    @classmethod
    def spec(cls, name: str) -> OptionSpec:
        for s in cls.specs():
            if s.name == name:
                return s
        valid = ", ".join(s.name for s in cls.specs())
        raise OptionError(
            f"unknown option {shown(name)} for {cls.variant_name}; valid options: {valid}"
        )

    @classmethod
    def build(cls, values: Mapping[str, object] | None = None, *, strict: bool = False) -> Self:
        """Validated options from names to values, others default: text or typed values, or
        with ``strict`` (a record's options) typed JSON values only (:meth:`OptionSpec.coerce`)."""
        kwargs: dict[str, Any] = {}
        for name, value in (values or {}).items():
            if not isinstance(name, str):
                raise OptionError(f"option names are text, not {shown(name)}")
            kwargs[name] = cls.spec(name).coerce(value, cls.variant_name, strict=strict)
        return cls(**kwargs)

    def __post_init__(self) -> None:
        for s in self.specs():
            value = getattr(self, s.name)
            if (
                type(value) is not type(s.default)
                or s.coerce(value, self.variant_name, strict=True) != value
            ):
                raise OptionError(
                    f"option {s.name!r} of {self.variant_name} must be {s.describe_values()}"
                    f" (got {shown(value)})"
                )

    def replace(self, **changes: object) -> Self:
        merged = self.as_dict()
        merged.update(changes)
        return self.build(merged)

    def as_dict(self) -> dict[str, object]:
        return {s.name: getattr(self, s.name) for s in self.specs()}

    def diff(self) -> dict[str, object]:
        """Only the options that differ from the defaults, as records store them."""
        return {
            s.name: getattr(self, s.name)
            for s in self.specs()
            if getattr(self, s.name) != s.default
        }


#: Each options class's specs, read once.
_SPECS: dict[type[Options], tuple[OptionSpec, ...]] = {}


def _read_specs(cls: type[Options]) -> tuple[OptionSpec, ...]:
    """:meth:`Options.specs` of ``cls``: its fields as option specs, each checked."""
    out = []
    for f in dataclasses.fields(cls):
        default = f.default
        if not isinstance(default, (bool, int, str)):
            raise TypeError(f"option {f.name} of {cls.__name__} needs a default")
        choices = f.metadata.get("choices")
        if isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, int):
            kind = "int"
        else:
            kind = "choice"
            if not choices:
                raise TypeError(f"option {f.name} of {cls.__name__} needs choices")
        maximum = f.metadata.get("maximum", MAX_INT_OPTION)
        out.append(OptionSpec(f.name, kind, default, f.metadata.get("doc", ""), choices, maximum))
    return tuple(out)


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """Read ``name=value`` strings (the CLI's ``-o``) into a dict; a malformed one is an error."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise OptionError(f"options are given as name=value, not {shown(item)}")
        out[name.strip().lower().replace("-", "_")] = value.strip()
    return out
