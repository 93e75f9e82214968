// The page's entry: language, name and token, then the lobby (/) or a table (/t/ID).

import { h, fill, $ } from "./dom.js";
import { t, chosenLang, rememberLang, loadSetup } from "./i18n.js";
import { lobby } from "./lobby.js";
import { Seat } from "./net.js";
import { TableView } from "./table.js";
import { open, closer } from "./dialogs.js";

const NAME_KEY = "ss.name";
const tokenKey = (name) => `ss.token.${name}`;

const state = (s) => (document.body.dataset.state = s);
const myName = () => localStorage.getItem(NAME_KEY);

async function main() {
  const lang = chosenLang();
  await loadSetup(lang);
  document.title = t("app");
  drawHeader(lang);
  const m = location.pathname.match(/^\/t\/([\w-]{1,40})$/);
  if (m) await table(decodeURIComponent(m[1]));
  else {
    state("lobby");
    lobby($("#main"), myName, askName);
  }
}

// ---------------------------------------------------------------- header

function drawHeader(lang) {
  $("#skip").textContent = t("skip");
  const select = h("select", { id: "lang-select" },
    h("option", { value: "en", lang: "en" }, "English"),
    h("option", { value: "tr", lang: "tr" }, "Türkçe"));
  select.value = lang;
  select.addEventListener("change", () => {
    rememberLang(select.value);
    location.reload(); // the board's words come from the server in the join's language
  });
  fill(
    $("#top"),
    h("a", { id: "home", href: "/" }, t("app")),
    h("nav", { "aria-label": t("lobby") }, h("a", { href: "/" }, t("lobby"))),
    h("div", { className: "lang" }, h("label", { for: "lang-select" }, t("language")), select),
    h("div", { id: "who" }),
    h("p", { id: "conn", role: "status" }),
  );
  drawWho();
}

function drawWho() {
  const name = myName();
  fill(
    $("#who"),
    name ? h("span", { id: "playing-as" }, t("playing_as", { name })) : null,
    h("button", { type: "button", id: "name-btn", onclick: () => askName().then((n) => n && location.reload()) }, name ? t("change_name") : t("save_name")),
  );
}

/** Asks for a name (length checked here; the server says the rest). Resolves null on cancel. */
function askName(problem = "") {
  return new Promise((resolve) => {
    const input = h("input", { id: "name-input", type: "text", minlength: 1, maxlength: 32, required: true, autocomplete: "nickname", value: myName() || "", "aria-describedby": "name-help" });
    const form = h("form", { method: "dialog", id: "name-form" },
      problem ? h("p", { className: "error", role: "alert" }, problem) : null,
      h("label", { for: "name-input" }, t("your_name")), input, h("small", { id: "name-help" }, t("name_help")));
    let chosen = null;
    const save = h("button", { type: "button", className: "primary", onclick: () => {
      const name = input.value.trim();
      if (name.length < 1 || name.length > 32) return input.reportValidity();
      chosen = name;
      localStorage.setItem(NAME_KEY, name);
      save.closest("dialog").close("ok");
    } }, t("save_name"));
    form.addEventListener("submit", (e) => { e.preventDefault(); save.click(); });
    open("name-dialog", t("your_name"), form, [closer(t("cancel"), "cancel"), save], () => { drawWho(); resolve(chosen); });
    input.focus();
  });
}

// ---------------------------------------------------------------- the table

async function table(id) {
  if (!myName() && !(await askName())) return location.assign("/");
  state("connecting");
  const conn = $("#conn");
  conn.textContent = t("connecting");
  let view = null;
  const seat = new Seat(
    () => ({ table: id, name: myName(), token: localStorage.getItem(tokenKey(myName())), lang: document.documentElement.lang }),
    {
      onMessage: (m) => {
        if (m.type === "welcome" && m.token) localStorage.setItem(tokenKey(m.name), m.token);
        if (m.type === "board") {
          state("table");
          conn.textContent = "";
        }
        if (m.type === "error" && !view.board && ["token", "name_taken"].includes(m.code)) return nameRefused(m);
        view.message(m);
      },
      onState: (s, final) => {
        if (s === "closed") return closed(final, seat);
        state(s);
        conn.textContent = t(s);
      },
    },
  );
  view = new TableView($("#main"), id, seat);
  seat.start();
}

function nameRefused(m) {
  const text = m.code === "token" ? t("token_lost") : t("error", { message: m.message });
  askName(text).then((n) => n && location.reload());
}

function closed(final, seat) {
  state("closed");
  const conn = $("#conn");
  if (seat.leaving) conn.textContent = "";
  else if (final) conn.textContent = t(final.code) !== final.code ? t(final.code) : t("error", { message: final.message });
  else conn.textContent = t("connection_gone");
  conn.append(" ", h("a", { href: "/" }, t("to_lobby")));
}

main().catch((err) => {
  console.error(err);
  document.body.dataset.state = "error";
});
