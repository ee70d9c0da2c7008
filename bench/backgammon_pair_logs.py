#!/usr/bin/env python3
"""Pairs two naqala_bg_match --log files of the same --seed game by game.

Usage: backgammon_pair_logs.py A.log B.log

Two nets played against the same opponent on the same seed meet the same dice in game (pair,
colour), and both players are deterministic, so the difference of their results is measured
on the same dice. The unit is the dice pair (both colours of a pair number): the mean of A - B
over the pair's two games, with a 95% margin from the spread of those pair means. Only pairs
both logs hold in full are compared. Log line: pair, colour (0 or 1), naqala's points, moves.
"""
import math
import sys


def read(path):
    out = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            fields = line.split()
            if len(fields) < 3:
                sys.exit(f"{path}:{n}: expected 'pair colour points ...', got {line!r}")
            out[(int(fields[0]), int(fields[1]))] = float(fields[2])
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = read(sys.argv[1]), read(sys.argv[2])
    pairs = {}
    for key in set(a) & set(b):
        pairs.setdefault(key[0], []).append(key)
    keys = [k for ks in pairs.values() if len(ks) == 2 for k in ks]
    d = [(a[(p, 0)] - b[(p, 0)] + a[(p, 1)] - b[(p, 1)]) / 2 for p, ks in pairs.items() if len(ks) == 2]
    if len(d) < 2:
        sys.exit("fewer than two dice pairs in both logs")
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    ma = sum(a[k] for k in keys) / len(keys)
    mb = sum(b[k] for k in keys) / len(keys)
    same = sum(1 for k in keys if a[k] == b[k])
    print(f"{len(keys)} games ({n} dice pairs): A {ma:+.4f}  B {mb:+.4f} ppg  "
          f"A-B {mean:+.4f} +- {1.96 * sd / math.sqrt(n):.4f} (95%); "
          f"same result in {same} games")


main()
