"""Tournaments at the larger tables (3, 4 and 6 seats): every group of players a table match, resumable, rated.

    python -m mille.tournament --players N A B C ... [--games G] [--out FILE | --resume FILE] [--record FILE]

Every group of as many players as the table has sides (in name order)
plays :func:`~mille.lab.tablematch.run_table_match` (``games`` games, in
whole sets of rotations) on a seed derived from the tournament seed, the
table and the group's names, as a two-seat tournament derives its
pairings' seeds; a group's report is the one ``mille.match --players N``
would give with that seed.

**The results file** (``--out``, ``--resume``) is kept as a two-seat
tournament's is (:mod:`mille.lab.results`: the same writer, the same
refusals of a file that is not one, the same treatment of a last line cut
short), with its own format (:data:`FORMAT`): a header recording what
decides the results, then one line per finished set, ``{"table": [names],
"set": u, "games": [...]}``, written before the set is counted.  A set
depends on its group's seed and its index alone, so a resumed tournament
plays the sets missing and reports what one run straight through reports
(the timing fields apart).  Every line read back is cross-checked
(:func:`check_set`) before it counts.

**Ratings.**  Each game is read as a result between every two sides in
it (``docs/tournaments.md``, "At the larger tables"): a winner beats each
side that did not win, two winners draw, and two sides that both lost are
ranked by their points in the game (equal points: a draw); a side that
forfeited loses to every other.  A set of a group gives each two players
their score over its rotations, counted as one duplicate unit of two
games (scaled to 0..2 at three sides, where a set is three games), and
:func:`mille.lab.bradley_terry.rate_players` fits Bradley-Terry on the Elo scale
with its bootstrap over those units, as the two-seat tournament does with
pairs.  At two sides (four seats) this is exactly the two-seat method; at
three sides the three results of one game are not independent, which the
bootstrap does not see: its intervals are somewhat too narrow there.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine.state import table
from ..files.safeio import shown
from .bradley_terry import PairingScores, rate_players
from .options import DEFAULTS, RunOptions
from .play import derive_seed
from .records import GameRecord, MatchConfig, SetResult, whole
from .report import format_table_report, plural, rounded, summarize_table
from .results import (
    TournamentError,
    check_arguments,
    open_file,
    read_lines,
    same_value,
    shown_value,
)
from .runner import Batch
from .schedule import CHUNK
from .standings import ANCHOR_RATING, DEFAULT_RESAMPLES, MIN_PAIRS_TO_RATE, format_ratings
from .stats import ThinkStats, mean

#: The first line of a table tournament's results file says it is one, and of which format.
FORMAT = "mille.tournament table results"
FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class TableTournamentConfig:
    """What decides a table tournament's results: the table, the players, sets per table, the seed, the limits."""

    seats: int
    players: tuple[str, ...]
    sets: int
    seed: int
    max_think_ms: float | None
    game_points: int
    #: ``--bot-reads-deck`` (:attr:`MatchConfig.bots_read_deck`); not in a results file's header.
    bots_read_deck: bool = False

    @property
    def sides(self) -> int:
        return table(self.seats).sides

    @property
    def groups(self) -> list[tuple[str, ...]]:
        """Every group of as many players as there are sides, in name order: one table match each."""
        return list(itertools.combinations(self.players, self.sides))

    def group_seed(self, group: Sequence[str]) -> int:
        """The seed of a group's match (``mille.match --players N --seed`` it would take)."""
        return derive_seed("table-tournament", self.seed, self.seats, *group)

    def match_config(self, group: Sequence[str]) -> MatchConfig:
        """The match of a group of players, one per side."""
        c = group[2] if len(group) > 2 else None
        seed = self.group_seed(group)
        return MatchConfig(
            group[0], group[1], seed, self.max_think_ms, self.game_points, self.bots_read_deck, self.seats, c
        )

    def header(self) -> dict[str, Any]:
        """The first line of the results file."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "mille": __version__,
            "seats": self.seats,
            "players": list(self.players),
            "sets_per_table": self.sets,
            "seed": self.seed,
            "max_think_ms": self.max_think_ms,
            "game_points": self.game_points,
        }


#: A table tournament's sets read back or played: (group index, set index) -> the set.
Sets = dict[tuple[int, int], SetResult]


def check_set(games: Sequence[GameRecord], config: TableTournamentConfig) -> None:
    """ValueError (saying what) unless ``games`` can be a set of ``config``'s tournament.

    One game per rotation, in order; each game's winners are those with the
    most points, at least ``game_points`` of them, or, after a forfeit, every
    player but the one who forfeited, before anyone reached the end.  What
    cannot be checked without playing the set again is a line made up
    whole and consistent.
    """
    sides = config.sides
    if [g.rotation for g in games] != list(range(sides)):
        raise ValueError(f"a set is {sides} games, one per rotation, in order")
    for g in games:
        which = f"rotation {g.rotation + 1}"
        if list(g.winners) != sorted(set(g.winners)):
            raise ValueError(f"{which}: its winners are not each named once, in order")
        best = max(g.points)
        if g.fault is None:
            if best < config.game_points:
                raise ValueError(f"{which}: it ends before any side has {config.game_points} points")
            if g.winners != tuple(p for p in range(sides) if g.points[p] == best):
                raise ValueError(f"{which}: the winners are not the players with the most points")
            if g.hands < 1:
                raise ValueError(f"{which}: a game over without a hand played")
        else:
            if g.winners != tuple(p for p in range(sides) if p != g.fault.player):
                raise ValueError(f"{which}: the winners are not every player but the one who forfeited")
            if best >= config.game_points:
                raise ValueError(f"{which}: a forfeit after the game was over")


#: What the header's fields are called on the command line, for the refusal message.
_OPTION_OF = {
    "seats": "--players",
    "sets_per_table": "--games (sets per table)",
    "seed": "--seed",
    "max_think_ms": "--max-think-ms",
    "game_points": "game points",
    "mille": "mille version",
}


def _check_header(first: object, config: TableTournamentConfig, path: Path) -> None:
    if not isinstance(first, dict) or first.get("format") != FORMAT:
        if isinstance(first, dict) and first.get("format") == "mille.tournament results":
            raise TournamentError(
                f"{path} is the results file of a two-seat tournament, not of the table of {config.seats}"
            )
        raise TournamentError(f"{path} is not a mille.tournament table results file")
    if not same_value(first.get("version"), FORMAT_VERSION):
        version = shown_value(first.get("version"))
        raise TournamentError(f"{path} is a table results file of format version {version}, not {FORMAT_VERSION}")
    expected = config.header()
    check_arguments(first, expected, path, _OPTION_OF)


def parse_sets(data: bytes, config: TableTournamentConfig, path: Path) -> tuple[Sets, int]:
    """The sets recorded in ``data`` (a table results file's bytes), and its good part's length.

    As :func:`mille.lab.results.read_lines` reads every results file: the
    header of ``config``'s tournament, then sets that add up
    (:func:`check_set`), each of a table of the tournament, no set twice.
    """
    index = {group: k for k, group in enumerate(config.groups)}

    def read(record: object) -> tuple[tuple[int, int], SetResult, str]:
        if not isinstance(record, dict) or set(record) != {"table", "set", "games"}:
            raise ValueError("a record has exactly the fields table, set and games")
        names = record["table"]
        key = tuple(names) if isinstance(names, list) and all(isinstance(n, str) for n in names) else None
        if key is None or key not in index:
            raise ValueError(f"{shown_value(names)} is not a table of this tournament")
        unit = whole(record["set"], "a set", 0, config.sets - 1)
        games = record["games"]
        if not isinstance(games, list):
            raise ValueError("a set's games are not a list")
        played = tuple(GameRecord.from_table_json(unit, g, config.sides) for g in games)
        check_set(played, config)
        think = tuple(ThinkStats() for _ in range(config.sides))  # a larger table's results file keeps none
        return (index[key], unit), SetResult(unit, played, think), f"set {unit + 1} of {shown_value(names)}"

    return read_lines(
        data, path, "mille.tournament table results", lambda first: _check_header(first, config, path), read
    )


def pairwise(g: GameRecord, p: int, q: int) -> float:
    """Player ``p``'s score against ``q`` in one game (1 a win, 0.5 a draw): the rating's reading of a game."""
    p_won, q_won = p in g.winners, q in g.winners
    if p_won != q_won:
        return 1.0 if p_won else 0.0
    if p_won or g.fault is not None:  # both won (a tie, or both outlasted a forfeit)
        return 0.5
    return 1.0 if g.points[p] > g.points[q] else 0.0 if g.points[p] < g.points[q] else 0.5


def run_table_tournament(
    players: Sequence[str],
    *,
    seats: int,
    games: int,
    options: RunOptions = DEFAULTS,
    out: Path | None = None,
    resume: Path | None = None,
    resamples: int = DEFAULT_RESAMPLES,
) -> dict[str, Any]:
    """A round robin of table matches: every group of as many players as the table has sides, in name order.

    Each group plays a match (``games`` games, whole sets) on its own seed
    (:meth:`TableTournamentConfig.group_seed`); a player's standing is its
    mean game score and margin per hand over its groups, and its rating is
    fitted to every game (the module's documentation).  ``out`` (a new
    file) or ``resume`` (a file of the same arguments) records every
    finished set; ``resume`` plays only the sets missing.
    ``options.record``: every game played now, move by move, in one record
    for all the tables (each line names its table's seed, so it replays).
    Ctrl-C (or SIGTERM, through the command line) stops the run with every
    finished set kept, the report marked ``interrupted``.
    """
    tab = table(seats, game_points=options.game_points)
    sides = tab.sides
    if len(players) < sides:
        raise ValueError(f"a tournament at the table of {seats} needs at least {sides} players")
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise ValueError(f"player {twice[0]!r} named twice")
    if games < 1:
        raise ValueError("games must be at least 1")
    if out is not None and resume is not None:
        raise ValueError("give out or resume, not both")
    options.check()
    config = TableTournamentConfig(
        seats,
        tuple(players),
        -(-games // sides),
        options.seed,
        options.max_think_ms,
        options.game_points,
        options.bots_read_deck,
    )
    empty: Sets = {}
    done, results = open_file(
        config.header(), lambda data, path: parse_sets(data, config, path), empty, out=out, resume=resume
    )
    resumed = len(done)
    games_writer = None
    try:
        games_writer = options.recorder(
            "mille.tournament",
            seats=seats,
            players=list(players),
            seed=options.seed,
            sets_per_table=config.sets,
            game_points=options.game_points,
            max_think_ms=options.max_think_ms,
        )
    except BaseException:
        if results is not None:
            results.close()
        raise
    groups = config.groups
    matches = [config.match_config(group) for group in groups]
    index = {match: k for k, match in enumerate(matches)}
    target = config.sets * len(groups)
    start = time.perf_counter()

    def record_batch(batch: Batch, played: list[SetResult]) -> bool:
        k = index[batch.config]
        for r in played:
            if (k, r.unit) in done:
                continue
            if results is not None:  # the file first: a stop while the line is made counts no set it lacks
                results.append({"table": list(groups[k]), "set": r.unit, "games": [g.to_table_json() for g in r.games]})
            done[(k, r.unit)] = r
            if games_writer is not None:
                games_writer.write(batch.config, r)
        return len(done) >= target

    def to_play() -> Any:
        for first in range(0, config.sets, CHUNK):
            for k, match in enumerate(matches):
                for unit in range(first, min(first + CHUNK, config.sets)):
                    if (k, unit) not in done:
                        yield match, unit

    try:
        interrupted = options.run(to_play(), record_batch, games_writer) if len(done) < target else False
    finally:
        try:
            if results is not None:
                results.close()
        finally:
            if games_writer is not None:
                games_writer.close()
    seconds = time.perf_counter() - start
    reports = []
    for k, match in enumerate(matches):
        sets = [done[(k, u)] for u in range(config.sets) if (k, u) in done]
        cut = interrupted and len(sets) < config.sets
        reports.append(summarize_table(match, sets, seconds=seconds, interrupted=cut))
    return build_table_report(
        config,
        done,
        reports,
        seconds=seconds,
        interrupted=interrupted,
        resumed=resumed,
        resamples=resamples,
    )


def build_table_report(
    config: TableTournamentConfig,
    done: Sets,
    groups: list[dict[str, Any]],
    *,
    seconds: float,
    interrupted: bool,
    resumed: int,
    resamples: int,
) -> dict[str, Any]:
    """The tournament's report: standings, ratings and each table's report (``done``: every set counted)."""
    players = list(config.players)
    n = len(players)
    number = {name: i for i, name in enumerate(players)}
    standings: list[dict[str, Any]] = []
    for name in players:
        rows = [
            row for g in groups for row in g["per_player"] if row["player"] == name and row["game_score"] is not None
        ]
        standings.append(
            {
                "player": name,
                "tables": len(rows),
                "game_score": mean([r["game_score"] for r in rows], 4),
                "margin_per_hand": mean([r["margin_per_hand"] for r in rows], 2),
            }
        )
    standings.sort(key=lambda r: (-(r["game_score"] or 0.0), -(r["margin_per_hand"] or 0.0)))
    # The ratings: each two players' scores against each other, set by set, over every table they shared.
    counted = {(k, u) for (k, u) in done if k < len(groups)}  # the sets of the tables this run reports
    units: dict[tuple[int, int], list[float]] = {}
    scale = 2.0 / config.sides  # a set as a unit of two games
    games_of = [0] * n
    points_of = [0.0] * n
    for k, group in enumerate(config.groups):
        ids = [number[name] for name in group]
        for u in range(config.sets):
            if (k, u) not in counted:
                continue
            played = done[(k, u)].games
            for a, b in itertools.combinations(range(config.sides), 2):
                score = sum(pairwise(g, a, b) for g in played)
                units.setdefault((ids[a], ids[b]), []).append(score * scale)
            for a in range(config.sides):
                games_of[ids[a]] += len(played)
                points_of[ids[a]] += sum(pairwise(g, a, b) for g in played for b in range(config.sides) if b != a) / (
                    config.sides - 1
                )
    scores = [PairingScores(i, j, tuple(v)) for (i, j), v in sorted(units.items())]
    anchor = number.get("bsd", 0)
    least = min((len(p.pair_scores) for p in scores), default=0)
    withheld = 0 < least < MIN_PAIRS_TO_RATE
    ratings = (
        []
        if withheld or not scores
        else rate_players(
            n,
            scores,
            anchor=anchor,
            anchor_rating=ANCHOR_RATING,
            resamples=resamples,
            seed=derive_seed("table-bootstrap", config.seed, config.seats),
        )
    )
    rating_rows: list[dict[str, Any]] = []
    for p in range(n):
        r = ratings[p] if ratings else None
        rating_rows.append(
            {
                "player": players[p],
                "rating": None if r is None else rounded(r.rating, 1),
                "rating_ci95": [None, None] if r is None else [rounded(r.low, 1), rounded(r.high, 1)],
                "games": games_of[p],
                "score": round(points_of[p] / games_of[p], 6) if games_of[p] else None,
                "think_ms": None,
            }
        )
    if withheld or not ratings:
        rating_rows.sort(key=lambda row: (-(row["score"] or 0.0), row["player"]))
    else:
        rating_rows.sort(key=lambda row: (row["rating"] is None, -(row["rating"] or 0.0), row["player"]))
    report: dict[str, Any] = {
        "seats": config.seats,
        "sides": config.sides,
        "players": players,
        "seed": config.seed,
        "games_per_table": config.sets * config.sides,
        "sets_per_table": config.sets,
        "game_points": config.game_points,
        "max_think_ms": config.max_think_ms,
        "sets": len(counted),
        "sets_total": config.sets * len(config.groups),
        "standings": standings,
        "rating_model": {
            "model": "bradley-terry",
            "scale": "elo",
            "anchor": players[anchor],
            "anchor_rating": ANCHOR_RATING,
            "reading": "each game a result between every two sides: a winner beats a side that did not win, two "
            "winners draw, two sides that lost are ranked by their points, a forfeit loses to every side",
            "prior": "one virtual split pair per pairing: a drawn game in every fit, half a pair resampled",
            "interval": "percentile bootstrap over sets within each pair of players (a set counted as two games)",
            "resamples": resamples,
            "units": "sets",
        },
        "ratings": rating_rows,
        "tables": groups,
        "interrupted": interrupted,
        "resumed_sets": resumed,
        "seconds": round(seconds, 3),
    }
    if withheld:
        report["ratings_withheld"] = {
            "reason": "too few sets to rate",
            "unit": "set",
            "units": "sets",
            "games_needed": MIN_PAIRS_TO_RATE * config.sides,
            "least_pairs_per_pairing": least,
            "min_pairs_per_pairing": MIN_PAIRS_TO_RATE,
        }
    return report


def format_table_tournament(report: dict[str, Any]) -> str:
    """The standings, the ratings, then each table's report."""
    lines = [
        f"Tournament at the table of {report['seats']}, seed {report['seed']}: "
        f"{plural(len(report['tables']), 'table')} of {plural(report['games_per_table'], 'game')}",
    ]
    if report["interrupted"]:
        lines.append(f"  interrupted: {report['sets']} of {report['sets_total']} sets finished")
    if report["resumed_sets"]:
        lines.append(f"  {plural(report['resumed_sets'], 'set')} read back from the results file")
    lines.append("  standings (mean over the player's tables):")
    for i, row in enumerate(report["standings"], 1):
        if row["game_score"] is None:
            lines.append(f"  {i:>2}. {shown(row['player'])}: no set finished")
            continue
        lines.append(
            f"  {i:>2}. {shown(row['player'])}: game score {row['game_score']:.3f}, "
            f"margin {row['margin_per_hand']:+.1f}/hand, {plural(row['tables'], 'table')}"
        )
    if any(row["rating"] is not None for row in report["ratings"]) or "ratings_withheld" in report:
        lines += ["", *format_ratings(report)]
    for g in report["tables"]:
        lines += ["", format_table_report(g)]
    return "\n".join(lines)


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "TableTournamentConfig",
    "build_table_report",
    "check_set",
    "format_table_tournament",
    "pairwise",
    "parse_sets",
    "run_table_tournament",
]
