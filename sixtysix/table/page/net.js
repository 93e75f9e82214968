// The WebSocket side: one-shot requests (create, list, standings) and a seat that reconnects.

export const PROTOCOL = "sixtysix-table/1";
const URL_ = () => (location.protocol === "https:" ? "wss://" : "ws://") + location.host;

/** Hard error codes: the server closes, and joining again would be refused again. */
const FINAL = new Set(["garbage", "protocol", "token", "name_taken", "no_table", "table_full", "flooding", "quota"]);

/** Sends a first message and resolves with the server's answer (or rejects with its error). */
export function request(message) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(URL_());
    let done = false;
    ws.onopen = () => ws.send(JSON.stringify({ protocol: PROTOCOL, ...message }));
    ws.onmessage = (e) => {
      done = true;
      const m = JSON.parse(e.data);
      if (m.type === "error") reject(Object.assign(new Error(m.message), { code: m.code }));
      else resolve(m);
      ws.close();
    };
    ws.onclose = () => done || reject(Object.assign(new Error("closed"), { code: "closed" }));
  });
}

/**
 * A seat at a table: joins, hands every message to onMessage, and on a lost connection
 * rejoins by itself (0.25 s, then up to 1 s apart, for up to 180 s) with the token.
 */
export class Seat {
  constructor(join, { onMessage, onState }) {
    this.join = join; // the join message without the token (read fresh at each attempt)
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.final = null; // a hard error: no more attempts
    this.leaving = false;
    this.lostAt = null;
    this.delay = 250;
  }

  start() {
    this.onState("connecting");
    this.open();
  }

  open() {
    const ws = (this.ws = new WebSocket(URL_()));
    ws.onopen = () => ws.send(JSON.stringify({ ...this.join(), protocol: PROTOCOL, type: "join", screen: true }));
    ws.onmessage = (e) => this.received(JSON.parse(e.data));
    ws.onclose = (e) => this.closed(e);
  }

  received(m) {
    if (m.type === "welcome") {
      this.lostAt = null;
      this.delay = 250;
    }
    if (m.type === "error" && FINAL.has(m.code)) this.final = m;
    this.onMessage(m);
  }

  closed(e) {
    if (this.leaving || this.final) return this.onState("closed", this.final);
    const now = Date.now();
    this.lostAt ??= now;
    if (now - this.lostAt > 180_000) return this.onState("closed", { code: "gone", message: e.reason });
    this.onState("reconnecting");
    setTimeout(() => this.open(), this.delay);
    this.delay = Math.min(1000, this.delay * 2);
  }

  send(message) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  leave() {
    this.leaving = true;
    this.send({ type: "leave" });
  }
}
