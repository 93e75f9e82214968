// Cards drawn as cards: rank and a suit symbol told apart by shape (an SVG path) and colour.

import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const PATHS = {
  C: "M12 2.5a4.3 4.3 0 0 0-4.1 5.6 4.3 4.3 0 1 0 3 7.7c-.3 2.3-1.2 4-2.6 5.2h7.4c-1.4-1.2-2.3-2.9-2.6-5.2a4.3 4.3 0 1 0 3-7.7A4.3 4.3 0 0 0 12 2.5z",
  D: "M12 1.5 20.5 12 12 22.5 3.5 12z",
  H: "M12 21.5s-7.6-4.7-9.7-9.5C.8 8.5 3 4.5 6.7 4.5c2.2 0 3.8 1.3 5.3 3.3 1.5-2 3.1-3.3 5.3-3.3 3.7 0 5.9 4 4.4 7.5-2.1 4.8-9.7 9.5-9.7 9.5z",
  S: "M12 2C9 6 3 9.5 3 13.6 3 16.4 5.2 18 7.4 18c1.6 0 2.9-.7 3.7-1.8-.3 2.2-1.2 3.9-2.6 4.9h7c-1.4-1-2.3-2.7-2.6-4.9.8 1.1 2.1 1.8 3.7 1.8 2.2 0 4.4-1.6 4.4-4.4C21 9.5 15 6 12 2z",
};
const RANKS = { 9: "9", J: "J", Q: "Q", K: "K", T: "10", A: "A" };

/** A suit symbol as an inline SVG (decorative: the card's name is said elsewhere). */
export function suitIcon(suit, cls = "suit") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `${cls} s-${suit}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", PATHS[suit] ?? "");
  svg.append(path);
  return svg;
}

function face(card) {
  return [
    h("span", { className: "rank", "aria-hidden": "true" }, RANKS[card.rank] ?? card.rank),
    suitIcon(card.suit),
  ];
}

/** A card shown (not played): an element named by the card's name. */
export function cardView(card, extra = {}) {
  return h(
    "span",
    { className: `card s-${card.suit}`, role: "img", "aria-label": card.name, title: card.name, dataset: { card: card.code }, ...extra },
    face(card),
  );
}

/** A card of the hand: a button, disabled (and marked) when it may not be played now. */
export function cardButton(entry, index, notPlayable, onPlay) {
  const { card, legal, barred } = entry;
  const name = legal ? card.name : `${card.name}, ${notPlayable}`;
  const btn = h(
    "button",
    {
      type: "button",
      className: `card s-${card.suit}${legal ? " legal" : " barred"}${barred ? " bracket" : ""}`,
      "aria-label": name,
      title: name,
      disabled: !legal,
      dataset: { card: card.code, legal: String(legal), action: entry.action, index: String(index + 1) },
      onclick: () => onPlay(entry.action),
    },
    face(card),
    legal ? null : h("span", { className: "nope", "aria-hidden": "true" }, "×"),
  );
  return btn;
}

/** A card in running text: small, with its text for copy and screen readers. */
export function cardInline(card) {
  return h("span", { className: `mini s-${card.suit}`, dataset: { card: card.code } }, h("span", { className: "sr" }, card.name), h("span", { "aria-hidden": "true" }, RANKS[card.rank] ?? card.rank), suitIcon(card.suit));
}
