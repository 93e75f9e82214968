"""The checks every variant plugin must pass, built-in or third-party.

Each check takes the variant (a class, or a configured instance) and a :class:`Seed`, plays
seeded random deals and raises :class:`ConformanceError` with the seed-independent facts a
fix needs: which deal, which step, which action, what was expected. They generalise the
property tests of the built-in variants so a plugin author gets the same safety net without
writing them again.
"""

from __future__ import annotations

import dataclasses
import gc
import json
from enum import Enum

from sixtysix.bots.base import Bot
from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.actions import ACTION_NAMES, NUM_ACTIONS
from sixtysix.core.cards import mask_of, mask_points
from sixtysix.core.deal import DealSetup
from sixtysix.core.errors import IllegalActionError, OptionError
from sixtysix.core.match import play_match
from sixtysix.core.options import Options
from sixtysix.core.outcome import Outcome, Reason
from sixtysix.core.records import DealRecord, Record, load_record_text
from sixtysix.core.replay import replay
from sixtysix.core.rng import Seed
from sixtysix.core.rules import Rules
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import Registry
from sixtysix.sim.simulate import iter_chunks, simulate
from sixtysix.testing.fast_checks import check_fast_simulation
from sixtysix.testing.play import (
    MAX_STEPS,
    choose,
    consistent_redeal,
    describe,
    fail,
    hidden_from,
    located,
    play_random,
    random_deal,
)


def registry_for(cls: type[Variant]) -> Registry:
    """A registry holding only ``cls``, so records replay through the public path."""
    return Registry.holding(cls)


# --------------------------------------------------------------------------- class level


def check_metadata(cls: type[Variant]) -> None:
    """Name, aliases, seats, description, docstring and options class are usable."""
    name = getattr(cls, "name", "")
    if not isinstance(name, str) or not name or name != name.strip().lower() or " " in name:
        raise fail(f"{cls.__name__}.name must be a lower-case word, not {name!r}")
    aliases = tuple(cls.aliases)
    if len({a.lower() for a in aliases} | {name}) != len(aliases) + 1:
        raise fail(f"{name}: aliases {aliases!r} repeat each other or the name")
    for alias in aliases:
        if alias != alias.strip().lower() or not alias or " " in alias:
            raise fail(f"{name}: alias {alias!r} must be a lower-case word")
    if not isinstance(cls.seats, int) or not 2 <= cls.seats <= 6:
        raise fail(f"{name}: seats must be an integer from 2 to 6, not {cls.seats!r}")
    if not cls.description.strip():
        raise fail(f"{name}: a one-line description is needed (sixtysix variants shows it)")
    if not (cls.__doc__ or "").strip():
        raise fail(f"{name}: the class docstring is the rules summary of `sixtysix rules`")
    opts = cls.options_class
    if not (isinstance(opts, type) and issubclass(opts, Options)):
        raise fail(f"{name}: options_class must subclass sixtysix.core.options.Options")
    if not dataclasses.is_dataclass(opts) or not opts.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise fail(f"{name}: {opts.__name__} must be a frozen dataclass")
    if opts.variant_name != name:
        raise fail(
            f"{name}: {opts.__name__}.variant_name is {opts.variant_name!r}; error messages"
            f" would name the wrong variant (set variant_name = {name!r})"
        )
    for spec in opts.specs():
        if not spec.doc.strip():
            raise fail(f"{name}: option {spec.name!r} has no one-line doc")
    for preset in cls.presets:
        if preset != preset.lower():
            raise fail(f"{name}: preset {preset!r} must be lower-case")


def check_options(cls: type[Variant]) -> None:
    """Defaults build, every option validates its values, presets and diffs round-trip."""
    name = cls.name
    opts = cls.options_class
    default = cls()
    if not isinstance(default.rules, Rules) or default.rules.seats != cls.seats:
        raise fail(f"{name}: make_rules must return Rules with seats={cls.seats}")
    if default.options.diff():
        raise fail(
            f"{name}: the default options differ from the defaults: {default.options.diff()}"
        )
    try:
        opts.build({"no_such_option": "1"})
    except OptionError as exc:
        if "no_such_option" not in str(exc):
            raise fail(f"{name}: the unknown-option error must name the option: {exc}") from None
    else:
        raise fail(f"{name}: an unknown option name was accepted")
    for spec in opts.specs():
        if opts.build({spec.name: spec.default}) != default.options:
            raise fail(f"{name}: setting {spec.name} to its default changed the options")
        bad: list[object]
        if spec.kind == "bool":
            bad = ["maybe", 2, "", None]
            good: list[object] = ["TRUE", "false", not spec.default]
        elif spec.kind == "int":
            bad = [0, -1, "x", True, 1.5, None, spec.maximum + 1, "²", "٣", "9" * 5000]
            good = [str(spec.default), int(spec.default) + 1]
        else:
            assert spec.choices is not None
            bad = ["no-such-choice", 1, None]
            good = [c.upper() for c in spec.choices]
        for value in bad:
            try:
                opts.build({spec.name: value})
            except OptionError as exc:
                if spec.name not in str(exc):
                    raise fail(
                        f"{name}: the error for {spec.name}={value!r} must name it"
                    ) from None
            else:
                raise fail(f"{name}: option {spec.name} accepted the bad value {value!r}")
        for value in good:
            try:
                built = opts.build({spec.name: value})
                variant = cls(built)
            except OptionError as exc:
                raise fail(f"{name}: option {spec.name}={value!r} was refused: {exc}") from None
            if opts.build(built.diff()) != built:
                raise fail(f"{name}: options {built.diff()} do not round-trip through diff()")
            if not isinstance(variant.rules, Rules):
                raise fail(f"{name}: make_rules failed for {spec.name}={value!r}")
    for preset in cls.presets:
        try:
            configured = cls.configure(preset)
        except OptionError as exc:
            raise fail(f"{name}: preset {preset!r} does not build: {exc}") from None
        if opts.build(configured.options.diff()) != configured.options:
            raise fail(f"{name}: preset {preset!r} does not round-trip through diff()")
    try:
        cls.configure("no-such-preset")
    except OptionError:
        pass
    else:
        raise fail(f"{name}: an unknown preset was accepted")


# --------------------------------------------------------------------------- dealing


def check_deal(variant: Variant, seed: Seed, deals: int = 8) -> None:
    """Deals are proper deals of the deck, reproducible from the seed, and vary with it."""
    rules = variant.rules
    seen: set[DealSetup] = set()
    for number in range(deals):
        for dealer in range(variant.seats):
            setup = variant.deal(seed, ("deal", number), dealer)
            try:
                setup.validate(rules)
            except Exception as exc:
                raise fail(f"{describe(variant)}: deal {number} is not valid: {exc}") from None
            if setup.dealer != dealer:
                raise fail(f"{describe(variant)}: asked for dealer {dealer}, got {setup.dealer}")
            if variant.deal(seed, ("deal", number), dealer) != setup:
                raise fail(f"{describe(variant)}: the same seed and path dealt different cards")
            if dealer == 0:
                seen.add(setup)
            state = variant.new_deal(setup)
            if not 0 <= state.to_act < variant.seats:
                raise fail(f"{describe(variant)}: no seat is to act when the deal starts")
        first = variant.first_dealer(seed, ("deal", number))
        if not 0 <= first < variant.seats:
            raise fail(f"{describe(variant)}: first_dealer gave {first}")
    if deals > 1 and len(seen) < 2:
        raise fail(f"{describe(variant)}: every deal was the same; the shuffle ignores the seed")


# --------------------------------------------------------------------------- play


def check_random_play(variant: Variant, seed: Seed, deals: int = 20) -> None:
    """Cards are conserved, a legal action exists until the end, the outcome adds up."""
    deck = variant.rules.deck
    stream = seed.stream(("choices",))
    for number in range(deals):
        where = f"{describe(variant)}, deal {number + 1}"
        state = random_deal(variant, seed, number)
        steps = 0
        while not state.is_over:
            if located(state) != deck:
                raise fail(f"{where}, step {steps + 1}: cards are missing or added")
            legal = state.legal_actions()
            if not legal:
                raise fail(f"{where}, step {steps + 1}: no legal action but the deal goes on")
            if legal != sorted(set(legal)) or not all(0 <= a < NUM_ACTIONS for a in legal):
                raise fail(f"{where}, step {steps + 1}: legal actions {legal} are not sorted codes")
            if not 0 <= state.to_act < state.n:
                raise fail(f"{where}, step {steps + 1}: to_act is {state.to_act}")
            state.apply(choose(stream, legal))
            steps += 1
            if steps > MAX_STEPS:
                raise fail(f"{where}: the deal did not end after {MAX_STEPS} actions")
        _check_outcome(state, where)


def _check_outcome(state: DealState, where: str) -> None:
    outcome = state.outcome
    n = state.n
    if not isinstance(outcome, Outcome):
        raise fail(f"{where}: the deal is over but has no Outcome")
    if not isinstance(outcome.reason, Reason):
        raise fail(f"{where}: reason {outcome.reason!r} is not one of RECORDS.md's reasons")
    for field in ("game_points", "points", "tricks"):
        values = getattr(outcome, field)
        if len(values) != n or not all(isinstance(v, int) and v >= 0 for v in values):
            raise fail(f"{where}: outcome.{field} {values!r} must hold {n} counts")
    if list(outcome.tricks) != state.tricks:
        raise fail(f"{where}: outcome.tricks {outcome.tricks} but tricks won {state.tricks}")
    deck = state.rules.deck
    won = 0
    for m in state.won:
        won |= m
    if sum(state.card_points) != mask_points(won) or mask_points(won & ~deck):
        raise fail(f"{where}: card points {state.card_points} do not match the cards won")
    if outcome.reason == Reason.DRAW and any(outcome.game_points):
        raise fail(f"{where}: a draw scored {outcome.game_points}")
    if state.legal_actions():
        raise fail(f"{where}: legal actions remain after the deal ended")
    try:
        state.apply(0)
    except IllegalActionError as exc:
        if "over" not in str(exc):
            raise fail(f"{where}: acting after the end must say the deal is over: {exc}") from None
    else:
        raise fail(f"{where}: an action was accepted after the deal ended")


def check_legal_actions(variant: Variant, seed: Seed, deals: int = 6) -> None:
    """``legal_actions`` is exactly what ``apply`` accepts; ``explain`` says why not, in a line."""
    stream = seed.stream(("choices",))
    for number in range(deals):
        where = f"{describe(variant)}, deal {number + 1}"
        state = random_deal(variant, seed, number)
        step = 0
        while not state.is_over:
            step += 1
            legal = set(state.legal_actions())
            for a in range(NUM_ACTIONS):
                trial = state.copy()
                try:
                    trial.apply(a)
                    accepted = True
                except IllegalActionError as exc:
                    accepted = False
                    if "\n" in str(exc) or not exc.reason:
                        raise fail(
                            f"{where}, step {step}: the reason for refusing"
                            f" {ACTION_NAMES[a]!r} must be one non-empty line: {exc}"
                        ) from None
                if accepted != (a in legal):
                    verb = "accepted" if accepted else "refused"
                    raise fail(
                        f"{where}, step {step}: apply {verb} {ACTION_NAMES[a]!r} but"
                        f" legal_actions() is {[ACTION_NAMES[x] for x in sorted(legal)]}"
                    )
                reason = state.explain(a)
                if (reason == "") != (a in legal):
                    raise fail(
                        f"{where}, step {step}: explain({ACTION_NAMES[a]!r}) is {reason!r}"
                        " but the action is " + ("legal" if a in legal else "illegal")
                    )
            state.apply(choose(stream, state.legal_actions()))


def check_copy(variant: Variant, seed: Seed, deals: int = 8) -> None:
    """``copy()`` keeps the class and the position, and shares nothing that play changes."""
    stream = seed.stream(("choices",))
    for number in range(deals):
        where = f"{describe(variant)}, deal {number + 1}"
        state = random_deal(variant, seed, number)
        play_random(state, stream, stop=stream.below(30))
        if state.is_over:
            continue
        twin = state.copy()
        if type(twin) is not type(state):
            raise fail(
                f"{where}: copy() returned {type(twin).__name__}, not {type(state).__name__}"
            )
        before = (state.legal_actions()[:], state.history[:], [h for h in state.hands])
        trial = state.copy()
        play_random(trial, seed.stream(("trial", number)))
        if (state.legal_actions(), state.history, state.hands) != before:
            raise fail(f"{where}: playing on a copy changed the original")
        a_stream, b_stream = seed.stream(("twin", number)), seed.stream(("twin", number))
        while not state.is_over:
            if state.legal_actions() != twin.legal_actions():
                raise fail(f"{where}: a copy offers different legal actions")
            state.apply(choose(a_stream, state.legal_actions()))
            twin.apply(choose(b_stream, twin.legal_actions()))
        if state.outcome != twin.outcome:
            raise fail(f"{where}: a copy played the same way scored differently")


# --------------------------------------------------------------------------- records


def check_records(variant: Variant, seed: Seed, deals: int = 10) -> None:
    """Every deal, finished or not, writes a record that replays to the same deal."""
    registry = registry_for(type(variant))
    stream = seed.stream(("choices",))
    for number in range(deals):
        where = f"{describe(variant)}, deal {number + 1}"
        state = random_deal(variant, seed, number)
        stop = None if number % 3 else stream.below(30)
        play_random(state, stream, stop=stop)
        record = Record(
            variant.name, variant.options.diff(), None, [DealRecord(state.setup, state.history)]
        )
        try:
            result = replay(load_record_text(record.dumps()), registry)
        except Exception as exc:
            raise fail(f"{where}: its own record does not replay: {exc}") from None
        replayed = result.deals[0]
        if replayed.result != state.outcome:
            raise fail(f"{where}: replay scored {replayed.result}, play scored {state.outcome}")
        if replayed.state.history != state.history:
            raise fail(f"{where}: the replayed actions differ from the played ones")
        json.dumps(result.as_json())


def check_match(variant: Variant, seed: Seed, matches: int = 2) -> None:
    """Whole matches end by the variant's match format (a total at the target, or the fixed
    number of deals played) and their records replay to the same totals."""
    registry = registry_for(type(variant))
    for m in range(matches):
        mseed = seed.child(("match", m))
        bots = [RandomBot(s, mseed.child(("bot", s))) for s in range(variant.seats)]
        try:
            result = play_match(variant, [b.choose for b in bots], mseed, max_deals=500)
        except RuntimeError as exc:
            raise fail(f"{describe(variant)}, match {m + 1}: {exc}") from None
        totals = [sum(o.game_points[s] for o in result.outcomes) for s in range(variant.seats)]
        fixed = variant.match_format.deals
        if fixed is not None and len(result.outcomes) != fixed:
            raise fail(
                f"{describe(variant)}, match {m + 1}: ended after {len(result.outcomes)} deals,"
                f" not {fixed}"
            )
        if totals != result.totals or (fixed is None and max(totals) < variant.target):
            raise fail(f"{describe(variant)}, match {m + 1}: ended at {totals} below the target")
        if not result.winners or any(totals[w] != max(totals) for w in result.winners):
            raise fail(f"{describe(variant)}, match {m + 1}: winners {result.winners} at {totals}")
        raw = load_record_text(result.record.dumps())
        try:
            again = replay(raw, registry)
        except Exception as exc:
            raise fail(
                f"{describe(variant)}, match {m + 1}: record does not replay: {exc}"
            ) from None
        if again.totals != result.totals or again.winners != result.winners:
            raise fail(f"{describe(variant)}, match {m + 1}: replay totals {again.totals} differ")


# --------------------------------------------------------------------------- views


_SAFE = (int, str, bool, float, type(None), Enum, Rules, Outcome)


def _walk_view(view: View, where: str) -> None:
    seen: set[int] = set()
    todo: list[object] = [getattr(view, f.name) for f in dataclasses.fields(view)]
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, (DealState, DealSetup, Variant, list, dict, set)) or not isinstance(
            obj, (*_SAFE, tuple, frozenset)
        ):
            raise fail(f"{where}: a view holds a {type(obj).__name__}, a way back to hidden state")
        if isinstance(obj, (tuple, frozenset)):
            todo.extend(obj)
    if any(isinstance(r, DealState) for r in gc.get_referents(view)):
        raise fail(f"{where}: a view refers to the deal state")


def _view_cards(view: View) -> int:
    mask = mask_of(view.hand) | mask_of(view.played) | mask_of(c for _, c in view.trick)
    for k in view.known:
        mask |= mask_of(k)
    if view.turnup is not None:
        mask |= 1 << view.turnup
    if view.called_ace is not None and view.called_ace not in view.played:
        # Naming the called ace is public; where it lies is not.
        mask &= ~(1 << view.called_ace) | mask_of(view.hand)
    return mask


def check_views(variant: Variant, seed: Seed, deals: int = 8) -> None:
    """A view shows no hidden card, offers actions only to the seat to act, and is a copy."""
    stream = seed.stream(("choices",))
    for number in range(deals):
        where = f"{describe(variant)}, deal {number + 1}"
        state = random_deal(variant, seed, number)
        step = 0
        while True:
            for seat in range(state.n):
                view = state.view(seat)
                leak = _view_cards(view) & hidden_from(state, seat)
                if leak:
                    raise fail(f"{where}, step {step}: seat {seat} sees hidden cards ({leak:#x})")
                if view.to_act == seat:
                    if list(view.legal_actions) != state.legal_actions():
                        raise fail(f"{where}, step {step}: the view's legal actions differ")
                elif view.legal_actions:
                    raise fail(f"{where}, step {step}: seat {seat} is offered actions out of turn")
            if step % 7 == 3:
                _walk_view(state.view(step % state.n), where)
            if state.is_over:
                break
            state.apply(choose(stream, state.legal_actions()))
            step += 1


def check_view_independence(variant: Variant, seed: Seed, deals: int = 8) -> None:
    """A view is unchanged when the cards its seat cannot see are dealt differently."""
    stream = seed.stream(("choices",))
    compared = 0
    for number in range(4 * deals):
        if compared >= deals:
            break
        state = random_deal(variant, seed, number)
        play_random(state, stream, stop=stream.below(2 * state.rules.hand_size * state.n))
        if state.is_over:
            continue
        seat = stream.below(state.n)
        other = consistent_redeal(variant, state, seat, seed.child(("deal", number)))
        if other is None:
            continue
        alt = state.redealt(other)
        for _, a in state.history:
            alt.apply(a)
        compared += 1
        if alt.view(seat) != state.view(seat):
            raise fail(
                f"{describe(variant)}, deal {number + 1}: seat {seat}'s view changed when"
                " only cards it cannot see were dealt differently"
            )
    if compared == 0:
        raise fail(f"{describe(variant)}: no position could be compared; play more deals")


# --------------------------------------------------------------------------- simulation


def check_simulation(variant: Variant, seed: Seed, games: int = 64) -> None:
    """The simulator's paths agree game by game, and its totals add up."""
    bots: list[tuple[type[Bot], dict[str, str]]] = [(RandomBot, {}) for _ in range(variant.seats)]
    generic = [
        r for chunk in iter_chunks(variant, bots, seed, 0, games, use_fast=False) for r in chunk
    ]
    check_fast_simulation(variant, seed, games)
    summary = simulate(variant, bots, games, seed, use_fast=False)
    if summary.games != games or sum(summary.reasons.values()) != games:
        raise fail(f"{describe(variant)}: the simulation summary does not count {games} games")
    points = [sum(r.outcome.game_points[s] for r in generic) for s in range(variant.seats)]
    if points != summary.game_points:
        raise fail(f"{describe(variant)}: simulated game points {summary.game_points} != {points}")
