#!/usr/bin/env python3
"""Benchmark of the expert's particle filter (not collected by pytest).

    python tests/bench_filter.py                       # CPU time of the filter along a few hands
    python tests/bench_filter.py --particles 256 --sweeps 2
    python tests/bench_filter.py --compare /tmp/old-checkout --rounds 3

The expert at level 0 (its policy, no search) with ``Level(particles=N,
sweeps=S)`` plays BSD on fixed deals, both seats, so only the filter
thinks; every call of ``choose`` is timed in CPU time and the report gives
the CPU seconds a hand and the median and p95 of a call.  The moves are
the policy's, so the hands are the same in any checkout whose policy is
the same.

``--compare TREE`` times this checkout and another (``TREE/src``, say an
older commit checked out with ``git worktree add``) in alternating
subprocesses, and prints each one's best and median CPU seconds a hand
and their ratio: on a shared machine only interleaved runs in CPU time
are comparable.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(deals: list[int], particles: int, sweeps: int) -> dict[str, float]:
    """CPU time of the filter along ``deals``, both seats (imports from ``sys.path``)."""
    from mille.engine import rules
    from mille.engine.driver import play_hand
    from mille.engine.observation import Observation
    from mille.engine.rng import GlibcRandom
    from mille.engine.rules import Move
    from mille.engine.state import Game
    from mille.players import Player
    from mille.players.bsd import BsdPlayer
    from mille.players.expert import ExpertPlayer, Level

    calls: list[float] = []

    class Timed:
        """The expert, every call of ``choose`` timed in CPU time."""

        def __init__(self) -> None:
            self.expert = ExpertPlayer(settings=Level(0, particles=particles, sweeps=sweeps))

        def choose(self, obs: Observation, rng: GlibcRandom) -> Move:
            start = time.process_time()
            move = self.expert.choose(obs, rng)
            calls.append(time.process_time() - start)
            return move

    hands = 0
    for deal in deals:
        for seat in (0, 1):
            game = Game(rng=GlibcRandom(deal))
            game.hand_starter = deal % 2
            rules.start_hand(game)
            players: list[Player] = [BsdPlayer(), BsdPlayer()]
            players[seat] = Timed()
            play_hand(game, players, (GlibcRandom(deal * 7 + 1), GlibcRandom(deal * 7 + 2)))
            hands += 1
    calls.sort()
    return {
        "hand_s": sum(calls) / hands,
        "median_ms": statistics.median(calls) * 1000,
        "p95_ms": calls[int(0.95 * (len(calls) - 1))] * 1000,
        "hands": hands,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--particles", type=int, default=512)
    parser.add_argument("--sweeps", type=int, default=4)
    parser.add_argument("--deals", type=int, default=3, help="deals, each played from both seats")
    parser.add_argument("--compare", metavar="TREE", help="another checkout to time against, in turn")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    deals = list(range(900000, 900000 + args.deals))
    if args.child:
        print(json.dumps(measure(deals, args.particles, args.sweeps)))
        return
    trees = {"this": os.path.join(HERE, "..")}
    if args.compare:
        trees["other"] = args.compare
    results: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for _ in range(args.rounds if args.compare else 1):
        for name, tree in trees.items():
            env = dict(os.environ, PYTHONPATH=os.path.join(os.path.abspath(tree), "src"))
            command = [sys.executable, os.path.abspath(__file__), "--child"]
            command += ["--particles", str(args.particles), "--sweeps", str(args.sweeps), "--deals", str(args.deals)]
            out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
            results[name].append(json.loads(out))
    print(f"particle filter, {args.particles} particles, {args.sweeps} sweeps, {2 * args.deals} hands (CPU time)")
    for name, runs in results.items():
        seconds = [r["hand_s"] for r in runs]
        last = runs[-1]
        print(
            f"    {name:5s} {min(seconds):6.2f} s a hand best, {statistics.median(seconds):6.2f} median;"
            f" a call median {last['median_ms']:.1f} ms, p95 {last['p95_ms']:.1f} ms  ({trees[name]})"
        )
    if args.compare:
        ratio = min(r["hand_s"] for r in results["other"]) / min(r["hand_s"] for r in results["this"])
        print(f"    this is {ratio:.2f}x the other's speed (best against best)")


if __name__ == "__main__":
    main()
