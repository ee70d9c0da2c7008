// The server's JSON API and live channel (docs/server.md), and the player kept by this browser.

export interface OptionInfo { name: string; help: string; type: string; default: string; allowed: string[] }
// The rules' match data (docs/tournaments.md): formats, how a draw scores in a match, draw offers.
export interface TournamentRules { best_of: number[]; match_draw: string; draw_offers: number | null; clock: { initial_ms: number; increment_ms: number; cap_ms: number } | null }
// A computer level's rating measured by a round robin of the levels (docs/tournaments.md).
export interface LevelRating { level: number; rating: number; deviation: number; games: number }
export interface VariantInfo { name: string; computer: boolean; title: string; family: string; summary: string; aliases: string[]; options: OptionInfo[]; tournament?: TournamentRules;
  levels?: LevelRating[] }
// A clock preset: the tournament clock of the rules of one variant (GET /api/clocks).
export interface ClockPreset { name: string; title: string; label: string; initial_ms: number; increment_ms: number; cap_ms: number }
export interface Seat { kind: "human" | "computer" | "open"; name: string; level?: number }
export interface Ply { side: string; text: string }
export interface ClockView { south_ms: number; north_ms: number; running: string | null; running_sides?: string[]; initial_ms: number; increment_ms: number; cap_ms: number; used_ms: number;
  starts_in_ms?: number }  // the running clock starts after the animation allowance
export interface Outcome { winner: string | null; reason: string; scores: [number, number]; result: string }
export interface MatchView { id: number; best_of: number; game: number; draw_rule: string; points: { south: number; north: number }; over: boolean }
export interface GameView {
  type: "game"; id: string; variant: string; title: string; family: string;
  status: "waiting" | "playing" | "over"; seats: [Seat, Seat]; board: any; to_move: string | null;
  legal: string[]; plies: Ply[]; outcome: Outcome | null; thinking: boolean; draw_offer: string | null;
  draw_offers_left: [number, number] | null; next_game: string | null; rematch: string[];
  clock: ClockView | null; match: MatchView | null; you: string | null;
  // Congklak's simultaneous start: who has chosen (secretly) and each side's pits to choose from.
  joint: Record<string, { chosen: boolean; options: string[] }> | null;
  // How ply `ply` was sown, lap by lap (relay sowings, Bao, Omweso); null when not traced.
  path: { ply: number; laps: { board: any; pits: string[] }[] } | null;
  // A tournament's game: which (docs/server.md, "Tournaments").
  tournament?: { id: string; name: string; round: number; pairing: number; game: number } | null;
  rated?: boolean;  // counts for the players' ratings (people only)
}
export interface Player { id: number; name: string; token: string; account?: boolean }

// Tournaments (docs/server.md, "Tournaments"): players are named by seed, from 1.
export interface Entrant { seed: number; name: string; kind: "human" | "computer"; level?: number; player?: number }
export interface TournamentGame { game: number; id: string; status: "starting" | "waiting" | "playing" | "over"; result: string | null }
export interface Pairing { pairing: number; first: number; second: number | null; points: [number, number] | null; games: TournamentGame[] }
export interface StandingRow { rank: number; seed: number; name: string; points: number; games: number; wins: number; draws: number; losses: number;
  sonneborn_berger: number; buchholz: number; direct_encounter: number; elo: number; elo_margin: number; stage?: number }
export interface TournamentView {
  type: "tournament"; id: string; name: string; variant: string; title: string; format: "roundrobin" | "swiss" | "knockout";
  status: "open" | "playing" | "over"; organiser: string; organiser_id: number; clock: any; starts_at: string | null; created: string;
  note: string | null; rated: boolean; rounds_total: number | null; games_per_pairing: number | null; entrants: Entrant[];
  rounds: { round: number; pairings: Pairing[] }[]; standings: StandingRow[]; crosstable: (number | null)[][]; champion: number | null; notes: string[];
}
export interface TournamentSummary { id: string; name: string; variant: string; title: string; format: string; status: string; entrants: number; organiser: string; starts_at: string | null; created: string }
// Ratings (Glicko-2, one per game: the preset's name).
export interface RatingRow { game: string; rating: number; deviation: number; games: number; provisional: boolean }
export interface PlayerPage { id: number; name: string; ratings: RatingRow[];
  history: { game_id: string; game: string; opponent: string; opponent_id: number; score: number; before: number; after: number; deviation: number; at: number }[];
  games: { id: string; variant: string; side: string; opponent: string; status: string; rated: boolean; result: "win" | "draw" | "loss" | null; created: number }[] }
export interface Leaderboard { game: string; players: { rank: number; player: number; name: string; rating: number; deviation: number; games: number; provisional: boolean }[] }
// What an endgame database proves of a position (known: false where none holds it); the result
// and margins are for the player to move.
export interface Analysis { known: boolean; to_move?: string; result?: "won" | "drawn" | "lost"; exact?: boolean;
  margin_low?: number; margin_high?: number; best_move?: string; optimal_moves?: string[] }

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  const me = player();
  if (me) headers["Authorization"] = `Bearer ${me.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: `the server answered ${res.status}` }));
  if (!res.ok) throw new Error(data.error ?? `the server answered ${res.status}`);
  return data as T;
}

export const api = {
  variants: () => call<VariantInfo[]>("GET", "/api/variants"),
  clocks: () => call<ClockPreset[]>("GET", "/api/clocks"),
  rules: (spec: string) => call<{ spec: string; title: string; rules: string }>("GET", `/api/rules?variant=${encodeURIComponent(spec)}`),
  createPlayer: (name: string, password?: string) => call<Player>("POST", "/api/players", password ? { name, password } : { name }),
  signIn: (name: string, password: string) => call<Player>("POST", "/api/players/signin", { name, password }),
  signOut: (others: boolean) => call<{ id: number; signed_out: number }>("POST", "/api/players/signout", { others }),
  setPassword: (password: string, current?: string) =>
    call<Player>("POST", "/api/players/password", current ? { password, current_password: current } : { password }),
  createGame: (req: Record<string, unknown>) => call<GameView>("POST", "/api/games", req),
  games: () => call<{ open: any[]; live: any[] }>("GET", "/api/games"),
  game: (id: string) => call<GameView>("GET", `/api/games/${encodeURIComponent(id)}`),
  review: (id: string) => call<{ plies: Ply[]; boards: any[] }>("GET", `/api/games/${encodeURIComponent(id)}/review`),
  tournaments: () => call<{ open: TournamentSummary[]; playing: TournamentSummary[]; over: TournamentSummary[] }>("GET", "/api/tournaments"),
  tournament: (id: string) => call<TournamentView>("GET", `/api/tournaments/${encodeURIComponent(id)}`),
  createTournament: (req: Record<string, unknown>) => call<TournamentView>("POST", "/api/tournaments", req),
  joinTournament: (id: string, computer?: number) =>
    call<TournamentView>("POST", `/api/tournaments/${encodeURIComponent(id)}/join`, computer === undefined ? {} : { computer }),
  startTournament: (id: string) => call<TournamentView>("POST", `/api/tournaments/${encodeURIComponent(id)}/start`, {}),
  playerPage: (id: number | string) => call<PlayerPage>("GET", `/api/players/${encodeURIComponent(String(id))}`),
  leaderboard: (game: string) => call<Leaderboard>("GET", `/api/ratings?game=${encodeURIComponent(game)}`),
  analysis: (id: string, ply: number) => call<Analysis>("GET", `/api/games/${encodeURIComponent(id)}/analysis?ply=${ply}`),
};

// The tournaments this browser's player has entered (the app follows them: docs/server.md).
const ENTERED = "naqala.tournaments";
export function enteredTournaments(): string[] {
  try { return JSON.parse(localStorage.getItem(ENTERED) ?? "[]"); } catch { return []; }
}
export function setEntered(id: string, entered: boolean): void {
  const list = enteredTournaments().filter((x) => x !== id);
  if (entered) list.push(id);
  localStorage.setItem(ENTERED, JSON.stringify(list.slice(-20)));
}

const KEY = "naqala.player";
export function player(): Player | null {
  try { return JSON.parse(localStorage.getItem(KEY) ?? "null"); } catch { return null; }
}
export function savePlayer(p: Player): void { localStorage.setItem(KEY, JSON.stringify(p)); }
// This browser forgets its player (signed out, or its token is no longer known): the welcome
// page comes next.
export function forgetPlayer(): void { localStorage.removeItem(KEY); }

// One WebSocket for the page: says hello with the token, re-watches after a reconnect. A
// message is sent only while connected: a move made offline is refused at once (never queued
// and replayed later, when the game may have moved on); after a reconnect the server sends
// every watched game afresh.
type Listener = (msg: any) => void;
export type Connection = "connecting" | "online" | "offline";
export class Live {
  private ws: WebSocket | null = null;
  private watching = new Set<string>();
  private tournaments = new Map<string, number>();  // id -> how many pages watch it
  private listeners = new Set<Listener>();
  private stateListeners = new Set<(c: Connection) => void>();
  private retry = 500;
  private timer = 0;
  state: Connection = "connecting";

  constructor() { this.connect(); }

  on(f: Listener): () => void { this.listeners.add(f); return () => this.listeners.delete(f); }
  onState(f: (c: Connection) => void): () => void { this.stateListeners.add(f); f(this.state); return () => this.stateListeners.delete(f); }

  // Sends now, or returns false when the connection is down.
  send(msg: Record<string, unknown>): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  watch(id: string): void { this.watching.add(id); this.send({ type: "watch", game: id }); }
  unwatch(id: string): void { this.watching.delete(id); this.send({ type: "unwatch", game: id }); }
  // A tournament may be watched by the app (the player's own) and by a page at once: it is let go
  // when the last of them stops.
  watchTournament(id: string): void {
    const n = this.tournaments.get(id) ?? 0;
    this.tournaments.set(id, n + 1);
    if (!n) this.send({ type: "watch_tournament", tournament: id });
  }
  unwatchTournament(id: string): void {
    const n = this.tournaments.get(id) ?? 0;
    if (n > 1) return void this.tournaments.set(id, n - 1);
    this.tournaments.delete(id);
    if (n) this.send({ type: "unwatch_tournament", tournament: id });
  }

  // Tries again at once (the player asked to).
  reconnect(): void {
    if (this.state === "online") return;
    clearTimeout(this.timer);
    this.retry = 500;
    if (this.ws) { this.ws.onclose = null; this.ws.close(); this.ws = null; }
    this.connect();
  }

  private setState(c: Connection): void {
    if (this.state === c) return;
    this.state = c;
    for (const f of this.stateListeners) f(c);
  }

  private connect(): void {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      const me = player();
      if (me) ws.send(JSON.stringify({ type: "hello", token: me.token }));
      for (const id of this.watching) ws.send(JSON.stringify({ type: "watch", game: id }));
      for (const id of this.tournaments.keys()) ws.send(JSON.stringify({ type: "watch_tournament", tournament: id }));
      this.setState("online");
    };
    ws.onmessage = (e) => {
      let msg: any;
      try { msg = JSON.parse(e.data); } catch { return; }
      // Signed out from another browser (or a token the server does not know): start afresh.
      if (msg?.type === "error" && msg.status === 401 && player() &&
          /^unknown token|signed out/.test(String(msg.message ?? ""))) {
        forgetPlayer();
        location.hash = "#/";
        location.reload();
        return;
      }
      for (const f of this.listeners) f(msg);
    };
    ws.onclose = () => {
      this.ws = null;
      this.setState("offline");
      this.timer = window.setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }
}
