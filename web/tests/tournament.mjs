// End-to-end test of a tournament in the browser (CTest label e2e): an organiser creates a rated
// Kalah Swiss tournament (2 rounds) in the app, two more people enter from the lobby (one on a phone), the
// organiser adds a computer level and starts it; every game opens by itself in its players'
// pages and is played there by clicking, the server is restarted in the middle of round 2, and
// the standings, crosstable, exports, ratings and player pages are checked at the end. It waits
// for what it needs (selectors, pushes), never for a fixed time.
//
//   node web/tests/tournament.mjs --naqala build/release/naqala --web build/release/web --out DIR
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import WebSocket from "ws";
import { CHROMIUM_ARGS, HANG_GUARD_MS, arg, expect, results, startServer, step } from "./harness.mjs";

const naqala = arg("naqala", "build/release/naqala");
const web = arg("web", "build/release/web");
const out = arg("out", "build/release/e2e-screenshots");
const browserPath = arg("chromium", process.env.CHROMIUM ?? "/usr/bin/chromium");
mkdirSync(out, { recursive: true });
const shot = (p, name) => p.screenshot({ path: join(out, `tournament-${name}.png`), fullPage: true });

const dir = mkdtempSync(join(tmpdir(), "naqala-tournament-e2e-"));
const db = join(dir, "tournament.db");
let server = startServer(naqala, web, db);
let port = 0, base = "";
let browser;
const DESKTOP = { width: 1200, height: 850 }, PHONE = { width: 390, height: 844 };

// The test's own view of the tournament, pushed by the server (watch_tournament): what the
// steps wait on. Opened again after the restart.
let tid = "", latest = null, watcher = null;
const waiters = new Set();
const until = (pred) => new Promise((resolve) => {
  if (latest && pred(latest)) return resolve(latest);
  const w = (v) => { if (pred(v)) { waiters.delete(w); resolve(v); } };
  waiters.add(w);
});
const watch = () => new Promise((resolve, reject) => {
  watcher = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  watcher.on("open", () => { watcher.send(JSON.stringify({ type: "watch_tournament", tournament: tid })); resolve(); });
  watcher.on("error", reject);
  watcher.on("message", (d) => {
    const m = JSON.parse(String(d));
    if (m.type !== "tournament" || m.id !== tid) return;
    latest = m;
    for (const w of [...waiters]) w(m);
  });
});

try {
  await step("server starts", async () => {
    port = await server.ready();
    base = `http://127.0.0.1:${port}`;
  });
  await step("chromium starts", async () => {
    browser = await chromium.launch({ executablePath: browserPath, headless: true, args: CHROMIUM_ARGS });
  });

  // Each person in a browser of his own (his own localStorage: name, token, settings).
  const person = async (name, viewport) => {
    const ctx = await browser.newContext({ bypassCSP: true, viewport, hasTouch: viewport === PHONE });
    const p = await ctx.newPage();
    p.setDefaultTimeout(HANG_GUARD_MS);
    p.on("pageerror", (e) => console.log(`     page error (${name}): ${e.message}`));
    await p.goto(base);
    await p.evaluate(() => localStorage.setItem("naqala.settings", JSON.stringify({ animation: "off" })));
    await p.fill("#name", name);
    await p.click("button[type=submit]");
    await p.waitForSelector("#variant");
    return p;
  };
  let ann, bob, cid;
  await step("three people open the app and give their names (one on a phone)", async () => {
    [ann, bob, cid] = await Promise.all([person("Ann", DESKTOP), person("Bob", PHONE), person("Cid", DESKTOP)]);
  });
  const people = [ann, bob, cid];

  await step("the organiser creates a rated Swiss tournament of 2 rounds from the lobby", async () => {
    await ann.click("#new-tournament");
    await ann.waitForSelector("#t-name");
    await ann.fill("#t-name", "Club night");
    await ann.selectOption("#t-variant", "kalah");
    await ann.selectOption("#t-format", "swiss");
    await ann.fill("#t-rounds", "2");
    await ann.fill("#t-minutes", "10");
    await ann.check("#t-rated");
    await shot(ann, "new");
    await ann.click("#t-create");
    await ann.waitForURL(/#\/tournament\/\w+$/);
    tid = ann.url().split("/").pop();
    await ann.waitForSelector("#t-join");
    expect((await ann.textContent("#t-status")).includes("Open"), "a new tournament is not open for entries");
    await watch();
  });

  await step("players enter from the lobby, the organiser adds computer level 1, everyone sees it live", async () => {
    await ann.click("#t-join");
    await ann.waitForSelector("#t-entered");
    for (const p of [bob, cid]) {
      await p.goto(`${base}/#/`);
      await p.click(`#tournaments li[data-tournament="${tid}"] a`);
      await p.waitForSelector("#t-join");
      await p.click("#t-join");
      await p.waitForSelector("#t-entered");
    }
    await ann.selectOption("#t-level", "1");
    await ann.click("#t-add-computer");
    for (const p of people) await p.waitForFunction(() => document.querySelectorAll("#t-entrants li").length === 4);
    expect((await bob.textContent("#t-entrants")).includes("Computer, level 1"), "the computer entrant is not listed");
    expect(await bob.$("#t-start") === null && await bob.$("#t-add-computer") === null, "a player who is not the organiser may start it");
    await shot(bob, "entrants-phone");
  });

  // Each person plays whatever his page offers: the games open by themselves (round after
  // round), a click on the first legal pit, then a wait for the server's answer. The loops stop
  // at a closed gate while the server restarts.
  let gate = null, clicks = 0, clicksInRound2 = 0, restarted = null;
  const inFlight = new Set();  // the clicks under way, each until the server has answered it
  const over = { done: false };
  const play = async (p) => {
    for (;;) {
      // The game shown, its plies so far, or "done".
      const what = await (await p.waitForFunction(() => {
        if (window.__tournamentOver) return "done";
        const id = (location.hash.match(/^#\/game\/(\w+)$/) ?? [])[1];
        const ready = id && document.querySelector(`#board[data-game="${id}"] .pit.legal`) && !document.body.classList.contains("offline");
        return ready ? [id, document.querySelectorAll("#moves li").length] : false;
      })).jsonValue();
      if (what === "done") return;
      while (gate) await gate;
      const [id, n] = what;
      const click = (async () => {
        await p.click(`#board[data-game="${id}"] .pit.legal >> nth=0`);
        await p.waitForFunction(([m, g]) => location.hash !== `#/game/${g}` || document.querySelectorAll("#moves li").length > m ||
          document.body.classList.contains("offline"), [n, id]);
      })();
      inFlight.add(click);
      try { await click; } finally { inFlight.delete(click); }
      clicks++;
      if (latest?.rounds.length === 2 && ++clicksInRound2 === 6) restarted = restart();
    }
  };
  // The server stopped and started again on the same database while round 2 is played.
  const restart = async () => {
    const t0 = Date.now();
    let open;
    gate = new Promise((r) => (open = r));
    await Promise.allSettled([...inFlight]);  // the clicks under way end first
    const before = latest;
    watcher.close();
    await server.stop();
    for (const p of people) await p.waitForSelector("body.offline", { state: "attached" });
    server = startServer(naqala, web, db, port);
    await server.ready();
    latest = null;
    await watch();
    await until(() => true);
    expect(latest.rounds.length === 2, `after the restart the tournament shows ${latest.rounds.length} rounds`);
    expect(JSON.stringify(latest.rounds[0]) === JSON.stringify(before.rounds[0]), "round 1 changed across the restart");
    for (const p of people) {
      // "Try now" (the page may have found the server by itself already: then it does nothing).
      await p.evaluate(() => document.getElementById("reconnect")?.click());
      await p.waitForFunction(() => !document.body.classList.contains("offline"));
    }
    gate = null;
    open();
    console.log(`     the server restarted in round 2 (${Date.now() - t0} ms with the reconnections)`);
  };

  await step("the organiser starts it: every game opens by itself and is played to the end, through a restart in round 2", async () => {
    // Cid waits in the lobby: his game is not pulled open there, a bar under the header calls him.
    await cid.goto(`${base}/#/`);
    await cid.waitForSelector("#variant");
    await ann.click("#t-start");
    await cid.waitForSelector("#call a.button");
    await cid.screenshot({ path: join(out, "tournament-call.png") });
    await cid.click("#call a.button");
    for (const p of people) await p.waitForURL(/#\/game\/\w+$/);
    await cid.waitForSelector("#call", { state: "hidden" });
    // Swiss: round 2 is paired from round 1's results, so only round 1 is published now.
    expect((await until((v) => v.status === "playing")).rounds.length === 1, "round 2 was paired before round 1 was played");
    await bob.waitForSelector("#board .pit");
    await shot(bob, "game-phone");
    const loops = people.map(play);
    const final = await until((v) => v.status === "over");
    over.done = true;
    for (const p of people) await p.evaluate(() => (window.__tournamentOver = true));
    await Promise.all(loops);
    expect(restarted !== null, "the server was not restarted in round 2");
    await restarted;
    expect(final.rounds.length === 2, `2 rounds were asked for, saw ${final.rounds.length}`);
    console.log(`     ${clicks} moves clicked`);
  });

  await step("the standings and crosstable on the page add up to the games' results", async () => {
    const v = latest;
    // Points by seed from the games themselves (the first-named player is South in game 1).
    const pts = [0, 0, 0, 0];
    let games = 0;
    for (const r of v.rounds) for (const p of r.pairings) for (const g of p.games) {
      expect(g.status === "over" && g.result, `game ${g.id} is ${g.status}`);
      const [s, n] = g.result === "1/2-1/2" ? [0.5, 0.5] : g.result === "1-0" ? [1, 0] : [0, 1];
      pts[p.first - 1] += s;
      pts[p.second - 1] += n;
      games++;
    }
    expect(games === 4, `4 games expected, saw ${games}`);
    // No pairing repeated.
    const met = v.rounds.flatMap((r) => r.pairings.map((p) => [p.first, p.second].sort().join("-")));
    expect(new Set(met).size === met.length, `a pairing was repeated: ${met}`);
    await ann.goto(`${base}/#/tournament/${tid}`);
    await ann.waitForFunction(() => document.querySelector("#t-status")?.textContent === "Finished");
    const rows = await ann.$$eval("#standings-table tbody tr", (l) => l.map((tr) => ({
      seed: Number(tr.dataset.seed), points: tr.querySelector("td.pts").textContent })));
    expect(rows.length === 4, `the standings show ${rows.length} players`);
    const shown = (x) => (x % 1 === 0.5 ? `${Math.floor(x) || ""}½` : String(x));
    for (const r of rows) expect(r.points === shown(pts[r.seed - 1]), `seed ${r.seed} shows ${r.points}, the games give ${pts[r.seed - 1]}`);
    for (let i = 1; i < rows.length; i++) expect(pts[rows[i - 1].seed - 1] >= pts[rows[i].seed - 1], "the standings are not in order of points");
    expect(JSON.stringify(v.standings.map((r) => r.seed)) === JSON.stringify(rows.map((r) => r.seed)), "the page's order is not the server's");
    // Each crosstable row adds up to the player's points.
    const cross = await ann.$$eval("#crosstable tbody tr", (l) => l.map((tr) => [...tr.querySelectorAll("td[data-a]")]
      .map((td) => td.textContent).filter((x) => x && x !== "·")));
    const value = (x) => (x.endsWith("½") ? Number(x.slice(0, -1) || 0) + 0.5 : Number(x));
    cross.forEach((cells, i) => {
      const sum = cells.reduce((a, x) => a + value(x), 0);
      expect(cells.length === 2 && sum === pts[rows[i].seed - 1], `crosstable row ${i + 1} gives ${sum} in ${cells.length} cells`);
    });
    await shot(ann, "final");
    await bob.goto(`${base}/#/tournament/${tid}`);
    await bob.waitForSelector("#standings-table");
    await shot(bob, "final-phone");
  });

  await step("the exports: every game's record, the standings as CSV and JSON", async () => {
    const href = async (sel) => new URL(await ann.getAttribute(sel, "href"), base).href;
    const records = await (await fetch(await href("#t-export-records"))).json();
    expect(records.records.length === 4 && records.records.every((r) => r.record.includes("[Result ")), "not every game has its record");
    const csv = (await (await fetch(await href("#t-export-csv"))).text()).trim().split("\n");
    expect(csv.length === 5 && csv[0].startsWith("rank,seed,name,points"), `the CSV has ${csv.length} lines`);
    const json = await (await fetch(await href("#t-export-json"))).json();
    expect(json.standings.length === 4 && json.status === "over", "the JSON standings are incomplete");
  });

  await step("ratings: the player page and the lobby's leaderboard", async () => {
    await bob.click("#me");
    await bob.waitForSelector('#p-ratings .rating-card[data-game="kalah"]');
    const history = await bob.$$eval("#p-history tbody tr", (l) => l.length);
    const rated = latest.rounds.flatMap((r) => r.pairings).filter((p) => [p.first, p.second].includes(2) && ![p.first, p.second].includes(4)).length;
    expect(history === rated, `Bob played ${rated} rated games against people (seed 4 is the computer), his history shows ${history}`);
    await shot(bob, "player-phone");
    await cid.click("#me");
    await cid.waitForSelector("#p-history");
    await shot(cid, "player");
    await ann.goto(`${base}/#/`);
    await ann.waitForFunction(() => document.querySelectorAll("#leaderboard tbody tr").length >= 2);
    // The computer levels' measured ratings (data/level-ratings.json) beside the level.
    await ann.selectOption("#variant", "kalah");
    await ann.fill("#level", "3");
    expect(/^rated \d+ ± \d+$/.test(await ann.textContent("#level-rating")), `level 3 shows "${await ann.textContent("#level-rating")}"`);
    // A single game may be rated only against a person.
    await ann.selectOption("#opponent", "human");
    expect(await ann.isVisible("#rated"), "no rated choice for a game against a person");
    await ann.selectOption("#opponent", "computer");
    expect(!(await ann.isVisible("#rated")), "a game against the computer offers to be rated");
    await shot(ann, "lobby");
  });

  await step("a password on one's page, then sign-in from a new browser finds the same player", async () => {
    await bob.goto(`${base}/#/player/${await bob.evaluate(() => JSON.parse(localStorage.getItem("naqala.player")).id)}`);
    await bob.click("#account summary");
    await bob.fill("#account-password", "correct horse");
    await bob.click("#account-save");
    await bob.waitForSelector("#current-password", { state: "attached" });
    // Cid's browser forgets him: it is a new browser for Bob.
    const p = cid;
    await p.evaluate(() => localStorage.removeItem("naqala.player"));
    await p.goto(`${base}/#/`);
    await p.reload();
    await p.click("#signin summary");
    await p.fill("#signin-name", "bob");  // names are compared without case
    await p.fill("#signin-password", "correct horse");
    await p.click("#signin-go");
    await p.waitForSelector("#variant");
    await p.click("#me");
    await p.waitForSelector('#p-ratings .rating-card[data-game="kalah"]');
    expect((await p.textContent("h1")) === "Bob", "the new browser is not Bob's");
    await shot(p, "signed-in");
  });

  await step("signing out: every other browser from Bob's first one, then that one too", async () => {
    await bob.reload();
    await bob.click("#account summary");
    await bob.click("#signout-others");
    await bob.waitForSelector("text=Other browsers signed out: 1");
    // The other browser's token is refused at its next hello: it forgets Bob and welcomes anew.
    await cid.goto(`${base}/#/`);
    await cid.reload();
    await cid.waitForSelector("#signin");
    expect(await cid.evaluate(() => localStorage.getItem("naqala.player")) === null, "the signed-out browser still keeps Bob's token");
    await bob.click("#signout-here");
    await bob.waitForSelector("#signin");
    expect(await bob.evaluate(() => localStorage.getItem("naqala.player")) === null, "Bob's browser keeps its token after signing out");
  });
} catch {
  // the failing step has printed its line
} finally {
  watcher?.close();
  if (browser) await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed ? 1 : 0);
