// End-to-end test of the browser app in a real browser (Debian's chromium driven by
// playwright-core; no browser download). Starts `naqala serve` on a free port with a fresh
// database, plays against the computer by clicking, reloads, and screenshots each board family.
//
//   node web/tests/e2e.mjs --naqala build/release/naqala --web build/release/web --out DIR
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import WebSocket from "ws";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const naqala = arg("naqala", "build/release/naqala");
const web = arg("web", "build/release/web");
const out = arg("out", "build/release/e2e");
const browserPath = arg("chromium", process.env.CHROMIUM ?? "/usr/bin/chromium");
mkdirSync(out, { recursive: true });

let passed = 0, failed = 0;
const step = async (name, f) => {
  const t0 = Date.now();
  try {
    await f();
    passed++;
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.message.split("\n")[0]}`);
    throw e;
  }
};
const expect = (cond, what) => { if (!cond) throw new Error(what); };

const freePort = () => new Promise((resolve) => {
  const s = createServer();
  s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
});

const dir = mkdtempSync(join(tmpdir(), "naqala-e2e-"));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(naqala, ["serve", "--port", String(port), "--db", join(dir, "e2e.db"), "--web", web],
  { stdio: ["ignore", "pipe", "pipe"] });
let serverLog = "";
server.stdout.on("data", (d) => (serverLog += d));
server.stderr.on("data", (d) => (serverLog += d));

let browser;
try {
  await step("server starts and answers /api/health", async () => {
    for (let i = 0; i < 100; i++) {
      try { if ((await fetch(`${base}/api/health`)).ok) return; } catch { /* not yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no answer; server said: ${serverLog}`);
  });

  browser = await chromium.launch({ executablePath: browserPath, headless: true, args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 850 } });
  page.on("pageerror", (e) => console.log(`     page error: ${e.message}`));

  await step("a new player picks a name", async () => {
    await page.goto(base);
    await page.fill("#name", "Tester");
    await page.click("button[type=submit]");
    await page.waitForSelector("#variant");
    expect((await page.textContent("#me")).includes("Tester"), "the header does not name the player");
  });

  await step("lobby lists the registered variants with their options", async () => {
    const names = await page.$$eval("#variant option", (os) => os.map((o) => o.value));
    for (const v of ["kalah", "oware", "backgammon"]) expect(names.includes(v), `variant ${v} missing from ${names}`);
    await page.selectOption("#variant", "kalah");
    expect(await page.$('[data-option="seeds"]'), "kalah's seeds option is not shown");
    await page.screenshot({ path: join(out, "lobby.png") });
  });

  let gameUrl = "";
  await step("create a Kalah game against the computer (level 1)", async () => {
    await page.selectOption("#variant", "kalah");
    await page.fill("#level", "1");
    await page.click("#create");
    await page.waitForURL(/#\/game\//);
    await page.waitForSelector("#board .pit");
    gameUrl = page.url();
  });

  // Turn the animation off for speed; one animated move is checked below.
  const waitMyTurn = () => page.waitForSelector("#board .pit.legal", { timeout: 20000 });
  const plies = () => page.$$eval("#moves li", (l) => l.length);

  await step("the board shows 6 pits a side and legal moves are highlighted", async () => {
    await waitMyTurn();
    const pits = await page.$$eval("#board .pit", (l) => l.length);
    expect(pits === 12, `expected 12 pits, saw ${pits}`);
    const legal = await page.$$eval("#board .pit.legal", (l) => l.length);
    expect(legal === 6, `expected 6 legal pits at the start, saw ${legal}`);
    await page.screenshot({ path: join(out, "kalah-start.png") });
  });

  await step("a click sows, animated step by step, and the board updates", async () => {
    const before = await plies();
    // South's pit 1 holds 4 seeds: it sows into pits 2-5 (no extra turn).
    await page.click('#board .pit.legal[data-side="south"][data-pit="1"]');
    await page.waitForFunction((n) => document.querySelectorAll("#moves li").length > n, before);
    const p1 = await page.textContent('#board .pit[data-side="south"][data-pit="1"] .count');
    expect(p1 === "0", `pit 1 should be empty after sowing, shows ${p1}`);
    await page.screenshot({ path: join(out, "kalah-after-move.png") });
  });

  await step("the computer answers and play goes on by clicking", async () => {
    await page.uncheck("#animate");
    for (let k = 0; k < 4; k++) {
      await waitMyTurn();
      if (await page.$("#board .pit.legal") === null) break;
      const n = await plies();
      await page.click("#board .pit.legal >> nth=0");
      await page.waitForFunction((m) => document.querySelectorAll("#moves li").length > m, n);
    }
    expect((await plies()) >= 5, "fewer plies than clicks");
  });

  await step("reloading the page finds the game as it was", async () => {
    await waitMyTurn();
    const movesBefore = await page.textContent("#moves");
    const countsBefore = await page.$$eval("#board .count", (l) => l.map((t) => t.textContent).join(","));
    await page.reload();
    await page.waitForSelector("#board .pit");
    await page.waitForFunction((m) => document.querySelector("#moves")?.textContent === m, movesBefore, { timeout: 10000 });
    const countsAfter = await page.$$eval("#board .count", (l) => l.map((t) => t.textContent).join(","));
    expect(countsAfter === countsBefore, `board differs after reload: ${countsBefore} vs ${countsAfter}`);
    expect(page.url() === gameUrl, "the URL changed");
  });

  await step("the record downloads in the documented format", async () => {
    const id = gameUrl.split("/").pop();
    const text = await (await fetch(`${base}/api/games/${id}/record`)).text();
    expect(text.includes('[Variant "kalah"]') && /\n1\. S 1\n/.test(text), `unexpected record:\n${text}`);
  });

  await step("resigning ends the game and offers a rematch", async () => {
    page.once("dialog", (d) => d.accept());
    await page.click("#resign");
    await page.waitForSelector("#rematch");
    expect((await page.textContent("#status")).includes("resignation"), "status does not say resignation");
  });

  const token = await page.evaluate(() => JSON.parse(localStorage.getItem("naqala.player")).token);
  const newGame = async (body) => {
    const res = await fetch(`${base}/api/games`, { method: "POST", body: JSON.stringify({ token, ...body }) });
    const g = await res.json();
    expect(res.ok, `create failed: ${g.error}`);
    return g.id;
  };

  await step("Oware with the tournament clock: no stores sown, clocks run", async () => {
    const id = await newGame({ variant: "oware", level: 1, clock: { preset: "oware" } });
    await page.goto(`${base}/#/game/${id}`);
    await waitMyTurn();
    const clock = await page.textContent('.clock[data-side="south"]');
    expect(/^(20:00|19:5\d)$/.test(clock), `clock shows ${clock}`);
    await page.screenshot({ path: join(out, "oware-clock.png") });
  });

  await step("backgammon: points, bar, off, dice and cube drawn; a move from the list", async () => {
    const id = await newGame({ variant: "backgammon", level: 1, side: "south" });
    await page.goto(`${base}/#/game/${id}`);
    await page.waitForSelector("#board .point");
    expect((await page.$$("#board .point")).length === 24, "24 points expected");
    expect(await page.$("#board .cube"), "no cube drawn");
    await page.waitForSelector("#legal-moves button", { timeout: 20000 });
    // Either dice are drawn, or it is the start of a turn with the cube: roll or double first.
    const buttons = await page.$$eval("#legal-moves button", (l) => l.map((b) => b.textContent));
    expect((await page.$("#board .die")) || buttons.includes("roll"), `no dice drawn; moves ${buttons}`);
    await page.screenshot({ path: join(out, "backgammon.png") });
    const n = await plies();
    await page.click("#legal-moves button >> nth=0");
    await page.waitForFunction((m) => document.querySelectorAll("#moves li").length > m, n);
  });

  // Every other landed board family, drawn from its first position (a game awaiting a person,
  // so no engine is needed): Toguz (9 pits, tuz marks), Congklak, Gabata's 3 rows.
  const variants = await (await fetch(`${base}/api/variants`)).json();
  for (const name of ["toguz", "congklak", "gabata", "mangala", "pallanguzhi", "bao", "omweso"]) {
    const v = variants.find((x) => x.name === name);
    if (!v) { console.log(`skip ${name}: not registered on this build`); continue; }
    await step(`${v.title}: the board is drawn`, async () => {
      const id = await newGame({ variant: name, opponent: "human" });
      await page.goto(`${base}/#/game/${id}`);
      await page.waitForSelector("#board .pit");
      const pits = await page.$$eval("#board .pit", (l) => l.length);
      const board = await (await fetch(`${base}/api/games/${id}`)).json();
      const b = board.board;
      const expected = b.pits ? b.pits * (b.middle_row ? 3 : 2) : b.south.front.length * 4;
      expect(pits === expected, `${pits} pits drawn, ${expected} expected`);
      expect((await page.textContent("#share-link")).includes(id), "no share link for the open seat");
      await page.screenshot({ path: join(out, `${name}.png`) });
    });
  }

  if (variants.find((x) => x.name === "omweso")) {
    await step("Omweso's setup is placed by clicking a pit and a count", async () => {
      // Against a person (no engine plays Omweso yet): Bob joins over the live channel.
      const id = await newGame({ variant: "omweso", opponent: "human" });
      const bob = await (await fetch(`${base}/api/players`, { method: "POST", body: JSON.stringify({ name: "Bob" }) })).json();
      const sock = new WebSocket(`ws://127.0.0.1:${port}/ws`);
      await new Promise((r) => sock.on("open", r));
      sock.send(JSON.stringify({ type: "hello", token: bob.token }));
      sock.send(JSON.stringify({ type: "join", game: id }));
      await page.goto(`${base}/#/game/${id}`);
      await page.click("#board .pit.legal >> nth=0");
      await page.waitForSelector('#legal-moves button[data-move^="a1="]');
      await page.screenshot({ path: join(out, "omweso-setup.png") });
      await page.click('#legal-moves button[data-move="a1=4"]');
      await page.waitForFunction(() => document.querySelectorAll("#moves li").length >= 1);
      expect((await page.textContent("#moves")).includes("a1=4"), "the setup ply is not in the move list");
      sock.close();
    });
  }

  await step("a phone-sized screen shows the whole board", async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await phone.goto(base);
    await phone.evaluate((t) => localStorage.setItem("naqala.player", t), JSON.stringify({ id: 0, name: "Tester", token }));
    await phone.goto(gameUrl);
    await phone.waitForSelector("#board .pit");
    const box = await phone.$eval("#board", (e) => e.getBoundingClientRect().width);
    expect(box <= 390, `board is ${box}px wide on a 390px screen`);
    await phone.screenshot({ path: join(out, "phone-kalah.png") });
    await phone.close();
  });

  await step("the review steps back through the positions", async () => {
    await page.goto(gameUrl.replace("#/game/", "#/review/"));
    await page.waitForSelector("#review-ply");
    await page.keyboard.press("Home");
    expect((await page.textContent("#review-ply")).startsWith("position after ply 0"), "Home did not go to the start");
    const start = await page.$$eval("#board .count", (l) => l.slice(0, 12).map((t) => t.textContent).join(","));
    expect(start === "4,4,4,4,4,4,4,4,4,4,4,4" || start.startsWith("0,"), `start position shows ${start}`);
  });
} catch {
  // the failing step has printed its line
} finally {
  if (browser) await browser.close();
  server.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
console.log(`screenshots in ${out}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
