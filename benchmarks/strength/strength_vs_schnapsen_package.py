"""Strength against the peer: one of our bots inside the ``schnapsen`` package's own engine,
against that package's strongest bot, ``RdeepBot`` (64 samples, depth 8 by default).

Why inside *their* engine: their rules then judge every move and every deal, so nothing in our
engine can flatter our bot. Our bot plays through an adapter (:class:`SixtySixPlayer`, a
``schnapsen.game.Bot``) that builds one of our :class:`~sixtysix.core.view.View` objects from
their ``PlayerPerspective`` and its public history, asks our bot, and maps the answer back to
one of their ``valid_moves()``. The view holds only what the perspective shows a player:
nothing is read from their hidden state.

Rules, theirs against our ``schnapsen`` (see ``docs/peer-schnapsen-notes.md``), and how the
adapter matches them:

* no closing: our variant is configured with ``closing=false`` (so our bot, and any search it
  runs on our engine, never counts on a close), and ``close`` is never offered;
* automatic end at 66 only: our default ``claim=auto``;
* the trump jack may be exchanged while the talon is not empty (size >= 2, no trick needed):
  our defaults ``exchange_min_talon=2``, ``exchange_needs_trick=false``; their separate
  ``TrumpExchange`` move is our ``exchange``, after which they ask for the lead again;
* a marriage always leads the king: our ``marry X`` is followed by a second view in which the
  only legal action is ``play KX``, and the pair becomes their single ``Marriage`` move;
* marriages in the strict phase, no last-trick bonus, the last trick's winner takes a deal
  nobody won with 66, game points 1/2/3: the same in both;
* their deal is one deal with ``bot1`` leading; our view calls that seat 0 and the other seat
  the dealer;
* one difference cannot be expressed by our options: their marriage points stay pending until
  the declarer wins a trick *after* declaring, ours count at once when the seat already has a
  trick. Our bot therefore values such a marriage a trick early; and where ours would already
  have ended the deal with it (the declarer at 66 with it), the view leaves that marriage out
  (:meth:`PublicRecord.live_under_our_rules`; the card it showed is forgotten too), so that our
  bot, and any search it runs on our engine, sees the live deal their engine is playing.

Each deal is played twice from the same shuffle (their ``play_game`` uses its ``rng`` only to
shuffle), with the seats swapped, so the figure is over seat-swapped deals. The peer is never a
dependency of the project: run this from a separate virtual environment that has both::

    python -m venv /tmp/bench2
    /tmp/bench2/bin/pip install -e '.[fast]' -r benchmarks/requirements-peer.txt
    /tmp/bench2/bin/python benchmarks/strength/strength_vs_schnapsen_package.py --deals 500 --jobs 2

Our bot defaults to ``expert``; while it is not installed the script says so and plays
``heuristic``. Install the ``fast`` extra (numba) as above: without it the expert has no
compiled search and plays weaker (58.7% of the games against 61.1% with it, ``--seed 1``);
the script then says so. The games have no target of their own: issue 6's 70% of the games,
over at least 500 deals, was retired by issue 26 for the Bummerls' below.

``--bummerl N`` plays N whole Bummerls to 7 instead (:mod:`_peer_bummerl`): the first leader
alternating deal by deal as in our Schnapsen match, each Bummerl's deals replayed with the
seats swapped; the Bummerl win rate with its Wilson interval comes before the per-deal figures
over all their deals. Target (issue 26): at least 85% of Bummerls, over at least 1,000.
``--told`` (a yardstick, in deals or in Bummerls) tells our bot the opponent's hand before each
of its decisions.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from schnapsen.bots import RdeepBot
from schnapsen.deck import Card as PeerCard
from schnapsen.deck import Rank, Suit
from schnapsen.game import (
    Bot as PeerBot,
)
from schnapsen.game import (
    ExchangeTrick,
    GamePhase,
    Marriage,
    Move,
    PlayerPerspective,
    RegularMove,
    RegularTrick,
    SchnapsenGamePlayEngine,
    TrumpExchange,
)

from sixtysix.bots.base import Bot
from sixtysix.bots.compiled import available as compiled_available
from sixtysix.bots.heuristic import beats
from sixtysix.bots.levels import resolve_player
from sixtysix.core.actions import ACTIONS, EXCHANGE, MARRY, Action
from sixtysix.core.cards import ACE, CARDS, JACK, KING, POINTS, QUEEN, TEN, mask_of
from sixtysix.core.rng import Seed
from sixtysix.core.state import Phase
from sixtysix.core.view import View
from sixtysix.plugins.manager import get_registry
from sixtysix.sim.stats import TimeStats, wilson
from sixtysix.variants.schnapsen import Schnapsen

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _told

#: Our variant configured to their rules where an option exists (see the module doc).
PEER_RULES = {"closing": False, "claim": "auto", "exchange_min_talon": 2}

_SUIT = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
_RANK = {Rank.JACK: JACK, Rank.QUEEN: QUEEN, Rank.KING: KING, Rank.TEN: TEN, Rank.ACE: ACE}
_PEER_SUIT = {v: k for k, v in _SUIT.items()}
_PEER_RANK = {v: k for k, v in _RANK.items()}


def ours(card: PeerCard) -> int:
    return _SUIT[card.suit] * 6 + _RANK[card.rank]


def theirs(card: int) -> PeerCard:
    return PeerCard.get_card(_PEER_RANK[card % 6], _PEER_SUIT[card // 6])


def peer_variant() -> Schnapsen:
    return Schnapsen.configure(None, PEER_RULES)


class PublicRecord:
    """Our seat's public record of the deal so far, rebuilt from the perspective's history."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.history: list[tuple[int, int]] = []
        self.tricks = [0, 0]
        self.card_points = [0, 0]
        self.marriages: list[list[int]] = [[], []]
        #: Per seat, the history indices of marriages their engine still holds pending (not
        #: yet followed by a trick won by the declarer).
        self.pending: list[list[int]] = [[], []]
        self.known = [0, 0]
        #: Per marriage (history index), the cards it made known that were not known before.
        self.shown_by: dict[int, int] = {}
        #: Per seat, the cards forgotten with a dropped marriage (their engine still knows them).
        self.forgotten = [0, 0]
        self.played = 0
        self.trick: list[tuple[int, int]] = []

    def play(self, seat: int, card: int) -> None:
        self.history.append((seat, card))
        self.played |= 1 << card
        self.known[seat] &= ~(1 << card)
        self.trick.append((seat, card))

    def lead(self, seat: int, move: Move) -> None:
        if move.is_marriage():
            marriage = move.as_marriage()
            king, queen = ours(marriage.king_card), ours(marriage.queen_card)
            suit = king // 6
            self.pending[seat].append(len(self.history))
            pair = (1 << king) | (1 << queen)
            self.shown_by[len(self.history)] = pair & ~self.known[seat]
            self.history.append((seat, MARRY + suit))
            self.marriages[seat].append(suit)
            self.known[seat] |= pair
            self.play(seat, king)
        else:
            self.play(seat, ours(move.as_regular_move().card))

    def won(self, seat: int, points: int) -> None:
        self.tricks[seat] += 1
        self.card_points[seat] += points
        self.pending[seat] = []  # their engine redeems pending marriage points now

    def live_under_our_rules(self, trump: int, goal: int) -> None:
        """Drop the marriages their engine still holds pending where ours would already have
        ended the deal with them (ours counts a marriage at once when the seat has a trick).

        Why: our bot (and any search it runs on our engine) must see a deal that is still
        being played, as it is in their engine. The card the marriage showed and left in hand
        is no longer counted as known either: without the marriage nothing in our rules
        explains it (our sampler would find, say, the queen and a turn-up taken by exchange
        both "known" trumps with one reason between them), so our bot forgets it, a small
        handicap for our side only.
        """
        drop: set[int] = set()
        for seat in (0, 1):
            if not self.pending[seat] or not self.tricks[seat]:
                continue
            worth = sum(40 if m == trump else 20 for m in self.marriages[seat])
            if self.card_points[seat] + worth < goal:
                continue
            for index in self.pending[seat]:
                self.marriages[seat].remove(self.history[index][1] - MARRY)
                self.known[seat] &= ~self.shown_by.get(index, 0)
                self.forgotten[seat] |= self.shown_by.get(index, 0)
                drop.add(index)
            self.pending[seat] = []
        if drop:
            self.history = [h for i, h in enumerate(self.history) if i not in drop]


def build_view(
    perspective: PlayerPerspective, leader_move: Move | None, variant: Schnapsen
) -> View:
    """Our view of the seat that ``perspective`` belongs to: its cards and public facts only."""
    past = perspective.get_game_history()[:-1]
    first = past[0][0] if past else perspective
    me = 0 if first.am_i_leader() else 1
    opp = 1 - me
    rec = PublicRecord(me)
    trump = _SUIT[perspective.get_trump_suit()]
    for then, trick in past:
        leader = me if then.am_i_leader() else opp
        if isinstance(trick, ExchangeTrick):
            rec.history.append((leader, EXCHANGE))
            rec.known[leader] |= 1 << ours(trick.trump_card)
            continue
        assert isinstance(trick, RegularTrick)
        rec.trick = []
        rec.lead(leader, trick.leader_move)
        rec.play(1 - leader, ours(trick.follower_move.card))
        (_, lead_card), (_, follow_card) = rec.trick
        winner = 1 - leader if beats(follow_card, lead_card, trump) else leader
        rec.won(winner, POINTS[lead_card] + POINTS[follow_card])
        turnup = then.get_trump_card()
        if then.get_talon_size() == 2 and turnup is not None:
            rec.known[1 - winner] |= 1 << ours(turnup)  # the loser draws the turn-up
        rec.trick = []
    if leader_move is not None:
        rec.lead(opp, leader_move)
    rec.live_under_our_rules(trump, variant.rules.winning_points)
    hand = sorted(ours(c) for c in perspective.get_hand().get_cards())
    legal = sorted({_action(m) for m in perspective.valid_moves()})
    turnup = perspective.get_trump_card()
    view = View(
        variant=variant.name,
        rules=variant.rules,
        seat=me,
        seats=2,
        dealer=1,
        phase=int(Phase.PLAY),
        to_act=me,
        hand=tuple(CARDS[c] for c in hand),
        trump=trump,
        turnup=None if turnup is None else CARDS[ours(turnup)],
        talon_size=perspective.get_talon_size(),
        closed_by=None,
        leader=opp if leader_move is not None else me,
        trick=tuple((s, CARDS[c]) for s, c in rec.trick),
        history=tuple((s, ACTIONS[a]) for s, a in rec.history),
        tricks=tuple(rec.tricks),
        card_points=tuple(rec.card_points),
        marriages=tuple(tuple(m) for m in rec.marriages),
        known=tuple(frozenset(CARDS[c] for c in range(24) if k >> c & 1) for k in rec.known),
        played=frozenset(CARDS[c] for c in range(24) if rec.played >> c & 1),
        declarer=None,
        called_ace=None,
        partner=None,
        solo=False,
        legal_actions=tuple(ACTIONS[a] for a in legal),
        outcome=None,
        options=tuple((s.name, getattr(variant.options, s.name)) for s in variant.options.specs()),
    )
    check_view(view, perspective, leader_move, rec.forgotten[opp])
    return view


def _action(move: Move) -> int:
    if move.is_trump_exchange():
        return EXCHANGE
    if move.is_marriage():
        return MARRY + _SUIT[move.as_marriage().suit]
    return ours(move.as_regular_move().card)


def check_view(
    view: View, perspective: PlayerPerspective, leader_move: Move | None, forgotten: int = 0
) -> None:
    """Cross-check the rebuilt view against what the perspective states directly.

    Why: the adapter is the one place where the two engines could silently disagree; a wrong
    view would make the measurement meaningless, so every view is checked as it is made.
    """
    won = sum(POINTS[ours(c)] for c in perspective.get_won_cards().get_cards())
    assert view.card_points[view.seat] == won, "card points of our seat disagree"
    theirs_won = perspective.get_opponent_won_cards().get_cards()
    assert view.card_points[1 - view.seat] == sum(POINTS[ours(c)] for c in theirs_won)
    unseen = view.unseen()
    opp_hand = len(view.hand) - (1 if leader_move is not None else 0)
    hidden_talon = view.talon_size - (1 if view.turnup is not None else 0)
    known_opp = len(view.known[1 - view.seat])
    assert len(unseen) == opp_hand - known_opp + hidden_talon, "unseen cards do not add up"
    if perspective.get_phase() == GamePhase.ONE:
        said = {ours(c) for c in perspective.get_known_cards_of_opponent_hand().get_cards()}
        mine = {int(c) for c in view.known[1 - view.seat]}
        if leader_move is not None:
            # Theirs reads the hand before the lead: the led card is still in it, and a
            # marriage's queen, just shown, is not yet a card "of a past trick".
            said -= {ours(c) for c in leader_move.cards}
            if leader_move.is_marriage():
                mine.discard(ours(leader_move.as_marriage().queen_card))
        # A card forgotten with a dropped marriage is still known to their engine.
        said -= {c for c in range(24) if forgotten >> c & 1}
        assert mine == said, f"known opponent cards disagree: {mine} != {said}"


class SixtySixPlayer(PeerBot):  # type: ignore[misc]  # PeerBot: Any (untyped peer package)
    """One of our bots as a player of the ``schnapsen`` package."""

    def __init__(self, bot: Bot, variant: Schnapsen, name: str, told: bool = False) -> None:
        super().__init__(name)
        self.bot = bot
        self.variant = variant
        self.times: list[float] = []
        #: A yardstick only (``--told``): before each decision our bot is told the opponent's
        #: hand, read from their hidden state (:mod:`_told`).
        self.told = told

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        start = time.perf_counter()
        if self.told:
            _told.tell(opponent_hand(perspective))
        view = build_view(perspective, leader_move, self.variant)
        action = self.bot.choose(view)
        if action not in view.legal_actions:
            raise RuntimeError(f"our bot chose {action} outside {view.legal_actions}")
        if MARRY <= action < MARRY + 4:
            suit = action - MARRY
            king = suit * 6 + KING
            second = self.bot.choose(after_marriage(view, action))
            if second != king:
                raise RuntimeError(f"our bot led {second} after marrying; only the king is legal")
            move: Move = Marriage(theirs(suit * 6 + QUEEN), theirs(king))
        elif action == EXCHANGE:
            move = TrumpExchange(theirs(_exchange_jack(view)))
        else:
            move = RegularMove(theirs(int(action)))
        self.times.append(time.perf_counter() - start)
        return move


def opponent_hand(perspective: PlayerPerspective) -> int:
    """The opponent's hand, from their hidden state: for ``--told`` only, never for a bot."""
    state = perspective._PlayerPerspective__get_opponent_bot_state()
    return mask_of(ours(card) for card in state.hand)


def _exchange_jack(view: View) -> int:
    assert view.trump is not None
    return view.trump * 6 + JACK


def after_marriage(view: View, action: Action) -> View:
    """Our view right after ``marry``: the pair is known, and only the king may be led."""
    from dataclasses import replace

    suit = action - MARRY
    king, queen = CARDS[suit * 6 + KING], CARDS[suit * 6 + QUEEN]
    seat = view.seat
    known = tuple(k | {king, queen} if s == seat else k for s, k in enumerate(view.known))
    marriages = tuple((*m, suit) if s == seat else m for s, m in enumerate(view.marriages))
    return replace(
        view,
        history=(*view.history, (seat, ACTIONS[action])),
        known=known,
        marriages=marriages,
        legal_actions=(ACTIONS[int(king)],),
    )


class Timed(PeerBot):  # type: ignore[misc]  # PeerBot: Any (untyped peer package)
    """Their bot, timed per move."""

    def __init__(self, inner: PeerBot, name: str) -> None:
        super().__init__(name)
        self.inner = inner
        self.times: list[float] = []

    def get_move(self, perspective: PlayerPerspective, leader_move: Move | None) -> Move:
        start = time.perf_counter()
        move = self.inner.get_move(perspective, leader_move=leader_move)
        self.times.append(time.perf_counter() - start)
        return move


@dataclass(frozen=True)
class Game:
    deal: int
    ours_first: bool
    won: bool
    game_points: int
    our_times: tuple[float, ...]
    their_times: tuple[float, ...]


def play_deal(
    deal: int, seed: int, spec: str, samples: int, depth: int, told: bool = False
) -> tuple[Game, Game]:
    """Deal ``deal`` twice from one shuffle: our bot leading first, then theirs (``told``: our
    bot is told the opponent's hand before each decision, a yardstick)."""
    if told:
        _told.install()
    engine = SchnapsenGamePlayEngine()
    variant = peer_variant()
    _, cls, params = resolve_player(spec, get_registry(), seats=2)
    master = random.Random(f"{seed}/{deal}")
    shuffle_seed = master.getrandbits(64)
    games = []
    for g, ours_first in enumerate((True, False)):
        bot = cls(0 if ours_first else 1, Seed(seed).child(("peer", deal, g)), params)
        mine = SixtySixPlayer(bot, variant, "sixtysix", told)
        rdeep = RdeepBot(samples, depth, random.Random(master.getrandbits(64)), name="rdeep")
        other = Timed(rdeep, "rdeep")
        first, second = (mine, other) if ours_first else (other, mine)
        winner, points, _ = engine.play_game(first, second, random.Random(shuffle_seed))
        games.append(
            Game(deal, ours_first, winner is mine, points, tuple(mine.times), tuple(other.times))
        )
    return games[0], games[1]


def choose_bot(spec: str | None) -> str:
    """The bot to measure: ``spec``, else ``expert``, else ``heuristic`` (saying why)."""
    if spec:
        resolve_player(spec, get_registry(), seats=2)  # a clear error now rather than in a worker
        return spec
    try:
        resolve_player("expert", get_registry(), seats=2)
    except Exception:
        print(
            "note: the 'expert' bot is not installed yet; measuring 'heuristic' instead",
            file=sys.stderr,
        )
        return "heuristic"
    return "expert"


def run(args: argparse.Namespace) -> dict[str, Any]:
    spec = choose_bot(args.bot)
    if not compiled_available():
        print(
            "note: numba (the 'fast' extra) is not installed here: search-based bots play"
            " without the compiled search, weaker than measured in docs/benchmarks.md",
            file=sys.stderr,
        )
    start = time.perf_counter()
    done: list[Any] = []  # per deal (or Bummerl), its two seatings
    interrupted = False
    jobs = max(1, args.jobs)
    fn: Callable[..., tuple[Any, Any]]  # play_bummerl or play_deal: one unit's two seatings
    if args.bummerl:
        from _peer_bummerl import play_bummerl

        units, unit, fn = args.bummerl, "Bummerls", play_bummerl
    else:
        units, unit, fn = args.deals, "deals", play_deal
    try:
        if jobs == 1:
            for d in range(units):
                done.append(fn(d, args.seed, spec, args.samples, args.depth, args.told))
                _progress(len(done), units, unit, start)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = [
                    pool.submit(fn, d, args.seed, spec, args.samples, args.depth, args.told)
                    for d in range(units)
                ]
                for future in futures:
                    done.append(future.result())
                    _progress(len(done), units, unit, start)
    except KeyboardInterrupt:
        interrupted = True
    print(file=sys.stderr)
    seconds = time.perf_counter() - start
    if not args.bummerl:
        games = [g for pair in done for g in pair]
        return summarize(games, spec, args, seconds, interrupted)
    from _peer_bummerl import bummerl_figures

    bummerls = [b for pair in done for b in pair]
    data = summarize([g for b in bummerls for g in b.games], spec, args, seconds, interrupted)
    data["deals"] = sum(max(len(a.games), len(b.games)) for a, b in done)
    data["bummerls"] = bummerl_figures(bummerls, judged=not args.told)
    return data


def _progress(done: int, total: int, unit: str, start: float) -> None:
    elapsed = time.perf_counter() - start
    print(f"\r{done}/{total} {unit}, {elapsed:.0f} s", end="", file=sys.stderr, flush=True)


def summarize(
    games: Sequence[Game], spec: str, args: argparse.Namespace, seconds: float, interrupted: bool
) -> dict[str, Any]:
    won = sum(g.won for g in games)
    rate = wilson(won, len(games))
    ours_points = sum(g.game_points for g in games if g.won)
    their_points = sum(g.game_points for g in games if not g.won)
    n = max(len(games), 1)
    return {
        "peer": f"schnapsen {metadata.version('schnapsen')}",
        "opponent": f"RdeepBot(num_samples={args.samples}, depth={args.depth})",
        "ours": f"{spec}, told the opponent's hand" if args.told else spec,
        "rules": PEER_RULES,
        "seed": args.seed,
        "deals": len(games) // 2,
        "games": len(games),
        "won": won,
        "win_rate": rate.as_json(),
        "game_points_per_game": {"ours": ours_points / n, "theirs": their_points / n},
        "time_per_move": {
            "ours": TimeStats.of([t for g in games for t in g.our_times]).as_json(),
            "theirs": TimeStats.of([t for g in games for t in g.their_times]).as_json(),
        },
        "seconds": round(seconds, 1),
        "interrupted": interrupted,
    }


def report(data: dict[str, Any]) -> str:
    rate = data["win_rate"]
    bummerls = data.get("bummerls")
    lines = [
        f"{data['peer']}: ours ({data['ours']}) against {data['opponent']},"
        f" their engine, rules matched by {data['rules']}",
        (
            f"{data['deals']} deals x 2 seatings = {data['games']} games"
            if bummerls is None
            else f"{data['games']} games over {data['deals']} deals of the Bummerls"
        )
        + f" in {data['seconds']} s"
        + (" (interrupted)" if data["interrupted"] else ""),
    ]
    if bummerls is not None:
        from _peer_bummerl import bummerl_report

        lines.extend(bummerl_report(bummerls))
    if data["games"]:
        lines.append(
            f"ours won {data['won']} of {data['games']} games: {100 * rate['value']:.1f}%"
            f" (95% CI {100 * rate['low']:.1f}-{100 * rate['high']:.1f}%)"
        )
        gp = data["game_points_per_game"]
        lines.append(f"game points per game: ours {gp['ours']:.3f}, theirs {gp['theirs']:.3f}")
        for who in ("ours", "theirs"):
            t = data["time_per_move"][who]
            lines.append(
                f"time per move, {who}: mean {t['mean_ms']} ms, median {t['median_ms']} ms,"
                f" p95 {t['p95_ms']} ms ({t['moves']} moves)"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Our bot inside the `schnapsen` package's engine against its RdeepBot.",
        epilog=__doc__.split("::", 1)[1].split("\n\n")[0] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--deals", type=int, default=500, help="deals, each played twice")
    parser.add_argument(
        "--bummerl",
        type=int,
        default=0,
        metavar="N",
        help="play N Bummerls to 7 instead of single deals, each twice with the seats swapped"
        " (_peer_bummerl.py)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the shuffles and bots")
    parser.add_argument("--bot", default=None, help="our bot spec or @level (default expert)")
    parser.add_argument("--samples", type=int, default=64, help="RdeepBot samples per move")
    parser.add_argument("--depth", type=int, default=8, help="RdeepBot rollout depth")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--told",
        action="store_true",
        help="a yardstick, not a measurement of our bot: tell it the opponent's hand before"
        " each decision (benchmarks/strength/_told.py)",
    )
    args = parser.parse_args(argv)
    if args.deals < 1 or args.samples < 1 or args.depth < 1 or args.bummerl < 0:
        parser.error("--deals, --samples and --depth must be at least 1")
    data = run(args)
    print(json.dumps(data, indent=2) if args.json else report(data))
    return 130 if data["interrupted"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
