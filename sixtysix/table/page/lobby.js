// The lobby: tables to sit at, the form that opens one, the standings and the person's matches.

import { h, fill, grid, $ } from "./dom.js";
import { t, setup, levelLabel } from "./i18n.js";
import { request } from "./net.js";

/** Draws the lobby into main; me() is the person's name (or null), askName() asks for one. */
export function lobby(main, me, askName) {
  const tables = h("section", { id: "tables", "aria-labelledby": "tables-h" });
  const form = h("section", { id: "new-table", "aria-labelledby": "new-h" });
  const standings = h("section", { id: "standings", "aria-labelledby": "standings-h" });
  const history = h("section", { id: "history", "aria-labelledby": "history-h" });
  fill(main, tables, form, standings, history);
  drawTables(tables, me);
  drawForm(form, me, askName);
  drawStandings(standings);
  drawHistory(history, me);
}

function section(el, id, title, ...rest) {
  return fill(el, h("h2", { id }, title), ...rest);
}

function errorText(err) {
  return t(err.code) !== err.code ? t(err.code) : t("error", { message: err.message });
}

// ---------------------------------------------------------------- tables

async function drawTables(el, me) {
  const list = h("div", { className: "table-list", "aria-live": "polite" });
  const refresh = h("button", { type: "button", onclick: () => drawTables(el, me) }, t("refresh"));
  section(el, "tables-h", t("tables"), refresh, list);
  try {
    const answer = await request({ type: "list" });
    const rows = answer.tables.filter((x) => x.status !== "finished" || sitting(x, me()));
    fill(list, rows.length ? rows.map((x) => tableEntry(x, me())) : h("p", {}, t("no_tables")));
  } catch (err) {
    fill(list, h("p", { className: "error" }, errorText(err)));
  }
}

function sitting(table, name) {
  return !!name && table.seats.some((s) => s.name && s.name.toLowerCase() === name.toLowerCase());
}

function variantLabel(name) {
  const v = setup.variants.find((x) => x.name === name);
  return v && v.aliases.length ? `${v.aliases[0]} (${name})` : name;
}

const levels = (spec) => (spec || "").split(",").map(levelLabel).join(", ");

function seatText(s) {
  if (s.kind !== "human") return levelLabel(s.label);
  if (!s.name) return t("free");
  return s.connected ? s.name : `${s.name} ${t("away")}`;
}

function tableEntry(x, name) {
  const free = x.free ?? x.seats.flatMap((s, i) => (s.kind === "human" && !s.name ? [i] : []));
  const kind = x.rated ? `${t("rated")}, ${t("seconds_a_move", { seconds: x.move_time })}` : t("test");
  const mine = sitting(x, name);
  const href = `/t/${encodeURIComponent(x.table)}`;
  const go = mine
    ? h("a", { className: "button primary", href }, t("back_to_table"))
    : x.status === "open" && free.length
      ? h("a", { className: "button primary", href }, t("join"))
      : h("span", { className: "muted" }, t("watch_not"));
  return h(
    "article",
    { className: "table-entry", dataset: { table: x.table, status: x.status } },
    h("h3", {}, `${variantLabel(x.variant)} · ${x.table}`),
    h("p", {}, `${kind} · ${t(x.status)} · ${t("free_seats", { free: free.length, seats: x.seats.length })}${x.deal ? " · " + t("deal_n", { number: x.deal }) : ""}`),
    h("ol", { className: "seat-list", start: 0 }, x.seats.map((s, i) => h("li", { dataset: { seat: i } }, `${seatText(s)}${x.deal ? " · " + x.totals[i] : ""}`))),
    go,
  );
}

// ---------------------------------------------------------------- the form

function field(id, label, input, help) {
  if (help) input.setAttribute("aria-describedby", `${id}-help`);
  return h("div", { className: "field" }, h("label", { for: id }, label), input, help ? h("small", { id: `${id}-help` }, help) : null);
}

function select(id, choices, value) {
  return h("select", { id, name: id }, choices.map(([v, label]) => {
    const o = h("option", { value: v }, label);
    o.selected = String(v) === String(value);
    return o;
  }));
}

function optionInput(o, value) {
  const id = `opt-${o.name}`;
  if (o.type === "bool") {
    const box = h("input", { id, type: "checkbox", dataset: { option: o.name }, "aria-describedby": `${id}-help` });
    box.checked = !!value;
    return h("div", { className: "field check" }, box, h("label", { for: id }, o.name), h("small", { id: `${id}-help` }, o.doc));
  }
  const input = o.type === "int"
    ? h("input", { id, type: "number", step: 1, value, required: true })
    : select(id, o.choices.map((c) => [c, c]), value);
  input.dataset.option = o.name;
  return field(id, o.name, input, o.doc);
}

function drawForm(el, me, askName) {
  const variant = select("variant", setup.variants.map((v) => [v.name, variantLabel(v.name)]), "sixtysix");
  const body = h("div", {});
  const status = h("p", { className: "form-status", role: "status" });
  const form = h("form", { id: "create-form", onsubmit: (e) => submit(e) }, field("variant", t("variant"), variant), body, h("button", { type: "submit", className: "primary" }, t("create")), status);
  section(el, "new-h", t("new_table"), form);
  const chosen = () => setup.variants.find((v) => v.name === variant.value);
  variant.addEventListener("change", () => drawVariant(body, chosen()));
  drawVariant(body, chosen());

  async function submit(e) {
    e.preventDefault();
    const name = me() || (await askName());
    if (!name) return;
    try {
      status.textContent = "…";
      const answer = await request(createMessage(form, chosen()));
      location.assign(`/t/${encodeURIComponent(answer.table)}`);
    } catch (err) {
      status.textContent = errorText(err);
    }
  }
}

function drawVariant(body, v) {
  const presets = [["", t("no_preset")], ...Object.keys(v.presets).map((p) => [p, p])];
  const preset = select("preset", presets, "");
  const options = h("fieldset", { className: "options" }, h("legend", {}, t("options")));
  const draw = () => {
    const values = { ...Object.fromEntries(v.options.map((o) => [o.name, o.default])), ...(v.presets[preset.value] || {}) };
    fill(options, h("legend", {}, t("options")), v.options.map((o) => optionInput(o, values[o.name])));
  };
  preset.addEventListener("change", draw);
  draw();
  const extras = [
    h("p", { className: "doc" }, v.description),
    presets.length > 1 ? field("preset", t("preset"), preset) : null,
    h("details", {}, h("summary", {}, t("options")), options),
    seatsFieldset(v.seats),
    ratedFields(),
  ];
  fill(body, extras);
}

function seatsFieldset(n) {
  const kinds = [["human", t("person")], ...setup.levels.map((l) => [l.spec, t("level", { level: l.label })])];
  const rows = [h("p", { className: "seat-me" }, `${t("seat_n", { seat: 0 })}: ${t("me")}`)];
  for (let s = 1; s < n; s++) {
    const sel = select(`seat-${s}`, kinds, n === 2 ? "@hard" : "human");
    sel.dataset.seat = String(s);
    rows.push(field(`seat-${s}`, t("seat_n", { seat: s }), sel));
  }
  return h("fieldset", { className: "seats" }, h("legend", {}, t("seats_label")), rows);
}

function ratedFields() {
  const rated = h("input", { id: "rated", type: "checkbox" });
  const mt = setup.move_time;
  const time = h("input", { id: "move-time", type: "number", min: mt.min, max: mt.max, value: mt.default, step: 1 });
  const timeField = field("move-time", t("move_time"), time);
  timeField.hidden = true;
  rated.addEventListener("change", () => (timeField.hidden = !rated.checked));
  const leave = select("on-leave", [["end", t("on_leave_end")], ["bot", t("on_leave_bot")]], "end");
  return h("div", {}, h("div", { className: "field check" }, rated, h("label", { for: "rated" }, t("rated_table"))), timeField, field("on-leave", t("on_leave"), leave));
}

function createMessage(form, v) {
  const options = {};
  for (const o of v.options) {
    const input = form.querySelector(`[data-option="${o.name}"]`);
    const value = o.type === "bool" ? input.checked : o.type === "int" ? Number(input.value) : input.value;
    if (value !== o.default) options[o.name] = value;
  }
  const seats = ["human"];
  for (let s = 1; s < v.seats; s++) seats.push(form.querySelector(`#seat-${s}`).value);
  const rated = $("#rated", form).checked;
  return {
    type: "create",
    variant: v.name,
    options,
    seats,
    rated,
    move_time: rated ? Number($("#move-time", form).value) : null,
    on_leave: $("#on-leave", form).value,
  };
}

// ---------------------------------------------------------------- standings

function drawStandings(el) {
  const filter = select("standings-variant", [["", t("all_variants")], ...setup.variants.map((v) => [v.name, variantLabel(v.name)])], "");
  const out = h("div", { "aria-live": "polite" });
  section(el, "standings-h", t("standings"), field("standings-variant", t("standings_variant"), filter), out);
  const load = async () => {
    try {
      const a = await request({ type: "standings", variant: filter.value || null });
      const heads = [t("player"), t("variant"), t("level_col"), t("played"), t("won"), t("drawn"), t("lost"), t("left_col"), t("score")];
      const rows = a.rows.map((r) => [r.name, variantLabel(r.variant), levels(r.level), r.played, r.won, r.drawn, r.lost, r.left, r.score]);
      fill(out, rows.length ? h("div", { className: "scroll" }, grid(heads, rows)) : h("p", {}, t("no_standings")));
    } catch (err) {
      fill(out, h("p", { className: "error" }, errorText(err)));
    }
  };
  filter.addEventListener("change", load);
  load();
}

async function drawHistory(el, me) {
  const name = me();
  el.hidden = !name;
  if (!name) return;
  const out = h("div", {});
  section(el, "history-h", t("history"), out);
  try {
    const a = await request({ type: "standings", name });
    const heads = [t("when"), t("variant"), t("level_col"), t("seat"), t("ending"), t("score"), t("deals"), t("game_points")];
    const rows = (a.history || []).map((r) => [
      new Date(r.played_at).toLocaleString(document.documentElement.lang),
      variantLabel(r.variant), levels(r.level), r.seat,
      t(r.ending === "left" ? "ending_left" : "ending_finished"),
      r.score === null ? t("unscored") : r.score, r.deals, r.totals.join(" : "),
    ]);
    fill(out, rows.length ? h("div", { className: "scroll" }, grid(heads, rows)) : h("p", {}, t("no_history")));
  } catch (err) {
    fill(out, h("p", { className: "error" }, errorText(err)));
  }
}
