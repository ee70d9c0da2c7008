#!/usr/bin/env node
// Load check (not a unit test): N concurrent games of random legal moves over WebSocket
// against a local `naqala serve`, two connections per game (one per player). Reports moves/s
// and the latency of a move (sent -> the mover sees the updated game) at p50/p99/max.
//
//   node scripts/load-check.mjs [--url http://127.0.0.1:8080] [--games 200] [--plies 40]
//                               [--variant oware] [--seconds 120]
// Talks only to the given local server; stops by itself after --plies per game or --seconds.
import { createRequire } from "node:module";

const require = createRequire(new URL("../web/package.json", import.meta.url));
const WebSocket = require("ws");

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const base = arg("url", "http://127.0.0.1:8080");
const host = new URL(base);
if (!["127.0.0.1", "localhost", "[::1]"].includes(host.hostname)) {
  console.error("load-check: only a local server (127.0.0.1, localhost, [::1]) may be loaded");
  process.exit(2);
}
const games = Number(arg("games", 200));
const plies = Number(arg("plies", 40));
const variant = arg("variant", "oware");
const deadline = Date.now() + 1000 * Number(arg("seconds", 120));
const wsUrl = base.replace(/^http/, "ws") + "/ws";

// The server limits HTTP requests per address (--http-rate): a 429 is waited out, as its
// Retry-After asks, and counted.
let throttled = 0;
async function post(path, body) {
  for (let tries = 0; ; tries++) {
    const res = await fetch(base + path, { method: "POST", body: JSON.stringify(body) });
    const data = await res.json();
    if (res.status === 429 && tries < 60) {
      throttled++;
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("retry-after") ?? 1) * (0.5 + Math.random())));
      continue;
    }
    if (!res.ok) throw new Error(`${path}: ${data.error}`);
    return data;
  }
}

function connect(token, tries = 0) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl);
    ws.on("open", () => { ws.send(JSON.stringify({ type: "hello", token })); resolve(ws); });
    ws.on("unexpected-response", (req, res) => {  // the upgrade is an HTTP request: 429 waits
      req.destroy();
      if (res.statusCode !== 429 || tries >= 60) return reject(new Error(`WebSocket upgrade answered ${res.statusCode}`));
      throttled++;
      setTimeout(() => connect(token, tries + 1).then(resolve, reject), 1000 * (0.5 + Math.random()));
    });
    ws.on("error", reject);
  });
}

const latencies = [];
let moves = 0, errors = 0, finished = 0;

async function playOne(k, seated) {
  const [s, n] = await Promise.all([post("/api/players", { name: `load-s${k}` }), post("/api/players", { name: `load-n${k}` })]);
  const game = await post("/api/games", { token: s.token, variant, opponent: "human" });
  const sockets = { south: await connect(s.token), north: await connect(n.token) };
  seated();
  await everyoneSeated;  // all games play at once
  return new Promise((resolve) => {
    let sentAt = 0, lastPlies = -1, done = false;
    const finish = () => {
      if (done) return;
      done = true;
      finished++;
      sockets.south.close();
      sockets.north.close();
      resolve();
    };
    const onMessage = (side) => (raw) => {
      const m = JSON.parse(raw);
      if (m.type === "error") { errors++; return; }
      if (m.type !== "game" || m.id !== game.id || m.you !== side) return;
      if (m.plies.length === lastPlies) return;
      if (sentAt && m.plies.length > lastPlies && lastPlies >= 0) {
        latencies.push(performance.now() - sentAt);
        moves++;
        sentAt = 0;
      }
      if (m.status !== "playing") { if (m.status === "over") return finish(); return; }
      if (m.to_move !== side) return;
      lastPlies = m.plies.length;
      if (m.plies.length >= plies || Date.now() > deadline) return finish();
      const move = m.legal[Math.floor(Math.random() * m.legal.length)];
      sentAt = performance.now();
      sockets[side].send(JSON.stringify({ type: "move", game: game.id, move, ply: m.plies.length }));
    };
    sockets.south.on("message", onMessage("south"));
    sockets.north.on("message", onMessage("north"));
    sockets.north.send(JSON.stringify({ type: "join", game: game.id }));
    sockets.south.send(JSON.stringify({ type: "watch", game: game.id }));
    setTimeout(finish, Math.max(0, deadline - Date.now()) + 5000);
  });
}

// Players, games and connections are made first; then every game starts at once.
let ready = 0, go;
const everyoneSeated = new Promise((r) => { go = r; });
const t0 = performance.now();
const all = Array.from({ length: games }, (_, k) => playOne(k, () => { if (++ready === games) go(); })
  .catch((e) => { errors++; console.error(e.message); if (++ready === games) go(); }));
await everyoneSeated;
const setup = (performance.now() - t0) / 1000;
const t1 = performance.now();
await Promise.all(all);
const seconds = (performance.now() - t1) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1) : "n/a");
console.log(`games ${games} (${variant}), finished ${finished}, moves ${moves}, errors ${errors}, set-up ${setup.toFixed(1)} s, play ${seconds.toFixed(1)} s` +
  (throttled ? ` (set-up requests throttled ${throttled} times by --http-rate)` : ""));
console.log(`moves/s ${(moves / seconds).toFixed(0)}; move latency ms p50 ${pct(50)} p99 ${pct(99)} max ${pct(100)}`);
process.exit(errors ? 1 : 0);
