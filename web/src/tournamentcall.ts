// The player's own tournaments, followed from every page: when one of his games is under way
// and he is not on its page (nor on the tournament's, which has its own button), a bar under
// the header says so with a link to it. Its clock is running.
import { Live, TournamentView, enteredTournaments, player, setEntered } from "./api.js";
import { h } from "./ui.js";
import { t } from "./i18n.js";
import { gameOpensFor } from "./tournamenttext.js";

const following = new Set<string>();
const calls = new Map<string, { name: string; game: string }>();  // tournament -> his game in it
let bar: HTMLElement | null = null;

function show(): void {
  if (!bar) {
    bar = h("div", { id: "call", role: "status", hidden: true });
    document.getElementById("connection")!.after(bar);
  }
  const open = [...calls.entries()].filter(([id, c]) => location.hash !== `#/game/${c.game}` && location.hash !== `#/tournament/${id}`);
  bar.hidden = !open.length;
  bar.replaceChildren(...open.map(([, c]) => h("span", { class: "call" }, t("tour.call", { name: c.name }), " ",
    h("a", { class: "button", href: `#/game/${c.game}`, "data-game": c.game }, t("tour.play")))));
}

// Follows a tournament the player has entered (until it is over).
export function followTournament(live: Live, id: string): void {
  if (following.has(id)) return;
  following.add(id);
  setEntered(id, true);
  live.watchTournament(id);
}

export function followEnteredTournaments(live: Live): void {
  live.on((msg) => {
    if (msg.type !== "tournament" || !following.has(msg.id)) return;
    const v = msg as TournamentView;
    const game = v.status === "playing" ? gameOpensFor(v, player()?.id) : null;
    if (game) calls.set(v.id, { name: v.name, game });
    else calls.delete(v.id);
    if (v.status === "over") {
      following.delete(v.id);
      setEntered(v.id, false);
      live.unwatchTournament(v.id);
    }
    show();
  });
  window.addEventListener("hashchange", show);
  for (const id of enteredTournaments()) followTournament(live, id);
}
