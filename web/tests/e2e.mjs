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
// Every wait ends on what it waits for; this limit only stops a hang, far beyond what a slow or
// loaded machine needs.
const HANG_GUARD_MS = 5 * 60 * 1000;
const until = async (cond) => {
  for (const end = Date.now() + HANG_GUARD_MS; !cond() && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
};

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
    for (const end = Date.now() + HANG_GUARD_MS; Date.now() < end && server.exitCode === null;) {
      try { if ((await fetch(`${base}/api/health`)).ok) return; } catch { /* not yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no answer; server said: ${serverLog}`);
  });

  browser = await chromium.launch({ executablePath: browserPath, headless: true, args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 850 } });
  page.setDefaultTimeout(HANG_GUARD_MS);
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
  const waitMyTurn = () => page.waitForSelector("#board .pit.legal");
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
    await page.waitForFunction((m) => document.querySelector("#moves")?.textContent === m, movesBefore);
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
    await page.waitForSelector("#legal-moves button");
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

  // A second player over the live channel, for games against a person.
  const opponent = async (id) => {
    const bob = await (await fetch(`${base}/api/players`, { method: "POST", body: JSON.stringify({ name: "Bob" }) })).json();
    const sock = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const views = [];
    sock.on("message", (raw) => { const m = JSON.parse(raw); if (m.type === "game" && m.id === id) views.push(m); });
    await new Promise((r) => sock.on("open", r));
    sock.send(JSON.stringify({ type: "hello", token: bob.token }));
    sock.send(JSON.stringify({ type: "join", game: id }));
    const last = () => views[views.length - 1];
    const play = (move) => sock.send(JSON.stringify({ type: "move", game: id, move }));
    return { sock, last, play };
  };
  const viewOf = async (id) => (await fetch(`${base}/api/games/${id}`)).json();

  if (variants.find((x) => x.name === "ayoayo")) {
    await step("a relay sowing is animated lap after lap, and Escape skips it", async () => {
      const id = await newGame({ variant: "ayoayo", opponent: "human", side: "south" });
      const bob = await opponent(id);
      await page.goto(`${base}/#/game/${id}`);
      await page.check("#animate");
      let relay = null;
      for (let k = 0; k < 8 && !relay; k++) {
        await waitMyTurn();
        // Count the board's redraws while the move is animated.
        await page.evaluate(() => {
          window.__draws = 0;
          if (!window.__observer) {
            window.__observer = new MutationObserver(() => window.__draws++);
            window.__observer.observe(document.querySelector("#board"), { childList: true });
          }
        });
        const n = await plies();
        await page.click("#board .pit.legal >> nth=-1");
        await page.waitForFunction((m) => document.querySelectorAll("#moves li").length > m, n);
        const v = await viewOf(id);
        if (v.path && v.path.laps.length > 1) relay = v.path;
        await page.waitForSelector(".board-wrap:not(.animating)");
        if (relay) {
          const seeds = relay.laps.reduce((a, l) => a + l.pits.length, 0);
          const draws = await page.evaluate(() => window.__draws);
          expect(draws >= seeds + relay.laps.length, `${draws} redraws for ${relay.laps.length} laps of ${seeds} seeds`);
          break;
        }
        await until(() => bob.last()?.to_move === "north" || (bob.last() && bob.last().status !== "playing"));
        if (bob.last()?.status !== "playing") break;
        bob.play(bob.last().legal[0]);
      }
      expect(relay, "no relay sowing in the first moves");
      // Skipping: Escape ends the animation at once and the board shows the position.
      await until(() => bob.last()?.to_move === "north" || (bob.last() && bob.last().status !== "playing"));
      bob.play(bob.last().legal[0]);
      await waitMyTurn();
      const n = await plies();
      await page.click("#board .pit.legal >> nth=0");
      await page.waitForSelector(".board-wrap.animating");
      await page.screenshot({ path: join(out, "ayoayo-relay-animation.png") });
      // Escape is pressed in the page as soon as it animates (no clock to race): after it, the
      // board is drawn once or twice (the position), not once per seed still to sow.
      const pressed = await page.evaluate(() => {
        if (!document.querySelector(".board-wrap.animating")) return false;
        window.__draws = 0;
        document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
        return true;
      });
      await page.waitForSelector(".board-wrap:not(.animating)");
      if (pressed) expect(await page.evaluate(() => window.__draws) <= 2, "Escape did not end the animation");
      await page.waitForFunction((m) => document.querySelectorAll("#moves li").length > m, n);
      await page.uncheck("#animate");
      bob.sock.close();
    });
  }

  if (variants.find((x) => x.name === "gabata")) {
    await step("Gabata: a pit of the middle row is played by clicking it", async () => {
      const id = await newGame({ variant: "gabata", opponent: "human", side: "south" });
      const bob = await opponent(id);
      await page.goto(`${base}/#/game/${id}`);
      await waitMyTurn();
      const middle = await page.$$eval('#board .pit.legal[data-side="middle"]', (l) => l.map((g) => Number(g.getAttribute("data-pit"))));
      expect(middle.length === 3, `South's half of the middle row should be playable, saw columns ${middle}`);
      await page.click(`#board .pit.legal[data-side="middle"][data-pit="${middle[0]}"]`);
      await page.waitForFunction(() => document.querySelectorAll("#moves li").length >= 1);
      // South's pits 7, 8, 9 are the middle row's columns 6, 5, 4 (from South's left).
      const v = await viewOf(id);
      expect(v.plies[0].text === String(7 + 6 - middle[0]), `clicked column ${middle[0]}, played ${v.plies[0].text}`);
      await page.screenshot({ path: join(out, "gabata-after-move.png") });
      bob.sock.close();
    });
  }

  if (variants.find((x) => x.name === "omweso")) {
    await step("Omweso's setup is laid out by clicking pits, with a counter", async () => {
      const id = await newGame({ variant: "omweso", opponent: "human" });
      const bob = await opponent(id);
      await page.goto(`${base}/#/game/${id}`);
      await page.waitForSelector("#setup-left");
      expect((await page.textContent("#setup-left")).startsWith("32 seeds left"), await page.textContent("#setup-left"));
      await page.click("#setup-even");
      expect((await page.textContent("#setup-left")) === "Every seed is placed.", "spreading evenly left seeds over");
      // Shift-click takes a seed back, a click puts one in, the keyboard does the same.
      await page.click('#board .pit[data-pit="a1"]', { modifiers: ["Shift"] });
      expect((await page.textContent("#setup-left")).startsWith("1 seeds left"), "shift-click did not take a seed back");
      await page.focus('#board .pit[data-pit="b1"]');
      await page.keyboard.press("Enter");
      expect(await page.textContent('#board .pit[data-pit="b1"] .count') === "3", "Enter did not add a seed to b1");
      await page.keyboard.press("Enter");
      expect((await page.textContent("#toast")).includes("Every seed is placed"), "no message when no seed is left");
      await page.screenshot({ path: join(out, "omweso-setup.png") });
      await page.click("#setup-send");
      await page.waitForFunction(() => document.querySelectorAll("#moves li").length >= 15, null);
      const v = await viewOf(id);
      expect(v.plies[0].text === "a1=1" && v.plies[1].text === "b1=3", `setup plies ${v.plies.slice(0, 3).map((p) => p.text)}`);
      expect(v.board.south.front[0] === 1 && v.board.south.back[7] === 2, "the layout on the board is not the one placed");
      bob.sock.close();
    });
  }

  if (variants.find((x) => x.name === "el-akil")) {
    await step("el-akil: the mirrored layout is placed on both rows at once", async () => {
      const id = await newGame({ variant: "el-akil", opponent: "human", side: "north" });  // North lays out
      const bob = await opponent(id);
      await page.goto(`${base}/#/game/${id}`);
      await page.waitForSelector("#setup-left");
      expect((await page.textContent("#setup-left")).startsWith("36 seeds left"), await page.textContent("#setup-left"));
      await page.click("#setup-even");
      await page.click('#board .pit[data-side="north"][data-pit="1"]', { button: "right" });
      await page.click('#board .pit[data-side="south"][data-pit="2"]');
      expect(await page.textContent('#board .pit[data-side="north"][data-pit="2"] .count') === "7", "the mirror pit does not follow");
      await page.focus('#board .pit[data-side="north"][data-pit="3"]');  // the keyboard: − and +
      await page.keyboard.press("-");
      expect(await page.textContent('#board .pit[data-side="south"][data-pit="3"] .count') === "5", "− did not take a seed back");
      await page.keyboard.press("+");
      await page.click("#setup-send");
      await page.waitForFunction(() => document.querySelectorAll("#moves li").length >= 6, null);
      const v = await viewOf(id);
      expect(v.plies.map((p) => p.text).join(" ") === "1=5 2=7 3=6 4=6 5=6 6=6", `setup plies ${v.plies.map((p) => p.text)}`);
      expect(v.board.phase === "pie", `phase ${v.board.phase} after the layout`);
      bob.sock.close();
    });
  }

  if (variants.find((x) => x.name === "madjnuni")) {
    await step("madjnuni: the pie choice is made by clicking a row", async () => {
      const id = await newGame({ variant: "madjnuni", opponent: "human", side: "north" });
      const bob = await opponent(id);  // South lays out the seeds: 7 in each pit
      await until(() => bob.last()?.status === "playing");
      for (const row of ["S", "N"]) for (let k = 1; k <= 7; k++) bob.play(`${row}${k}=7`);
      await page.goto(`${base}/#/game/${id}`);
      await page.waitForSelector("#pie-help");
      await page.screenshot({ path: join(out, "madjnuni-pie.png") });
      await page.focus('#board .pit.legal[data-side="north"] >> nth=0');
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelector("#moves")?.textContent.includes("keep"), null);
      bob.sock.close();
    });
  }

  await step("a phone-sized screen shows the whole board", async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(base);
    await phone.evaluate((t) => localStorage.setItem("naqala.player", t), JSON.stringify({ id: 0, name: "Tester", token }));
    await phone.goto(gameUrl);
    await phone.waitForSelector("#board .pit");
    const box = await phone.$eval("#board", (e) => e.getBoundingClientRect().width);
    expect(box <= 390, `board is ${box}px wide on a 390px screen`);
    await phone.screenshot({ path: join(out, "phone-kalah.png") });
    if (variants.find((x) => x.name === "omweso")) {  // the widest board, with the setup panel
      const id = await newGame({ variant: "omweso", opponent: "human" });
      const bob = await opponent(id);
      await phone.goto(`${base}/#/game/${id}`);
      await phone.waitForSelector("#setup-send");
      const wide = await phone.$eval("#board", (e) => e.getBoundingClientRect().width);
      expect(wide <= 390, `Omweso's board is ${wide}px wide on a 390px screen`);
      await phone.tap('#board .pit[data-pit="a1"]');
      expect((await phone.textContent("#setup-left")).startsWith("31 seeds left"), "a tap did not place a seed");
      await phone.tap("#setup-minus");  // no shift or right click on a phone: the minus
      await phone.tap('#board .pit[data-pit="a1"]');
      expect((await phone.textContent("#setup-left")).startsWith("32 seeds left"), "the minus did not take the seed back");
      await phone.tap("#setup-minus");
      await phone.tap('#board .pit[data-pit="a1"]');
      await phone.screenshot({ path: join(out, "phone-omweso-setup.png") });
      bob.sock.close();
    }
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
