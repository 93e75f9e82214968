// The table: drawn only from the server's board messages (no game rule lives here).

import { h, fill, grid, $ } from "./dom.js";
import { t } from "./i18n.js";
import { cardView, cardButton, cardInline } from "./cards.js";
import { open, closer, confirm, info } from "./dialogs.js";
import { Chat } from "./chat.js";
import { Countdown } from "./timer.js";

const SOFT = new Set(["not_your_turn", "illegal", "no_undo", "no_hint", "not_started", "paused", "chat_off", "chat_rate", "chat_phrases", "bad_chat"]);

export class TableView {
  constructor(main, tableId, seat) {
    this.id = tableId;
    this.seat = seat; // the net.Seat: send(), leave()
    this.board = null;
    this.logKeys = [];
    this.overShown = false;
    this.build(main);
    document.addEventListener("keydown", (e) => this.key(e));
  }

  // ------------------------------------------------------------ skeleton

  build(main) {
    const s = (id, title, ...rest) => h("section", { id: `${id}-box`, className: `box ${id}`, "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h` }, title), ...rest);
    this.el = {
      title: h("h1", { id: "table-title" }, t("table_title", { table: this.id })),
      timer: h("p", { id: "timer", hidden: true }),
      timerAlert: h("p", { id: "timer-alert", className: "sr", "aria-live": "assertive" }),
      status: h("p", { id: "status", role: "status" }),
      notice: h("p", { id: "notice", "aria-live": "polite" }),
      tools: h("div", { id: "tools", className: "tools" }),
      players: h("ul", { id: "players", "aria-label": t("seats_label") }),
      invite: h("details", { id: "invite" }),
      infoBox: h("div", { id: "info" }),
      trick: h("div", { id: "trick", className: "trick" }),
      lastTrick: h("div", { id: "last-trick" }),
      hand: h("div", { id: "hand", role: "group", tabindex: "-1", "aria-labelledby": "hand-h" }),
      actions: h("div", { id: "actions", role: "group", "aria-label": t("actions") }),
      barred: h("p", { id: "barred-note", className: "note" }),
      scores: h("div", { id: "scores", className: "scroll" }),
      announcements: h("ul", { id: "announcements" }),
      known: h("ul", { id: "known" }),
      log: h("ol", { id: "log" }),
      chat: h("section", { id: "chat", className: "box chat", "aria-labelledby": "chat-h" }),
    };
    const e = this.el;
    this.side = h("div", { className: "col-side" },
      s("scores", t("scores_h"), e.scores),
      s("announce", t("announcements"), e.announcements),
      s("known", t("known"), e.known),
      s("log", t("news"), h("div", { role: "log", "aria-live": "polite", "aria-labelledby": "log-h" }, e.log)),
      e.chat,
    );
    this.root = h(
      "div",
      { id: "table-root", dataset: { deal: "0", myTurn: "false", table: this.id } },
      h("div", { id: "topbar", className: "topbar" }, e.title, e.timer, e.status, e.notice, e.timerAlert, e.tools),
      h("div", { className: "col-main" },
        e.players,
        e.invite,
        h("section", { id: "middle", className: "box middle", "aria-labelledby": "table-h" }, h("h2", { id: "table-h", className: "sr" }, t("on_table")), e.infoBox, h("div", { className: "tricks" }, e.trick, e.lastTrick)),
        h("section", { id: "hand-area", className: "hand-area", "aria-labelledby": "hand-h" }, h("h2", { id: "hand-h", className: "sr" }, t("your_hand")), e.hand, e.barred, e.actions),
      ),
      this.side,
    );
    fill(main, this.root);
    this.countdown = new Countdown(e.timer, e.timerAlert);
    this.chat = new Chat(e.chat, (m) => this.seat.send(m));
    this.drawInvite();
  }

  drawInvite() {
    const url = `${location.origin}/t/${encodeURIComponent(this.id)}`;
    const input = h("input", { id: "invite-url", type: "text", readonly: true, value: url });
    const said = h("span", { role: "status" });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(url);
        said.textContent = t("copied");
      } catch {
        input.focus();
        input.select();
      }
    };
    fill(this.el.invite, h("summary", {}, t("invite")), h("label", { for: "invite-url", className: "sr" }, t("invite")), input, h("button", { type: "button", onclick: copy }, t("copy")), said);
  }

  // ------------------------------------------------------------ messages

  message(m) {
    if (m.type === "board") this.draw(m);
    else if (m.type === "chat") this.chat.add(m);
    else if (m.type === "hints") this.showHints(m);
    else if (m.type === "error" && SOFT.has(m.code)) {
      this.busy = false; // the move was refused: the person may choose again
      this.notice(t(m.code) !== m.code ? t(m.code) : t("error", { message: m.message }));
    }
  }

  notice(text) {
    this.el.notice.textContent = text;
  }

  act(action) {
    if (this.busy) return; // one move per board: a second click would be refused anyway
    if (action === "concede" && this.board.concede) {
      confirm(this.board.concede, t("concede_yes")).then((yes) => yes && this.send({ type: "action", action }));
      return;
    }
    this.send({ type: "action", action });
  }

  send(m) {
    this.notice("");
    if (m.type === "action") this.busy = true;
    this.seat.send(m);
  }

  key(e) {
    if (!this.board?.board?.my_turn || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest("input, select, textarea, dialog")) return;
    const n = Number(e.key);
    const btn = n >= 1 && n <= 9 ? this.el.hand.querySelector(`button[data-index="${n}"]`) : null;
    if (btn && !btn.disabled) {
      e.preventDefault();
      btn.click();
    }
  }

  // ------------------------------------------------------------ drawing

  draw(b) {
    this.board = b;
    this.busy = false;
    this.boards = (this.boards || 0) + 1;
    this.root.dataset.boards = String(this.boards); // tests wait for the next board by it
    const focus = focusKey();
    const bd = b.board;
    this.root.dataset.deal = String(b.deal);
    this.root.dataset.myTurn = String(!!bd?.my_turn);
    this.root.dataset.seat = String(b.seat);
    this.root.dataset.board = String(!!bd);
    if (bd) this.el.title.textContent = bd.title;
    this.el.status.textContent = [b.waiting, b.status].filter(Boolean).join(" ");
    this.placeInvite(!!b.waiting);
    this.drawTools(b);
    this.drawPlayers(b);
    this.drawInfo(bd);
    this.drawTrick(bd);
    this.drawHand(bd, b.left || !!b.over);
    this.drawLists(bd);
    this.drawLog(b.log);
    // A rated table keeps the countdown's place: the table must not move under a finger
    // when a move's countdown starts.
    this.el.timer.classList.toggle("reserved", !!b.rated);
    this.countdown.update(b);
    this.chat.update(b);
    restoreFocus(focus, this.el.hand);
    this.windows(b);
  }

  /** The invitation comes first while seats are free, last once the match runs. */
  placeInvite(waiting) {
    const inv = this.el.invite;
    if (waiting && inv.previousElementSibling !== this.el.players) this.el.players.after(inv);
    if (!waiting && inv.parentElement !== this.side) this.side.append(inv);
    if (waiting !== this.wasWaiting) inv.open = waiting;
    this.wasWaiting = waiting;
  }

  drawTools(b) {
    const bd = b.board;
    const tool = (id, label, onclick) => h("button", { type: "button", id, onclick }, label);
    fill(
      this.el.tools,
      b.can.hint ? tool("hint-btn", t("hint"), () => this.send({ type: "hint" })) : null,
      b.can.undo ? tool("undo-btn", t("undo"), () => this.send({ type: "undo" })) : null,
      bd ? tool("first-btn", t("first_tricks"), () => this.showFirstTricks()) : null,
      b.sheet ? tool("sheet-btn", t("sheet"), () => this.showSheet()) : null,
      b.can.leave ? tool("leave-btn", t("leave"), () => this.askLeave()) : h("a", { className: "button", href: "/" }, t("to_lobby")),
    );
  }

  drawPlayers(b) {
    fill(this.el.players, b.players.map((p) => {
      const marks = [
        p.to_act ? t("to_act") : null,
        p.dealer ? t("dealer") : null,
        p.left ? t("left_seat") : p.connected === false && p.name && !p.name.startsWith("@") ? t("connected_no") : null,
      ].filter(Boolean);
      return h(
        "li",
        { className: `player${p.me ? " me" : ""}${p.to_act ? " to-act" : ""}`, dataset: { seat: p.seat, toAct: String(p.to_act), connected: String(p.connected), left: String(p.left) } },
        h("span", { className: "who" }, p.to_act ? h("span", { className: "arrow", "aria-hidden": "true" }, "▶ ") : null, h("b", {}, p.who), ` · ${b.totals[p.seat] ?? 0}`),
        " ",
        h("small", {}, [p.name && !p.me ? p.name : null, ...marks].filter(Boolean).join(" · ")),
      );
    }));
  }

  drawInfo(bd) {
    if (!bd) return fill(this.el.infoBox);
    // A fact is its label and value parts; each part wraps as a whole, its " ·" with it, so a
    // line never starts with a separator and a label never ends a line.
    const item = (id, label, parts, data = {}, long = false) => {
      const kids = [];
      parts.filter(Boolean).forEach((part, i, all) => {
        if (i) kids.push(" ");
        kids.push(h("span", { className: "part" }, i ? null : h("span", { className: "label" }, `${label}:\u00a0`), part, i < all.length - 1 ? " ·" : null));
      });
      return h("div", { id, className: long ? "fact long" : "fact", dataset: data }, kids);
    };
    const trump = bd.trump
      ? item("trump", t("trump"), [h("span", { className: `chip s-${bd.trump.suit}` }, bd.trump.label)], { suit: bd.trump.suit })
      : item("trump", t("trump"), [t("not_named")], { suit: "" });
    const talon = bd.talon
      ? item("talon", t("talon"), [
          String(bd.talon.size),
          bd.talon.turnup ? h("span", { className: "turnup" }, `${t("turnup")} `, cardView(bd.talon.turnup, { id: "turnup" })) : null,
          bd.talon.state,
        ], { size: bd.talon.size, closed: String(bd.talon.closed_by !== null) })
      : null;
    const decl = bd.declarer
      ? item("declarer", t("declarer"), [bd.declarer.text, bd.declarer.called ? [`${t("called")} `, cardInline(bd.declarer.called)] : null], { seat: bd.declarer.seat })
      : null;
    fill(
      this.el.infoBox,
      trump,
      talon,
      item("dealer", t("dealer"), [bd.dealer_who], { seat: bd.dealer }),
      decl,
      bd.sides ? item("sides", bd.sides.label, [bd.sides.text], {}, true) : null,
      bd.note ? h("p", { id: "board-note", className: "note" }, bd.note) : null,
    );
  }

  drawTrick(bd) {
    const plays = bd ? bd.trick : [];
    fill(this.el.trick, h("h3", {}, t("on_table")), plays.length ? plays.map(playView) : h("p", { className: "muted" }, t("nothing_yet")));
    const last = bd?.last_trick;
    this.el.lastTrick.hidden = !last;
    if (last) fill(this.el.lastTrick, h("h3", {}, `${t("last_trick")} → ${last.who}`), h("div", { className: "plays small", dataset: { winner: last.winner } }, last.plays.map(playView)));
  }

  drawHand(bd, done) {
    const hand = (bd ? bd.hand : []).map((e) => (done ? { ...e, legal: false } : e)); // nothing to play once left or over
    const actions = bd && !done ? bd.actions : [];
    // Redrawn only when it changed: a board that changes nothing here (a timer, a seat coming
    // back) must not swap the buttons under a person's finger or focus.
    const key = JSON.stringify([hand, actions, this.board?.lang]);
    if (key === this.handKey) return;
    this.handKey = key;
    const notPlayable = t("not_playable");
    fill(this.el.hand, hand.length ? hand.map((e, i) => cardButton(e, i, notPlayable, (a) => this.act(a))) : h("p", { className: "muted" }, t("no_cards")));
    this.el.barred.textContent = bd?.barred_note || "";
    this.el.barred.hidden = !bd?.barred_note;
    fill(this.el.actions, actions.map((a) => h("button", { type: "button", className: "action", dataset: { action: a.action }, title: a.typed, onclick: () => this.act(a.action) }, a.label)));
  }

  drawLists(bd) {
    fill(this.el.scores, bd ? grid(bd.scores.headings, bd.scores.rows.map((r) => r.cells), (i) => ({ dataset: { seat: bd.scores.rows[i].seat, me: String(bd.scores.rows[i].me) }, className: bd.scores.rows[i].me ? "me" : "" }), bd.scores.goal) : null);
    const ann = bd ? bd.announcements : [];
    fill(this.el.announcements, ann.map((a) => h("li", {}, a)));
    $("#announce-box").hidden = !ann.length;
    const known = bd ? bd.known : [];
    fill(this.el.known, known.map((k) => h("li", { dataset: { seat: k.seat, card: k.card.code } }, `${k.who}: `, cardInline(k.card), ` (${k.why})`)));
    $("#known-box").hidden = !known.length;
  }

  /** Appends the log's new items only, so a screen reader hears just those. */
  drawLog(log) {
    const keys = log.map((x) => JSON.stringify(x));
    const old = this.logKeys;
    let shift = 0;
    while (shift <= old.length && !old.slice(shift).every((k, i) => k === keys[i])) shift++;
    if (shift > old.length || (shift === old.length && old.length)) {
      fill(this.el.log);
      shift = 0;
      this.logKeys = [];
    }
    for (let i = 0; i < shift; i++) this.el.log.firstElementChild?.remove();
    for (const item of log.slice(this.logKeys.length - shift)) this.el.log.append(logItem(item));
    this.logKeys = keys;
    fitLog(this.el.log);
  }

  // ------------------------------------------------------------ windows

  windows(b) {
    const acked = ackedDeals(this.id);
    if (b.result && !acked.has(b.result.deal) && !document.getElementById("result")) this.showResult(b.result);
    else if (b.over && !this.overShown && !document.getElementById("result")) this.showOver(b.over);
  }

  showResult(r) {
    const hands = h("div", { className: "hands" }, r.hands.map((x) => h("div", { className: "seat-hand", dataset: { seat: x.seat } }, h("h3", {}, x.who), h("div", { className: "plays small" }, x.cards.length ? x.cards.map((c) => cardView(c)) : t("no_cards")))));
    const body = [
      r.lines.map((l) => h("p", {}, l)),
      r.why ? h("p", { className: "why" }, r.why) : null,
      h("div", { className: "scroll" }, grid(r.headings, r.rows.map((x) => x.cells), (i) => ({ dataset: { seat: r.rows[i].seat }, className: r.rows[i].me ? "me" : "" }))),
      h("h3", { className: "left-h" }, t("cards_left")),
      hands,
    ];
    const dlg = open("result", r.title, body, [closer(t("next_deal"), "next", true)], () => {
      ackDeal(this.id, r.deal);
      this.seat.send({ type: "ready" });
      if (this.board) this.windows(this.board);
    });
    dlg.dataset.deal = String(r.deal);
  }

  showOver(over) {
    this.overShown = true;
    const link = h("a", { className: "button primary", href: "/" }, t("to_lobby"));
    const sheet = this.board.sheet ? h("button", { type: "button", onclick: () => this.showSheet() }, t("sheet")) : null;
    const dlg = open("over", t("match_over"), h("p", {}, over.text), [sheet, closer(t("close"), "close"), link]);
    dlg.dataset.winners = over.winners.join(",");
  }

  showSheet() {
    const s = this.board.sheet;
    if (!s) return;
    const seats = s.headings.length - 3;
    const rows = s.rows.map((r) => [String(r.deal), r.dealer, ...Array.from({ length: seats }, (_, i) => `+${r.gained[i]} =${r.totals[i]}`), r.reason]);
    info("sheet", s.title, [h("div", { className: "scroll" }, grid(s.headings, rows, (i) => ({ dataset: { deal: s.rows[i].deal } }))), h("p", { className: "legend" }, s.legend)]);
  }

  showFirstTricks() {
    const ft = this.board.board?.first_tricks || [];
    const body = ft.length
      ? h("ul", {}, ft.map((f) => h("li", { dataset: { seat: f.seat } }, h("b", {}, `${f.who}: `), f.plays.map((p) => h("span", {}, cardInline(p.card), ` (${p.who}) `)))))
      : h("p", {}, t("nobody_trick"));
    info("first-tricks", t("first_tricks_title"), body);
  }

  showHints(m) {
    const heads = [t("move_col"), t("typed_col"), t("value_col")];
    const rows = m.rows.map((r) => [h("button", { type: "button", className: "link", dataset: { action: r.action }, onclick: (e) => { e.target.closest("dialog").close(); this.act(r.action); } }, r.label), r.typed, String(r.value)]);
    info("hints", m.title, h("div", { className: "scroll" }, grid(heads, rows)));
  }

  async askLeave() {
    if (await confirm(this.board.leave, t("yes_leave"))) this.seat.leave();
  }
}

function playView(p) {
  return h("figure", { className: "play", dataset: { seat: p.seat, card: p.card.code } }, cardView(p.card), h("figcaption", {}, p.who));
}

function logItem(item) {
  return h("li", { className: `log-${item.kind}` }, item.text, item.cards.map((c) => [" ", cardInline(c)]));
}

/** The newest item in view; where the log is a box that scrolls (wide screens), room below
 * the newest so that the first item in view is whole rather than cut. */
function fitLog(log) {
  log.style.paddingBlockEnd = "";
  log.scrollTop = log.scrollHeight;
  const top = log.scrollTop;
  if (!top) return;
  const first = [...log.children].find((li) => li.offsetTop >= top);
  if (!first || first.offsetTop === top) return;
  log.style.paddingBlockEnd = `${first.offsetTop - top}px`;
  log.scrollTop = log.scrollHeight;
}

/** Where focus was, as a key that survives a redraw. */
function focusKey() {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  if (a.dataset.card && a.closest("#hand")) return `#hand [data-card="${a.dataset.card}"]`;
  if (a.dataset.action) return `#actions [data-action="${a.dataset.action}"]`;
  return a.id ? `#${a.id}` : null;
}

function restoreFocus(key, hand) {
  if (!key || document.activeElement !== document.body) return;
  const el = document.querySelector(key);
  const fallback = key.startsWith("#hand") || key.startsWith("#actions") ? hand.querySelector("button:not([disabled])") || hand : null;
  (el && !el.disabled ? el : fallback)?.focus();
}

function ackedDeals(id) {
  return new Set(JSON.parse(sessionStorage.getItem(`ss.ack.${id}`) || "[]"));
}

function ackDeal(id, deal) {
  const set = ackedDeals(id);
  set.add(deal);
  sessionStorage.setItem(`ss.ack.${id}`, JSON.stringify([...set].slice(-50)));
}
