// Any family without a drawing of its own yet: its position text, so the game stays playable.
import { BoardRenderer, clear } from "./board.js";
import { el } from "../svg.js";

export const genericBoard: BoardRenderer = {
  onBoard: () => false,
  draw(svg, board) {
    clear(svg);
    const lines = String(board.position ?? JSON.stringify(board)).match(/.{1,60}/g) ?? [""];
    svg.setAttribute("viewBox", `0 0 640 ${40 + 22 * lines.length}`);
    el("rect", { x: 0, y: 0, width: 640, height: 40 + 22 * lines.length, fill: "#eee", rx: 8 }, svg);
    lines.forEach((l, i) => {
      const t = el("text", { x: 16, y: 30 + 22 * i, "font-family": "monospace", "font-size": 16 }, svg);
      t.textContent = l;
    });
  },
};
