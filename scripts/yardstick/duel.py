#!/usr/bin/env python3
"""Match between two engine_pipe binaries (e.g. new build vs old build), both colours of each
random opening. The first engine (A) is the referee: its legal moves and game end count.

usage: duel.py VARIANT PIPE_A SPEC_A PIPE_B SPEC_B PAIRS SEED [OPENING_PLIES] [--variant-b V]
              [--setup-plies K] [--openings FILE] [--clock BASE+INCREMENT]

--variant-b V   B plays this variant text instead (e.g. A `bao:namua_takasa=any` against an old
                build's `bao` that predates the option and plays the literal rule).
--setup-plies K Omweso: each opening first makes the first K plies of the setup at random (South's
                pits a1, b1, ... then North's; 30 = both whole layouts) as a uniformly random
                layout would (every seed in a drawn pit: a pit's count is binomial in the
                seeds left over the pits left); the engines make the rest of the setup (each
                its own side's layout, as moves of the game) and play on. Give 0 OPENING_PLIES.
                Both colours of an opening start from the same K plies.
--openings FILE Play the openings of FILE instead of random ones: one opening a line, its moves
                separated by spaces as A writes them (A's `legal`), '#' to the line's end a
                comment, blank lines skipped; both colours of each, in the file's order, the
                first PAIRS of them (all when the file has fewer). SEED and OPENING_PLIES are
                then unused. Every opening is played on A before the match: a move A does not
                know, an opening that ends the game or one given twice stops it with the line.

--clock B+I     Each engine plays on a game clock of B seconds and I a move (e.g. 3+0.03): it is
                asked `goclock REMAINING I` (engine_pipe) and budgets its own time; its
                clock loses the time the move took as the pipe measured it, and a clock
                below -0.2 s (the arena's margin) loses the game (end=time). SPEC's own
                limit, if any, still caps a move: give one without a time.

A move one build writes and the other does not know is matched by its text: exactly, else the
other build's one legal move that differs only by a trailing '+' (Bao's choice to sow on from
the house, which a capture that already won, ruling R12, no longer offers). A move still not
matched is a rules disagreement: the game is dropped and reported with its moves and both
builds' legal lists, and the match goes on."""
import argparse, collections, math, random, subprocess, sys


class Pipe:
    def __init__(self, exe, variant, spec):
        self.name = exe
        self.p = subprocess.Popen([exe, variant, spec], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, cmd):
        self.p.stdin.write(cmd + "\n"); self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line: raise RuntimeError(f"{self.name} exited on '{cmd}'")
        line = line.rstrip("\n")
        if line.startswith("error"): raise RuntimeError(cmd + ": " + line)
        return line

    def legal(self):
        return [m for m in self.ask("legal")[6:].split("\t") if m]


class Disagreement(Exception):
    pass


def same_move(move, legal):
    """The text in `legal` that names `move`, or None."""
    if move in legal: return move
    bare = move.rstrip("+")
    hits = [m for m in legal if m.rstrip("+") == bare]
    return hits[0] if len(hits) == 1 else None


def elo(w, d, l):
    n = w + d + l; mu = (w + 0.5 * d) / n
    var = (w * (1 - mu) ** 2 + d * (0.5 - mu) ** 2 + l * mu ** 2) / n
    h = 1.96 * math.sqrt(var / n)
    f = lambda p: -400 * math.log10(1 / min(max(p, 1e-6), 1 - 1e-6) - 1)
    return f(mu), (f(min(mu + h, 1 - 0.5 / (n + 1))) - f(max(mu - h, 0.5 / (n + 1)))) / 2


ap = argparse.ArgumentParser(usage=__doc__)
for a in ("variant", "pipe_a", "spec_a", "pipe_b", "spec_b"): ap.add_argument(a)
ap.add_argument("pairs", type=int); ap.add_argument("seed", type=int)
ap.add_argument("plies", type=int, nargs="?", default=4)
ap.add_argument("--variant-b")
ap.add_argument("--setup-plies", type=int, default=0)
ap.add_argument("--openings")
ap.add_argument("--clock")
args = ap.parse_args()
clock_base = clock_inc = 0.0
if args.clock:
    try:
        clock_base, clock_inc = (float(x) for x in args.clock.split("+"))
    except ValueError:
        raise SystemExit(f"--clock {args.clock}: expected BASE+INCREMENT in seconds, e.g. 3+0.03")
    if not (clock_base > 0 and clock_inc >= 0):
        raise SystemExit(f"--clock {args.clock}: the base must be above 0, the increment at least 0")
if args.setup_plies and args.plies and not args.openings:
    raise SystemExit("--setup-plies: the engines make the rest of the setup; give 0 opening plies")
if args.setup_plies and args.openings:
    raise SystemExit("--openings and --setup-plies: the file's openings are whole; give one of them")


def read_openings(path):
    """[(line number, [moves])] of an openings file (see --openings); a bad line stops the run."""
    try:
        with open(path) as f: text = f.read()
    except OSError as why:
        raise SystemExit(f"--openings: cannot read {path}: {why.strerror}")
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        moves = line.split("#", 1)[0].split()
        if moves: out.append((number, moves))
    if not out: raise SystemExit(f"--openings: {path} holds no opening")
    return out


A = Pipe(args.pipe_a, args.variant, args.spec_a)
B = Pipe(args.pipe_b, args.variant_b or args.variant, args.spec_b)
rng = random.Random(args.seed)
w = d = l = 0; ends = collections.Counter(); secs = [0.0, 0.0]; nmoves = [0, 0]
seen = set(); dropped = 0


def is_setup(legal):
    return bool(legal) and all("=" in m for m in legal)


def random_setup(plies):
    """The first `plies` setup plies on A, as a uniformly random layout (see --setup-plies)."""
    opening = []
    for ply in range(plies):
        i = ply % 15  # each side fills 15 pits; the 16th takes what is left
        legal = A.legal()
        if not is_setup(legal): raise RuntimeError("--setup-plies: not a setup ply: " + " ".join(legal))
        left = max(int(m.split("=")[1]) for m in legal)
        n = sum(rng.random() * (16 - i) < 1 for _ in range(left))
        m = next(m for m in legal if int(m.split("=")[1]) == n)
        opening.append(m); A.ask("play " + m)
    return opening


def play_both(move, history):
    """Plays the mover's text on both builds, each in its own spelling."""
    for e in (A, B):
        legal = e.legal()
        m = same_move(move, legal)
        if m is None:
            raise Disagreement(f"'{move}' unknown to {e.name}; legal there: {' '.join(legal)}; "
                               f"moves so far: {' '.join(history)}")
        e.ask("play " + m)
    history.append(move)


def checked_openings(path, count):
    """The first `count` openings of `path`, each played on A first (see --openings)."""
    chosen = read_openings(path)[:count]
    first_line = {}
    for number, moves in chosen:
        where = f"--openings {path} line {number}"
        A.ask("new")
        for i, m in enumerate(moves):
            if not A.ask("status").startswith("ongoing"):
                raise SystemExit(f"{where}: the game is over before move {i + 1} ('{m}')")
            legal = A.legal()
            if m not in legal:
                raise SystemExit(f"{where}: move {i + 1} '{m}' is not legal there; legal: "
                                 + " ".join(legal))
            A.ask("play " + m)
        if not A.ask("status").startswith("ongoing"):
            raise SystemExit(f"{where}: the game is over after the opening")
        if tuple(moves) in first_line:
            raise SystemExit(f"{where}: the same opening as line {first_line[tuple(moves)]}")
        first_line[tuple(moves)] = number
    print(f"OPENINGS {path}: {len(chosen)} played (PAIRS {count})", flush=True)
    return [moves for _, moves in chosen]


def random_opening():
    """A new opening of the setup plies and OPENING_PLIES random plies, drawn by SEED."""
    for attempt in range(100):
        A.ask("new"); opening = random_setup(args.setup_plies)
        for _ in range(args.plies):
            if not A.ask("status").startswith("ongoing"): break
            m = rng.choice(A.legal()); opening.append(m); A.ask("play " + m)
        if A.ask("status").startswith("ongoing") and tuple(opening) not in seen: break
    seen.add(tuple(opening))
    return opening


file_openings = checked_openings(args.openings, args.pairs) if args.openings else None
pair_points = collections.Counter()
for pair in range(len(file_openings) if file_openings is not None else args.pairs):
    opening = file_openings[pair] if file_openings is not None else random_opening()
    pair_games = []
    for colour in range(2):  # colour 0: A is South
        history = []; ply = 0; clock = [clock_base, clock_base]; flagged = None
        try:
            for e in (A, B): e.ask("new")
            for m in opening: play_both(m, history)
            while True:
                st = A.ask("status")
                if st.startswith("over") or ply >= 1000: break
                side = 0 if st.split()[1] == "S" else 1
                mover = A if (side == 0) == (colour == 0) else B
                k = 0 if mover is A else 1
                r = mover.ask(f"goclock {clock[k]:.4f} {clock_inc}" if args.clock else "go").split(" ", 2)
                secs[k] += float(r[1]); nmoves[k] += 1
                if args.clock:
                    clock[k] -= float(r[1])
                    if clock[k] < -0.2: flagged = side; break
                    clock[k] += clock_inc
                play_both(r[2], history)
                ply += 1
        except Disagreement as why:
            dropped += 1
            print(f"game {2*pair+colour} DROPPED rules disagreement: {why}", flush=True)
            continue
        parts = st.split()
        if flagged is not None:
            south = 0.0 if flagged == 0 else 1.0; reason = "time"; parts = parts[:3]
        elif st.startswith("over"):
            south = float(parts[1]); reason = parts[2]
        else:
            south = 0.5; reason = "unfinished"
        pts = south if colour == 0 else 1 - south
        if pts == 1: w += 1
        elif pts == 0: l += 1
        else: d += 1
        ends[reason] += 1
        pair_games.append(pts)
        print(f"game {2*pair+colour} A={'south' if colour==0 else 'north'} A_points={pts} "
              f"end={reason} plies={ply} {' '.join(parts[3:])}", flush=True)
    if len(pair_games) == 2: pair_points[sum(pair_games)] += 1
n = w + d + l
e, m = elo(w, d, l) if n else (0.0, 0.0)
print(f"SUMMARY {args.variant} A={args.spec_a} B={args.spec_b} games={n} +{w} ={d} -{l} "
      f"score={(w+0.5*d)/max(n,1):.3f} elo={e:+.0f}+-{m:.0f} dropped={dropped} "
      f"s_per_move A={secs[0]/max(1,nmoves[0]):.3f} B={secs[1]/max(1,nmoves[1]):.3f}", flush=True)
print("ENDS", dict(ends), flush=True)
# Both colours of an opening: A's points over the pair (pairs with a dropped game left out).
print("PAIR_POINTS", {k: pair_points[k] for k in sorted(pair_points)}, flush=True)
for e in (A, B): e.p.stdin.write("quit\n"); e.p.stdin.flush()
