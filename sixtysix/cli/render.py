"""Plain-text accounts of deals, shared by ``replay`` and other commands."""

from __future__ import annotations

from collections.abc import Iterator

from sixtysix.core.actions import ACTION_NAMES, TRUMP, TRUMP_BELOW, parse_action
from sixtysix.core.cards import CARD_NAMES, SUIT_NAMES, cards_of
from sixtysix.core.replay import Replay
from sixtysix.i18n import Translator, translator
from sixtysix.service.terms import fault_kind, seat_name


def describe_replay(result: Replay, tr: Translator | None = None) -> Iterator[str]:
    """The readable account of a replay; a forfeit is told in ``tr``'s words, as the table
    tells it (the rest is the notation's own)."""
    tr = tr or translator("en")
    variant = result.variant
    diff = variant.options.diff()
    opts = ", ".join(f"{k}={v}" for k, v in diff.items()) or "defaults"
    yield f"{variant.name} ({variant.seats} players), options: {opts}"
    for number, deal in enumerate(result.deals, 1):
        setup = deal.state.setup
        yield ""
        turn = f", turn-up {CARD_NAMES[setup.trump_card]}" if setup.trump_card is not None else ""
        yield f"Deal {number}: dealer seat {setup.dealer}{turn}"
        for seat, hand in enumerate(setup.hands):
            yield f"  seat {seat}: {' '.join(CARD_NAMES[c] for c in hand)}"
        if setup.talon:
            yield f"  talon: {' '.join(CARD_NAMES[c] for c in setup.talon)}"
        # Replay again, step by step, to narrate tricks as they complete.
        state = variant.new_deal(setup)
        for step in deal.steps:
            action = parse_action(step.action)
            tricks_before = sum(state.tricks)
            points_before = state.card_points[:]
            state.apply_legal(action)
            line = f"  seat {step.seat}: {ACTION_NAMES[action]}"
            if sum(state.tricks) > tricks_before:
                w = state.last_winner
                line += f"  -> trick to seat {w} (+{state.card_points[w] - points_before[w]})"
            yield line
            if TRUMP <= action <= TRUMP_BELOW:
                yield f"    trump is {SUIT_NAMES[state.trump]}"
        if deal.forfeit is not None:
            who = seat_name(tr, deal.forfeit.seat, -1)
            who += f" ({fault_kind(tr)(deal.forfeit.reason)})"
            yield "  " + tr._("a fault forfeits the deal: {who}").format(who=who)
        if deal.result is None:
            yield "  (unfinished)"
            hands = ", ".join(
                f"seat {s}: {' '.join(str(c) for c in cards_of(h))}"
                for s, h in enumerate(state.hands)
            )
            yield f"  hands now: {hands}"
        else:
            r = deal.result
            yield (
                f"  result: {r.reason}; game points {list(r.game_points)};"
                f" points {list(r.points)}; tricks {list(r.tricks)}"
            )
    yield ""
    yield f"Match: game points {result.totals}" + (
        f"; winner(s): {', '.join(f'seat {s}' for s in result.winners)}" if result.winners else ""
    )
