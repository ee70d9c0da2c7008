// The sowing family (Kalah, Oware, Toguz, Congklak, Gabata, ...): board_json {"rows": [[south
// pits], [north pits]], "stores": [s, n], "stores_sown", "direction": "ccw"|"cw", "pits",
// "to_move", and for the general engine "middle_row" (Gabata), "tuz_pits" and "burnt" (pit
// names such as "N5"), "owners", "phase"}. Pits are numbered from their owner's left; the
// viewer's row is drawn at the bottom. A move "k" sows the mover's pit k: his own row first,
// then (Gabata) his half of the middle row, or (Nam-Nam) pits won in the opponent's row.
import { BoardContext, BoardRenderer, clear, playLaps, sleep, seedStep, turnUpright } from "./board.js";
import { adjustable, clickable, el, seeds, text } from "../svg.js";
import { adjust, draftCount, SetupPlan, setupPanel } from "./setup.js";
import { h, toast } from "../ui.js";
import { sowClick } from "../sound.js";
import { t } from "../i18n.js";

const PIT = 84, R = 33, ROW_H = 96, TOP = 34;
const SIMPLE = /^g?(\d+)t?$/;  // a sowing from pit N (g: a gift, t: declaring a tuz)
const SETUP = /^([SN]?)(\d+)=(\d+)$/;

// p: 0 south, 1 north, 2 Gabata's middle row (i: column from South's left).
interface Hole { kind: "pit" | "store"; side: number; i: number }

function layout(board: any, ctx: BoardContext) {
  const pits: number = board.pits;
  const middle: number[] | undefined = board.middle_row;
  const rowCount = middle ? 3 : 2;
  const bottom = ctx.you === "north" ? 1 : 0;  // player index drawn at the bottom
  const width = (pits + 2) * PIT;
  const height = TOP * 2 + ROW_H * rowCount;
  const pitXY = (p: number, i: number): [number, number] => {
    if (p === 2) return [PIT * ((bottom === 0 ? i : pits - 1 - i) + 1) + PIT / 2, TOP + ROW_H * 1.5];
    const atBottom = p === bottom;
    const col = atBottom ? i : pits - 1 - i;
    return [PIT * (col + 1) + PIT / 2, TOP + ROW_H * (atBottom ? rowCount - 1 : 0) + ROW_H / 2];
  };
  // A store is where its owner's sowing leaves his row: on his right when sowing runs
  // counter-clockwise, on his left when it runs clockwise (Congklak).
  const rightOfBottom = board.direction !== "cw";
  const storeX = (p: number) => ((p === bottom) === rightOfBottom ? width - PIT / 2 : PIT / 2);
  return { pits, bottom, width, height, pitXY, storeX, middle };
}

const pitName = (p: number, i: number) => `${p === 0 ? "S" : p === 1 ? "N" : "M"}${i + 1}`;

// "S3", "N1", "M4", "store:S" -> the hole it names.
function holeOf(name: string): Hole {
  if (name.startsWith("store:")) return { kind: "store", side: name.endsWith("S") ? 0 : 1, i: 0 };
  return { kind: "pit", side: "SNM".indexOf(name[0]), i: Number(name.slice(1)) - 1 };
}

// The pit that the mover's pit number k (1-based) names.
function labelPit(board: any, mover: number, k: number): Hole {
  const pits: number = board.pits;
  if (k <= pits) return { kind: "pit", side: mover, i: k - 1 };
  if (board.middle_row) {  // South: middle columns 6, 5, 4; North: 1, 2, 3 (from South's left)
    const j = k - pits - 1;
    return { kind: "pit", side: 2, i: mover === 0 ? pits - 1 - j : j };
  }
  return { kind: "pit", side: 1 - mover, i: k - pits - 1 };
}

const same = (a: Hole, b: Hole) => a.kind === b.kind && a.side === b.side && a.i === b.i;

// The layout still to make, read from the legal setup moves ("S3=2".."S3=86"; mirrored
// layouts "3=0".."3=36" fill pit 3 of both rows).
function setupPlan(board: any, legal: string[]): (SetupPlan & { mirror: boolean }) | null {
  const parsed = legal.map((m) => SETUP.exec(m)).filter((m): m is RegExpExecArray => m !== null);
  if (board.phase !== "setup" || !parsed.length) return null;
  const pits: number = board.pits;
  const mirror = parsed[0][1] === "";
  const at = mirror ? Number(parsed[0][2]) - 1 : (parsed[0][1] === "N" ? pits : 0) + Number(parsed[0][2]) - 1;
  const counts = parsed.map((m) => Number(m[3]));
  const lo = Math.min(...counts), hi = Math.max(...counts);
  const slotCount = (mirror ? pits : 2 * pits) - at;
  const slots = Array.from({ length: slotCount }, (_, k) => pitName(mirror || at + k < pits ? 0 : 1, (at + k) % pits));
  const total = slotCount === 1 ? lo : hi + lo * (slotCount - 1);
  const move = (k: number, c: number) => mirror ? `${at + k + 1}=${c}` : `${slots[k]}=${c}`;
  return { slots, min: slotCount === 1 ? 0 : lo, total, autoLast: false, move, mirror };
}

function claimCount(legal: string[]): number {
  const c = legal.find((m) => m.startsWith("claim:"));
  return c ? c.slice(6).split("+").length : 0;
}
let claimed: { key: string; pits: number[] } | null = null;
function claimDraft(ctx: BoardContext, board: any) {
  const key = `${ctx.game}:${board.position}`;
  if (!claimed || claimed.key !== key) claimed = { key, pits: [] };
  return claimed;
}

function drawCounts(svg: SVGSVGElement, board: any, ctx: BoardContext, active: Hole | null): void {
  clear(svg);
  const L = layout(board, ctx);
  svg.setAttribute("viewBox", `0 0 ${L.width} ${L.height}`);
  el("rect", { x: 2, y: 2, width: L.width - 4, height: L.height - 4, rx: 26, fill: "var(--wood)", stroke: "var(--wood-dark)", "stroke-width": 4 }, svg);
  const mover = (ctx.side ?? board.to_move) === "north" ? 1 : 0;
  const lastMatch = ctx.last && ctx.last.side !== "*" ? SIMPLE.exec(ctx.last.text) : null;
  const lastSide = ctx.last?.side === "N" ? 1 : 0;
  const lastHole = lastMatch ? labelPit(board, lastSide, Number(lastMatch[1])) : null;
  const tuz = new Set<string>(Array.isArray(board.tuz_pits) ? board.tuz_pits : []);
  const burnt = new Set<string>(Array.isArray(board.burnt) ? board.burnt : []);
  const plan = setupPlan(board, ctx.legal);
  const pie = board.phase === "pie" && ctx.legal.includes("swap");
  const claims = board.phase === "claim" ? claimCount(ctx.legal) : 0;

  for (const p of [0, 1]) {
    const x = L.storeX(p), hgt = L.height - 2 * TOP;
    const g = el("g", { class: "store", "data-store": p === 0 ? "south" : "north" }, svg);
    const isActive = active?.kind === "store" && active.side === p;
    el("rect", { x: x - PIT * 0.36, y: TOP, width: PIT * 0.72, height: hgt, rx: PIT * 0.36, fill: isActive ? "#8f5e30" : board.stores_sown ? "var(--pit)" : "#9b6b3f", class: "hole" }, g);
    seeds(x, TOP + hgt / 2, PIT * 0.34, board.stores[p], g, 30);
    text(x, TOP + hgt / 2, String(board.stores[p]), "count", g);
    text(x, p === L.bottom ? L.height - TOP / 2 : TOP / 2, p === 0 ? t("side.south") : t("side.north"), "label side-label", svg);
  }
  const rows: number[][] = [board.rows[0], board.rows[1]];
  if (L.middle) rows.push(L.middle);
  const say = (m: string) => toast(m);
  rows.forEach((row, p) => {
    row.forEach((stored, i) => {
      const [x, y] = L.pitXY(p, i);
      const name = pitName(p, i);
      const here: Hole = { kind: "pit", side: p, i };
      // A layout being composed shows the draft (mirrored layouts on both rows).
      const slot = plan && plan.mirror ? pitName(0, i) : name;
      const drafted = plan && p < 2 ? draftCount(plan, ctx, slot) : null;
      const count = drafted ?? stored;
      const moves = ctx.legal.filter((m) => { const k = SIMPLE.exec(m); return k !== null && same(labelPit(board, mover, Number(k[1])), here); });
      const cls = ["pit"];
      if (moves.length) cls.push("legal");
      if (lastHole && same(lastHole, here)) cls.push("last");
      const isClaimed = claims > 0 && p === 1 - mover && claimDraft(ctx, board).pits.includes(i + 1);
      if (isClaimed) cls.push("claimed");
      const g = el("g", { class: cls.join(" "), "data-side": ["south", "north", "middle"][p], "data-pit": i + 1, "data-name": name }, svg);
      const isActive = active && same(active, here);
      el("circle", { cx: x, cy: y, r: R, fill: isActive ? "#8f5e30" : "var(--pit)", class: "hole" }, g);
      seeds(x, y, R, count, g);
      text(x, y, String(count), "count", g);
      if (tuz.has(name)) {  // a tuz (Toguz): its seeds go to the player who declared it
        el("circle", { cx: x + R * 0.75, cy: y - R * 0.75, r: 9, fill: "#b3261e", class: "tuz" }, g);
        text(x + R * 0.75, y - R * 0.75, "T", "count", g);
      }
      if (burnt.has(name)) {
        el("line", { x1: x - R * 0.6, y1: y - R * 0.6, x2: x + R * 0.6, y2: y + R * 0.6, stroke: "#222", "stroke-width": 4, class: "burnt" }, g);
      }
      if (p < 2) text(x, p === L.bottom ? y + R + 10 : y - R - 9, String(i + 1), "label", svg);
      else {  // Gabata's middle row: each half is its owner's pits 7-9
        const half = i >= L.pits / 2 ? `S${7 + L.pits - 1 - i}` : `N${7 + i}`;
        text(x + R * 0.8, y + R * 0.9, half, "label", svg);
      }
      const where = t(`pit.${["south", "north", "middle"][p]}`, { n: i + 1 });
      if (drafted !== null && plan) {
        adjustable(g, `${where}: ${t("seeds", { n: count })}; ${t("setup.keys")}`, (by) => adjust(plan, ctx, slot, by, say));
      } else if (pie && p < 2) {
        // The chooser clicks the row he wants to play: his own keeps it, the other turns the board.
        const choice = p === mover ? "keep" : "swap";
        g.setAttribute("class", [...cls, "legal"].join(" "));
        clickable(g, `${where}: ${choice === "keep" ? t("pie.keep") : t("pie.swap")}`, () => ctx.play(choice));
      } else if (claims > 0 && p === 1 - mover) {
        g.setAttribute("class", [...cls, "legal"].join(" "));
        clickable(g, `${where}: ${isClaimed ? t("claim.claimed") : t("claim.pit")}`, () => {
          const d = claimDraft(ctx, board);
          const at = d.pits.indexOf(i + 1);
          if (at >= 0) d.pits.splice(at, 1);
          else if (d.pits.length < claims) d.pits.push(i + 1);
          else return say(t("claim.full", { n: claims }));
          ctx.redraw?.();
        });
      } else if (moves.length) {
        clickable(g, t("pit.play", { pit: where, seeds: t("seeds", { n: count }) }), () => {
          if (moves.length === 1 || !ctx.choose) ctx.play(moves[0]); else ctx.choose(moves);
        });
      } else {
        g.setAttribute("aria-label", `${where}: ${t("seeds", { n: count })}`);
      }
    });
  });
  turnUpright(svg);
}

// The holes a sowing from `origin` of player `p` passes, in order, one lap (two rows only).
function ring(board: any, p: number, origin: number): Hole[] {
  const pits: number = board.pits;
  const out: Hole[] = [];
  const q = 1 - p;
  if (board.direction === "cw") {
    for (let i = origin - 1; i >= 0; i--) out.push({ kind: "pit", side: p, i });
    if (board.stores_sown) out.push({ kind: "store", side: p, i: 0 });
    for (let i = pits - 1; i >= 0; i--) out.push({ kind: "pit", side: q, i });
    for (let i = pits - 1; i >= origin; i--) out.push({ kind: "pit", side: p, i });
  } else {
    for (let i = origin + 1; i < pits; i++) out.push({ kind: "pit", side: p, i });
    if (board.stores_sown) out.push({ kind: "store", side: p, i: 0 });
    for (let i = 0; i < pits; i++) out.push({ kind: "pit", side: q, i });
    for (let i = 0; i <= origin; i++) out.push({ kind: "pit", side: p, i });
  }
  return out;
}

function addSeed(board: any, h: Hole): void {
  if (h.kind === "store") board.stores[h.side]++;
  else if (h.side === 2) board.middle_row[h.i]++;
  else board.rows[h.side][h.i]++;
}

export const sowingBoard: BoardRenderer = {
  onBoard(move, board) {
    if (SIMPLE.test(move)) return true;
    return (board.phase === "setup" && SETUP.test(move)) || (board.phase === "pie" && (move === "keep" || move === "swap"))
      || (board.phase === "claim" && move.startsWith("claim:"));
  },
  draw(svg, board, ctx) { drawCounts(svg, board, ctx, null); },
  panel(board, ctx) {
    const say = (m: string) => toast(m);
    const plan = setupPlan(board, ctx.legal);
    if (plan) return setupPanel(plan, ctx, say);
    if (board.phase === "pie" && ctx.legal.includes("swap"))
      return [h("p", { id: "pie-help", class: "small" }, t("pie.help"))];
    const claims = board.phase === "claim" ? claimCount(ctx.legal) : 0;
    if (claims) {
      const d = claimDraft(ctx, board);
      const ready = d.pits.length === claims;
      return [h("p", { id: "claim-help", class: "small" }, t("claim.help", { n: claims })),
        h("button", { id: "claim-send", class: "primary", disabled: !ready,
          onclick: () => ctx.play("claim:" + [...d.pits].sort((a, b) => a - b).join("+")) }, t("claim.send", { done: d.pits.length, n: claims }))];
    }
    return [];
  },
  async animateLaps(svg, laps, ctx, skip) {
    const quiet = { ...ctx, legal: [] as string[] };
    await playLaps(laps, skip, (b, name) => addSeed(b, holeOf(name)), (b, name) => drawCounts(svg, b, quiet, name ? holeOf(name) : null));
  },
  async animate(svg, before, after, ply, ctx, skip) {
    // A single lap on two rows, simulated here (the fast rulesets send no trace); the
    // server's board afterwards is exact.
    const m = SIMPLE.exec(ply.text);
    if ((ply.side !== "S" && ply.side !== "N") || !m || before.middle_row) return;
    if (before.phase && before.phase !== "play") return;
    const p = ply.side === "S" ? 0 : 1, origin = Number(m[1]) - 1;
    if (!(origin >= 0 && origin < before.pits)) return;
    const work = JSON.parse(JSON.stringify(before));
    let hand = work.rows[p][origin];
    work.rows[p][origin] = 0;
    const path = ring(before, p, origin);
    // Laps skip the emptied origin (Oware's rule).
    const lap = hand >= path.length ? path.filter((h) => !(h.kind === "pit" && h.side === p && h.i === origin)) : path;
    const step = seedStep(hand);
    const quiet = { ...ctx, legal: [] as string[] };
    drawCounts(svg, work, quiet, { kind: "pit", side: p, i: origin });
    await sleep(step);
    for (let k = 0; hand > 0 && !skip.skip; k++, hand--) {
      const h = lap[k % lap.length];
      addSeed(work, h);
      drawCounts(svg, work, quiet, h);
      sowClick();
      await sleep(step);
    }
    void after;
  },
};
