// A few helpers for building SVG by hand.
export const SVG_NS = "http://www.w3.org/2000/svg";

export function el<K extends keyof SVGElementTagNameMap>(
  tag: K, attrs: Record<string, string | number> = {}, parent?: Element): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

export function text(x: number, y: number, content: string, cls: string, parent: Element): SVGTextElement {
  const t = el("text", { x, y, class: cls, "text-anchor": "middle", "dominant-baseline": "central" }, parent);
  t.textContent = content;
  return t;
}

// Seeds as pieces: up to `max` small stones scattered the same way every time for a count.
export function seeds(cx: number, cy: number, r: number, count: number, parent: Element, max = 18): void {
  const shown = Math.min(count, max);
  for (let i = 0; i < shown; i++) {
    // A golden-angle spiral keeps stones apart without randomness.
    const a = i * 2.39996, d = r * 0.78 * Math.sqrt((i + 0.5) / Math.max(shown, 1));
    el("circle", { cx: cx + d * Math.cos(a), cy: cy + d * Math.sin(a), r: Math.max(2.5, r * 0.16), fill: "var(--seed)", stroke: "#9c8a6a", "stroke-width": 0.8 }, parent);
  }
}

// A focusable, clickable SVG group: Enter and Space activate it like a button.
export function clickable(g: SVGElement, label: string, onActivate: () => void): void {
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.setAttribute("aria-label", label);
  g.addEventListener("click", onActivate);
  g.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if (k === "Enter" || k === " ") { e.preventDefault(); onActivate(); }
  });
}

// A pit of a layout being composed: click, Enter or + adds a seed; shift-click, right-click,
// − or Backspace takes one back.
export function adjustable(g: SVGElement, label: string, change: (by: 1 | -1) => void): void {
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.setAttribute("aria-label", label);
  g.classList.add("legal", "setup");
  g.addEventListener("click", (e) => change((e as MouseEvent).shiftKey ? -1 : 1));
  g.addEventListener("contextmenu", (e) => { e.preventDefault(); change(-1); });
  g.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if (k === "Enter" || k === " " || k === "+") { e.preventDefault(); change(1); }
    if (k === "-" || k === "−" || k === "Backspace" || k === "Delete") { e.preventDefault(); change(-1); }
  });
}
