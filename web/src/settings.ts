// The player's settings, kept in this browser (localStorage) from one visit to the next.
export interface Settings {
  animation: "off" | "fast" | "normal";  // sowing shown seed by seed (normal: about 3 s)
  sound: boolean;                        // a click per seed sown, a tick when time runs low
  board: "wood" | "dark" | "contrast";   // board style
  confirm: boolean;                      // a move waits for "Confirm" before it is sent
}
const KEY = "naqala.settings";
const DEFAULTS: Settings = { animation: "normal", sound: false, board: "wood", confirm: false };

export function settings(): Settings {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    // The old single switch of the animation (kept by earlier versions).
    if (saved.animation === undefined && localStorage.getItem("naqala.animate") === "off") saved.animation = "off";
    return { ...DEFAULTS, ...saved };
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveSetting<K extends keyof Settings>(key: K, value: Settings[K]): void {
  localStorage.setItem(KEY, JSON.stringify({ ...settings(), [key]: value }));
  applyBoardStyle();
}

export function applyBoardStyle(): void {
  document.documentElement.dataset.board = settings().board;
}
