// The 2-row sowing family (Kalah, Oware, Bantumi, ... and rows.length == 3 for Gabata):
// board_json {"rows": [[south pits], [north pits], ...], "stores": [s, n], "stores_sown",
// "direction": "ccw"|"cw", "pits", "to_move", optional "tuz": [south's tuz index|null, north's]}.
// Pits are numbered from their owner's left; the viewer's row is drawn at the bottom.
import { BoardContext, BoardRenderer, clear, sleep } from "./board.js";
import { clickable, el, seeds, text } from "../svg.js";

const PIT = 84, R = 33, ROW_H = 96, TOP = 34;

interface Hole { kind: "pit" | "store"; side: number; i: number }

function layout(board: any, ctx: BoardContext) {
  const pits: number = board.pits;
  const rows: number[][] = board.rows;
  const bottom = ctx.you === "north" ? 1 : 0;  // player index drawn at the bottom
  const width = (pits + 2) * PIT;
  const height = TOP * 2 + ROW_H * rows.length;
  // Centre of pit i of player p (0 = south, 1 = north; extra rows of 3-row games go in the middle).
  const pitXY = (p: number, i: number): [number, number] => {
    const atBottom = p === bottom;
    const col = atBottom ? i : pits - 1 - i;
    const rowIndex = p >= 2 ? 1 : atBottom ? rows.length - 1 : 0;
    return [PIT * (col + 1) + PIT / 2, TOP + ROW_H * rowIndex + ROW_H / 2];
  };
  // The bottom player's store is on his right, the top player's on the viewer's left.
  const storeX = (p: number) => (p === bottom ? width - PIT / 2 : PIT / 2);
  return { pits, rows, bottom, width, height, pitXY, storeX };
}

function drawCounts(svg: SVGSVGElement, board: any, ctx: BoardContext, active: Hole | null): void {
  clear(svg);
  const L = layout(board, ctx);
  svg.setAttribute("viewBox", `0 0 ${L.width} ${L.height}`);
  el("rect", { x: 2, y: 2, width: L.width - 4, height: L.height - 4, rx: 26, fill: "var(--wood)", stroke: "var(--wood-dark)", "stroke-width": 4 }, svg);
  const mover = board.to_move === "north" ? 1 : 0;
  const myTurn = ctx.legal.length > 0;
  const lastPit = ctx.last && ctx.last.side !== "*" ? Number(ctx.last.text) - 1 : -1;
  const lastSide = ctx.last?.side === "N" ? 1 : 0;
  const tuz: (number | null)[] = board.tuz ?? [null, null];

  // Stores (or captured-seed trays when stores are not sown into).
  for (const p of [0, 1]) {
    const x = L.storeX(p), h = L.height - 2 * TOP;
    const g = el("g", { class: "store", "data-store": p === 0 ? "south" : "north" }, svg);
    el("rect", { x: x - PIT * 0.36, y: TOP, width: PIT * 0.72, height: h, rx: PIT * 0.36, fill: board.stores_sown ? "var(--pit)" : "#9b6b3f", class: "hole" }, g);
    seeds(x, TOP + h / 2, PIT * 0.34, board.stores[p], g, 30);
    text(x, TOP + h / 2, String(board.stores[p]), "count", g);
    text(x, p === L.bottom ? L.height - TOP / 2 : TOP / 2, p === 0 ? "South" : "North", "label", svg);
  }
  // Pits.
  board.rows.forEach((row: number[], p: number) => {
    row.forEach((count, i) => {
      const [x, y] = L.pitXY(p, i);
      const move = String(i + 1);
      const legal = myTurn && p === mover && ctx.legal.includes(move);
      const cls = ["pit"];
      if (legal) cls.push("legal");
      if (p === lastSide && i === lastPit) cls.push("last");
      const g = el("g", { class: cls.join(" "), "data-side": p === 0 ? "south" : "north", "data-pit": i + 1 }, svg);
      const isActive = active && active.kind === "pit" && active.side === p && active.i === i;
      el("circle", { cx: x, cy: y, r: R, fill: isActive ? "#8f5e30" : "var(--pit)", class: "hole" }, g);
      seeds(x, y, R, count, g);
      text(x, y, String(count), "count", g);
      if (tuz[1 - p] === i) {  // a tuz belongs to the player who declared it, in the other's row
        el("circle", { cx: x + R * 0.75, cy: y - R * 0.75, r: 8, fill: "#b3261e" }, g);
        text(x + R * 0.75, y - R * 0.75, "T", "count", g);
      }
      const labelY = p === L.bottom ? y + R + 10 : y - R - 9;
      if (p < 2) text(x, labelY, move, "label", svg);
      if (legal) clickable(g, `play pit ${move}, ${count} seeds`, () => ctx.play(move));
      else g.setAttribute("aria-label", `${p === 0 ? "south" : "north"} pit ${move}: ${count} seeds`);
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
  picksOnBoard: true,
  draw(svg, board, ctx) { drawCounts(svg, board, ctx, null); },
  async animate(svg, before, after, ply, ctx, skip) {
    if (ply.side !== "S" && ply.side !== "N") return;
    const p = ply.side === "S" ? 0 : 1, origin = Number(ply.text) - 1;
    if (!(origin >= 0 && origin < before.pits) || before.rows.length > 2) return;
    const work = JSON.parse(JSON.stringify(before));
    let hand = work.rows[p][origin];
    work.rows[p][origin] = 0;
    const path = ring(before, p, origin);
    // Laps skip the emptied origin (Oware's rule); the final board from the server is exact anyway.
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
