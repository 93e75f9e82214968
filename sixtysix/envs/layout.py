"""Where each fact of a view goes in an encoder's vectors: the field layout of one variant.

The layout is worked out once per variant (with its options) from its :class:`Rules` alone, so
it holds for any plugin on the generic engine: a field the rules can never use (the turn-up of
a talonless game, the called ace of a game without a partner call) gets no room. The
observation's fields come first and the information state repeats them with the public
history after them, so both vectors share every offset but the history's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from sixtysix.core.actions import ACTION_NAMES, MARRY, SOLO
from sixtysix.core.cards import NUM_CARDS, mask_points
from sixtysix.core.options import Options
from sixtysix.core.rules import Rules
from sixtysix.envs.actions import close_usable, max_history, usable_ids_of

if TYPE_CHECKING:
    from sixtysix.core.variant import Variant

#: The version of the layout, in ``Encoder.metadata()["version"]`` (docs/research.md says what
#: each changed): 1, the first layout; 2, the optional ``match`` field (``match=True``). With
#: ``match`` off a version-2 layout is version 1's, float for float, so a policy trained on
#: version 1 observes the same vectors.
ENCODING_VERSION = 2

#: The phases of :class:`~sixtysix.core.phase.Phase`, in their order.
PHASE_NAMES = ("trump_call", "partner_call", "play", "over")

#: The most game points one seat scores in a deal, by seats, unless the variant class says
#: otherwise (``max_deal_game_points``): the 1/2/3 scale, doubled for a four-player soloist.
MAX_GAME_POINTS = {2: 3, 3: 3, 4: 6}


def max_deal_game_points(variant: type[Variant]) -> int:
    """The most game points one seat of ``variant`` scores in a deal (its declared bound, else
    the family's for its seats)."""
    declared = variant.max_deal_game_points
    if isinstance(declared, int) and declared > 0:
        return declared
    return MAX_GAME_POINTS.get(variant.seats, 6)


class Field(NamedTuple):
    """One named run of a vector: ``vector[offset : offset + size]`` means ``meaning``."""

    name: str
    offset: int
    size: int
    meaning: str

    def as_json(self) -> dict[str, object]:
        return dict(self._asdict())


@dataclass(frozen=True)
class Layout:
    """The sizes and fields of one variant's encodings, and the facts they were made from."""

    seats: int
    #: Cards still to be dealt after the hands: the face-down talon and the turn-up.
    talon: int
    #: Most tricks one seat can take (every card of the deck in its tricks).
    max_tricks: int
    #: Card points of the whole deck (120 in every built-in variant).
    deck_points: int
    max_history: int
    usable: tuple[int, ...]
    has_turnup: bool
    trump_call: bool
    closing: bool
    marriages: bool
    partner_call: bool
    #: The option values as encoded (a bool 0/1, a choice one-hot, an integer over its maximum).
    option_values: tuple[float, ...]
    option_names: tuple[str, ...]
    obs_fields: tuple[Field, ...]
    info_fields: tuple[Field, ...]
    #: Whether the vectors hold the ``match`` field (the match's public state).
    match: bool = False
    #: The most game points one seat scores in a deal: times the deals of a match of a fixed
    #: number of deals, the bound a total is divided by in the ``match`` field.
    deal_points: int = 3

    @property
    def obs_size(self) -> int:
        last = self.obs_fields[-1]
        return last.offset + last.size

    @property
    def info_size(self) -> int:
        last = self.info_fields[-1]
        return last.offset + last.size

    @property
    def history_slot(self) -> int:
        """Floats per history entry: the relative seat one-hot, then the action one-hot over
        :attr:`usable`."""
        return self.seats + len(self.usable)

    def field(self, name: str) -> Field:
        for f in self.info_fields:
            if f.name == name:
                return f
        raise KeyError(name)


def option_encoding(options: Options) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Each option as floats, with a name per float: a bool 0/1, a choice one-hot
    (``name=choice``), an integer divided by its maximum."""
    names: list[str] = []
    values: list[float] = []
    for spec in options.specs():
        value = getattr(options, spec.name)
        if spec.kind == "bool":
            names.append(spec.name)
            values.append(float(bool(value)))
        elif spec.kind == "int":
            names.append(spec.name)
            values.append(min(max(int(value) / spec.maximum, 0.0), 1.0))
        else:
            for choice in spec.choices or ():
                names.append(f"{spec.name}={choice}")
                values.append(float(value == choice))
    return tuple(names), tuple(values)


def match_meaning(seats: int, deal_points: int) -> str:
    """What each float of the ``match`` field means (``seats`` floats a part where it says
    "for each relative seat")."""
    return (
        "the match's public state before this deal, all 0 for a deal played alone:"
        f" for each relative seat ({seats}) its total / target, or in a match of a fixed number"
        f" of deals / ({deal_points} x deals), clipped to 1; for each relative seat ({seats})"
        " its game points still to go / target (0 with a fixed number of deals); deals left,"
        " this one included, / deals (0 in a match to a target); deals played / (deals, or"
        f" {seats} x target in a match to a target), clipped to 1; the next deal's dealer,"
        " one-hot by relative seat (0 = me, 1 = next in turn order, ...); 1 if this deal is"
        " part of a match"
    )


def match_slot_names(seats: int) -> tuple[str, ...]:
    """A name for each float of the ``match`` field, in order (relative seats "me", "+1")."""
    who = ["me" if r == 0 else f"+{r}" for r in range(seats)]
    return (
        *(f"total {w}" for w in who),
        *(f"to_go {w}" for w in who),
        "deals_left",
        "played",
        *(f"next_dealer {w}" for w in who),
        "in_match",
    )


def make_layout(
    rules: Rules, options: Options, match: bool = False, deal_points: int | None = None
) -> Layout:
    """The layout of a variant with these rules and options; with ``match``, the match's
    public state after the options. ``deal_points``: the most game points one seat scores
    in a deal (None: the family's bound for the seats)."""
    n = rules.seats
    points = MAX_GAME_POINTS.get(n, 6) if deal_points is None else deal_points
    deck_size = rules.deck.bit_count()
    talon = deck_size - n * rules.hand_size
    usable = usable_ids_of(rules)
    has_turnup = rules.turnup_after_round is not None
    trump_call = bool(rules.trump_call)
    marriages = any(MARRY <= a < MARRY + 4 for a in usable)
    partner_call = trump_call and SOLO in usable
    max_tricks = deck_size // n
    option_names, option_values = option_encoding(options)
    who = "one-hot by relative seat (0 = me, 1 = next in turn order, ...)"
    specs: list[tuple[str, int, str]] = [
        ("seat", n, "my own seat number, absolute (one-hot)"),
        ("dealer", n, f"the dealer, {who}"),
        ("phase", len(PHASE_NAMES), "phase one-hot: " + ", ".join(PHASE_NAMES)),
        ("to_act", n, f"the seat to act, {who}; all 0 once the deal is over"),
        ("leader", n, f"the seat that leads the current trick, {who}"),
        ("hand", NUM_CARDS, "my cards, by card id (during a trump call only those dealt so far)"),
        (
            "trump",
            4 + trump_call,
            "trump suit one-hot C, D, H, S" + (", then 'not yet named'" if trump_call else ""),
        ),
        ("turnup", NUM_CARDS * has_turnup, "the face-up card under the talon, while it lies"),
        ("talon_size", (talon + 1) if talon else 0, f"cards in the talon, one-hot 0..{talon}"),
        ("closed_by", n * close_usable(rules), f"who closed the talon, {who}; all 0: open"),
        ("trick", n * NUM_CARDS, "the current trick: for each relative seat, the card it played"),
        (
            "tricks",
            n * (max_tricks + 1),
            f"tricks taken: for each relative seat, one-hot 0..{max_tricks}",
        ),
        (
            "card_points",
            n,
            f"card points won: for each relative seat, its points / {mask_points(rules.deck)}",
        ),
        ("marriages", 4 * n * marriages, "marriages declared: for each relative seat, C D H S"),
        (
            "known",
            n * NUM_CARDS,
            "cards every seat knows to be in a hand (marriage cards, the exchanged or drawn"
            " turn-up, a card shown for trump): for each relative seat, by card id",
        ),
        ("played", NUM_CARDS, "cards played so far (in tricks, complete or not), by card id"),
        ("declarer", n * trump_call, f"the declarer, {who}; all 0 before trump is named"),
        ("called_ace", 4 * partner_call, "the suit of the called ace (one-hot); all 0: none"),
        ("partner", n * partner_call, f"the caller's partner when I may know it, {who}"),
        ("solo", int(partner_call), "1 if the caller plays solo"),
        ("options", len(option_values), "the variant's options: " + ", ".join(option_names)),
        ("match", len(match_slot_names(n)) * match, match_meaning(n, points)),
    ]
    obs_fields: list[Field] = []
    offset = 0
    for name, size, meaning in specs:
        if size:
            obs_fields.append(Field(name, offset, size, meaning))
            offset += size
    bound = max_history(rules)
    slot = n + len(usable)
    history = Field(
        "history",
        offset,
        bound * slot,
        f"every public action in order, {bound} slots of {slot}: the relative seat one-hot"
        f" ({n}), then the action one-hot over the usable ids ({len(usable)}); unused slots 0",
    )
    return Layout(
        seats=n,
        talon=talon,
        max_tricks=max_tricks,
        deck_points=mask_points(rules.deck),
        max_history=bound,
        usable=usable,
        has_turnup=has_turnup,
        trump_call=trump_call,
        closing=close_usable(rules),
        marriages=marriages,
        partner_call=partner_call,
        option_values=option_values,
        option_names=option_names,
        obs_fields=tuple(obs_fields),
        info_fields=(*obs_fields, history),
        match=match,
        deal_points=points,
    )


def history_action_names(layout: Layout) -> list[str]:
    """The action of each position of a history slot's action one-hot."""
    return [ACTION_NAMES[a] for a in layout.usable]
