// What the tournament pages say: the format, the clock, a computer entrant with its measured
// rating, a game's result as a mark, and which game of a tournament is the player's to play.
import { TournamentView } from "./api.js";
import { t } from "./i18n.js";

export function formatName(v: Pick<TournamentView, "format" | "rounds_total" | "games_per_pairing">): string {
  const n = v.games_per_pairing ?? 1;
  if (v.format === "knockout") return n > 1 ? t("tour.format.knockoutBestOf", { n }) : t("tour.format.knockout");
  const rounds = v.rounds_total;
  const base = v.format === "swiss"
    ? (rounds ? t("tour.format.swissRounds", { n: rounds }) : t("tour.format.swiss"))
    : rounds === 2 ? t("tour.format.double") : rounds && rounds > 2 ? t("tour.format.cycles", { n: rounds }) : t("tour.format.roundrobin");
  return n > 1 ? `${base}, ${t("tour.gamesEach", { n })}` : base;
}

export function clockText(clock: { initial_ms: number; increment_ms: number } | null): string {
  if (!clock) return t("lobby.noClock");
  const minutes = clock.initial_ms / 60000;
  return t("tour.clock", { minutes: Number.isInteger(minutes) ? minutes : minutes.toFixed(1), seconds: Math.round(clock.increment_ms / 1000) });
}

// "Computer, level 3" (the server's name keeps a "#2" when a level takes part twice).
export function levelLabel(level: number, serverName: string): string {
  const twin = serverName.match(/#\d+$/);
  return t("computer", { n: level }) + (twin ? ` ${twin[0]}` : "");
}

// A game's result as the pairing is written (first-named player first: he is South in the odd
// games, North in the even ones): 1-0, ½-½, 0-1; "…" while it is played.
export function resultMark(status: string, result: string | null, game: number): string {
  if (status !== "over" || !result) return status === "playing" ? "…" : "·";
  const [south, north] = result.replace(/1\/2/g, "½").split("-");
  return game % 2 === 1 ? `${south}–${north}` : `${north}–${south}`;
}

// The game the player should be at now: his pairing's game under way in the latest round.
export function gameOpensFor(v: TournamentView, me: number | undefined): string | null {
  if (me === undefined || v.status !== "playing") return null;
  const seat = v.entrants.find((e) => e.player === me)?.seed;
  if (seat === undefined) return null;
  const round = v.rounds[v.rounds.length - 1];
  for (const p of round?.pairings ?? []) {
    if (p.first !== seat && p.second !== seat) continue;
    const g = p.games.find((x) => x.status === "playing" || x.status === "waiting");
    if (g?.id) return g.id;
  }
  return null;
}
