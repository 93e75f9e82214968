"""A variant's rules in a few lines, as ``sixtysix rules`` prints them first and the ``rules``
command of a game shows them, and the ``sixtysix rules`` command line that shows the rest."""

from __future__ import annotations

import shlex

from rich.text import Text

from sixtysix.core.variant import Variant
from sixtysix.i18n import Translator


def rules_summary(v: Variant, tr: Translator) -> Text:
    """The name, aliases, players and rules summary of ``v``, as ``sixtysix rules`` prints
    them first (and ``rules`` inside ``sixtysix play`` shows them)."""
    aliases = tr._(" (aliases: {names})").format(names=", ".join(v.aliases)) if v.aliases else ""
    players = tr._("{n} players").format(n=v.seats)
    text = Text(v.name, style="bold")
    text.append(f"{aliases} — {players}\n")
    text.append(tr.text(" ".join(v.summary().split())))
    return text


def rules_command(v: Variant, lang: str) -> str:
    """The ``sixtysix rules`` command line that shows ``v``'s rules with its options."""
    words = ["sixtysix", "rules", v.name]
    for name, value in v.options.diff().items():
        words += ["-o", f"{name}={option_value(value)}"]
    if lang != "en":
        words += ["--lang", lang]
    return shlex.join(words)


def option_value(value: object) -> str:
    """An option's value as it is typed (``-o name=value``): booleans as ``true``/``false``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
