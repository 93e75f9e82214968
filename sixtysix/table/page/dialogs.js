// Dialogs: real <dialog> elements, labelled by their heading, built on demand.

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";

let count = 0;

/** A modal dialog with a heading, a body and buttons; removed from the page when closed. */
export function open(id, title, body, buttons, onClose = () => {}) {
  document.getElementById(id)?.remove();
  const heading = `${id}-title-${++count}`;
  const dlg = h(
    "dialog",
    { id, "aria-labelledby": heading },
    h("h2", { id: heading }, title),
    h("div", { className: "dialog-body" }, body),
    h("div", { className: "buttons" }, buttons),
  );
  dlg.addEventListener("close", () => {
    dlg.remove(); // first: what onClose opens next must not find this one still here
    onClose(dlg.returnValue);
  });
  document.body.append(dlg);
  dlg.showModal();
  return dlg;
}

/** A button that closes its dialog with a value. */
export function closer(label, value, primary = false) {
  return h("button", { type: "button", className: primary ? "primary" : "", value, onclick: (e) => e.target.closest("dialog").close(value) }, label);
}

/** Asks once: resolves true for yes. */
export function confirm(text, yes) {
  return new Promise((resolve) => {
    const dlg = open("confirm", text, null, [closer(t("cancel"), "no"), closer(yes, "yes", true)], (v) => resolve(v === "yes"));
    fill(dlg.querySelector(".dialog-body"));
    dlg.querySelector("button[value=no]").focus();
  });
}

/** An information window with a Close button. */
export function info(id, title, body) {
  return open(id, title, body, [closer(t("close"), "close", true)]);
}
