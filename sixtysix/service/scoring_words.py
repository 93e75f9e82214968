"""Why a deal scored what it did, in one line of the person's language.

The game points are the variant's (:meth:`Variant.settle`); this module only reads them back
from the :class:`Outcome` and the finished deal's view: which end it was (``reason``), who
scored, how much, and the scale behind it. The scale's threshold is read from the core's own
:func:`~sixtysix.core.outcome.schneider_scale`, never restated here.
"""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.core.actions import MARRY
from sixtysix.core.cards import marriage_points
from sixtysix.core.outcome import Outcome, Reason, schneider_scale
from sixtysix.core.rules import Sides
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.facts import sides_known
from sixtysix.service.terms import seat_name
from sixtysix.variants.common import FamilyOptions
from sixtysix.variants.sixtysix_4 import SixtySix4Options
from sixtysix.variants.two_hand import TwoHandVariant

#: The fewest points that keep the losers at the scale's 1 (33): read from the core.
SCALE_THRESHOLD = next(p for p in range(1000) if schneider_scale(p, 1) == 1)


def _names(tr: Translator, seats: Sequence[int], me: int) -> str:
    return " + ".join(seat_name(tr, s, me) for s in seats)


def _card_points_only(variant: Variant) -> bool:
    """Whether the 1/2/3 scale counted the losers' card points only: the two-hand scoring's
    switch, else the family's option (a variant with neither counts all valid points)."""
    if isinstance(variant, TwoHandVariant):
        return variant.scoring.card_points_only
    options = variant.options
    return isinstance(options, FamilyOptions) and options.schneider_card_points_only


def _scale_at_close(variant: Variant) -> bool:
    """Whether a winning closer's scale was read at the moment of closing (Schnapsen)."""
    return isinstance(variant, TwoHandVariant) and variant.scoring.scale_at_close


def _failed_solo_doubled(variant: Variant) -> bool:
    """Whether a failed solo paid twice the scale (four-player 66's ``solo_loss=double``)."""
    options = variant.options
    return isinstance(options, SixtySix4Options) and options.solo_loss == "double"


def scale_fact(tr: Translator, base: int, card_points: bool) -> str:
    """The losers' position behind 1, 2 or 3 on the scale."""
    if base == 1:
        if card_points:
            return tr._("{threshold} card points or more").format(threshold=SCALE_THRESHOLD)
        return tr._("{threshold} points or more").format(threshold=SCALE_THRESHOLD)
    if base == 2:
        if card_points:
            return tr._("under {threshold} card points, at least one trick (schneider)").format(
                threshold=SCALE_THRESHOLD
            )
        return tr._("under {threshold} points, at least one trick (schneider)").format(
            threshold=SCALE_THRESHOLD
        )
    return tr._("no trick (schwarz)")


def why_line(outcome: Outcome, view: View, variant: Variant, tr: Translator) -> str:
    """``Why 2: seat 1 — under 33 points, at least one trick (schneider).``"""
    me = view.seat
    gp = outcome.game_points
    points = max(gp)
    winners = [s for s in range(len(gp)) if gp[s] > 0]
    losers = [s for s in range(len(gp)) if gp[s] == 0]
    closer = view.closed_by
    goal = view.rules.winning_points
    reason = outcome.reason
    because: str
    if reason == Reason.REACHED_66 and winners:
        base = points
        doubled = view.solo and ((view.declarer in winners) or _failed_solo_doubled(variant))
        if doubled and base % 2 == 0:
            base //= 2
        fact = scale_fact(tr, base, _card_points_only(variant))
        if closer is not None and closer in winners and _scale_at_close(variant):
            fact = tr._("{fact}, at the moment of closing").format(fact=fact)
        because = tr._("{who} — {fact}").format(who=_names(tr, losers, me), fact=fact)
        if doubled:
            because = tr._("{because}; a solo counts double").format(because=because)
    elif reason == Reason.FAILED_CLOSE and closer is not None:
        because = tr._("a failed close by {closer}").format(closer=seat_name(tr, closer, me))
        if points == 3:
            because = tr._("{because}, and no trick for {who} at the moment of closing").format(
                because=because, who=_names(tr, winners, me)
            )
    elif reason == Reason.FALSE_CLAIM:
        because = tr._("a false claim by {who}").format(who=_names(tr, losers, me))
        if points == 3 and closer in losers:
            because = tr._("{because}, and no trick for {who} at the moment of closing").format(
                because=because, who=_names(tr, winners, me)
            )
        elif points == 3:
            because = tr._("{because}, and no trick for {who}").format(
                because=because, who=_names(tr, winners, me)
            )
    elif reason == Reason.LAST_TRICK:
        because = tr._("nobody reached {goal}; the last trick takes the deal: {who}").format(
            goal=goal, who=_names(tr, winners, me)
        )
    elif reason == Reason.PLAYED_OUT and winners:
        because = tr._(
            "the cards ran out with no claim; the highest total of {goal} or more scores 1"
        ).format(goal=goal)
    elif reason in (Reason.PLAYED_OUT, Reason.DRAW):
        because = tr._("nobody reached {goal}: a draw, nobody scores").format(goal=goal)
    elif reason == Reason.CONCEDED and view.declarer is not None:
        who = seat_name(tr, view.declarer, me)
        if points >= 2:
            because = tr._("a concession by {who} before the first card").format(who=who)
        else:
            because = tr._("a concession by {who} after the first card").format(who=who)
    elif reason == Reason.FORFEIT:
        because = tr._("a fault forfeits the deal: {who}").format(who=_names(tr, losers, me))
    else:
        because = tr._("nobody scores")
    return tr._("Why {points}: {because}.").format(points=points, because=because)


def pooled_points(outcome: Outcome, view: View) -> list[int] | None:
    """Each seat's side's pooled points at the end of a deal, in a game played by sides."""
    sides = sides_known(view)
    if view.rules.sides == Sides.SEATS or sides is None or view.declarer is None:
        return None
    n = len(outcome.points)
    return [sum(outcome.points[t] for t in range(n) if sides[t] == sides[s]) for s in range(n)]


def winners_line(outcome: Outcome, view: View, tr: Translator) -> str:
    """``Won by seat 1 + seat 3 with 70 points together.`` for a deal of sides won by
    reaching 66, else ""."""
    pooled = pooled_points(outcome, view)
    if outcome.reason != Reason.REACHED_66 or pooled is None:
        return ""
    me = view.seat
    winners = [s for s in range(len(outcome.game_points)) if outcome.game_points[s]]
    if len(winners) == 1:  # a lone declarer or soloist: its own points
        return tr._("Won by {who} with {points} points.").format(
            who=seat_name(tr, winners[0], me), points=pooled[winners[0]]
        )
    if winners:
        return tr._("Won by {who} with {points} points together.").format(
            who=" + ".join(seat_name(tr, s, me) for s in winners), points=pooled[winners[0]]
        )
    return ""


def marriage_headline(
    tr: Translator, history: Sequence[tuple[int, int]], outcome: Outcome, trump: int | None, me: int
) -> str:
    """``"40 more is enough!" 66 with the marriage: seat 1.`` when the deal ended on a scoring
    marriage (the last action), else ""."""
    if not history:
        return ""
    seat, last = history[-1]
    if not (MARRY <= last < MARRY + 4 and outcome.game_points[seat]):
        return ""
    points = marriage_points(last - MARRY, -1 if trump is None else trump)
    line = tr._('"{points} more is enough!" 66 with the marriage: {who}.')
    return line.format(points=points, who=seat_name(tr, seat, me))
