// Words and language: everything the page shows comes from /api/setup or a board.

const LANG_KEY = "ss.lang";
export const setup = { words: {}, variants: [], levels: [], phrases: {}, lang: "en" };

/** The person's language: remembered, else the browser's (Turkish or English). */
export function chosenLang() {
  const kept = localStorage.getItem(LANG_KEY);
  if (kept === "tr" || kept === "en") return kept;
  return (navigator.language || "").toLowerCase().startsWith("tr") ? "tr" : "en";
}

export function rememberLang(lang) {
  localStorage.setItem(LANG_KEY, lang);
}

/** Loads the setup (words, variants, levels, phrases) for a language. */
export async function loadSetup(lang) {
  const answer = await fetch(`/api/setup?lang=${encodeURIComponent(lang)}`);
  if (!answer.ok) throw new Error(`setup: HTTP ${answer.status}`);
  Object.assign(setup, await answer.json());
  document.documentElement.lang = setup.lang;
  return setup;
}

/** A word by key with {name} placeholders filled; the key itself if missing. */
export function t(key, params = {}) {
  const text = setup.words[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
}

/** A quick phrase's words, or null for an id this page does not know. */
export function phrase(id) {
  return Object.hasOwn(setup.phrases, id) ? setup.phrases[id] : null;
}

/** A level's label ("@hard" -> "@zor"), or the spec itself. */
export function levelLabel(spec) {
  const found = setup.levels.find((l) => l.spec === spec);
  return found ? found.label : spec;
}
