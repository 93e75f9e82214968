"""A vectorised random-vs-random simulator for the two-player talon games (66, Schnapsen).

:func:`simulate_batch` plays games ``start..stop-1`` of a simulation between two plain
:class:`~sixtysix.bots.random_bot.RandomBot` players and returns, game by game, exactly the
:class:`~sixtysix.sim.simulate.GameResult` that :func:`sixtysix.sim.simulate.play_game` gives:
the same deal, the same choices, the same outcome. It is only faster (several times), because
the per-move game logic runs on whole batches of games at once as numpy array operations.

How the equality is kept:

* Randomness is drawn exactly as the generic path draws it. Game ``i`` uses the seed
  ``master.child(("game", i))``; its deal shuffles with ``seed.words(("deal", "shuffle"), n-1)``
  and the random bot of each seat, seeded with ``seed.child(("bot", seat))``, reads words from
  that seed's ``stream(("bot", seat))``. The hashing is done
  per game in Python (a few microseconds); the Fisher-Yates shuffle, the dealing and the play are
  vectorised. SHAKE-256 is an extendable-output function, so the first words of a stream block
  are the same whether 17 or 32 words are asked for: only one Keccak block (17 words) is made per
  bot up front and the full 32-word block is made for the rare game whose seat needs more.
* The engine's legal list in ascending action order (cards 0..23, marriages 24..27, exchange 28,
  close 29, claim 30) is a 31-bit mask here; a random bot's choice ``legal[word % len(legal)]``
  is the ``word % popcount``-th set bit of that mask.
* Only :class:`~sixtysix.core.rules.Rules` knobs (those of the allow-list
  :data:`~sixtysix.variants.two_hand.FAST_RULES`) and the variant's
  :class:`~sixtysix.variants.two_hand.TwoHandScoring` are read, never the variant's name.
  :func:`supports` says when this path applies; callers fall back to ``play_game`` otherwise.
* A subclass that deals itself has its ``deal`` called per game. A subclass that overrides a
  scoring method (``settle``, ``_scale``, ``_closing_scale``, ``_failed_close``,
  ``_tie_reason``) has the games that reach it replayed by ``play_game``, so that its own
  code scores them on the engine's final state.

numpy is an optional dependency (the ``fast`` extra): importing this module without it raises
:class:`ImportError`, and callers use the generic path.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from sixtysix.bots.random_bot import RandomBot
from sixtysix.core.cards import (
    ABOVE,
    KQ,
    MARRIAGE_POINTS,
    NUM_CARDS,
    POINTS,
    QUEEN,
    SUIT_MASK,
    TRUMP_MARRIAGE_POINTS,
    iter_mask,
)
from sixtysix.core.deal import DealSetup
from sixtysix.core.outcome import EndCode, Outcome, Reason
from sixtysix.core.rng import Seed, child_keys, keys_bytes
from sixtysix.core.variant import Variant
from sixtysix.sim.simulate import BotSpec, GameResult, play_game
from sixtysix.variants.two_hand import TwoHandVariant, overridden_scoring, plain_two_hand

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
Bools = npt.NDArray[np.bool_]

#: Games per vectorised batch: large enough to amortise numpy's per-call overhead, small
#: enough for the working set to stay in cache (measured: 4096 -3 %, 8192 best, 16384 -2 %).
DEFAULT_BATCH = 8192

# Action codes as bits of the legal mask (see sixtysix.core.actions).
_MARRY_BIT0 = 24
_EXCHANGE_BIT = 1 << 28
_CLOSE_BIT = 1 << 29
_CLAIM_BIT = 1 << 30
_NO_ACTION = 31
_CARD_BITS = (1 << NUM_CARDS) - 1

#: Words of a random bot's stream block (rng.Stream) and what one Keccak block of
#: SHAKE-256 (136 bytes) yields.
_BLOCK_WORDS = 32
_FIRST_WORDS = 17
_SEAT_STRIDE = _BLOCK_WORDS
_GAME_STRIDE = 2 * _BLOCK_WORDS

# End kinds: EndCode's, and one more of this path's own for a true claim (REACHED, claimed).
_RUNNING, _REACHED = int(EndCode.RUNNING), int(EndCode.REACHED)
_FALSE_CLAIM, _CARDS_OUT = int(EndCode.FALSE_CLAIM), int(EndCode.CARDS_OUT)
_REACHED_BY_CLAIM = max(EndCode) + 1

_REASONS: tuple[Reason, ...] = (
    Reason.REACHED_66,
    Reason.FALSE_CLAIM,
    Reason.FAILED_CLOSE,
    Reason.LAST_TRICK,
    Reason.PLAYED_OUT,
    Reason.DRAW,
)
_R_REACHED, _R_FALSE_CLAIM, _R_FAILED_CLOSE, _R_LAST_TRICK, _R_PLAYED_OUT, _R_DRAW = range(6)


def _card_table(values: Sequence[int]) -> I64:
    """A table indexed by ``card & 31``: cards 0..23, and 0 for the -1 "no card" index 31."""
    out = np.zeros(32, dtype=np.int64)
    out[: len(values)] = values
    return out


_SUIT_OF = _card_table([c // 6 for c in range(NUM_CARDS)])
_SUIT_MASK_OF = _card_table([SUIT_MASK[c // 6] for c in range(NUM_CARDS)])
_ABOVE = _card_table(ABOVE)
_POINTS = _card_table(POINTS)
#: Indexed by ``lead_marry & 7``: the K and Q of that suit, 0 for -1.
_KQ = np.zeros(8, dtype=np.int64)
_KQ[:4] = KQ
#: A suit mask per trump suit (index 4 unused).
_TRUMP_MASK = np.array([*SUIT_MASK, 0], dtype=np.int64)
#: The queen bits; ``hand & hand >> 1 & _QUEENS`` marks suits holding K and Q, and multiplying
#: by ``_MARRY_MAGIC`` moves queen bit 2, 8, 14, 20 to 24, 25, 26, 27 without carries.
_QUEENS = sum(1 << (s * 6 + QUEEN) for s in range(4))
_MARRY_MAGIC = (1 << 22) | (1 << 17) | (1 << 12) | (1 << 7)
_MARRY_BITS = 0b1111 << _MARRY_BIT0


def _words(chunks: list[bytes]) -> U64:
    """Equal-sized chunks of little-endian 64-bit words, one row per chunk."""
    return np.frombuffer(b"".join(chunks), dtype="<u8").astype(np.uint64).reshape(len(chunks), -1)


def _select_tables() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Popcount of 16-bit values, and the position of their k-th set bit (flat, 16 per value)."""
    values = np.arange(1 << 16, dtype=np.int64)
    bits = (values[:, None] >> np.arange(16)) & 1
    ranks = np.cumsum(bits, axis=1) - 1
    rows, cols = np.nonzero(bits)
    select = np.zeros((1 << 16, 16), dtype=np.uint8)
    select[rows, ranks[rows, cols]] = cols
    return bits.sum(axis=1).astype(np.uint8), select.reshape(-1)


_POP16, _SEL16 = _select_tables()

if hasattr(np, "bitwise_count"):  # numpy >= 2.0

    def _popcount(x: I64) -> I64:
        return np.bitwise_count(x).astype(np.int64)

else:  # pragma: no cover - numpy 1.x

    def _popcount(x: I64) -> I64:
        out: I64 = _POP16[x & 0xFFFF].astype(np.int64) + _POP16[x >> 16]
        return out


def _select_bit(mask: I64, k: I64) -> I64:
    """The position of the ``k``-th (0-based) set bit of each 31-bit ``mask``."""
    lo = mask & 0xFFFF
    count_lo = _POP16[lo].astype(np.int64)
    in_lo = k < count_lo
    src = np.where(in_lo, lo, mask >> 16)
    kk = np.where(in_lo, k, k - count_lo)
    pos: I64 = _SEL16[src * 16 + kk].astype(np.int64)
    pos[~in_lo] += 16
    return pos


# --------------------------------------------------------------------------- applicability


def supports(variant: Variant, bots: Sequence[BotSpec]) -> bool:
    """True when :func:`simulate_batch` plays exactly the games ``play_game`` would.

    That is: a :class:`TwoHandVariant` played by the generic engine (``new_deal`` not
    overridden), with rules this simulator knows (two seats playing alone, a turned-up or shown
    trump, no trump call, partner call or concession: the allow-list
    :data:`~sixtysix.variants.two_hand.FAST_RULES`),
    between two plain random bots (no seed of their own). A variant that deals itself or
    overrides a scoring method is still supported: its ``deal`` is called per game, and the
    games that reach an overridden scoring method are scored by it.
    """
    if not plain_two_hand(variant) or len(bots) != 2:
        return False
    return all(bot is RandomBot and not params for bot, params in bots)


# --------------------------------------------------------------------------- public API


def simulate_batch(
    variant: Variant, master: Seed, start: int, stop: int, batch: int = DEFAULT_BATCH
) -> list[GameResult]:
    """Games ``start..stop-1`` between two random bots, as ``play_game`` would play them.

    The caller checks :func:`supports` first (with the two bots it means to use).
    """
    out: list[GameResult] = []
    for lo in range(start, stop, batch):
        out.extend(_Batch(variant, master, lo, min(lo + batch, stop)).run())
    return out


def iter_games(
    variant: Variant, master: Seed, start: int, stop: int, batch: int = DEFAULT_BATCH
) -> Iterator[GameResult]:
    """Like :func:`simulate_batch`, one batch in memory at a time."""
    for lo in range(start, stop, batch):
        yield from _Batch(variant, master, lo, min(lo + batch, stop)).run()


# --------------------------------------------------------------------------- the simulator


class _Batch:
    """One batch of games: randomness, deal, vectorised play and scoring."""

    def __init__(self, variant: Variant, master: Seed, lo: int, hi: int) -> None:
        if not plain_two_hand(variant):
            raise ValueError(f"the fast simulator does not play {variant.name!r} with these rules")
        self.variant = variant
        self.rules = variant.rules
        self.master = master
        self.lo = lo
        self.size = hi - lo
        self.deck_cards = list(iter_mask(self.rules.deck))
        self.shuffle_words = max(len(self.deck_cards) - 1, 1)
        self.custom_deal = type(variant).deal is not Variant.deal
        self.fast_hash = type(master) is Seed
        self.seeds: list[Seed] = []
        #: Per game, the keys of seat 0's and seat 1's bot seeds (on the fast hashing path).
        self.bot_keys: list[bytes] = []
        self.dealer: I64 = np.zeros(0, dtype=np.int64)
        self.hands0: I64 = self.dealer
        self.hands1: I64 = self.dealer
        self.turnup0: I64 = self.dealer
        self.trump0: I64 = self.dealer
        self.talon: I64 = self.dealer
        self.out: dict[str, I64] = {}

    # ------------------------------------------------------------------ randomness

    def _draw_randomness(self) -> U64 | None:
        """Fill the bot words; return the shuffle words (None when the variant deals itself)."""
        n = self.size
        self.words: U64 = np.zeros(n * _GAME_STRIDE, dtype=np.uint64)
        self.full_words = np.zeros(n, dtype=np.bool_)
        if not self.fast_hash:
            # Any Seed subclass: go through its own methods, full stream blocks.
            self.seeds = [self.master.child(("game", i)) for i in range(self.lo, self.lo + n)]
            rows = self.words.reshape(n, 2, _BLOCK_WORDS)
            for g, seed in enumerate(self.seeds):
                for seat in range(2):
                    bot_seed = seed.child(("bot", seat))
                    rows[g, seat] = bot_seed.words(("bot", seat, 0), _BLOCK_WORDS)
            self.full_words[:] = True
            if self.custom_deal:
                return None
            return np.array(
                [s.words(("deal", "shuffle"), self.shuffle_words) for s in self.seeds],
                dtype=np.uint64,
            ).reshape(n, self.shuffle_words)
        # The keys and bytes of Seed.child and Seed.bytes, hashed in bulk without Seed objects.
        keys = child_keys(self.master.key, ("game",), range(self.lo, self.lo + n))
        key0 = keys_bytes(keys, ("child", "bot", 0), 32)
        key1 = keys_bytes(keys, ("child", "bot", 1), 32)
        self.bot_keys = [k for pair in zip(key0, key1, strict=True) for k in pair]
        rows = self.words.reshape(n, 2, _BLOCK_WORDS)
        rows[:, 0, :_FIRST_WORDS] = _words(keys_bytes(key0, ("bot", 0, 0), 8 * _FIRST_WORDS))
        rows[:, 1, :_FIRST_WORDS] = _words(keys_bytes(key1, ("bot", 1, 0), 8 * _FIRST_WORDS))
        if self.custom_deal:
            self.seeds = [self._seed_of(key) for key in keys]
            return None
        return _words(keys_bytes(keys, ("deal", "shuffle"), 8 * self.shuffle_words))

    def _seed_of(self, key: bytes) -> Seed:
        return Seed.from_key(key, self.master.reproducible)

    def _extend_words(self, games: I64) -> None:
        """Make the full 32-word first block of both bots' streams for these batch games."""
        rows = self.words.reshape(self.size, 2, _BLOCK_WORDS)
        for g in games.tolist():
            if self.full_words[g]:
                continue
            for seat in range(2):
                seed = self._seed_of(self.bot_keys[2 * g + seat])
                rows[g, seat] = seed.words(("bot", seat, 0), _BLOCK_WORDS)
            self.full_words[g] = True

    # ------------------------------------------------------------------ dealing

    def _deal(self, shuffle_words: U64 | None) -> None:
        r = self.rules
        n = self.size
        idx = np.arange(self.lo, self.lo + n, dtype=np.int64)
        dealer = idx % 2
        self.dealer = dealer
        if shuffle_words is None:
            self._deal_custom(dealer)
            return
        cards = np.array(self.deck_cards, dtype=np.int64)
        m = len(cards)
        order = np.tile(cards, (n, 1))
        rows = np.arange(n)
        # Seed.shuffled: for k, i in enumerate(range(m - 1, 0, -1)): swap out[i], out[w[k] % (i+1)].
        for k, i in enumerate(range(m - 1, 0, -1)):
            j = (shuffle_words[:, k] % np.uint64(i + 1)).astype(np.intp)
            vi = order[:, i].copy()
            order[:, i] = order[rows, j]
            order[rows, j] = vi
        # deal_from_order with the forehand (F) and the dealer (D) as roles.
        pos_f: list[int] = []
        pos_d: list[int] = []
        pos = 0
        turnup_pos = -1
        for rnd, count in enumerate(r.deal_rounds):
            pos_f.extend(range(pos, pos + count))
            pos += count
            pos_d.extend(range(pos, pos + count))
            pos += count
            if r.turnup_after_round == rnd:
                turnup_pos = pos
                pos += 1
        hand_f: I64 = np.bitwise_or.reduce(1 << order[:, pos_f], axis=1)
        hand_d: I64 = np.bitwise_or.reduce(1 << order[:, pos_d], axis=1)
        d1 = dealer == 1
        self.hands0 = np.where(d1, hand_f, hand_d)
        self.hands1 = np.where(d1, hand_d, hand_f)
        self.talon = np.ascontiguousarray(order[:, pos:])
        if turnup_pos >= 0:
            self.turnup0 = order[:, turnup_pos].copy()
            self.trump0 = _SUIT_OF[self.turnup0]
        else:
            self.turnup0 = np.full(n, -1, dtype=np.int64)
            self.trump0 = _SUIT_OF[order[:, pos_d[-1]]]

    def _deal_custom(self, dealer: I64) -> None:
        """The variant deals itself: call its ``deal`` per game, as ``play_game`` does."""
        setups: list[DealSetup] = [
            self.variant.deal(seed, ("deal",), d)
            for seed, d in zip(self.seeds, dealer.tolist(), strict=True)
        ]
        width = max((len(s.talon) for s in setups), default=0)
        if any(len(s.talon) != width for s in setups):
            raise ValueError("the fast simulator needs talons of one size")
        masks = np.array([s.hand_masks() for s in setups], dtype=np.int64).reshape(-1, 2)
        self.hands0 = masks[:, 0].copy()
        self.hands1 = masks[:, 1].copy()
        self.talon = np.array([s.talon for s in setups], dtype=np.int64).reshape(-1, width)
        self.turnup0 = np.array(
            [-1 if s.trump_card is None else s.trump_card for s in setups], dtype=np.int64
        )
        self.trump0 = np.array(
            [
                (s.trump_card if s.trump_card is not None else s.hands[s.dealer][-1]) // 6
                for s in setups
            ],
            dtype=np.int64,
        )

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
