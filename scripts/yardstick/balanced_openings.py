#!/usr/bin/env python3
"""Balanced Kalah openings for duel.py --openings: random openings of PLIES plies whose exact
final margin, proved by naqala's Kalah solver over an endgame database, is at most MARGIN
either way for the player to move.

usage: balanced_openings.py PIPE NAQALA DB PLIES SEED COUNT [--margin M] [--variant V]
                            [--table MB] [--jobs J] [--out FILE]

PIPE    an engine_pipe binary (scripts/yardstick/README.md): it draws the openings, as duel.py
        draws its random ones (each ply a uniformly random legal move by SEED)
NAQALA  the naqala binary whose `solve` proves them; DB the database it reads (--db)
COUNT   balanced openings wanted; drawing stops when there are COUNT of them

Openings reaching a position (board and side to move) already drawn are skipped, as are those
that end the game. Each is proved with `NAQALA solve V --position P --db DB --table MB`, which
narrows the mover's margin one step at a time (MTD(f), stderr's `proved:` lines): once the
bracket lies outside [-M, M] the proof is stopped (not balanced); otherwise it runs to the exact
margin. The proofs have no time limit (the set does not depend on the load). Prints one line an
opening, `MOVES  # margin +2 (N to move) position P, nodes K`, after a header of comment lines
giving the command and the counts (to --out, else stdout); every drawn opening's outcome goes to
stderr. --jobs J runs J proofs at once (results taken in the order drawn: the same file). SIGTERM
or Ctrl-C stops the drawing and writes the openings kept so far, the header saying so."""
import argparse, collections, concurrent.futures, random, re, shlex, signal, subprocess, sys, time

ap = argparse.ArgumentParser(usage=__doc__)
ap.add_argument("pipe"); ap.add_argument("naqala"); ap.add_argument("db")
ap.add_argument("plies", type=int); ap.add_argument("seed", type=int)
ap.add_argument("count", type=int)
ap.add_argument("--margin", type=int, default=2)
ap.add_argument("--variant", default="kalah")
ap.add_argument("--table", type=int, default=256)
ap.add_argument("--out")
ap.add_argument("--jobs", type=int, default=1)
args = ap.parse_args()
if args.plies < 1 or args.count < 1 or args.margin < 0 or args.jobs < 1:
    raise SystemExit("PLIES, COUNT and --jobs must be at least 1, --margin at least 0")

pipe = subprocess.Popen([args.pipe, args.variant, "alphabeta:nodes=1"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, text=True, bufsize=1)


def ask(cmd):
    pipe.stdin.write(cmd + "\n"); pipe.stdin.flush()
    line = pipe.stdout.readline().rstrip("\n")
    if not line or line.startswith("error"): raise SystemExit(f"{args.pipe} on '{cmd}': {line}")
    return line


running = set()  # the proofs under way
PROVED = re.compile(r"^proved: \w+'s margin in \[(-?\d+), (-?\d+)\] \((\d+) nodes")
FINAL = re.compile(r"final margin is exactly (-?\d+);.* \((\d+) nodes")


def prove(position):
    """(low, high, nodes) of the mover's margin: exact, or a bracket outside [-M, M]."""
    cmd = [args.naqala, "solve", args.variant, "--position", position, "--db", args.db,
           "--table", str(args.table)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    running.add(p)
    try:
        return proof_of(p, cmd)
    finally:
        running.discard(p)


def proof_of(p, cmd):
    low, high, nodes = None, None, 0
    for line in p.stderr:
        m = PROVED.match(line)
        if not m: continue
        low, high, nodes = int(m[1]), int(m[2]), int(m[3])
        if low > args.margin or high < -args.margin:
            p.kill(); p.wait()
            return low, high, nodes
    out = p.stdout.read(); p.wait()
    m = FINAL.search(out)
    if p.returncode < 0: return None, None, 0  # killed: the drawing stopped
    if p.returncode != 0 or not m:
        raise SystemExit(f"{shlex.join(cmd)} failed (status {p.returncode}): {out.strip()}")
    return int(m[1]), int(m[1]), int(m[2])


rng = random.Random(args.seed)
seen = set()
drawn = repeated = ended = 0


def next_opening():
    """(moves, side to move, position) of the next new opening drawn by SEED."""
    global drawn, repeated, ended
    while True:
        ask("new")
        moves = []
        for _ in range(args.plies):
            if not ask("status").startswith("ongoing"): break
            m = rng.choice([m for m in ask("legal")[6:].split("\t") if m])
            moves.append(m); ask("play " + m)
        drawn += 1
        status = ask("status")
        if not status.startswith("ongoing"):
            ended += 1; continue
        position = ask("position")[9:]
        if position in seen:
            repeated += 1; continue
        seen.add(position)
        return moves, status.split()[1], position


# SIGTERM or Ctrl-C stops the drawing: the file then holds the openings kept so far.
stop = []


def on_term(*_):
    stop.append(1)
    for p in list(running): p.kill()


signal.signal(signal.SIGTERM, on_term)
kept = []
margins = {}  # exact margin -> openings, of those proved exactly
proved = 0
taken = (0, 0, 0)  # (drawn, ended, repeated) up to the last opening taken
start = time.time()
# --jobs proofs at once; their results are taken in the order drawn, so the file does not
# depend on which proof ends first.
pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
pending = collections.deque()
try:
    while len(kept) < args.count and not stop:
        while len(pending) < args.jobs:
            opening = next_opening()
            pending.append((opening, (drawn, ended, repeated), pool.submit(prove, opening[2])))
        (moves, mover, position), counts, future = pending[0]
        low, high, nodes = future.result()
        if stop: break
        pending.popleft()
        proved += 1
        taken = counts
        if low == high: margins[low] = margins.get(low, 0) + 1
        balanced = -args.margin <= low and high <= args.margin
        print(f"{' '.join(moves)}: margin in [{low}, {high}], {nodes} nodes"
              f"{', kept' if balanced else ''} ({len(kept) + balanced}/{args.count}, "
              f"{time.time() - start:.0f} s)", file=sys.stderr, flush=True)
        if balanced:
            kept.append(f"{' '.join(moves)}  # margin {low:+d} ({mover} to move) "
                        f"position {position}, nodes {nodes}")
except KeyboardInterrupt:
    stop.append(1)
# The openings drawn but not yet taken do not count.
for p in list(running): p.kill()
pool.shutdown(wait=True)
drawn, ended, repeated = taken
header = [
    f"# Balanced {args.variant} openings: the mover's exact final margin within +-{args.margin}, "
    f"proved by `naqala solve` over {args.db}",
    "# made by: scripts/yardstick/balanced_openings.py " + shlex.join(sys.argv[1:]),
    f"# drawn {drawn} openings of {args.plies} random plies (seed {args.seed}): {ended} ended the "
    f"game, {repeated} repeated a position, {proved} proved, {len(kept)} balanced "
    f"({100 * len(kept) / max(proved, 1):.1f}% of those proved)"
    + (f"; stopped before {args.count}" if len(kept) < args.count else ""),
    "# exact margins among those proved exactly (the others were stopped outside the window): "
    + ", ".join(f"{k:+d}: {v}" for k, v in sorted(margins.items())),
    "# one opening a line, its moves as duel.py plays them (duel.py --openings FILE)",
]
text = "\n".join(header + kept) + "\n"
if args.out:
    with open(args.out, "w") as f: f.write(text)
else:
    sys.stdout.write(text)
pipe.stdin.write("quit\n"); pipe.stdin.flush(); pipe.wait()
