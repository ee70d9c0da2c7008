// A game page in the manner of lichess: the board first, each player's clock beside it, the
// move list with the position at each move (click a move, or the arrow keys, to look back),
// the result and how it came, rematch, a link to share and the record to download.
import { GameView, Live, Ply, TournamentView, api, player } from "./api.js";
import { gameOpensFor } from "./tournamenttext.js";
import { rendererFor } from "./boards/index.js";
import { BoardContext, Skip } from "./boards/board.js";
import { formatClock, h, toast } from "./ui.js";
import { SVG_NS } from "./svg.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { settings } from "./settings.js";
import { lowTimeTick } from "./sound.js";
import { gameName, plyText, seatLabel, sideName, statusText } from "./gametext.js";

export function gamePage(root: HTMLElement, id: string, live: Live): () => void {
  let view: GameView | null = null;
  let shown: GameView | null = null;  // what the board shows (lags while animating)
  let receivedAt = performance.now();
  let animating: Skip | null = null;
  let pending: GameView | null = null;
  let looking: number | null = null;  // the ply whose position is shown from the history
  let history: { plies: Ply[]; boards: any[] } | null = null;
  let lastTick = -1;

  const svg = document.createElementNS(SVG_NS, "svg") as SVGSVGElement;
  svg.setAttribute("id", "board");
  svg.setAttribute("role", "group");
  svg.setAttribute("data-game", id);  // which game it shows (the page may be changing games)
  const boardWrap = h("div", { class: "board-wrap" }, svg);
  const topSeat = h("div", { class: "seat", id: "seat-top" });
  const bottomSeat = h("div", { class: "seat", id: "seat-bottom" });
  const status = h("div", { class: "status", id: "status", "aria-live": "polite" });
  const legalBox = h("div", { class: "legal-moves", id: "legal-moves" });
  const phaseBox = h("div", { class: "phase", id: "phase" });
  const controls = h("div", { class: "controls", id: "controls" });
  const moves = h("ol", { class: "moves", id: "moves", "aria-label": t("moves") });
  const nav = h("div", { class: "nav", id: "nav" });
  const lookingBar = h("div", { class: "looking", id: "looking", hidden: true });
  const title = h("h1", { class: "game-title" }, t("loading"));
  const share = h("div", { id: "share" });
  const capLine = h("div", { class: "small", id: "cap" });

  root.replaceChildren(h("div", { class: "game-page" },
    h("section", { class: "board-col" }, title, boardWrap, lookingBar, phaseBox, legalBox),
    h("aside", { class: "side-col" }, topSeat, status, h("div", { class: "moves-box" }, nav, moves), controls, bottomSeat, capLine, share)));

  const skip = () => { if (animating) animating.skip = true; };
  boardWrap.addEventListener("click", skip);
  const onKey = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === "Escape") { skip(); if (looking !== null) void lookAt(null); }
    // Arrows move between the board's pits (roving focus) when one has the focus, else
    // through the moves played.
    const inBoard = e.target instanceof SVGElement && svg.contains(e.target);
    if (inBoard && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      const items = [...svg.querySelectorAll<SVGElement>('[tabindex="0"]')];
      const at = items.indexOf(e.target as SVGElement);
      items[(at + (e.key === "ArrowRight" ? 1 : items.length - 1)) % items.length]?.focus();
      e.preventDefault();
      return;
    }
    if (!inBoard && view) {
      const n = view.plies.length, k = looking ?? n;
      if (e.key === "ArrowLeft") { void lookAt(k - 1); e.preventDefault(); }
      if (e.key === "ArrowRight") { void lookAt(k + 1); e.preventDefault(); }
      if (e.key === "Home") { void lookAt(0); e.preventDefault(); }
      if (e.key === "End") { void lookAt(null); e.preventDefault(); }
    }
    // Digits play pit moves directly when they are legal.
    if (view && /^[1-9]$/.test(e.key) && myLegal().includes(e.key)) play(e.key);
  };
  document.addEventListener("keydown", onKey);

  const myLegal = (): string[] => {
    if (!view || view.status !== "playing" || !view.you || animating || looking !== null) return [];
    if (view.joint) return view.joint[view.you].chosen ? [] : view.joint[view.you].options;
    return view.to_move === view.you ? view.legal : [];
  };
  // A move goes out only while connected, naming the ply it answers: the server refuses it if
  // the game moved on meanwhile. Offline it is not kept for later.
  const play = (move: string): boolean => {
    if (!view) return false;
    if (!live.send({ type: "move", game: id, move, ply: view.plies.length })) { toast(t("conn.notSent")); return false; }
    return true;
  };
  // A setup sent at once: one move per pit, each naming the ply it expects.
  const playMany = (list: string[]) => {
    if (!view) return;
    const at = view.plies.length;
    if (live.state !== "online") return toast(t("conn.notSent"));
    list.forEach((move, k) => live.send({ type: "move", game: id, move, ply: at + k }));
  };
  // Draws the board again, keeping the keyboard focus on the same pit.
  const redraw = () => {
    if (!shown || animating || looking !== null) return;
    const active = document.activeElement;
    const focused = active instanceof SVGElement ? active.getAttribute("data-name") ?? active.getAttribute("data-pit") ?? active.getAttribute("data-point") : null;
    rendererFor(shown.family).draw(svg, shown.board, ctxFor(shown));
    renderChrome(shown);
    if (focused) svg.querySelector<SVGElement>(`[data-name="${focused}"], [data-pit="${focused}"], [data-point="${focused}"]`)?.focus();
  };
  const send = (type: string, extra: Record<string, string> = {}) => { if (!live.send({ type, game: id, ...extra })) toast(t("conn.notSent")); };
  let resignMenu = false;  // backgammon: the choice of what to resign is open

  let choices: string[] = [];  // moves offered after a click that could mean several
  const ctxFor = (v: GameView): BoardContext => ({
    you: v.you, legal: v === view ? myLegal() : [], last: lastDecision(v.plies), play, side: v.joint ? v.you : v.to_move,
    choose: (list) => { choices = list; renderChrome(v); },
    game: id, playMany, redraw, confirm: settings().confirm,
  });

  function lastDecision(plies: Ply[]) {
    for (let i = plies.length - 1; i >= 0; i--) if (plies[i].side !== "*") return plies[i];
    return null;
  }

  function seatBox(box: HTMLElement, v: GameView, side: "south" | "north") {
    const clock = h("span", { class: "clock", "data-side": side }, icon("clock"), h("span", { class: "time" }));
    const pts = v.match ? h("span", { class: "match-points", title: t("match.points") }, String(v.match.points[side])) : "";
    box.className = "seat" + (v.to_move === side && v.status === "playing" ? " to-move" : "");
    box.replaceChildren(h("span", { class: `disc disc-${side}`, "aria-hidden": "true" }),
      h("span", { class: "who" }, h("span", { class: "side-name" }, sideName(side)), " ", seatLabel(v, side)), pts, v.clock ? clock : "");
  }

  function tick() {
    if (!view?.clock) return;
    const c = view.clock;
    // The clock of the player to answer starts after the animation allowance (docs/server.md).
    const since = Math.max(0, performance.now() - receivedAt - (c.starts_in_ms ?? 0));
    for (const side of ["south", "north"] as const) {
      const el = root.querySelector<HTMLElement>(`.clock[data-side="${side}"]`);
      if (!el) continue;
      // Congklak's simultaneous start runs both clocks until each player has chosen.
      const running = c.running_sides ? c.running_sides.includes(side) : c.running === side;
      const ms = (side === "south" ? c.south_ms : c.north_ms) - (running ? since : 0);
      el.querySelector(".time")!.textContent = formatClock(ms);
      el.setAttribute("aria-label", t("clock.left", { side: sideName(side), time: formatClock(ms) }));
      el.classList.toggle("running", running);
      el.classList.toggle("low", ms < 30000);
      const second = Math.ceil(ms / 1000);
      if (running && side === view.you && ms > 0 && ms < 10000 && second !== lastTick) { lastTick = second; lowTimeTick(); }
    }
    // Toguz: the whole game is capped (2 hours); then the current result is final.
    const ticking = c.running !== null || (c.running_sides?.length ?? 0) > 0;
    capLine.textContent = c.cap_ms > 0 ? t("clock.cap", { time: formatClock(c.cap_ms - c.used_ms - (ticking ? since : 0)) }) : "";
  }
  const ticker = window.setInterval(tick, 250);

  // The position after ply k (0: the start; null: the game now), from the server's review.
  async function lookAt(k: number | null) {
    if (!view) return;
    const n = view.plies.length;
    if (k !== null && (k >= n || k < 0)) k = k < 0 ? 0 : null;
    if (k === null) {
      looking = null;
      lookingBar.hidden = true;
      if (shown) { rendererFor(shown.family).draw(svg, shown.board, ctxFor(shown)); renderChrome(shown); }
      return;
    }
    if (!history || history.plies.length !== n) {
      try { history = await api.review(id); } catch (e) { toast((e as Error).message); return; }
    }
    looking = Math.min(k, history.boards.length - 1);
    const v = view;
    rendererFor(v.family).draw(svg, history.boards[looking], { you: v.you, legal: [], last: lastDecision(history.plies.slice(0, looking)), play: () => false });
    lookingBar.hidden = false;
    lookingBar.replaceChildren(h("span", { id: "looking-at" }, t("history.at", { k: looking, n })),
      h("button", { id: "back-to-game", onclick: () => void lookAt(null) }, t("history.back")));
    renderChrome(v);
  }

  function renderMoves(v: GameView) {
    const at = looking ?? v.plies.length;
    moves.replaceChildren(...v.plies.map((p, i) => h("li", { class: i === at - 1 ? "current" : "" },
      h("button", { class: "ply", "data-ply": i + 1, onclick: () => void lookAt(i + 1 === v.plies.length ? null : i + 1),
        "aria-label": `${i + 1}. ${p.side === "*" ? "" : sideName(p.side === "S" ? "south" : "north")} ${plyText(p)}` },
        h("span", { class: `disc disc-${p.side === "S" ? "south" : p.side === "N" ? "north" : "dice"}`, "aria-hidden": "true" }), plyText(p)))));
    const cur = moves.querySelector("li.current");
    if (looking === null) moves.scrollTop = moves.scrollHeight; else cur?.scrollIntoView({ block: "nearest" });
    const btn = (name: string, label: string, to: () => number | null, id: string) =>
      h("button", { class: "icon-button", "aria-label": label, title: label, id, onclick: () => void lookAt(to()) }, icon(name));
    nav.replaceChildren(btn("first", t("history.first"), () => 0, "nav-first"), btn("prev", t("history.prev"), () => (looking ?? v.plies.length) - 1, "nav-prev"),
      btn("next", t("history.next"), () => (looking === null ? null : looking + 1), "nav-next"), btn("last", t("history.last"), () => null, "nav-last"));
  }

  function renderChrome(v: GameView) {
    title.textContent = gameName(v.variant, v.title) + (v.variant.includes(":") ? ` (${v.variant.split(":")[1]})` : "") +
      (v.rated && v.seats.every((x) => x.kind !== "computer") ? ` · ${t("tour.rated")}` : "");
    svg.setAttribute("aria-label", t("board.label", { game: gameName(v.variant, v.title) }));
    const bottom = v.you === "north" ? "north" : "south";
    seatBox(bottomSeat, v, bottom);
    seatBox(topSeat, v, bottom === "south" ? "north" : "south");
    status.textContent = statusText(v);
    status.classList.toggle("result", v.status === "over");
    const renderer = rendererFor(v.family);
    const legal = myLegal();
    phaseBox.replaceChildren(...(renderer.panel && v === view && looking === null ? renderer.panel(v.board, ctxFor(v)) : []));
    const listed = choices.length ? choices.filter((m) => legal.includes(m)) : legal.filter((m) => !renderer.onBoard(m, v.board));
    legalBox.replaceChildren(...(listed.length
      ? [h("span", { class: "small" }, choices.length ? t("moves.which") : t("moves.yours")),
        ...listed.map((m) => h("button", { onclick: () => play(m), "data-move": m }, m))]
      : []));
    renderMoves(v);
    const link = location.href;
    share.replaceChildren(...(v.status === "waiting"
      ? [h("p", {}, t("share.send")), h("input", { class: "share", id: "share-link", readonly: true, value: link, onfocus: (e: Event) => (e.target as HTMLInputElement).select() })] : []));

    const c: (Node | string)[] = [];
    if (v.you && v.status === "playing" && v.family === "backgammon") c.push(...resignationControls(v));
    if (v.you && v.status === "playing") {
      c.push(h("button", { id: "resign", onclick: () => { if (confirm(t("resign.ask"))) send("resign"); } }, icon("flag"), t("resign")));
      const opp = v.seats[v.you === "south" ? 1 : 0];
      if (v.draw_offer && v.draw_offer !== v.you) {
        c.push(h("button", { id: "accept-draw", onclick: () => send("accept_draw") }, t("draw.accept")),
          h("button", { id: "decline-draw", onclick: () => send("decline_draw") }, t("draw.decline")));
      } else if (opp.kind === "human" && !v.draw_offer) {
        const left = v.draw_offers_left ? v.draw_offers_left[v.you === "south" ? 0 : 1] : null;
        c.push(h("button", { id: "offer-draw", onclick: () => send("offer_draw"), disabled: left === 0 },
          left === null ? t("draw.offer") : t("draw.offerLeft", { n: left })));
      }
    }
    if (!v.you && v.status === "waiting" && player()) c.push(h("button", { class: "primary", id: "join", onclick: () => send("join") }, t("join")));
    if (v.next_game) c.push(h("a", { class: "button primary", href: `#/game/${v.next_game}`, id: "next-game" }, v.match ? t("match.next") : t("rematch.go")));
    else if (v.you && v.status === "over" && (!v.match || v.match.over))
      c.push(h("button", { id: "rematch", class: "primary", onclick: () => send("rematch") }, icon("rematch"), v.rematch.includes(v.you) ? t("rematch.asked") : t("rematch")));
    if (v.tournament) c.push(h("a", { class: "button", href: `#/tournament/${v.tournament.id}`, id: "to-tournament" },
      t("tour.backTo", { name: v.tournament.name, n: v.tournament.round })));
    c.push(h("button", { id: "copy-link", onclick: () => copyLink(link) }, icon("link"), t("share.copy")));
    c.push(h("a", { class: "button", href: `/api/games/${id}/record`, download: `naqala-${id}.txt`, id: "download" }, icon("download"), t("record.download")));
    controls.replaceChildren(...c);
    tick();
  }

  // Backgammon's resignation offers (a single game, a gammon or a backgammon, as gnubg plays
  // them): the answer to the opponent's, the wait for one's own, or the choice of what to offer.
  function resignationControls(v: GameView): Node[] {
    const offer = v.board?.resignation;
    const levelName = (level: string) => t(`bg.level.${level}`);
    if (offer) {
      resignMenu = false;
      if (offer.by === v.you) return [h("p", { class: "small", id: "resign-wait" }, t("bg.resignWait", { level: levelName(offer.level) }))];
      if (v.to_move !== v.you) return [];
      return [h("div", { class: "offer", id: "resign-offer", role: "alertdialog", "aria-labelledby": "resign-offer-text" },
        h("p", { id: "resign-offer-text" }, t("bg.resignOffered", { name: seatLabel(v, offer.by), level: levelName(offer.level), points: t("result.points", { n: offer.points }) })),
        h("button", { class: "primary", id: "accept-resign", onclick: () => send("accept_resign") }, t("bg.resignAccept")),
        h("button", { id: "decline-resign", onclick: () => send("decline_resign") }, t("bg.resignDecline")))];
    }
    const phase = v.board?.phase;
    const mayOffer = v.to_move === v.you && (phase === "turn_start" || phase === "moving");
    if (!mayOffer) { resignMenu = false; return []; }
    if (!resignMenu)
      return [h("button", { id: "offer-resign", onclick: () => { resignMenu = true; renderChrome(v); } }, t("bg.resignOffer"))];
    const cube = v.board?.cube?.value ?? 1;
    const declined = v.board?.resignation_declined ?? 0;
    const levels = ["single", "gammon", "backgammon"];
    return [h("div", { class: "offer", id: "resign-menu", role: "dialog", "aria-labelledby": "resign-menu-text" },
      h("p", { id: "resign-menu-text" }, t("bg.resignChoose")),
      ...levels.map((level, k) => h("button", { "data-level": level, disabled: k + 1 <= declined,
        onclick: () => { resignMenu = false; send("offer_resign", { level }); } },
        t("bg.resignLevel", { level: levelName(level), points: t("result.points", { n: (k + 1) * cube }) }))),
      h("button", { id: "cancel-resign", onclick: () => { resignMenu = false; renderChrome(v); } }, t("bg.resignCancel")))];
  }

  async function copyLink(link: string) {
    try { await navigator.clipboard.writeText(link); toast(t("share.copied")); } catch { prompt(t("share.send"), link); }
  }

  async function show(v: GameView) {
    const before = shown;
    choices = [];
    view = v;
    receivedAt = performance.now();
    if (history && history.plies.length !== v.plies.length) history = null;
    const renderer = rendererFor(v.family);
    // The one move played since the board shown (dice rolled around it are chance plies, and a
    // decision not shown moving, such as backgammon's roll, does not count); after a
    // reconnect that missed several, the new position is drawn without animation.
    const fresh = before && v.plies.length > before.plies.length ? v.plies.slice(before.plies.length) : [];
    const decisions = fresh.filter((p) => p.side !== "*" && !renderer.still?.(p, v.you));
    const ply = decisions.length === 1 ? decisions[0] : null;
    const at = ply ? v.plies.lastIndexOf(ply) + 1 : 0;  // its ply number
    // The server's trace of a relay sowing (lap after lap) when it sent one, else a single lap.
    const laps = v.path && v.path.ply === at ? v.path.laps : null;
    if (before && ply && looking === null && settings().animation !== "off" && (laps ? renderer.animateLaps : renderer.animate)) {
      animating = { skip: false };
      renderChrome(v);
      boardWrap.classList.add("animating");
      if (laps && renderer.animateLaps) await renderer.animateLaps(svg, laps, ctxFor(before), animating);
      else await renderer.animate!(svg, before.board, v.board, ply, ctxFor(before), animating, v.plies.slice(0, at - 1));
      boardWrap.classList.remove("animating");
      animating = null;
    }
    shown = v;
    if (looking === null) renderer.draw(svg, v.board, ctxFor(v));
    renderChrome(v);
    if (pending) { const p = pending; pending = null; void show(p); }
  }

  // A tournament game that ends while its player watches: his next game (the pairing's next one,
  // or the next round's) opens by itself when the server starts it. A game opened after its end
  // (to look at it again) stays.
  let tournamentId: string | null = null;
  let tournament: TournamentView | null = null;  // its latest view (it may come before the game's end)
  let gameOver = false;
  const openNext = () => {
    const next = gameOver && tournament ? gameOpensFor(tournament, player()?.id) : null;
    if (next && next !== id) { toast(t("tour.nextGame")); location.hash = `#/game/${next}`; }
  };
  const off = live.on((msg) => {
    if (msg.type === "tournament" && msg.id === tournamentId) {
      tournament = msg as TournamentView;
      openNext();
      return;
    }
    if (msg.type === "game" && msg.id === id) {
      const v = msg as GameView;
      if (!tournamentId && v.tournament && v.you && v.status !== "over") { tournamentId = v.tournament.id; live.watchTournament(tournamentId); }
      gameOver = v.status === "over";
      if (gameOver && tournament) queueMicrotask(openNext);
      if (animating) { pending = msg; return; }
      void show(msg as GameView);
    } else if (msg.type === "error") {
      toast(msg.message);
      if (shown) { rendererFor(shown.family).reset?.(); redraw(); }  // a refused move: the board as the server has it
    }
  });
  live.watch(id);
  return () => {
    off(); live.unwatch(id); clearInterval(ticker); document.removeEventListener("keydown", onKey);
    if (tournamentId) live.unwatchTournament(tournamentId);
  };
}
