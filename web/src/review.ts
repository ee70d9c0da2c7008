// Game review: step through every position of a game with its move list.
import { api, type Analysis } from "./api.js";
import { rendererFor } from "./boards/index.js";
import { h, toast } from "./ui.js";
import { SVG_NS } from "./svg.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { gameName, plyText, sideName } from "./gametext.js";

// `current` says whether this page is still the one to show once the server has answered.
export async function reviewPage(root: HTMLElement, id: string, current: () => boolean = () => true): Promise<() => void> {
  let data, game;
  try {
    [data, game] = await Promise.all([api.review(id), api.game(id)]);
  } catch (e) {
    if (!current()) return () => {};
    toast((e as Error).message);
    root.replaceChildren(h("p", {}, (e as Error).message));
    return () => {};
  }
  if (!current()) return () => {};
  const renderer = rendererFor(game.family);
  const svg = document.createElementNS(SVG_NS, "svg") as SVGSVGElement;
  svg.setAttribute("id", "board");
  const moves = h("ol", { class: "moves", id: "review-moves" });
  const where = h("span", { id: "review-ply" });
  // Where an endgame database holds the position: won, drawn or lost with perfect play.
  const verdict = h("p", { id: "review-analysis", class: "help" });
  const known = new Map<number, Analysis>();
  const analyse = async (at: number) => {
    if (!known.has(at)) known.set(at, await api.analysis(id, at).catch(() => ({ known: false })));
    if (at !== k) return;  // the user moved on meanwhile
    const a = known.get(at)!;
    let text = "";
    if (a.known && a.result) {
      text = t(`analysis.${a.result}`, { side: sideName(a.to_move ?? "south") });
      if (a.exact && a.best_move) text += t("analysis.detail", { m: a.margin_low ?? 0, move: a.best_move });
    }
    verdict.textContent = text;
  };
  let k = data.boards.length - 1;
  const draw = () => {
    const last = k > 0 ? [...data.plies.slice(0, k)].reverse().find((p) => p.side !== "*") ?? null : null;
    renderer.draw(svg, data.boards[k], { you: game.you, legal: [], last, play: () => false });
    where.textContent = t("history.at", { k, n: data.plies.length });
    moves.querySelectorAll("li").forEach((li, i) => li.classList.toggle("current", i === k - 1));
    verdict.textContent = "";
    void analyse(k);
  };
  data.plies.forEach((p, i) => {
    const b = h("button", { onclick: () => { k = i + 1; draw(); } }, `${p.side === "*" ? "" : sideName(p.side === "S" ? "south" : "north")} ${plyText(p)}`);
    moves.append(h("li", {}, b));
  });
  const go = (to: number) => { k = Math.max(0, Math.min(data.boards.length - 1, to)); draw(); };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "ArrowLeft") go(k - 1);
    if (e.key === "ArrowRight") go(k + 1);
    if (e.key === "Home") go(0);
    if (e.key === "End") go(data.boards.length - 1);
  };
  document.addEventListener("keydown", onKey);
  root.replaceChildren(h("h1", {}, t("review.title", { game: gameName(game.variant, game.title) })), h("div", { class: "game-layout" },
    h("section", {}, h("div", { class: "board-wrap" }, svg),
      h("div", { class: "controls" }, h("button", { class: "icon-button", onclick: () => go(0), "aria-label": t("history.first") }, icon("first")),
        h("button", { class: "icon-button", onclick: () => go(k - 1), "aria-label": t("history.prev"), id: "prev" }, icon("prev")),
        h("button", { class: "icon-button", onclick: () => go(k + 1), "aria-label": t("history.next"), id: "next" }, icon("next")),
        h("button", { class: "icon-button", onclick: () => go(data.boards.length - 1), "aria-label": t("history.last") }, icon("last")), where), verdict),
    h("aside", {}, h("a", { href: `#/game/${id}` }, t("history.back")), " · ",
      h("a", { href: `/api/games/${id}/record`, download: `naqala-${id}.txt` }, t("record.download")), h("h2", {}, t("moves")), moves)));
  draw();
  return () => document.removeEventListener("keydown", onKey);
}
