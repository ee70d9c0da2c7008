// Form parts shared by the lobby's new game and the new tournament: the game chooser (grouped
// by family, names as their players write them) and the clock chooser (the rules' own
// tournament clocks, none, or minutes + increment).
import { ClockPreset, VariantInfo, api } from "./api.js";
import { h } from "./ui.js";
import { has, t } from "./i18n.js";
import { gameName } from "./gametext.js";

let variantsCache: VariantInfo[] | null = null;
let clocksCache: ClockPreset[] | null = null;
export const loadVariants = async () => variantsCache ?? (variantsCache = await api.variants());
export const loadClocks = async () => clocksCache ?? (clocksCache = await api.clocks());

export function variantSelect(variants: VariantInfo[], id: string, chosen = "kalah"): HTMLSelectElement {
  const select = h("select", { id, name: "variant" });
  for (const f of [...new Set(variants.map((v) => v.family))]) {
    const group = h("optgroup", { label: has(`family.${f}`) ? t(`family.${f}`) : f });
    for (const v of variants.filter((x) => x.family === f))
      group.append(h("option", { value: v.name, selected: v.name === chosen }, gameName(v.name, v.title)));
    select.append(group);
  }
  return select;
}

// A preset's name in the player's language: its own text, or the rules' title and minutes.
const clockLabel = (c: ClockPreset) => (has(`clock.${c.name}`) ? t(`clock.${c.name}`) : t("lobby.clockRules", { title: c.title, minutes: Math.round(c.initial_ms / 60000) }));

// The clock chooser; `value()` is the request's `clock` (undefined: none).
export function clockPicker(clocks: ClockPreset[], prefix = "", minutesDefault = 5) {
  const select = h("select", { id: `${prefix}clock` }, h("option", { value: "none" }, t("lobby.noClock")),
    ...clocks.map((c) => h("option", { value: c.name }, clockLabel(c))),
    h("option", { value: "custom" }, t("lobby.custom")));
  const minutes = h("input", { type: "number", min: 0.1, max: 180, step: "any", value: minutesDefault, id: `${prefix}minutes`, "aria-label": t("lobby.minutes") });
  const increment = h("input", { type: "number", min: 0, max: 60, value: 0, id: `${prefix}increment`, "aria-label": t("lobby.increment") });
  const custom = h("span", { hidden: true }, ` ${t("lobby.minutes")} `, minutes, ` ${t("lobby.increment")} `, increment);
  const sync = () => (custom.hidden = select.value !== "custom");
  select.addEventListener("change", sync);
  const value = (): Record<string, number | string> | undefined =>
    select.value === "custom" ? { minutes: Number(minutes.value), increment: Number(increment.value) }
      : select.value === "none" ? undefined : { preset: select.value };
  return { select, custom, value, set: (v: string) => { select.value = v; sync(); } };
}
