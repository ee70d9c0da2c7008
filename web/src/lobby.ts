// The lobby: choose a game and its options, an opponent, a clock and a match; open and live games.
import { VariantInfo, api } from "./api.js";
import { h, toast } from "./ui.js";

let variantsCache: VariantInfo[] | null = null;

export async function lobbyPage(root: HTMLElement): Promise<() => void> {
  const variants = variantsCache ?? (variantsCache = await api.variants());
  const gameSelect = h("select", { id: "variant", name: "variant" });
  const families = [...new Set(variants.map((v) => v.family))];
  for (const f of families) {
    const group = h("optgroup", { label: f });
    for (const v of variants.filter((x) => x.family === f)) group.append(h("option", { value: v.name }, v.title));
    gameSelect.append(group);
  }
  const summary = h("p", { class: "help", id: "variant-summary" });
  const optionsBox = h("div", { id: "variant-options" });
  const rulesLink = h("details", {}, h("summary", {}, "Rules of this variant"), h("pre", { class: "small", style: "white-space: pre-wrap" }));

  const showOptions = () => {
    const v = variants.find((x) => x.name === gameSelect.value)!;
    summary.textContent = v.summary;
    // No engine plays this family yet: only a person can be the opponent.
    const computerOption = opponent.querySelector('option[value="computer"]') as HTMLOptionElement;
    computerOption.disabled = !v.computer;
    computerOption.textContent = v.computer ? "the computer" : "the computer (not for this game yet)";
    if (!v.computer) opponent.value = "human";
    optionsBox.replaceChildren();
    for (const o of v.options) {
      let input: HTMLSelectElement | HTMLInputElement;
      if (o.allowed.length && o.allowed.length <= 40) {
        input = h("select", { "data-option": o.name, "data-default": o.default });
        for (const a of o.allowed) input.append(h("option", { value: a, selected: a === o.default }, a));
      } else {
        input = h("input", { "data-option": o.name, "data-default": o.default, value: o.default, size: 8 });
      }
      optionsBox.append(h("label", {}, `${o.name} `, input, h("span", { class: "help" }, ` ${o.help}`)));
    }
    (rulesLink.querySelector("pre") as HTMLElement).textContent = "";
    rulesLink.removeAttribute("open");
  };
  rulesLink.addEventListener("toggle", async () => {
    if (!(rulesLink as HTMLDetailsElement).open) return;
    try { (rulesLink.querySelector("pre") as HTMLElement).textContent = (await api.rules(spec())).rules; } catch (e) { toast(String((e as Error).message)); }
  });
  const spec = () => {
    const opts: string[] = [];
    optionsBox.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-option]").forEach((i) => {
      if (i.value !== i.dataset.default) opts.push(`${i.dataset.option}=${i.value}`);
    });
    return opts.length ? `${gameSelect.value}:${opts.join(",")}` : gameSelect.value;
  };
  gameSelect.addEventListener("change", showOptions);

  const level = h("input", { type: "range", min: 1, max: 10, value: 5, id: "level", "aria-label": "computer level" });
  const levelOut = h("output", { for: "level" }, "5");
  level.addEventListener("input", () => (levelOut.textContent = level.value));
  const opponent = h("select", { id: "opponent" },
    h("option", { value: "computer" }, "the computer"), h("option", { value: "human" }, "a person (share a link)"));
  const side = h("select", { id: "side" }, h("option", { value: "south" }, "South (moves first)"),
    h("option", { value: "north" }, "North"), h("option", { value: "random" }, "random"));
  const clock = h("select", { id: "clock" }, h("option", { value: "none" }, "no clock"),
    h("option", { value: "oware" }, "Oware tournament: 20 min each"),
    h("option", { value: "toguz" }, "Toguz tournament: 60 min each, game capped at 2 h"),
    h("option", { value: "custom" }, "custom"));
  const minutes = h("input", { type: "number", min: 0.1, max: 180, step: "any", value: 5, id: "minutes", "aria-label": "minutes per player" });
  const increment = h("input", { type: "number", min: 0, max: 60, value: 0, id: "increment", "aria-label": "increment in seconds" });
  const custom = h("span", { hidden: true }, " minutes ", minutes, " + seconds a move ", increment);
  clock.addEventListener("change", () => (custom.hidden = clock.value !== "custom"));
  const bestOf = h("select", { id: "best-of" }, ...[1, 3, 5, 7, 9].map((n) => h("option", { value: n }, n === 1 ? "one game" : `best of ${n}`)));

  const create = h("button", { class: "primary", type: "submit", id: "create" }, "Start the game");
  const form = h("form", {},
    h("fieldset", {}, h("legend", {}, "Game"), h("label", {}, "Variant ", gameSelect), summary, optionsBox, rulesLink),
    h("fieldset", {}, h("legend", {}, "Opponent"), h("label", {}, "Play against ", opponent),
      h("label", {}, "Computer level ", level, " ", levelOut, h("span", { class: "help" }, " (1 plays at random-ish, 10 thinks longest)")),
      h("label", {}, "Your side ", side)),
    h("fieldset", {}, h("legend", {}, "Clock and match"), h("label", {}, "Clock ", clock, custom),
      h("label", {}, "Match ", bestOf, h("span", { class: "help" }, " (Oware: a drawn game counts as a win for each player)"))),
    create);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    create.setAttribute("disabled", "");
    try {
      const req: Record<string, unknown> = { variant: spec(), opponent: opponent.value, side: side.value, best_of: Number(bestOf.value) };
      if (opponent.value === "computer") req.level = Number(level.value);
      if (clock.value === "custom") req.clock = { minutes: Number(minutes.value), increment: Number(increment.value) };
      else if (clock.value !== "none") req.clock = { preset: clock.value };
      const g = await api.createGame(req);
      location.hash = `#/game/${g.id}`;
    } catch (err) {
      toast((err as Error).message);
    } finally {
      create.removeAttribute("disabled");
    }
  });

  const openList = h("ul", { class: "games-list", id: "open-games" });
  const liveList = h("ul", { class: "games-list", id: "live-games" });
  const refresh = async () => {
    try {
      const g = await api.games();
      const item = (x: any, verb: string) => h("li", {}, h("a", { href: `#/game/${x.id}` }, verb), ` ${x.title}: ${x.south} vs ${x.north}`,
        x.best_of > 1 ? ` (best of ${x.best_of})` : "", x.clock ? " ⏱" : "", ` · ${x.plies} plies`);
      openList.replaceChildren(...(g.open.length ? g.open.map((x) => item(x, "Join")) : [h("li", { class: "help" }, "No open games.")]));
      liveList.replaceChildren(...(g.live.length ? g.live.map((x) => item(x, "Watch")) : [h("li", { class: "help" }, "No games being played.")]));
    } catch { /* the next refresh tries again */ }
  };
  await refresh();
  const timer = window.setInterval(refresh, 5000);

  showOptions();
  root.replaceChildren(h("div", { class: "grid" },
    h("section", {}, h("h1", {}, "New game"), form),
    h("section", {}, h("h2", {}, "Open games"), openList, h("h2", {}, "Being played"), liveList)));
  return () => clearInterval(timer);
}
