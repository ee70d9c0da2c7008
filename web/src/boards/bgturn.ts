// A backgammon turn played on the board checker by checker. The server's legal moves are whole
// moves in gnubg notation ("24/18 13/11", "bar/22*", "8/4(2)", "6/off"); a move is the position
// it makes (docs/backgammon.md). Here single hops (one checker, one die) are generated with the
// plain rules of movement, and a hop is allowed only when the turn can still end on the
// position of one of the server's legal moves: the server's list stays the only authority.

// Checkers from the mover's side: mine[q], theirs[q] on the mover's point q (1..24); mine[25]
// is his bar, mine[0] his borne-off checkers; theirs[25] the opponent's bar, theirs[0] his off.
export interface Pos { mine: number[]; theirs: number[] }
export interface Hop { from: number; to: number; die: number }

export function posOf(b: any, mover: string): Pos {
  const other = mover === "south" ? "north" : "south";
  const mine = new Array(26).fill(0), theirs = new Array(26).fill(0);
  for (let q = 1; q <= 24; q++) {
    const v = mover === "south" ? b.points[q - 1] : -b.points[24 - q];
    mine[q] = Math.max(v, 0);
    theirs[q] = Math.max(-v, 0);
  }
  mine[25] = b.bar[mover]; theirs[25] = b.bar[other];
  mine[0] = b.off[mover]; theirs[0] = b.off[other];
  return { mine, theirs };
}

// The same position from the other side (each side's point q is the other's 25 - q).
export function flip(p: Pos): Pos {
  const turn = (a: number[]) => a.map((_, q) => (q === 0 || q === 25 ? a[q] : a[25 - q]));
  return { mine: turn(p.theirs), theirs: turn(p.mine) };
}

const key = (p: Pos) => `${p.mine.join(",")}|${p.theirs.join(",")}`;

export function moveChecker(p: Pos, from: number, to: number): Pos {
  const mine = [...p.mine], theirs = [...p.theirs];
  mine[from]--;
  mine[to]++;
  if (to >= 1 && theirs[to] === 1) { theirs[to] = 0; theirs[25]++; }
  return { mine, theirs };
}

// The single steps of a move's text in the mover's numbering (25 the bar, 0 off), in order:
// "24/20*/16(2)" is 24/20, 20/16, 24/20, 20/16; null when the text is not a checker move.
export function stepsOf(text: string): [number, number][] | null {
  const point = (s: string) => (s === "bar" ? 25 : s === "off" ? 0 : Number(s));
  const out: [number, number][] = [];
  for (const part of text.trim().split(/\s+/)) {
    const rep = /\((\d)\)$/.exec(part);
    const steps = part.replace(/\(\d\)$/, "").replace(/\*/g, "").split("/").map(point);
    if (steps.length < 2 || steps.some((s) => !Number.isInteger(s) || s < 0 || s > 25)) return null;
    for (let r = 0; r < (rep ? Number(rep[1]) : 1); r++)
      for (let k = 0; k + 1 < steps.length; k++) out.push([steps[k], steps[k + 1]]);
  }
  return out;
}

// The position a move's text makes.
export function applyText(p: Pos, text: string): Pos | null {
  const steps = stepsOf(text);
  if (!steps) return null;
  for (const [from, to] of steps) {
    if (p.mine[from] <= 0) return null;
    p = moveChecker(p, from, to);
  }
  return p;
}

// Where one checker from `from` lands with `die`, by the rules of movement alone.
function landing(p: Pos, from: number, die: number): number | null {
  if (p.mine[from] <= 0 || (p.mine[25] > 0 && from !== 25)) return null;
  const to = from - die;
  if (to >= 1) return p.theirs[to] >= 2 ? null : to;
  for (let q = 7; q <= 25; q++) if (p.mine[q]) return null;  // bearing off: all at home
  if (to === 0) return 0;
  for (let q = from + 1; q <= 6; q++) if (p.mine[q]) return null;  // a higher die: the farthest only
  return 0;
}

export class Turn {
  readonly start: Pos;
  readonly dice: number[];
  private finals = new Map<string, string>();  // position key -> the legal move's text
  private memo = new Map<string, Set<string>>();
  hops: Hop[] = [];
  actions: number[] = [];  // hops per action of the player (a drag through two points is one)
  selected: number | null = null;
  sent = false;

  constructor(board: any, mover: string, legal: string[]) {
    this.start = posOf(board, mover);
    const [a, b] = board.dice as number[];
    this.dice = a === b ? [a, a, a, a] : [Math.max(a, b), Math.min(a, b)];
    for (const m of legal) {
      const end = applyText(this.start, m);
      if (end) this.finals.set(key(end), m);
    }
  }

  get pos(): Pos { return this.hops.reduce((p, h) => moveChecker(p, h.from, h.to), this.start); }
  // The dice still to play (a die used is struck from the front of the list it belongs to).
  get left(): number[] {
    const left = [...this.dice];
    for (const h of this.hops) left.splice(left.indexOf(h.die), 1);
    return left;
  }
  get usable(): boolean { return this.finals.size > 0; }
  // The legal move the hops so far make, when the turn is complete.
  get done(): string | null { return this.finals.get(key(this.pos)) ?? null; }

  // The legal end positions still reachable from p with the dice left.
  private reach(p: Pos, left: number[]): Set<string> {
    const k = `${key(p)}#${left.join("")}`;
    const known = this.memo.get(k);
    if (known) return known;
    const out = new Set<string>();
    if (this.finals.has(key(p))) out.add(key(p));
    for (const die of new Set(left)) {
      const rest = [...left];
      rest.splice(rest.indexOf(die), 1);
      for (let from = 1; from <= 25; from++) {
        const to = landing(p, from, die);
        if (to !== null) for (const f of this.reach(moveChecker(p, from, to), rest)) out.add(f);
      }
    }
    this.memo.set(k, out);
    return out;
  }

  // The hops allowed now: the turn can still end on a legal move after them.
  allowed(): Hop[] {
    const p = this.pos, left = this.left, out: Hop[] = [];
    if (this.done) return out;
    for (const die of new Set(left)) {
      const rest = [...left];
      rest.splice(rest.indexOf(die), 1);
      for (let from = 1; from <= 25; from++) {
        const to = landing(p, from, die);
        if (to !== null && this.reach(moveChecker(p, from, to), rest).size) out.push({ from, to, die });
      }
    }
    return out;
  }

  // Plays hops as one action, with the rest of the turn when only one play is left then;
  // Undo takes them back together.
  play(path: Hop[]): void {
    if (!path.length) return;
    this.hops.push(...path);
    const forced = this.forced() ?? [];
    this.hops.push(...forced);
    this.actions.push(path.length + forced.length);
  }

  undo(): void {
    this.hops.splice(this.hops.length - (this.actions.pop() ?? 1));
    this.selected = null;
    this.sent = false;
  }

  sources(): Set<number> { return new Set(this.allowed().map((h) => h.from)); }

  // Where the checker on `from` may go now: by one die, or by several in a row with the same
  // checker (the path through the points between, each of them open).
  targets(from: number): Map<number, Hop[]> {
    const out = new Map<number, Hop[]>();
    const walk = (turn: Turn, at: number, path: Hop[]) => {
      for (const h of turn.allowed().filter((x) => x.from === at)) {
        const next = [...path, h];
        if (!out.has(h.to) || out.get(h.to)!.length > next.length) out.set(h.to, next);
        if (h.to > 0) {
          const t2 = turn.copy();
          t2.hops.push(h);
          walk(t2, h.to, next);
        }
      }
    };
    walk(this, from, []);
    return out;
  }

  // A double click: the higher die from this point if it may be played, else the lower.
  highest(from: number): Hop | null {
    const mine = this.allowed().filter((h) => h.from === from).sort((a, b) => b.die - a.die);
    return mine[0] ?? null;
  }

  // When one end position only is left, the hops that reach it (the rest of the turn is forced).
  forced(): Hop[] | null {
    if (this.done) return null;
    const ends = this.reach(this.pos, this.left);
    if (ends.size !== 1) return null;
    const path: Hop[] = [];
    let turn = this.copy();
    while (!turn.done) {
      const h = turn.allowed()[0];
      if (!h) return null;
      path.push(h);
      turn = turn.copy();
      turn.hops.push(h);
    }
    return path;
  }

  private copy(): Turn {
    const t = Object.create(Turn.prototype) as Turn;
    Object.assign(t, this, { hops: [...this.hops] });
    return t;
  }
}
