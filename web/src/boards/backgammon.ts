// Backgammon: board_json {"points": [24 values, South's point k+1; + South, - North], "bar",
// "off", "dice", "cube": {value, owner, enabled}, "on_roll", "phase", "score", "match", ...}.
// Drawn from the viewer's side: his home board at the bottom right, points numbered his way.
import { BoardContext, BoardRenderer, clear } from "./board.js";
import { el, text } from "../svg.js";

const W = 780, H = 440, X0 = 20, PW = 50, BAR = 60, TRAY_X = 700, PH = 170, CR = 20;
const COLOURS: Record<string, [string, string]> = { south: ["#f5f0e6", "#555"], north: ["#2b2b2b", "#ddd"] };

// x centre of point q (1..24) from the viewer's side: 1..12 along the bottom right to left.
function pointX(q: number): number {
  const c = q <= 12 ? 12 - q : q - 13;  // column 0 = leftmost
  return X0 + c * PW + (c >= 6 ? BAR : 0) + PW / 2;
}

// Source points of the legal moves, in the mover's numbering (25 = bar).
function sources(moves: string[]): Set<number> {
  const out = new Set<number>();
  for (const m of moves)
    for (const part of m.split(" ")) {
      const from = part.split("/")[0];
      if (from === "bar") out.add(25);
      else if (/^\d+$/.test(from)) out.add(Number(from));
    }
  return out;
}

function destinations(move: string): Set<number> {
  const out = new Set<number>();
  for (const part of move.split(" ")) {
    const steps = part.replace(/\(\d+\)/, "").split("/").slice(1);
    for (const s of steps) { const n = Number(s.replace("*", "")); if (n >= 1 && n <= 24) out.add(n); }
  }
  return out;
}

export const backgammonBoard: BoardRenderer = {
  onBoard: () => false,
  draw(svg, b, ctx: BoardContext) {
    clear(svg);
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const me = ctx.you === "north" ? "north" : "south";
    const them = me === "south" ? "north" : "south";
    // value on the viewer's point q: + viewer's checkers, - opponent's.
    const at = (q: number) => (me === "south" ? b.points[q - 1] : -b.points[24 - q]);
    el("rect", { x: 0, y: 0, width: W, height: H, rx: 14, fill: "#5b3a1e" }, svg);
    el("rect", { x: X0, y: 20, width: 12 * PW + BAR, height: H - 40, fill: "#2f6b3a" }, svg);
    el("rect", { x: X0 + 6 * PW, y: 20, width: BAR, height: H - 40, fill: "#5b3a1e" }, svg);
    el("rect", { x: TRAY_X, y: 20, width: 60, height: H - 40, fill: "#3e2713" }, svg);

    const moverIsMe = b.to_move === me;
    const src = moverIsMe ? sources(ctx.legal) : new Set<number>();
    const lastDest = new Set<number>();
    if (ctx.last && ctx.last.side !== "*") {
      const lastMover = ctx.last.side === "S" ? "south" : "north";
      for (const d of destinations(ctx.last.text)) lastDest.add(lastMover === me ? d : 25 - d);
    }
    for (let q = 1; q <= 24; q++) {
      const x = pointX(q), bottom = q <= 12;
      const base = bottom ? H - 20 : 20, tip = bottom ? H - 20 - PH : 20 + PH;
      const g = el("g", { class: "point", "data-point": q }, svg);
      const fill = q % 2 ? "#c8a165" : "#8c2f1b";
      el("polygon", { points: `${x - PW / 2},${base} ${x + PW / 2},${base} ${x},${tip}`, fill,
        stroke: src.has(q) ? "var(--legal)" : lastDest.has(q) ? "var(--last)" : "none", "stroke-width": 4 }, g);
      text(x, bottom ? H - 9 : 10, String(q), "label", svg).style.fill = "#eee";
      const v = at(q), n = Math.abs(v), owner = v > 0 ? me : them;
      const [fillC, strokeC] = COLOURS[owner];
      for (let k = 0; k < Math.min(n, 5); k++) {
        const cy = bottom ? base - CR - k * 2 * CR : base + CR + k * 2 * CR;
        el("circle", { cx: x, cy, r: CR - 1, fill: fillC, stroke: strokeC, "stroke-width": 2 }, g);
      }
      if (n > 5) text(x, bottom ? base - CR - 8 * CR : base + CR + 8 * CR, String(n), "count", g).style.fill = "#d33";
      g.setAttribute("aria-label", `point ${q}: ${n ? `${n} ${owner}` : "empty"}`);
    }
    // Bar: the viewer's checkers in the lower half, the opponent's in the upper half.
    const barX = X0 + 6 * PW + BAR / 2;
    for (const [who, y] of [[me, H / 2 + 60], [them, H / 2 - 60]] as [string, number][]) {
      const n = b.bar[who];
      if (!n) continue;
      const [fillC, strokeC] = COLOURS[who];
      el("circle", { cx: barX, cy: y, r: CR - 1, fill: fillC, stroke: src.has(25) && who === me ? "var(--legal)" : strokeC, "stroke-width": 3 }, svg);
      text(barX, y, String(n), "count", svg).style.fill = "#d33";
    }
    // Borne off, in the tray.
    for (const [who, y] of [[me, H - 80], [them, 80]] as [string, number][]) {
      const [fillC] = COLOURS[who];
      el("rect", { x: TRAY_X + 8, y: y - 40, width: 44, height: 80, rx: 6, fill: fillC, opacity: b.off[who] ? 1 : 0.25 }, svg);
      text(TRAY_X + 30, y, String(b.off[who]), "count", svg).style.fill = "#d33";
    }
    text(TRAY_X + 30, H / 2, "off", "label", svg).style.fill = "#eee";
    // Dice, on the side of the player on roll.
    if (b.dice && b.dice.length === 2) {
      const onRoll = b.on_roll === me;
      const cx = onRoll ? X0 + 9 * PW + BAR : X0 + 3 * PW;
      b.dice.forEach((d: number, k: number) => {
        const x = cx - 28 + k * 56, y = H / 2;
        el("rect", { x: x - 22, y: y - 22, width: 44, height: 44, rx: 8, fill: "white", stroke: "#333", "stroke-width": 2, class: "die" }, svg);
        text(x, y, String(d), "count", svg).style.fill = "#111";
      });
    }
    // Cube: centred when nobody owns it, else on its owner's side.
    if (b.cube?.enabled) {
      const y = b.cube.owner === null ? H / 2 : b.cube.owner === me ? H - 70 : 70;
      el("rect", { x: 4, y: y - 16, width: 32, height: 32, rx: 5, fill: "#f4f4f4", stroke: "#111", class: "cube" }, svg);
      text(20, y, String(b.cube.value === 1 ? 64 : b.cube.value), "count", svg).style.fill = "#111";
    }
    text(W / 2 - 40, 10, `pips ${b.pips?.[me] ?? ""} : ${b.pips?.[them] ?? ""}`, "label", svg).style.fill = "#eee";
  },
};
