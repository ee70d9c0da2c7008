// A player's page (#/player/ID): his ratings (Glicko-2, one per game), their history game by
// game, and his latest games with their results.
import { api, forgetPlayer, player, savePlayer } from "./api.js";
import { h, toast } from "./ui.js";
import { t } from "./i18n.js";
import { gameName } from "./gametext.js";

// Times are milliseconds since 1970 (UTC), shown in the browser's own calendar.
const day = (ms: number) => new Date(ms).toLocaleDateString();

// One's own page: a password makes the player an account (he can sign in from another
// browser), or changes it.
function accountBox(): HTMLElement {
  const me = player()!;
  const current = h("input", { type: "password", id: "current-password", autocomplete: "current-password", required: true });
  const password = h("input", { type: "password", id: "account-password", minlength: 8, maxlength: 128, autocomplete: "new-password", required: true });
  const save = h("button", { class: "primary", type: "submit", id: "account-save" }, me.account ? t("account.change") : t("account.set"));
  const form = h("form", { class: "account" },
    h("p", { class: "help" }, me.account ? t("account.has", { name: me.name }) : t("account.none")),
    me.account ? h("label", {}, `${t("account.current")} `, current) : "",
    h("label", {}, `${me.account ? t("account.new") : t("welcome.passwordShort")} `, password, h("span", { class: "help" }, ` ${t("account.length")}`)), save);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    save.disabled = true;
    try {
      const answer = await api.setPassword(password.value, me.account ? current.value : undefined);
      savePlayer({ ...me, name: answer.name ?? me.name, account: true });
      toast(t("account.saved"));
      box.replaceWith(accountBox());
    } catch (err) {
      toast((err as Error).message);
    } finally {
      save.disabled = false;
    }
  });
  const box = h("details", { class: "panel account-box", id: "account" }, h("summary", {}, me.account ? t("account.titleHas") : t("account.title")), form,
    me.account ? signOutBox() : "");
  return box;
}

// With a password, a player may sign this browser out, or every other one (a lost phone).
function signOutBox(): HTMLElement {
  const here = h("button", { type: "button", id: "signout-here" }, t("account.signOut"));
  const others = h("button", { type: "button", id: "signout-others" }, t("account.signOutOthers"));
  here.addEventListener("click", async () => {
    try {
      await api.signOut(false);
      forgetPlayer();
      location.hash = "#/";
      location.reload();
    } catch (err) {
      toast((err as Error).message);
    }
  });
  others.addEventListener("click", async () => {
    try {
      const answer = await api.signOut(true);
      toast(t("account.signedOutOthers", { n: answer.signed_out }));
    } catch (err) {
      toast((err as Error).message);
    }
  });
  return h("p", { class: "signout" }, here, " ", others);
}

export async function playerPage(root: HTMLElement, id: string, current: () => boolean): Promise<() => void> {
  const p = await api.playerPage(id);
  if (!current()) return () => {};
  const game = (name: string) => gameName(name, name);
  const ratings = p.ratings.length
    ? h("div", { class: "rating-cards", id: "p-ratings" }, ...p.ratings.map((r) => h("div", { class: "rating-card", "data-game": r.game },
      h("div", { class: "help" }, game(r.game)), h("div", { class: "rating" }, `${Math.round(r.rating)}${r.provisional ? "?" : ""}`),
      h("div", { class: "help" }, t("ratings.card", { deviation: Math.round(r.deviation), n: r.games })))))
    : h("p", { class: "help", id: "p-ratings" }, t("player.noRatings"));
  const history = p.history.length
    ? h("div", { class: "table-scroll" }, h("table", { class: "standings", id: "p-history" },
      h("thead", {}, h("tr", {}, h("th", {}, t("player.when")), h("th", {}, t("lobby.variant")), h("th", { class: "name" }, t("player.opponent")),
        h("th", {}, t("player.result")), h("th", {}, t("ratings.rating")))),
      h("tbody", {}, ...p.history.map((x) => {
        const change = Math.round(x.after) - Math.round(x.before);
        return h("tr", {}, h("td", {}, h("a", { href: `#/game/${x.game_id}` }, day(x.at))), h("td", {}, game(x.game)),
          h("td", { class: "name" }, h("a", { href: `#/player/${x.opponent_id}` }, x.opponent)),
          h("td", {}, t(x.score === 1 ? "player.win" : x.score === 0 ? "player.loss" : "player.draw")),
          h("td", { class: "pts" }, `${Math.round(x.after)} `, h("span", { class: change >= 0 ? "up" : "down" }, `(${change >= 0 ? "+" : "−"}${Math.abs(change)})`)));
      }))))
    : h("p", { class: "help" }, t("player.noHistory"));
  const games = p.games.length
    ? h("ul", { class: "games-list", id: "p-games" }, ...p.games.map((g) => h("li", {},
      h("a", { class: "button", href: `#/game/${g.id}` }, g.status === "over" ? t("player.review") : t("lobby.watch")),
      ` ${gameName(g.variant, g.variant.split(":")[0])}: ${t("player.against", { name: g.opponent })}`,
      g.result ? h("span", { class: `result-${g.result}` }, ` · ${t(`player.${g.result}`)}`) : h("span", { class: "help" }, ` · ${t(`player.status.${g.status}`)}`),
      g.rated ? h("span", { class: "help" }, ` · ${t("tour.rated")}`) : "")))
    : h("p", { class: "help" }, t("player.noGames"));
  root.replaceChildren(h("div", { class: "player-page" }, h("h1", {}, p.name),
    h("section", { class: "panel" }, h("h2", {}, t("ratings.title")), ratings, h("p", { class: "help" }, t("ratings.help"))),
    h("div", { class: "grid" },
      h("section", { class: "panel" }, h("h2", {}, t("player.history")), history),
      h("section", { class: "panel" }, h("h2", {}, t("player.games")), games)),
    player()?.id === p.id ? accountBox() : ""));
  return () => {};
}
