#!/usr/bin/env python3
"""Match between two engine_pipe binaries (e.g. new build vs old build), both colours of each
random opening. usage: duel.py VARIANT PIPE_A SPEC_A PIPE_B SPEC_B PAIRS SEED [OPENING_PLIES]"""
import math, random, subprocess, sys, collections

class Pipe:
    def __init__(self, exe, variant, spec):
        self.p = subprocess.Popen([exe, variant, spec], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def ask(self, cmd):
        self.p.stdin.write(cmd + "\n"); self.p.stdin.flush()
        line = self.p.stdout.readline().rstrip("\n")
        if line.startswith("error"): raise RuntimeError(cmd + ": " + line)
        return line

def elo(w, d, l):
    n = w + d + l; mu = (w + 0.5 * d) / n
    var = (w * (1 - mu) ** 2 + d * (0.5 - mu) ** 2 + l * mu ** 2) / n
    h = 1.96 * math.sqrt(var / n)
    f = lambda p: -400 * math.log10(1 / min(max(p, 1e-6), 1 - 1e-6) - 1)
    return f(mu), (f(min(mu + h, 1 - 0.5 / (n + 1))) - f(max(mu - h, 0.5 / (n + 1)))) / 2

variant, ea, sa, eb, sb, pairs, seed = sys.argv[1:8]
plies = int(sys.argv[8]) if len(sys.argv) > 8 else 4
pairs = int(pairs); rng = random.Random(int(seed))
A, B = Pipe(ea, variant, sa), Pipe(eb, variant, sb)
w = d = l = 0; ends = collections.Counter(); secs = [0.0, 0.0]; nmoves = [0, 0]
seen = set()
for pair in range(pairs):
    for attempt in range(100):
        A.ask("new"); opening = []
        for _ in range(plies):
            if not A.ask("status").startswith("ongoing"): break
            moves = [m for m in A.ask("legal")[6:].split("\t") if m]
            m = rng.choice(moves); opening.append(m); A.ask("play " + m)
        if A.ask("status").startswith("ongoing") and tuple(opening) not in seen: break
    seen.add(tuple(opening))
    for colour in range(2):  # colour 0: A is South
        for e in (A, B):
            e.ask("new")
            for m in opening: e.ask("play " + m)
        ply = 0
        while True:
            st = A.ask("status")
            if st.startswith("over") or ply >= 1000: break
            side = 0 if st.split()[1] == "S" else 1
            mover = A if (side == 0) == (colour == 0) else B
            k = 0 if mover is A else 1
            r = mover.ask("go").split(" ", 2)
            secs[k] += float(r[1]); nmoves[k] += 1
            for e in (A, B): e.ask("play " + r[2])
            ply += 1
        parts = st.split()
        if st.startswith("over"):
            south = float(parts[1]); reason = parts[2]
        else:
            south = 0.5; reason = "unfinished"
        pts = south if colour == 0 else 1 - south
        if pts == 1: w += 1
        elif pts == 0: l += 1
        else: d += 1
        ends[reason] += 1
        print(f"game {2*pair+colour} A={'south' if colour==0 else 'north'} A_points={pts} end={reason} plies={ply} {' '.join(parts[3:])}", flush=True)
e, m = elo(w, d, l)
n = w + d + l
print(f"SUMMARY {variant} A={sa} B={sb} games={n} +{w} ={d} -{l} score={(w+0.5*d)/n:.3f} elo={e:+.0f}+-{m:.0f} "
      f"s_per_move A={secs[0]/max(1,nmoves[0]):.3f} B={secs[1]/max(1,nmoves[1]):.3f}", flush=True)
print("ENDS", dict(ends), flush=True)
for e in (A, B): e.p.stdin.write("quit\n"); e.p.stdin.flush()
