#!/usr/bin/env python3
"""Speed of two engine_pipe builds on the same positions (e.g. Bao's, docs/engines.md).
usage: [SPEC=alphabeta:time=0.1] speed.py VARIANT_A PIPE_A VARIANT_B PIPE_B GAMES SEED CMD...
Positions: GAMES games of 4 random plies, then A's alphabeta:nodes=3000 for both sides; at
every 6th ply from the 6th, each pipe (engines of spec SPEC, default alphabeta:nodes=3000)
starts a game ('new'), plays the moves and runs each CMD: 'go' (its spec's move) or 'analyze
SECONDS DEPTH NODES'. Prints per pipe the sums of nodes and depths (analyze), wall seconds and
the process's CPU seconds (/proc): nodes per CPU second, or CPU per move at a time per move.
A move B writes with or without Bao's trailing '+' is matched by its text, as in duel.py."""
import random, subprocess, sys, os

def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

class Pipe:
    def __init__(self, exe, variant, spec):
        self.p = subprocess.Popen([exe, variant, spec], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def ask(self, c):
        self.p.stdin.write(c + "\n"); self.p.stdin.flush()
        l = self.p.stdout.readline().rstrip("\n")
        if l.startswith("error") or not l: raise RuntimeError(c + ": " + l)
        return l
    def legal(self): return [m for m in self.ask("legal")[6:].split("\t") if m]

va, pa, vb, pb, games, seed = sys.argv[1:7]
cmds = sys.argv[7:]
spec = os.environ.get("SPEC", "alphabeta:nodes=3000")
gen = Pipe(pa, va, "alphabeta:nodes=3000")
rng = random.Random(int(seed))
positions = []
for g in range(int(games)):
    gen.ask("new"); moves = []
    while gen.ask("status").startswith("ongoing"):
        m = rng.choice(gen.legal()) if len(moves) < 4 else gen.ask("go").split()[2]
        gen.ask("play " + m); moves.append(m)
        if len(moves) >= 6 and len(moves) % 6 == 0 and gen.ask("status").startswith("ongoing"):
            positions.append(list(moves))
pipes = [Pipe(pa, va, spec), Pipe(pb, vb, spec)]
tot = [[0, 0.0, 0.0, 0] for _ in pipes]
for moves in positions:
    for i, p in enumerate(pipes):
        p.ask("new")
        for m in moves:
            if m not in p.legal():
                m2 = [x for x in p.legal() if x.rstrip("+") == m.rstrip("+")]
                m = m2[0]
            p.ask("play " + m)
        for c in cmds:
            c0 = cpu(p.p.pid)
            r = p.ask(c).split()
            c1 = cpu(p.p.pid)
            if r[0] == "analysis":
                tot[i][0] += int(r[4]); tot[i][3] += int(r[3]); tot[i][1] += float(r[5])
            else:
                tot[i][1] += float(r[1])
            tot[i][2] += c1 - c0
print(f"positions={len(positions)} cmds={cmds} spec={spec}")
for name, t in zip([pa, pb], tot):
    print(f"{name}: nodes={t[0]} depthsum={t[3]} wall={t[1]:.3f} cpu={t[2]:.2f} nodes/cpu_s={t[0]/max(t[2],1e-9):.0f}")
