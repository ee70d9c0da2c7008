// Game review: step through every position of a game with its move list.
import { api, type Analysis, type BgDecision, type BgReview } from "./api.js";
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
  // Backgammon: every decision judged by the computer, the rates per player, marks in the list.
  let bg: BgReview | null = null;
  const bgByPly = new Map<number, BgDecision>();
  const rates = h("div", { id: "review-rates" });
  const analyse = async (at: number) => {
    if (game.family === "backgammon") { verdict.textContent = bgText(bgByPly.get(at)); return; }
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
  if (game.family === "backgammon") {
    try { bg = await api.decisions(id); } catch (e) { toast((e as Error).message); }
    if (!current()) return () => {};
    for (const d of bg?.decisions ?? []) bgByPly.set(d.ply, d);
    if (bg) rates.replaceChildren(ratesTable(bg));
  }
  data.plies.forEach((p, i) => {
    const d = bgByPly.get(i + 1);
    const b = h("button", { onclick: () => { k = i + 1; draw(); }, title: d ? bgText(d) : "" },
      `${p.side === "*" ? "" : sideName(p.side === "S" ? "south" : "north")} ${plyText(p)}`, d?.mark ? h("span", { class: `mark ${markClass(d.mark)}` }, ` ${d.mark}`) : "");
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
      h("a", { href: `/api/games/${id}/record`, download: `naqala-${id}.txt` }, t("record.download")), rates, h("h2", {}, t("moves")), moves)));
  draw();
  return () => document.removeEventListener("keydown", onKey);
}

const pct = (x: number) => (100 * x).toFixed(1);
const markClass = (mark: string) => (mark === "??" ? "blunder" : mark === "?" ? "bad" : "doubtful");
const bgAction = (m: string) => (["roll", "double", "take", "drop"].includes(m) ? t(`bg.${m}`) : m);

// What the computer says of the decision that led to a position: the play, the best one, the
// equity it lost with gnubg's mark, and the chances after the best play (or before the roll).
function bgText(d: BgDecision | undefined): string {
  if (!d) return "";
  const p = d.probabilities;
  const lost = d.loss < 0.0005 ? t("review.bestPlay") : t("review.loses", { loss: d.loss.toFixed(3), mark: d.mark });
  const odds = { win: pct(p[0]), gammon: pct(p[1]), loseGammon: pct(p[3]), side: sideName(d.on_roll) };
  const chances = d.kind === "checker" ? t("review.chances", odds) : t("review.chancesRoll", odds);
  return `${t("review.played", { move: bgAction(d.played) })} · ${t("review.best", { move: bgAction(d.best) })} · ${lost}. ${chances}`;
}

// Each player's error rates, in thousandths of a point per decision as gnubg gives them.
function ratesTable(r: BgReview): HTMLElement {
  const row = (p: BgReview["players"][number]) => h("tr", { "data-side": p.side },
    h("th", { scope: "row" }, sideName(p.side)),
    h("td", {}, t("review.rate", { rate: p.checker_error_rate.toFixed(1), n: p.checker_decisions })),
    h("td", {}, t("review.rate", { rate: p.cube_error_rate.toFixed(1), n: p.cube_decisions })),
    h("td", {}, String(p.blunders)));
  return h("div", {}, h("h2", {}, t("review.rates")),
    h("table", { class: "rates" }, h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, t("review.checker")),
      h("th", { scope: "col" }, t("review.cube")), h("th", { scope: "col" }, t("review.blunders")))),
      h("tbody", {}, ...r.players.map(row))),
    h("p", { class: "small" }, t("review.judge")));
}
