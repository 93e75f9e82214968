"""A seat's table as plain data, worded in the person's language: what a page draws.

The browser's table (``sixtysix serve``'s page) holds no rule and no word of its own: it draws
the dictionaries built here from the seat's :class:`~sixtysix.core.view.View` and the public
facts of the match, with the same facts (:mod:`sixtysix.service.facts`), words
(:mod:`sixtysix.service.terms`) and narration (:mod:`sixtysix.service.narration`) as the
terminal's table. A card is ``{"code": "AH", "suit": "H", "rank": "A", "text": "A♥",
"name": ...}``: its notation, and its name for a screen reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sixtysix.core.actions import ACTION_NAMES
from sixtysix.core.cards import NUM_CARDS, RANKS, SUITS
from sixtysix.core.outcome import Outcome
from sixtysix.core.phase import Phase
from sixtysix.core.rules import Sides
from sixtysix.core.tricks import trick_winner
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.service.card_words import RANK_NAMES
from sixtysix.service.facts import (
    TableInfo,
    first_tricks,
    hand_order,
    known_cards,
    restricted,
    seat_points,
    side_points,
    sides_known,
    table_title,
)
from sixtysix.service.narration import News, announced
from sixtysix.service.scoring_words import (
    marriage_headline,
    pooled_points,
    why_line,
    winners_line,
)
from sixtysix.service.terms import (
    action_text,
    card_text,
    command_text,
    reason_text,
    seat_name,
    suit_label,
    suit_name,
)

Board = dict[str, Any]


def card(tr: Translator, c: int) -> Board:
    """A card as the page draws and names it."""
    c = int(c)
    rank, suit = RANKS[c % 6], SUITS[c // 6]
    name = tr._("{rank} of {suit}").format(rank=tr._(RANK_NAMES[c % 6]), suit=suit_name(tr, c // 6))
    return {"code": rank + suit, "suit": suit, "rank": rank, "text": card_text(c), "name": name}


def plays(tr: Translator, me: int, trick: Sequence[tuple[int, int]]) -> list[Board]:
    return [{"seat": s, "who": seat_name(tr, s, me), "card": card(tr, c)} for s, c in trick]


def action(tr: Translator, a: int) -> Board:
    """A move as the page offers it: its notation (what is sent), its words and the words
    a person types for it."""
    return {"action": ACTION_NAMES[a], "label": action_text(tr, a), "typed": command_text(tr, a)}


def table_board(view: View, info: TableInfo, tr: Translator) -> Board:
    """Everything of the table the seat may see, worded: the terminal table's facts."""
    me = view.seat
    legal = {int(a) for a in view.legal_actions}
    barred = restricted(view)
    board: Board = {
        "title": table_title(view, info, tr),
        "seat": me,
        "seats": view.seats,
        "dealer": view.dealer,
        "dealer_who": seat_name(tr, view.dealer, me),
        "phase": Phase(view.phase).name.lower(),
        "to_act": None if view.is_over or view.to_act < 0 else view.to_act,
        "my_turn": view.my_turn,
        "trump": None
        if view.trump is None
        else {"suit": SUITS[view.trump], "label": suit_label(tr, view.trump)},
        "talon": _talon(view, tr),
        "declarer": _declarer(view, tr),
        "sides": _sides(view, tr),
        "trick": plays(tr, me, [(s, int(c)) for s, c in view.trick]),
        "last_trick": _last_trick(view, tr),
        "announcements": [
            announced(view, s, a).text(tr, me) for s, a in view.history if a >= NUM_CARDS
        ],
        "known": [
            {"seat": s, "who": seat_name(tr, s, me), "card": card(tr, c), "why": tr._(why)}
            for s, c, why in known_cards(view)
        ],
        "scores": _scores(view, info, tr),
        "hand": [
            {
                "card": card(tr, c),
                "action": ACTION_NAMES[c],
                "legal": int(c) in legal,
                "barred": int(c) in barred,
            }
            for c in hand_order(view)
        ],
        "barred_note": tr._("Cards in [brackets] may not be played now.") if barred else None,
        "actions": [action(tr, a) for a in view.legal_actions if a >= NUM_CARDS],
        "first_tricks": [
            {"seat": s, "who": seat_name(tr, s, me), "plays": plays(tr, me, trick)}
            for s, trick in first_tricks(view)
        ],
        "note": None,
    }
    if view.phase == Phase.TRUMP_CALL and view.my_turn:
        board["note"] = tr._("You see your first {n} cards; name trump.").format(n=len(view.hand))
    return board


def _talon(view: View, tr: Translator) -> Board | None:
    if view.rules.turnup_after_round is None:
        return None
    closed = view.closed_by
    return {
        "size": view.talon_size,
        "turnup": None if view.turnup is None else card(tr, view.turnup),
        "closed_by": closed,
        "state": tr._("closed by: {who}").format(who=seat_name(tr, closed, view.seat))
        if closed is not None
        else (tr._("used up") if view.talon_size == 0 else None),
    }


def _declarer(view: View, tr: Translator) -> Board | None:
    if view.declarer is None or view.rules.sides == Sides.SEATS:
        return None
    me = view.seat
    alone = view.rules.sides == Sides.DECLARER or view.solo
    if alone:
        text = tr._("you play alone") if view.declarer == me else None
        if text is None:
            text = seat_name(tr, view.declarer, me) + " " + tr._("plays alone")
    else:
        text = seat_name(tr, view.declarer, me)
    return {
        "seat": view.declarer,
        "text": text,
        "called": None if view.called_ace is None else card(tr, view.called_ace),
    }


def _sides(view: View, tr: Translator) -> Board | None:
    """Who plays with whom as far as this seat knows it (the terminal's ``Sides`` line)."""
    if view.rules.sides == Sides.SEATS or view.declarer is None:
        return None
    if view.phase == Phase.PARTNER_CALL:
        return None
    me = view.seat
    sides = sides_known(view)
    if sides is not None:
        mine = " + ".join(seat_name(tr, s, me) for s in range(view.seats) if sides[s] == sides[me])
        rest = " + ".join(seat_name(tr, s, me) for s in range(view.seats) if sides[s] != sides[me])
        return {
            "label": tr._("Sides"),
            "text": f"{mine} {tr._('against')} {rest}",
            "of": sides,
        }
    assert view.called_ace is not None
    if me == view.declarer:
        text = tr._("the holder of {ace}, still hidden").format(ace=card_text(view.called_ace))
    else:
        others = [s for s in range(view.seats) if s not in (me, view.declarer)]
        text = tr._("not you") + ": " + tr._(" or ").join(seat_name(tr, s, me) for s in others)
    return {"label": tr._("Partner"), "text": text, "of": None}


def _last_trick(view: View, tr: Translator) -> Board | None:
    played = [(s, int(a)) for s, a in view.history if a < NUM_CARDS]
    n = view.seats
    done = len(played) - len(played) % n
    if done == 0:
        return None
    last = played[done - n : done]
    winner = trick_winner(last, -1 if view.trump is None else view.trump)
    return {
        "plays": plays(tr, view.seat, last),
        "winner": winner,
        "who": seat_name(tr, winner, view.seat),
    }


def _scores(view: View, info: TableInfo, tr: Translator) -> Board:
    """The score table: tricks, points where the rules show them, the side's, game points."""
    pooled = side_points(view) if info.show_points else None
    headings = [tr._("player"), tr._("tricks")]
    if info.show_points:
        headings.append(tr._("points"))
    if pooled is not None:
        headings.append(tr._("side"))
    headings.append(tr._("game points"))
    if info.deals is None:
        goal = tr._("game points ({target} wins)").format(target=info.target)
    else:
        goal = tr._("game points (most after {deals} deals wins)").format(deals=info.deals)
    rows = []
    for s in range(view.seats):
        cells = [seat_name(tr, s, view.seat), str(view.tricks[s])]
        if info.show_points:
            valid, pending = seat_points(view, s)
            cells.append(f"{valid} (+{pending} " + tr._("pending") + ")" if pending else str(valid))
        if pooled is not None:
            cells.append(str(pooled[s]))
        cells.append(str(info.totals[s]))
        rows.append({"seat": s, "me": s == view.seat, "cells": cells})
    return {"headings": headings, "rows": rows, "goal": goal}


def news_board(tr: Translator, me: int, told: Sequence[News]) -> list[Board]:
    """What the seat is told after an action, worded, with the cards it shows."""
    return [
        {"kind": n.kind, "text": n.phrase.text(tr, me), "cards": [card(tr, c) for c in n.cards]}
        for n in told
    ]


def result_board(
    outcome: Outcome,
    view: View,
    totals: Sequence[int],
    hands: Sequence[Sequence[int]],
    variant: Variant,
    tr: Translator,
) -> Board:
    """The end-of-deal window: how it ended, why these game points, every seat's numbers and
    every seat's cards left, face up (a finished deal is public)."""
    me = view.seat
    n = len(outcome.game_points)
    pooled = pooled_points(outcome, view)
    headings = [tr._("player"), tr._("game points"), tr._("points")]
    if pooled is not None:
        headings.append(tr._("side"))
    headings += [tr._("tricks"), tr._("match")]
    rows = []
    for s in range(n):
        cells = [seat_name(tr, s, me), str(outcome.game_points[s]), str(outcome.points[s])]
        if pooled is not None:
            cells.append(str(pooled[s]))
        cells += [str(outcome.tricks[s]), str(totals[s])]
        rows.append({"seat": s, "me": s == me, "cells": cells})
    lines = [
        line
        for line in (
            marriage_headline(tr, view.history, outcome, view.trump, me),
            winners_line(outcome, view, tr),
        )
        if line
    ]
    return {
        "title": tr._("Deal over: {reason}").format(reason=reason_text(tr, outcome.reason)),
        "reason": str(outcome.reason),
        "lines": lines,
        "why": why_line(outcome, view, variant, tr),
        "headings": headings,
        "rows": rows,
        "hands": [
            {
                "seat": s,
                "who": seat_name(tr, s, me),
                "cards": [card(tr, c) for c in sorted(hands[s], reverse=True)],
            }
            for s in range(n)
        ],
        "game_points": list(outcome.game_points),
    }


def sheet_board(
    deals: Sequence[tuple[int, int, str, Sequence[int]]], seats: int, me: int, tr: Translator
) -> Board:
    """The match deal by deal: (number, dealer, reason, game points) per finished deal, with
    the running totals."""
    running = [0] * seats
    rows = []
    for number, dealer, reason, points in deals:
        running = [running[s] + points[s] for s in range(seats)]
        rows.append(
            {
                "deal": number,
                "dealer": seat_name(tr, dealer, me),
                "gained": list(points),
                "totals": list(running),
                "reason": reason_text(tr, reason),
            }
        )
    return {
        "title": tr._("The match, deal by deal"),
        "headings": [tr._("deal"), tr._("dealer")]
        + [seat_name(tr, s, me) for s in range(seats)]
        + [tr._("how it ended")],
        "legend": tr._("+n: game points won in the deal; =n: the match total after it."),
        "rows": rows,
    }
