"""Round-robin tournaments: a crosstable and ratings with intervals, resumable, on one machine or a Dask cluster.

    python -m mille.tournament A B C ... [--games N] [--seed S] [--jobs J | --cluster ADDRESS]
                               [--out FILE | --resume FILE] [--json] [--max-think-ms MS]

Every pairing of the players named (the earlier-named as A) is a
duplicate-deal match exactly as ``python -m mille.match`` plays it, with
the match seed derived from the tournament seed and the two names
(:func:`pairing_seed`): the tournament hands the same
:class:`~mille.lab.match.Batch` of pairs to the same runner
(:func:`mille.lab.match.run_batches`), so a cell of the crosstable is the report
``mille.match A B --seed <pairing seed>`` would give.

The report has the crosstable (the row player's game score and margin per
hand against the column player, with 95% intervals), then a rating list:
a Bradley-Terry model fitted jointly to every game, on the Elo scale,
anchored at ``bsd`` = 1500 (the first player named when ``bsd`` is not in
it), with 95% intervals from a bootstrap over duplicate pairs
(:func:`mille.lab.stats.rate_players`), and each player's think times.
``docs/tournaments.md`` explains the arithmetic and the cluster set-up.

With ``--out FILE`` every finished pair is appended to ``FILE`` as a JSON
line (the file's first line records the arguments), written, flushed and
fsynced by a writer thread as soon as the pair is in; ``--resume FILE``
reads it back, plays only the pairs missing and goes on appending.  A
pair's result depends on its seed alone, so the report of a resumed run is
the report of an uninterrupted one (:data:`TIMING_FIELDS` apart).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from .. import __version__
from ..engine.scoring import GAME_POINTS
from ..players import BUILTIN, PlayerSpecError, make_player
from .match import (
    TASK_SECONDS,
    Batch,
    MatchConfig,
    MatchError,
    PairResult,
    RunFailure,
    StatusLine,
    add_run_arguments,
    check_run_arguments,
    default_jobs,
    derive_seed,
    execute,
    format_elapsed,
    format_rate,
    plural,
    run_batches,
    summarize,
    think_summary,
    version_text,
    write_out,
)
from .match import (
    TIMING_FIELDS as MATCH_TIMING_FIELDS,
)
from .stats import PairingScores, ThinkStats, rate_players

#: Report fields (at any depth) that depend on the machine and the moment, not on the arguments.
TIMING_FIELDS = (*MATCH_TIMING_FIELDS, "pairs_per_second")

#: The first line of a results file says it is one, and of which format.
FORMAT = "mille.tournament results"
FORMAT_VERSION = 1

#: The rating of the anchor player.
ANCHOR_RATING = 1500.0

#: Bootstrap resamples for the rating intervals.
DEFAULT_RESAMPLES = 1000

#: Games per pairing when --games is not given.
DEFAULT_GAMES = 100


class TournamentError(RuntimeError):
    """A tournament that cannot run as asked (a results file, say): one line saying why."""


def pairing_seed(seed: int, a: str, b: str) -> int:
    """The match seed of the pairing of ``a`` (player A) and ``b`` in the tournament of seed ``seed``."""
    return derive_seed("tournament", seed, a, b)


@dataclass(frozen=True, slots=True)
class Settings:
    """What decides a tournament's results (and so must match in a file to resume)."""

    players: tuple[str, ...]
    pairs: int  # duplicate pairs per pairing
    seed: int = 1
    max_think_ms: float | None = None
    game_points: int = GAME_POINTS

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """Every pairing ``(i, j)``, ``i < j``: player ``i`` is A."""
        n = len(self.players)
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    @property
    def anchor(self) -> int:
        """The player rated :data:`ANCHOR_RATING`: ``bsd``, else the first named."""
        return self.players.index("bsd") if "bsd" in self.players else 0

    def config(self, i: int, j: int) -> MatchConfig:
        a, b = self.players[i], self.players[j]
        return MatchConfig(a, b, pairing_seed(self.seed, a, b), self.max_think_ms, self.game_points)

    def header(self) -> dict[str, Any]:
        """The first line of a results file."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "mille": __version__,
            "players": list(self.players),
            "pairs_per_pairing": self.pairs,
            "seed": self.seed,
            "max_think_ms": self.max_think_ms,
            "game_points": self.game_points,
        }


# --------------------------------------------------------------------------
# The results file


#: What the header's fields are called on the command line, for the refusal message.
_OPTION_OF = {
    "players": "players",
    "pairs_per_pairing": "--games (pairs per pairing)",
    "seed": "--seed",
    "max_think_ms": "--max-think-ms",
    "game_points": "game points",
    "mille": "mille version",
}


def load_results(path: Path, settings: Settings) -> tuple[dict[tuple[int, int], PairResult], int]:
    """The pairs recorded in ``path`` by pairing index and pair, and the length of its good part.

    An empty file is a tournament not started.  A last line without its
    newline is a record cut short by a kill in mid-write: it is left out
    (that pair is played again) and the file is cut back to the good part
    before anything is appended.  A file of other arguments, or damaged
    anywhere else, is a :class:`TournamentError`.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TournamentError(f"cannot read {path}: {exc.strerror or exc}") from None
    good = data.rfind(b"\n") + 1  # the cut-short line, if any, starts here
    lines = data[:good].split(b"\n")[:-1]
    results: dict[tuple[int, int], PairResult] = {}
    if not lines:
        return results, 0
    try:
        header = json.loads(lines[0])
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise TournamentError(f"{path} is not a mille.tournament results file")
    if header.get("version") != FORMAT_VERSION:
        raise TournamentError(
            f"{path} is a results file of format version {header.get('version')!r}, not {FORMAT_VERSION}"
        )
    expected = settings.header()
    differences = [
        f"{_OPTION_OF.get(key, key)} {_show(header.get(key))} there, {_show(value)} here"
        for key, value in expected.items()
        if header.get(key) != value
    ]
    if differences:
        raise TournamentError(
            f"{path} holds a tournament of other arguments ({'; '.join(differences)}): "
            "resume it with the arguments it was started with"
        )
    index = {(settings.players[i], settings.players[j]): k for k, (i, j) in enumerate(settings.pairings)}
    for number, line in enumerate(lines[1:], start=2):
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or set(record) != {"pairing", "result"}:
                raise ValueError("a record has exactly the fields pairing and result")
            names = record["pairing"]
            key = tuple(names) if isinstance(names, list) and all(isinstance(n, str) for n in names) else None
            if key not in index:
                raise ValueError(f"{names!r} is not a pairing of this tournament")
            assert key is not None
            result = PairResult.from_json(record["result"])
            if result.pair >= settings.pairs:
                raise ValueError(f"pair {result.pair + 1} is beyond the {settings.pairs} of a pairing")
        except (ValueError, KeyError, TypeError) as exc:
            raise TournamentError(f"{path}, line {number}: a damaged record ({exc})") from None
        results.setdefault((index[key], result.pair), result)
    return results, good


def _show(value: object) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return "none" if value is None else str(value)


def _why(exc: Exception) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__


#: The least time between two fsyncs of a results file: records that come faster share one.
SYNC_INTERVAL = 0.1


class ResultsWriter:
    """Appends records to a results file: each written and flushed at once, fsynced soon after by a thread.

    :meth:`append` writes and flushes the record's line before it returns,
    so a process that is killed loses nothing handed in.  A thread fsyncs
    the file as soon as there is something new, but not twice within
    :data:`SYNC_INTERVAL` (group commit: a ``bsd`` pair lasts about 13 ms
    and an fsync costs a fifth of a millisecond of the kernel's time, so
    one fsync a pair would cost such a tournament a few percent; an
    ``expert`` pair lasts half a minute and gets its own).  A machine that
    goes down loses at most the last tenth of a second of records, which
    ``--resume`` plays again.  :meth:`close` fsyncs what is left.
    """

    def __init__(self, path: Path, *, truncate_to: int | None, header: dict[str, Any] | None) -> None:
        self.path = path
        self._file: BinaryIO
        try:
            if truncate_to is None:
                self._file = open(path, "xb")  # noqa: SIM115 - closed by close()
            else:
                self._file = open(path, "r+b")  # noqa: SIM115
                self._file.truncate(truncate_to)
                self._file.seek(truncate_to)
        except OSError as exc:
            raise TournamentError(f"cannot write {path}: {exc.strerror or exc}") from None
        self._error: Exception | None = None
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self.syncs = 0
        if header is not None:
            self._write(self._line(header))
            self._sync()
            self._check()
        self._thread = threading.Thread(target=self._run, name="mille-results", daemon=True)
        self._thread.start()

    @staticmethod
    def _line(record: dict[str, Any]) -> bytes:
        return (json.dumps(record, separators=(",", ":")) + "\n").encode()

    def append(self, record: dict[str, Any]) -> None:
        """Write and flush one record; it is fsynced within :data:`SYNC_INTERVAL`."""
        self._check()
        self._write(self._line(record))
        self._check()
        self._dirty.set()

    def _run(self) -> None:
        try:
            while True:
                self._dirty.wait()
                if self._stop.is_set():
                    return
                self._dirty.clear()
                self._sync()
                if self._stop.wait(SYNC_INTERVAL):  # the next fsync no sooner than this
                    return
        except Exception as exc:  # never silently: close() and append() report it
            self._error = exc

    def _write(self, line: bytes) -> None:
        try:
            self._file.write(line)
            self._file.flush()
        except OSError as exc:
            self._error = exc

    def _sync(self) -> None:
        if self._error is not None:
            return
        try:
            os.fsync(self._file.fileno())  # the GIL is released meanwhile
            self.syncs += 1
        except OSError as exc:
            self._error = exc

    def _check(self) -> None:
        if self._error is not None:
            raise TournamentError(f"cannot write {self.path}: {_why(self._error)}")

    def close(self) -> None:
        """Fsync what is left, and close."""
        self._stop.set()
        self._dirty.set()
        self._thread.join()
        self._sync()
        self._file.close()
        self._check()


# --------------------------------------------------------------------------
# Running


@dataclass(slots=True)
class TournamentProgress:
    """What a progress callback is told after every finished unit of work."""

    pairs: int  # pairs done, resumed ones included
    target_pairs: int
    resumed: int
    seconds: float  # since this run started


#: Pairs are played in chunks of this many of each pairing in turn, so that a run cut short has
#: played the pairings about equally, and a task may still take many consecutive pairs of one.
CHUNK = 32


def _pairs_to_play(settings: Settings, done: dict[tuple[int, int], PairResult]) -> Iterator[tuple[MatchConfig, int]]:
    """The pairs not yet done: a chunk of each pairing in turn."""
    configs = [settings.config(i, j) for i, j in settings.pairings]
    for start in range(0, settings.pairs, CHUNK):
        for k, config in enumerate(configs):
            for pair in range(start, min(start + CHUNK, settings.pairs)):
                if (k, pair) not in done:
                    yield (config, pair)


def run_tournament(
    players: Sequence[str],
    *,
    games: int = DEFAULT_GAMES,
    seed: int = 1,
    jobs: int | None = None,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    max_think_ms: float | None = None,
    game_points: int = GAME_POINTS,
    out: Path | None = None,
    resume: Path | None = None,
    pairs_per_task: int | None = None,
    max_in_flight: int | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    progress: Callable[[TournamentProgress], None] | None = None,
) -> dict[str, Any]:
    """Play a round robin (``games`` per pairing, rounded up to pairs) and return its report (:func:`build_report`).

    ``out`` (a new file) or ``resume`` (a file of the same arguments)
    records every finished pair; ``resume`` plays only the pairs missing.
    ``jobs``, ``executor``, ``workers``, ``max_in_flight`` and
    ``pairs_per_task`` are :func:`mille.lab.match.run_batches`'.  Ctrl-C stops the run with everything
    finished kept, the report marked ``interrupted``.
    """
    if len(players) < 2:
        raise ValueError("a tournament needs at least two players")
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise ValueError(f"player {twice[0]!r} named twice")
    if games < 1 or (pairs_per_task is not None and pairs_per_task < 1) or game_points < 1:
        raise ValueError("games, pairs_per_task and game_points must be at least 1")
    if out is not None and resume is not None:
        raise ValueError("give out or resume, not both")
    for spec in players:
        make_player(spec)  # PlayerSpecError now, not a forfeit in every game
    settings = Settings(tuple(players), (games + 1) // 2, seed, max_think_ms, game_points)
    done: dict[tuple[int, int], PairResult] = {}
    writer: ResultsWriter | None = None
    if resume is not None:
        done, good = load_results(resume, settings)
        writer = ResultsWriter(resume, truncate_to=good, header=settings.header() if good == 0 else None)
    elif out is not None:
        if out.exists() and out.stat().st_size > 0:
            raise TournamentError(f"{out} exists: --resume {out} goes on with it (or remove it)")
        writer = ResultsWriter(out, truncate_to=0 if out.exists() else None, header=settings.header())
    resumed = len(done)
    index = {settings.config(i, j): k for k, (i, j) in enumerate(settings.pairings)}
    target = settings.pairs * len(settings.pairings)
    start_time = time.perf_counter()

    def record(batch: Batch, results: list[PairResult]) -> bool:
        k = index[batch.config]
        names = [batch.config.a, batch.config.b]
        for result in results:
            if (k, result.pair) in done:
                continue
            done[(k, result.pair)] = result
            if writer is not None:
                writer.append({"pairing": names, "result": result.to_json()})
        if progress is not None:
            progress(TournamentProgress(len(done), target, resumed, time.perf_counter() - start_time))
        return len(done) >= target

    try:
        if len(done) < target:
            interrupted = run_batches(
                _pairs_to_play(settings, done),
                record,
                jobs=default_jobs() if jobs is None else max(1, jobs),
                executor=executor,
                workers=workers,
                max_in_flight=max_in_flight,
                pairs_per_task=pairs_per_task,
            )
        else:
            interrupted = False
    finally:
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - start_time
    return build_report(settings, done, seconds=seconds, interrupted=interrupted, resumed=resumed, resamples=resamples)


# --------------------------------------------------------------------------
# The report


def build_report(
    settings: Settings,
    done: dict[tuple[int, int], PairResult],
    *,
    seconds: float = 0.0,
    interrupted: bool = False,
    resumed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
) -> dict[str, Any]:
    """The tournament's report: each pairing's match report, the crosstable, the ratings.

    Everything but :data:`TIMING_FIELDS` depends only on ``settings`` and
    the pairs in ``done`` (the bootstrap is seeded from the tournament
    seed), not on the order they were played in, the runner, or a resume.
    """
    n = len(settings.players)
    pairings = settings.pairings
    reports = []
    scores = []
    think = [ThinkStats() for _ in range(n)]
    games = [0] * n
    points = [0.0] * n
    for k, (i, j) in enumerate(pairings):
        pairs = sorted((r for (kk, _), r in done.items() if kk == k), key=lambda r: r.pair)
        reports.append(summarize(settings.config(i, j), pairs))
        scores.append(PairingScores(i, j, tuple(r.a_score for r in pairs)))
        for r in pairs:
            think[i].merge(r.think[0])
            think[j].merge(r.think[1])
            games[i] += 2
            games[j] += 2
            points[i] += r.a_score
            points[j] += 2.0 - r.a_score
    for report in reports:  # per-pairing timing means nothing in a tournament
        for key in ("seconds", "games_per_second", "interrupted"):
            report.pop(key)
    ratings = rate_players(
        n,
        scores,
        anchor=settings.anchor,
        anchor_rating=ANCHOR_RATING,
        resamples=resamples,
        seed=derive_seed("bootstrap", settings.seed),
    )
    cells: list[list[dict[str, Any] | None]] = [[None] * n for _ in range(n)]
    for (i, j), report in zip(pairings, reports):
        cells[i][j] = _cell(report, flip=False)
        cells[j][i] = _cell(report, flip=True)
    rating_rows = [
        {
            "player": settings.players[p],
            "rating": _round(ratings[p].rating, 1),
            "rating_ci95": [_round(ratings[p].low, 1), _round(ratings[p].high, 1)],
            "games": games[p],
            "score": round(points[p] / games[p], 6) if games[p] else None,
            "think_ms": think_summary(think[p]),
        }
        for p in range(n)
    ]
    rating_rows.sort(key=_rating_order)
    pairs_done = len(done)
    return {
        "players": list(settings.players),
        "seed": settings.seed,
        "games_per_pairing": 2 * settings.pairs,
        "pairs_per_pairing": settings.pairs,
        "game_points": settings.game_points,
        "max_think_ms": settings.max_think_ms,
        "pairs": pairs_done,
        "pairs_total": settings.pairs * len(pairings),
        "games": 2 * pairs_done,
        "hands": sum(r.hands for r in done.values()),
        "rating_model": {
            "model": "bradley-terry",
            "scale": "elo",
            "anchor": settings.players[settings.anchor],
            "anchor_rating": ANCHOR_RATING,
            "prior": "one virtual split pair per pairing: a drawn game in every fit, half a pair resampled",
            "interval": "percentile bootstrap over duplicate pairs within each pairing",
            "resamples": resamples,
        },
        "ratings": rating_rows,
        "crosstable": cells,
        "pairings": reports,
        "interrupted": interrupted,
        "resumed_pairs": resumed,
        "seconds": round(seconds, 3),
        "pairs_per_second": round((pairs_done - resumed) / seconds, 4) if seconds > 0 else 0.0,
    }


def _rating_order(row: dict[str, Any]) -> tuple[bool, float, str]:
    """Best first; the unrated last; ties by name."""
    return (row["rating"] is None, -(row["rating"] or 0.0), row["player"])


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _cell(report: dict[str, Any], *, flip: bool) -> dict[str, Any] | None:
    """A crosstable cell from a pairing's report: A's view, or (``flip``) B's."""
    if report["pairs"] == 0:
        return None
    score = report["a_game_win_rate"]
    low, high = report["a_game_win_rate_ci95"]
    margin = report["margin_per_hand"]
    m_low, m_high = report["margin_ci95"]
    if flip:
        score, low, high = 1.0 - score, 1.0 - high, 1.0 - low
        # 0.0 - x, not -x: a margin of 0 stays +0, not -0.
        margin = None if margin is None else 0.0 - margin
        m_low, m_high = (None if m_high is None else 0.0 - m_high), (None if m_low is None else 0.0 - m_low)
    return {
        "games": report["games"],
        "score": round(score, 6),
        "score_ci95": [round(low, 6), round(high, 6)],
        "margin_per_hand": margin,
        "margin_ci95": [m_low, m_high],
        "errors": len(report["errors"]),
    }


def without_timing(report: Any) -> Any:
    """The report without :data:`TIMING_FIELDS` (at any depth): what must not change between runs."""
    if isinstance(report, dict):
        return {k: without_timing(v) for k, v in report.items() if k not in TIMING_FIELDS}
    if isinstance(report, list):
        return [without_timing(v) for v in report]
    return report


#: Width of a crosstable cell, and of the short names heading its rows and columns.
CELL = 12
NAME = 11


def _short(name: str, width: int) -> str:
    return name if len(name) <= width else name[: width - 1] + "~"


def _cell_lines(cell: dict[str, Any] | None) -> tuple[str, str]:
    if cell is None:
        return ("n/a", "")
    # In percent, without the sign, so that the widest ("100 100-100") leaves a space in a cell.
    score = f"{100 * cell['score']:.0f} {100 * cell['score_ci95'][0]:.0f}-{100 * cell['score_ci95'][1]:.0f}"
    margin = cell["margin_per_hand"]
    low, high = cell["margin_ci95"]
    if margin is None:
        margin_text = ""
    elif low is None:
        margin_text = f"{margin:+.0f}"
    else:
        margin_text = f"{margin:+.0f} ±{(high - low) / 2:.0f}"
    return (score, margin_text)


def format_crosstable(report: dict[str, Any], width: int = 80) -> list[str]:
    """The crosstable in blocks of columns that fit ``width``: two lines a row (score and its CI; margin ± half CI)."""
    players = report["players"]
    n = len(players)
    label = 5 + NAME
    per_block = max(1, (width - 1 - label) // CELL)
    rows = [
        "Crosstable: the row player's game score in % against the column player",
        "(95% CI), and its margin per hand (± the half-width of its 95% CI)",
    ]
    for first in range(0, n, per_block):
        columns = range(first, min(n, first + per_block))
        rows.append(
            " " * label + "".join(f"{_short(f'{c + 1} {players[c]}', CELL - 1):<{CELL}}" for c in columns).rstrip()
        )
        for r in range(n):
            texts = [("." if r == c else _cell_lines(report["crosstable"][r][c])[0]) for c in columns]
            margins = [("" if r == c else _cell_lines(report["crosstable"][r][c])[1]) for c in columns]
            rows.append(
                f"{r + 1:>3} {_short(players[r], NAME):<{NAME}} " + "".join(f"{t:<{CELL}}" for t in texts).rstrip()
            )
            rows.append((" " * label + "".join(f"{t:<{CELL}}" for t in margins)).rstrip())
    return rows


def interval_bar(low: float, value: float, high: float, scale: tuple[float, float], width: int) -> str:
    """One player's interval on the shared ``scale``, ``width`` characters: ``[===|===]`` on dots.

    ``|`` is the rating, ``[`` and ``]`` the interval's ends (one ``|``
    alone when the interval has no width at this scale, as the anchor's).
    """
    lo_scale, hi_scale = scale
    span = hi_scale - lo_scale if hi_scale > lo_scale else 1.0

    def at(x: float) -> int:
        return min(width - 1, max(0, round((x - lo_scale) / span * (width - 1))))

    chars = ["."] * width
    a, v, b = at(low), at(value), at(high)
    for k in range(a, b + 1):
        chars[k] = "="
    if b > a:
        chars[a], chars[b] = "[", "]"
    chars[v] = "|"
    return "".join(chars)


def _ms(x: float) -> str:
    """Milliseconds to three figures or so: 0.00213 ms, 7.49 ms, 281 ms."""
    if x >= 100:
        return f"{x:.0f} ms"
    return f"{x:.3g} ms" if x >= 0.001 else f"{x:.2g} ms"


def format_ratings(report: dict[str, Any], *, bars: bool = False, width: int = 80) -> list[str]:
    """The rating list; with ``bars``, each player's interval drawn on one shared scale below it."""
    model = report["rating_model"]
    rows = [
        f"Ratings: Bradley-Terry on the Elo scale, {model['anchor']} = {model['anchor_rating']:.0f}; "
        "95% CI by bootstrap",
        f"over duplicate pairs ({model['resamples']} resamples).  Think time per decision: median, p95.",
    ]
    names = [row["player"] for row in report["ratings"]]
    name_width = min(18, max(6, *(len(n) for n in names)))  # a line fits 79 columns
    rows.append(f"  {'player':<{name_width}}  rating  95% CI         score  games  think median, p95")
    for row in report["ratings"]:
        name = _short(row["player"], name_width)
        think = row["think_ms"]
        think_text = "-" if think is None else f"{_ms(think['median'])}, {_ms(think['p95'])}"
        if row["rating"] is None:
            rows.append(f"  {name:<{name_width}}  no rating (no games)")
            continue
        low, high = row["rating_ci95"]
        ci = "anchor" if row["player"] == model["anchor"] else "" if low is None else f"{low:.0f} to {high:.0f}"
        score = "" if row["score"] is None else f"{100 * row['score']:.1f}%"
        rows.append(
            f"  {name:<{name_width}}  {row['rating']:6.0f}  {ci:<13} {score:>6} {row['games']:>6}  {think_text}"
        )
    rated = [r for r in report["ratings"] if r["rating"] is not None]
    if bars and rated:
        lows = [r["rating_ci95"][0] if r["rating_ci95"][0] is not None else r["rating"] for r in rated]
        highs = [r["rating_ci95"][1] if r["rating_ci95"][1] is not None else r["rating"] for r in rated]
        scale = (min(lows), max(highs))
        bar_width = max(10, width - 1 - (name_width + 4))
        rows.append("")
        left, right = f"{scale[0]:.0f}", f"{scale[1]:.0f}"
        rows.append(" " * (name_width + 4) + left + " " * max(1, bar_width - len(left) - len(right)) + right)
        for r, low, high in zip(rated, lows, highs):
            bar = interval_bar(low, r["rating"], high, scale, bar_width)
            rows.append(f"  {_short(r['player'], name_width):<{name_width}}  {bar}")
    return rows


def format_report(
    report: dict[str, Any], *, bars: bool = False, jobs: int | None = None, cluster: str | None = None
) -> str:
    """The report as text: what was played, the crosstable, the ratings (with ``bars``, drawn), forfeits, timing."""
    n = len(report["players"])
    points = f", {report['game_points']}-point games" if report["game_points"] != GAME_POINTS else ""
    rows = [
        f"mille.tournament: {plural(n, 'player')}, seed {report['seed']}, "
        f"{report['games_per_pairing']} games a pairing{points}",
        f"  {plural(report['pairs'], 'duplicate pair')} of {report['pairs_total']} played, "
        f"{plural(report['hands'], 'hand')}"
        + (f"; {report['resumed_pairs']} from the results file" if report["resumed_pairs"] else ""),
    ]
    if report["interrupted"]:
        rows.append("  INTERRUPTED: a partial result, over the pairs finished")
    if report["pairs"] == 0:
        rows.append("  no pair finished, so no result")
    else:
        rows.append("")
        rows += format_crosstable(report)
        rows.append("")
        rows += format_ratings(report, bars=bars)
        errors = [(p, e) for p in report["pairings"] for e in p["errors"]]
        rows.append("")
        if errors:
            rows.append(f"Forfeits: {len(errors)} game(s):")
            for pairing, e in errors[:10]:
                rows.append(
                    f"  {pairing['a']} vs {pairing['b']}, game {e['game']}, hand {e['hand']}: "
                    f"{e['name']} {e['kind']}: {e['message']}"
                )
            if len(errors) > 10:
                rows.append(f"  ... and {len(errors) - 10} more (--json lists them all)")
        else:
            rows.append("Forfeits: none")
    where = f", cluster {cluster}" if cluster is not None else "" if jobs is None else f", {plural(jobs, 'job')}"
    played = report["pairs"] - report["resumed_pairs"]
    rows.append(
        f"{report['seconds']:.2f} s, {plural(played, 'pair')} played, "
        f"{format_rate(report['pairs_per_second'])} pairs/s{where}"
    )
    return "\n".join(rows)


# --------------------------------------------------------------------------
# Command line


class TournamentBar(StatusLine):
    """The tournament's line: pairs done of all, the rate, elapsed time."""

    def __init__(self, stream: TextIO, target: int, interval: float = 0.5) -> None:
        super().__init__(stream, interval)
        self.target = target
        self.latest: TournamentProgress | None = None
        self.last = 0.0

    def __call__(self, p: TournamentProgress) -> None:
        self.latest = p
        now = time.monotonic()
        if now - self.last >= 0.2 or p.pairs >= p.target_pairs:
            self.last = now
            self.draw()

    def render(self, elapsed: float) -> str:
        p = self.latest
        done = 0 if p is None else p.pairs
        filled = int(20 * done / self.target) if self.target else 20
        head = f"[{'#' * filled}{'.' * (20 - filled)}] {done}/{self.target} pairs, {format_elapsed(elapsed)}"
        if p is None or p.pairs == p.resumed:
            return f"{head}; the first pair is under way"
        rate = (p.pairs - p.resumed) / p.seconds if p.seconds > 0 else 0.0
        resumed = f", {p.resumed} from the file" if p.resumed else ""
        return f"{head}, {format_rate(rate)} pairs/s{resumed}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mille.tournament",
        description="A round robin of duplicate-deal matches between the players named: a crosstable of game "
        "scores and margins per hand with 95% confidence intervals, and Bradley-Terry ratings (Elo scale, "
        "bsd = 1500, or the first player without bsd) with bootstrap intervals.  See docs/tournaments.md.",
        epilog=f"Players: {', '.join(BUILTIN)}, or module:attribute (a class or factory importable from "
        "the current directory; see docs/bots.md).",
    )
    parser.add_argument("players", metavar="PLAYER", nargs="+", help="two or more players")
    parser.add_argument(
        "--games",
        type=int,
        metavar="N",
        default=DEFAULT_GAMES,
        help=f"games per pairing, rounded up to pairs (default {DEFAULT_GAMES})",
    )
    add_run_arguments(parser, "the tournament seed (default 1)", "print the report as one JSON document")
    files = parser.add_mutually_exclusive_group()
    files.add_argument("--out", metavar="FILE", type=Path, help="record every finished pair in FILE (a new file)")
    files.add_argument(
        "--resume", metavar="FILE", type=Path, help="play the pairs missing from FILE (same arguments), adding them"
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
    parser.add_argument("--version", action="version", version=version_text("mille.tournament"))
    args = parser.parse_args(argv)
    if len(args.players) < 2:
        parser.error("name at least two players")
    twice = sorted({p for p in args.players if args.players.count(p) > 1})
    if twice:
        parser.error(f"player {twice[0]} is named twice")
    for option, value, least in (
        ("--games", args.games, 1),
        ("--jobs", args.jobs, 1),
        ("--bootstrap", args.bootstrap, 0),
        ("--pairs-per-task", args.pairs_per_task, 1),
    ):
        if value is not None and value < least:
            parser.error(f"{option} must be at least {least}")
    check_run_arguments(parser, args)
    if args.resume is not None and not args.resume.is_file():
        parser.error(f"--resume {args.resume}: no such file")
    for spec in args.players:
        try:
            make_player(spec)
        except PlayerSpecError as exc:
            parser.error(str(exc))
    jobs = default_jobs() if args.jobs is None else args.jobs
    pairs_total = (args.games + 1) // 2 * len(args.players) * (len(args.players) - 1) // 2
    bar = TournamentBar(sys.stderr, pairs_total) if sys.stderr.isatty() else None
    run = functools.partial(
        run_tournament,
        args.players,
        games=args.games,
        seed=args.seed,
        max_think_ms=args.max_think_ms,
        out=args.out,
        resume=args.resume,
        pairs_per_task=args.pairs_per_task,
        resamples=args.bootstrap,
        progress=bar,
    )

    def fail(message: str, status: int = 1) -> int:
        if bar is not None:
            bar.clear()
        print(f"mille.tournament: {message}", file=sys.stderr)
        return status

    try:
        report = execute(run, args, jobs, args.players, bar, (TournamentError, MatchError))
    except RunFailure as exc:
        record = args.out or args.resume
        kept = f"; what finished is in {record}: --resume {record} goes on" if record and exc.lost else ""
        return fail(f"{exc}{kept}")
    except (TournamentError, MatchError) as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return fail("interrupted before the run started", 130)
    if bar is not None:
        bar.clear()
    if args.json:
        status = write_out(json.dumps(report))
    else:
        text = format_report(
            report, bars=sys.stdout.isatty(), jobs=None if args.cluster else jobs, cluster=args.cluster
        )
        status = write_out(text)
    if status:
        return status
    return 130 if report["interrupted"] else 0


__all__ = [
    "ANCHOR_RATING",
    "FORMAT",
    "TIMING_FIELDS",
    "ResultsWriter",
    "Settings",
    "TournamentError",
    "TournamentProgress",
    "build_report",
    "format_crosstable",
    "format_ratings",
    "format_report",
    "interval_bar",
    "load_results",
    "main",
    "pairing_seed",
    "run_tournament",
    "without_timing",
]
