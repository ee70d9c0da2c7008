// A game: the board, both seats with their clocks, the moves, and what the viewer may do.
import { GameView, Live, player } from "./api.js";
import { rendererFor } from "./boards/index.js";
import { BoardContext, Skip } from "./boards/board.js";
import { formatClock, h, reasonText, toast } from "./ui.js";
import { SVG_NS } from "./svg.js";

const ANIMATE_KEY = "naqala.animate";

export function gamePage(root: HTMLElement, id: string, live: Live): () => void {
  let view: GameView | null = null;
  let shown: GameView | null = null;  // what the board shows (lags while animating)
  let receivedAt = performance.now();
  let animating: Skip | null = null;
  let pending: GameView | null = null;

  const svg = document.createElementNS(SVG_NS, "svg") as SVGSVGElement;
  svg.setAttribute("id", "board");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "board");
  const boardWrap = h("div", { class: "board-wrap", title: "Click to skip the sowing animation" }, svg);
  const topSeat = h("div", { class: "seat", id: "seat-top" });
  const bottomSeat = h("div", { class: "seat", id: "seat-bottom" });
  const status = h("div", { class: "status", id: "status", "aria-live": "polite" });
  const legalBox = h("div", { class: "legal-moves", id: "legal-moves" });
  const phaseBox = h("div", { class: "phase", id: "phase" });
  const controls = h("div", { class: "controls", id: "controls" });
  const moves = h("ol", { class: "moves", id: "moves" });
  const animateBox = h("input", { type: "checkbox", id: "animate", checked: localStorage.getItem(ANIMATE_KEY) !== "off" });
  animateBox.addEventListener("change", () => localStorage.setItem(ANIMATE_KEY, animateBox.checked ? "on" : "off"));
  const title = h("h1", {}, "Loading…");
  const share = h("div", { id: "share" });
  const capLine = h("div", { class: "small", id: "cap" });

  root.replaceChildren(title, h("div", { class: "game-layout" },
    h("section", {}, topSeat, boardWrap, bottomSeat, status, capLine, phaseBox, legalBox),
    h("aside", {}, share, controls, h("label", { class: "small" }, animateBox, " animate sowing step by step"),
      h("h2", {}, "Moves"), moves)));

  const skip = () => { if (animating) animating.skip = true; };
  boardWrap.addEventListener("click", skip);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") skip();
    // Digits play pit moves directly when they are legal.
    if (view && /^[1-9]$/.test(e.key) && !(e.target instanceof HTMLInputElement) && myLegal().includes(e.key)) play(e.key);
  };
  document.addEventListener("keydown", onKey);

  const myLegal = (): string[] => {
    if (!view || view.status !== "playing" || !view.you || animating) return [];
    if (view.joint) return view.joint[view.you].chosen ? [] : view.joint[view.you].options;
    return view.to_move === view.you ? view.legal : [];
  };
  const play = (move: string) => {
    if (!view) return;
    live.send({ type: "move", game: id, move, ply: view.plies.length });
  };
  // A setup sent at once: one move per pit, each naming the ply it expects.
  const playMany = (list: string[]) => {
    if (!view) return;
    const at = view.plies.length;
    list.forEach((move, k) => live.send({ type: "move", game: id, move, ply: at + k }));
  };
  // Draws the board again, keeping the keyboard focus on the same pit.
  const redraw = () => {
    if (!shown || animating) return;
    const focused = document.activeElement instanceof SVGElement ? document.activeElement.getAttribute("data-name") ?? document.activeElement.getAttribute("data-pit") : null;
    rendererFor(shown.family).draw(svg, shown.board, ctxFor(shown));
    renderChrome(shown);
    if (focused) svg.querySelector<SVGElement>(`[data-name="${focused}"], [data-pit="${focused}"]`)?.focus();
  };
  const send = (type: string) => live.send({ type, game: id });

  let choices: string[] = [];  // moves offered after a click that could mean several
  const ctxFor = (v: GameView): BoardContext => ({
    you: v.you, legal: v === view ? myLegal() : [], last: lastDecision(v), play, side: v.joint ? v.you : v.to_move,
    choose: (moves) => { choices = moves; renderChrome(v); },
    game: id, playMany, redraw,
  });

  function lastDecision(v: GameView) {
    for (let i = v.plies.length - 1; i >= 0; i--) if (v.plies[i].side !== "*") return v.plies[i];
    return null;
  }

  function seatBox(box: HTMLElement, v: GameView, side: "south" | "north") {
    const seat = v.seats[side === "south" ? 0 : 1];
    const clock = h("span", { class: "clock", "data-side": side });
    const who = `${seat.name}${v.you === side ? " (you)" : ""}`;
    const pts = v.match ? ` · match ${v.match.points[side]}` : "";
    box.className = "seat" + (v.to_move === side && v.status === "playing" ? " to-move" : "");
    box.replaceChildren(h("span", {}, `${side === "south" ? "South" : "North"}: ${who}${pts}`), v.clock ? clock : "");
  }

  function tick() {
    if (!view?.clock) return;
    const c = view.clock;
    for (const side of ["south", "north"] as const) {
      const el = root.querySelector<HTMLElement>(`.clock[data-side="${side}"]`);
      if (!el) continue;
      // Congklak's simultaneous start runs both clocks until each player has chosen.
      const running = c.running_sides ? c.running_sides.includes(side) : c.running === side;
      const ms = (side === "south" ? c.south_ms : c.north_ms) - (running ? performance.now() - receivedAt : 0);
      el.textContent = formatClock(ms);
      el.classList.toggle("running", running);
      el.classList.toggle("low", ms < 30000);
    }
    // Toguz: the whole game is capped (2 hours); then the current result is final.
    const ticking = c.running !== null || (c.running_sides?.length ?? 0) > 0;
    capLine.textContent = c.cap_ms > 0
      ? `Game time left: ${formatClock(c.cap_ms - c.used_ms - (ticking ? performance.now() - receivedAt : 0))}` : "";
  }
  const ticker = window.setInterval(tick, 250);

  function statusText(v: GameView): string {
    if (v.status === "waiting") return "Waiting for an opponent to join.";
    if (v.status === "over" && v.outcome) {
      const o = v.outcome;
      const who = o.winner ? (o.winner === v.you ? "You win" : `${o.winner === "south" ? v.seats[0].name : v.seats[1].name} wins`) : "A draw";
      const m = v.match ? (v.match.over ? " The match is over." : " The match goes on.") : "";
      // Toguz: at 82 stones the other player resigns politely (RULES.md section 15); the game does it.
      const why = o.reason === "threshold" && v.variant.startsWith("toguz")
        ? "82 stones in the kazan (the other player resigns, as etiquette asks)" : reasonText(o.reason);
      return `${who} by ${why} (${o.scores[0]}–${o.scores[1]}).${m}`;
    }
    if (v.joint) {
      const mine = v.you ? v.joint[v.you] : null;
      return mine && !mine.chosen ? "Both players choose their first pit at the same time: choose yours."
        : "Both players choose their first pit at the same time; waiting for the choice.";
    }
    const mine = v.you !== null && v.to_move === v.you;
    const other = v.seats[v.to_move === "south" ? 0 : 1].name;
    const phase = v.board?.phase ?? (typeof v.board?.setup === "string" ? "setup" : "play");
    if (phase === "setup") return mine ? "Your move: lay out your seeds." : `${other} lays out the seeds.`;
    if (phase === "pie") return mine ? "Your move: choose your row (pie rule)." : `${other} chooses a row (pie rule).`;
    if (phase === "claim") return mine ? "Your move: claim pits of your opponent's row." : `${other} claims pits.`;
    if (v.draw_offer && v.draw_offer !== v.you) return `${v.draw_offer === "south" ? v.seats[0].name : v.seats[1].name} offers a draw.`;
    if (v.you && v.to_move === v.you) return "Your move.";
    const mover = v.seats[v.to_move === "south" ? 0 : 1];
    return mover.kind === "computer" ? `${mover.name} is thinking…` : `${mover.name} to move.`;
  }

  function renderChrome(v: GameView) {
    title.textContent = `${v.title}${v.variant !== v.title.toLowerCase() ? ` (${v.variant})` : ""}`;
    const bottom = v.you === "north" ? "north" : "south";
    seatBox(bottomSeat, v, bottom);
    seatBox(topSeat, v, bottom === "south" ? "north" : "south");
    status.textContent = statusText(v);
    const renderer = rendererFor(v.family);
    const legal = myLegal();
    phaseBox.replaceChildren(...(renderer.panel && v === view ? renderer.panel(v.board, ctxFor(v)) : []));
    const listed = choices.length ? choices.filter((m) => legal.includes(m)) : legal.filter((m) => !renderer.onBoard(m, v.board));
    legalBox.replaceChildren(...(listed.length
      ? [h("span", { class: "small" }, choices.length ? "Which move? " : "Your moves: "),
        ...listed.map((m) => h("button", { onclick: () => play(m), "data-move": m }, m))]
      : []));
    moves.replaceChildren(...v.plies.map((p, i) => h("li", { class: i === v.plies.length - 1 ? "current" : "" },
      `${p.side === "*" ? "dice" : p.side === "S" ? "South" : "North"} ${p.text}`)));
    moves.scrollTop = moves.scrollHeight;
    share.replaceChildren(...(v.status === "waiting"
      ? [h("p", {}, "Send this link to your opponent:"), h("div", { class: "share", id: "share-link" }, location.href)] : []));

    const c: (Node | string)[] = [];
    if (v.you && v.status === "playing") {
      c.push(h("button", { id: "resign", onclick: () => { if (confirm("Resign this game?")) send("resign"); } }, "Resign"));
      const opp = v.seats[v.you === "south" ? 1 : 0];
      if (v.draw_offer && v.draw_offer !== v.you) {
        c.push(h("button", { id: "accept-draw", onclick: () => send("accept_draw") }, "Accept the draw"),
          h("button", { id: "decline-draw", onclick: () => send("decline_draw") }, "Decline"));
      } else if (opp.kind === "human" && !v.draw_offer) {
        const left = v.draw_offers_left ? v.draw_offers_left[v.you === "south" ? 0 : 1] : null;
        c.push(h("button", { id: "offer-draw", onclick: () => send("offer_draw"), disabled: left === 0 },
          left === null ? "Offer a draw" : `Offer a draw (${left} left)`));
      }
    }
    if (!v.you && v.status === "waiting" && player()) c.push(h("button", { class: "primary", id: "join", onclick: () => send("join") }, "Take the open seat"));
    if (v.next_game) c.push(h("a", { href: `#/game/${v.next_game}`, id: "next-game" }, v.match ? "Next game of the match →" : "Go to the rematch →"));
    else if (v.you && v.status === "over" && (!v.match || v.match.over))
      c.push(h("button", { id: "rematch", onclick: () => send("rematch") }, v.rematch.includes(v.you) ? "Rematch asked…" : "Rematch"));
    c.push(h("a", { href: `/api/games/${id}/record`, download: `naqala-${id}.txt`, id: "download" }, "Download record"));
    c.push(h("a", { href: `#/review/${id}`, id: "review" }, "Review"));
    controls.replaceChildren(...c);
    tick();
  }

  async function show(v: GameView) {
    const before = shown;
    choices = [];
    view = v;
    receivedAt = performance.now();
    const renderer = rendererFor(v.family);
    const added = before ? v.plies.length - before.plies.length : 0;
    const ply = v.plies[v.plies.length - 1];
    // The server's trace of a relay sowing (lap after lap) when it sent one, else a single lap.
    const laps = v.path && v.path.ply === v.plies.length ? v.path.laps : null;
    if (before && animateBox.checked && added === 1 && ply.side !== "*" && (laps ? renderer.animateLaps : renderer.animate)) {
      animating = { skip: false };
      renderChrome(v);
      boardWrap.classList.add("animating");
      if (laps && renderer.animateLaps) await renderer.animateLaps(svg, laps, ctxFor(before), animating);
      else await renderer.animate!(svg, before.board, v.board, ply, ctxFor(before), animating);
      boardWrap.classList.remove("animating");
      animating = null;
    }
    shown = v;
    renderer.draw(svg, v.board, ctxFor(v));
    renderChrome(v);
    if (pending) { const p = pending; pending = null; void show(p); }
  }

  const off = live.on((msg) => {
    if (msg.type === "game" && msg.id === id) {
      if (animating) { pending = msg; return; }
      void show(msg as GameView);
    } else if (msg.type === "error") {
      toast(msg.message);
    }
  });
  live.watch(id);
  return () => { off(); live.unwatch(id); clearInterval(ticker); document.removeEventListener("keydown", onKey); };
}
