#!/usr/bin/python3
"""The Python module's speed against naqala's C++ random play, in one run.

For each variant: the C++ single-core random-play rate (`naqala bench random`, plies/s), the
VectorEnv random step rate at n = 1024 (sample_legal + step, plies/s over all games), with
fresh arrays for every step (copy=True, the default) and with the env's own reused arrays
(copy=False), and the one-state Python loop (legal_actions + a choice + apply_action,
plies/s). The C++ and the VectorEnv runs are alternated, ROUNDS times each; each round gives
the VectorEnv's share of the C++ rate measured beside it, and the median round is reported (on
a busy machine one run alone can be off by a third).

Rates are per CPU-second of the process (the C++ run's user + system time, read from its
rusage; the Python process's own time for the others): on a shared machine, wall time also
counts the time other programs held the core. --wall gives rates per wall-clock second.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_bench.py [--seconds S]
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import time

import naqala

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BIN = os.path.join(HERE, "..", "build", "release", "naqala")


def cpp_rate(binary, variant, seconds, wall):
    run = subprocess.Popen([binary, "bench", "random", variant, "--seconds", str(seconds),
                            "--json"], stdout=subprocess.PIPE, text=True)
    out = run.stdout.read()
    _, status, usage = os.wait4(run.pid, 0)
    run.returncode = os.waitstatus_to_exitcode(status)
    if run.returncode != 0:
        raise RuntimeError(f"naqala bench random {variant} failed ({run.returncode})")
    j = json.loads(out)
    return j["plies"] / (j["seconds"] if wall else usage.ru_utime + usage.ru_stime)


class Timer:
    def __init__(self, wall):
        self.clock = time.perf_counter if wall else time.process_time
        self.start = self.clock()

    def elapsed(self):
        return self.clock() - self.start


def vector_rate(variant, n, seconds, wall, copy=True):
    env = naqala.VectorEnv(variant, n, seed=1, copy=copy)
    env.reset()
    steps = 0
    timer = Timer(wall)
    while timer.elapsed() < seconds:
        for _ in range(10):
            env.step(env.sample_legal())
        steps += 10
    return steps * n / timer.elapsed()


def loop_rate(variant, seconds, wall):
    game = naqala.load_game(variant)
    rng = random.Random(1)
    plies = 0
    timer = Timer(wall)
    while timer.elapsed() < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies / timer.elapsed()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--naqala", default=DEFAULT_BIN)
    parser.add_argument("--wall", action="store_true", help="rates per wall-clock second")
    parser.add_argument("variants", nargs="*", default=["oware", "kalah"])
    a = parser.parse_args()
    unit = "wall" if a.wall else "CPU"
    for variant in a.variants:
        cpp, vec, reused = [], [], []
        for _ in range(a.rounds):
            cpp.append(cpp_rate(a.naqala, variant, a.seconds, a.wall))
            vec.append(vector_rate(variant, a.n, a.seconds, a.wall))
            reused.append(vector_rate(variant, a.n, a.seconds, a.wall, copy=False))
        share = statistics.median(v / c for v, c in zip(vec, cpp))
        share_reused = statistics.median(v / c for v, c in zip(reused, cpp))
        loop = loop_rate(variant, a.seconds, a.wall)
        print(f"{variant:8s} plies per {unit}-second: C++ random play "
              f"{statistics.median(cpp) / 1e6:6.2f} M   VectorEnv n={a.n} "
              f"{statistics.median(vec) / 1e6:6.2f} M ({share:.2f} of C++), copy=False "
              f"{statistics.median(reused) / 1e6:6.2f} M ({share_reused:.2f})   "
              f"Python one-state loop {loop / 1e3:6.1f} k", flush=True)


if __name__ == "__main__":
    main()
