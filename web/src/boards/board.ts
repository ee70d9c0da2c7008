// What every family's board drawing provides. Each family keeps its drawing in its own file
// and registers here (index.ts), so a new family is one new file and one line.
import type { Ply } from "../api.js";
import { settings } from "../settings.js";
import { sowClick } from "../sound.js";
import { SVG_NS } from "../svg.js";

export interface BoardContext {
  you: string | null;          // "south", "north" or null (spectator): the side drawn at the bottom
  legal: string[];             // moves the viewer may play now (empty when it is not his turn)
  side?: string | null;        // whose pits `legal` refers to (default: the board's to_move)
  last: Ply | null;            // the last decision, to mark it
  play: (move: string) => boolean | void;  // false: not sent (the connection is down)
  // Several legal moves start from the clicked place (e.g. Toguz "3" and "3t"): let the player pick.
  choose?: (moves: string[]) => void;
  game?: string;                          // the game id (keys a layout being composed)
  playMany?: (moves: string[]) => void;   // a whole setup: one move per pit, in order
  redraw?: () => void;                    // the board and its panel again (a draft changed)
  confirm?: boolean;                      // a move waits for the player's "Confirm"
}

// One lap of a sowing as the server traced it (docs/server.md, `path`): the board as the lap
// starts (the lifted seeds in the hand) and the holes that get a seed each, in order.
export interface Lap { board: any; pits: string[] }

export interface Skip { skip: boolean }

export interface BoardRenderer {
  // Whether this move is picked by clicking the board; the page lists every other legal move
  // as a button (setup layouts, pie rule, joint moves, or a family drawn without clicks).
  onBoard(move: string, board: any): boolean;
  draw(svg: SVGSVGElement, board: any, ctx: BoardContext): void;
  // Plays the move step by step from `before` (seed by seed, checker by checker); resolves when
  // done or skipped. `prior`: the plies before it (backgammon reads the roll played).
  animate?(svg: SVGSVGElement, before: any, after: any, ply: Ply, ctx: BoardContext, skip: Skip, prior?: Ply[]): Promise<void>;
  // Whether a decision is not shown moving (backgammon's roll, double, take, drop, pass, and
  // the viewer's own move, made on the board already): such plies are left out when the page
  // looks for the one move to animate. `you`: the viewer's side.
  still?(ply: Ply, you: string | null): boolean;
  // Plays a traced sowing lap after lap, seed by seed (relay sowings, Bao, Omweso).
  animateLaps?(svg: SVGSVGElement, laps: Lap[], ctx: BoardContext, skip: Skip): Promise<void>;
  // What the board asks of the player beside it (a layout's counter, a claim, the pie choice).
  panel?(board: any, ctx: BoardContext): (Node | string)[];
  // Forgets a move being composed (the server refused it).
  reset?(): void;
}

// The pause between two seeds of an animation: the whole sowing takes at most about 3 seconds
// (1.5 s when the player chose "fast"), the allowance the server keeps off the next player's
// clock (docs/server.md).
export const ANIMATION_MS = 3000;
export const seedStep = (seeds: number) => {
  const budget = settings().animation === "fast" ? ANIMATION_MS / 2 : ANIMATION_MS;
  return Math.min(160, budget / Math.max(seeds + 1, 1));
};

// Plays laps with a family's own drawing: `add` puts one seed into a named hole of the board.
export async function playLaps(laps: Lap[], skip: Skip, add: (board: any, hole: string) => void,
  draw: (board: any, active: string | null) => void): Promise<void> {
  const step = seedStep(laps.reduce((n, l) => n + l.pits.length, 0) + laps.length - 1);
  for (const lap of laps) {
    if (skip.skip) return;
    const work = JSON.parse(JSON.stringify(lap.board));
    draw(work, null);
    await sleep(step);
    for (const hole of lap.pits) {
      if (skip.skip) return;
      add(work, hole);
      draw(work, hole);
      sowClick();
      await sleep(step);
    }
  }
}

// A phone held upright: a wide board is turned a quarter there, so that a pit or a point is
// about a finger wide (a 9-pit Toguz row gives 28 px pits across a 390 px screen, 45 turned).
export const upright = () => window.matchMedia("(max-width: 500px) and (orientation: portrait)").matches;

// Turns what is drawn in svg a quarter clockwise when the phone is upright and the board wide
// (the viewer's row then runs down the left side); every text is turned back to stay upright.
export function turnUpright(svg: SVGSVGElement): void {
  const [, , w, h] = (svg.getAttribute("viewBox") ?? "0 0 0 0").split(" ").map(Number);
  const turn = upright() && w > h * 1.3;
  svg.classList.toggle("upright", turn);
  if (!turn) return;
  const g = document.createElementNS(SVG_NS, "g");
  g.setAttribute("transform", `translate(${h} 0) rotate(90)`);
  while (svg.firstChild) g.appendChild(svg.firstChild);
  svg.appendChild(g);
  svg.setAttribute("viewBox", `0 0 ${h} ${w}`);
  g.querySelectorAll("text").forEach((t) => t.setAttribute("transform", `rotate(-90 ${t.getAttribute("x")} ${t.getAttribute("y")})`));
}

export function clear(svg: SVGSVGElement): void {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
