"""Typed, documented, strictly validated variant options.

A variant declares its options as a frozen dataclass whose fields are made with :func:`option`;
the defaults and one-line docs live next to the type, so ``sixtysix rules`` and the validation
error messages are generated from the same source.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from sixtysix.core.errors import OptionError

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def option(default: Any, doc: str, *, choices: tuple[str, ...] | None = None) -> Any:
    """A dataclass field for an option: its default, a one-line doc and, for text, its choices."""
    return dataclasses.field(default=default, metadata={"doc": doc, "choices": choices})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """What :func:`option` declared, read back for validation and documentation."""

    name: str
    kind: str  # "bool" | "int" | "choice"
    default: bool | int | str
    doc: str
    choices: tuple[str, ...] | None = None

    def describe_values(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            return "a positive integer"
        assert self.choices is not None
        return "one of " + ", ".join(self.choices)

    def coerce(self, value: object, variant: str) -> bool | int | str:
        """Turn a string (command line) or a JSON value (record) into this option's value."""
        bad = OptionError(
            f"option {self.name!r} of {variant} must be {self.describe_values()} (got {value!r})"
        )
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise bad
        if self.kind == "int":
            if isinstance(value, bool):
                raise bad
            if isinstance(value, int):
                number = value
            elif isinstance(value, str) and value.strip().isdigit():
                number = int(value.strip())
            else:
                raise bad
            if number < 1:
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
            out.append(OptionSpec(f.name, kind, default, f.metadata.get("doc", ""), choices))
        return tuple(out)

    @classmethod
    def spec(cls, name: str) -> OptionSpec:
        for s in cls.specs():
            if s.name == name:
                return s
        valid = ", ".join(s.name for s in cls.specs())
        raise OptionError(f"unknown option {name!r} for {cls.variant_name}; valid options: {valid}")

    @classmethod
    def build(cls, values: Mapping[str, object] | None = None) -> Self:
        """Validated options from names to values (strings or JSON values); others default."""
        kwargs: dict[str, Any] = {}
        for name, value in (values or {}).items():
            kwargs[name] = cls.spec(name).coerce(value, cls.variant_name)
        return cls(**kwargs)

    def __post_init__(self) -> None:
        for s in self.specs():
            value = getattr(self, s.name)
            if s.coerce(value, self.variant_name) != value or type(value) is not type(s.default):
                raise OptionError(
                    f"option {s.name!r} of {self.variant_name} must be {s.describe_values()}"
                    f" (got {value!r})"
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


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """Read ``name=value`` strings (the CLI's ``-o``) into a dict; a malformed one is an error."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise OptionError(f"options are given as name=value, not {item!r}")
        out[name.strip().lower().replace("-", "_")] = value.strip()
    return out
