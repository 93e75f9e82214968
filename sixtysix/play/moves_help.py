"""What ``?`` teaches: the moves this variant can ever offer and how to type a card, in the
player's language.

Only the verbs the variant's rules allow appear (no ``trump``/``partner`` in two-player 66, no
``claim`` with automatic claims), each written as the player types it
(:func:`sixtysix.service.terms.command_text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.core.actions import (
    CLAIM,
    CLOSE,
    CONCEDE,
    EXCHANGE,
    MARRY,
    PARTNER,
    SOLO,
    TRUMP,
    TRUMP_BELOW,
)
from sixtysix.core.cards import NUM_CARDS, QUEEN, Card, card_id
from sixtysix.core.rules import Rules
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.play.screen import Screen
from sixtysix.service.facts import hand_order
from sixtysix.service.terms import TURKISH_RANKS, TURKISH_SUITS, card_text, command_text, word
from sixtysix.text.rules_summary import rules_command, rules_summary

_ENGLISH_RANKS = ("nine", "jack", "queen", "king", "ten", "ace")
_ENGLISH_SUITS = ("clubs", "diamonds", "hearts", "spades")


def variant_actions(rules: Rules) -> list[int]:
    """One example of each kind of move besides a card that these rules can ever offer."""
    actions: list[int] = []
    if rules.trump_call:
        actions.append(TRUMP + 3)
        if rules.trump_below:
            actions.append(TRUMP_BELOW)
    if rules.partner_call:
        actions += [PARTNER + 1, SOLO]
    if rules.marriages:
        actions.append(MARRY + 2)
    if rules.exchange:
        actions.append(EXCHANGE)
    if rules.closing:
        actions.append(CLOSE)
    if rules.manual_claim:
        actions.append(CLAIM)
    if rules.concession:
        actions.append(CONCEDE)
    return actions


def variant_moves(rules: Rules, tr: Translator) -> list[str]:
    """Those moves as typed: ``marry H``, ``close``... / ``evlilik kupa``, ``kapat``..."""
    return [command_text(tr, a) for a in variant_actions(rules)]


def card_examples(tr: Translator, order: Sequence[Card]) -> str:
    """Ways to type the hand's first card (Q♥ when the hand is empty): ``kh, K♥ or king
    hearts`` / ``papaz kupa, kupa papaz ya da K♥``."""
    c = int(order[0]) if order else card_id(QUEEN, 2)
    rank, suit = c % 6, c // 6
    if tr.lang == "en":
        compact = card_text(c).replace(card_text(c)[-1], "CDHS"[suit]).lower()
        forms = (compact, card_text(c), f"{_ENGLISH_RANKS[rank]} {_ENGLISH_SUITS[suit]}")
    else:
        forms = (
            f"{TURKISH_RANKS[rank]} {TURKISH_SUITS[suit]}",
            f"{TURKISH_SUITS[suit]} {TURKISH_RANKS[rank]}",
            card_text(c),
        )
    return tr._("{first}, {second} or {third}").format(
        first=forms[0], second=forms[1], third=forms[2]
    )


def card_legend(tr: Translator) -> str:
    return tr._("Cards: ranks 9 J Q K 10 A, suits C ♣ clubs, D ♦ diamonds, H ♥ hearts, S ♠ spades.")


def help_text(view: View, rules: Rules, rated: bool, tr: Translator, *, now: bool = True) -> str:
    """What ``?`` shows: how to type a card, the variant's other moves, the session's words,
    the card legend, and what is allowed now (the cards in the hand's order; ``now=False``:
    not the person's turn, so nothing is)."""
    order = hand_order(view)
    lines = [
        tr._("Play a card by its number in your hand or by its name: {examples}.").format(
            examples=card_examples(tr, order)
        )
    ]
    moves = variant_moves(rules, tr)
    if moves:
        lines.append(
            tr._("Other moves, when the rules allow them: {moves}.").format(moves=", ".join(moves))
        )
    lines.append(
        tr._(
            "{help} help   {hint}  the expert's view of each move   {undo}  take back"
            "   {quit}  stop"
        ).format(
            help=word(tr, "help"),
            hint=word(tr, "hint"),
            undo=word(tr, "undo"),
            quit=word(tr, "quit"),
        )
    )
    lines.append(
        tr._("{rules}  the rules of this game   {tricks}  the first trick each player won").format(
            rules=word(tr, "rules"), tricks=word(tr, "tricks")
        )
    )
    lines.append(card_legend(tr))
    if rated:
        lines.append(tr._("Rated game: no hints and no undo; the move timer is running."))
    if not now:
        return "\n".join(lines)
    legal = {int(a) for a in view.legal_actions}
    shown = [card_text(c) for c in order if int(c) in legal]
    shown += [command_text(tr, a) for a in sorted(legal) if a >= NUM_CARDS]
    lines.append(tr._("Allowed now: {actions}").format(actions=", ".join(shown)))
    return "\n".join(lines)


def show_rules(screen: Screen, variant: Variant, tr: Translator) -> None:
    """The ``rules`` command: the variant's rules summary, as ``sixtysix rules`` prints it,
    and the command that shows the rest."""
    screen.show(rules_summary(variant, tr))
    command = rules_command(variant, tr.lang)
    screen.say(tr._("Full rules and options: {command}").format(command=command))
