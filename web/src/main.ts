// The app: a player name kept in this browser, then routes #/ (lobby), #/game/ID, #/review/ID,
// #/tournament/ID, #/tournaments/new and #/player/ID.
// The header carries the language, the settings and the state of the connection.
import { Live, api, player, savePlayer } from "./api.js";
import { gamePage } from "./game.js";
import { lobbyPage } from "./lobby.js";
import { reviewPage } from "./review.js";
import { tournamentPage } from "./tournament.js";
import { newTournamentPage } from "./tournamentnew.js";
import { playerPage } from "./player.js";
import { followEnteredTournaments } from "./tournamentcall.js";
import { h, toast } from "./ui.js";
import { LANGUAGES, chooseLanguage, language, loadLanguage, t } from "./i18n.js";
import { Settings, applyBoardStyle, saveSetting, settings } from "./settings.js";
import { icon } from "./icons.js";
import { unlockAudio } from "./sound.js";

const root = document.getElementById("app")!;
let live: Live | null = null;
let cleanup: () => void = () => {};

function select<K extends keyof Settings>(id: string, key: K, options: [Settings[K], string][]) {
  const s = h("select", { id, onchange: (e: Event) => saveSetting(key, (e.target as HTMLSelectElement).value as Settings[K]) },
    ...options.map(([v, label]) => h("option", { value: String(v), selected: settings()[key] === v }, label)));
  return s;
}
function check(id: string, key: "sound" | "confirm") {
  return h("input", { type: "checkbox", id, checked: settings()[key],
    onchange: (e: Event) => { saveSetting(key, (e.target as HTMLInputElement).checked); if (key === "sound") unlockAudio(); } });
}

function header() {
  const me = player();
  const lang = h("select", { id: "language", "aria-label": t("language"),
    onchange: async (e: Event) => { await chooseLanguage((e.target as HTMLSelectElement).value); header(); void route(); } },
    ...Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language() }, name)));
  const panel = h("details", { class: "settings", id: "settings" },
    h("summary", { "aria-label": t("settings") }, icon("settings"), h("span", { class: "wide-only" }, t("settings"))),
    h("div", { class: "settings-panel" },
      h("label", {}, t("settings.animation"), " ", select("set-animation", "animation",
        [["normal", t("settings.animation.normal")], ["fast", t("settings.animation.fast")], ["off", t("settings.animation.off")]])),
      h("label", {}, check("set-sound", "sound"), " ", t("settings.sound")),
      h("label", {}, t("settings.board"), " ", select("set-board", "board",
        [["wood", t("settings.board.wood")], ["dark", t("settings.board.dark")], ["contrast", t("settings.board.contrast")]])),
      h("label", {}, check("set-confirm", "confirm"), " ", t("settings.confirm")),
      h("label", {}, t("language"), " ", lang)));
  document.getElementById("header-tools")!.replaceChildren(
    me ? h("a", { id: "me", href: `#/player/${me.id}`, title: t("player.mine"), "aria-live": "polite" }, t("playingAs", { name: me.name }))
      : h("span", { id: "me" }), panel);
  document.querySelector<HTMLAnchorElement>("header .brand")!.title = t("lobby");
}

function connectionBanner(l: Live) {
  const bar = document.getElementById("connection")!;
  l.onState((state) => {
    bar.hidden = state !== "offline";
    bar.replaceChildren(icon("offline"), h("span", {}, t("conn.lost")),
      h("button", { id: "reconnect", onclick: () => l.reconnect() }, t("conn.retry")));
    document.body.classList.toggle("offline", state === "offline");
  });
}

// A name is enough to play; a password (optional) makes an account, so that the player can sign
// in from another browser, where "I have an account" does it.
function namePage(): Promise<void> {
  return new Promise((resolve) => {
    const input = h("input", { id: "name", required: true, maxlength: 40, autocomplete: "nickname" });
    const password = h("input", { id: "new-password", type: "password", minlength: 8, maxlength: 128, autocomplete: "new-password" });
    const form = h("form", { class: "welcome" }, h("h1", {}, t("welcome.title")),
      h("p", {}, t("welcome.text")),
      h("label", {}, t("welcome.name"), " ", input),
      h("label", {}, t("welcome.password"), " ", password, h("span", { class: "help" }, ` ${t("welcome.passwordHelp")}`)),
      h("button", { class: "primary", type: "submit" }, t("welcome.go")));
    const signName = h("input", { id: "signin-name", required: true, maxlength: 40, autocomplete: "username" });
    const signPassword = h("input", { id: "signin-password", type: "password", required: true, autocomplete: "current-password" });
    const signIn = h("details", { class: "signin", id: "signin" }, h("summary", {}, t("welcome.haveAccount")),
      h("form", {}, h("label", {}, t("welcome.name"), " ", signName), h("label", {}, t("welcome.passwordShort"), " ", signPassword),
        h("button", { class: "primary", type: "submit", id: "signin-go" }, t("welcome.signIn"))));
    const done = (p: Awaited<ReturnType<typeof api.signIn>>) => { savePlayer(p); resolve(); };
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try { done(await api.createPlayer(input.value, password.value || undefined)); } catch (err) { toast((err as Error).message); }
    });
    signIn.querySelector("form")!.addEventListener("submit", async (e) => {
      e.preventDefault();
      try { done(await api.signIn(signName.value, signPassword.value)); } catch (err) { toast((err as Error).message); }
    });
    root.replaceChildren(h("div", { class: "welcome-box" }, form, signIn));
    input.focus();
  });
}

// Routes overlap: a page that waits for the server (the lobby's lists, a review) can still be
// loading when the player follows a link, changes the language or the hash changes again. Only
// the latest route may show its page; an older one that finishes late is dropped (its page is
// never drawn over the current one, and what it set up is cleaned up at once).
let routesStarted = 0;
let routesSettled = 0;
// How many routes have finished (drawn or dropped): tests wait on it instead of on time.
const settled = () => { root.dataset.routesSettled = String(++routesSettled); };

async function route() {
  const seq = ++routesStarted;
  const current = () => seq === routesStarted;
  cleanup();
  cleanup = () => {};
  if (!player()) await namePage();
  if (!current()) return settled();
  header();
  if (!live) { live = new Live(); connectionBanner(live); followEnteredTournaments(live); }
  const hash = location.hash || "#/";
  const game = hash.match(/^#\/game\/([A-Za-z0-9]+)$/);
  const review = hash.match(/^#\/review\/([A-Za-z0-9]+)$/);
  const tournament = hash.match(/^#\/tournament\/([A-Za-z0-9]+)$/);
  const someone = hash.match(/^#\/player\/(\d+)$/);
  let done: () => void = () => {};
  try {
    if (game) done = gamePage(root, game[1], live);
    else if (review) done = await reviewPage(root, review[1], current);
    else if (tournament) done = tournamentPage(root, tournament[1], live);
    else if (hash === "#/tournaments/new") done = await newTournamentPage(root, current);
    else if (someone) done = await playerPage(root, someone[1], current);
    else done = await lobbyPage(root, current);
  } catch (e) {
    if (current()) root.replaceChildren(h("p", {}, t("error.page", { message: (e as Error).message })));
  }
  if (current()) {
    cleanup = done;
    root.focus();
  } else {
    done();
  }
  settled();
}

applyBoardStyle();
window.addEventListener("hashchange", route);
void loadLanguage().then(() => { header(); return route(); });
