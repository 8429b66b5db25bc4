#!/usr/bin/env python3
"""Benchmark of the headless simulator (not collected by pytest).

    python tests/bench/bench_sim.py                 # 3 runs of 1000 hands, best/median
    python tests/bench/bench_sim.py --hands 3000 --runs 5 --seed 7
    python tests/bench/bench_sim.py --profile       # cProfile of one run, top functions

    python tests/bench/bench_sim.py --protocol      # every decision through observe() and choose()

The target is at least 1,500 hands per second (the BSD player in both
seats, games continuing across hands) on the project's 2-core machine.  By
default the simulator plays two BSD seats with ``play_out``, the engine's
fast loop that searching players roll out with; ``--protocol`` times the
general path instead, where each seat is shown its observation and answers
through the player protocol (the path any other player takes).
``--breakdown`` times the parts of a move separately (observation, decision,
push) over positions collected from a run.

``--compare TREE`` times this checkout against another one (``TREE/src``,
say the commit before a change, checked out with ``git worktree add``):
subprocesses of each in turn, the same seeds in both, CPU time
(``time.process_time``); on a shared machine only interleaved runs in CPU
time are comparable.  It prints each tree's best and median hands/s and
their ratio, for the fast loop and (with ``--protocol``) the general path.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tests' folder, for helpers

try:
    import mille  # noqa: F401
except ImportError:  # running from a checkout without installing: helpers puts this checkout's on the path
    import helpers  # noqa: F401

from mille.lab.sim import Simulator

TARGET = 1500.0


def one_run(hands: int, seed: int, protocol: bool = False) -> tuple[float, int]:
    sim = Simulator(seed)
    sim.fast = not protocol
    start = time.perf_counter()
    for _ in range(hands):
        sim.play_hand()
    return time.perf_counter() - start, sim.summary.moves


#: Run in a subprocess of either tree: hands/s of one run, in CPU time.  The
#: simulator moved from ``mille.sim`` to ``mille.lab.sim`` with the layers.
_CHILD = """
import sys, time
try:
    from mille.lab.sim import Simulator
except ImportError:
    from mille.sim import Simulator
hands, seed, protocol = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
sim = Simulator(seed)
sim.fast = not protocol
start = time.process_time()
for _ in range(hands):
    sim.play_hand()
print(hands / (time.process_time() - start))
"""


def compare(tree: str, hands: int, rounds: int, seed: int, protocol: bool) -> None:
    """This checkout against ``tree``, in alternating subprocesses (CPU time)."""
    from helpers import REPO

    trees = {"this": REPO, "other": os.path.abspath(tree)}
    rates: dict[str, list[float]] = {name: [] for name in trees}
    for r in range(rounds):
        # Which tree goes first alternates: the first run of a round measured a few per cent
        # slower than the second on this machine, even with the same code in both trees.
        for name in list(trees) if r % 2 == 0 else list(trees)[::-1]:
            root = trees[name]
            env = dict(os.environ, PYTHONPATH=os.path.join(root, "src"))
            args = [sys.executable, "-c", _CHILD, str(hands), str(seed + r), "1" if protocol else "0"]
            out = subprocess.run(args, env=env, capture_output=True, text=True, check=True, cwd=root)
            rates[name].append(float(out.stdout))
    path = "through the player protocol" if protocol else "the fast loop"
    for name, root in trees.items():
        rs = rates[name]
        print(f"{name:5} {root}: best {max(rs):.0f}, median {statistics.median(rs):.0f} hands/s ({path})")
    ratio = statistics.median(a / b for a, b in zip(rates["this"], rates["other"]))
    print(f"this / other: {ratio:.3f} (median of {rounds} paired runs of {hands} hands, order alternating, CPU time)")


def breakdown(seed: int, hands: int = 4) -> None:
    """Microseconds per call of each part of a move, on positions of a real run."""
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.players.bsd import BsdPlayer

    games = []
    sim = Simulator(seed, observer=lambda game, step: games.append(game.copy()))
    sim.run(hands)
    moving = [g for g in games if rules.phase(g) is rules.Phase.MOVE]
    observations = [observe(g, g.to_move) for g in moving]
    drawing = [o for o in observations if o.hand[0] == -1 and o.deck_count > 0]
    playing = [o for o in observations if not (o.hand[0] == -1 and o.deck_count > 0)]
    player, dice = BsdPlayer(), GlibcRandom(1)
    moves = [player.choose(o, dice) for o in observations]
    copies = [g.copy() for g in moving]

    def per_call(label: str, count: int, fn: object, repeat: int = 200) -> None:
        start = time.perf_counter()
        for _ in range(repeat):
            fn()  # type: ignore[operator]
        print(f"{label:34} {(time.perf_counter() - start) / count / repeat * 1e6:6.2f} us  ({count} positions)")

    per_call("observe(game, seat)", len(moving), lambda: [observe(g, g.to_move) for g in moving])
    per_call("bsd decision, before drawing", len(drawing), lambda: [player.choose(o, dice) for o in drawing])
    per_call("bsd decision, after drawing", len(playing), lambda: [player.choose(o, dice) for o in playing])
    per_call("game.copy()", len(moving), lambda: [g.copy() for g in moving])
    per_call(
        "game.copy() + rules.push",
        len(copies),
        lambda: [rules.push(g.copy(), m) for g, m in zip(copies, moves)],
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile one run and print the top functions")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--breakdown", action="store_true", help="time observe / decide / push separately")
    parser.add_argument("--protocol", action="store_true", help="every decision through observe() and choose()")
    parser.add_argument("--compare", metavar="TREE", help="time this checkout against TREE/src, interleaved")
    args = parser.parse_args(argv)

    if args.compare:
        compare(args.compare, args.hands, max(args.runs, 5), args.seed, args.protocol)
        return 0

    if args.breakdown:
        breakdown(args.seed)
        return 0

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        one_run(args.hands, args.seed, args.protocol)
        profiler.disable()
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(args.top)
        return 0

    rates = []
    for run in range(args.runs):
        seconds, moves = one_run(args.hands, args.seed + run, args.protocol)
        rate = args.hands / seconds
        rates.append(rate)
        print(
            f"run {run + 1}: seed {args.seed + run}, {args.hands} hands, {moves} moves in {seconds:.2f} s: "
            f"{rate:.0f} hands/s, {moves / seconds:.0f} moves/s"
        )
    best = max(rates)
    median = statistics.median(rates)
    path = "through the player protocol" if args.protocol else "the fast loop (play_out)"
    if args.protocol:
        print(f"{path}: best {best:.0f} hands/s, median {median:.0f} hands/s (the target is for the fast loop)")
        return 0
    verdict = "OK" if median >= TARGET else "BELOW TARGET"
    print(f"{path}: best {best:.0f} hands/s, median {median:.0f} hands/s (target {TARGET:.0f}): {verdict}")
    return 0 if median >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
