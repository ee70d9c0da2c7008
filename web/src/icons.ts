// Inline SVG icons: no font has to carry these glyphs, so none shows as an empty box.
import { SVG_NS } from "./svg.js";

const PATHS: Record<string, string> = {
  clock: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16zm-1 3v6l5 3 1-1.7-4-2.3V7z",
  first: "M6 5h2v14H6zM20 5v14l-10-7z",
  prev: "M17 5v14L6 12z",
  next: "M7 5v14l11-7z",
  last: "M16 5h2v14h-2zM4 5v14l10-7z",
  offline: "M2 4.3 3.3 3l17.7 17.7-1.3 1.3-4.4-4.4A3 3 0 0 0 12 21a3 3 0 0 1-2.1-5.1l-2.2-2.2a6 6 0 0 0-1.2 1.3L5 13.6a8.5 8.5 0 0 1 1.4-1.4L4.3 10A12 12 0 0 0 2 12.2L.6 10.8A14 14 0 0 1 2.9 8.6zM12 6a14 14 0 0 1 11.4 4.8L22 12.2a12 12 0 0 0-7.4-4z",
  link: "M10.6 13.4a1 1 0 0 0 1.4 0l4-4a3 3 0 0 0-4.2-4.2l-1.3 1.3 1.4 1.4 1.3-1.3a1 1 0 0 1 1.4 1.4l-4 4a1 1 0 0 0 0 1.4zm2.8-2.8a1 1 0 0 0-1.4 0l-4 4a3 3 0 0 0 4.2 4.2l1.3-1.3-1.4-1.4-1.3 1.3a1 1 0 0 1-1.4-1.4l4-4a1 1 0 0 0 0-1.4z",
  download: "M11 3h2v9l3-3 1.4 1.4L12 15.8l-5.4-5.4L8 9l3 3zM5 18h14v2H5z",
  flag: "M5 3h2v18H5zm3 1h10l-2 4 2 4H8z",
  undo: "M8 7V3L2 9l6 6v-4h6a4 4 0 0 1 0 8h-3v2h3a6 6 0 0 0 0-12z",
  check: "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z",
  settings: "M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm9 5.5v-3l-2.6-.5a7 7 0 0 0-.7-1.6l1.5-2.2-2.1-2.1-2.2 1.5a7 7 0 0 0-1.6-.7L13.5 3h-3l-.5 2.6a7 7 0 0 0-1.6.7L6.2 4.8 4.1 6.9l1.5 2.2a7 7 0 0 0-.7 1.6L2.3 11v3l2.6.5a7 7 0 0 0 .7 1.6l-1.5 2.2 2.1 2.1 2.2-1.5a7 7 0 0 0 1.6.7l.5 2.6h3l.5-2.6a7 7 0 0 0 1.6-.7l2.2 1.5 2.1-2.1-1.5-2.2a7 7 0 0 0 .7-1.6z",
  rematch: "M17.6 6.4A8 8 0 1 0 20 12h-2a6 6 0 1 1-1.8-4.2L13 11h7V4z",
};

export function icon(name: keyof typeof PATHS | string, label?: string): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon");
  if (label) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", label); }
  else svg.setAttribute("aria-hidden", "true");
  const p = document.createElementNS(SVG_NS, "path");
  p.setAttribute("d", PATHS[name] ?? "");
  p.setAttribute("fill", "currentColor");
  svg.appendChild(p);
  return svg;
}
