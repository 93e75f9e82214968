"""Translations of every user-facing string: English source text, Turkish catalogs.

Messages are written in English in the code and looked up in gettext catalogs
(``locale/<lang>/LC_MESSAGES/sixtysix.mo``) with the standard library's :mod:`gettext`, so the
installed program needs no extra dependency. The ``.mo`` files are compiled from the ``.po``
files with Babel at development time (``python -m sixtysix.cli.catalogs``) and committed; a test
compiles the ``.po`` files again and fails when a committed ``.mo`` is stale, and another checks
that every message the code marks has a Turkish translation.

A :class:`Translator` is passed around explicitly rather than installed globally, so two
languages can be used side by side (the tests run the play loop in both).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "sixtysix"
LOCALE_DIR = Path(__file__).with_name("locale")
#: The languages the interface speaks; English is the source language.
LANGUAGES: tuple[str, ...] = ("en", "tr")
DEFAULT_LANGUAGE = "en"


def N_(message: str) -> str:
    """Mark a message for extraction without translating it yet (module-level tables)."""
    return message


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """The language from ``SIXTYSIX_LANG`` (``en`` or ``tr``: this program alone), else from
    the locale variables, as gettext reads them: LANGUAGE, LC_ALL, LC_MESSAGES, LANG.
    ``tr_TR.UTF-8`` gives Turkish; anything else English."""
    env = os.environ if environ is None else environ
    own = env.get("SIXTYSIX_LANG", "").strip().lower()
    if own in LANGUAGES:
        return own
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for part in value.split(":"):
            code = part.split(".")[0].split("_")[0].split("@")[0].lower()
            if code in LANGUAGES:
                return code
            if code and code not in ("c", "posix"):
                return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def normalize(text: str) -> str:
    """Collapse whitespace, so a docstring and its catalog entry match however wrapped."""
    return " ".join(text.split())


class Translator:
    """Looks messages up in one language's catalog; English returns them unchanged."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        code = lang.strip().lower()
        if code not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
        self.lang = code
        self._catalog: gettext.NullTranslations
        if code == DEFAULT_LANGUAGE:
            self._catalog = gettext.NullTranslations()
        else:
            self._catalog = gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[code])

    def _(self, message: str) -> str:
        """The translation of ``message`` (the English text itself when there is none)."""
        return self._catalog.gettext(message)

    def p_(self, context: str, message: str) -> str:
        """The translation of ``message`` in ``context``: for a word whose translation
        depends on where it stands ("games" of a simulation are single deals, "oyun", where
        the standings' are matches, "maç")."""
        return self._catalog.pgettext(context, message)

    def n_(self, singular: str, plural: str, count: int) -> str:
        """The form of a message for ``count`` things ("1 table", "3 tables"), by the
        language's own plural rule."""
        return self._catalog.ngettext(singular, plural, count)

    def text(self, message: str) -> str:
        """Translate text that is not marked in the code (option docs, rule summaries): it is
        looked up by its English wording with whitespace collapsed."""
        key = normalize(message)
        return self._catalog.gettext(key) if key else key

    def has(self, message: str) -> bool:
        """Whether the catalog has a translation of this (normalized) text."""
        key = normalize(message)
        return self.lang == DEFAULT_LANGUAGE or self._catalog.gettext(key) != key


def translator(lang: str | None = None) -> Translator:
    """The translator for ``lang``, or for the locale's language when it is None."""
    return Translator(lang or default_language())
