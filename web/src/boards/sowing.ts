// The sowing family (Kalah, Oware, Toguz, Congklak, Gabata, ...): board_json {"rows": [[south
// pits], [north pits]], "stores": [s, n], "stores_sown", "direction": "ccw"|"cw", "pits",
// "to_move", and for the general engine "middle_row" (Gabata), "tuz" and "burnt" (pit names
// such as "N5"), "owners", "phase"}. Pits are numbered from their owner's left; the viewer's
// row is drawn at the bottom.
import { BoardContext, BoardRenderer, clear, sleep } from "./board.js";
import { clickable, el, seeds, text } from "../svg.js";

const PIT = 84, R = 33, ROW_H = 96, TOP = 34;
const SIMPLE = /^g?(\d+)t?$/;  // a sowing from pit N (g: a gift, t: declaring a tuz)

interface Hole { kind: "pit" | "store"; side: number; i: number }

function layout(board: any, ctx: BoardContext) {
  const pits: number = board.pits;
  const middle: number[] | undefined = board.middle_row;
  const rowCount = middle ? 3 : 2;
  const bottom = ctx.you === "north" ? 1 : 0;  // player index drawn at the bottom
  const width = (pits + 2) * PIT;
  const height = TOP * 2 + ROW_H * rowCount;
  // Centre of pit i of player p (0 = south, 1 = north, 2 = Gabata's middle row by South's columns).
  const pitXY = (p: number, i: number): [number, number] => {
    if (p === 2) return [PIT * ((bottom === 0 ? i : pits - 1 - i) + 1) + PIT / 2, TOP + ROW_H * 1.5];
    const atBottom = p === bottom;
    const col = atBottom ? i : pits - 1 - i;
    return [PIT * (col + 1) + PIT / 2, TOP + ROW_H * (atBottom ? rowCount - 1 : 0) + ROW_H / 2];
  };
  // The bottom player's store is on his right, the top player's on the viewer's left.
  const storeX = (p: number) => (p === bottom ? width - PIT / 2 : PIT / 2);
  return { pits, bottom, width, height, pitXY, storeX, middle };
}

const pitName = (p: number, i: number) => `${p === 0 ? "S" : p === 1 ? "N" : "M"}${i + 1}`;

// The legal moves that sow from pit i of the mover (more than one in Toguz: "3" and "3t").
function movesFrom(ctx: BoardContext, i: number): string[] {
  return ctx.legal.filter((m) => { const k = SIMPLE.exec(m); return k !== null && Number(k[1]) === i + 1; });
}

function drawCounts(svg: SVGSVGElement, board: any, ctx: BoardContext, active: Hole | null): void {
  clear(svg);
  const L = layout(board, ctx);
  svg.setAttribute("viewBox", `0 0 ${L.width} ${L.height}`);
  el("rect", { x: 2, y: 2, width: L.width - 4, height: L.height - 4, rx: 26, fill: "var(--wood)", stroke: "var(--wood-dark)", "stroke-width": 4 }, svg);
  const mover = (ctx.side ?? board.to_move) === "north" ? 1 : 0;
  const lastMatch = ctx.last && ctx.last.side !== "*" ? SIMPLE.exec(ctx.last.text) : null;
  const lastPit = lastMatch ? Number(lastMatch[1]) - 1 : -1;
  const lastSide = ctx.last?.side === "N" ? 1 : 0;
  const tuz = new Set<string>(Array.isArray(board.tuz) ? board.tuz : []);
  const burnt = new Set<string>(Array.isArray(board.burnt) ? board.burnt : []);

  // Stores (or captured-seed trays when stores are not sown into).
  for (const p of [0, 1]) {
    const x = L.storeX(p), h = L.height - 2 * TOP;
    const g = el("g", { class: "store", "data-store": p === 0 ? "south" : "north" }, svg);
    el("rect", { x: x - PIT * 0.36, y: TOP, width: PIT * 0.72, height: h, rx: PIT * 0.36, fill: board.stores_sown ? "var(--pit)" : "#9b6b3f", class: "hole" }, g);
    seeds(x, TOP + h / 2, PIT * 0.34, board.stores[p], g, 30);
    text(x, TOP + h / 2, String(board.stores[p]), "count", g);
    text(x, p === L.bottom ? L.height - TOP / 2 : TOP / 2, p === 0 ? "South" : "North", "label", svg);
  }
  const rows: number[][] = [board.rows[0], board.rows[1]];
  if (L.middle) rows.push(L.middle);
  rows.forEach((row, p) => {
    row.forEach((count, i) => {
      const [x, y] = L.pitXY(p, i);
      const name = pitName(p, i);
      const moves = p === mover && !L.middle ? movesFrom(ctx, i) : [];
      const cls = ["pit"];
      if (moves.length) cls.push("legal");
      if (p === lastSide && i === lastPit && !L.middle) cls.push("last");
      const g = el("g", { class: cls.join(" "), "data-side": ["south", "north", "middle"][p], "data-pit": i + 1 }, svg);
      const isActive = active && active.kind === "pit" && active.side === p && active.i === i;
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
      if (moves.length) {
        clickable(g, `play pit ${i + 1}, ${count} seeds`, () => {
          if (moves.length === 1 || !ctx.choose) ctx.play(moves[0]); else ctx.choose(moves);
        });
      } else {
        g.setAttribute("aria-label", `${["south", "north", "middle"][p]} pit ${i + 1}: ${count} seeds`);
      }
    });
  });
}

// The holes a sowing from `origin` of player `p` passes, in order, one lap.
function ring(board: any, p: number, origin: number): Hole[] {
  const pits: number = board.pits;
  const out: Hole[] = [];
  const q = 1 - p;
  if (board.direction === "cw") {
    for (let i = origin - 1; i >= 0; i--) out.push({ kind: "pit", side: p, i });
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

export const sowingBoard: BoardRenderer = {
  onBoard(move, board) { return !board.middle_row && SIMPLE.test(move); },
  draw(svg, board, ctx) { drawCounts(svg, board, ctx, null); },
  async animate(svg, before, after, ply, ctx, skip) {
    // Only plain sowings on two rows are animated; the server's board afterwards is exact.
    const m = SIMPLE.exec(ply.text);
    if ((ply.side !== "S" && ply.side !== "N") || !m || before.middle_row) return;
    if (before.phase && before.phase !== "play") return;
    const p = ply.side === "S" ? 0 : 1, origin = Number(m[1]) - 1;
    if (!(origin >= 0 && origin < before.pits)) return;
    const work = JSON.parse(JSON.stringify(before));
    let hand = work.rows[p][origin];
    work.rows[p][origin] = 0;
    const path = ring(before, p, origin);
    // Laps skip the emptied origin (Oware's rule); a sowing that starts in its own pit
    // (Toguz) puts the first seed back.
    const lap = hand >= path.length ? path.filter((h) => !(h.kind === "pit" && h.side === p && h.i === origin)) : path;
    const step = Math.max(40, Math.min(160, 2400 / Math.max(hand, 1)));
    const quiet = { ...ctx, legal: [] as string[] };
    drawCounts(svg, work, quiet, { kind: "pit", side: p, i: origin });
    await sleep(step);
    for (let k = 0; hand > 0 && !skip.skip; k++, hand--) {
      const h = lap[k % lap.length];
      if (h.kind === "store") work.stores[h.side]++; else work.rows[h.side][h.i]++;
      drawCounts(svg, work, quiet, h);
      await sleep(step);
    }
    void after;
  },
};
