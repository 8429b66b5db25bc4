#!/usr/bin/env python3
"""Benchmark of the expert's rollouts and think time (not collected by pytest).

    python tests/bench_rollouts.py                  # rollouts/s, moves/s, think time at the default level
    python tests/bench_rollouts.py --level 2 --hands 6
    python tests/bench_rollouts.py --profile        # cProfile of the rollouts, top functions

Rollouts: BSD-against-BSD play to the end of the hand from positions
collected along real hands (``rollout``, with the draw and the discard
applied inline, and ``rollout_reference``, through ``rules.push`` only).
Think time: the expert (at ``--level``) against ``bsd`` for ``--hands``
hands, every call of ``choose`` timed (draws included), and the searched
decisions alone.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time

try:
    import mille  # noqa: F401
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from mille import rules
from mille.observation import observe
from mille.players.bsd import INITIAL_NUM_NEED, BsdPlayer
from mille.players.expert import DEFAULT_LEVEL, ExpertPlayer, rollout, rollout_reference
from mille.rng import GlibcRandom
from mille.state import Game


def positions(count: int, seed: int) -> list[Game]:
    """Positions spread over BSD-against-BSD hands (every fifth move)."""
    found: list[Game] = []
    bsd = (BsdPlayer(), BsdPlayer())
    while len(found) < count:
        game = Game(rng=GlibcRandom(seed))
        seed += 1
        rules.start_hand(game)
        dice = (GlibcRandom(seed), GlibcRandom(seed + 1))
        moves = 0
        while not game.finished:
            who = game.to_move
            if rules.phase(game) is rules.Phase.EMPTY_HAND:
                rules.push(game, rules.PASS)
                continue
            if moves % 5 == 0 and rules.phase(game) is rules.Phase.MOVE:
                found.append(game.copy())
            rules.push(game, bsd[who].choose(observe(game, who), dice[who]))
            moves += 1
    return found[:count]


def time_rollouts(games: list[Game], fast: bool) -> tuple[float, float]:
    """(rollouts per second, moves per second) over copies of ``games``.

    The expert's policy sits in seat 0 and 1 alternately.  The dice are
    seeded before the clock starts: seeding a generator (310 discarded
    draws) costs a quarter of a rollout, and the search never does it (it
    sets a generator's state).
    """
    run = rollout if fast else rollout_reference
    dice = [GlibcRandom(i + 1) for i in range(len(games))]
    moves = 0
    start = time.perf_counter()
    for i, game in enumerate(games):
        world = game.copy(share_rng=True)
        moves += run(world, i % 2, [list(INITIAL_NUM_NEED), list(INITIAL_NUM_NEED)], dice[i])
    seconds = time.perf_counter() - start
    return len(games) / seconds, moves / seconds


def think_times(level: int, hands: int, seed: int) -> tuple[list[float], list[float], ExpertPlayer]:
    expert = ExpertPlayer(level)
    bsd = BsdPlayer()
    every: list[float] = []
    searched: list[float] = []
    for hand in range(hands):
        game = Game(rng=GlibcRandom(seed + hand))
        game.hand_starter = hand % 2
        rules.start_hand(game)
        seat = hand % 2
        dice = (GlibcRandom(seed * 3 + hand), GlibcRandom(seed * 5 + hand))
        while not game.finished:
            who = game.to_move
            if rules.phase(game) is rules.Phase.EMPTY_HAND:
                rules.push(game, rules.PASS)
                continue
            obs = observe(game, who)
            if who == seat:
                before = expert.searches
                start = time.perf_counter()
                move = expert.choose(obs, dice[who])
                elapsed = time.perf_counter() - start
                every.append(elapsed)
                if expert.searches > before:
                    searched.append(elapsed)
            else:
                move = bsd.choose(obs, dice[who])
            rules.push(game, move)
    return every, searched, expert


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--level", type=int, default=DEFAULT_LEVEL)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    games = positions(args.positions, args.seed)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        time_rollouts(games, True)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return 0
    for fast in (True, False):
        best = max(time_rollouts(games, fast) for _ in range(3))
        name = "rollout" if fast else "rollout_reference"
        print(f"{name:18} {best[0]:8.0f} rollouts/s {best[1]:10.0f} moves/s  (from {len(games)} mid-hand positions)")
    every, searched, expert = think_times(args.level, args.hands, args.seed)
    print(
        f"level {args.level}: {len(every)} decisions, median {statistics.median(every) * 1000:.0f} ms, "
        f"p95 {quantile(every, 0.95) * 1000:.0f} ms, max {max(every) * 1000:.0f} ms"
    )
    if searched:
        print(
            f"  searched: {len(searched)}, median {statistics.median(searched) * 1000:.0f} ms, "
            f"p95 {quantile(searched, 0.95) * 1000:.0f} ms; "
            f"{expert.rollouts / sum(searched):.0f} rollouts/s and "
            f"{expert.simulated_moves / sum(searched):.0f} moves/s while searching"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
