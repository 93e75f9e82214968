"""Keep the translation catalogs in step with the code (a development tool; needs Babel).

    python -m sixtysix.i18n.build update    # extract messages, merge them into every .po
    python -m sixtysix.i18n.build compile   # compile every .po into the .mo shipped beside it
                                            # (sixtysix.po, and click.po: Click's own words)

Messages come from two places: strings marked with ``_()``/``N_()`` in the package, and the
text of the built-in variants that ``sixtysix rules`` shows (descriptions, rule summaries and
option docs), which is translated by its English wording. The compiled ``.mo`` files are
committed, so an installed or freshly cloned package needs no Babel at run time; the test suite
recompiles the ``.po`` files and fails if a committed ``.mo`` differs.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from sixtysix.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, normalize
from sixtysix.i18n.click_catalog import CLICK_DOMAIN

PACKAGE_DIR = Path(__file__).resolve().parent.parent
BUILTIN_VARIANTS = (
    "sixtysix.variants.sixtysix",
    "sixtysix.variants.schnapsen",
    "sixtysix.variants.sixtysix_3",
    "sixtysix.variants.sixtysix_4",
)


def variant_texts() -> list[str]:
    """The built-in variants' user-facing text, as :meth:`Translator.text` looks it up."""
    from sixtysix.core.variant import Variant
    from sixtysix.plugins.manager import build_registry

    reg = build_registry(autoload=False)
    texts: list[str] = []
    for cls in reg.variants.values():
        if cls.__module__ not in BUILTIN_VARIANTS:
            continue
        variant: Variant = cls()
        texts.append(normalize(cls.description))
        texts.append(normalize(variant.summary()))
        texts.extend(normalize(spec.doc) for spec in cls.options_class.specs())
    return [t for t in dict.fromkeys(texts) if t]


def extract() -> Catalog:
    """Every message of the package and the built-in variants' text."""
    catalog = Catalog(project="sixtysix", domain=DOMAIN)
    keywords = {**DEFAULT_KEYWORDS, "p_": ((1, "c"), 2)}  # Translator.p_(context, message)
    found = extract_from_dir(str(PACKAGE_DIR), keywords=keywords)
    for filename, lineno, message, _comments, context in found:
        if isinstance(message, str) and message:
            where = [(f"sixtysix/{filename}", lineno)]
            catalog.add(message, locations=where, context=context or None)
    for text in variant_texts():
        catalog.add(text, auto_comments=["variant text (sixtysix rules)"])
    from sixtysix.cli.localized import command_texts

    for text in command_texts():
        catalog.add(text, auto_comments=["command help (--help)"])
    return catalog


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


def update() -> None:
    template = extract()
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


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"]:
        update()
    elif argv[:1] == ["compile"]:
        compile_all()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
