"""The join client tells each action as ``sixtysix play`` does, from hand-built event and update
messages: the card taken by the exchange, a marriage's other card, the trick's winner, the
strict phase; the hint table's notation in the person's language; and, in Turkish, no English
word on the seat's screen."""

from __future__ import annotations

from collections.abc import Callable

from sixtysix.core.actions import ACTION_NAMES, CLOSE, EXCHANGE, MARRY
from sixtysix.core.cards import NUM_CARDS, iter_mask
from sixtysix.core.state import DealState
from sixtysix.core.view import View
from sixtysix.protocol import messages
from sixtysix.service.facts import hand_order
from sixtysix.service.terms import card_text
from tests.play.test_language_leaks import leaks
from tests.table.test_client_remote import Table, state

Choose = Callable[[DealState], int]


def showy(s: DealState) -> int:
    """An exchange, a marriage or a close whenever one is legal, else the first legal move."""
    legal = [int(a) for a in s.legal_actions()]
    for wanted in (EXCHANGE, *range(MARRY, MARRY + 4), CLOSE):
        if wanted in legal:
            return wanted
    return legal[0]


def play_deal(t: Table, s: DealState, choose: Choose, typed: Callable[[View], list[str]]) -> None:
    """Feed the messages the server sends for a whole deal; at seat 0's decisions the person
    types ``typed(view)`` first, then the chosen move (sent as the server would receive it)."""
    t.feed({"type": "update", "view": messages.encode_view(s.view(0))})
    while not s.is_over:
        seat = s.to_act
        action = choose(s)
        if seat == 0:
            t.feed(messages.decide_message(s.view(0), 0))
            for line in typed(s.view(0)):
                reply = t.remote.on_line(line)
                if reply.hint is not None:
                    legal = reply.hint.legal_actions
                    t.remote.show_hint([(int(a), float(i)) for i, a in enumerate(legal)])
            reply = t.remote.on_line(ACTION_NAMES[action])
            assert reply.send == [{"type": "action", "action": ACTION_NAMES[action]}]
        s.apply(action)
        t.feed(messages.event_message(seat, action))
        t.feed({"type": "update", "view": messages.encode_view(s.view(0))})
    assert s.outcome is not None
    hands = [[] if seat == 0 else list(iter_mask(h)) for seat, h in enumerate(s.hands)]
    t.feed(messages.result_message(t.remote.deal_number, s.outcome, hands))


def exchanged_and_married(lang: str = "en") -> tuple[Table, DealState]:
    """A deal where seat 1 exchanges and marries (the first seed that has both)."""
    for seed in range(200):
        s = state(seed)
        t = Table(lang=lang)
        play_deal(t, s, showy, lambda v: [])
        acted = {int(a) for seat, a in s.history if seat == 1}
        if EXCHANGE in acted and acted & set(range(MARRY, MARRY + 4)):
            return t, s
    raise AssertionError("no seed with an exchange and a marriage by seat 1")


def test_the_exchanged_card_and_the_marriages_other_card_are_told() -> None:
    t, s = exchanged_and_married()
    text = t.screen.text
    turnup = s.setup.trump_card  # the card seat 1 took in the exchange
    assert turnup is not None and s.trump is not None
    exchange = f"seat 1 exchanges {card_text(s.trump * 6 + s.rules.exchange_rank)}"
    assert f"{exchange} for the turn-up {card_text(turnup)}" in text, text
    # the marriage's cards, shown to everyone
    married = [line for line in text.splitlines() if line.startswith("seat 1 declares")]
    assert married and ", showing " in married[0]
    assert "Trick to" in text and "Deal over:" in text


def test_the_strict_phase_line_reaches_the_seat() -> None:
    t, _ = exchanged_and_married()
    assert "strict play from now on" in t.screen.text


def test_the_hint_tables_notation_is_in_turkish() -> None:
    t = Table(lang="tr")
    s = state()
    while s.to_act != 0:
        s.apply(s.legal_actions()[0])
    t.decide(s)
    legal = [int(a) for a in s.view(0).legal_actions]
    t.remote.show_hint([(a, float(i)) for i, a in enumerate(legal)])
    table = t.screen.text.split("Her hamlenin")[-1]
    assert "oyna " in table
    assert not any(ACTION_NAMES[a] in table for a in legal if a < NUM_CARDS)


def test_the_turkish_seat_speaks_only_turkish() -> None:
    def typed(view: View) -> list[str]:
        # help, the first tricks, the rules, a hint, nonsense, quitting declined, a card
        # not in the hand
        missing = next(c for c in range(NUM_CARDS) if c not in hand_order(view))
        return ["?", "eller", "kurallar", "ipucu", "xyz", "çık", "h", card_text(missing)]

    t, s = Table(lang="tr"), state(3)
    play_deal(t, s, showy, typed)
    t.remote.on_line("çık")
    reply = t.remote.on_line("e")
    assert reply.leave
    text = t.screen.text + "".join(t.prompts)
    assert "Ctrl-C ise" in text and "(e/h)" in text and "Oyun sürüyor." in text
    assert "Her hamlenin beklenen oyun puanı" in text and "Kartlar:" in text
    assert leaks(text, "tr") == [], text
