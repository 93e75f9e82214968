"""Keep the translation catalogs in step with the code (a development tool; needs Babel).

    python -m sixtysix.cli.catalogs update    # extract messages, merge them into every .po
    python -m sixtysix.cli.catalogs compile   # compile every .po into the .mo shipped beside it
                                              # (sixtysix.po, and click.po: Click's own words)

Messages come from three places: strings marked with ``_()``/``N_()`` in the package, the text
of the built-in variants that ``sixtysix rules`` shows (descriptions, rule summaries and option
docs), and the help of every command (paragraphs and option help); the last two are translated
by their English wording. They are collected here, where every layer may be imported, and
handed to :mod:`sixtysix.i18n.build`, which reads, merges and compiles the catalog files. The
compiled ``.mo`` files are committed, so an installed or freshly cloned package needs no Babel
at run time; the test suite recompiles the ``.po`` files and fails if a committed ``.mo``
differs.
"""

from __future__ import annotations

import sys

import click
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

from sixtysix.cli import COMMANDS, cli
from sixtysix.cli.localized import help_paragraphs
from sixtysix.core.variant import Variant
from sixtysix.i18n import DOMAIN, normalize
from sixtysix.i18n.build import PACKAGE_DIR, compile_all, merge
from sixtysix.i18n.click_catalog import click_source
from sixtysix.plugins.manager import build_registry

BUILTIN_VARIANTS = (
    "sixtysix.variants.sixtysix",
    "sixtysix.variants.schnapsen",
    "sixtysix.variants.sixtysix_3",
    "sixtysix.variants.sixtysix_4",
)


def variant_texts() -> list[str]:
    """The built-in variants' user-facing text, as :meth:`Translator.text` looks it up."""
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


def localized_commands() -> list[click.Command]:
    """``sixtysix`` itself and every sub-command of :data:`sixtysix.cli.COMMANDS`."""
    ctx = click.Context(cli)
    commands: list[click.Command] = [cli]
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        commands.append(command)
    return commands


def help_texts(command: click.Command) -> list[str]:
    """The translatable texts of one command's help: its paragraphs and its options' help
    (Click's ``--help`` included, in Click's English whatever language built it), as the
    catalog keys them."""
    texts = help_paragraphs(command.help or "")
    for param in command.get_params(click.Context(command)):
        text = getattr(param, "help", None)
        if isinstance(param, click.Option) and text:
            texts.append(normalize(click_source(text) or text))
    return texts


def command_texts() -> list[str]:
    """Every help paragraph and option help of every command, for the catalog."""
    commands = localized_commands()
    for group in [c for c in commands if isinstance(c, click.Group) and c.name != "sixtysix"]:
        commands.extend(group.commands[name] for name in sorted(group.commands))  # table new
    texts = [text for command in commands for text in help_texts(command)]
    return list(dict.fromkeys(texts))


def extract() -> Catalog:
    """Every message of the package, the built-in variants' text and the commands' help."""
    catalog = Catalog(project="sixtysix", domain=DOMAIN)
    # Translator.p_(context, message); _said(message): a message of the CLI said before any
    # translator exists (cli/common.py).
    keywords = {**DEFAULT_KEYWORDS, "p_": ((1, "c"), 2), "n_": (1, 2), "_said": None}
    found = extract_from_dir(str(PACKAGE_DIR), keywords=keywords)
    for filename, lineno, message, _comments, context in found:
        plural = isinstance(message, tuple) and len(message) == 2 and all(message)  # n_()
        if plural or (isinstance(message, str) and message):
            where = [(f"sixtysix/{filename}", lineno)]
            catalog.add(message, locations=where, context=context or None)
    for text in variant_texts():
        catalog.add(text, auto_comments=["variant text (sixtysix rules)"])
    for text in command_texts():
        catalog.add(text, auto_comments=["command help (--help)"])
    return catalog


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"]:
        merge(extract())
    elif argv[:1] == ["compile"]:
        compile_all()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
