// What every family's board drawing provides. Each family keeps its drawing in its own file
// and registers here (index.ts), so a new family is one new file and one line.
import type { Ply } from "../api.js";

export interface BoardContext {
  you: string | null;          // "south", "north" or null (spectator): the side drawn at the bottom
  legal: string[];             // moves the viewer may play now (empty when it is not his turn)
  side?: string | null;        // whose pits `legal` refers to (default: the board's to_move)
  last: Ply | null;            // the last decision, to mark it
  play: (move: string) => void;
  // Several legal moves start from the clicked place (e.g. Toguz "3" and "3t"): let the player pick.
  choose?: (moves: string[]) => void;
}

export interface Skip { skip: boolean }

export interface BoardRenderer {
  // Whether this move is picked by clicking the board; the page lists every other legal move
  // as a button (setup layouts, pie rule, joint moves, or a family drawn without clicks).
  onBoard(move: string, board: any): boolean;
  draw(svg: SVGSVGElement, board: any, ctx: BoardContext): void;
  // Plays the move step by step from `before` (seed by seed); resolves when done or skipped.
  animate?(svg: SVGSVGElement, before: any, after: any, ply: Ply, ctx: BoardContext, skip: Skip): Promise<void>;
}

export function clear(svg: SVGSVGElement): void {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
