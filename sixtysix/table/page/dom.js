// Small DOM helpers: every text goes in through textContent, never as markup.

/** An element with attributes, properties (on*, dataset) and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "className") el.className = value;
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  add(el, children);
  return el;
}

function add(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export const $ = (sel, root = document) => root.querySelector(sel);

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  add(el, children);
  return el;
}

/** A table from headings and rows of cells; each row's extra attributes from rowAttrs. */
export function grid(headings, rows, rowAttrs = () => ({}), caption = null) {
  return h(
    "table",
    {},
    caption ? h("caption", {}, caption) : null,
    h("thead", {}, h("tr", {}, headings.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows.map((cells, i) => h("tr", rowAttrs(i), cells.map((c) => h("td", {}, c))))),
  );
}
