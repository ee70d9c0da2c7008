// The organiser's form (#/tournaments/new): name, game, format, rounds, games per pairing (a
// knockout's best-of, from the rules), clock, an optional start time, rated or casual.
import { api } from "./api.js";
import { h, toast } from "./ui.js";
import { t } from "./i18n.js";
import { clockPicker, loadClocks, loadVariants, variantSelect } from "./formparts.js";

export async function newTournamentPage(root: HTMLElement, current: () => boolean): Promise<() => void> {
  const variants = await loadVariants();
  const clocks = await loadClocks();
  if (!current()) return () => {};
  const name = h("input", { id: "t-name", required: true, maxlength: 80, value: t("tour.defaultName") });
  const game = variantSelect(variants, "t-variant", "kalah");
  const format = h("select", { id: "t-format" }, h("option", { value: "roundrobin" }, t("tour.format.roundrobin")),
    h("option", { value: "swiss" }, t("tour.format.swiss")), h("option", { value: "knockout" }, t("tour.format.knockout")));
  const rounds = h("input", { type: "number", id: "t-rounds", min: 1, max: 50, value: 1 });
  const roundsLabel = h("span", {});
  const roundsHelp = h("span", { class: "help" });
  const roundsBox = h("label", {}, roundsLabel, " ", rounds, " ", roundsHelp);
  const perPairing = h("select", { id: "t-games" });
  const perPairingHelp = h("span", { class: "help" });
  const clock = clockPicker(clocks, "t-");
  clock.set("custom");
  const startsAt = h("input", { type: "datetime-local", id: "t-starts" });
  const rated = h("input", { type: "checkbox", id: "t-rated" });

  // The format says what rounds mean, and the rules say a knockout match's lengths.
  const sync = () => {
    const v = variants.find((x) => x.name === game.value)!;
    const knockout = format.value === "knockout";
    roundsBox.hidden = knockout;
    roundsLabel.textContent = format.value === "swiss" ? t("tour.rounds") : t("tour.cycles");
    roundsHelp.textContent = format.value === "swiss" ? t("tour.roundsHelp") : t("tour.cyclesHelp");
    // A Swiss left blank plays log2 of the entrants (the server's default).
    rounds.placeholder = format.value === "swiss" ? t("tour.auto") : "";
    rounds.required = format.value === "roundrobin";
    if (format.value === "swiss" && rounds.value === "1") rounds.value = "";
    if (format.value === "roundrobin" && !rounds.value) rounds.value = "1";
    const named = v.tournament?.best_of ?? [];
    const options = knockout ? (named.length ? named : [1, 3, 5, 7, 9]) : [1, 2, 3, 4];
    const was = Number(perPairing.value || 0);
    perPairing.replaceChildren(...options.map((n) => h("option", { value: n, selected: n === was || (!options.includes(was) && n === options[0]) },
      knockout ? (n === 1 ? t("lobby.oneGame") : t("lobby.bestOf", { n })) : t("tour.gamesEach", { n }))));
    perPairingHelp.textContent = knockout ? t("tour.knockoutHelp") : t("tour.gamesHelp");
  };
  game.addEventListener("change", sync);
  format.addEventListener("change", sync);
  sync();

  const create = h("button", { class: "primary", type: "submit", id: "t-create" }, t("tour.create"));
  const form = h("form", { class: "tournament-form" },
    h("fieldset", {}, h("legend", {}, t("tour.what")), h("label", {}, `${t("tour.name")} `, name), h("label", {}, `${t("lobby.variant")} `, game)),
    h("fieldset", {}, h("legend", {}, t("tour.formatLegend")), h("label", {}, `${t("tour.format")} `, format),
      h("p", { class: "help" }, t("tour.formatHelp")), roundsBox,
      h("label", {}, `${t("tour.perPairing")} `, perPairing, " ", perPairingHelp)),
    h("fieldset", {}, h("legend", {}, t("tour.when")), h("label", {}, `${t("lobby.clock")} `, clock.select, clock.custom),
      h("p", { class: "help" }, t("tour.clockHelp")),
      h("label", {}, `${t("tour.startTime")} `, startsAt, h("span", { class: "help" }, ` ${t("tour.startTimeHelp")}`)),
      h("label", {}, rated, " ", t("tour.ratedLabel"), h("span", { class: "help" }, ` ${t("tour.ratedHelp")}`))),
    create);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    create.disabled = true;
    try {
      const req: Record<string, unknown> = { name: name.value, variant: game.value, format: format.value,
        games_per_pairing: Number(perPairing.value), rated: rated.checked };
      if (format.value !== "knockout" && rounds.value) req.rounds = Number(rounds.value);
      if (clock.value()) req.clock = clock.value();
      // The browser's local time, sent in UTC.
      if (startsAt.value) req.starts_at = new Date(startsAt.value).toISOString().replace(/\.\d{3}Z$/, "Z");
      const v = await api.createTournament(req);
      location.hash = `#/tournament/${v.id}`;
    } catch (err) {
      toast((err as Error).message);
    } finally {
      create.disabled = false;
    }
  });
  root.replaceChildren(h("div", { class: "narrow" }, h("h1", {}, t("tour.new")), h("p", { class: "help" }, t("tour.newHelp")), form));
  name.focus();
  return () => {};
}
