#!/usr/bin/env python3
"""Benchmark of the bot protocol's cost (not collected by pytest).

    python tests/bench/bench_protocol.py                  # 200 games, 3 runs each way, best
    python tests/bench/bench_protocol.py --games 1000 --runs 5 --seed 7
    python tests/bench/bench_protocol.py --profile        # cProfile of both seats over pipes: host, then bots
    python tests/bench/bench_protocol.py --compare /work/base-46614ec --games 100 --rounds 4

Plays the same match three ways in this process (``--jobs 1``): ``bsd``
against ``bsd`` in process, ``exec:python -m mille.bot bsd`` against
``bsd`` (one seat over the pipe) and the bot in both seats.  The reports
must be equal (the protocol changes nothing), and the difference in time
per decision over the pipe is the protocol's cost: the host's encoding and
decoding, the bot's, two pipe writes and the process switches (the bot
runs on the other core, or takes turns on this one).  It prints the cost
per decision in microseconds and the hands a minute of each way.  The
target: thousands of hands a minute with a bot in both seats.

The bot runs this checkout's ``src`` (``PYTHONPATH``), whatever mille is
installed.

``--compare TREE`` times this checkout against another one (``TREE/src``,
say the commit before a change, checked out with ``git worktree add``), in
one run: each round runs, in a subprocess of each tree in turn (which tree
goes first alternates: the first of a pair measured a few per cent slower
on this machine even with the same code), the bot in both seats, the bot
in one seat, and the C example bot (docs/examples/greedy_bot.c, built with
the C compiler there is) against ``bsd``; wall time, as the two processes
of a pipe share the cores.  It prints each tree's median hands a minute of
each way, the ratios, and whether the reports were equal in every run.

``python -m mille.bot`` offers games in flight (docs/protocol-speed.md, "Games
in flight"), so a tree that has them plays the ``exec:`` ways with up to 64
games at once; the single-tree run also times the bot in both seats with
``--games 1`` (one game at a time), the opt-in's own effect.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tests' folder, for helpers

from helpers import REPO, SRC, compiled

os.environ["PYTHONPATH"] = os.path.abspath(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")

from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.players import botprocess

BOT = f"exec:{sys.executable} -m mille.bot bsd"
ONE_AT_A_TIME = f"exec:{sys.executable} -m mille.bot bsd --games 1"
TIMING = ("think_ms", "seconds", "games_per_second", "a", "b", "bot_names")


def one_run(a: str, b: str, games: int, seed: int) -> tuple[float, dict[str, object]]:
    start = time.perf_counter()
    report = run_match(
        a, b, games=games, options=RunOptions(seed=seed, jobs=1, bots_read_deck=True)
    )  # the in-process dice
    return time.perf_counter() - start, report


def decisions(games: int, seed: int) -> tuple[int, int]:
    """How many decisions each seat's player makes in the match (A's, B's), counted in process."""
    from mille.lab.play import play_game
    from mille.lab.records import MatchConfig
    from mille.lab.stats import ThinkStats

    config = MatchConfig("bsd", "bsd", seed)
    think = (ThinkStats(), ThinkStats())
    for pair in range((games + 1) // 2):
        play_game(config, pair, False, think)
        play_game(config, pair, True, think)
    return think[0].count, think[1].count


#: Run in a subprocess of either tree: the seconds of one match and its report without the timings.
_CHILD = """
import inspect, json, sys, time
from mille.lab.match import run_match
from mille.players import botprocess
a, b, games, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
# Started before the clock (a match keeps them: one for each seat of each game of a pair).
bots = [botprocess.acquire(s) for s in (a, b, a, b) if s.startswith("exec:")]
for bot in bots:
    botprocess.release(bot)
# The host's dice for the bots where a tree has them (bots_read_deck), so that reports are equal run to run.
try:  # a tree with the one set of run options (mille.lab.options), or one from before it
    from mille.lab.options import RunOptions
    run = lambda: run_match(a, b, games=games, options=RunOptions(seed=seed, jobs=1, bots_read_deck=True))
except ImportError:
    deck = {"bots_read_deck": True} if "bots_read_deck" in inspect.signature(run_match).parameters else {}
    run = lambda: run_match(a, b, games=games, seed=seed, jobs=1, **deck)
start = time.perf_counter()
report = run()
seconds = time.perf_counter() - start
botprocess.shutdown()
timing = ("think_ms", "seconds", "games_per_second", "a", "b", "bot_names")
print(json.dumps({"seconds": seconds, "report": {k: v for k, v in report.items() if k not in timing}}))
"""


#: A bot under cProfile: ``python -m mille.bot bsd`` writing its profile to DIRECTORY/bot-PID.prof when it ends.
_PROFILED_BOT = """
import cProfile, os, sys
from mille.bot import main
profiler = cProfile.Profile()
code = profiler.runcall(main, ["bsd"])
profiler.dump_stats(os.path.join(sys.argv[1], "bot-%d.prof" % os.getpid()))
sys.exit(code)
"""


def profile(games: int, seed: int) -> int:
    """Both seats over pipes under cProfile: the host's profile, then the bot processes' together (issue 39)."""
    with tempfile.TemporaryDirectory() as scratch:
        wrapper = os.path.join(scratch, "profiled_bot.py")
        with open(wrapper, "w") as f:
            f.write(_PROFILED_BOT)
        bot = f"exec:{sys.executable} {wrapper} {scratch}"
        for started in [botprocess.acquire(bot) for _ in range(4)]:
            botprocess.release(started)
        profiler = cProfile.Profile()
        profiler.enable()
        seconds, _ = one_run(bot, bot, games, seed)
        profiler.disable()
        botprocess.shutdown()  # the bots write their profiles as they end
        print(f"both seats exec, {games} games: {seconds:.2f} s under the profiler\n--- the host")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        found = sorted(os.path.join(scratch, name) for name in os.listdir(scratch) if name.endswith(".prof"))
        print(f"--- the {len(found)} bot processes together (their wait for the host is the read's time)")
        if found:
            pstats.Stats(*found).sort_stats("tottime").print_stats(20)
    return 0


def build_c_bot(directory: str) -> str | None:
    """docs/examples/greedy_bot.c built in ``directory`` (None without a C compiler)."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return None
    source = os.path.join(SRC, "..", "docs", "examples", "greedy_bot.c")
    binary = os.path.join(directory, "greedy_bot")
    subprocess.run([cc, "-std=c99", "-O2", "-o", binary, source], check=True)
    return binary


def compare(tree: str, games: int, rounds: int, seed: int) -> int:
    """This checkout against ``tree``: each way in subprocesses of both, order alternating; 0 if reports agree."""
    trees = {"this": REPO, "other": os.path.abspath(tree)}
    with tempfile.TemporaryDirectory() as scratch:
        c_bot = build_c_bot(scratch)
        ways = {"both seats exec": ("BOT", "BOT"), "one seat exec": ("BOT", "bsd")}
        if c_bot is not None:
            ways["C bot, one seat"] = (f"exec:{c_bot}", "bsd")
        seconds: dict[tuple[str, str], list[float]] = {}
        reports: dict[str, list[dict[str, object]]] = {}
        for r in range(rounds):
            order = list(trees) if r % 2 == 0 else list(trees)[::-1]
            for way, (a, b) in ways.items():
                for name in order:
                    root = trees[name]
                    env = dict(os.environ, PYTHONPATH=os.path.join(root, "src"))
                    bot = f"exec:{sys.executable} -m mille.bot bsd"
                    argv = [a.replace("BOT", bot) if a == "BOT" else a, bot if b == "BOT" else b, str(games), str(seed)]
                    done = subprocess.run(
                        [sys.executable, "-c", _CHILD, *argv], env=env, cwd=root, capture_output=True, text=True
                    )
                    if done.returncode != 0:
                        print(done.stderr, file=sys.stderr)
                        return 2
                    out = json.loads(done.stdout)
                    seconds.setdefault((name, way), []).append(out["seconds"])
                    reports.setdefault(way, []).append(out["report"])
    same = all(report == reports[way][0] for way in reports for report in reports[way])
    print(f"{games} games, seed {seed}; {rounds} rounds, order alternating; reports equal in every run: {same}")
    for way in ways:
        hands = reports[way][0]["hands"]
        assert isinstance(hands, int)
        rates = {name: [hands / t * 60 for t in seconds[name, way]] for name in trees}
        ratio = statistics.median(a / b for a, b in zip(rates["this"], rates["other"]))
        line = ", ".join(f"{name} {statistics.median(rates[name]):8.0f}" for name in trees)
        print(f"  {way:16s} {hands} hands; hands/min (median): {line}; this / other {ratio:.2f}")
    for name, root in trees.items():
        print(f"  {name}: {root}")
    return 0 if same else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--compare", metavar="TREE", help="time this checkout against TREE's, interleaved")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of --compare")
    args = parser.parse_args(argv)
    if args.compare:
        compiled(SRC, os.path.join(args.compare, "src"))
        return compare(args.compare, args.games, args.rounds, args.seed)
    if args.profile:
        return profile(args.games, args.seed)
    # The bots start before the clock: a match keeps them (one for each seat of each game of a pair).
    for bot in [botprocess.acquire(spec) for spec in (BOT, ONE_AT_A_TIME) for _ in range(4)]:
        botprocess.release(bot)
    a_decisions, b_decisions = decisions(args.games, args.seed)
    ways = {
        "in process": ("bsd", "bsd"),
        "one seat exec": (BOT, "bsd"),
        "both seats exec": (BOT, BOT),
        "both, one at a time": (ONE_AT_A_TIME, ONE_AT_A_TIME),
    }
    best: dict[str, float] = {}
    reports: dict[str, dict[str, object]] = {}
    for _ in range(args.runs):
        for way, (a, b) in ways.items():
            seconds, report = one_run(a, b, args.games, args.seed)
            best[way] = min(best.get(way, seconds), seconds)
            reports[way] = {k: v for k, v in report.items() if k not in TIMING}
    same = all(r == reports["in process"] for r in reports.values())
    hands = reports["in process"]["hands"]
    assert isinstance(hands, int)
    print(f"{args.games} games, {hands} hands, seed {args.seed}; best of {args.runs} runs; reports equal: {same}")
    print(f"decisions: A {a_decisions}, B {b_decisions}")
    for way, seconds in best.items():
        print(f"  {way:20s} {seconds:7.2f} s  {hands / seconds * 60:9.0f} hands/min")
    one = (best["one seat exec"] - best["in process"]) / a_decisions * 1e6
    two = (best["both seats exec"] - best["in process"]) / (a_decisions + b_decisions) * 1e6
    print(f"protocol cost per decision: {one:.0f} us (one seat), {two:.0f} us (both seats)")
    botprocess.shutdown()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
