// The lobby's leaderboard: the best rated players of one game (Glicko-2, one rating per game),
// each linked to his player page; the computer levels' measured ratings beside them.
import { VariantInfo, api } from "./api.js";
import { h } from "./ui.js";
import { t } from "./i18n.js";
import { variantSelect } from "./formparts.js";

export function leaderboard(variants: VariantInfo[]) {
  const game = variantSelect(variants, "ratings-game", "kalah");
  const table = h("div", { id: "leaderboard" });
  const show = async () => {
    const v = variants.find((x) => x.name === game.value);
    let players: Awaited<ReturnType<typeof api.leaderboard>>["players"] = [];
    try { players = (await api.leaderboard(game.value)).players; } catch { /* shown as none */ }
    const rows = players.map((p) => h("tr", { class: p.provisional ? "provisional" : "" }, h("td", {}, String(p.rank)),
      h("td", { class: "name" }, h("a", { href: `#/player/${p.player}` }, p.name)),
      h("td", { class: "pts", title: t("ratings.deviation", { n: Math.round(p.deviation) }) }, `${Math.round(p.rating)}${p.provisional ? "?" : ""}`),
      h("td", {}, String(p.games))));
    const levels = v?.levels ?? [];
    table.replaceChildren(
      rows.length ? h("table", { class: "standings" }, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { class: "name" }, t("tour.player")),
        h("th", {}, t("ratings.rating")), h("th", {}, t("tour.games")))), h("tbody", {}, ...rows))
        : h("p", { class: "help" }, t("ratings.none")),
      levels.length ? h("p", { class: "help", id: "level-ratings" }, t("ratings.levels"), " ",
        levels.map((l) => `${l.level}: ${l.rating}`).join(" · ")) : "");
  };
  game.addEventListener("change", () => void show());
  void show();
  const element = h("div", { class: "leaderboard" },
    h("div", { class: "section-head" }, h("h2", {}, t("ratings.title")), h("label", { class: "inline" }, h("span", { class: "sr-only" }, t("lobby.variant")), game)),
    table, h("p", { class: "help" }, t("ratings.help")));
  return { element };
}
