// The app's texts, one JSON file per language under i18n/ (keys to strings, or to plural forms
// chosen with Intl.PluralRules). The language is the one the player chose, else the browser's.
export const LANGUAGES: Record<string, string> = { en: "English", pt: "Português", es: "Español", ru: "Русский" };
const KEY = "naqala.lang";

type Entry = string | Record<string, string>;
let current = "en";
let texts: Record<string, Entry> = {};
let english: Record<string, Entry> = {};

export function language(): string { return current; }

// The language to use: the saved choice, else the first of the browser's that we speak.
export function preferredLanguage(): string {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in LANGUAGES) return saved;
  for (const l of navigator.languages ?? [navigator.language]) {
    const base = l.toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

async function fetchTexts(lang: string): Promise<Record<string, Entry>> {
  const res = await fetch(`i18n/${lang}.json`);
  if (!res.ok) throw new Error(`i18n/${lang}.json: the server answered ${res.status}`);
  return res.json();
}

export async function loadLanguage(lang = preferredLanguage()): Promise<void> {
  if (!Object.keys(english).length) english = await fetchTexts("en");
  texts = lang === "en" ? english : await fetchTexts(lang);
  current = lang;
  document.documentElement.lang = lang;
}

export async function chooseLanguage(lang: string): Promise<void> {
  localStorage.setItem(KEY, lang);
  await loadLanguage(lang);
}

// t("seeds", {n: 3}) -> "3 seeds": {name} placeholders; a count `n` picks the plural form.
export function t(key: string, vars: Record<string, string | number> = {}): string {
  const entry = texts[key] ?? english[key];
  let s: string;
  if (entry === undefined) s = key;
  else if (typeof entry === "string") s = entry;
  else {
    const form = typeof vars.n === "number" ? new Intl.PluralRules(current).select(vars.n) : "other";
    s = entry[form] ?? entry.other ?? Object.values(entry)[0];
  }
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

// Whether a text exists (game names and summaries fall back to the server's English).
export function has(key: string): boolean { return key in texts || key in english; }
