#!/usr/bin/env python3
"""Benchmark of the expert's rollouts and think time (not collected by pytest).

    python tests/bench/bench_rollouts.py                  # rollouts/s, moves/s, think time at the default level
    python tests/bench/bench_rollouts.py --level 2 --hands 6
    python tests/bench/bench_rollouts.py --profile        # cProfile of the rollouts, top functions
    python tests/bench/bench_rollouts.py --compare /tmp/old-checkout --rounds 5

Rollouts: the expert's rollouts to the end of the hand (its repaired
policy in one seat, BSD's procedure in the other) from positions collected
along BSD-against-BSD hands: ``rollout``, the hand driver's fast path
(``bsd.play_out``), and ``rollout_reference``, the driver's general loop
(each seat shown its observation and asked).
Think time: the expert (at ``--level``, or ``--player`` made by a
``module:attribute``) against ``bsd`` for ``--hands`` hands through the
hand driver (``--players`` 2, 3, 4 or 6: at a larger table the expert in
every seat of one side), every call of ``choose`` timed (draws
included), and the searched decisions alone; and the time its reading
of the table takes between its decisions (``inform``), a hand.

``--compare TREE`` times the rollouts of this checkout and of another one
(``TREE/src``, say an older commit checked out with ``git worktree add``)
in alternating subprocesses, the same positions in both, and prints each
one's best and median and the ratio, in CPU time (``time.process_time``,
the best of five passes in each subprocess): on a shared machine only
interleaved runs in CPU time are comparable.  A checkout from before the expert's rollout took the
seat of its own policy (``rollout(game, needs, dice)``, both seats BSD) is
timed through that signature, and one from before the rollout returned
the hand driver's account of it through its count of moves.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tests' folder, for helpers

try:
    import mille  # noqa: F401 (as --compare's child, the other checkout's, from PYTHONPATH)
except ImportError:  # running from a checkout without installing: helpers puts this checkout's on the path
    import helpers  # noqa: F401

try:
    from mille.engine import rules
    from mille.engine.observation import observe
    from mille.engine.rng import GlibcRandom
    from mille.engine.state import Game
except ImportError:  # a checkout from before the engine's package (--compare TREE, the child)
    from mille import rules  # type: ignore[no-redef]
    from mille.observation import observe  # type: ignore[no-redef]
    from mille.rng import GlibcRandom  # type: ignore[no-redef]
    from mille.state import Game  # type: ignore[no-redef]
from mille.players.bsd import INITIAL_NUM_NEED, BsdPlayer
from mille.players.expert import DEFAULT_LEVEL, ExpertPlayer, rollout, rollout_reference


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


def time_rollouts(games: list[Game], fast: bool, clock: Any = time.perf_counter) -> tuple[float, float]:
    """(rollouts per second, moves per second) over copies of ``games``.

    The expert's policy sits in seat 0 and 1 alternately.  The dice are
    seeded before the clock starts: seeding a generator (310 discarded
    draws) costs a quarter of a rollout, and the search never does it (it
    sets a generator's state).
    """
    run: Any = rollout if fast else rollout_reference
    seated = len(inspect.signature(run).parameters) >= 4
    dice = [GlibcRandom(i + 1) for i in range(len(games))]
    moves = 0
    start = clock()
    for i, game in enumerate(games):
        world = game.copy(share_rng=True)
        needs = [list(INITIAL_NUM_NEED), list(INITIAL_NUM_NEED)]
        played = run(world, i % 2, needs, dice[i]) if seated else run(world, needs, dice[i])
        # The moves made: a count from older checkouts, the driver's HandPlay now.
        moves += played if isinstance(played, int) else played.moves + played.answers
    seconds = clock() - start
    return len(games) / seconds, moves / seconds


def compare(other: str, rounds: int, count: int) -> None:
    """This checkout's rollouts against ``other``'s, in alternating subprocesses."""
    from helpers import REPO

    trees = {"this": REPO, "other": os.path.abspath(other)}
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
    for r in range(rounds):
        # Which tree goes first alternates (the first run of a round tends to be the slower).
        for name in list(trees) if r % 2 == 0 else list(trees)[::-1]:
            tree = trees[name]
            env = dict(os.environ, PYTHONPATH=os.path.join(tree, "src"))
            command = [sys.executable, os.path.abspath(__file__), "--child", "--positions", str(count)]
            out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
            rollouts, moves = json.loads(out.strip().splitlines()[-1])
            rates[name].append((rollouts, moves))
    for name, tree in trees.items():
        best = max(rates[name])
        middle = statistics.median(r for r, _ in rates[name])
        print(f"{name:5} {best[0]:8.0f} rollouts/s best, {middle:8.0f} median; {best[1]:10.0f} moves/s  ({tree})")
    for k in (0, 1):
        ratios = [a[k] / b[k] for a, b in zip(rates["this"], rates["other"])]
        what = "rollouts/s" if k == 0 else "moves/s"
        print(
            f"this / other, {what}: best {max(r[k] for r in rates['this']) / max(r[k] for r in rates['other']):.2f}, "
            f"per round {' '.join(f'{r:.2f}' for r in ratios)}"
        )


def think_times(
    level: int, hands: int, seed: int, seats: int = 2, make: Any = None
) -> tuple[list[float], list[float], ExpertPlayer, float]:
    """The expert's decisions timed, ``hands`` hands against ``bsd`` through the hand driver.

    At two seats one expert, in seat 0 and 1 by turns; at a larger table
    an expert in every seat of one side (by turns), ``bsd`` in the others.
    Every call of ``choose`` is timed (draws included); the time its
    reading of the table took (``inform``, outside the decisions) is
    returned too, in seconds.
    """
    from mille.engine.driver import play_hand
    from mille.engine.state import table

    every: list[float] = []
    searched: list[float] = []
    #: The same decisions in the thread's CPU time (what a loaded machine does not change).
    cpu_every.clear()
    cpu_searched.clear()
    reading = [0.0]
    tab = table(seats)
    made = [make() if make is not None else ExpertPlayer(level) for _ in range(seats)]
    counted = made[0]

    class Timed:
        def __init__(self, expert: ExpertPlayer) -> None:
            self.expert = expert

        def choose(self, obs: Any, rng: GlibcRandom) -> Any:
            expert = self.expert
            before = expert.searches
            start = time.perf_counter()
            cpu = time.thread_time()
            move = expert.choose(obs, rng)
            elapsed = time.perf_counter() - start
            cpu = time.thread_time() - cpu
            every.append(elapsed)
            cpu_every.append(cpu)
            if expert.searches > before:
                searched.append(elapsed)
                cpu_searched.append(cpu)
                counted.rollouts += expert.rollouts - before_rollouts[id(expert)]
                counted.simulated_moves += expert.simulated_moves - before_moves[id(expert)]
            before_rollouts[id(expert)] = expert.rollouts
            before_moves[id(expert)] = expert.simulated_moves
            return move

        def inform(self, event: Any) -> None:
            start = time.perf_counter()
            self.expert.inform(event)
            reading[0] += time.perf_counter() - start

        def hand_over(self, result: Any) -> None:
            self.expert.hand_over(result)

    before_rollouts = {id(e): 0 for e in made}
    before_moves = {id(e): 0 for e in made}
    counted.rollouts = counted.simulated_moves = 0
    for hand in range(hands):
        game = Game(rng=GlibcRandom(seed + hand), table=tab)
        game.hand_starter = hand % seats
        rules.start_hand(game)
        side = hand % tab.sides
        seated: list[Any] = [Timed(made[s]) if s % tab.sides == side else BsdPlayer() for s in range(seats)]
        dice = [GlibcRandom(seed * (3 + 2 * s) + hand) for s in range(seats)]
        play_hand(game, seated, dice)
    return every, searched, counted, reading[0]


cpu_every: list[float] = []
cpu_searched: list[float] = []


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--level", type=int, default=DEFAULT_LEVEL)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 6), help="the table of the think time")
    parser.add_argument("--player", help="module:attribute making the expert timed (default: ExpertPlayer(--level))")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--compare", metavar="TREE", help="time this checkout's rollouts against TREE's, interleaved")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of --compare")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.compare:
        compare(args.compare, args.rounds, args.positions)
        return 0
    games = positions(args.positions, args.seed)
    if args.child:
        print(json.dumps(max(time_rollouts(games, True, time.process_time) for _ in range(5))))
        return 0
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
    make = None
    if args.player:
        from mille.players import make_player

        def make() -> Any:
            return make_player(args.player)

    every, searched, expert, reading = think_times(args.level, args.hands, args.seed, args.players, make)
    print(
        f"level {args.level} at {args.players} seats: {len(every)} decisions, median "
        f"{statistics.median(every) * 1000:.0f} ms, "
        f"p95 {quantile(every, 0.95) * 1000:.0f} ms, max {max(every) * 1000:.0f} ms; "
        f"reading the table {reading * 1000 / args.hands:.0f} ms a hand"
    )
    if searched:
        print(
            f"  searched: {len(searched)}, median {statistics.median(searched) * 1000:.0f} ms, "
            f"p95 {quantile(searched, 0.95) * 1000:.0f} ms; "
            f"{expert.rollouts / sum(searched):.0f} rollouts/s and "
            f"{expert.simulated_moves / sum(searched):.0f} moves/s while searching"
        )
        print(
            f"  in the thread's CPU time: every decision median {statistics.median(cpu_every) * 1000:.0f} ms, "
            f"p95 {quantile(cpu_every, 0.95) * 1000:.0f} ms; searched median "
            f"{statistics.median(cpu_searched) * 1000:.0f} ms, p95 {quantile(cpu_searched, 0.95) * 1000:.0f} ms, "
            f"max {max(cpu_searched) * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
