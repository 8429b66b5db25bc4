#!/usr/bin/env python3
"""The SPRT of ``mille.match --sprt`` by simulation: error rates and average lengths.  (Not collected by pytest.)

    PYTHONPATH=src python tests/bench/bench_sprt.py [--runs N] [--slow-runs M]

Runs the test (:func:`mille.lab.sprt.simulate`, the defaults of
``--sprt``: H0 0 Elo, H1 20 Elo, alpha = beta = 0.05, a cap of 5000 pairs)
on pair scores drawn from pentanomial distributions measured in real
matches, as measured and carried to each hypothesis (:func:`tilted`), and
prints each scenario's decisions with 95% Wilson intervals and the pairs
the tests took.  docs/bots.md quotes its output.
"""

from __future__ import annotations

import argparse
import time

from mille.lab.sprt import PAIR_SCORES, SprtSettings, simulate, tilted
from mille.lab.stats import wilson_interval

#: ``python -m mille.match bsd bsd --games 4000 --seed 1``: pairs scoring 0, 1/2, 1, 3/2, 2 for A.
BSD_BSD = (34, 1, 1926, 2, 37)
#: ``python -m mille.match greedy_bot:GreedyBot bsd --games 2000 --seed 1`` (from docs/examples).
GREEDY_BSD = (389, 3, 505, 5, 98)
CAP_PAIRS = 5000


def describe(name: str, probs: list[float], settings: SprtSettings, runs: int, seed: int) -> None:
    mean = sum(p * v for p, v in zip(probs, PAIR_SCORES)) / sum(probs) / 2.0
    began = time.process_time()
    result = simulate(probs, settings, runs=runs, cap_pairs=CAP_PAIRS, seed=seed)
    cpu = time.process_time() - began

    def rate(k: int) -> str:
        low, high = wilson_interval(k / runs, runs)
        return f"{100 * k / runs:5.2f}% ({100 * low:.2f} to {100 * high:.2f})"

    print(
        f"{name:<34} score {100 * mean:5.2f}%  runs {runs:>5}  H1 {rate(result.h1)}  H0 {rate(result.h0)}  "
        f"undecided {result.undecided:>3}  pairs: mean {result.mean_pairs:7.1f}, max {result.max_pairs:>5}  "
        f"({cpu:.0f} s)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10_000, help="tests for the bsd-vs-bsd scenarios")
    ap.add_argument("--slow-runs", type=int, default=2000, help="tests for the scenarios of unlike players")
    args = ap.parse_args()
    settings = SprtSettings()
    score0, score1 = settings.scores
    bsd = [float(c) for c in BSD_BSD]
    greedy = [float(c) for c in GREEDY_BSD]
    print(
        f"H0 {settings.elo0:g} Elo ({100 * score0:.2f}%), H1 {settings.elo1:g} Elo ({100 * score1:.2f}%), "
        f"alpha {settings.alpha}, beta {settings.beta}, cap {CAP_PAIRS} pairs"
    )
    describe("bsd vs bsd, as measured (H0 true)", bsd, settings, args.runs, 1)
    describe("bsd vs bsd, carried to H1", tilted(bsd, score1), settings, args.runs, 2)
    describe("greedy vs bsd, carried to H0", tilted(greedy, score0), settings, args.slow_runs, 3)
    describe("greedy vs bsd, carried to H1", tilted(greedy, score1), settings, args.slow_runs, 4)
    describe("greedy vs bsd, as measured", greedy, settings, args.slow_runs, 5)
    describe("bsd vs greedy, as measured", greedy[::-1], settings, args.slow_runs, 6)


if __name__ == "__main__":
    main()
