// Board drawing per family: one file each, one line here.
import { BoardRenderer } from "./board.js";
import { backgammonBoard } from "./backgammon.js";
import { fourRowBoard } from "./fourrow.js";
import { genericBoard } from "./generic.js";
import { sowingBoard } from "./sowing.js";

const renderers: Record<string, BoardRenderer> = {
  sowing: sowingBoard,
  backgammon: backgammonBoard,
  bao: fourRowBoard,
  omweso: fourRowBoard,
};

export function rendererFor(family: string): BoardRenderer {
  return renderers[family] ?? genericBoard;
}
