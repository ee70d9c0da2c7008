// What the game page says: the game's name as its players write it, whose move it is, and the
// result with how it came.
import { GameView } from "./api.js";
import { has, t } from "./i18n.js";

const base = (variant: string) => variant.split(":")[0];

// "Awalé", "Тогыз кумалак": the translation of the preset's name when there is one.
export function gameName(variant: string, title: string): string {
  const key = `game.${base(variant)}`;
  return has(key) ? t(key) : title;
}

export function sideName(side: string): string { return t(side === "south" ? "side.south" : "side.north"); }

function seatName(v: GameView, side: string | null): string {
  const seat = v.seats[side === "north" ? 1 : 0];
  return side && side === v.you ? t("you") : seat.kind === "computer" ? t("computer", { n: seat.level ?? 0 }) : seat.name;
}

// How the game ended, in a player's words.
export function resultText(v: GameView): string {
  const o = v.outcome!;
  const loser = o.winner === "south" ? "north" : "south";
  const who = o.winner ? (o.winner === v.you ? t("result.youWin") : t("result.wins", { name: seatName(v, o.winner) })) : t("result.draw");
  let why: string;
  if (o.reason === "timeout") why = t("reason.timeout", { name: seatName(v, o.winner ? loser : null) });
  else if (o.reason === "resignation") why = t("reason.resignation", { name: seatName(v, o.winner ? loser : null) });
  else if (o.reason === "threshold" && v.variant.startsWith("toguz")) why = t("reason.toguz82");
  else why = has(`reason.${o.reason}`) ? t(`reason.${o.reason}`) : o.reason;
  let score = "";
  const result = v.board?.result;
  if (v.family === "backgammon") {
    // A backgammon game is won by points (cube times single, gammon or backgammon), not seeds.
    if (result?.points) score = t("result.points", { n: result.points });
  } else if (o.scores[0] + o.scores[1] > 0) {
    score = `${o.scores[0]}–${o.scores[1]}`;
  }
  const match = v.match ? ` ${v.match.over ? t("match.over") : t("match.goesOn")}` : "";
  return `${who}: ${why}${score ? ` (${score})` : ""}.${match}`;
}

export function statusText(v: GameView): string {
  if (v.status === "waiting") return t("status.waiting");
  if (v.status === "over" && v.outcome) return resultText(v);
  if (v.joint) {
    const mine = v.you ? v.joint[v.you] : null;
    return mine && !mine.chosen ? t("status.jointChoose") : t("status.jointWait");
  }
  const mine = v.you !== null && v.to_move === v.you;
  const other = seatName(v, v.to_move);
  const phase = v.board?.phase ?? (typeof v.board?.setup === "string" ? "setup" : "play");
  if (phase === "setup") return mine ? t("status.setupYou") : t("status.setupOther", { name: other });
  if (phase === "pie") return mine ? t("status.pieYou") : t("status.pieOther", { name: other });
  if (phase === "claim") return mine ? t("status.claimYou") : t("status.claimOther", { name: other });
  if (v.draw_offer && v.draw_offer !== v.you) return t("status.drawOffered", { name: seatName(v, v.draw_offer) });
  const resign = v.family === "backgammon" ? v.board?.resignation : null;
  if (resign && resign.by === v.you) return t("status.resignWait");
  if (resign) return t("status.resignOffered", { name: seatName(v, resign.by), level: t(`bg.level.${resign.level}`) });
  if (mine) return v.family === "backgammon" && v.board?.phase === "doubled" ? t("status.doubled") : t("status.yourMove");
  const mover = v.seats[v.to_move === "south" ? 0 : 1];
  return mover.kind === "computer" ? t("status.thinking", { name: other }) : t("status.toMove", { name: other });
}

export function seatLabel(v: GameView, side: "south" | "north"): string {
  const seat = v.seats[side === "south" ? 0 : 1];
  const name = seat.kind === "computer" ? t("computer", { n: seat.level ?? 0 }) : seat.kind === "open" ? t("seat.open") : seat.name;
  return v.you === side ? `${name} (${t("you")})` : name;
}

// One ply of the move list: a roll of the dice, or a side's move.
export function plyText(p: { side: string; text: string }): string {
  return p.side === "*" ? t("ply.dice", { dice: p.text }) : p.text;
}
