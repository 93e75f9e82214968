// The table's chat: messages as plain text, quick phrases, per-seat mute kept in this tab.

import { h, fill, $ } from "./dom.js";
import { t, phrase, setup } from "./i18n.js";

const KEEP = 100;

export class Chat {
  constructor(root, send) {
    this.root = root;
    this.send = send; // sends a chat message; returns false when offline
    this.lines = [];
    this.players = [];
    this.muted = new Set(JSON.parse(sessionStorage.getItem("ss.muted") || "[]"));
    this.enabled = true;
    this.build();
  }

  build() {
    const input = h("input", { id: "chat-text", type: "text", maxlength: setup.max_chat || 200, autocomplete: "off", placeholder: t("chat_placeholder") });
    const form = h(
      "form",
      { className: "chat-form", onsubmit: (e) => this.submit(e, input) },
      h("label", { for: "chat-text", className: "sr" }, t("chat_placeholder")),
      input,
      h("button", { type: "submit" }, t("say")),
    );
    const phrases = Object.entries(setup.phrases).map(([id, text]) =>
      h("button", { type: "button", className: "phrase", dataset: { phrase: id }, onclick: () => this.send({ type: "chat", phrase: id }) }, text),
    );
    this.list = h("ol", { id: "chat-list", className: "chat-list" });
    this.off = h("p", { className: "chat-off", hidden: true }, t("chat_off"));
    this.mutes = h("div", { className: "mutes" });
    this.controls = h("div", {}, form, h("div", { className: "phrases" }, phrases), this.mutes);
    // The live region wraps the list: a list keeps its list role (its items must be in one).
    const live = h("div", { role: "log", "aria-live": "polite", "aria-labelledby": "chat-h" }, this.list);
    fill(this.root, h("h2", { id: "chat-h" }, t("chat")), live, this.off, this.controls);
  }

  submit(e, input) {
    e.preventDefault();
    const text = input.value.trim();
    if (text && this.send({ type: "chat", text })) input.value = "";
  }

  /** Follows the board: who sits where, and whether chat is on. */
  update(board) {
    this.enabled = board.can.chat;
    this.off.hidden = this.enabled;
    this.controls.hidden = !this.enabled;
    const key = JSON.stringify(board.players.map((p) => [p.seat, p.name, p.me]));
    if (key !== this.playersKey) {
      this.playersKey = key;
      this.players = board.players;
      this.drawMutes();
    }
  }

  drawMutes() {
    const others = this.players.filter((p) => !p.me && p.name && !p.name.startsWith("@"));
    fill(this.mutes, others.map((p) => {
      const muted = this.muted.has(p.seat);
      const who = `${p.who} (${p.name})`;
      return h("button", { type: "button", className: "mute", "aria-pressed": String(muted), dataset: { seat: p.seat }, onclick: () => this.toggle(p.seat) }, `${muted ? t("unmute") : t("mute")}: ${who}`);
    }));
  }

  toggle(seat) {
    if (this.muted.has(seat)) this.muted.delete(seat);
    else this.muted.add(seat);
    sessionStorage.setItem("ss.muted", JSON.stringify([...this.muted]));
    this.drawMutes();
    this.drawLines();
  }

  /** A chat message from the server. */
  add(m) {
    const text = m.text ?? phrase(m.phrase);
    if (text === null || text === undefined) return;
    this.lines.push({ seat: m.seat, name: m.name, text });
    this.lines.splice(0, Math.max(0, this.lines.length - KEEP));
    if (!this.muted.has(m.seat)) this.list.append(this.line(this.lines.at(-1)));
  }

  line(l) {
    return h("li", { dataset: { seat: l.seat } }, h("b", {}, `${l.name}: `), l.text);
  }

  drawLines() {
    fill(this.list, this.lines.filter((l) => !this.muted.has(l.seat)).map((l) => this.line(l)));
  }
}
