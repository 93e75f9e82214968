"""Click commands whose ``--help`` speaks the user's language.

Help text is written in English in the code; :class:`LocalizedCommand` (every sub-command) and
:class:`LocalizedGroup` (``sixtysix`` itself) translate it when the help is shown, paragraph by
paragraph (``\\b`` example blocks stay as written), with the language from ``--lang`` when it
comes before ``--help`` or else from the locale. A Turkish user reading ``sixtysix --help``
should not meet a list of commands half in one language and half in the other, so every
command is localized, and a test fails for one that is not. The catalog entries are collected
by ``python -m sixtysix.cli.catalogs update`` from every command of :data:`sixtysix.cli.COMMANDS`
(:func:`sixtysix.cli.catalogs.command_texts`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from sixtysix.cli.errors import EXIT_INTERRUPTED, InputError, stderr_is_terminal
from sixtysix.i18n import LANGUAGES, N_, Translator, click_catalog, normalize, translator

_META_KEY = "sixtysix.lang"
# Click's own words (Usage:, Options:, Error:...) follow the command's language.
click_catalog.install()
F = TypeVar("F", bound=Callable[..., Any])


def help_paragraphs(text: str) -> list[str]:
    """The translatable paragraphs of a help text (``\\b`` blocks are not translated)."""
    return [normalize(p) for p in text.split("\n\n") if p.strip() and not _verbatim(p)]


def _verbatim(paragraph: str) -> bool:
    return paragraph.strip().startswith("\b")


#: The headings a verbatim block may start with: translated, while the commands under them
#: stay as typed.
BLOCK_HEADINGS = (N_("Examples:"),)


def _verbatim_block(paragraph: str, tr: Translator) -> str:
    """A ``\\b`` block as written, but for its heading (``Examples:``) in ``tr``'s language."""
    head, newline, rest = paragraph.partition("\n")
    if head.strip() == "\b" and rest:
        first, newline2, body = rest.partition("\n")
        if first.strip() in BLOCK_HEADINGS:
            indent = first[: len(first) - len(first.lstrip())]
            return head + newline + indent + tr._(first.strip()) + newline2 + body
    return paragraph


def translate_help(text: str, tr: Translator) -> str:
    parts = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        if not paragraph.strip():
            parts.append(paragraph)
        elif _verbatim(paragraph):
            parts.append(_verbatim_block(paragraph, tr))
        else:
            parts.append(tr.text(paragraph))
    return "\n\n".join(parts)


def _remember_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        ctx.meta[_META_KEY] = value
        click_catalog.use(value)
    return value


def lang_in_args(args: list[str]) -> str | None:
    """The ``--lang`` value among command-line arguments, read before Click parses them, so
    that Click's own parsing errors are already in that language (None: not given)."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            continue
        if value.strip().lower() in LANGUAGES:
            return value.strip().lower()
    return None


def current_translator() -> Translator:
    """The translator of the running command's language (``--lang``, else the locale)."""
    return translator(click_catalog.language())


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


def one_line(exc: click.UsageError) -> click.ClickException:
    """A usage error as every other error is shown: one ``Error:`` line, exit status 2.

    Click prints the usage, a hint and a blank line before the message; here the hint ends
    the line instead, so scripts and people read every error the same way.
    """
    message = " ".join(exc.format_message().split())
    ctx = exc.ctx
    if ctx is not None and ctx.command.get_help_option(ctx) is not None:
        names = ctx.command.get_help_option_names(ctx)
        stop = "" if message.endswith((".", "?", "!", ")")) else "."
        hint = click_catalog.click_gettext("Try '{command} {option}' for help.")
        message += stop + " " + hint.format(command=ctx.command_path, option=max(names, key=len))
    return InputError(message)


@contextmanager
def _reported() -> Iterator[None]:
    """Usage errors as one line; Ctrl-C (also inside a prompt) as one line and status 130."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise  # the help itself, not an error line
    except click.UsageError as exc:
        raise one_line(exc) from None
    except (KeyboardInterrupt, click.Abort) as exc:
        if isinstance(exc, click.Abort) and not isinstance(exc.__context__, KeyboardInterrupt):
            raise
        # After the terminal's ``^C`` echo, start a line of our own.
        lead = "\n" if stderr_is_terminal() else ""
        click.echo(lead + current_translator()._("Interrupted."), err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None


class _Reporting(click.Command):
    """Every error of parsing or running a command ends as one line (see :func:`one_line`)."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        lang = lang_in_args(args)
        if parent is None or lang is not None:
            # A new command line (CliRunner runs many in one process): its language afresh.
            click_catalog.use(lang)
        with _reported():
            if any("\0" in arg for arg in args):
                # No shell can pass one (argv is C strings); a program calling main() can.
                message = current_translator()._("an argument contains a NUL character")
                raise click.UsageError(message)
            return super().make_context(info_name, args, parent, **extra)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # ``--help --lang tr``: the eager --help ends the parse before --lang's callback runs,
        # so this command line's language is remembered before parsing starts.
        lang = lang_in_args(args)
        if lang is not None:
            ctx.meta.setdefault(_META_KEY, lang)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        with _reported():
            return super().invoke(ctx)


class _LocalizedHelp(_Reporting):
    """Translates a command's help text and option help while its help is shown."""

    def _options(self, ctx: click.Context) -> list[click.Parameter]:
        """The command's parameters and Click's own ``--help`` (its text is Click's)."""
        own = self.get_help_option(ctx)
        return [*self.params, own] if own is not None else list(self.params)

    @contextmanager
    def _translated(self, ctx: click.Context) -> Iterator[None]:
        tr = translator(ctx.meta.get(_META_KEY))
        saved_help = self.help
        saved = [(p, getattr(p, "help", None)) for p in self._options(ctx)]
        try:
            if self.help:
                self.help = translate_help(self.help, tr)
            for param, text in saved:
                if isinstance(param, click.Option) and text:
                    own = click_catalog.click_text(text, tr.lang)
                    param.help = tr.text(text) if own is None else own
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


class LocalizedCommand(_LocalizedHelp):
    """A command whose help text and option help are translated when shown."""


class LocalizedGroup(_LocalizedHelp, click.Group):
    """A group whose own help is translated when shown (its sub-commands translate theirs)."""
