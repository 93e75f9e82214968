"""One batch of the fast two-hand simulator: its vectorised play and scoring.

Why a module of its own: it is the simulator's engine room; :mod:`sixtysix.sim.fast_two_hand`
keeps the public entry points (:func:`~sixtysix.sim.fast_two_hand.supports`,
:func:`~sixtysix.sim.fast_two_hand.simulate_batch`) and the account of how equality with
``play_game`` is kept.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sixtysix.bots.players.random_bot import RandomBot
from sixtysix.core.cards import (
    MARRIAGE_POINTS,
    NUM_CARDS,
    TRUMP_MARRIAGE_POINTS,
)
from sixtysix.core.outcome import Outcome
from sixtysix.sim.fast_two_hand_deal import _DealingBatch
from sixtysix.sim.fast_two_hand_tables import (
    _ABOVE,
    _BLOCK_WORDS,
    _CARD_BITS,
    _CARDS_OUT,
    _CLAIM_BIT,
    _FALSE_CLAIM,
    _FIRST_WORDS,
    _GAME_STRIDE,
    _KQ,
    _MARRY_BIT0,
    _MARRY_BITS,
    _MARRY_MAGIC,
    _NO_ACTION,
    _POINTS,
    _QUEENS,
    _R_DRAW,
    _R_FAILED_CLOSE,
    _R_FALSE_CLAIM,
    _R_LAST_TRICK,
    _R_PLAYED_OUT,
    _REACHED,
    _REACHED_BY_CLAIM,
    _REASONS,
    _RUNNING,
    _SEAT_STRIDE,
    _SUIT_MASK_OF,
    _SUIT_OF,
    _TRUMP_MASK,
    I64,
    Bools,
    _popcount,
    _select_bit,
)
from sixtysix.sim.games import BotSpec, GameResult, play_game
from sixtysix.variants.two_hand import TwoHandVariant, overridden_scoring

# --------------------------------------------------------------------------- the simulator


class _Batch(_DealingBatch):
    """One batch of games: randomness, deal, vectorised play and scoring."""

    # ------------------------------------------------------------------ play

    def run(self) -> list[GameResult]:
        if self.size <= 0:
            return []
        self._deal(self._draw_randomness())
        self._play()
        return self._settle()

    def _play(self) -> None:
        r = self.rules
        n = self.size
        tal_len = self.talon.shape[1]
        has_talon = tal_len > 0 or r.turnup_after_round is not None
        manual = r.manual_claim
        goal = r.winning_points
        bonus = r.last_trick_bonus
        claim_bit = _CLAIM_BIT if manual else 0
        talon_flat = self.talon.reshape(-1)
        words = self.words

        # Per-game state by name: per-seat fields are (2, m), the others (m,). The working
        # arrays are compacted as games end; ``orig`` maps a column back to the batch.
        def seats(fill: int = 0) -> I64:
            return np.full((2, n), fill, dtype=np.int64)

        def games(fill: int = 0) -> I64:
            return np.full(n, fill, dtype=np.int64)

        trump0 = self.trump0.copy()
        xcard0 = trump0 * 6 + r.exchange_rank
        st: dict[str, I64] = {
            "hands": np.stack([self.hands0, self.hands1]),
            "cpts": seats(),  # card points
            "tricks": seats(),
            "mpts": seats(),  # declared marriages (valid once a trick is won)
            "bonus": seats(),
            "cnt": seats(),  # words used by each seat's bot
            "close_pts": seats(),
            "close_cpts": seats(),
            "close_tricks": seats(),
            "orig": np.arange(n, dtype=np.int64),
            "trump": trump0,
            "trump_mask": _TRUMP_MASK[trump0],
            "xcard": xcard0,
            "xbit": np.where(xcard0 < NUM_CARDS, 1 << np.minimum(xcard0, NUM_CARDS - 1), 0),
            "turnup": self.turnup0.copy(),
            "tpos": games(),  # face-down talon cards drawn
            "to_act": 1 - self.dealer,  # the forehand leads
            "led": games(-1),
            "lead_marry": games(-1),
            "closed": games(-1),
            "last_winner": games(-1),
            "end_kind": games(_RUNNING),
            "end_seat": games(-1),
        }
        out = {name: np.empty_like(a) for name, a in st.items()}

        def flush(sel: Any) -> None:
            """Copy the games ``sel`` (finished) to the results."""
            g = st["orig"][sel]
            for name, a in st.items():
                out[name][..., g] = a[..., sel]

        step = 0
        while True:
            hands, cpts, tricks, mpts = st["hands"], st["cpts"], st["tricks"], st["mpts"]
            bonus_pts, cnt = st["bonus"], st["cnt"]
            orig, trump, turnup, tpos = st["orig"], st["trump"], st["turnup"], st["tpos"]
            to_act, led, closed = st["to_act"], st["led"], st["closed"]
            lead_marry = st["lead_marry"]
            end_kind, end_seat = st["end_kind"], st["end_seat"]
            m = orig.shape[0]
            alive = end_kind == _RUNNING
            seat1 = to_act == 1
            hand = np.where(seat1, hands[1], hands[0])
            leading = led < 0
            face_down = tal_len - tpos
            # Rules.strict_phase, restated on arrays of games.
            strict: Bools
            if r.strict_always:
                strict = np.ones(m, dtype=np.bool_)
            else:
                strict = (closed >= 0) | ((face_down == 0) & (turnup < 0))

            # Follower: the strict-phase duty (follow and head, else trump), or any card.
            li = led & 31
            suit = hand & _SUIT_MASK_OF[li]
            higher = suit & _ABOVE[li]
            trumps = hand & st["trump_mask"]
            duty = np.where(
                suit != 0, np.where(higher != 0, higher, suit), np.where(trumps != 0, trumps, hand)
            )
            legal = np.where(strict, duty, hand)

            # Leader: cards, marriages, exchange, close, claim.
            lead = hand | claim_bit
            if r.marriages:
                marry = ((hand & (hand >> 1) & _QUEENS) * _MARRY_MAGIC) & _MARRY_BITS
                if not r.marriage_after_close:
                    marry = np.where(strict, 0, marry)
                lead = lead | marry
            if r.exchange or r.closing:
                talon_open = (turnup >= 0) & (closed < 0)
                if r.closing:
                    may_close = talon_open
                    if r.close_needs_trick:
                        may_close = may_close & (np.where(seat1, tricks[1], tricks[0]) > 0)
                    lead = lead | (may_close.astype(np.int64) << 29)
                if r.exchange:
                    talon_size = face_down + (turnup >= 0)
                    may_x = (
                        talon_open & (talon_size >= r.exchange_min_talon) & (hand & st["xbit"] != 0)
                    )
                    if r.exchange_needs_trick:
                        may_x = may_x & (np.where(seat1, tricks[1], tricks[0]) > 0)
                    lead = lead | (may_x.astype(np.int64) << 28)
            after_marry = lead_marry >= 0
            if after_marry.any():
                lead = np.where(after_marry, (hand & _KQ[lead_marry & 7]) | claim_bit, lead)
            legal = np.where(leading, lead, legal)

            # The random bot's choice: legal[word % len(legal)].
            count = np.maximum(_popcount(legal), 1)
            used = np.where(seat1, cnt[1], cnt[0])
            if step >= _FIRST_WORDS:
                short = alive & (used >= _FIRST_WORDS)
                if short.any():
                    if (alive & (used >= _BLOCK_WORDS)).any():  # pragma: no cover - see below
                        # A seat acts at most 12 + 4 + 1 + 1 + 1 times in a deal of 24 cards.
                        raise RuntimeError("a random bot needs a second block of words")
                    self._extend_words(orig[short])
            word = words[orig * _GAME_STRIDE + to_act * _SEAT_STRIDE + used]
            k = (word % count.astype(np.uint64)).astype(np.int64)
            action = np.where(alive, _select_bit(legal, k), _NO_ACTION)
            cnt[1] += alive & seat1
            cnt[0] += alive & ~seat1
            step += 1

            # Card plays (leading or following).
            is_card = action < NUM_CARDS
            card_bit = (1 << action) & _CARD_BITS
            hand ^= card_bit
            hands[0] = np.where(seat1, hands[0], hand)
            hands[1] = np.where(seat1, hand, hands[1])
            follow = is_card & ~leading
            ai = action & 31
            lsuit = _SUIT_OF[li]
            fsuit = _SUIT_OF[ai]
            follower_wins = np.where(fsuit == lsuit, action > led, fsuit == trump)
            winner = np.where(follower_wins, to_act, 1 - to_act)
            pts = _POINTS[li] + _POINTS[ai]
            won1 = follow & (winner == 1)
            won0 = follow & (winner == 0)
            cpts[0] += np.where(won0, pts, 0)
            cpts[1] += np.where(won1, pts, 0)
            tricks[0] += won0
            tricks[1] += won1
            st["last_winner"] = np.where(follow, winner, st["last_winner"])
            st["to_act"] = np.where(follow, winner, np.where(is_card, 1 - to_act, to_act))
            st["led"] = np.where(follow, -1, np.where(is_card, action, led))
            st["lead_marry"] = lead_marry = np.where(is_card, -1, lead_marry)

            if has_talon:
                # The winner draws the top card (or the turn-up), then the loser.
                draw = follow & (closed < 0) & ((tpos < tal_len) | (turnup >= 0))
                if draw.any():
                    w1 = winner == 1
                    got = []
                    for _ in range(2):
                        from_talon = draw & (tpos < tal_len)
                        from_turnup = draw & ~from_talon & (turnup >= 0)
                        if tal_len:
                            top = talon_flat[orig * tal_len + np.minimum(tpos, tal_len - 1)]
                            card = np.where(from_talon, top, turnup)
                        else:
                            card = turnup
                        got.append(np.where(from_talon | from_turnup, 1 << (card & 31), 0))
                        tpos += from_talon
                        turnup[from_turnup] = -1
                    hands[0] |= np.where(w1, got[1], got[0])
                    hands[1] |= np.where(w1, got[0], got[1])

            if follow.any():
                last = follow & ((hands[0] | hands[1]) == 0)
                if bonus:
                    with_bonus = last & (closed < 0)
                    bonus_pts[0] += np.where(with_bonus & ~won1, bonus, 0)
                    bonus_pts[1] += np.where(with_bonus & won1, bonus, 0)
                if manual:
                    ended = last
                    kind = np.where(last, _CARDS_OUT, _RUNNING)
                else:
                    w_pts = np.where(
                        won1,
                        cpts[1] + bonus_pts[1] + mpts[1],
                        cpts[0] + bonus_pts[0] + mpts[0],
                    )
                    reached = follow & (w_pts >= goal)
                    kind = np.where(reached, _REACHED, np.where(last, _CARDS_OUT, _RUNNING))
                    ended = kind != _RUNNING
                st["end_kind"] = end_kind = np.where(ended, kind, end_kind)
                st["end_seat"] = end_seat = np.where(ended, winner, end_seat)

            # The rarer actions of the seat on lead, on the few games that chose them.
            special = np.flatnonzero((action >= _MARRY_BIT0) & (action < _NO_ACTION))
            if special.size:
                self._apply_special(st, special, action[special], manual, goal)

            # Drop finished games from the working arrays once they are a good share of them.
            running = st["end_kind"] == _RUNNING
            still = int(np.count_nonzero(running))
            if still == 0:
                flush(slice(None))
                break
            if still < 0.7 * m:
                flush(~running)
                keep = np.flatnonzero(running)
                for name, a in st.items():
                    st[name] = a[..., keep]
        self.out = out

    @staticmethod
    def _apply_special(st: dict[str, I64], special: I64, act: I64, manual: bool, goal: int) -> None:
        """Marriage, exchange, close and claim: the leader's moves before his card."""
        to_act, cpts, tricks, mpts = st["to_act"], st["cpts"], st["tricks"], st["mpts"]

        def valid(seat: I64, sel: I64) -> I64:
            """Valid points of ``seat`` in the games ``sel``."""
            pts: I64 = cpts[seat, sel] + st["bonus"][seat, sel]
            return pts + np.where(tricks[seat, sel] > 0, mpts[seat, sel], 0)

        sel = special[act < _MARRY_BIT0 + 4]
        if sel.size:
            seat = to_act[sel]
            suit = act[act < _MARRY_BIT0 + 4] - _MARRY_BIT0
            st["lead_marry"][sel] = suit
            mpts[seat, sel] += np.where(
                suit == st["trump"][sel], TRUMP_MARRIAGE_POINTS, MARRIAGE_POINTS
            )
            if not manual:
                done = (tricks[seat, sel] > 0) & (valid(seat, sel) >= goal)
                st["end_kind"][sel[done]] = _REACHED
                st["end_seat"][sel[done]] = seat[done]
        sel = special[act == 28]
        if sel.size:
            turnup = st["turnup"]
            st["hands"][to_act[sel], sel] ^= st["xbit"][sel] | (1 << turnup[sel])
            turnup[sel] = st["xcard"][sel]
        sel = special[act == 29]
        if sel.size:
            st["closed"][sel] = to_act[sel]
            zeros = np.zeros(sel.size, dtype=np.int64)
            st["close_pts"][0, sel] = valid(zeros, sel)
            st["close_pts"][1, sel] = valid(zeros + 1, sel)
            st["close_tricks"][:, sel] = tricks[:, sel]
            st["close_cpts"][:, sel] = cpts[:, sel]
        sel = special[act == 30]
        if sel.size:
            seat = to_act[sel]
            true_claim = valid(seat, sel) >= goal
            st["end_kind"][sel] = np.where(true_claim, _REACHED_BY_CLAIM, _FALSE_CLAIM)
            st["end_seat"][sel] = seat

    # ------------------------------------------------------------------ scoring

    def _settle(self) -> list[GameResult]:
        """TwoHandVariant.settle, vectorised; overridden scoring methods are honoured per game."""
        v = self.variant
        assert isinstance(v, TwoHandVariant)
        o = self.out
        n = self.size
        goal = self.rules.winning_points
        manual = self.rules.manual_claim
        sc = v.scoring
        cards_only, two_or_three, tie_draw = sc.card_points_only, sc.failed_close_2or3, sc.tie_draw
        cpts, tricks, close_tricks = o["cpts"], o["tricks"], o["close_tricks"]
        points = cpts + o["bonus"] + np.where(tricks > 0, o["mpts"], 0)

        def schneider(pts: I64, trk: I64) -> I64:
            return np.where(pts >= 33, 1, np.where(trk > 0, 2, 3))

        scale = schneider(cpts if cards_only else points, tricks)  # (2, n), by loser
        if sc.scale_at_close:
            close_src = o["close_cpts"] if cards_only else o["close_pts"]
            close_scale = schneider(close_src, close_tricks)
        else:
            close_scale = scale
        failed = np.where(two_or_three & (close_tricks == 0), 3, 2)  # by opponent

        ar = np.arange(n)
        kind, seat, closer = o["end_kind"], o["end_seat"], o["closed"]
        other = 1 - seat
        gp = np.zeros((2, n), dtype=np.int64)
        reason = np.zeros(n, dtype=np.int64)

        # Reached the winning points (auto, or a true claim).
        reached = (kind == _REACHED) | (kind == _REACHED_BY_CLAIM)
        by_closer = seat == closer
        value = np.where(
            closer < 0,
            scale[other, ar],
            np.where(by_closer, close_scale[other, ar], failed[seat, ar]),
        )
        gp[seat[reached], ar[reached]] = value[reached]
        reached_failed = reached & (closer >= 0) & ~by_closer
        reason[reached_failed] = _R_FAILED_CLOSE

        # A false claim.
        false_claim = kind == _FALSE_CLAIM
        value = np.where(
            by_closer,
            failed[other, ar],
            np.where(sc.false_claim_three & (tricks[other, ar] == 0), 3, 2),
        )
        gp[other[false_claim], ar[false_claim]] = value[false_claim]
        reason[false_claim] = _R_FALSE_CLAIM

        # The cards ran out.
        cards_out = kind == _CARDS_OUT
        cl = np.maximum(closer, 0)
        closed_out = cards_out & (closer >= 0)
        closer_made = points[cl, ar] >= goal
        closed_made = closed_out & closer_made
        gp[cl[closed_made], ar[closed_made]] = close_scale[1 - cl[closed_made], ar[closed_made]]
        closed_failed = closed_out & ~closer_made
        gp[1 - cl[closed_failed], ar[closed_failed]] = failed[
            1 - cl[closed_failed], ar[closed_failed]
        ]
        reason[closed_failed] = _R_FAILED_CLOSE
        open_out = cards_out & (closer < 0)
        lw = np.maximum(o["last_winner"], 0)
        if manual:
            at_goal = points >= goal
            best = np.max(np.where(at_goal, points, -1), axis=0)
            anyone = at_goal.any(axis=0)
            top = at_goal & (points == best)
            sel = open_out & anyone
            gp[:, sel] = top[:, sel]
            reason[sel] = _R_PLAYED_OUT
            sel = open_out & ~anyone
            if sc.played_out_last_trick:
                gp[lw[sel], ar[sel]] = 1
                reason[sel] = _R_LAST_TRICK
            else:
                reason[sel] = _R_PLAYED_OUT
        elif tie_draw:
            reason[open_out] = _R_DRAW
        else:
            gp[lw[open_out], ar[open_out]] = 1
            reason[open_out] = _R_LAST_TRICK

        reasons = _REASONS
        results: list[GameResult] = []
        append = results.append
        for i, d, r, g0, g1, p0, p1, t0, t1 in zip(
            range(self.lo, self.lo + n),
            self.dealer.tolist(),
            reason.tolist(),
            gp[0].tolist(),
            gp[1].tolist(),
            points[0].tolist(),
            points[1].tolist(),
            tricks[0].tolist(),
            tricks[1].tolist(),
            strict=True,
        ):
            append(GameResult(i, d, Outcome(reasons[r], (g0, g1), (p0, p1), (t0, t1))))

        # A subclass that overrides a scoring method: score the games that reach it by the
        # variant's own code, on the deal's final state.
        mine = overridden_scoring(v)
        if mine:
            calls_closing = (reached & by_closer) | closed_made
            calls = {
                "settle": np.ones(n, dtype=np.bool_),
                "_scale": (reached & (closer < 0)) | (calls_closing & (not sc.scale_at_close)),
                "_closing_scale": calls_closing,
                "_failed_close": reached_failed | (false_claim & by_closer) | closed_failed,
                "_tie_reason": open_out & (not manual),
            }
            need = np.zeros(n, dtype=np.bool_)
            for name in mine:
                need |= calls[name]
            for g in np.flatnonzero(need).tolist():
                results[g] = GameResult(self.lo + g, int(self.dealer[g]), self._outcome_of(g))
        return results

    def _outcome_of(self, g: int) -> Outcome:
        """Game ``g`` scored by the variant's own code: replayed by the engine, whose final
        state is the one its scoring methods are written for (history and all)."""
        bots: list[BotSpec] = [(RandomBot, {}), (RandomBot, {})]
        return play_game(self.variant, bots, self.master, self.lo + g).outcome
