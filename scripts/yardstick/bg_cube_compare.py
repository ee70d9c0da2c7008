#!/usr/bin/python3
"""naqala's money cube decisions in contact positions, judged by gnubg (a yardstick only:
nothing it says goes back into naqala).

    naqala_bg_cube_positions --positions 300 --seed 5 > positions.tsv
    scripts/yardstick/bg_cube_compare.py positions.tsv [--plies 2] [--gnubg /usr/games/gnubg]

gnubg gives each position's cubeful equities (no double, double take, double pass) at
--plies (the judge) and at 0 ply (gnubg 0-ply's own decisions, judged the same way). For
naqala's decisions at 0, 1 and 2 plies and gnubg 0-ply's it prints, by the judge's
equities in thousandths of the cube: the doubler's loss per position (doubling where the
judge does not, or not doubling where it does) and the taker's (taking a pass or passing a
take), how often each agrees with the judge, and the same split by position class and by
the doubler's pip count.
"""
import argparse
import re
import subprocess
import sys

ACTION = re.compile(r"^\s*\d\.\s+(No double|Double, take|Double, pass)\s+([+-]?\d+\.\d+)")


def gnubg_cube(ids, plies, gnubg):
    """The judge's (no double, double take, double pass) equities for each gnubg ID."""
    cmds = ["set jacoby off", "set beavers 0", "new session",
            f"set evaluation cubedecision evaluation plies {plies}"]
    for gid in ids:
        cmds += [f"set gnubgid {gid}", "hint"]
    out = subprocess.run([gnubg, "-t", "-q"], input="\n".join(cmds) + "\n", text=True,
                         capture_output=True, check=True).stdout
    blocks = out.split("Setting GNUbg ID")[1:]
    if len(blocks) != len(ids):
        sys.exit(f"gnubg answered {len(blocks)} of {len(ids)} positions")
    result = []
    for block in blocks:
        eq = {}
        for line in block.splitlines():
            m = ACTION.match(line)
            if m:
                eq[m.group(1)] = float(m.group(2))
        if len(eq) != 3:
            sys.exit("gnubg printed no cube analysis for a position:\n" + block[:2000])
        result.append((eq["No double"], eq["Double, take"], eq["Double, pass"]))
    return result


def losses(verdict, judge):
    """The doubler's and the taker's loss (judge's equity, doubler's view) of a verdict."""
    nd, dt, dp = judge
    doubles = verdict.startswith("Double") or verdict.startswith("Redouble")
    takes = verdict.endswith("take")
    best = max(nd, min(dt, dp))
    doubler = best - (min(dt, dp) if doubles else nd)
    # The taker's choice matters only when the doubler doubles; judged on every position,
    # as gnubg's "close or actual" decisions are.
    taker = (dt - dp if takes else dp - dt)
    return doubler, max(0.0, taker), doubles, takes


def judge_verdict(judge):
    nd, dt, dp = judge
    doubles = min(dt, dp) > nd
    return doubles, dt <= dp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("positions")
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--gnubg", default="/usr/games/gnubg")
    args = ap.parse_args()
    rows = [line.rstrip("\n").split("\t") for line in open(args.positions) if line.strip()]
    ids = [r[0] for r in rows]
    judge = gnubg_cube(ids, args.plies, args.gnubg)
    zero = gnubg_cube(ids, 0, args.gnubg)
    players = {f"naqala {p}-ply": [r[4 + 6 * p + 5] for r in rows] for p in range(3)}

    def gnubg_verdict(e):
        nd, dt, dp = e
        if min(dt, dp) <= nd:
            return "No double, " + ("take" if dt <= dp else "pass")
        return "Double, " + ("take" if dt <= dp else "pass")

    players["gnubg 0-ply"] = [gnubg_verdict(e) for e in zero]
    groups = {
        "all": lambda r: True,
        "contact": lambda r: r[1] == "contact",
        "crashed": lambda r: r[1] == "crashed",
        "doubler > 100 pips": lambda r: int(r[2]) > 100,
        "doubler <= 100 pips": lambda r: int(r[2]) <= 100,
    }
    jd = [judge_verdict(j) for j in judge]
    print(f"{len(rows)} positions, judged by gnubg {args.plies}-ply; gnubg doubles in "
          f"{sum(d for d, _ in jd)}, takes in {sum(t for _, t in jd)}")
    print(f"{'player':14} {'group':20} {'n':>4} {'doubler mE':>10} {'taker mE':>9} "
          f"{'double agree':>12} {'take agree':>10} {'doubles':>7} {'takes':>5}")
    for name, verdicts in players.items():
        for gname, pred in groups.items():
            idx = [i for i, r in enumerate(rows) if pred(r)]
            if not idx:
                continue
            d_loss = t_loss = 0.0
            d_agree = t_agree = n_double = n_take = 0
            for i in idx:
                dl, tl, doubles, takes = losses(verdicts[i], judge[i])
                d_loss += dl
                t_loss += tl
                d_agree += doubles == jd[i][0]
                t_agree += takes == jd[i][1]
                n_double += doubles
                n_take += takes
            n = len(idx)
            print(f"{name:14} {gname:20} {n:4d} {1000 * d_loss / n:10.1f} {1000 * t_loss / n:9.1f} "
                  f"{d_agree / n:12.2f} {t_agree / n:10.2f} {n_double:7d} {n_take:5d}")


if __name__ == "__main__":
    main()
