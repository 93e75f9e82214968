"""``variant_from``: the one way a variant is rebuilt from its name and options."""

from __future__ import annotations

import pytest

from sixtysix.bots.inference.views import variant_of
from sixtysix.core.errors import OptionError, UnknownVariantError
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.envs.episodes import make_variant
from sixtysix.plugins.manager import Registry, build_registry, get_registry, variant_from
from sixtysix.protocol.messages import decode_view, encode_view
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix

REGISTRY = build_registry(autoload=False)

ORIGINALS: list[Variant] = [
    SixtySix(),
    SixtySix.configure("classic"),
    SixtySix.configure(overrides={"talonless": True, "target": 11, "open_scores": True}),
    Schnapsen.configure(overrides={"claim": "manual", "schneider_card_points_only": True}),
    REGISTRY.variant("66-3").configure(overrides={"no66": "last_trick_wins"}),
    REGISTRY.variant("66-4").configure(overrides={"solo_loss": "double", "target": 21}),
]


@pytest.mark.parametrize("original", ORIGINALS, ids=lambda v: f"{v.name}-{v.options.diff()}")
def test_the_rebuilt_variant_is_the_original(original: Variant) -> None:
    for options in (original.options.diff(), original.options.as_dict()):
        rebuilt = variant_from(REGISTRY, original.name, options)
        assert type(rebuilt) is type(original)
        assert rebuilt.options == original.options
        assert rebuilt.rules == original.rules
        assert rebuilt.match_format == original.match_format


def test_aliases_presets_and_text_values_are_taken() -> None:
    classic = variant_from(REGISTRY, " 66 ", {"target": "11"}, "classic")
    assert type(classic) is SixtySix
    assert classic.options == SixtySix.configure("classic", {"target": 11}).options


def test_the_same_arguments_give_the_same_cached_variant() -> None:
    first = variant_from(REGISTRY, "schnapsen", {"target": 5})
    assert variant_from(REGISTRY, "schnapsen", {"target": 5}) is first
    # Another registry holding the same class shares the variant; other spellings of the
    # same options give an equal one.
    assert variant_from(Registry.holding(Schnapsen), "schnapsen", {"target": 5}) is first
    spelt = variant_from(REGISTRY, "SCHNAPSEN", {"target": "5"})
    assert spelt.options == first.options and spelt.rules == first.rules


def test_every_caller_gets_the_one_rebuild() -> None:
    """The protocol, the environments and the bots' views all go through ``variant_from``."""
    options = {"claim": "manual", "failed_close": "2or3"}
    original = SixtySix.configure(overrides=options)
    view = original.new_deal(original.deal(Seed(3), ("r",), 0)).view(0)
    shared = variant_from(get_registry(), "sixtysix", dict(view.options))
    assert variant_of(view) is shared
    message = encode_view(view)
    assert decode_view(message, [], get_registry()).rules == view.rules
    assert variant_from(get_registry(), "sixtysix", message["options"]) is shared
    assert make_variant("sixtysix", None, options) is variant_from(
        get_registry(), "sixtysix", options
    )


@pytest.mark.parametrize(
    ("name", "options", "preset", "error", "words"),
    [
        ("no-such-game", {}, None, UnknownVariantError, "unknown variant 'no-such-game'"),
        ("66", {"no_such_option": 1}, None, OptionError, "unknown option 'no_such_option'"),
        ("66", {"target": 0}, None, OptionError, "option 'target' of sixtysix must be"),
        ("66", {}, "no-such-preset", OptionError, "unknown preset 'no-such-preset'"),
    ],
)
def test_an_unknown_name_or_option_is_a_one_line_error(
    name: str, options: dict[str, object], preset: str | None, error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as caught:
        variant_from(REGISTRY, name, options, preset)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_name_that_is_not_text_is_refused() -> None:
    with pytest.raises(TypeError, match="a variant is a name and an object of options"):
        variant_from(REGISTRY, 66, {})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a variant is a name and an object of options"):
        variant_from(REGISTRY, "66", [("target", 5)])  # type: ignore[arg-type]


def test_values_no_cache_key_holds_are_refused_as_options() -> None:
    with pytest.raises(OptionError, match="option 'target' of sixtysix must be"):
        variant_from(REGISTRY, "66", {"target": object()})
