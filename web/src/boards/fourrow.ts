// Four-row boards: Bao (bao family: nyumba, kichwa, seeds in hand) and Omweso. board_json
// {"south": {"front": [a1..h1], "back": [a2..h2], "hand"?, "house"?}, "north": {...},
// "to_move", "takasia"? (Bao), "setup"? (Omweso: the pit being filled)}. Pits are named by
// column from the owner's left and row (1 front, 2 back): a1..h2 South, A1..H2 North
// (docs/games/bao.md). The viewer's two rows are at the bottom, his front row inside.
import { BoardContext, BoardRenderer, clear, playLaps, turnUpright, upright } from "./board.js";
import { adjustable, clickable, el, seeds, text } from "../svg.js";
import { adjust, draftCount, SetupPlan, setupPanel } from "./setup.js";
import { toast } from "../ui.js";
import { t } from "../i18n.js";

const PIT = 80, ROW = 92, R = 31, SIDE = 70, TOP = 24;
const COLS = "abcdefgh";

const pitName = (side: string, col: number, row: 1 | 2) => {
  const n = `${COLS[col]}${row}`;
  return side === "south" ? n : n.toUpperCase();
};

// Legal moves that start at pit `name` ("f1<", "f1>", "a1=4", ...).
function movesFrom(legal: string[], name: string): string[] {
  return legal.filter((m) => m.startsWith(name) && (m.length === name.length || !/\d/.test(m[name.length])));
}

// Omweso's setup, read from the legal moves ("c1=0".."c1=20" while c1 is being filled): the
// pits left in the setup order (front row a1..h1, then back row a2..h2); the last pit takes
// what remains of the 32 seeds.
function setupPlan(b: any, legal: string[]): SetupPlan | null {
  if (typeof b.setup !== "string" || !legal.length || !legal.every((m) => m.startsWith(b.setup + "="))) return null;
  const total = Math.max(...legal.map((m) => Number(m.split("=")[1])));
  const side = b.setup === b.setup.toLowerCase() ? "south" : "north";
  const at = COLS.indexOf(b.setup[0].toLowerCase()) + (b.setup[1] === "2" ? 8 : 0);
  const slots = Array.from({ length: 16 - at }, (_, k) => pitName(side, (at + k) % 8, at + k < 8 ? 1 : 2));
  return { slots, min: 0, total, autoLast: true, move: (k, c) => `${slots[k]}=${c}` };
}

// "c1" -> where its count sits in the board: side, row key and column.
function place(name: string): [string, "front" | "back", number] {
  return [name === name.toLowerCase() ? "south" : "north", name[1] === "1" ? "front" : "back", COLS.indexOf(name[0].toLowerCase())];
}

// The arrows of a pit whose move takes a direction: `<` toward the owner's left, `>` toward
// his right (docs/bao.md); the opponent's rows are drawn turned round, so his `<` points right.
function arrows(svg: SVGSVGElement, ctx: BoardContext, name: string, moves: string[], x: number, y: number, mine: boolean) {
  for (const dir of ["<", ">"]) {
    const these = moves.filter((m) => m.slice(name.length).startsWith(dir));
    if (!these.length) continue;
    const left = (dir === "<") === mine;
    const ax = x + (left ? -1 : 1) * (R - 7), sign = left ? -1 : 1;
    const g = el("g", { class: "arrow", "data-move": these[0] }, svg);
    el("circle", { cx: ax, cy: y, r: 11 }, g);
    el("path", { d: `M${ax + sign * 6},${y} L${ax - sign * 4},${y - 6} L${ax - sign * 4},${y + 6} Z` }, g);
    clickable(g, t(left ? "bao.sowLeft" : "bao.sowRight", { pit: name }),
      () => (these.length === 1 || !ctx.choose ? ctx.play(these[0]) : ctx.choose(these)));
    g.addEventListener("pointerdown", (e) => e.stopPropagation());
  }
}

function draw(svg: SVGSVGElement, b: any, ctx: BoardContext, active: string | null) {
    clear(svg);
    const me = ctx.you === "north" ? "north" : "south";
    const them = me === "south" ? "north" : "south";
    const width = SIDE * 2 + PIT * 8, height = TOP * 2 + ROW * 4 + 16;
    const turned = upright();  // turnUpright turns it (wider than tall)
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    el("rect", { x: 2, y: 2, width: width - 4, height: height - 4, rx: 22, class: "board-bg" }, svg);
    el("line", { x1: SIDE, y1: TOP + ROW * 2 + 8, x2: width - SIDE, y2: TOP + ROW * 2 + 8, class: "board-line" }, svg);
    const mover = b.to_move;
    const lastName = ctx.last && ctx.last.side !== "*" ? ctx.last.text.slice(0, 2) : "";
    const lastSide = ctx.last?.side === "N" ? "north" : "south";
    const marks = new Set<string>([b.takasia, b.setup].filter((x) => typeof x === "string"));
    const plan = setupPlan(b, ctx.legal);
    const later: (() => void)[] = [];  // arrows over every pit

    // Rows from the top: their back, their front, my front, my back.
    const rows: [string, 1 | 2, number][] = [[them, 2, 0], [them, 1, 1], [me, 1, 2], [me, 2, 3]];
    for (const [side, row, line] of rows) {
      const counts: number[] = b[side][row === 1 ? "front" : "back"];
      const y = TOP + ROW * line + ROW / 2 - 6 + (line >= 2 ? 16 : 0);
      counts.forEach((stored, col) => {
        // My columns run left to right from my left; the opponent's from his left, my right.
        const x = SIDE + PIT * (side === me ? col : 7 - col) + PIT / 2;
        const name = pitName(side, col, row);
        const drafted = plan ? draftCount(plan, ctx, name) : null;
        const count = drafted ?? stored;
        const moves = side === mover && !plan ? movesFrom(ctx.legal, name) : [];
        const kichwa = row === 1 && (col === 0 || col === 7);
        const cls = ["pit"];
        if (moves.length) cls.push("legal");
        if (kichwa) cls.push("kichwa");
        if (side === lastSide && name === lastName) cls.push("last");
        const g = el("g", { class: cls.join(" "), "data-pit": name }, svg);
        const house = row === 1 && col === 4 && b[side].house;  // the nyumba, e1 / E1, while it stands
        if (house) el("rect", { x: x - R, y: y - R, width: 2 * R, height: 2 * R, rx: 8, class: "hole house" + (name === active ? " active" : "") }, g);
        else el("circle", { cx: x, cy: y, r: R, class: "hole" + (name === active ? " active" : "") }, g);
        if (marks.has(name)) el("circle", { cx: x, cy: y, r: R + 4, fill: "none", stroke: "#1d6fb8", "stroke-width": 3, "stroke-dasharray": "6 4" }, g);
        seeds(x, y, R, count, g);
        text(x, y, String(count), "count", g);
        // The pit's name under it, in the gap between rows (a kichwa says so).
        // Turned upright on a phone there is room for the name only (the marks show the rest).
        text(x, y + R + 10, turned ? name : kichwa ? `${name} · ${t("bao.kichwa")}` : house ? `${name} · ${t("bao.nyumba")}` : name, "label", svg);
        const what = `${t("pit.named", { pit: name })}: ${t("seeds", { n: count })}`;
        if (drafted !== null && plan)
          adjustable(g, `${what}; ${t("setup.keys")}`, (by) => adjust(plan, ctx, name, by, toast));
        else if (moves.length) {
          clickable(g, t("pit.play", { pit: t("pit.named", { pit: name }), seeds: t("seeds", { n: count }) }),
            () => (moves.length === 1 || !ctx.choose ? ctx.play(moves[0]) : ctx.choose(moves)));
          if (moves.some((m) => /[<>]/.test(m.slice(name.length)))) later.push(() => arrows(svg, ctx, name, moves, x, y, side === me));
        } else g.setAttribute("aria-label", what);
      });
    }
    for (const f of later) f();
    // Seeds still in hand (Bao's namua stage), beside each player's rows.
    for (const [side, y] of [[them, TOP + ROW - 6], [me, TOP + ROW * 3 + 10]] as [string, number][]) {
      const hand = b[side].hand;
      if (hand === undefined) continue;
      el("rect", { x: 8, y: y - ROW * 0.8, width: SIDE - 16, height: ROW * 1.6, rx: 12, fill: "#9b6b3f", class: "hand" }, svg);
      seeds(SIDE / 2, y, SIDE * 0.4, hand, svg, 22);
      text(SIDE / 2, y, String(hand), "count", svg);
      text(SIDE / 2, y + ROW * 0.8 + 10, t("bao.hand"), "label", svg);
    }
    text(width - SIDE / 2, TOP + ROW, them === "north" ? t("side.north") : t("side.south"), "label side-label", svg);
    text(width - SIDE / 2, TOP + ROW * 3 + 16, me === "south" ? t("side.south") : t("side.north"), "label side-label", svg);
    turnUpright(svg);
}

export const fourRowBoard: BoardRenderer = {
  onBoard(move) { return /^[a-hA-H][12]/.test(move); },
  draw(svg, b, ctx) { draw(svg, b, ctx, null); },
  panel(b, ctx) {
    const plan = setupPlan(b, ctx.legal);
    return plan ? setupPanel(plan, ctx, toast) : [];
  },
  async animateLaps(svg, laps, ctx, skip) {
    const quiet = { ...ctx, legal: [] as string[] };
    await playLaps(laps, skip, (b, name) => { const [side, row, col] = place(name); b[side][row][col]++; },
      (b, name) => draw(svg, b, quiet, name));
  },
};
