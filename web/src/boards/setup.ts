// A layout composed by clicking pits before it is sent (the setups of madjnuni, el-akil,
// el-ghasheem and Omweso): a click adds a seed, shift-click, right-click or the minus key
// takes one back; the panel counts what remains and sends one setup move per pit.
import { BoardContext } from "./board.js";
import { h } from "../ui.js";
import { t } from "../i18n.js";

export interface SetupPlan {
  slots: string[];       // the pits still to fill, in the order the setup moves fill them
  min: number;           // seeds at least in each pit
  total: number;         // seeds to place in these pits
  autoLast: boolean;     // the last pit takes what remains without a move of its own (Omweso)
  move: (slot: number, count: number) => string;
}

// The draft, by pit name, kept for one game: the pits already sent drop out of the plan one
// by one as the server accepts them, the others keep their counts.
let draft: { game: string; counts: Map<string, number> } | null = null;

function countsFor(plan: SetupPlan, ctx: BoardContext): number[] {
  if (!draft || draft.game !== ctx.game) draft = { game: ctx.game ?? "", counts: new Map() };
  const d = draft.counts;
  let counts = plan.slots.map((pit) => d.get(pit) ?? plan.min);
  if (placed(counts) > plan.total || counts.some((c) => c < plan.min)) counts = plan.slots.map(() => plan.min);
  plan.slots.forEach((pit, k) => d.set(pit, counts[k]));
  return counts;
}

function store(plan: SetupPlan, counts: number[]): void {
  plan.slots.forEach((pit, k) => draft?.counts.set(pit, counts[k]));
}

const placed = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

// The count the draft shows in a pit, or null when the pit is not being laid out.
export function draftCount(plan: SetupPlan, ctx: BoardContext, pit: string): number | null {
  const k = plan.slots.indexOf(pit);
  return k < 0 ? null : countsFor(plan, ctx)[k];
}

// On a touch screen there is no shift or right click: the panel's minus turns a tap into
// taking a seed back.
let takingBack = false;

export function adjust(plan: SetupPlan, ctx: BoardContext, pit: string, by: 1 | -1, say: (m: string) => void): void {
  if (takingBack) by = by > 0 ? -1 : 1;
  const counts = countsFor(plan, ctx);
  const k = plan.slots.indexOf(pit);
  if (k < 0) return;
  if (by > 0 && placed(counts) >= plan.total) return say(t("setup.full"));
  if (by < 0 && counts[k] <= plan.min) return say(plan.min ? t("setup.min", { n: plan.min }) : t("setup.empty"));
  counts[k] += by;
  store(plan, counts);
  ctx.redraw?.();
}

export function setupPanel(plan: SetupPlan, ctx: BoardContext, say: (m: string) => void): (Node | string)[] {
  const counts = countsFor(plan, ctx);
  const left = plan.total - placed(counts);
  const even = () => {
    const per = Math.floor(plan.total / plan.slots.length);
    counts.fill(per);
    for (let k = 0; k < plan.total - per * plan.slots.length; k++) counts[k]++;
    store(plan, counts);
    ctx.redraw?.();
  };
  const send = () => {
    if (left !== 0) return say(t("setup.left", { n: left }));
    const n = plan.autoLast ? plan.slots.length - 1 : plan.slots.length;
    ctx.playMany?.(counts.slice(0, n).map((c, k) => plan.move(k, c)));
  };
  return [
    h("p", { id: "setup-help", class: "small" },
      t("setup.help") + (plan.min ? ` ${t("setup.atLeast", { n: plan.min })}` : "")),
    h("span", { id: "setup-left", "aria-live": "polite" }, left === 0 ? t("setup.placed") : t("setup.left", { n: left })),
    h("button", { id: "setup-minus", "aria-pressed": String(takingBack), class: takingBack ? "pressed" : "",
      title: t("setup.minusHelp"),
      onclick: () => { takingBack = !takingBack; ctx.redraw?.(); } }, t("setup.minus")),
    h("button", { id: "setup-even", onclick: even }, t("setup.even")),
    h("button", { id: "setup-clear", onclick: () => { counts.fill(plan.min); store(plan, counts); ctx.redraw?.(); } }, t("setup.clear")),
    h("button", { id: "setup-send", class: "primary", onclick: send, disabled: left !== 0 }, t("setup.send")),
  ];
}
