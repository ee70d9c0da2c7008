// The lobby: choose a game and its options, an opponent, a clock and a match; open and live games.
import { OptionInfo, TournamentSummary, api, enteredTournaments, player } from "./api.js";
import { clockPicker, loadClocks, loadVariants, variantSelect } from "./formparts.js";
import { leaderboard } from "./leaderboard.js";
import { formatName } from "./tournamenttext.js";
import { h, toast } from "./ui.js";
import { has, t } from "./i18n.js";
import { gameName } from "./gametext.js";
import { icon } from "./icons.js";

// Words a player cannot know (references into the rules file, internal labels) left out.
// Source labels such as "S0:26", "S4", "A3" or "RULES.md 4" name documents a player has never
// seen: a clause or a bracket that cites one is dropped.
const SOURCE = /\b(?:[SA]\d+(?::\d+)?|RULES\.md)\b/;
const plain = (s: string) => s.replace(/\s*\([^()]*\)/g, (m) => (SOURCE.test(m) ? "" : m))
  .split(";").filter((c) => !SOURCE.test(c)).join(";").replace(/\s*\[[^\]]*\]/g, "").trim();
const optionName = (name: string) => (has(`option.${name}`) ? t(`option.${name}`) : name.replace(/_/g, " "));
// An option's help in the player's language (i18n optionHelp.VARIANT.OPTION), else the server's.
const optionHelp = (variant: string, o: OptionInfo) =>
  (has(`optionHelp.${variant}.${o.name}`) ? t(`optionHelp.${variant}.${o.name}`) : plain(o.help));
const seatName = (name: string) => (name === "(open seat)" ? t("seat.open") : name);

// `current` says whether this page is still the one to show once the server has answered.
export async function lobbyPage(root: HTMLElement, current: () => boolean = () => true): Promise<() => void> {
  const variants = await loadVariants();
  // The clock presets are the rules' own tournament clocks, as the server declares them.
  const clocks = await loadClocks();
  const gameSelect = variantSelect(variants, "variant");
  const summary = h("p", { class: "help", id: "variant-summary" });
  const optionsBox = h("div", { id: "variant-options" });
  const rulesLink = h("details", {}, h("summary", {}, t("lobby.rules")), h("pre", { class: "small", style: "white-space: pre-wrap" }));

  const showOptions = () => {
    const v = variants.find((x) => x.name === gameSelect.value)!;
    summary.textContent = has(`summary.${v.name}`) ? t(`summary.${v.name}`) : plain(v.summary);
    // No engine plays this family yet: only a person can be the opponent.
    const computerOption = opponent.querySelector('option[value="computer"]') as HTMLOptionElement;
    computerOption.disabled = !v.computer;
    computerOption.textContent = v.computer ? t("lobby.computer") : t("lobby.computerNot");
    if (!v.computer) opponent.value = "human";
    syncRated();
    optionsBox.replaceChildren();
    for (const o of v.options) {
      let input: HTMLSelectElement | HTMLInputElement;
      if (o.allowed.length && o.allowed.length <= 40) {
        input = h("select", { "data-option": o.name, "data-default": o.default });
        for (const a of o.allowed) input.append(h("option", { value: a, selected: a === o.default }, a));
      } else {
        input = h("input", { "data-option": o.name, "data-default": o.default, value: o.default, size: 8 });
      }
      optionsBox.append(h("label", {}, `${optionName(o.name)} `, input, h("span", { class: "help" }, ` ${optionHelp(v.name, o)}`)));
    }
    (rulesLink.querySelector("pre") as HTMLElement).textContent = "";
    rulesLink.removeAttribute("open");
    // Match formats: the ones the rules name (Oware best of 3/5/7, Mangala 5/7/9), else any.
    const named = v.tournament?.best_of ?? [];
    const formats = named.length ? [1, ...named] : [1, 3, 5, 7, 9];
    const chosen = Number(bestOf.value);
    bestOf.replaceChildren(...formats.map((n) => h("option", { value: n, selected: n === chosen }, n === 1 ? t("lobby.oneGame") : t("lobby.bestOf", { n }))));
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
  gameSelect.addEventListener("change", () => { showOptions(); showLevel(); });

  const level = h("input", { type: "range", min: 1, max: 10, value: 5, id: "level", "aria-label": t("lobby.level") });
  const levelOut = h("output", { for: "level" }, "5");
  // The level's rating measured by a round robin of the levels (data/level-ratings.json).
  const levelRating = h("span", { class: "level-rating", id: "level-rating" });
  const showLevel = () => {
    levelOut.textContent = level.value;
    const measured = variants.find((x) => x.name === gameSelect.value)?.levels?.find((l) => l.level === Number(level.value));
    levelRating.textContent = measured ? t("lobby.levelRating", { rating: measured.rating, deviation: measured.deviation }) : "";
    levelRating.title = measured ? t("lobby.levelRatingHelp", { games: measured.games }) : "";
  };
  level.addEventListener("input", showLevel);
  const opponent = h("select", { id: "opponent" },
    h("option", { value: "computer" }, t("lobby.computer")), h("option", { value: "human" }, t("lobby.person")));
  // Rated: a game between people counts for both players' ratings (never against the computer).
  const rated = h("input", { type: "checkbox", id: "rated" });
  const ratedBox = h("label", {}, rated, " ", t("lobby.rated"), h("span", { class: "help" }, ` ${t("lobby.ratedHelp")}`));
  const syncRated = () => { ratedBox.hidden = opponent.value !== "human"; };
  opponent.addEventListener("change", syncRated);
  const side = h("select", { id: "side" }, h("option", { value: "south" }, t("lobby.south")),
    h("option", { value: "north" }, t("side.north")), h("option", { value: "random" }, t("lobby.random")));
  const clockChoice = clockPicker(clocks);
  const clock = clockChoice.select, custom = clockChoice.custom;
  const bestOf = h("select", { id: "best-of" }, h("option", { value: 1 }, t("lobby.oneGame")));

  const create = h("button", { class: "primary", type: "submit", id: "create" }, t("lobby.start"));
  const form = h("form", {},
    h("fieldset", {}, h("legend", {}, t("lobby.game")), h("label", {}, `${t("lobby.variant")} `, gameSelect), summary, optionsBox, rulesLink),
    h("fieldset", {}, h("legend", {}, t("lobby.opponent")), h("label", {}, `${t("lobby.against")} `, opponent),
      h("label", {}, `${t("lobby.level")} `, level, " ", levelOut, " ", levelRating, h("span", { class: "help" }, ` ${t("lobby.levelHelp")}`)),
      h("label", {}, `${t("lobby.side")} `, side), ratedBox),
    h("fieldset", {}, h("legend", {}, t("lobby.clockMatch")), h("label", {}, `${t("lobby.clock")} `, clock, custom),
      h("label", {}, `${t("lobby.match")} `, bestOf, h("span", { class: "help" }, ` ${t("lobby.matchHelp")}`))),
    create);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    create.setAttribute("disabled", "");
    try {
      const req: Record<string, unknown> = { variant: spec(), opponent: opponent.value, side: side.value, best_of: Number(bestOf.value) };
      if (opponent.value === "computer") req.level = Number(level.value);
      else req.rated = rated.checked;
      if (clockChoice.value()) req.clock = clockChoice.value();
      const g = await api.createGame(req);
      location.hash = `#/game/${g.id}`;
    } catch (err) {
      toast((err as Error).message);
    } finally {
      create.removeAttribute("disabled");
    }
  });

  const tournamentList = h("ul", { class: "games-list", id: "tournaments" });
  const board = leaderboard(variants);
  const openList = h("ul", { class: "games-list", id: "open-games" });
  const liveList = h("ul", { class: "games-list", id: "live-games" });
  const refresh = async () => {
    try {
      const g = await api.games();
      // One's own games are resumed, not watched (the list names the seats by player name).
      const me = player()?.name;
      const mine = (x: any) => me !== undefined && (x.south === me || x.north === me);
      const item = (x: any, verb: string) => h("li", {}, h("a", { class: "button", href: `#/game/${x.id}` }, mine(x) ? t("lobby.resume") : verb),
        ` ${gameName(x.variant, x.title)}: ${seatName(x.south)} – ${seatName(x.north)}`, x.best_of > 1 ? ` (${t("lobby.bestOf", { n: x.best_of })})` : "",
        x.clock ? h("span", { class: "small", title: t("lobby.clocked") }, " ", icon("clock", t("lobby.clocked"))) : "", ` · ${t("lobby.plies", { n: x.plies })}`);
      openList.replaceChildren(...(g.open.length ? g.open.map((x) => item(x, t("join"))) : [h("li", { class: "help" }, t("lobby.noOpen"))]));
      liveList.replaceChildren(...(g.live.length ? g.live.map((x) => item(x, t("lobby.watch"))) : [h("li", { class: "help" }, t("lobby.noLive"))]));
      const ts = await api.tournaments();
      const entry = (x: TournamentSummary, verb: string) => h("li", { "data-tournament": x.id },
        h("a", { class: "button", href: `#/tournament/${x.id}` }, verb),
        ` ${x.name} · ${gameName(x.variant, x.title)} · ${formatName({ format: x.format as any, rounds_total: null, games_per_pairing: null })} · ${t("tour.entrantsShort", { n: x.entrants })}`);
      const entered = enteredTournaments();
      const all = [...ts.open.map((x) => entry(x, entered.includes(x.id) ? t("tour.view") : t("tour.enter"))), ...ts.playing.map((x) => entry(x, t("lobby.watch"))),
        ...ts.over.slice(0, 5).map((x) => entry(x, t("tour.results")))];
      tournamentList.replaceChildren(...(all.length ? all : [h("li", { class: "help" }, t("tour.none"))]));
    } catch { /* the next refresh tries again */ }
  };
  await refresh();
  if (!current()) return () => {};
  const timer = window.setInterval(refresh, 5000);

  showOptions();
  showLevel();
  syncRated();
  root.replaceChildren(h("div", { class: "grid" },
    h("section", {}, h("h1", {}, t("lobby.new")), form),
    h("section", {}, h("h2", {}, t("lobby.open")), openList, h("h2", {}, t("lobby.live")), liveList,
      h("div", { class: "section-head" }, h("h2", {}, t("tour.title")),
        h("a", { class: "button", href: "#/tournaments/new", id: "new-tournament" }, t("tour.organise"))), tournamentList,
      board.element)));
  return () => clearInterval(timer);
}
