"""A browser's seat: the ``board`` message the page draws, built from what the seat is sent.

A page that joins with ``"screen": true`` gets, after the protocol's own messages of each
change, one ``board``: the whole table worded in the person's language by the table service
(:mod:`sixtysix.service.board`). :class:`BrowserSeat` reads only the messages this seat is
sent (as a terminal's remote seat does, and the same views rebuilt through the variant's own
rules), so a board holds nothing the seat's own messages do not; the match's totals and
sheet at a (re)join are the table's public facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sixtysix.core.actions import parse_action
from sixtysix.core.cards import parse_card
from sixtysix.core.outcome import Outcome, Reason
from sixtysix.core.variant import Variant
from sixtysix.core.view import View
from sixtysix.i18n import Translator
from sixtysix.plugins.manager import Registry, variant_from
from sixtysix.protocol.messages import Message, decode_view
from sixtysix.service.board import (
    Board,
    action,
    news_board,
    result_board,
    sheet_board,
    table_board,
)
from sixtysix.service.confirm import concede_question, leave_question, leaving_warning
from sixtysix.service.facts import TableInfo, points_shown
from sixtysix.service.narration import announcement, deal_heading, hint_rows, news
from sixtysix.service.terms import bot_label, seat_name

#: How many of the deal's news a board carries (the page's log of the deal).
LOG = 60

#: One finished deal of the match sheet: number, dealer, reason, game points.
SheetRow = tuple[int, int, str, tuple[int, ...]]


class BrowserSeat:
    """The page's side of one seat, kept by the server for that connection."""

    def __init__(
        self,
        tr: Translator,
        registry: Registry,
        *,
        totals: Sequence[int] = (),
        sheet: Sequence[SheetRow] = (),
        undo: bool = False,
    ) -> None:
        self.tr = tr
        self.registry = registry
        #: The server takes ``undo`` from this seat (a person alone with its bots).
        self.undo = undo
        self.welcome: Message = {}
        self.variant: Variant | None = None
        self.me = 0
        self.target = 0
        self.deals: int | None = None
        self.deal_number = 0
        self.dealer = 0
        self.totals = list(totals)
        self.sheet: list[SheetRow] = list(sheet)
        self.players: list[str] = []
        self.connected: list[bool] = []
        self.left: list[bool] = []
        self.view: View | None = None
        self.my_turn = False
        self.event: tuple[int, int] | None = None
        self.log: list[Board] = []
        self.result: Board | None = None
        self.over: Message | None = None
        self.waiting: list[int] = []
        self.timer: Message | None = None
        #: Timers started so far: a page restarts its countdown when the id changes.
        self.timers = 0
        self.paused = False
        self.has_left = False

    # ------------------------------------------------------------------ messages

    def take(self, message: Message) -> None:
        """Follow one message sent to this seat."""
        handler = getattr(self, "_on_" + str(message.get("type")), None)
        if handler is not None:
            handler(message)

    def _on_welcome(self, m: Message) -> None:
        self.welcome = m
        self.me = m["seat"]
        self.players = list(m["players"])

    def _on_match(self, m: Message) -> None:
        self.variant = variant_from(self.registry, m["variant"], m["options"])
        self.me, self.target, self.deals = m["seat"], m["target"], m["deals"]
        if len(self.totals) != m["seats"]:
            self.totals = [0] * m["seats"]

    def _on_waiting(self, m: Message) -> None:
        self.waiting = list(m["for"])

    def _on_deal(self, m: Message) -> None:
        self.waiting = []
        self.deal_number, self.dealer = m["number"], m["dealer"]
        self.view, self.event, self.my_turn, self.timer = None, None, False, None
        heading = deal_heading(m["number"], self.deals, self._who(m["dealer"]))
        self.log = [{"kind": "deal", "text": heading.text(self.tr, self.me), "cards": []}]

    def _on_event(self, m: Message) -> None:
        seat, action = m["seat"], int(parse_action(m["action"]))
        if self.view is None:
            said = announcement(seat, self.me, action, None).text(self.tr, self.me)
            self._tell([{"kind": "action", "text": said, "cards": []}])
            return
        self.event = (seat, action)

    def _on_update(self, m: Message) -> None:
        view = self._decode(m["view"], [])
        before, self.view = self.view, view
        event, self.event = self.event, None
        if view.to_act != self.me or view.is_over:
            self.my_turn, self.timer = False, None
        if before is None or event is None or len(view.history) < len(before.history):
            return
        self._tell(news_board(self.tr, self.me, news(self.me, *event, before, view)))

    def _on_decide(self, m: Message) -> None:
        self.view = self._decode(m["view"], m["legal"])
        self.my_turn = True

    def _on_timer(self, m: Message) -> None:
        self.timers += 1
        self.timer = {"seat": m["seat"], "seconds": m["seconds"], "id": self.timers}

    def _on_result(self, m: Message) -> None:
        res = m["result"]
        outcome = Outcome(
            Reason(res["reason"]),
            tuple(res["game_points"]),
            tuple(res["points"]),
            tuple(res["tricks"]),
        )
        for s, points in enumerate(outcome.game_points):
            self.totals[s] += points
        self.sheet.append((m["number"], self.dealer, str(outcome.reason), outcome.game_points))
        self.my_turn, self.timer = False, None
        assert self.view is not None and self.variant is not None
        hands = [[int(parse_card(c)) for c in cards] for cards in m["hands"]]
        board = result_board(outcome, self.view, self.totals, hands, self.variant, self.tr)
        board["deal"] = m["number"]
        self.result = board

    def _on_match_over(self, m: Message) -> None:
        self.totals = list(m["totals"])
        self.my_turn, self.timer = False, None
        tr = self.tr
        if m["winners"]:
            names = ", ".join(self._who(s) for s in m["winners"])
            text = tr._("Match over. Winner: {names}.").format(names=names)
        else:
            text = tr._("The match is over: a person left the table.")
        self.over = {"winners": list(m["winners"]), "text": text}

    def _on_seats(self, m: Message) -> None:
        self.players = list(m["players"])
        self.connected = list(m["connected"])
        self.left = list(m["left"])

    def _on_left(self, m: Message) -> None:
        if m["seat"] == self.me:
            self.has_left = True
            self.my_turn, self.timer = False, None

    def _on_paused(self, m: Message) -> None:
        self.paused, self.timer = True, None

    def _on_resumed(self, m: Message) -> None:
        self.paused = False

    # ------------------------------------------------------------------ the board

    def board(self) -> Message:
        """The ``board`` message: everything the page draws now."""
        tr, me = self.tr, self.me
        n = len(self.totals) or len(self.players)
        seats = [
            {
                "seat": s,
                "who": seat_name(tr, s, me),
                "name": self._label(s),
                "me": s == me,
                "free": s < len(self.players) and not self.players[s],
                "connected": self.connected[s] if s < len(self.connected) else None,
                "left": self.left[s] if s < len(self.left) else False,
                "dealer": self.view is not None and s == self.dealer,
                "to_act": self.view is not None and not self.view.is_over and self.view.to_act == s,
            }
            for s in range(n)
        ]
        rated = bool(self.welcome.get("rated"))
        out: Message = {
            "type": "board",
            "lang": tr.lang,
            "table": self.welcome.get("table"),
            "seat": me,
            "rated": rated,
            "move_time": self.welcome.get("move_time"),
            "variant": None if self.variant is None else self.variant.name,
            "deal": self.deal_number,
            "totals": list(self.totals),
            "players": seats,
            "waiting": self._waiting_text(),
            "status": self._status(),
            "board": None,
            "log": self.log[-LOG:],
            "result": self.result,
            "over": self.over,
            "sheet": sheet_board(self.sheet, n, me, tr) if self.sheet else None,
            "timer": self.timer,
            "paused": self.paused,
            "left": self.has_left,
            "can": {
                "hint": not rated and self.my_turn,
                "undo": not rated and self.undo,
                "leave": not self.has_left and self.over is None,
                "chat": bool(self.welcome.get("chat", True)),
            },
            "leave": self._leave_question(),
            "concede": None,
        }
        if self.view is not None and self.variant is not None:
            out["board"] = table_board(self.view, self._info(), tr)
            if self.has_left or self.over is not None:  # nothing is played any more
                out["board"]["my_turn"] = False
                out["board"]["actions"] = []
                for card in out["board"]["hand"]:
                    card["legal"] = False
            elif self.my_turn and "concede" in {a["action"] for a in out["board"]["actions"]}:
                points = self.variant.conceded_points(self.view)
                out["concede"] = concede_question(tr, points, me)
        return out

    def _leave_question(self) -> str:
        tr = self.tr
        text = leave_question(tr)
        if self.welcome.get("rated") and self.over is None:
            completed = len(self.sheet)
            text = leaving_warning(tr, self._completed_totals(), completed, self.me) + " " + text
        return text

    def _completed_totals(self) -> list[int]:
        totals = [0] * len(self.totals)
        for _, _, _, points in self.sheet:
            for s, p in enumerate(points):
                totals[s] += p
        return totals if self.sheet else list(self.totals)

    def _status(self) -> str:
        """One line on whose move it is."""
        tr = self.tr
        if self.over is not None:
            return str(self.over["text"])
        if self.has_left:
            return tr._("You have left the table.")
        if self.paused:
            return tr._("The server cannot save the table now: it waits, then goes on.")
        view = self.view
        if view is None or view.is_over:
            return ""
        if self.my_turn:
            return tr._("Your move.")
        return tr._("Waiting for {who}...").format(who=self._who(view.to_act))

    def _waiting_text(self) -> str | None:
        if not self.waiting:
            return None
        who = ", ".join(self._who(s) for s in self.waiting)
        return self.tr._("Waiting for players: {who}.").format(who=who)

    def _label(self, seat: int) -> str:
        label = self.players[seat] if seat < len(self.players) else ""
        return bot_label(self.tr, label) if label.startswith("@") else label

    def _who(self, seat: int) -> str:
        name = seat_name(self.tr, seat, self.me)
        label = self._label(seat)
        return name if seat == self.me or not label else f"{name} ({label})"

    def _info(self) -> TableInfo:
        assert self.variant is not None
        players = tuple("" if s == self.me else self._label(s) for s in range(len(self.totals)))
        return TableInfo(
            variant=self.variant.name,
            deal_number=self.deal_number,
            totals=tuple(self.totals),
            target=self.target,
            deals=self.deals,
            players=players,
            show_points=points_shown(self.variant),
            rated=bool(self.welcome.get("rated")),
        )

    def _decode(self, raw: dict[str, Any], legal: Sequence[str]) -> View:
        return decode_view(raw, legal, self.registry)

    def _tell(self, items: list[Board]) -> None:
        self.log.extend(items)
        del self.log[: max(0, len(self.log) - LOG)]


def hint_board(tr: Translator, values: Sequence[tuple[int, float]]) -> Message:
    """The ``hints`` message: the expert's value of each move, best first, worded."""
    rows = [dict(action(tr, a), value=round(v, 2)) for a, v in hint_rows(values)]
    return {"type": "hints", "title": tr._("Expected game points of each move"), "rows": rows}
