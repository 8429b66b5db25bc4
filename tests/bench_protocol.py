#!/usr/bin/env python3
"""Benchmark of the bot protocol's cost (not collected by pytest).

    python tests/bench_protocol.py                  # 200 games, 3 runs each way, best
    python tests/bench_protocol.py --games 1000 --runs 5 --seed 7
    python tests/bench_protocol.py --profile        # cProfile of one exec run (the host's side)

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
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
sys.path.insert(0, SRC)
os.environ["PYTHONPATH"] = os.path.abspath(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")

from mille.lab.match import run_match  # noqa: E402
from mille.players import botprocess  # noqa: E402

BOT = f"exec:{sys.executable} -m mille.bot bsd"
TIMING = ("think_ms", "seconds", "games_per_second", "a", "b")


def one_run(a: str, b: str, games: int, seed: int) -> tuple[float, dict[str, object]]:
    start = time.perf_counter()
    report = run_match(a, b, games=games, seed=seed, jobs=1, bots_read_deck=True)  # the in-process dice
    return time.perf_counter() - start, report


def decisions(games: int, seed: int) -> tuple[int, int]:
    """How many decisions each seat's player makes in the match (A's, B's), counted in process."""
    from mille.lab.pairs import MatchConfig, play_game
    from mille.lab.stats import ThinkStats

    config = MatchConfig("bsd", "bsd", seed)
    think = (ThinkStats(), ThinkStats())
    for pair in range((games + 1) // 2):
        play_game(config, pair, False, think)
        play_game(config, pair, True, think)
    return think[0].count, think[1].count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    botprocess.acquire(BOT)  # the bots start before the clock: a match starts them once
    botprocess.release(botprocess.acquire(BOT))
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        one_run(BOT, "bsd", args.games, args.seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return 0
    a_decisions, b_decisions = decisions(args.games, args.seed)
    ways = {"in process": ("bsd", "bsd"), "one seat exec": (BOT, "bsd"), "both seats exec": (BOT, BOT)}
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
        print(f"  {way:16s} {seconds:7.2f} s  {hands / seconds * 60:9.0f} hands/min")
    one = (best["one seat exec"] - best["in process"]) / a_decisions * 1e6
    two = (best["both seats exec"] - best["in process"]) / (a_decisions + b_decisions) * 1e6
    print(f"protocol cost per decision: {one:.0f} us (one seat), {two:.0f} us (both seats)")
    botprocess.shutdown()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
