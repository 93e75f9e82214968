"""Click's own words (``Usage:``, ``Options:``, ``Error:``, ``Missing argument``...) in the
user's language.

Click marks its messages for gettext but looks them up in the process-wide default domain,
which no locale setting of ours reaches and which ``--lang`` could not change. Each of Click's
modules binds ``_`` (and ``ngettext``) at import, so :func:`install` rebinds those names to
functions that read the ``click`` catalog shipped here (``locale/<lang>/LC_MESSAGES/click.po``)
for the language chosen by :func:`use` — the command's ``--lang`` or else the locale. English
returns Click's text unchanged. The rebinding is idempotent and touches nothing but Click.
"""

from __future__ import annotations

import gettext
import importlib
from functools import cache

from sixtysix.i18n import DEFAULT_LANGUAGE, LANGUAGES, LOCALE_DIR, default_language

CLICK_DOMAIN = "click"
#: Click's modules that look messages up with gettext.
CLICK_MODULES = (
    "click.core",
    "click.decorators",
    "click.exceptions",
    "click.formatting",
    "click.parser",
    "click.termui",
    "click.types",
    "click.utils",
)

_current: list[str | None] = [None]


@cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The ``click`` catalog of ``lang`` (English: none, Click's own text)."""
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(CLICK_DOMAIN, localedir=LOCALE_DIR, languages=[lang])


@cache
def _sources() -> dict[str, str]:
    """Every translation of a Click message (and the message itself) -> Click's English."""
    out: dict[str, str] = {}
    for lang in LANGUAGES[1:]:
        messages = getattr(catalog(lang), "_catalog", {})
        for key, text in messages.items():
            if isinstance(key, str) and key:
                out[text] = key
                out[key] = key
    return out


def click_source(text: str) -> str | None:
    """Click's English for ``text`` when it is one of Click's own messages in any language
    (built once, in the language of the moment, like ``--help``'s help); None otherwise."""
    return _sources().get(text)


def click_text(text: str, lang: str) -> str | None:
    """``text`` in ``lang`` when it is one of Click's own messages in any language (Click
    builds some, like ``--help``'s "Show this message and exit.", once, in the language of the
    moment); None for any other text."""
    source = click_source(text)
    return None if source is None else catalog(lang).gettext(source)


def use(lang: str | None) -> None:
    """Speak ``lang`` from now on (None: the locale's language)."""
    code = None if lang is None else lang.strip().lower()
    _current[0] = code if code in LANGUAGES else None


def language() -> str:
    return _current[0] or default_language()


def click_gettext(message: str) -> str:
    return catalog(language()).gettext(message)


def click_ngettext(singular: str, plural: str, n: int) -> str:
    return catalog(language()).ngettext(singular, plural, n)


def install() -> None:
    """Point Click's message lookups at :func:`click_gettext` / :func:`click_ngettext`."""
    for name in CLICK_MODULES:
        module = importlib.import_module(name)
        if hasattr(module, "_"):
            module._ = click_gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = click_ngettext  # type: ignore[attr-defined]
