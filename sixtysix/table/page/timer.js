// The move countdown: counted down here from the board's timer, warning in the last 10 s.

import { t } from "./i18n.js";

export class Countdown {
  constructor(el, alert) {
    this.el = el; // the visible countdown
    this.alert = alert; // an aria-live region told once when time runs short
    this.key = null;
    this.tick = null;
  }

  /** Follows a board: restarts when a timer with a new id (or, after a rejoin, new seconds) arrives. */
  update(board) {
    const timer = board.timer && board.timer.seat === board.seat ? board.timer : null;
    const key = timer ? JSON.stringify([board.table, timer.id, timer.seconds]) : null;
    if (key === this.key) return;
    this.key = key;
    this.stop();
    if (timer) this.start(timer.seconds);
  }

  start(seconds) {
    this.deadline = performance.now() + seconds * 1000;
    this.warned = false;
    this.el.hidden = false;
    this.draw();
    this.tick = setInterval(() => this.draw(), 250);
  }

  stop() {
    clearInterval(this.tick);
    this.tick = null;
    this.el.hidden = true;
    this.el.classList.remove("hurry");
    this.alert.textContent = "";
  }

  draw() {
    const left = Math.max(0, Math.ceil((this.deadline - performance.now()) / 1000));
    const hurry = left <= 10;
    this.el.dataset.seconds = String(left);
    this.el.classList.toggle("hurry", hurry);
    this.el.textContent = `${t("time_left")}: ${t("seconds", { seconds: left })}`;
    if (hurry && !this.warned) {
      this.warned = true;
      this.alert.textContent = t("hurry", { seconds: left });
    }
    if (left === 0) clearInterval(this.tick);
  }
}
