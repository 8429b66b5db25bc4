"""Round-robin tournaments at any table: ratings with intervals, resumable, on one machine or a Dask cluster.

    python -m mille.tournament A B C ... [--players N] [--games N] [--seed S] [--jobs J | --cluster ADDRESS]
                               [--out FILE | --resume FILE] [--json] [--max-think-ms MS]

Every group of as many players as the table has sides (at two seats every
pairing, the earlier-named as A) is a match exactly as ``python -m
mille.match`` plays it, with the match seed derived from the tournament
seed and the names (:mod:`mille.lab.schedule`): the tournament hands the
same :class:`~mille.lab.runner.Batch` of sets to the same runner
(:func:`mille.lab.runner.run_batches`), so a cell of the crosstable is the
report ``mille.match A B --seed <pairing seed>`` would give, and a table's
the report of ``mille.match --players N``.

The report (:mod:`mille.lab.standings`) has, at two seats, the crosstable
(the row player's game score and margin per hand against the column
player, with 95% intervals), at the larger tables the standings, then a
rating list: Bradley-Terry on the Elo scale, anchored at ``bsd`` = 1500,
with bootstrap intervals, and each player's think times.
``docs/tournaments.md`` explains the arithmetic and the cluster set-up.

With ``--out FILE`` every finished set (pair) is appended to ``FILE`` as a
JSON line (the file's first line records the arguments) as soon as it is
in; ``--resume FILE`` reads it back, plays only the sets missing and goes
on appending (:mod:`mille.lab.results`).  A set's result depends on its
seed alone, so the report of a resumed run is the report of an
uninterrupted one (:data:`~mille.lab.standings.TIMING_FIELDS` apart).
This module is the run (:func:`run_tournament`), its progress line and
its command line.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..engine.rng import wide_seed
from ..engine.state import TABLE_SEATS, table
from ..files.safeio import shown
from ..players import check_table, make_player
from . import command
from .console import StatusLine, format_elapsed, gauge
from .gamelog import RecordError
from .options import DEFAULTS, RunOptions
from .play import MatchError
from .records import SetResult
from .report import bot_name, format_rate, replay_line
from .results import TournamentError, open_results, results_line, results_seed, stops_held
from .runner import TASK_SECONDS, Batch
from .schedule import TournamentConfig, pairs_to_play
from .standings import DEFAULT_RESAMPLES, build_report, format_report

#: Games per pairing when --games is not given.
DEFAULT_GAMES = 100


@dataclass(slots=True)
class TournamentProgress:
    """What :func:`run_tournament`'s progress callback is told after every finished unit of work."""

    pairs: int  # sets (pairs at two seats) done, resumed ones included
    target_pairs: int
    resumed: int
    seconds: float  # since this run started


def run_tournament(
    players: Sequence[str],
    *,
    seats: int = 2,
    games: int = DEFAULT_GAMES,
    options: RunOptions = DEFAULTS,
    out: Path | None = None,
    resume: Path | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    progress: Callable[[TournamentProgress], None] | None = None,
) -> dict[str, Any]:
    """Play a round robin at the table of ``seats`` and return its report (:func:`build_report`).

    Every group of as many players as the table has sides (at two seats
    every pairing) plays a match of ``games`` games, rounded up to whole
    sets (pairs at two seats), on a seed of its own (:mod:`mille.lab.schedule`).
    ``out`` (a new file) or ``resume`` (a file of the same arguments)
    records every finished set; ``resume`` plays only the sets missing.
    ``options`` (:class:`~mille.lab.options.RunOptions`, shared with
    matches): the seed, the think-time limit, the game's length, where the
    sets are played, and ``record`` (a new file): every game played, move
    by move, as a game record (:mod:`mille.lab.gamelog`), in the order the
    sets finish (the sets read back from ``resume`` are not played, so not
    in it; each line names its match's seed, so it replays).  Ctrl-C stops
    the run with everything finished kept, the report marked
    ``interrupted``.
    """
    sides = table(seats).sides
    if len(players) < sides:
        if seats == 2:
            raise ValueError("a tournament needs at least two players")
        raise ValueError(f"a tournament at the table of {seats} needs at least {sides} players")
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise ValueError(f"player {twice[0]!r} named twice")
    if games < 1:
        raise ValueError("games must be at least 1")
    options.check()
    if out is not None and resume is not None:
        raise ValueError("give out or resume, not both")
    # PlayerSpecError now, not a forfeit in every game; and the bots' own names for the report.
    names = {}
    for spec in players:
        player = make_player(spec)
        check_table(player, spec, seats)
        names[spec] = bot_name(player)
    config = TournamentConfig(
        tuple(players),
        -(-games // sides),
        options.seed,
        options.max_think_ms,
        options.game_points,
        options.bots_read_deck,
        seats,
    )
    done, writer = open_results(config, out=out, resume=resume)
    games_writer = None
    try:
        per_match = ("pairs_per_pairing" if seats == 2 else "sets_per_table", config.pairs)
        games_writer = options.recorder("mille.tournament", players, seats, per_match)
    except BaseException:
        if writer is not None:
            writer.close()
        raise
    resumed = len(done)
    index = {config.match_config(*group): k for k, group in enumerate(config.pairings)}
    target = config.pairs * len(config.pairings)
    start_time = time.perf_counter()

    def record_batch(batch: Batch, results: list[SetResult]) -> bool:
        k = index[batch.config]
        for result in results:
            if (k, result.unit) in done:
                continue
            if writer is not None:  # the file and the count together: a stop (SIGTERM, Ctrl-C) waits for both
                with stops_held():
                    writer.append(results_line(config, k, result))
                    done[(k, result.unit)] = result
            else:
                done[(k, result.unit)] = result
            if games_writer is not None:
                games_writer.write(batch.config, result)
        if progress is not None:
            progress(TournamentProgress(len(done), target, resumed, time.perf_counter() - start_time))
        return len(done) >= target

    try:
        if progress is not None and resumed:  # the sets from the file count from the start
            progress(TournamentProgress(resumed, target, resumed, 0.0))
        if len(done) < target:
            interrupted = options.run(pairs_to_play(config, done), record_batch, games_writer)
        else:
            interrupted = False
    finally:
        try:
            if writer is not None:
                writer.close()
        finally:
            if games_writer is not None:
                games_writer.close()
    seconds = time.perf_counter() - start_time
    report = build_report(config, done, seconds=seconds, interrupted=interrupted, resumed=resumed, resamples=resamples)
    bots = {spec: name for spec, name in names.items() if name is not None}
    if bots and seats == 2:
        report["bot_names"] = bots
    return report


class TournamentBar(StatusLine):
    """The tournament's line: pairs (at the larger tables, sets: ``unit``) done of all, the rate, elapsed time."""

    def __init__(self, stream: TextIO, target: int, interval: float = 0.5, *, unit: str = "pair") -> None:
        super().__init__(stream, interval)
        self.target = target
        self.unit = unit
        self.latest: TournamentProgress | None = None

    def __call__(self, p: TournamentProgress) -> None:
        self.latest = p
        self.news(final=p.pairs >= p.target_pairs)

    def render(self, elapsed: float) -> str:
        p = self.latest
        done = 0 if p is None else p.pairs
        head = (
            f"{gauge(done / self.target if self.target else 1.0)} {done}/{self.target} {self.unit}s, "
            f"{format_elapsed(elapsed)}"
        )
        resumed = f", {p.resumed} from the file" if p is not None and p.resumed else ""
        if p is None or p.pairs == p.resumed:
            return f"{head}{resumed}; the first {self.unit} is under way"
        # Over the time elapsed, not the time of the last news: while a slow set runs, the rate falls.
        seconds = max(p.seconds, elapsed)
        rate = (p.pairs - p.resumed) / seconds if seconds > 0 else 0.0
        return f"{head}, {format_rate(rate)} {self.unit}s/s{resumed}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = command.ArgumentParser(
        prog="python -m mille.tournament",
        description="A round robin of duplicate-deal matches between the players named: a crosstable of game "
        "scores and margins per hand with 95% confidence intervals, and Bradley-Terry ratings (Elo scale, "
        "bsd = 1500, or the first player without bsd) with bootstrap intervals.  See docs/tournaments.md.",
        epilog=command.players_epilog(),
    )
    parser.add_argument("players", metavar="PLAYER", nargs="+", help="two or more players")
    parser.add_argument(
        "--games",
        type=int,
        metavar="N",
        default=DEFAULT_GAMES,
        help=f"games per pairing, rounded up to pairs (default {DEFAULT_GAMES})",
    )
    command.add_run_arguments(
        parser,
        "the tournament seed (default: the --resume file's, else drawn at random and said at the end; a seed "
        "typed here is public, so leave it out for a fair tournament of bots)",
        "print the report as one JSON document",
    )
    parser.set_defaults(seed=None)
    command.add_deck_argument(parser)
    files = parser.add_mutually_exclusive_group()
    files.add_argument("--out", metavar="FILE", type=Path, help="record every finished pair in FILE (a new file)")
    files.add_argument(
        "--resume", metavar="FILE", type=Path, help="play the pairs missing from FILE (same arguments), adding them"
    )
    parser.add_argument(
        "--record", metavar="FILE", type=Path, help="write every game, move by move, to FILE (a new file; docs/bots.md)"
    )
    parser.add_argument(
        "--bootstrap",
        type=int,
        metavar="R",
        default=DEFAULT_RESAMPLES,
        help=f"bootstrap resamples for the rating intervals (default {DEFAULT_RESAMPLES})",
    )
    parser.add_argument(
        "--pairs-per-task",
        type=int,
        metavar="K",
        help="pairs in one unit of work (default: one in process; with workers, as many as take about "
        f"{TASK_SECONDS:g} s)",
    )
    parser.add_argument(
        "--players",
        dest="seats",
        type=int,
        choices=TABLE_SEATS,
        default=2,
        metavar="N",
        help="the table: 2 (default), 3, 4 or 6; at 3, 4 and 6 every group of as many players as the table has "
        "sides plays a match of rotations (mille.match --players N)",
    )
    parser.add_argument("--version", action="version", version=command.version_text("mille.tournament"))
    args = parser.parse_args(argv)
    seats = args.seats
    sides = table(seats).sides
    if len(args.players) < sides:
        if seats == 2:
            parser.error("name at least two players")
        parser.error(f"--players {seats} has {sides} sides: name at least {sides} players")
    twice = sorted({p for p in args.players if args.players.count(p) > 1})
    if twice:
        parser.error(f"player {twice[0]} is named twice")
    if seats != 2 and args.pairs_per_task is not None:
        parser.error(f"--pairs-per-task is not played at --players {seats} (a unit of work is a set)")
    command.check_at_least(
        parser,
        ("--games", args.games, 1),
        ("--jobs", args.jobs, 1),
        ("--bootstrap", args.bootstrap, 0),
        ("--pairs-per-task", args.pairs_per_task, 1),
    )
    command.check_run_arguments(parser, args)
    if args.resume is not None and not os.path.lexists(args.resume):  # anything else: open_results says what it is
        parser.error(f"--resume {args.resume}: no such file")
    if args.record is not None and os.path.lexists(args.record):
        parser.error(f"--record {shown(os.fspath(args.record))}: the file exists (a record is never overwritten)")
    command.check_players(parser, args.players, seats)  # at the larger tables, a bot of protocol 1 alone: one line
    drawn = False
    if args.seed is None and args.resume is not None:
        try:
            args.seed = results_seed(args.resume)
        except TournamentError as exc:  # what the run would say of the file, in one line
            print(f"{parser.prog.removeprefix('python -m ')}: {shown(str(exc))}", file=sys.stderr)
            return 1
    if args.seed is None:
        drawn = True
        args.seed = wide_seed()  # in this process only: workers get it through the pool's pipe or TLS
    n = len(args.players)
    units = -(-args.games // sides) * math.comb(n, sides)
    bar = TournamentBar(sys.stderr, units, unit="pair" if seats == 2 else "set") if sys.stderr.isatty() else None
    options = RunOptions(
        seed=args.seed,
        max_think_ms=args.max_think_ms,
        record=args.record,
        bots_read_deck=args.bot_reads_deck,
        pairs_per_task=args.pairs_per_task,
    )

    def run(**where: Any) -> dict[str, Any]:
        return run_tournament(
            args.players,
            seats=seats,
            games=args.games,
            options=options.where(**where),
            out=args.out,
            resume=args.resume,
            resamples=args.bootstrap,
            progress=bar,
        )

    def text(report: dict[str, Any], *, jobs: int | None, cluster: str | None) -> str:
        text = format_report(report, bars=sys.stdout.isatty(), jobs=jobs, cluster=cluster)
        return f"{text}\n{replay_line(report['seed'])}" if drawn else text

    record = args.out or args.resume
    return command.run(
        "mille.tournament",
        run,
        args,
        players=args.players,
        bar=bar,
        own_errors=(TournamentError, MatchError, RecordError, ValueError),
        text=text,
        kept=f"; what finished is in {record}: --resume {record} goes on" if record else "",
    )


__all__ = ["DEFAULT_GAMES", "TournamentBar", "TournamentProgress", "main", "run_tournament"]
