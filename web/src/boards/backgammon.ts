// Backgammon: board_json {"points": [24 values, South's point k+1; + South, - North], "bar",
// "off", "dice", "cube": {value, owner, enabled}, "on_roll", "phase", "pips", "result"?, ...}.
// Drawn from the viewer's side: his home board at the bottom right, points numbered his way.
// On his turn he plays checker by checker (bgturn.ts): drag a checker, or click it and then
// its target; a double click plays the higher die; Undo takes a hop back; Confirm sends.
import { BoardContext, BoardRenderer, Skip, clear, sleep, turnUpright, upright } from "./board.js";
import { Hop, Pos, Turn, flip, moveChecker, posOf, stepsOf } from "./bgturn.js";
import type { Ply } from "../api.js";
import { settings } from "../settings.js";
import { sowClick } from "../sound.js";
import { el, text } from "../svg.js";
import { h } from "../ui.js";
import { t } from "../i18n.js";

const W = 784, H = 440, X0 = 48, PW = 50, BAR = 56, TRAY_X = X0 + 12 * PW + BAR + 8, PH = 170, CR = 20;
const TOP = 20, BOTTOM = H - 20;

// x centre of point q (1..24) from the viewer's side: 1..12 along the bottom right to left.
function pointX(q: number): number {
  const c = q <= 12 ? 12 - q : q - 13;  // column 0 = leftmost
  return X0 + c * PW + (c >= 6 ? BAR : 0) + PW / 2;
}
const BAR_X = X0 + 6 * PW + BAR / 2;

// The point (1..24), the tray (0) or the bar (25) under board coordinates (x, y).
function placeAt(x: number, y: number): number | null {
  if (x >= TRAY_X) return 0;
  if (x >= X0 + 6 * PW && x < X0 + 6 * PW + BAR) return 25;
  const inner = x - X0 - (x >= X0 + 6 * PW + BAR ? BAR : 0);
  const c = Math.floor(inner / PW);
  if (c < 0 || c > 11 || y < TOP || y > BOTTOM) return null;
  return y > H / 2 ? 12 - c : c + 13;
}

function destinations(move: string): Set<number> {
  const out = new Set<number>();
  for (const part of move.split(" ")) {
    const steps = part.replace(/\(\d+\)/, "").split("/").slice(1);
    for (const s of steps) { const n = Number(s.replace("*", "")); if (n >= 1 && n <= 24) out.add(n); }
  }
  return out;
}

const CHECKER_MOVES = /^(bar|\d+)\//;
let turn: Turn | null = null;
let turnKey = "";

// The turn being played by the viewer now, or null (not his move, no dice, a cube decision).
function currentTurn(b: any, ctx: BoardContext): Turn | null {
  const me = ctx.you;
  const moves = ctx.legal.filter((m) => CHECKER_MOVES.test(m));
  if (!me || b.to_move !== me || b.dice?.length !== 2 || !moves.length) { turn = null; return null; }
  const k = `${ctx.game}:${b.gnubg_id}:${moves.join(",")}`;
  if (!turn || turnKey !== k) {
    turn = new Turn(b, me, moves);
    turnKey = k;
    lastClick = { at: -1, time: 0 };  // a click of an earlier turn or game is not half of a double
    const forced = turn.forced();  // one play only: made at once, to confirm or undo
    if (forced) turn.play(forced);
  }
  return turn;
}

// A double click (or double tap) is two clicks on the same checker within this time. The
// board is drawn again after the first click, so the browser's own dblclick cannot be relied on.
const DOUBLE_CLICK_MS = 500;
let lastClick = { at: -1, time: 0 };

function hop(ctx: BoardContext, path: Hop[]): void {
  if (!turn || !path.length) return;
  lastClick = { at: -1, time: 0 };
  turn.play(path);
  turn.selected = null;
  finishIfReady(ctx);
  ctx.redraw?.();
}

function finishIfReady(ctx: BoardContext): void {
  if (turn && turn.done && !turn.sent && !ctx.confirm) turn.sent = ctx.play(turn.done) !== false;
}

function select(ctx: BoardContext, q: number): void {
  if (!turn) return;
  if (turn.selected === q) turn.selected = null;
  else if (turn.selected !== null && turn.targets(turn.selected).has(q)) return hop(ctx, turn.targets(turn.selected).get(q)!);
  else if (turn.sources().has(q)) turn.selected = q;
  else turn.selected = null;
  ctx.redraw?.();
}

const pointName = (q: number) => (q === 25 ? t("bg.bar") : q === 0 ? t("bg.off") : t("bg.point", { n: q }));
const owners = (who: string, me: string) => (who === me ? t("bg.yours") : t("bg.theirs"));

function drawChecker(parent: Element, x: number, y: number, mine: boolean, extra: Record<string, string | number> = {}) {
  el("circle", { cx: x, cy: y, r: CR - 1, class: `checker ${mine ? "checker-me" : "checker-them"}`, ...extra }, parent);
}

// On a phone held upright the board is turned a quarter (board.ts, turnUpright): a point is
// then about a finger wide (44 px on a 390 px screen instead of 25). A drag maps the pointer
// through the board's group, so it follows the turn.

// `shown`: a position of an animation (viewer's numbering) drawn instead of the board's.
// Returns the group the board is drawn in (turned on an upright phone).
function drawBoard(svg: SVGSVGElement, b: any, ctx: BoardContext, shown?: Pos): SVGGElement {
  clear(svg);
  const turned = upright();  // turnUpright turns it at the end
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const root = el("g", { class: "bg-root" }, svg) as SVGGElement;
  const me = ctx.you === "north" ? "north" : "south";
  const them = me === "south" ? "north" : "south";
  const live = shown ? null : currentTurn(b, ctx);
  // The position shown: the turn's hops so far, else the server's board (viewer's numbering).
  const pos: Pos = shown ?? (live ? live.pos : posOf(b, me));
  const sources = live ? live.sources() : new Set<number>();
  const targets = live && live.selected !== null ? live.targets(live.selected) : new Map<number, Hop[]>();
  el("rect", { x: 0, y: 0, width: W, height: H, rx: 14, class: "bg-frame" }, root);
  el("rect", { x: X0, y: TOP, width: 12 * PW + BAR, height: H - 40, class: "bg-felt" }, root);
  el("rect", { x: X0 + 6 * PW, y: TOP, width: BAR, height: H - 40, class: "bg-frame" }, root);
  const tray = el("g", { class: "tray", "data-point": 0 }, root);
  el("rect", { x: TRAY_X, y: TOP, width: W - TRAY_X - 8, height: H - 40, class: "bg-tray" + (targets.has(0) ? " target" : "") }, tray);

  const lastDest = new Set<number>();
  if (ctx.last && ctx.last.side !== "*" && !(live && live.hops.length)) {
    const lastMover = ctx.last.side === "S" ? "south" : "north";
    for (const d of destinations(ctx.last.text)) lastDest.add(lastMover === me ? d : 25 - d);
  }
  for (let q = 1; q <= 24; q++) {
    const x = pointX(q), bottom = q <= 12;
    const base = bottom ? BOTTOM : TOP, tip = bottom ? BOTTOM - PH : TOP + PH;
    const cls = ["point"];
    if (sources.has(q)) cls.push("legal");
    if (live?.selected === q) cls.push("selected");
    if (targets.has(q)) cls.push("target");
    if (lastDest.has(q)) cls.push("last");
    const g = el("g", { class: cls.join(" "), "data-point": q }, root);
    el("rect", { x: x - PW / 2, y: bottom ? tip - 10 : TOP, width: PW, height: PH + 10, fill: "transparent" }, g);
    el("polygon", { points: `${x - PW / 2},${base} ${x + PW / 2},${base} ${x},${tip}`, class: `tri ${q % 2 ? "tri-a" : "tri-b"}` }, g);
    text(x, bottom ? H - 9 : 10, String(q), "label bg-num", root);
    const mine = pos.mine[q] > 0, n = mine ? pos.mine[q] : pos.theirs[q];
    // At most five checkers drawn; a taller stack shows its count on the top one.
    for (let k = 0; k < Math.min(n, 5); k++) {
      const cy = bottom ? base - CR - k * 2 * CR : base + CR + k * 2 * CR;
      drawChecker(g, x, cy, mine);
      if (n > 5 && k === 4) text(x, cy, String(n), "count stack", g);
    }
    const who = n ? t("bg.checkers", { n, who: owners(mine ? me : them, me) }) : t("bg.empty");
    label(g, q, who, ctx, sources, targets);
  }
  // Bar: the viewer's checkers in the lower half, the opponent's in the upper half.
  for (const [who, y, n] of [[me, H / 2 + 60, pos.mine[25]], [them, H / 2 - 60, pos.theirs[25]]] as [string, number, number][]) {
    if (!n) continue;
    const g = el("g", { class: "bar" + (who === me && sources.has(25) ? " legal" : "") + (who === me && live?.selected === 25 ? " selected" : ""),
      "data-point": who === me ? 25 : -1 }, root);
    drawChecker(g, BAR_X, y, who === me);
    text(BAR_X, y, String(n), "count", g);
    if (who === me) label(g, 25, t("bg.checkers", { n, who: owners(me, me) }), ctx, sources, targets);
  }
  // Borne off, in the tray: a thin bar per checker.
  for (const [who, n, bottom] of [[me, pos.mine[0], true], [them, pos.theirs[0], false]] as [string, number, boolean][]) {
    for (let k = 0; k < n; k++) {
      const y = bottom ? BOTTOM - 6 - k * 9 : TOP + 2 + k * 9;
      el("rect", { x: TRAY_X + 6, y, width: W - TRAY_X - 20, height: 7, rx: 2, class: who === me ? "checker-me" : "checker-them" }, tray);
    }
    if (n) text(TRAY_X + (W - TRAY_X - 8) / 2, bottom ? BOTTOM - 24 - 9 * Math.min(n, 14) : TOP + 20 + 9 * Math.min(n, 14), String(n), "count", tray);
  }
  label(tray, 0, t("bg.borne", { n: pos.mine[0] }), ctx, sources, targets);
  // Dice, on the side of the player on roll; the ones played are faded.
  if (b.dice && b.dice.length === 2) {
    const onRoll = b.on_roll === me;
    const shown = live ? live.dice : b.dice[0] === b.dice[1] ? [b.dice[0], b.dice[0]] : b.dice;
    // A die is faded once a hop used it (the lower one too when it was played first).
    const unused = live ? [...live.left] : [...shown];
    const cx = onRoll ? X0 + 9 * PW + BAR : X0 + 3 * PW;
    shown.forEach((d: number, k: number) => {
      const x = cx - (shown.length - 1) * 27 + k * 54, y = H / 2;
      const at = unused.indexOf(d);
      if (at >= 0) unused.splice(at, 1);
      const g = el("g", { class: "die" + (at < 0 ? " used" : ""), "data-die": d }, root);
      el("rect", { x: x - 22, y: y - 22, width: 44, height: 44, rx: 8 }, g);
      pips(g, x, y, d);
    });
  }
  // The cube in the left margin, clear of the checkers: centred, or on its owner's side.
  if (b.cube?.enabled) {
    const y = b.cube.owner === null ? H / 2 : b.cube.owner === me ? H - 60 : 60;
    const g = el("g", { class: "cube", "aria-label": t("bg.cube", { n: b.cube.value }) }, root);
    el("rect", { x: 6, y: y - 17, width: 34, height: 34, rx: 5 }, g);
    text(23, y, String(b.cube.value === 1 ? 64 : b.cube.value), "cube-value", g);
  }
  // Pip counts in the left margin: the opponent's above the middle, the viewer's below.
  for (const [who, y] of [[them, H / 2 - 70], [me, H / 2 + 70]] as [string, number][]) {
    // Label above the count, or beside it when the board is turned (the margin is then a row).
    text(turned ? 13 : 23, turned ? y : y - 8, t("bg.pipsLabel"), "label bg-num", root);
    text(turned ? 35 : 23, turned ? y : y + 7, String(b.pips?.[who] ?? ""), "label bg-num pips", root);
  }
  if (live) interact(svg, root, ctx);
  turnUpright(svg);
  return root;
}

// The pips of a die face.
function pips(g: Element, x: number, y: number, d: number) {
  const s = 11;
  const spots: Record<number, [number, number][]> = {
    1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  };
  for (const [dx, dy] of spots[d] ?? []) el("circle", { cx: x + dx * s, cy: y + dy * s, r: 4, class: "pip" }, g);
}

// Labels for screen readers and keyboard play: a source or a target is a button.
function label(g: SVGElement, q: number, what: string, ctx: BoardContext, sources: Set<number>, targets: Map<number, Hop[]>) {
  const name = pointName(q);
  g.setAttribute("aria-label", `${name}: ${what}`);
  if (!turn) return;
  if (targets.has(q)) {
    g.setAttribute("aria-label", t("bg.moveHere", { from: pointName(turn.selected ?? 0), to: name }));
  } else if (sources.has(q)) {
    g.setAttribute("aria-label", `${name}: ${what}; ${turn.selected === q ? t("bg.selected") : t("bg.selectable")}`);
  } else return;
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if (k === "Enter" || k === " ") { e.preventDefault(); select(ctx, q); }
  });
}

// Pointer play: a press on a movable checker starts a drag; released on a target it moves
// there, released where it started it is a click (select, then click the target).
function interact(svg: SVGSVGElement, root: SVGGElement, ctx: BoardContext) {
  // Board coordinates under the pointer (the board's group may be turned).
  const toBoard = (e: PointerEvent) => {
    const m = root.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  };
  svg.onpointerdown = (e) => {
    if (!turn || e.button !== 0) return;
    const { x, y } = toBoard(e);
    const from = placeAt(x, y);
    if (from === null) return;
    // A click elsewhere ends a double click: the two clicks must follow each other.
    if (!turn.sources().has(from)) { lastClick = { at: -1, time: 0 }; select(ctx, from); return; }
    e.preventDefault();
    const start = { x, y };
    let ghost: SVGCircleElement | null = null;
    const move = (ev: PointerEvent) => {
      const p = toBoard(ev);
      if (!ghost && Math.hypot(p.x - start.x, p.y - start.y) < 8) return;
      if (!ghost) {
        turn!.selected = from;
        ghost = el("circle", { cx: p.x, cy: p.y, r: CR, class: "checker checker-me ghost" }, root);
      }
      ghost.setAttribute("cx", String(p.x));
      ghost.setAttribute("cy", String(p.y));
    };
    const up = (ev: PointerEvent) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      if (!turn) return;
      if (!ghost) {  // a click; a second one on the same checker soon after plays the higher die
        const double = lastClick.at === from && ev.timeStamp - lastClick.time < DOUBLE_CLICK_MS;
        lastClick = double ? { at: -1, time: 0 } : { at: from, time: ev.timeStamp };
        const best = double ? turn.highest(from) : null;
        return best ? hop(ctx, [best]) : select(ctx, from);
      }
      ghost.remove();
      const p = toBoard(ev);
      const to = placeAt(p.x, p.y);
      const path = to === null ? undefined : turn.targets(from).get(to);
      if (path) hop(ctx, path);
      else { turn.selected = null; ctx.redraw?.(); }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  };
}

// Where a checker stands (viewer's numbering): on point q the n-th of its stack (1: the
// lowest; at most five drawn), on the bar, or borne off in the tray.
function spot(q: number, n: number, mine: boolean): { x: number; y: number } {
  if (q === 25) return { x: BAR_X, y: H / 2 + (mine ? 60 : -60) };
  if (q === 0) return { x: TRAY_X + (W - TRAY_X - 8) / 2, y: mine ? BOTTOM - 3 - (n - 1) * 9 : TOP + 5 + (n - 1) * 9 };
  const k = Math.min(Math.max(n, 1), 5) - 1;
  return { x: pointX(q), y: q <= 12 ? BOTTOM - CR - k * 2 * CR : TOP + CR + k * 2 * CR };
}

// The whole move takes at most this long (the server keeps it off the next player's clock:
// kCheckerAnimationAllowance in src/server/hub.cpp).
export const CHECKER_ANIMATION_MS = 1500;

// The move just played, checker by checker: each one slides from its point to the next, a hit
// checker goes to the bar as it lands. The viewer's own move is not replayed (he made it on the
// board); the dice shown are the ones the mover rolled.
async function animateMove(svg: SVGSVGElement, before: any, ply: Ply, ctx: BoardContext, skip: Skip, prior: Ply[]) {
  const mover = ply.side === "S" ? "south" : "north";
  const steps = stepsOf(ply.text);
  if (ctx.you === mover || !steps?.length) return;
  const me = ctx.you === "north" ? "north" : "south";
  const viewer = (p: Pos) => (mover === me ? p : flip(p));
  const at = (q: number) => (mover === me || q === 0 || q === 25 ? q : 25 - q);
  const roll = /^(\d)-(\d)$/.exec([...prior].reverse().find((p) => p.side === "*")?.text ?? "");
  const work = { ...before, on_roll: mover, dice: roll ? [Number(roll[1]), Number(roll[2])] : before.dice };
  const quiet = { ...ctx, legal: [], last: null };
  const hopMs = Math.min(settings().animation === "fast" ? 150 : 300, CHECKER_ANIMATION_MS / steps.length);
  let pos = posOf(before, mover);
  for (const [from, to] of steps) {
    if (skip.skip || pos.mine[from] <= 0) return;
    const start = spot(at(from), pos.mine[from], mover === me);
    const lifted = { mine: [...pos.mine], theirs: [...pos.theirs] };
    lifted.mine[from]--;
    const next = moveChecker(pos, from, to);
    const end = spot(at(to), next.mine[to], mover === me);
    const root = drawBoard(svg, work, quiet, viewer(lifted));
    const checker = el("circle", { cx: start.x, cy: start.y, r: CR - 1, class: `checker ${mover === me ? "checker-me" : "checker-them"} moving` }, root);
    const t0 = performance.now();
    for (let f = 0; f < 1 && !skip.skip; ) {
      await sleep(16);
      f = Math.min(1, (performance.now() - t0) / hopMs);
      const e = f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f);  // ease in and out
      checker.setAttribute("cx", String(start.x + (end.x - start.x) * e));
      checker.setAttribute("cy", String(start.y + (end.y - start.y) * e));
    }
    pos = next;
    drawBoard(svg, work, quiet, viewer(pos));
    sowClick();
  }
}

const DECISIONS = ["roll", "double", "take", "drop", "pass"];

export const backgammonBoard: BoardRenderer = {
  onBoard: () => true,
  reset() { turn = null; },
  still: (ply, you) => !CHECKER_MOVES.test(ply.text) || (ply.side === "S" ? "south" : "north") === you,
  draw(svg, b, ctx) {
    if (!ctx.legal.length) svg.onpointerdown = null;
    drawBoard(svg, b, ctx);
  },
  animate(svg, before, _after, ply, ctx, skip, prior) {
    svg.onpointerdown = null;
    return animateMove(svg, before, ply, ctx, skip, prior ?? []);
  },
  panel(b, ctx) {
    const out: (Node | string)[] = [];
    for (const d of DECISIONS.filter((m) => ctx.legal.includes(m)))
      out.push(h("button", { class: d === "roll" || d === "take" ? "primary" : "", "data-move": d, onclick: () => ctx.play(d) }, t(`bg.${d}`)));
    const live = currentTurn(b, ctx);
    if (live) {
      const left = live.left;
      out.push(h("span", { class: "small", id: "dice-left" }, live.done ? t("bg.turnDone") : t("bg.diceLeft", { dice: left.join(" ") })));
      out.push(h("button", { id: "undo", disabled: !live.hops.length, onclick: () => { live.undo(); ctx.redraw?.(); } }, t("bg.undo")));
      if (ctx.confirm || live.done) out.push(h("button", { id: "confirm", class: "primary", disabled: !live.done || live.sent,
        onclick: () => { if (live.done && !live.sent) { live.sent = ctx.play(live.done) !== false; ctx.redraw?.(); } } }, t("bg.confirm")));
    }
    return out;
  },
};
