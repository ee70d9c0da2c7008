// End-to-end test of the browser app in a real browser (Debian's chromium driven by
// playwright-core; no browser download). Starts `naqala serve` on a port it picks, with a fresh
// database, plays against the computer by clicking, reloads, and screenshots each board family.
//
//   node web/tests/e2e.mjs --naqala build/release/naqala --web build/release/web --out DIR
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import WebSocket from "ws";
import { CHROMIUM_ARGS, HANG_GUARD_MS, arg, expect, results, startServer as startNaqala, step } from "./harness.mjs";

const naqala = arg("naqala", "build/release/naqala");
const web = arg("web", "build/release/web");
const out = arg("out", "build/release/e2e");
const browserPath = arg("chromium", process.env.CHROMIUM ?? "/usr/bin/chromium");
mkdirSync(out, { recursive: true });

// The board screenshots for docs/screenshots (only when asked: --docs DIR).
const docs = arg("docs", null);
if (docs) mkdirSync(docs, { recursive: true });
// A page 700 px wide (the narrow layout: the board fills it) keeps the pictures small.
let docsPage = null;
const boardShot = async (p, name) => {
  if (!docs) return;
  if (!docsPage) {
    docsPage = await browser.newPage({ bypassCSP: true, viewport: { width: 700, height: 1000 } });
    await docsPage.goto(base);
    await docsPage.evaluate((s) => localStorage.setItem("naqala.player", s),
      await p.evaluate(() => localStorage.getItem("naqala.player")));
  }
  await docsPage.goto(p.url());
  // The game's own board (after a hash change the previous game's can still be on the page).
  const id = p.url().split("/").pop();
  await docsPage.waitForSelector(`#board[data-game="${id}"] .pit, #board[data-game="${id}"] .point`);
  await docsPage.locator(".board-wrap").screenshot({ path: join(docs, `${name}.png`) });
};
// Opens a game's page and waits for its own board: after a hash change from another game the
// previous board can still be on the page for a moment.
const openGame = async (p, id) => {
  await p.goto(`${base}/#/game/${id}`);
  await p.waitForSelector(`#board[data-game="${id}"]`, { state: "attached" });
};
// The settings live in the header's menu.
const setSetting = async (p, id, value) => {
  await p.click("#settings summary");
  if (typeof value === "boolean") await (value ? p.check(`#${id}`) : p.uncheck(`#${id}`));
  else await p.selectOption(`#${id}`, value);
  await p.click("#settings summary");
};

const dir = mkdtempSync(join(tmpdir(), "naqala-e2e-"));
// The server picks a free port itself (--port 0) and says which: no port is chosen here and
// bound there later. Started again on the same port with the same database to test a lost
// connection; ready when it prints its address.
let port = 0, base = "";
let server;
const startServer = () => { server = startNaqala(naqala, web, join(dir, "e2e.db"), port); };
const serverReady = () => server.ready();
const stopServer = () => server.stop();
startServer();

let browser;
try {
  await step("server starts and answers /api/health", async () => {
    port = await serverReady();
    base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/api/health`)).ok, `no answer; server said: ${server.log()}`);
  });

  browser = await chromium.launch({ executablePath: browserPath, headless: true, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ bypassCSP: true, viewport: { width: 1200, height: 850 } });
  page.setDefaultTimeout(HANG_GUARD_MS);
  page.on("pageerror", (e) => console.log(`     page error: ${e.message}`));

  await step("a new player picks a name", async () => {
    await page.goto(base);
    await page.fill("#name", "Tester");
    await page.click("button[type=submit]");
    await page.waitForSelector("#variant");
    expect((await page.textContent("#me")).includes("Tester"), "the header does not name the player");
  });

  const token = await page.evaluate(() => JSON.parse(localStorage.getItem("naqala.player")).token);
  const newGame = async (body) => {
    const res = await fetch(`${base}/api/games`, { method: "POST", body: JSON.stringify({ token, ...body }) });
    const g = await res.json();
    expect(res.ok, `create failed: ${g.error}`);
    return g.id;
  };
  const viewOf = async (id) => (await fetch(`${base}/api/games/${id}`)).json();

  // The lobby was still waiting for the server when the player went to a game: the lobby,
  // finishing late, drew itself over the board (the board "vanished"). Its list of games is
  // held back here until the board is drawn, then let through.
  await step("a page still loading never draws over the next one (lobby, then a game)", async () => {
    const id = await newGame({ variant: "kalah", opponent: "human" });
    const ctx = await browser.newContext({ bypassCSP: true });
    const p = await ctx.newPage();
    p.setDefaultTimeout(HANG_GUARD_MS);
    await p.goto(`${base}/api/health`);
    await p.evaluate((t) => localStorage.setItem("naqala.player", t), JSON.stringify({ id: 0, name: "Tester", token }));
    let asked, release, held = false;
    const lobbyAsked = new Promise((r) => (asked = r));
    const released = new Promise((r) => (release = r));
    await p.route((url) => url.pathname === "/api/games", async (r) => {
      if (r.request().method() !== "GET" || held) return r.continue();
      held = true;
      asked();
      await released;
      await r.continue();
    });
    await p.goto(base);
    await lobbyAsked;
    await openGame(p, id);
    await p.waitForSelector("#board .pit");
    const settledBefore = Number((await p.getAttribute("#app", "data-routes-settled")) ?? 0);
    release();
    // The lobby's route has finished (drawn or dropped) once the count goes up.
    await p.waitForFunction((n) => Number(document.querySelector("#app").dataset.routesSettled ?? 0) > n, settledBefore);
    expect(await p.$("#variant") === null, "the lobby was drawn over the game");
    expect(await p.$("#board .pit") !== null, "the board vanished");
    await ctx.close();
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
    await setSetting(page, "set-animation", "off");
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
    expect((await page.textContent("#status")).includes("resigned"), "status does not say who resigned");
  });


  await step("Oware with the tournament clock: no stores sown, clocks run", async () => {
    const id = await newGame({ variant: "oware", level: 1, clock: { preset: "oware" } });
    await openGame(page, id);
    await waitMyTurn();
    const clock = await page.textContent('.clock[data-side="south"]');
    expect(/^(20:00|19:5\d)$/.test(clock), `clock shows ${clock}`);
    await page.screenshot({ path: join(out, "oware-clock.png") });
  });

  // Backgammon played on the board: a checker dragged, the dice shown used, undo, then the turn
  // finished by clicks and sent with Confirm.
  const bgTurn = async (p) => {
    // Roll first when the cube could be turned (the decision is the player's).
    // The computer may answer first: on a loaded machine that can take a while.
    await p.waitForSelector('#board .point.legal, #phase button[data-move="roll"]');
    if (await p.$('#phase button[data-move="roll"]')) {
      await p.click('#phase button[data-move="roll"]');
      await p.waitForSelector("#board .point.legal");
    }
  };
  const centre = async (p, selector) => {
    const b = await p.locator(selector).first().boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  await step("backgammon: a checker is dragged, the die shows used, undo, confirm", async () => {
    const id = await newGame({ variant: "backgammon", level: 1, side: "south" });
    await setSetting(page, "set-confirm", true);
    await openGame(page, id);
    await page.waitForSelector("#board .point");
    expect((await page.$$("#board .point")).length === 24, "24 points expected");
    expect(await page.$("#board .cube"), "no cube drawn");
    await bgTurn(page);
    await boardShot(page, "backgammon");
    await page.screenshot({ path: join(out, "backgammon.png") });
    const dice = await page.$$eval("#board .die", (l) => l.length);
    expect(dice === 2 || dice === 4, `${dice} dice drawn`);
    // Which point may the first legal checker go to? (a click selects it and marks its targets)
    const from = await page.getAttribute("#board .point.legal >> nth=0", "data-point");
    await page.click(`#board .point[data-point="${from}"]`);
    await page.waitForSelector("#board .point.target, #board .tray .target");
    const to = await page.$eval("#board .point.target", (g) => g.getAttribute("data-point")).catch(() => null);
    const reach = await page.$$eval("#board .point.target", (l) => l.map((g) => Number(g.getAttribute("data-point"))));
    // Unselect by clicking an empty point that is neither a source nor a target (a second click
    // on the checker at once would be a double click, which plays the higher die). Empty, so the
    // click lands on the point itself whatever the dice and the opening move left on the board.
    const empty = await page.$$eval("#board .point:not(.legal):not(.target)", (l) =>
      l.filter((g) => !g.querySelector("circle.checker")).map((g) => g.getAttribute("data-point")));
    expect(empty.length > 0, "no empty point to click");
    await page.click(`#board .point[data-point="${empty[0]}"] .tri`);
    await page.waitForFunction(() => !document.querySelector("#board .point.target"))
      .catch(async (e) => {
        const left = await page.$$eval("#board .point.target, #board .point.selected", (l) => l.map((g) => g.outerHTML.slice(0, 80)));
        left.push(`board takes clicks: ${await page.$eval("#board", (b) => b.onpointerdown !== null)}`);
        throw new Error(`a click on empty point ${empty[0]} did not unselect point ${from}: ${left.join(" | ")}: ${e.message.split("\n")[0]}`);
      });
    expect(to !== null, "no target point marked");
    // A click elsewhere ends a double click: the checker clicked again at once is selected, not
    // moved (the two clicks on it do not follow each other).
    await page.click(`#board .point[data-point="${from}"]`);
    await page.waitForSelector("#board .point.target, #board .tray .target, #board .die.used");
    expect(!(await page.$("#board .die.used")), "a click, a click elsewhere and a click again played a die");
    await page.click(`#board .point[data-point="${empty[0]}"] .tri`);
    await page.waitForFunction(() => !document.querySelector("#board .point.target"));
    const checker = await centre(page, `#board .point[data-point="${from}"] circle.checker >> nth=-1`);
    const target = await centre(page, `#board .point[data-point="${to}"] .tri`);
    await page.mouse.move(checker.x, checker.y);
    await page.mouse.down();
    await page.mouse.move((checker.x + target.x) / 2, (checker.y + target.y) / 2, { steps: 4 });
    await page.mouse.move(target.x, target.y, { steps: 4 });
    await page.mouse.up();
    await page.waitForSelector("#board .die.used");
    expect(!(await page.isDisabled("#undo")), "Undo is not offered after a hop");
    await page.screenshot({ path: join(out, "backgammon-dragged.png") });
    await page.click("#undo");
    await page.waitForFunction(() => !document.querySelector("#board .die.used"), null)
      .catch((e) => { throw new Error(`Undo did not give the die back: ${e.message.split("\n")[0]}`); });
    // The keyboard: Enter on a checker's point picks it, Enter on a marked point moves it there.
    await page.focus("#board .point.legal >> nth=0");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#board .point.target[tabindex], #board .tray[tabindex]");
    await page.focus("#board .point.target[tabindex], #board .tray[tabindex]");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#board .die.used");
    await page.click("#undo");
    await page.waitForFunction(() => !document.querySelector("#board .die.used"));
    // A double click on a checker plays the higher die from it (the lower one when the higher
    // cannot be played there). The two clicks are dispatched at once: no timing decides it.
    const faces = await page.$$eval("#board .die", (l) => l.map((d) => Number(d.getAttribute("data-die"))));
    const expected = reach.includes(Number(from) - Math.max(...faces)) ? Math.max(...faces) : Math.min(...faces);
    await page.evaluate((q) => {
      const checkers = document.querySelectorAll(`#board .point[data-point="${q}"] circle.checker`);
      const r = checkers[checkers.length - 1].getBoundingClientRect();
      const at = { clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, button: 0, bubbles: true, isPrimary: true, pointerType: "mouse" };
      for (let k = 0; k < 2; k++) {
        document.querySelector("#board").dispatchEvent(new PointerEvent("pointerdown", at));
        window.dispatchEvent(new PointerEvent("pointerup", at));
      }
    }, from);
    await page.waitForSelector("#board .die.used");
    const used = await page.$$eval("#board .die.used", (l) => l.map((d) => Number(d.getAttribute("data-die"))));
    expect(used.length === 1 && used[0] === expected, `a double click with ${faces} on ${from} used ${used}, expected ${expected}`);
    await page.click("#undo");
    await page.waitForFunction(() => !document.querySelector("#board .die.used"));
    // The turn by clicks: a source, then its first target, until every die is played.
    const n = await plies();
    for (let k = 0; k < 4 && !(await page.$("#confirm:not([disabled])")); k++) {
      await page.click("#board .point.legal >> nth=0");
      await page.click("#board .point.target, #board .tray:has(.target)");
    }
    // The computer's answer is animated checker by checker: a checker sliding is counted as
    // it appears on the board.
    await setSetting(page, "set-animation", "normal");
    await page.evaluate(() => {
      window.__moving = 0;
      new MutationObserver((list) => {
        for (const m of list) for (const n of m.addedNodes) if (n.classList?.contains("moving")) window.__moving++;
      }).observe(document.querySelector("#board"), { childList: true, subtree: true });
    });
    const north = () => page.$$eval("#moves .disc-north", (l) => l.length);
    const theirs = await north();
    await page.click("#confirm");
    await page.waitForFunction((m) => document.querySelectorAll("#moves li").length > m, n)
      .catch(async () => { throw new Error(`Confirm sent nothing: ${await page.textContent("#toast")}`); });
    await setSetting(page, "set-confirm", false);
    // The computer rolls or doubles first: wait for its checker move (or its pass, when the dice
    // give it none). The turn above plays the first legal checker to its first target, which
    // can leave blots a level-1 computer doubles on: the double is taken, then it rolls.
    const answered = (take) => page.waitForFunction(([m, t]) =>
      [...document.querySelectorAll("#moves li")].filter((li) => li.querySelector(".disc-north")).slice(m)
        .some((li) => /\/|pass/.test(li.textContent)) || (t && document.querySelector('#phase button[data-move="take"]')),
      [theirs, take]);
    await answered(true);
    if (await page.$('#phase button[data-move="take"]')) {
      await page.click('#phase button[data-move="take"]');
      await answered(false);
    }
    await page.waitForSelector(".board-wrap:not(.animating)");
    const answer = (await viewOf(id)).plies.filter((p) => p.side === "N").pop().text;
    const moving = await page.evaluate(() => window.__moving);
    if (answer.includes("/")) expect(moving >= 1, `the computer's ${answer} was not animated (${moving} checkers slid)`);
    console.log(`     the computer answered ${answer}: ${moving} checker slides`);
    await setSetting(page, "set-animation", "off");
  });

  await step("backgammon: the computer accepts a resignation offer; the review shows error rates", async () => {
    const id = await newGame({ variant: "backgammon", level: 1, side: "south" });
    await openGame(page, id);
    await page.waitForSelector('#board .point.legal, #phase button[data-move="roll"]');
    await page.click("#offer-resign");
    await page.waitForSelector("#resign-menu");
    await page.screenshot({ path: join(out, "backgammon-resign.png") });
    await page.click('#resign-menu button[data-level="backgammon"]');
    // Three points at the start of a game is a gift the computer takes.
    await page.waitForFunction(() => document.querySelector("#status")?.classList.contains("result"));
    const status = await page.textContent("#status");
    expect(status.includes("3 points"), `the accepted resignation reads "${status}"`);
    const record = await (await fetch(`${base}/api/games/${id}/record`)).text();
    expect(record.includes("S resign backgammon") && record.includes("N accept"), `the record: ${record}`);
    await page.goto(`${base}/#/review/${id}`);
    await page.waitForSelector("#review-rates table.rates tr[data-side=south]");
    await page.screenshot({ path: join(out, "backgammon-review.png") });
  });

  await step("backgammon on a phone: the board fills the width", async () => {
    const phone = await browser.newPage({ bypassCSP: true, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(base);
    await phone.evaluate((t) => localStorage.setItem("naqala.player", t), JSON.stringify({ id: 0, name: "Tester", token }));
    const id = await newGame({ variant: "backgammon", level: 1, side: "south" });
    await openGame(phone, id);
    await bgTurn(phone);
    const w = await phone.locator("#board").evaluate((e) => e.getBoundingClientRect().width);
    expect(w >= 380 && w <= 390, `the board is ${w}px wide on a 390px screen`);
    // Turned upright, each point is about a finger wide.
    const finger = await phone.$$eval("#board .point .tri", (l) => Math.min(...l.map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })));
    expect(finger >= 40, `a point is ${finger.toFixed(0)}px across on a 390px screen`);
    // A tap on a checker, then on its target.
    const from = await phone.getAttribute("#board .point.legal >> nth=0", "data-point");
    await phone.tap(`#board .point[data-point="${from}"] .tri`);
    await phone.waitForSelector("#board .point.target, #board .tray .target");
    await phone.screenshot({ path: join(out, "phone-backgammon.png") });
    if (docs) await phone.screenshot({ path: join(docs, "phone-backgammon.png") });
    await phone.close();
  });

  // Every other landed board family, drawn from its first position (a game awaiting a person,
  // so no engine is needed): Toguz (9 pits, tuz marks), Congklak, Gabata's 3 rows.
  const variants = await (await fetch(`${base}/api/variants`)).json();
  for (const v of variants.filter((x) => x.family !== "backgammon")) {
    const name = v.name;
    await step(`${v.title}: the board is drawn`, async () => {
      const id = await newGame({ variant: name, opponent: "human" });
      await openGame(page, id);
      await page.waitForSelector("#board .pit");
      const pits = await page.$$eval("#board .pit", (l) => l.length);
      const board = await (await fetch(`${base}/api/games/${id}`)).json();
      const b = board.board;
      const expected = b.pits ? b.pits * (b.middle_row ? 3 : 2) : b.south.front.length * 4;
      expect(pits === expected, `${pits} pits drawn, ${expected} expected`);
      expect((await page.inputValue("#share-link")).includes(id), "no share link for the open seat");
      await page.screenshot({ path: join(out, `${name}.png`) });
      await boardShot(page, name);
    });
  }

  // A second player over the live channel, for games against a person.
  const opponent = async (id) => {
    const bob = await (await fetch(`${base}/api/players`, { method: "POST", body: JSON.stringify({ name: "Bob" }) })).json();
    const sock = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const views = [];
    let waiting = [];
    sock.on("message", (raw) => {
      const m = JSON.parse(raw);
      if (m.type !== "game" || m.id !== id) return;
      views.push(m);
      waiting = waiting.filter((w) => !(w.pred(m) && (w.resolve(m), true)));
    });
    await new Promise((r) => sock.on("open", r));
    sock.send(JSON.stringify({ type: "hello", token: bob.token }));
    sock.send(JSON.stringify({ type: "join", game: id }));
    const last = () => views[views.length - 1];
    const play = (move) => sock.send(JSON.stringify({ type: "move", game: id, move }));
    // The first view (the latest, or one to come) that satisfies pred: waits for the message.
    const until = (pred, ms = HANG_GUARD_MS) => (last() && pred(last())) ? Promise.resolve(last()) : new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no such game view came")), ms);
      waiting.push({ pred, resolve: (m) => { clearTimeout(timer); resolve(m); } });
    });
    return { sock, last, play, until };
  };

  if (variants.find((x) => x.name === "ayoayo")) {
    await step("a relay sowing is animated lap after lap, and Escape skips it", async () => {
      const id = await newGame({ variant: "ayoayo", opponent: "human", side: "south" });
      const bob = await opponent(id);
      await openGame(page, id);
      await setSetting(page, "set-animation", "normal");
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
        await bob.until((v) => v.to_move === "north" || v.status !== "playing");
        if (bob.last()?.status !== "playing") break;
        bob.play(bob.last().legal[0]);
      }
      expect(relay, "no relay sowing in the first moves");
      // Skipping: Escape ends the animation at once and the board shows the position.
      await bob.until((v) => v.to_move === "north");
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
      await setSetting(page, "set-animation", "off");
      bob.sock.close();
    });
  }

  if (variants.find((x) => x.name === "gabata")) {
    await step("Gabata: a pit of the middle row is played by clicking it", async () => {
      const id = await newGame({ variant: "gabata:start=alternate", opponent: "human", side: "south" });
      const bob = await opponent(id);
      await openGame(page, id);
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

  if (variants.find((x) => x.name === "bao")) {
    await step("Bao: a move's direction is an arrow on its pit, and a click on it plays it", async () => {
      const id = await newGame({ variant: "bao", opponent: "human", side: "south" });
      const bob = await opponent(id);
      await openGame(page, id);
      await page.waitForSelector("#board .arrow");
      const arrows = await page.$$eval("#board .arrow", (l) => l.map((g) => g.getAttribute("data-move")));
      expect(arrows.some((m) => m.includes("<")) && arrows.some((m) => m.includes(">")), `arrows for ${arrows}`);
      const label = await page.getAttribute("#board .arrow >> nth=0", "aria-label");
      expect(/sow to the (left|right)/.test(label), `the arrow says "${label}"`);
      await boardShot(page, "bao");
      await page.screenshot({ path: join(out, "bao-arrows.png") });
      await page.click("#board .arrow >> nth=0");
      await bob.until((v) => v.plies.length >= 1);
      expect((await viewOf(id)).plies[0].text === arrows[0], `clicked ${arrows[0]}, played ${(await viewOf(id)).plies[0].text}`);
      bob.sock.close();
    });
  }

  if (variants.find((x) => x.name === "omweso")) {
    await step("Omweso's setup is laid out by clicking pits, with a counter", async () => {
      const id = await newGame({ variant: "omweso", opponent: "human" });
      const bob = await opponent(id);
      await openGame(page, id);
      await page.waitForSelector("#setup-left");
      expect((await page.textContent("#setup-left")).startsWith("32 seeds left"), await page.textContent("#setup-left"));
      await page.click("#setup-even");
      expect((await page.textContent("#setup-left")) === "Every seed is placed.", "spreading evenly left seeds over");
      // Shift-click takes a seed back, a click puts one in, the keyboard does the same.
      await page.click('#board .pit[data-pit="a1"]', { modifiers: ["Shift"] });
      expect((await page.textContent("#setup-left")).startsWith("1 seed left"), "shift-click did not take a seed back");
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
      await openGame(page, id);
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
      await bob.until((v) => v.status === "playing");
      for (const row of ["S", "N"]) for (let k = 1; k <= 7; k++) bob.play(`${row}${k}=7`);
      await openGame(page, id);
      await page.waitForSelector("#pie-help");
      await page.screenshot({ path: join(out, "madjnuni-pie.png") });
      await page.focus('#board .pit.legal[data-side="north"] >> nth=0');
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelector("#moves")?.textContent.includes("keep"), null);
      bob.sock.close();
    });
  }

  await step("keyboard only: Tab to a pit, Enter plays it, arrows walk the moves", async () => {
    const id = await newGame({ variant: "kalah", level: 1, side: "south" });
    await openGame(page, id);
    await waitMyTurn();
    let focused = false;
    for (let k = 0; k < 60 && !focused; k++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() => document.activeElement?.matches?.("#board .pit.legal") ?? false);
    }
    expect(focused, "Tab never reached a pit");
    const label = await page.evaluate(() => document.activeElement.getAttribute("aria-label"));
    expect(/pit/.test(label), `the focused pit says "${label}"`);
    await page.keyboard.press("ArrowRight");  // the next pit, still on the board
    expect(await page.evaluate(() => document.activeElement?.matches?.("#board .pit") ?? false), "ArrowRight left the board");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length >= 1);
    await waitMyTurn();
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press("ArrowLeft");
    await page.waitForSelector("#looking:not([hidden])");
    expect((await page.textContent("#looking-at")).startsWith("Position after move"), await page.textContent("#looking-at"));
    await page.keyboard.press("End");
    await page.waitForSelector("#looking", { state: "hidden" });
  });

  await step("the connection is lost: shown, a move is refused, never replayed; it comes back", async () => {
    const id = await newGame({ variant: "kalah", level: 1, side: "south" });
    await openGame(page, id);
    await waitMyTurn();
    const before = (await viewOf(id)).plies.length;
    await stopServer();
    await page.waitForSelector("#connection:not([hidden])");
    await page.screenshot({ path: join(out, "connection-lost.png") });
    await page.click("#board .pit.legal >> nth=0");
    await page.waitForFunction(() => document.querySelector("#toast")?.textContent.includes("Not connected"));
    startServer();
    await serverReady();
    await page.waitForSelector("#connection", { state: "hidden" });
    await waitMyTurn();
    expect((await viewOf(id)).plies.length === before, "the move made offline was played after all");
    const n = await plies();
    await page.click("#board .pit.legal >> nth=0");
    await page.waitForFunction((m) => document.querySelectorAll("#moves li").length > m, n);
  });

  await step("every option of every game is named and explained in each language", async () => {
    const missing = [];
    for (const lang of ["en", "es", "pt", "ru"]) {
      const texts = await (await fetch(`${base}/i18n/${lang}.json`)).json();
      for (const v of variants) for (const o of v.options) {
        for (const key of [`option.${o.name}`, `optionHelp.${v.name}.${o.name}`]) if (!(key in texts)) missing.push(`${lang}: ${key}`);
      }
    }
    expect(!missing.length, `no text in web/src/i18n/ for ${missing.join(", ")}`);
  });

  await step("languages: the browser's own, and the switch", async () => {
    const ctx = await browser.newContext({ bypassCSP: true, locale: "es-ES" });
    const es = await ctx.newPage();
    await es.goto(base);
    await es.evaluate((t) => localStorage.setItem("naqala.player", t), JSON.stringify({ id: 0, name: "Tester", token }));
    await es.goto(base);
    await es.waitForSelector("#variant");
    expect((await es.textContent("h1")) === "Nueva partida", `a Spanish browser sees "${await es.textContent("h1")}"`);
    for (const [lang, heading, toguz] of [["ru", "Новая игра", "Тогыз кумалак"], ["pt", "Novo jogo", "Toguz Korgool"], ["en", "New game", "Toguz Korgool"]]) {
      await es.click("#settings summary");
      await es.selectOption("#language", lang);
      await es.waitForFunction((hd) => document.querySelector("h1")?.textContent === hd, heading);
      const names = await es.$$eval("#variant option", (os) => os.map((o) => o.textContent));
      expect(names.includes(toguz), `${lang}: no "${toguz}" among ${names}`);
      if (lang === "ru") {
        await es.selectOption("#variant", "oware");
        const help = await es.textContent('label:has([data-option="cycle"]) .help');
        expect(help.includes("когда позиция повторяется"), `Oware's cycle option is explained as "${help}"`);
        await es.selectOption("#variant", "kalah");
        await es.screenshot({ path: join(out, "lobby-ru.png") });
        const id = await newGame({ variant: "toguz", opponent: "human" });
        await openGame(es, id);
        await es.waitForSelector("#board .pit");
        expect((await es.textContent("h1")).startsWith("Тогыз кумалак"), await es.textContent("h1"));
        await es.screenshot({ path: join(out, "toguz-ru.png") });
        await es.goto(base);
        await es.waitForSelector("#variant");
      }
    }
    await es.reload();
    await es.waitForSelector("#variant");
    expect((await es.textContent("h1")) === "New game", "the chosen language did not stay");
    await ctx.close();
  });

  await step("settings stay: board style, animation speed, sound, confirmation survive a reload", async () => {
    await setSetting(page, "set-board", "dark");
    await setSetting(page, "set-animation", "fast");
    await setSetting(page, "set-sound", true);
    expect(await page.evaluate(() => document.documentElement.dataset.board) === "dark", "the dark board style is not applied");
    await page.reload();
    await page.waitForSelector("#settings");
    expect(await page.evaluate(() => document.documentElement.dataset.board) === "dark", "the board style did not stay");
    expect(await page.inputValue("#set-animation") === "fast", "the animation speed did not stay");
    expect(await page.isChecked("#set-sound"), "the sound setting did not stay");
    await page.screenshot({ path: join(out, "dark-board.png") });
    await setSetting(page, "set-board", "wood");
    await setSetting(page, "set-animation", "off");
    await setSetting(page, "set-sound", false);
  });

  await step("page weight and time to the first board (a fresh browser, nothing cached)", async () => {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    await p.goto(`${base}/api/health`);
    await p.evaluate((t) => localStorage.setItem("naqala.player", t), JSON.stringify({ id: 0, name: "Tester", token }));
    const bodies = [];
    p.on("response", (r) => bodies.push(r.body().then((b) => b.length, () => 0)));
    await p.goto(gameUrl);
    await p.waitForSelector("#board .pit");
    const ms = await p.evaluate(() => performance.now());
    await p.waitForLoadState("networkidle");
    const sizes = await Promise.all(bodies);
    const bytes = sizes.reduce((a, b) => a + b, 0), requests = sizes.length;
    console.log(`     page weight ${(bytes / 1024).toFixed(1)} KiB in ${requests} requests; first board drawn ${ms.toFixed(0)} ms after navigation`);
    await ctx.close();
  });

  await step("a phone-sized screen shows the whole board", async () => {
    const phone = await browser.newPage({ bypassCSP: true, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(base);
    await phone.evaluate((t) => localStorage.setItem("naqala.player", t), JSON.stringify({ id: 0, name: "Tester", token }));
    await phone.goto(gameUrl);
    await phone.waitForSelector("#board .pit");
    const box = await phone.locator("#board").evaluate((e) => e.getBoundingClientRect().width);
    expect(box >= 380 && box <= 390, `board is ${box}px wide on a 390px screen`);
    // The board is turned upright on a phone: a pit is a finger wide, its count readable.
    const smallest = (p) => p.$$eval("#board .pit .hole", (l) => Math.min(...l.map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })));
    expect(await smallest(phone) >= 44, `Kalah's pits are ${(await smallest(phone)).toFixed(0)}px across on a 390px screen`);
    await phone.screenshot({ path: join(out, "phone-kalah.png") });
    if (docs) await phone.screenshot({ path: join(docs, "phone-kalah.png") });
    if (variants.find((x) => x.name === "omweso")) {  // the widest board, with the setup panel
      const id = await newGame({ variant: "omweso", opponent: "human" });
      const bob = await opponent(id);
      await openGame(phone, id);
      await phone.waitForSelector("#setup-send");
      const wide = await phone.locator("#board").evaluate((e) => e.getBoundingClientRect().width);
      expect(wide <= 390, `Omweso's board is ${wide}px wide on a 390px screen`);
      expect(await smallest(phone) >= 44, `Omweso's pits are ${(await smallest(phone)).toFixed(0)}px across on a 390px screen`);
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
    expect((await page.textContent("#review-ply")).startsWith("Position after move 0"), "Home did not go to the start");
    const start = await page.$$eval("#board .count", (l) => l.slice(0, 12).map((t) => t.textContent).join(","));
    expect(start === "4,4,4,4,4,4,4,4,4,4,4,4" || start.startsWith("0,"), `start position shows ${start}`);
  });
} catch {
  // the failing step has printed its line
} finally {
  if (browser) await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`screenshots in ${out}`);
console.log(`${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed ? 1 : 0);
