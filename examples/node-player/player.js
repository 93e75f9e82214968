#!/usr/bin/env node
// A complete sixtysix-player/1 player in Node.js, with no dependencies.
//
// It plays every built-in variant legally: it reads one JSON message per line on stdin and,
// when asked to decide, answers one action from the `legal` list it was given, chosen by a
// simple rule (see choose below). Everything it knows comes from the messages: the referee
// sends a seat only what that seat may know. Run it with:
//
//   sixtysix duel 66 'exec:node examples/node-player/player.js' random
"use strict";

const readline = require("node:readline");

const PROTOCOL = "sixtysix-player/1";
const RANKS = "9JQKTA"; // weakest to strongest in every suit
const POINTS = { 9: 0, J: 2, Q: 3, K: 4, T: 10, A: 11 };

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const rank = (card) => RANKS.indexOf(card[0]);
const suit = (card) => card[1];

// Does `card` beat the trick's current winner? (Trump beats other suits; otherwise only a
// higher card of the suit led.)
function beats(card, trick, trump) {
  if (trick.length === 0) return true;
  let best = trick[0][1];
  for (const [, c] of trick.slice(1)) {
    if ((suit(c) === suit(best) && rank(c) > rank(best)) || (suit(c) === trump && suit(best) !== trump)) {
      best = c;
    }
  }
  if (suit(card) === suit(best)) return rank(card) > rank(best);
  return suit(card) === trump;
}

// The rule: declare a marriage or exchange when offered; name trump as the suit we hold most
// of; call a partner (never solo); lead the lowest card; follow with the cheapest card that
// wins, else the cheapest card. Legality is the referee's: we only pick from `legal`.
function choose(view, legal) {
  const named = (verb) => legal.filter((a) => a.startsWith(verb));
  for (const verb of ["marry", "exchange"]) {
    if (named(verb).length) return named(verb)[0];
  }
  const trumps = named("trump ").filter((a) => a !== "trump below");
  if (trumps.length) {
    const count = (s) => view.hand.filter((c) => suit(c) === s).length;
    return trumps.reduce((a, b) => (count(b.slice(-1)) > count(a.slice(-1)) ? b : a));
  }
  if (named("partner").length) return named("partner")[0];
  const plays = named("play ").map((a) => a.slice(5));
  if (plays.length === 0) return legal[0];
  const cheap = (a, b) => POINTS[a[0]] - POINTS[b[0]] || rank(a) - rank(b);
  plays.sort(cheap);
  if (view.trick.length > 0) {
    const winning = plays.filter((c) => beats(c, view.trick, view.trump));
    if (winning.length) return "play " + winning[0];
  }
  return "play " + plays[0];
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      if (message.protocol !== PROTOCOL) {
        process.stderr.write(`node-player speaks ${PROTOCOL}, not ${message.protocol}\n`);
        process.exit(1);
      }
      send({ type: "hello", protocol: PROTOCOL, name: "node-player", variants: ["*"] });
      break;
    case "decide":
      send({ type: "action", action: choose(message.view, message.legal) });
      break;
    case "quit":
      process.exit(0);
      break;
    default: // match, deal, event, result, match_over: nothing to remember for this rule
      break;
  }
});
input.on("close", () => process.exit(0));
