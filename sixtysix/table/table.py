"""One table of the server: its seats and its match, driven by the engine, with no network.

The table is a plain synchronous object: every request of a seat (join, act, leave, drop) is a
method that either refuses with a :class:`~sixtysix.table.wire.WireError` and changes nothing,
or changes the table and returns what each seat is to be told, as ``(seat, message)`` pairs
(:data:`Out`); the server delivers them to whoever holds each seat. Each person seat is told
only its own view (:func:`~sixtysix.table.wire.update`), the public actions, the results
(hands face up after the deal, as at a table) and public table facts.

Bots (``@NAME``) and external programs (``exec:``) take their turns through
:func:`sixtysix.core.match.take_turn`, so a fault forfeits the deal by the one rule of
:mod:`sixtysix.core.faults`; :meth:`Table.bot_turn` is what the server runs in a thread.

Rules the protocol leaves to the server, as this table applies them:

- A match starts when every person seat is taken; until then a leaving or long-dropped person
  only frees the seat.
- A person who leaves a running match (``leave``, a drop past the reconnect limit, or on a
  rated table the move timer) is told ``standings`` with the Portal's leaving score (rated
  tables; test tables score nothing). ``on_leave="end"`` then ends the match for everyone
  (``match_over`` with no winners, nobody else scored); ``"bot"`` seats ``@hard`` there and
  the match goes on.
- A finished rated match scores every person seat still at the table by ``match_score``;
  standings are kept per name, variant and opponents' level (the other seats' labels).
- A ``decide`` carries the milliseconds left on a rated table's move timer, 0 at a test table
  (no timer).
- A take-back (``undo``) is for a person alone with built-in bots at a test table: with another
  person seated, dealing the unseen cards afresh would change cards that person has seen.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sixtysix.bots.base import Bot
from sixtysix.bots.external import Deadlines, ExecBot
from sixtysix.bots.external import match_over as tell_match_over
from sixtysix.bots.seating import deal_notice
from sixtysix.core.cards import cards_of
from sixtysix.core.faults import FaultKind
from sixtysix.core.match import take_turn
from sixtysix.core.match_state import MatchFacts, MatchState
from sixtysix.core.records import Forfeit, RawRecord
from sixtysix.core.rng import Seed
from sixtysix.core.state import DealState
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.plugins.manager import Registry
from sixtysix.protocol import messages
from sixtysix.protocol.messages import IllegalAnswer, Message, ProtocolError
from sixtysix.protocol.referee import ExternalPlayer
from sixtysix.service.standings import leaving_score, match_score
from sixtysix.service.undo import last_action, take_back
from sixtysix.table import wire
from sixtysix.table.names import name_key
from sixtysix.table.saving import Result, Results
from sixtysix.table.seats import (
    Config,
    Out,
    SeatRefused,
    own_program,
    seat_bots,
    seat_kind,
    stand_in,
)
from sixtysix.table.wire import WireError

__all__ = ["Config", "Out", "Table"]


class Table(MatchFacts):
    """A table: seats, the match and what each seat is told."""

    def __init__(
        self,
        config: Config,
        registry: Registry,
        *,
        standings: Results | None = None,
        clock: Callable[[], float] = time.monotonic,
        reconnect_time: float = 180.0,
        deadlines: Deadlines | None = None,
        record: RawRecord | None = None,
        names: Sequence[str | None] | None = None,
        left: Sequence[bool] | None = None,
        forfeits: dict[int, int] | None = None,
        finished_wall: float | None = None,
    ) -> None:
        """``forfeits``: an old table file's map of deal index to the seat whose fault ended
        it, read for such files alone (a deal's forfeit is kept in its record)."""
        if not config.created_at:
            config.created_at = datetime.now(UTC).isoformat(timespec="seconds")
        self.config = config
        self.registry = registry
        self.variant: Variant = registry.variant(config.variant).configure(overrides=config.options)
        n = self.variant.seats
        if len(config.seats) != n:
            raise WireError(
                "garbage", f"{self.variant.name} has {n} seats, not {len(config.seats)}"
            )
        self.standings = standings
        self.clock = clock
        self.reconnect_time = reconnect_time
        self.seed = Seed(config.seed)
        try:
            self.bots: list[Bot | None] = seat_bots(
                config, registry, self.seed, self.variant, deadlines
            )
        except SeatRefused as exc:
            raise WireError("garbage", str(exc)) from None
        self.kinds = [seat_kind(s, b) for s, b in zip(config.seats, self.bots, strict=True)]
        self.names: list[str | None] = list(names) if names is not None else [None] * n
        #: Each seat's name as names compare (:func:`name_key`), kept beside ``names``: the
        #: server asks every table at each join whether a name sits there.
        self.name_keys = [None if name is None else name_key(name) for name in self.names]
        self.left: list[bool] = list(left) if left is not None else [False] * n
        self.connected = [False] * n
        #: The match: its deals, record, totals, dealer and winners.
        self.match = MatchState(self.variant, self.seed)
        self.finished = False
        self.move_deadline: float | None = None
        #: The seats whose people have read the last deal's end (a restored table: all).
        self.ready: set[int] = set(range(n))
        self.drops: dict[int, float] = {}
        self.finished_at: float | None = None
        #: When the match ended, as wall-clock seconds (kept in the file: a restarted server
        #: still lists a table finished within the hour).
        self.finished_wall: float | None = finished_wall
        #: How many times the table's file has been written (the newest write wins).
        self.version = 0
        #: Take-backs per deal (each draws the fresh cards from a branch of its own).
        self.undos: dict[int, int] = {}
        #: The external programs started for this table's ``exec:`` seats.
        self.programs: list[ExternalPlayer] = []
        for seat, gone in enumerate(self.left):
            if gone and self.kinds[seat] == "human":
                self._stand_in(seat)
        if record is not None:
            self.match = self._restored(record, forfeits or {})

    # ------------------------------------------------------------------ facts

    @property
    def id(self) -> str:
        return self.config.id

    @property
    def n(self) -> int:
        return self.variant.seats

    @property
    def winners(self) -> list[int]:
        return self.match.winners

    @property
    def state(self) -> DealState | None:
        """The deal being played (None before the first, and once the match has ended)."""
        return None if self.finished else self.match.deal

    @property
    def _last_state(self) -> DealState | None:
        """The deal a finished table shows: the one the match ended in."""
        return self.match.deal if self.match.deal is not None else self.match.last

    @property
    def started(self) -> bool:
        return bool(self.record.deals)

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        return "running" if self.started else "open"

    def humans(self) -> list[int]:
        """The person seats (a leaver's too: it is still told what happens)."""
        return [s for s in range(self.n) if self.kinds[s] == "human"]

    def free_seats(self) -> list[int]:
        return [s for s in self.humans() if self.names[s] is None and not self.left[s]]

    def players(self) -> list[str]:
        """Per seat: the person's name (``""`` while free), the seat spec otherwise."""
        return [
            (self.names[s] or "") if self.kinds[s] == "human" else self.config.seats[s]
            for s in range(self.n)
        ]

    def level(self, seat: int) -> str:
        """The opponents' level of ``seat``: the other seats' labels."""
        return ",".join(self.config.seats[s] for s in range(self.n) if s != seat)

    def summary(self) -> Message:
        """The table as ``tables`` lists it (public facts only)."""
        return {
            "table": self.id,
            "variant": self.variant.name,
            "options": self.variant.options.diff(),
            "rated": self.config.rated,
            "move_time": self.config.move_time,
            "status": self.status,
            "free": self.free_seats() if not self.finished else [],
            "seats": [
                {
                    "kind": self.kinds[s],
                    "label": self.config.seats[s],
                    "name": self.names[s],
                    "connected": self.connected[s] if self.kinds[s] == "human" else True,
                }
                for s in range(self.n)
            ],
            "deal": len(self.record.deals),
            "totals": list(self.totals),
        }

    def file_data(self) -> dict[str, Any]:
        """The table file's contents (``sixtysix-table-file/1``)."""
        c = self.config
        return {
            "format": "sixtysix-table-file/1",
            "table": {
                "id": c.id,
                "variant": c.variant,
                "options": c.options,
                "seats": list(c.seats),
                "rated": c.rated,
                "move_time": c.move_time,
                "on_leave": c.on_leave,
                "names": list(self.names),
                "left": list(self.left),
                "created_at": c.created_at,
                "finished": self.finished,
                "finished_at": self.finished_wall,
                "programs": dict(c.programs),
                "operator": c.operator,
            },
            "record": self.record.as_json(),
        }

    # ------------------------------------------------------------------ seats

    def find(self, name: str) -> int | None:
        """The seat ``name`` holds at this table (names are case-insensitive)."""
        key = name_key(name)
        return self.name_keys.index(key) if key in self.name_keys else None

    def join(self, name: str, seat: int | None = None) -> tuple[int, bool]:
        """Seat ``name`` (the given seat or the first free one) or find its seat again:
        ``(seat, reconnected)``. Refused: ``table_full``."""
        held = self.find(name)
        if held is not None:
            if self.left[held]:
                raise WireError("table_full", f"{name} has left this table")
            return held, True
        if self.finished:
            raise WireError("table_full", "this match is over")
        free = self.free_seats()
        if seat is None:
            if not free:
                raise WireError("table_full", "every seat at this table is taken")
            seat = free[0]
        elif seat not in free:
            raise WireError("table_full", f"seat {seat} is not a free person seat")
        self.names[seat] = name
        self.name_keys[seat] = name_key(name)
        return seat, False

    def connect(self, seat: int) -> Out:
        """The person of ``seat`` is connected (a join or a reconnection)."""
        self.connected[seat] = True
        self.drops.pop(seat, None)
        out = self._seats()
        if not self.started and not self.free_seats() and not self.finished:
            out += self.start_if_ready()
        elif not self.started:  # the joiner hears it with its screen (:meth:`screen`)
            waiting = wire.waiting(self.free_seats())
            out += [(s, message) for s, message in self._to_humans(waiting) if s != seat]
        return out

    def disconnect(self, seat: int) -> Out:
        """The connection of ``seat`` dropped: the seat is kept for the reconnect limit."""
        if not self.connected[seat]:
            return []
        self.connected[seat] = False
        if not self.finished and not self.left[seat]:
            self.drops[seat] = self.clock() + self.reconnect_time
        return self._seats()

    def screen(self, seat: int) -> list[Message]:
        """Everything ``seat`` needs to draw its whole screen: match, deal, update, decide."""
        out: list[Message] = [messages.match_message(self.variant, seat)]
        state = self.state
        if state is None and self.record.deals:
            state = self._last_state
        if state is None:
            if not self.finished:
                out.append(wire.waiting(self.free_seats()))
            return out
        out.append(messages.deal_message(len(self.record.deals), state.dealer))
        out.append(wire.update(state.view(seat)))
        if self.finished:
            out.append(messages.match_over_message(self.totals, self.winners))
        elif not state.is_over and state.to_act == seat and not self.left[seat]:
            out.append(messages.decide_message(state.view(seat), self._deadline_ms()))
            if self.move_deadline is not None:
                out.append(wire.timer(seat, max(0, round(self.move_deadline - self.clock()))))
        return out

    def leave(self, seat: int, reason: str) -> Out:
        """The person of ``seat`` leaves (``quit``, ``disconnected`` or ``timeout``)."""
        if self.kinds[seat] != "human" or self.left[seat] or self.finished:
            return []
        self.drops.pop(seat, None)
        if not self.started:  # the seat is free again; the leaver is told it has left
            told = [(seat, wire.left(seat, reason, None))] if reason == "quit" else []
            self.names[seat] = self.name_keys[seat] = None
            self.connected[seat] = False
            return told + self._seats() + self._to_humans(wire.waiting(self.free_seats()))
        self.left[seat] = True
        score = leaving_score(self.totals, self.completed, seat) if self.config.rated else None
        if self.config.rated:
            self._record(seat, "left", score)
        out = self._to_humans(wire.left(seat, reason, score))
        out.append((seat, wire.standings(self.names[seat] or "", score)))
        out += self._seats()
        if self.config.on_leave == "end":
            out += self._end([])
        else:
            self._stand_in(seat)
            if self.state is not None and self.state.to_act == seat:
                self.move_deadline = None
        return out

    def _stand_in(self, seat: int) -> None:
        self.bots[seat] = stand_in(self.registry, self.seed, seat, self.n)

    def chat(self, seat: int, text: str = "", phrase: str = "") -> Out:
        """What the person of ``seat`` says (a checked text, or a quick phrase's id), for every
        person seat; bots and programs are told nothing. Chat changes nothing of the table: it
        is no part of the record nor of the table's file."""
        return self._to_humans(wire.chat(seat, self.names[seat] or "", text=text, phrase=phrase))

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> float | None:
        """When :meth:`expire` has something to do next (clock time), if ever."""
        times = list(self.drops.values())
        if self.move_deadline is not None:
            times.append(self.move_deadline)
        return min(times) if times else None

    def expire(self) -> Out:
        """Seats past the reconnect limit or the move timer have left the table."""
        now = self.clock()
        out: Out = []
        for seat, at in sorted(self.drops.items()):
            if at <= now and not self.finished:
                out += self.leave(seat, "disconnected")
        state = self.state
        if (
            self.move_deadline is not None
            and self.move_deadline <= now
            and state is not None
            and not self.finished
        ):
            self.move_deadline = None
            out += self.leave(state.to_act, "timeout")
        return out

    # ------------------------------------------------------------------ play

    def to_act(self) -> int | None:
        """The seat to act now (None before the start, between matches, after the end)."""
        state = self.state
        if self.finished or state is None or state.is_over:
            return None
        return state.to_act

    def bot_to_act(self) -> bool:
        seat = self.to_act()
        return seat is not None and self.bots[seat] is not None

    def act(self, seat: int, text: str) -> Out:
        """A person's action; refused (``not_started``, ``not_your_turn``, ``illegal``) with
        nothing changed."""
        state = self.state
        if self.finished or state is None:
            raise WireError("not_started", "no deal is running at this table")
        if self.left[seat] or state.to_act != seat or self.bots[seat] is not None:
            raise WireError("not_your_turn", f"seat {state.to_act} is to act, not seat {seat}")
        legal = state.legal_actions()
        try:
            action = messages.check_action({"type": "action", "action": text}, legal)
        except (IllegalAnswer, ProtocolError) as exc:
            raise WireError("illegal", str(exc)) from None
        state.apply_legal(action)
        return self._after(seat, action)

    def bot_turn(self) -> Out:
        """The turn of the bot to act, thought and applied in one call (for a caller that
        owns the table alone; the server splits it: :meth:`bot_question`, :meth:`bot_answer`)."""
        question = self.bot_question()
        if question is None:
            return []
        return self.bot_answer(question, question.think()) or []

    def bot_question(self) -> BotQuestion | None:
        """What the bot to act is asked: its seat, the bot and its view. Thinking on it
        (:meth:`BotQuestion.think`, in any thread) touches nothing of the table, so the table
        can be saved or stopped while a bot thinks."""
        state = self.state
        seat = self.to_act()
        if state is None or seat is None:
            return None
        bot = self.bots[seat]
        if bot is None:
            return None
        return BotQuestion(self, state, seat, bot, state.view(seat))

    def bot_answer(self, question: BotQuestion, answer: Answer) -> Out | None:
        """Apply a bot's answer to the question it was asked (a fault forfeits the deal);
        None when the table moved on meanwhile (the answer is for a position gone)."""
        state = self.state
        if state is not question.state or self.to_act() != question.seat:
            return None
        if len(state.history) != question.steps:
            return None
        action, fault = take_turn(state, question.seat, lambda _view: answer())
        if fault is not None:
            self.match.note_forfeit(fault.seat, fault.kind)
        return self._after(question.seat, action)

    def close_programs(self) -> None:
        """Close this table's external programs (blocking: run it in a thread)."""
        for player in self.programs:
            player.close()

    def undo_open(self, seat: int) -> bool:
        """Whether ``seat`` may take moves back here: a person alone at a test table with the
        server's own bots (no other person, no program has seen a move)."""
        return (
            not self.config.rated
            and self.humans() == [seat]
            and not any(isinstance(b, ExecBot) for b in self.bots)
        )

    def sheet(self) -> list[tuple[int, int, str, tuple[int, ...]]]:
        """The match's finished deals: number, dealer, reason, game points (public facts)."""
        return [
            (number, deal.setup.dealer, str(outcome.reason), tuple(outcome.game_points))
            for number, (deal, outcome) in enumerate(
                zip(self.record.deals, self.match.outcomes, strict=False), 1
            )
        ]

    def undo(self, seat: int) -> Out:
        """Take back ``seat``'s last action of the deal (and the bots' replies) on a deal whose
        unseen cards are dealt afresh (:func:`sixtysix.service.undo.take_back`), as ``play``
        does; refused (``no_undo``) at rated tables and where another person or a program
        sits: a fresh deal would change what they have seen."""
        if self.config.rated:
            raise WireError("no_undo", wire.NO_UNDO_RATED)
        if not self.undo_open(seat):
            raise WireError("no_undo", wire.NO_UNDO_SHARED)
        state = self.state
        if self.finished or state is None:
            raise WireError("not_started", "no deal is running at this table")
        if last_action(state, seat) is None:
            raise WireError("no_undo", wire.NO_UNDO_NOTHING)
        number = len(self.record.deals) - 1
        count = self.undos.get(number, 0)
        stream = self.seed.child(("undo", number, count)).stream(("take-back",))
        fresh: DealState | None = take_back(state, seat, stream)
        if fresh is None:
            raise WireError("no_undo", wire.NO_UNDO_UNSEEN)
        self.undos[number] = count + 1
        self.match.retake(fresh)
        view = fresh.view(seat)
        return [(seat, wire.update(view)), *self._ask({seat: view})]

    # ------------------------------------------------------------------ the match

    def start_if_ready(self) -> Out:
        """Deal the first deal once every person seat is taken (at once with none)."""
        if self.started or self.finished or self.free_seats():
            return []
        return self._deal()

    def _deal(self) -> Out:
        number = self.match.dealt
        state = self.match.next_deal()
        # After a deal's end each person reads it first (``ready``); the first deal has none.
        self.ready = set(range(self.variant.seats)) if number == 0 else set()
        out: Out = []
        views = {s: state.view(s) for s in self.humans()}
        for s, view in views.items():
            if number == 0:
                out.append((s, messages.match_message(self.variant, s)))
            out.append((s, messages.deal_message(number + 1, state.dealer)))
            out.append((s, wire.update(view)))
        return out + self._ask(views)

    def _after(self, seat: int, action: int) -> Out:
        """Tell everyone what happened, then end the deal or ask the next seat."""
        state = self.state
        assert state is not None
        self.move_deadline = None
        out: Out = []
        views = {s: state.view(s) for s in self.humans()}
        for s, view in views.items():
            if action >= 0:
                out.append((s, messages.event_message(seat, action)))
            out.append((s, wire.update(view)))
        if not state.is_over:
            return out + self._ask(views)
        return out + self._deal_over()

    def _deal_over(self) -> Out:
        state = self.state
        assert state is not None and state.outcome is not None
        notice = deal_notice(self.bots)
        if notice is not None:
            notice(state)
        number = self.match.dealt
        result = messages.result_message(number, state.outcome, [_cards(h) for h in state.hands])
        out = self._to_humans(result)
        self.match.settle()
        winners = self.match.winners
        if winners:
            for s in self.humans():
                if self.config.rated and not self.left[s] and self.names[s]:
                    self._record(s, "finished", match_score(self.totals, s))
            return out + self._end(winners)
        return out + self._deal()

    def _end(self, winners: list[int]) -> Out:
        self.finished = True
        self.finished_at = self.clock()
        if self.finished_wall is None:
            self.finished_wall = time.time()
        self.move_deadline = None
        self.drops.clear()
        tell_match_over(self.bots, self.totals, winners)
        return self._to_humans(messages.match_over_message(self.totals, winners))

    def _ask(self, views: dict[int, View] | None = None) -> Out:
        """Ask the person to act (its timer started on a rated table); ``views``: the seats'
        views already built for this state."""
        state = self.state
        assert state is not None
        seat = state.to_act
        if self.bots[seat] is not None or self.left[seat]:
            return []
        timed = self.config.rated and self.config.move_time is not None
        window = 0 if seat in self.ready else wire.END_OF_DEAL_WINDOW
        if timed:
            assert self.config.move_time is not None
            self.move_deadline = self.clock() + self.config.move_time + window
        view = views[seat] if views and seat in views else state.view(seat)
        out: Out = [(seat, messages.decide_message(view, self._deadline_ms()))]
        if timed:
            assert self.config.move_time is not None
            out += self._to_humans(wire.timer(seat, self.config.move_time + window))
        return out

    def mark_ready(self, seat: int) -> Out:
        """The person of ``seat`` has read the deal's end: if it is to move and was given the
        end-of-deal window, its move time runs from now (the window and the move's time at the
        most, as without ``ready``)."""
        if seat in self.ready:
            return []
        self.ready.add(seat)
        state, move_time = self.state, self.config.move_time
        if (
            self.config.rated
            and move_time is not None
            and self.move_deadline is not None
            and state is not None
            and not state.is_over
            and state.to_act == seat
        ):
            self.move_deadline = self.clock() + move_time
            return self._to_humans(wire.timer(seat, move_time))
        return []

    def _deadline_ms(self) -> int:
        if self.move_deadline is None:
            return 0
        return max(0, round((self.move_deadline - self.clock()) * 1000))

    def _record(self, seat: int, ending: str, score: int | None) -> None:
        if self.standings is None:
            return
        self.standings.add(
            Result(
                name=self.names[seat] or "",
                variant=self.variant.name,
                level=self.level(seat),
                seats=self.n,
                seat=seat,
                ending=ending,
                score=score,
                deals=self.completed,
                totals=list(self.totals),
            )
        )

    def _seats(self) -> Out:
        connected = [self.connected[s] or self.kinds[s] != "human" for s in range(self.n)]
        return self._to_humans(wire.seats(self.players(), connected, self.left))

    def _to_humans(self, message: Message) -> Out:
        return [(s, message) for s in self.humans()]

    # ------------------------------------------------------------------ restart

    def _restored(self, raw: RawRecord, old_forfeits: dict[int, int]) -> MatchState:
        """The match of the table's record, every action checked as it is played again
        (:meth:`MatchState.restore`). ``old_forfeits`` is the map an old table file kept beside
        its record; it said no kind of fault, so such a forfeit is recorded as ``crash`` (the
        kind of any other failure)."""
        for i, seat in old_forfeits.items():
            if 0 <= i < len(raw.deals) and raw.deals[i].forfeit is None:
                raw.deals[i].forfeit = Forfeit(seat, FaultKind.CRASH)
        return MatchState.restore(self.variant, raw, self.seed)

    def finish_restored(self) -> None:
        """A finished match's file, read back so that the listing still shows it; nobody
        plays at it again."""
        self.finished = True
        wall = self.finished_wall if self.finished_wall is not None else time.time()
        self.finished_wall = wall
        self.finished_at = self.clock() - max(0.0, time.time() - wall)

    def resume(self) -> Out:
        """After a restart: a finished last deal is followed by the next one (or the end);
        every person seat starts its reconnect limit from now."""
        now = self.clock()
        for s in self.humans():
            if self.names[s] is not None and not self.left[s]:
                self.drops[s] = now + self.reconnect_time
        if self.finished or not self.started:
            return []
        if self.winners:
            return self._end(self.winners)
        if self.state is None:
            return self._deal()
        return self._ask() if not self.bot_to_act() else []


#: A bot's answer, to be given where the table is changed: the action, or the fault raised.
Answer = Callable[[], int]


class BotQuestion:
    """One bot's turn, asked: thinking reads only the view (and talks to the seat's program)."""

    __slots__ = ("bot", "seat", "state", "steps", "table", "view")

    def __init__(self, table: Table, state: DealState, seat: int, bot: Bot, view: View) -> None:
        self.table = table
        self.state = state
        self.seat = seat
        self.bot = bot
        self.view = view
        #: The deal's actions when the bot was asked: an answer is for that position only.
        self.steps = len(state.history)

    def think(self) -> Answer:
        """The bot's answer as a thunk that returns the action or raises what choosing
        raised (so the fault is judged by the one fault rule where the answer is applied)."""
        bot = self.bot
        try:
            if isinstance(bot, ExecBot):
                own_program(bot, self.table.variant, self.table.programs)
            action = bot.choose(self.view)
        except Exception as exc:  # judged by take_turn when the answer is applied
            error = exc

            def fail() -> int:
                raise error

            return fail
        return lambda: action


def _cards(hand: int) -> list[int]:
    return list(cards_of(hand))
