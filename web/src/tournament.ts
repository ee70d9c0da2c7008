// A tournament's page (#/tournament/ID): its entrants while it is open (join, the organiser's
// computer entrants and start), then the rounds' pairings as they are published, the standings
// with their tie-breaks and the crosstable, all kept live by the server's pushes
// (watch_tournament), and the exports. A player's game opens by itself when it starts.
import { Live, Pairing, TournamentGame, TournamentView, api, player } from "./api.js";
import { h, toast } from "./ui.js";
import { t } from "./i18n.js";
import { gameName } from "./gametext.js";
import { icon } from "./icons.js";
import { clockText, formatName, gameOpensFor, levelLabel, resultMark } from "./tournamenttext.js";
import { followTournament } from "./tournamentcall.js";

const num = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1).replace(/\.0$/, ""));
// Half points as chess players write them: 2½.
const points = (x: number) => (x % 1 === 0.5 ? `${Math.floor(x) || ""}½` : num(x));

export function tournamentPage(root: HTMLElement, id: string, live: Live): () => void {
  let view: TournamentView | null = null;
  // Games already opened for this player (a game he left is not opened again).
  const opened = new Set<string>();
  const title = h("h1", {}, t("loading"));
  const facts = h("p", { class: "help", id: "t-facts" });
  const note = h("p", { class: "note", id: "t-note", hidden: true });
  const actions = h("div", { class: "controls", id: "t-actions" });
  const entrants = h("section", { class: "panel", id: "t-entrants" });
  const standings = h("section", { class: "panel", id: "t-standings" });
  const cross = h("section", { class: "panel", id: "t-crosstable" });
  const rounds = h("section", { class: "panel", id: "t-rounds" });
  const exports = h("section", { class: "panel", id: "t-exports" });
  root.replaceChildren(h("div", { class: "tournament-page", "data-tournament": id },
    h("div", { class: "t-head" }, title, facts, note, actions),
    h("div", { class: "t-main" }, standings, cross), h("div", { class: "t-side" }, entrants, rounds, exports)));

  const name = (v: TournamentView, seed: number) => {
    const e = v.entrants[seed - 1];
    if (!e) return "?";
    const label = e.kind === "computer" ? levelLabel(e.level ?? 0, e.name) : e.name;
    return e.player !== undefined ? h("a", { href: `#/player/${e.player}`, class: "player-link" }, label) : h("span", {}, label);
  };
  const me = () => player()?.id;
  const mySeed = (v: TournamentView) => v.entrants.find((e) => e.player !== undefined && e.player === me())?.seed;

  const act = async (f: () => Promise<TournamentView>, button: HTMLButtonElement) => {
    button.disabled = true;
    try { render(await f()); } catch (e) { toast((e as Error).message); } finally { button.disabled = false; }
  };

  function renderActions(v: TournamentView) {
    const items: Node[] = [];
    const organiser = me() === v.organiser_id;
    if (v.status === "open") {
      if (mySeed(v) === undefined) {
        const join = h("button", { class: "primary", id: "t-join" }, t("tour.join"));
        join.addEventListener("click", () => act(() => api.joinTournament(id), join));
        items.push(join);
      } else {
        items.push(h("span", { class: "badge", id: "t-entered" }, icon("check"), t("tour.entered", { n: mySeed(v)! })));
      }
      if (organiser) {
        const level = h("select", { id: "t-level", "aria-label": t("lobby.level") },
          ...Array.from({ length: 10 }, (_, i) => h("option", { value: i + 1, selected: i === 2 }, t("computer", { n: i + 1 }))));
        const add = h("button", { id: "t-add-computer" }, t("tour.addComputer"));
        add.addEventListener("click", () => act(() => api.joinTournament(id, Number(level.value)), add));
        const start = h("button", { class: "primary", id: "t-start", disabled: v.entrants.length < 2 }, t("tour.start"));
        start.addEventListener("click", () => act(() => api.startTournament(id), start));
        items.push(h("span", { class: "inline" }, level, add), start);
      }
    }
    const mine = gameOpensFor(v, me());
    if (mine) items.push(h("a", { class: "button primary", href: `#/game/${mine}`, id: "t-my-game" }, t("tour.myGame")));
    actions.replaceChildren(...items);
  }

  function renderEntrants(v: TournamentView) {
    const list = h("ol", { class: "entrants" }, ...v.entrants.map((e) =>
      h("li", { "data-seed": e.seed }, name(v, e.seed), e.player === v.organiser_id ? h("span", { class: "help" }, ` · ${t("tour.organiser")}`) : "")));
    entrants.replaceChildren(h("h2", {}, t("tour.entrants", { n: v.entrants.length })),
      v.entrants.length ? list : h("p", { class: "help" }, t("tour.noEntrants")));
    entrants.hidden = v.status !== "open" && v.entrants.length > 0 && v.standings.length > 0;
  }

  function renderStandings(v: TournamentView) {
    if (!v.standings.length) { standings.hidden = true; return; }
    standings.hidden = false;
    const knockout = v.format === "knockout";
    const head = h("tr", {}, h("th", {}, "#"), h("th", { class: "name" }, t("tour.player")), h("th", {}, t("tour.points")),
      h("th", { class: "wide-only" }, t("tour.games")), h("th", { title: t("tour.wdl") }, "+ = −"),
      h("th", { title: t("tour.sbHelp") }, "SB"), h("th", { title: t("tour.buchholzHelp"), class: "wide-only" }, "Buchholz"),
      h("th", { title: t("tour.eloHelp"), class: "wide-only" }, t("tour.elo")), knockout ? h("th", {}, t("tour.reached")) : "");
    const rows = v.standings.map((r) => h("tr", { "data-seed": r.seed, class: r.seed === mySeed(v) ? "me" : "" },
      h("td", {}, String(r.rank)), h("td", { class: "name" }, name(v, r.seed), v.champion === r.seed ? h("span", { class: "champion" }, ` ${t("tour.champion")}`) : ""),
      h("td", { class: "pts" }, points(r.points)), h("td", { class: "wide-only" }, String(r.games)),
      h("td", {}, `${r.wins} ${r.draws} ${r.losses}`), h("td", {}, points(r.sonneborn_berger)), h("td", { class: "wide-only" }, points(r.buchholz)),
      h("td", { class: "wide-only" }, r.games ? `${r.elo >= 0 ? "+" : ""}${Math.round(r.elo)} ± ${Math.round(r.elo_margin)}` : ""),
      knockout ? h("td", {}, v.champion === r.seed ? t("tour.champion") : r.stage ? t("tour.round", { n: r.stage }) : "") : ""));
    standings.replaceChildren(h("h2", {}, v.status === "over" ? t("tour.final") : t("tour.standings")),
      h("div", { class: "table-scroll" }, h("table", { class: "standings", id: "standings-table" }, h("thead", {}, head), h("tbody", {}, ...rows))),
      h("p", { class: "help" }, knockout ? t("tour.tiesKnockout") : t("tour.ties")),
      // How tied knockout matches were decided (the rules' tie rule), in the server's words.
      ...v.notes.map((n) => h("p", { class: "note small" }, n)));
  }

  // The crosstable in rank order: row a, column b is a's points against b.
  function renderCross(v: TournamentView) {
    if (!v.standings.length || v.format === "knockout") { cross.hidden = true; return; }
    cross.hidden = false;
    const order = v.standings.map((r) => r.seed);
    const head = h("tr", {}, h("th", {}, ""), h("th", { class: "name" }, ""), ...order.map((_, i) => h("th", {}, String(i + 1))));
    const rows = order.map((a, i) => h("tr", {}, h("td", {}, String(i + 1)), h("td", { class: "name" }, name(v, a)),
      ...order.map((b) => {
        const x = v.crosstable[a - 1]?.[b - 1];
        return h("td", { class: a === b ? "self" : "", "data-a": a, "data-b": b }, a === b ? "" : x === null || x === undefined ? "·" : points(x));
      })));
    cross.replaceChildren(h("h2", {}, t("tour.crosstable")),
      h("div", { class: "table-scroll" }, h("table", { class: "crosstable", id: "crosstable" }, h("thead", {}, head), h("tbody", {}, ...rows))));
  }

  function renderRounds(v: TournamentView) {
    if (!v.rounds.length) {
      rounds.replaceChildren(h("h2", {}, t("tour.pairings")), h("p", { class: "help" }, v.status === "open" ? t("tour.pairedAtStart") : t("loading")));
      return;
    }
    const chip = (g: TournamentGame, several: boolean) => h("a", {
      class: `game-chip ${g.status}`, href: `#/game/${g.id}`, "data-game": g.id, title: t(`tour.status.${g.status}`),
    }, several ? `${g.game}: ` : "", resultMark(g.status, g.result, g.game));
    const pairing = (p: Pairing) => h("li", { "data-pairing": p.pairing },
      h("span", { class: "pair" }, name(v, p.first), " – ", p.second === null ? h("em", {}, t("tour.bye")) : name(v, p.second)),
      // With one game a pairing its chip says the result; with several, the pairing's score too.
      p.points && p.games.length > 1 ? h("span", { class: "score" }, `${points(p.points[0])}–${points(p.points[1])}`) : "",
      h("span", { class: "games" }, ...p.games.map((g) => chip(g, p.games.length > 1))));
    // The latest round first: it is the one being played.
    const blocks = [...v.rounds].reverse().map((r) => h("div", { class: "round", "data-round": r.round },
      h("h3", {}, t("tour.round", { n: r.round })), h("ul", { class: "pairings" }, ...r.pairings.map(pairing))));
    rounds.replaceChildren(h("h2", {}, t("tour.pairings")), ...blocks);
  }

  function renderExports(v: TournamentView) {
    exports.hidden = !v.rounds.length;  // nothing to export before the first round
    const link = (href: string, label: string, idName: string) =>
      h("a", { class: "button", href, download: "", id: idName }, icon("download"), label);
    exports.replaceChildren(h("h2", {}, t("tour.export")),
      h("div", { class: "controls" },
        link(`/api/tournaments/${id}/records`, t("tour.exportRecords"), "t-export-records"),
        link(`/api/tournaments/${id}/standings.csv`, t("tour.exportCsv"), "t-export-csv"),
        link(`/api/tournaments/${id}/standings`, t("tour.exportJson"), "t-export-json")));
  }

  function render(v: TournamentView) {
    view = v;
    // An entrant's browser follows the tournament from every page (tournamentcall.ts).
    if (mySeed(v) !== undefined && v.status !== "over") followTournament(live, id);
    title.textContent = v.name;
    const bits = [gameName(v.variant, v.title) + (v.variant.includes(":") ? ` (${v.variant.split(":")[1]})` : ""),
      formatName(v), clockText(v.clock), v.rated ? t("tour.rated") : t("tour.casual"), t("tour.by", { name: v.organiser })];
    if (v.status === "open" && v.starts_at) bits.push(t("tour.startsAt", { time: new Date(v.starts_at).toLocaleString() }));
    facts.replaceChildren(h("span", { class: `state state-${v.status}`, id: "t-status" }, t(`tour.state.${v.status}`)), " ", bits.join(" · "));
    note.hidden = !v.note;
    note.textContent = v.note ?? "";
    renderActions(v);
    renderEntrants(v);
    renderStandings(v);
    renderCross(v);
    renderRounds(v);
    renderExports(v);
    // The player's game has started: it opens by itself (once; he may come back here).
    const mine = gameOpensFor(v, me());
    if (mine && !opened.has(mine)) {
      opened.add(mine);
      location.hash = `#/game/${mine}`;
    }
  }

  // Games already under way when the page opens are not pulled open: the player came here.
  let first = true;
  const off = live.on((msg) => {
    if (msg.type !== "tournament" || msg.id !== id) return;
    if (first) { first = false; const mine = gameOpensFor(msg as TournamentView, me()); if (mine) opened.add(mine); }
    render(msg as TournamentView);
  });
  live.watchTournament(id);
  void api.tournament(id).then((v) => { if (!view) { first = false; const m = gameOpensFor(v, me()); if (m) opened.add(m); render(v); } })
    .catch((e) => root.replaceChildren(h("p", {}, t("error.page", { message: (e as Error).message }))));
  return () => { off(); live.unwatchTournament(id); };
}
