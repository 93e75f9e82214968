"""Click commands whose ``--help`` speaks the player's language.

Help text is written in English in the code; :class:`LocalizedCommand` translates it when the
help is shown, paragraph by paragraph (``\\b`` example blocks stay as written), with the
language from ``--lang`` when it comes before ``--help`` or else from the locale. The catalog
entries are collected by ``python -m sixtysix.i18n.build`` from :data:`LOCALIZED_COMMANDS`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from sixtysix.i18n import LANGUAGES, Translator, normalize, translator

#: The commands whose help is translated, as "module:attribute" (see the i18n build).
LOCALIZED_COMMANDS = (
    "sixtysix.cli.play_cmd:play",
    "sixtysix.cli.standings_cmd:standings",
    "sixtysix.cli.analyse_cmd:analyse",
)
_META_KEY = "sixtysix.lang"
F = TypeVar("F", bound=Callable[..., Any])


def help_paragraphs(text: str) -> list[str]:
    """The translatable paragraphs of a help text (``\\b`` blocks are not translated)."""
    return [normalize(p) for p in text.split("\n\n") if p.strip() and not _verbatim(p)]


def _verbatim(paragraph: str) -> bool:
    return paragraph.strip().startswith("\b")


def translate_help(text: str, tr: Translator) -> str:
    parts = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        if not paragraph.strip() or _verbatim(paragraph):
            parts.append(paragraph)
        else:
            parts.append(tr.text(paragraph))
    return "\n\n".join(parts)


def _remember_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        ctx.meta[_META_KEY] = value
    return value


def lang_option() -> Callable[[F], F]:
    """``--lang en|tr``, read early so that ``--lang tr --help`` is in Turkish."""
    return click.option(
        "--lang",
        type=click.Choice(LANGUAGES, case_sensitive=False),
        default=None,
        is_eager=True,
        callback=_remember_lang,
        help="Language (default: from the locale, LANG).",
    )


class LocalizedCommand(click.Command):
    """A command whose help text and option help are translated when shown."""

    @contextmanager
    def _translated(self, ctx: click.Context) -> Iterator[None]:
        tr = translator(ctx.meta.get(_META_KEY))
        saved_help = self.help
        saved = [(p, getattr(p, "help", None)) for p in self.params]
        try:
            if self.help:
                self.help = translate_help(self.help, tr)
            for param, text in saved:
                if isinstance(param, click.Option) and text:
                    param.help = tr.text(text)
            yield
        finally:
            self.help = saved_help
            for param, text in saved:
                if isinstance(param, click.Option):
                    param.help = text

    def get_help(self, ctx: click.Context) -> str:
        with self._translated(ctx):
            return super().get_help(ctx)

    def get_short_help_str(self, limit: int = 45) -> str:
        ctx = click.get_current_context(silent=True)
        if ctx is None:
            return super().get_short_help_str(limit)
        with self._translated(ctx):
            return super().get_short_help_str(limit)


def command_texts() -> list[str]:
    """Every help paragraph and option help of :data:`LOCALIZED_COMMANDS`, for the catalog."""
    import importlib

    texts: list[str] = []
    for target in LOCALIZED_COMMANDS:
        module, _, attr = target.partition(":")
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command)
        texts.extend(help_paragraphs(command.help or ""))
        for param in command.params:
            text = getattr(param, "help", None)
            if isinstance(param, click.Option) and text:
                texts.append(normalize(text))
    return list(dict.fromkeys(texts))
