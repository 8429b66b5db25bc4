"""Benchmark: the tournament's overhead per pair, and pairs per second with --jobs 1, --jobs 2 and --cluster local:2.

    PYTHONPATH=src python tests/bench/bench_tournament.py [--pairs N] [--rounds R] [--pairs-per-task K] [--no-cluster]

Not collected by pytest (its name does not start with ``test_``).

**Overhead.**  The same N pairs of ``bsd`` against ``bsd`` (the second
named ``mille.players.bsd:BsdPlayer``, since a tournament names each
player once: the same player, and the same games), played two ways in
this process: a bare loop of :func:`mille.lab.play.play_pair` (the games
themselves), and :func:`mille.lab.tournament.run_tournament` with ``--jobs 1``
and a results file (``--out``, every pair fsynced), report and bootstrap
included.  The overhead is the difference per pair over the bare loop's
time.  The runs alternate (A, B, A, B, ...) so that other work on the
machine falls on both alike; the medians are compared.

**Throughput.**  The same tournament of N pairs with ``--jobs 1``,
``--jobs 2`` and on a ``LocalCluster`` of two single-threaded worker
processes (started once, before the timing: ``--cluster local:2`` pays its
start-up once per run, reported apart), alternating as well; pairs per
second of the play (the tournament's own figure) and of the whole call.
Target: the cluster within 15% of ``--jobs 2``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mille.lab import runner
from mille.lab.options import RunOptions
from mille.lab.play import play_pair
from mille.lab.results import load_results
from mille.lab.schedule import TournamentConfig, pairing_seed
from mille.lab.standings import build_report
from mille.lab.tournament import run_tournament

PLAYERS = ["bsd", "mille.players.bsd:BsdPlayer"]


def bare(pairs: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of the games alone."""
    from mille.lab.records import MatchConfig

    config = MatchConfig(PLAYERS[0], PLAYERS[1], pairing_seed(1, *PLAYERS))
    start, cpu = time.perf_counter(), time.process_time()
    for pair in range(pairs):
        play_pair(config, pair)
    return time.perf_counter() - start, time.process_time() - cpu


def tournament(pairs: int, resamples: int, out: Path | None = None, **where: Any) -> tuple[float, float, float]:
    """(wall seconds of the whole call, CPU seconds of this process, the report's pairs per second)."""
    start, cpu = time.perf_counter(), time.process_time()
    options = RunOptions(seed=1).where(**where)
    report = run_tournament(PLAYERS, games=2 * pairs, resamples=resamples, options=options, out=out)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert report["pairs"] == pairs and not report["interrupted"]
    return seconds, cpu, report["pairs_per_second"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=400, help="pairs per run (default 400)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each kind, alternating (default 3)")
    parser.add_argument(
        "--pairs-per-task", type=int, help="for the pools and the cluster (default: sized by the runner, about 0.25 s)"
    )
    parser.add_argument("--no-cluster", action="store_true", help="leave the cluster out")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}; python {sys.version.split()[0]}; {args.pairs} pairs a run")

    # ---------------------------------------------------------------- overhead
    # Within each tournament run: the CPU time of the whole call (every thread of the process,
    # the kernel's time for the fsyncs included) against the CPU time spent inside the games
    # (mille.lab.play.play_sets as mille.lab.runner calls it, timed by a wrapper).  Both come
    # from the same run, so the load of the machine, which moves a run's time by 10% or more,
    # cancels out.  Alternated with a bare loop of play_pair, whose CPU time is the cross-check.
    real_play_pairs = runner.play_sets
    inside = [0.0]

    def timed_play_pairs(config: Any, start: int, stop: int, **options: Any) -> Any:
        began = time.thread_time()
        try:
            return real_play_pairs(config, start, stop, **options)
        finally:
            inside[0] += time.thread_time() - began

    bare_cpu, whole_cpu, games_cpu, whole_wall = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            bare_cpu.append(bare(args.pairs)[1])
            inside[0] = 0.0
            runner.play_sets = timed_play_pairs
            try:
                wall, cpu, _ = tournament(args.pairs, jobs=1, out=Path(tmp) / f"results-{r}.jsonl", resamples=0)
            finally:
                runner.play_sets = real_play_pairs
            whole_cpu.append(cpu)
            games_cpu.append(inside[0])
            whole_wall.append(wall)
    overheads = [100 * (w - g) / g for w, g in zip(whole_cpu, games_cpu)]
    print(f"bare play_pair loop, CPU:            {', '.join(f'{x:.2f}' for x in bare_cpu)} s")
    print(f"tournament --jobs 1 --out, CPU:      {', '.join(f'{x:.2f}' for x in whole_cpu)} s")
    print(f"  of which inside the games:         {', '.join(f'{x:.2f}' for x in games_cpu)} s")
    print(f"  wall:                              {', '.join(f'{x:.2f}' for x in whole_wall)} s")
    per_pair = statistics.median((w - g) / args.pairs for w, g in zip(whole_cpu, games_cpu))
    play = statistics.median(games_cpu) / args.pairs
    runs = ", ".join(f"{x:+.2f}%" for x in overheads)
    print(
        f"overhead per pair: {1000 * per_pair:.3f} ms of CPU on {1000 * play:.2f} ms of play; "
        f"runs {runs}; median {statistics.median(overheads):+.2f}% (target under 2%)"
    )
    cross = 100 * (statistics.median(whole_cpu) / statistics.median(bare_cpu) - 1)
    print(f"cross-check, the tournament's CPU time over the bare loop's: {cross:+.2f}%")
    # The report once at the end (the bootstrap's 1000 refits above all): a fixed cost, not a
    # cost per pair (a resample costs O(sqrt(pairs))).
    config = TournamentConfig(tuple(PLAYERS), args.pairs)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.jsonl"
        run_tournament(PLAYERS, games=2 * args.pairs, out=path, resamples=0, options=RunOptions(seed=1, jobs=1))
        done, _ = load_results(path, config)
    began = time.process_time()
    build_report(config, done)
    print(f"the report with 1000 bootstrap refits, once: {1000 * (time.process_time() - began):.0f} ms of CPU")

    # -------------------------------------------------------------- throughput
    kinds: dict[str, dict[str, Any]] = {
        "--jobs 1": {"jobs": 1},
        "--jobs 2": {"jobs": 2, "pairs_per_task": args.pairs_per_task},
    }
    closers = []
    if not args.no_cluster:
        import logging

        import distributed

        start = time.perf_counter()
        cluster = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.ERROR,
        )
        client = distributed.Client(cluster)
        print(f"LocalCluster of 2 workers started in {time.perf_counter() - start:.2f} s")
        kinds["--cluster local:2"] = {
            "executor": client.get_executor(pure=False),
            "workers": 2,
            "pairs_per_task": args.pairs_per_task,
        }
        closers += [client.close, cluster.close]
    rates: dict[str, list[float]] = {k: [] for k in kinds}
    walls: dict[str, list[float]] = {k: [] for k in kinds}
    try:
        for _ in range(args.rounds):
            for kind, kwargs in kinds.items():
                seconds, _, rate = tournament(args.pairs, resamples=0, **kwargs)
                rates[kind].append(rate)
                walls[kind].append(args.pairs / seconds)
    finally:
        for close in closers:
            close()
    for kind in kinds:
        print(
            f"{kind:<18} {statistics.median(rates[kind]):7.1f} pairs/s "
            f"(runs: {', '.join(f'{x:.1f}' for x in rates[kind])}; whole call {statistics.median(walls[kind]):.1f})"
        )
    if "--cluster local:2" in rates:
        c, j = statistics.median(rates["--cluster local:2"]), statistics.median(rates["--jobs 2"])
        print(f"cluster / jobs 2: {100 * c / j:.1f}% (target at least 85%)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
