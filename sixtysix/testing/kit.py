"""Bundle the checks into kits a plugin's test suite runs with one parametrised test.

```python
import pytest
from sixtysix.testing import ConformanceKit
from sixtysix_house import House

KIT = ConformanceKit(House)

@pytest.mark.parametrize("check", KIT.checks(), ids=str)
def test_conformance(check):
    check()
```

Each check is named after what it covers and the options it runs with, so a failure reads
``random_play[house: claim=manual]`` and its message names the deal and step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from sixtysix.bots.base import Bot
from sixtysix.core.rng import Seed
from sixtysix.core.variant import Variant
from sixtysix.testing import bot_checks, fast_checks, variant_checks
from sixtysix.testing.play import ConformanceError
from sixtysix.variants.schnapsen import Schnapsen
from sixtysix.variants.sixtysix import SixtySix
from sixtysix.variants.sixtysix_3 import SixtySix3
from sixtysix.variants.sixtysix_4 import SixtySix4

Config = Mapping[str, object]


@dataclass(frozen=True)
class Check:
    """One named conformance check; call it to run it (it raises on failure)."""

    name: str
    run: Callable[[], None] = field(repr=False, compare=False)

    def __call__(self) -> None:
        self.run()

    def __str__(self) -> str:
        return self.name


def default_configs(cls: type[Variant]) -> list[dict[str, object]]:
    """The defaults, every preset, and each option moved off its default one at a time.

    Moving one option at a time reaches every rule switch a variant declares without the
    combinatorial blow-up of all combinations; presets add the combinations the author chose.
    """
    configs: list[dict[str, object]] = [{}]
    for preset in cls.presets:
        configs.append(dict(cls.configure(preset).options.diff()))
    for spec in cls.options_class.specs():
        if spec.kind == "bool":
            values: list[object] = [not spec.default]
        elif spec.kind == "int":
            values = [int(spec.default) + 1]
        else:
            assert spec.choices is not None
            values = [c for c in spec.choices if c != spec.default]
        configs.extend({spec.name: v} for v in values)
    unique: list[dict[str, object]] = []
    for c in configs:
        if c not in unique:
            unique.append(c)
    return unique


def _label(cls: type[Variant], config: Config) -> str:
    shown = ", ".join(f"{k}={_fmt(v)}" for k, v in config.items()) or "defaults"
    return f"{cls.name}: {shown}"


def _fmt(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


class ConformanceKit:
    """The conformance suite for one variant class, over a list of option sets.

    ``deals`` scales the random play of every check; the defaults keep a variant's full run to
    a few seconds. ``seed`` makes every run reproducible (failures name deal and step).
    """

    def __init__(
        self,
        variant: type[Variant],
        configs: Iterable[Config] | None = None,
        *,
        deals: int = 12,
        seed: int = 0,
    ) -> None:
        self.variant = variant
        self.configs: list[dict[str, object]] = (
            [dict(c) for c in configs] if configs is not None else default_configs(variant)
        )
        self.deals = deals
        self.seed = Seed(seed)

    def _configured(self, config: Config) -> Variant:
        return self.variant(self.variant.options_class.build(config))

    def checks(self) -> list[Check]:
        cls = self.variant
        out = [
            Check(f"metadata[{cls.name}]", lambda: variant_checks.check_metadata(cls)),
            Check(f"options[{cls.name}]", lambda: variant_checks.check_options(cls)),
        ]
        n = self.deals
        for i, config in enumerate(self.configs):
            label = _label(cls, config)
            seed = self.seed.child((cls.name, i))
            per_config: list[tuple[str, Callable[[Variant, Seed], None]]] = [
                ("deal", lambda v, s: variant_checks.check_deal(v, s, max(2, n // 2))),
                ("random_play", lambda v, s: variant_checks.check_random_play(v, s, 3 * n)),
                (
                    "legal_actions",
                    lambda v, s: variant_checks.check_legal_actions(v, s, max(1, n // 2)),
                ),
                ("copy", lambda v, s: variant_checks.check_copy(v, s, n)),
                ("records", lambda v, s: variant_checks.check_records(v, s, n)),
                ("views", lambda v, s: variant_checks.check_views(v, s, max(1, n // 2))),
                ("view_independence", lambda v, s: variant_checks.check_view_independence(v, s, n)),
            ]
            if (
                i == 0
                or config in [dict(cls.configure(p).options.diff()) for p in cls.presets]
                or self._configured(config).match_format != self._configured({}).match_format
            ):
                per_config.append(("match", lambda v, s: variant_checks.check_match(v, s, 1)))
            if i == 0:
                per_config.append(
                    ("simulation", lambda v, s: variant_checks.check_simulation(v, s, 8 * n))
                )
            # The fast paths, wherever one takes this configuration's games.
            configured = self._configured(config)
            if fast_checks.fast_simulation_applies(configured):
                per_config.append(
                    ("fast_simulation", lambda v, s: fast_checks.check_fast_simulation(v, s, 4 * n))
                )
            if fast_checks.compiled_search_applies(configured):
                per_config.append(
                    (
                        "compiled_play",
                        lambda v, s: fast_checks.check_compiled_play(v, s, max(2, n // 2)),
                    )
                )
            for check_name, func in per_config:
                out.append(Check(f"{check_name}[{label}]", self._bind(func, config, seed)))
        return out

    def _bind(
        self, func: Callable[[Variant, Seed], None], config: Config, seed: Seed
    ) -> Callable[[], None]:
        def run() -> None:
            func(self._configured(config), seed)

        return run

    def run(self) -> None:
        """Run every check; raise one :class:`ConformanceError` listing all that failed."""
        run_all(self.checks())


class BotKit:
    """The conformance suite for one bot class, played in the given variants.

    By default the bot plays every built-in variant, so a bot that only understands card
    plays fails on the trump call of three-player 66 here rather than in a tournament. Every
    answer must be a legal action in its plain form (an ``int`` or ``Action`` exactly), the
    bot must leave what it is given unchanged, and its choices must depend on its view and
    seed alone (``bot_view_only``: ``4 * deals`` positions per variant).
    """

    def __init__(
        self,
        bot: type[Bot],
        variants: Sequence[Variant] | None = None,
        *,
        params: Mapping[str, str] | None = None,
        deals: int = 4,
        seed: int = 0,
    ) -> None:
        self.bot = bot
        self.variants = list(variants) if variants is not None else builtin_variants()
        self.params = dict(params or {})
        self.deals = deals
        self.seed = Seed(seed)

    def checks(self) -> list[Check]:
        cls = self.bot
        out = [Check(f"bot_metadata[{cls.name}]", lambda: bot_checks.check_bot_metadata(cls))]
        for variant in self.variants:
            seed = self.seed.child((cls.name, variant.name))
            label = f"{cls.name} in {variant.name}"
            out.append(
                Check(f"bot_plays[{label}]", self._bind(bot_checks.check_bot_plays, variant, seed))
            )
            out.append(
                Check(
                    f"bot_reproducible[{label}]",
                    self._bind(bot_checks.check_bot_reproducible, variant, seed),
                )
            )
            out.append(
                Check(
                    f"bot_view_only[{label}]",
                    self._bind(bot_checks.check_bot_view_only, variant, seed),
                )
            )
        return out

    def _bind(self, func: Callable[..., None], variant: Variant, seed: Seed) -> Callable[[], None]:
        def run() -> None:
            func(self.bot, variant, seed, self.deals, self.params)

        return run

    def run(self) -> None:
        run_all(self.checks())


def builtin_variants() -> list[Variant]:
    """One default-configured instance of every built-in variant."""
    return [SixtySix(), Schnapsen(), SixtySix3(), SixtySix4()]


def run_all(checks: Iterable[Check]) -> None:
    failures: list[str] = []
    for check in checks:
        try:
            check()
        except ConformanceError as exc:
            failures.append(f"{check.name}: {exc}")
    if failures:
        raise ConformanceError(
            f"{len(failures)} conformance check(s) failed:\n" + "\n".join(failures)
        )
