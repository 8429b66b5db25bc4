"""Matches at any table: duplicate deals, honest confidence intervals.

    python -m mille.match A B [--games N | --hands N] [--seed S] [--jobs J] [--json] [--max-think-ms MS]
    python -m mille.match --players 4 A B        (A's partnership against B's)
    python -m mille.match --players 3 A B C      (each for themselves; --players 6: three partnerships)

A, B and C are player names (``bsd``, ``first``, ``random``, ``expert``),
``module:attribute`` plug-ins (see ``docs/bots.md``) or bot programs
(``exec:``).  The match is played in **sets** of 5000-point games, one per
rotation of the players over the sides, all dealt the same hands; at two
seats a set is a **duplicate pair**, the second game replaying the first's
deals with the seats swapped.  Each player rolls its own dice and is built
afresh for every game (:mod:`mille.lab.play`).

A player that answers an illegal move, raises, or thinks longer than
``--max-think-ms`` loses that game (the report says which and why); the
other games of the set and the run go on.

The report (:mod:`mille.lab.report`; text, or one JSON line) is each
table's own: at two seats A's game score with a Wilson interval, the mean
score margin per hand with an interval computed over the duplicate pairs
(so that the pairing's variance reduction counts), think times and errors;
at the larger tables each player's game score and margin per hand with t
intervals over the sets.  ``docs/bots.md`` explains the arithmetic.  The
same seed and players give the same report apart from the timing fields
(:data:`~mille.lab.report.TIMING_FIELDS`), whatever ``--jobs`` and
whatever executor ran it.

Sets are independent units of work: :func:`run_match` hands them to the
runner (:func:`mille.lab.runner.run_batches`), which plays them in process
(``jobs=1``), in a :class:`~concurrent.futures.ProcessPoolExecutor` of its
own, or in any :class:`~concurrent.futures.Executor` it is handed.  This
module is the match itself (which sets, when it is done, what a progress
line shows) and its command line.
"""

from __future__ import annotations

import functools
import itertools
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
from .records import MatchConfig, SetResult
from .report import bot_name, format_rate, format_report, percent, replay_line, summarize, summarize_table
from .runner import Batch
from .sprt import DEFAULT_CAP_GAMES, Sprt, SprtSettings


@dataclass(slots=True)
class Progress:
    """What :func:`run_match`'s progress callback is told after every finished unit of work.

    With ``--sprt``, ``llr`` is the test's log-likelihood ratio over the
    sets it has taken so far (in set order) and ``llr_bounds`` its bounds.
    ``a_score`` is A's game score so far; ``margin_per_hand`` A's margin
    (at two seats; None elsewhere).
    """

    games: int
    target_games: int | None
    hands: int
    target_hands: int | None
    seconds: float
    a_score: float
    margin_per_hand: float | None
    llr: float | None = None
    llr_bounds: tuple[float, float] | None = None


@dataclass(slots=True)
class _Tally:
    games: int = 0
    hands: int = 0
    score: float = 0.0
    margin: int = 0
    #: Sets 0 .. prefix_sets - 1 are done, with prefix_hands hands between them.
    prefix_sets: int = 0
    prefix_hands: int = 0


def run_match(
    a: str,
    b: str,
    c: str | None = None,
    *,
    seats: int = 2,
    games: int | None = None,
    hands: int | None = None,
    options: RunOptions = DEFAULTS,
    progress: Callable[[Progress], None] | None = None,
    sprt: SprtSettings | None = None,
) -> dict[str, Any]:
    """Play a match at the table of ``seats`` and return its report (:func:`~mille.lab.report.summarize`).

    ``a``, ``b`` and, at three sides (3 and 6 seats), ``c``: the players,
    one per side.  The match is played in sets of games, one per rotation
    of the players over the sides (:mod:`mille.lab.play`): at two seats
    duplicate pairs.  ``games``: that many games, rounded up to whole sets;
    ``hands``: sets are taken in index order until at least that many hands
    are played (sets a parallel run started beyond that are discarded, so
    the result does not depend on the parallelism).  ``options``
    (:class:`~mille.lab.options.RunOptions`, shared with tournaments): the
    seed, the think-time limit, the game's length, the record, and where
    the sets are played; the workers of an executor must be able to import
    :mod:`mille` and the players.  Ctrl-C (KeyboardInterrupt) stops the
    run: the report then covers the sets finished, with ``interrupted``
    true.

    ``sprt`` (two sides: at 2 and 4 seats, where a set is a duplicate
    pair): a sequential test (:mod:`mille.lab.sprt`) takes the sets in
    index order, one at a time, and the match stops at the set where it
    decides; ``games`` or ``hands`` is then the cap of an undecided run.
    The report gains an ``sprt`` block.  Like ``hands``, the stopping set
    is found in set order, so it does not depend on the parallelism.

    ``options.record``: every game, move by move, written to this new file
    as a game record (:mod:`mille.lab.gamelog`), in set order: the games
    of the report.

    The report is each table's own: at two seats A's game score and margin
    with their intervals (:func:`~mille.lab.report.summarize`), at the
    larger tables each player's (:func:`~mille.lab.report.summarize_table`).
    """
    sides = table(seats).sides
    players = (a, b) if c is None else (a, b, c)
    if len(players) != sides:
        raise ValueError(f"the table of {seats} has {sides} sides: name {sides} players")
    if (games is None) == (hands is None):
        raise ValueError("give exactly one of games and hands")
    if (games is not None and games < 1) or (hands is not None and hands < 1):
        raise ValueError("games and hands must be at least 1")
    options.check()
    if sprt is not None and sides != 2:
        raise ValueError(f"--sprt takes two sides (2 or 4 seats), not the {sides} of the table of {seats}")
    # Fail now, with PlayerSpecError, not in every game; and the bots' own names for the report.
    names = []
    for spec in players:
        player = make_player(spec)
        check_table(player, spec, seats)
        names.append(bot_name(player))
    config = MatchConfig(
        a, b, options.seed, options.max_think_ms, options.game_points, options.bots_read_deck, seats, c
    )
    total_sets = None if games is None else -(-games // sides)
    test = None if sprt is None else Sprt(sprt)
    recorder = options.recorder("mille.match", players, seats)
    start_time = time.perf_counter()
    done: dict[int, SetResult] = {}
    tally = _Tally()
    result: list[SetResult] | None = None

    def write(r: SetResult) -> None:
        """The set's games into the record, and its moves let go."""
        if recorder is not None:
            recorder.write(config, r)

    def stopped() -> bool:
        return (
            (test is not None and test.accepted is not None)
            or (total_sets is not None and tally.prefix_sets >= total_sets)
            or (hands is not None and tally.prefix_hands >= hands)
        )

    def chosen() -> list[SetResult] | None:
        """The sets of the result once complete: the run of sets from 0 up to where the match stops.

        That is all of them (``games``), the prefix reaching ``hands``, or
        the prefix up to the set where the sequential test decides; each
        set is looked at once, in order, as the prefix grows.
        """
        while not stopped() and tally.prefix_sets in done:
            r = done[tally.prefix_sets]
            tally.prefix_hands += r.hands
            tally.prefix_sets += 1
            if test is not None:
                test.add(r.a_score)
            write(r)
        if stopped():
            return [done[i] for i in range(tally.prefix_sets)]
        return None

    def record_batch(batch: Batch, results: list[SetResult]) -> bool:
        nonlocal result
        for r in results:
            done[r.unit] = r
            tally.games += sides
            tally.hands += r.hands
            tally.score += r.a_score
            tally.margin += r.margin
        result = chosen()
        if progress is not None:
            progress(
                Progress(
                    tally.games,
                    None if total_sets is None else sides * total_sets,
                    tally.hands,
                    hands,
                    time.perf_counter() - start_time,
                    tally.score / tally.games if tally.games else 0.0,
                    tally.margin / tally.hands if tally.hands and seats == 2 else None,
                    None if test is None else test.llr,
                    None if test is None else test.settings.bounds,
                )
            )
        return result is not None

    units = ((config, unit) for unit in (range(total_sets) if total_sets is not None else itertools.count()))
    try:
        interrupted = options.run(units, record_batch, recorder)
        seconds = time.perf_counter() - start_time
        if result is None:
            result = list(done.values())
            for r in sorted(result, key=lambda r: r.unit):  # interrupted: the record holds the report's games
                write(r)
    finally:
        if recorder is not None:
            recorder.close()
    if seats != 2:
        report = summarize_table(config, result, seconds=seconds, interrupted=interrupted)
    else:
        report = summarize(config, result, seconds=seconds, interrupted=interrupted)
        if names != [None, None]:
            report["bot_names"] = {"a": names[0], "b": names[1]}
    if test is not None:
        block = test.to_json(capped=not interrupted)
        block["cap_games"] = None if total_sets is None else sides * total_sets
        block["cap_hands"] = hands
        report["sprt"] = block
    return report


class ProgressBar(StatusLine):
    """The match's line: games done, rate, elapsed time, the current estimate."""

    def __init__(
        self,
        stream: TextIO,
        a: str,
        b: str,
        *,
        target_games: int | None = None,
        target_hands: int | None = None,
        interval: float = 0.5,
    ) -> None:
        super().__init__(stream, interval)
        self.names = (a, b)
        self.latest: Progress | None = None
        self.targets = (target_games, target_hands)

    def __call__(self, p: Progress) -> None:
        self.latest = p
        self.news(final=p.target_games is not None and p.games >= p.target_games)

    def render(self, elapsed: float) -> str:
        p = self.latest
        target_games, target_hands = (p.target_games, p.target_hands) if p is not None else self.targets
        games = p.games if p is not None else 0
        hands = p.hands if p is not None else 0
        if target_games is not None:
            fraction = games / target_games
            done = f"{games}/{target_games} games"
        elif target_hands is not None:
            fraction = min(1.0, hands / target_hands)
            done = f"{hands}/{target_hands} hands, {games} games"
        else:
            fraction, done = 0.0, f"{games} games"
        head = f"{gauge(fraction)} {done}"
        if p is None or p.games == 0:
            return f"{head}, {format_elapsed(elapsed)}; the first pair is under way"
        # Over the time elapsed, not the time of the last news: while a slow pair runs, the rate falls.
        seconds = max(p.seconds, elapsed)
        rate = p.games / seconds if seconds > 0 else 0.0
        margin = "" if p.margin_per_hand is None else f", margin {p.margin_per_hand:+.0f}/hand"
        llr = ""
        if p.llr is not None and p.llr_bounds is not None:
            llr = f"; LLR {p.llr:+.2f} ({p.llr_bounds[0]:+.2f} to {p.llr_bounds[1]:+.2f})"
        return (
            f"{head}, {format_rate(rate)} games/s, {format_elapsed(elapsed)}{llr}; "
            f"{self.names[0]} scores {percent(p.a_score)}{margin}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = command.ArgumentParser(
        prog="python -m mille.match",
        description="Play duplicate pairs of 5000-point games between two players and report "
        "A's game score and score margin per hand with 95% confidence intervals.",
        epilog=command.players_epilog(),
    )
    parser.add_argument("a", metavar="A", help="player A")
    parser.add_argument("b", metavar="B", help="player B")
    parser.add_argument("c", metavar="C", nargs="?", help="player C (at --players 3 and 6: three sides)")
    parser.add_argument(
        "--players",
        type=int,
        choices=TABLE_SEATS,
        default=2,
        metavar="N",
        help="the table: 2 (the original's, default), 3 (each for themselves), 4 (A's partnership against "
        "B's) or 6 (three partnerships); at 3, 4 and 6 each deal is played in every rotation of the sides",
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--games",
        type=int,
        metavar="N",
        help=f"play N games, rounded up to pairs (default 200; with --sprt at most N, default {DEFAULT_CAP_GAMES})",
    )
    size.add_argument("--hands", type=int, metavar="N", help="play pairs until at least N hands are played")
    command.add_run_arguments(
        parser,
        "the match seed: deals and dice (default: drawn at random, said at the end; a seed typed here is "
        "public, so leave it out for a fair match against bots)",
        "print one JSON line instead of the text report",
    )
    parser.set_defaults(seed=None)
    command.add_deck_argument(parser)
    parser.add_argument(
        "--record", metavar="FILE", type=Path, help="write every game, move by move, to FILE (a new file; docs/bots.md)"
    )
    test = parser.add_argument_group(
        "sequential test",
        "--sprt plays pairs until a sequential probability ratio test decides between H0: A's game score "
        "is that of an Elo difference of ELO0, and H1: that of ELO1 (logistic Elo: 1/(1 + 10^(-elo/400))); "
        "--games or --hands caps an undecided run.  See docs/bots.md.",
    )
    test.add_argument("--sprt", action="store_true", help="stop when the test accepts H0 or H1")
    defaults = SprtSettings()
    for option, value, meaning in (
        ("--elo0", defaults.elo0, "the Elo difference of H0"),
        ("--elo1", defaults.elo1, "the Elo difference of H1"),
        ("--alpha", defaults.alpha, "the chance of accepting H1 when H0 holds"),
        ("--beta", defaults.beta, "the chance of accepting H0 when H1 holds"),
    ):
        test.add_argument(option, type=float, metavar="X", help=f"{meaning} (default {value:g})")
    parser.add_argument("--version", action="version", version=command.version_text("mille.match"))
    args = parser.parse_args(argv)
    settings = None
    given = [o for o in ("elo0", "elo1", "alpha", "beta") if getattr(args, o) is not None]
    if args.sprt:
        if args.games is None and args.hands is None:
            args.games = DEFAULT_CAP_GAMES
        try:
            settings = SprtSettings(**{o: getattr(args, o) for o in given})
        except ValueError as exc:
            parser.error(f"--sprt: {exc}")
    elif given:
        parser.error(f"--{given[0]} goes with --sprt")
    if args.games is None and args.hands is None:
        args.games = 200
    command.check_at_least(parser, ("--games", args.games, 1), ("--hands", args.hands, 1), ("--jobs", args.jobs, 1))
    command.check_run_arguments(parser, args)
    if args.record is not None and os.path.lexists(args.record):
        parser.error(f"--record {shown(os.fspath(args.record))}: the file exists (a record is never overwritten)")
    seats = args.players
    sides = table(seats).sides
    names = [args.a, args.b] + ([args.c] if args.c is not None else [])
    if seats == 2 and args.c is not None:
        parser.error("a third player goes with --players 3 or 6")
    if len(names) != sides:
        parser.error(f"--players {seats} has {sides} sides: name {sides} players")
    if args.sprt and sides != 2:
        parser.error(f"--sprt is not played at --players {seats} (two sides only: --players 2 or 4)")
    command.check_players(parser, names, seats)  # at the larger tables, a bot of protocol 1 alone: one line
    drawn = args.seed is None
    if drawn:
        args.seed = wide_seed()  # in this process only: workers get it through the pool's pipe
    target_games = None if args.games is None else sides * -(-args.games // sides)
    bar = (
        ProgressBar(sys.stderr, args.a, args.b, target_games=target_games, target_hands=args.hands)
        if sys.stderr.isatty()
        else None
    )
    options = RunOptions(
        seed=args.seed, max_think_ms=args.max_think_ms, record=args.record, bots_read_deck=args.bot_reads_deck
    )

    def run(**where: Any) -> dict[str, Any]:
        return run_match(
            *names,
            seats=seats,
            games=args.games,
            hands=args.hands,
            options=options.where(**where),
            progress=bar,
            sprt=settings,
        )

    return command.run(
        "mille.match",
        run,
        args,
        players=names,
        bar=bar,
        own_errors=(MatchError, RecordError, ValueError),
        text=functools.partial(_text, drawn=drawn),
    )


def _text(report: dict[str, Any], *, jobs: int | None, cluster: str | None, drawn: bool) -> str:
    """The text report; a drawn seed adds how to replay the run (a seed given: the report as it always was)."""
    text = format_report(report, jobs=jobs, cluster=cluster)
    return f"{text}\n{replay_line(report['seed'])}" if drawn else text


__all__ = ["Progress", "ProgressBar", "main", "run_match"]
