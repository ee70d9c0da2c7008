#!/usr/bin/python3
"""The Python module's speed against naqala's C++ random play, in one run.

For each variant: the C++ single-core random-play rate (`naqala bench random`, plies/s), the
VectorEnv random step rate at n = 1024 (sample_legal + step, plies/s over all games), with
fresh arrays for every step (copy=True, the default) and with the env's own reused arrays
(copy=False), and the one-state Python loop (legal_actions + a choice + apply_action,
plies/s). The C++ and the VectorEnv runs are alternated, ROUNDS times each, and the best of
each kept.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_bench.py [--seconds S]
"""
import argparse
import json
import os
import random
import subprocess
import time

import naqala

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BIN = os.path.join(HERE, "..", "build", "release", "naqala")


def cpp_rate(binary, variant, seconds):
    out = subprocess.run([binary, "bench", "random", variant, "--seconds", str(seconds), "--json"],
                         capture_output=True, text=True, check=True).stdout
    j = json.loads(out)
    return j["plies"] / j["seconds"]


def vector_rate(variant, n, seconds, copy=True):
    env = naqala.VectorEnv(variant, n, seed=1, copy=copy)
    env.reset()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            env.step(env.sample_legal())
        steps += 10
    return steps * n / (time.perf_counter() - start)


def loop_rate(variant, seconds):
    game = naqala.load_game(variant)
    rng = random.Random(1)
    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--naqala", default=DEFAULT_BIN)
    parser.add_argument("variants", nargs="*", default=["oware", "kalah"])
    a = parser.parse_args()
    for variant in a.variants:
        cpp = vec = reused = 0.0
        for _ in range(a.rounds):
            cpp = max(cpp, cpp_rate(a.naqala, variant, a.seconds))
            vec = max(vec, vector_rate(variant, a.n, a.seconds))
            reused = max(reused, vector_rate(variant, a.n, a.seconds, copy=False))
        loop = loop_rate(variant, a.seconds)
        print(f"{variant:8s} C++ random play {cpp / 1e6:6.2f} M plies/s   "
              f"VectorEnv n={a.n} {vec / 1e6:6.2f} M plies/s ({vec / cpp:.2f} of C++), "
              f"copy=False {reused / 1e6:6.2f} M ({reused / cpp:.2f})   "
              f"Python one-state loop {loop / 1e3:6.1f} k plies/s", flush=True)


if __name__ == "__main__":
    main()
