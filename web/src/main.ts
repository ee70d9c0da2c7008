// The app: a player name kept in this browser, then routes #/ (lobby), #/game/ID, #/review/ID.
import { Live, api, player, savePlayer } from "./api.js";
import { gamePage } from "./game.js";
import { lobbyPage } from "./lobby.js";
import { reviewPage } from "./review.js";
import { h, toast } from "./ui.js";

const root = document.getElementById("app")!;
let live: Live | null = null;
let cleanup: () => void = () => {};

function showMe() {
  const me = player();
  document.getElementById("me")!.textContent = me ? `Playing as ${me.name}` : "";
}

function namePage(): Promise<void> {
  return new Promise((resolve) => {
    const input = h("input", { id: "name", required: true, maxlength: 40, autocomplete: "nickname" });
    const form = h("form", {}, h("h1", {}, "Welcome to naqala"),
      h("p", {}, "Mancala games and backgammon, against the computer or a friend."),
      h("label", {}, "Your display name ", input), h("button", { class: "primary", type: "submit" }, "Continue"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        savePlayer(await api.createPlayer(input.value));
        resolve();
      } catch (err) {
        toast((err as Error).message);
      }
    });
    root.replaceChildren(form);
    input.focus();
  });
}

async function route() {
  cleanup();
  cleanup = () => {};
  if (!player()) await namePage();
  showMe();
  if (!live) live = new Live();
  const hash = location.hash || "#/";
  const game = hash.match(/^#\/game\/([A-Za-z0-9]+)$/);
  const review = hash.match(/^#\/review\/([A-Za-z0-9]+)$/);
  try {
    if (game) cleanup = gamePage(root, game[1], live);
    else if (review) cleanup = await reviewPage(root, review[1]);
    else cleanup = await lobbyPage(root);
  } catch (e) {
    root.replaceChildren(h("p", {}, `Something went wrong: ${(e as Error).message}`));
  }
  root.focus();
}

window.addEventListener("hashchange", route);
void route();
