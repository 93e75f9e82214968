"""The terminal game with 66's seed options: a match of four deals shown as "deal N of 4", and
the exchange offered to a follower under ``exchange_anytime``, in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from sixtysix.core.actions import EXCHANGE
from sixtysix.core.records import DealRecord, Record, load_record_file, load_record_text
from sixtysix.core.replay import replay
from sixtysix.play.session import Ending
from tests.helpers import act, deal
from tests.play.conftest import REGISTRY, make_session, make_variant
from tests.play.scripted import AutoInput, RecordingScreen, ScriptedInput


@pytest.mark.parametrize(
    ("lang", "intro", "first", "last", "header"),
    [
        ("en", "a match of 4 deals", "Deal 1 of 4", "Deal 4 of 4", "deal 1 of 4"),
        ("tr", "4 dağıtımlık bir maç", "Dağıtım 1 / 4", "Dağıtım 4 / 4", "dağıtım 1 / 4"),
    ],
)
def test_a_four_deal_match_is_played_to_its_fourth_deal(
    lang: str, intro: str, first: str, last: str, header: str, tmp_path: Path
) -> None:
    # With target 1 the first deal's winner is at the target: the match still has four deals.
    variant = make_variant("sixtysix", match="four_deals", target=1)
    screen = RecordingScreen(width=160)
    save = tmp_path / "g.json"
    session = make_session(variant, AutoInput(seed=3), screen, lang=lang, save=save)
    result = session.run()
    assert result.ending is Ending.FINISHED and result.deals_completed == 4
    assert result.winners == [s for s in range(2) if result.totals[s] == max(result.totals)]
    said = "\n".join(screen.said)
    assert intro in said and first in said and last in said and "Deal 5" not in said
    assert header in screen.text
    replayed = replay(load_record_file(save), REGISTRY)
    assert len(replayed.deals) == 4 and replayed.winners == result.winners


def test_the_target_match_still_shows_its_target() -> None:
    variant = make_variant("sixtysix", target=2)
    screen = RecordingScreen(width=160)
    make_session(variant, ScriptedInput(["1", "quit"]), screen).run()
    assert "a match to 2 game points" in screen.text and "game points (2 wins)" in screen.text
    assert " of 4" not in screen.text


@pytest.mark.parametrize(("lang", "typed"), [("en", "exchange"), ("tr", "değiş")])
def test_the_exchange_is_offered_to_a_follower(lang: str, typed: str) -> None:
    """Resumed where seat 1, following, holds the trump 9 drawn from the talon."""
    variant = make_variant("sixtysix", exchange_anytime=True)
    state = deal(
        variant,
        ["9D TC KD QD JC TH", "AD 9H JH AC JD TD"],
        "KS",
        talon="QC 9C JS 9S",
        dealer=1,
    )
    act(state, "9D", "AD", "9H", "TH", "TC")
    record = Record(
        variant.name, variant.options.diff(), 1, [DealRecord(state.setup, state.history)]
    )
    resume = replay(load_record_text(record.dumps()), REGISTRY)
    screen = RecordingScreen(width=160)
    person = ScriptedInput([typed, "quit"])
    session = make_session(variant, person, screen, lang=lang, seat=1, resume=resume)
    assert session.run().ending is Ending.SAVED
    assert EXCHANGE in person.views[0].legal_actions
    offered = "exchange the trump card" if lang == "en" else "koz kartını değiş"
    assert typed in screen.text and offered in screen.text
    assert session.state is not None and session.state.history[-1] == (1, EXCHANGE)
    # After the exchange the person is asked again, still following, with the trump king.
    # (the third prompt is the question "Stop here?" after quit, at the same view)
    assert len(person.views) == 3 and person.views[1].trick == person.views[0].trick
    assert person.views[2] is person.views[1]
