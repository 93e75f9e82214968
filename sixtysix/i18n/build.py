"""The translation catalogs' files: each language's ``.po`` read, merged with the messages of
the code, and compiled into the ``.mo`` shipped beside it (a development tool; needs Babel).

Run as ``python -m sixtysix.cli.catalogs update`` or ``compile``: the messages come from every
layer of the package (the code, the variants, the commands' help), which
:mod:`sixtysix.cli.catalogs` collects and hands to :func:`merge`.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from sixtysix.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from sixtysix.i18n.click_catalog import CLICK_DOMAIN

#: The package's source directory, whose marked messages the catalogs hold.
PACKAGE_DIR = Path(__file__).resolve().parent.parent

#: The catalogs compiled: the package's own, and Click's words (kept by hand, never updated
#: from the code: its msgids are Click's, see :mod:`sixtysix.i18n.click_catalog`).
DOMAINS = (DOMAIN, CLICK_DOMAIN)


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def mo_path(lang: str, domain: str = DOMAIN) -> Path:
    return po_path(lang, domain).with_suffix(".mo")


def read_catalog(lang: str, domain: str = DOMAIN) -> Catalog:
    with po_path(lang, domain).open("rb") as fh:
        return read_po(fh, locale=lang, domain=domain)


def compiled(lang: str, domain: str = DOMAIN) -> bytes:
    """The .mo bytes the .po of ``lang`` (in ``domain``) compiles to."""
    out = io.BytesIO()
    write_mo(out, read_catalog(lang, domain))
    return out.getvalue()


def merge(template: Catalog) -> None:
    """Every language's .po brought in step with ``template``, the messages of the code."""
    for lang in LANGUAGES[1:]:
        path = po_path(lang)
        if path.exists():
            catalog = read_catalog(lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, domain=DOMAIN, project="sixtysix")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.fuzzy = False
        catalog.project = "sixtysix"
        catalog.msgid_bugs_address = ""
        catalog.last_translator = "sixtysix developers"
        catalog.language_team = lang
        with path.open("wb") as fh:
            write_po(fh, catalog, width=100, omit_header=False, ignore_obsolete=True)


def compile_all() -> None:
    for lang in LANGUAGES[1:]:
        for domain in DOMAINS:
            mo_path(lang, domain).write_bytes(compiled(lang, domain))
