"""The fast two-hand simulator's batch up to the deal: per-game seeds, the bots' random words,
and the shuffled, dealt cards (numpy).

Why a module of its own: drawing randomness exactly as the generic path does is one job, apart
from the play and scoring of :mod:`sixtysix.sim.fast_two_hand_batch`, which builds on it.
"""

from __future__ import annotations

import numpy as np

from sixtysix.core.cards import (
    iter_mask,
)
from sixtysix.core.deal import DealSetup
from sixtysix.core.rng import Seed, child_keys, keys_bytes
from sixtysix.core.variant import Variant
from sixtysix.sim.fast_two_hand_tables import (
    _BLOCK_WORDS,
    _FIRST_WORDS,
    _GAME_STRIDE,
    _SUIT_OF,
    I64,
    U64,
    _words,
)
from sixtysix.variants.two_hand import plain_two_hand


class _DealingBatch:
    """One batch of games, up to the deal: its randomness and its cards."""

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
