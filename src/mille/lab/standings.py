"""A tournament's report: each match's report, the crosstable or standings, the ratings, as JSON and as text.

:func:`build_report` gives, at two seats, the crosstable (the row player's
game score and margin per hand against the column player, with 95%
intervals), then a rating list: a Bradley-Terry model fitted jointly to
every game, on the Elo scale, anchored at ``bsd`` = :data:`ANCHOR_RATING`
(the first player named when ``bsd`` is not in it), with 95% intervals
from a bootstrap over duplicate pairs
(:func:`mille.lab.bradley_terry.rate_players`), and each player's think
times.  At the larger tables it gives the standings (each player's mean
over its tables), the same ratings fitted to every game read between every
two sides (:func:`pairwise`: a set counted as a duplicate unit of two
games), and each table's report; each table keeps the report it has always
had.  It depends on the tournament's configuration and the sets finished
alone, not on the order they were played in, the runner, or a resume
(:data:`TIMING_FIELDS` apart).  :func:`format_report` writes it as text.
``docs/tournaments.md`` explains the arithmetic.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..engine.scoring import GAME_POINTS
from ..files.safeio import shown
from .bradley_terry import PairingScores, Rating, rate_players
from .play import derive_seed
from .records import GameRecord, SetResult
from .report import TIMING_FIELDS as MATCH_TIMING_FIELDS
from .report import (
    format_rate,
    format_table_report,
    listing,
    named,
    plural,
    ran_on,
    rounded,
    summarize,
    summarize_table,
    think_summary,
)
from .schedule import TournamentConfig
from .stats import ThinkStats, mean

#: Report fields (at any depth) that depend on the machine and the moment, not on the arguments.
TIMING_FIELDS = (*MATCH_TIMING_FIELDS, "pairs_per_second")

#: The rating of the anchor player.
ANCHOR_RATING = 1500.0

#: Bootstrap resamples for the rating intervals.
DEFAULT_RESAMPLES = 1000

#: Fewer duplicate pairs than this in a pairing, and no player is rated: a bootstrap over one or
#: two pairs gives intervals that look exact (one pair split 1-1 resamples to itself every time)
#: and mean nothing.  Ten pairs are 20 games a pairing (``--games 20``).
MIN_PAIRS_TO_RATE = 10


def build_report(
    config: TournamentConfig,
    done: dict[tuple[int, int], SetResult],
    *,
    seconds: float = 0.0,
    interrupted: bool = False,
    resumed: int = 0,
    resamples: int = DEFAULT_RESAMPLES,
) -> dict[str, Any]:
    """The tournament's report: each pairing's match report, the crosstable, the ratings.

    Everything but :data:`TIMING_FIELDS` depends only on ``config`` and
    the sets in ``done`` (the bootstrap is seeded from the tournament
    seed), not on the order they were played in, the runner, or a resume.
    At the larger tables the report is theirs: each player's standing (its
    mean game score and margin per hand over its tables), the ratings
    fitted to every game read between every two sides (:func:`pairwise`),
    then each table's report (``docs/tournaments.md``, "At the larger
    tables").
    """
    if config.seats != 2:
        return _build_table_report(
            config, done, seconds=seconds, interrupted=interrupted, resumed=resumed, resamples=resamples
        )
    n = len(config.players)
    pairings = config.pairings
    reports = []
    scores = []
    think = [ThinkStats() for _ in range(n)]
    games = [0] * n
    points = [0.0] * n
    for k, (i, j) in enumerate(pairings):
        pairs = sorted((r for (kk, _), r in done.items() if kk == k), key=lambda r: r.pair)
        reports.append(summarize(config.match_config(i, j), pairs))
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
    least = min((len(p.pair_scores) for p in scores if p.pair_scores), default=0)
    withheld = 0 < least < MIN_PAIRS_TO_RATE
    if withheld:
        ratings = [Rating(None, None, None)] * n
    else:
        ratings = rate_players(
            n,
            scores,
            anchor=config.anchor,
            anchor_rating=ANCHOR_RATING,
            resamples=resamples,
            seed=derive_seed("bootstrap", config.seed),
        )
    cells: list[list[dict[str, Any] | None]] = [[None] * n for _ in range(n)]
    for (i, j), report in zip(pairings, reports):
        cells[i][j] = _cell(report, flip=False)
        cells[j][i] = _cell(report, flip=True)
    rating_rows = [
        {
            "player": config.players[p],
            "rating": rounded(ratings[p].rating, 1),
            "rating_ci95": [rounded(ratings[p].low, 1), rounded(ratings[p].high, 1)],
            "games": games[p],
            "score": round(points[p] / games[p], 6) if games[p] else None,
            "think_ms": think_summary(think[p]),
        }
        for p in range(n)
    ]
    rating_rows.sort(key=_score_order if withheld else _rating_order)
    pairs_done = len(done)
    report = {
        "players": list(config.players),
        "seed": config.seed,
        "games_per_pairing": 2 * config.pairs,
        "pairs_per_pairing": config.pairs,
        "game_points": config.game_points,
        "max_think_ms": config.max_think_ms,
        "pairs": pairs_done,
        "pairs_total": config.pairs * len(pairings),
        "games": 2 * pairs_done,
        "hands": sum(r.hands for r in done.values()),
        "rating_model": {
            "model": "bradley-terry",
            "scale": "elo",
            "anchor": config.players[config.anchor],
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
    if withheld:
        report["ratings_withheld"] = {
            "reason": "too few pairs to rate",
            "least_pairs_per_pairing": least,
            "min_pairs_per_pairing": MIN_PAIRS_TO_RATE,
        }
    return report


def pairwise(g: GameRecord, p: int, q: int) -> float:
    """Player ``p``'s score against ``q`` in one game (1 a win, 0.5 a draw): the rating's reading of a game."""
    p_won, q_won = p in g.winners, q in g.winners
    if p_won != q_won:
        return 1.0 if p_won else 0.0
    if p_won or g.fault is not None:  # both won (a tie, or both outlasted a forfeit)
        return 0.5
    return 1.0 if g.points[p] > g.points[q] else 0.0 if g.points[p] < g.points[q] else 0.5


def _build_table_report(
    config: TournamentConfig,
    done: dict[tuple[int, int], SetResult],
    *,
    seconds: float,
    interrupted: bool,
    resumed: int,
    resamples: int,
) -> dict[str, Any]:
    """:func:`build_report` at the larger tables: standings, ratings and each table's report."""
    groups = []
    for k, group in enumerate(config.pairings):
        sets = [done[(k, u)] for u in range(config.pairs) if (k, u) in done]
        cut = interrupted and len(sets) < config.pairs
        groups.append(summarize_table(config.match_config(*group), sets, seconds=seconds, interrupted=cut))
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
    units: dict[tuple[int, int], list[float]] = {}
    scale = 2.0 / config.sides  # a set as a unit of two games
    games_of = [0] * n
    points_of = [0.0] * n
    for k, group in enumerate(config.pairings):
        ids = list(group)
        for u in range(config.pairs):
            if (k, u) not in done:
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
        "games_per_table": config.pairs * config.sides,
        "sets_per_table": config.pairs,
        "game_points": config.game_points,
        "max_think_ms": config.max_think_ms,
        "sets": len(done),
        "sets_total": config.pairs * len(config.pairings),
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


def _score_order(row: dict[str, Any]) -> tuple[float, str]:
    """Best score first (the ratings withheld); ties by name."""
    return (-(row["score"] or 0.0), row["player"])


def _rating_order(row: dict[str, Any]) -> tuple[bool, float, str]:
    """Best first; the unrated last; ties by name."""
    return (row["rating"] is None, -(row["rating"] or 0.0), row["player"])


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
    players = [shown(name) for name in report["players"]]  # a name is anything the command line or a file gave
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
    """The rating list; with ``bars``, each player's interval drawn on one shared scale below it.

    With too few pairs to rate (``ratings_withheld``), the list says so and
    gives each player's score and think times only.
    """
    model = report["rating_model"]
    withheld = report.get("ratings_withheld")
    if withheld is not None:
        return _format_unrated(report, withheld)
    rows = [
        f"Ratings: Bradley-Terry on the Elo scale, {shown(model['anchor'])} = {model['anchor_rating']:.0f}; "
        "95% CI by bootstrap",
        f"over {model.get('units', 'duplicate pairs')} ({model['resamples']} resamples).  Think time per decision: "
        "median, p95.",
    ]
    names = [shown(row["player"]) for row in report["ratings"]]
    name_width = min(18, max(6, *(len(n) for n in names)))  # a line fits 79 columns
    rows.append(f"  {'player':<{name_width}}  rating  95% CI         score  games  think median, p95")
    for row in report["ratings"]:
        name = _short(shown(row["player"]), name_width)
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
            rows.append(f"  {_short(shown(r['player']), name_width):<{name_width}}  {bar}")
    return rows


def _format_unrated(report: dict[str, Any], withheld: dict[str, Any]) -> list[str]:
    least, needed = withheld["least_pairs_per_pairing"], withheld["min_pairs_per_pairing"]
    unit = withheld.get("unit", "duplicate pair")  # a table tournament's: "set"
    games = withheld.get("games_needed", 2 * needed)
    units = withheld.get("units", "pairs")
    rows = [
        f"Ratings: too few {units} to rate ({plural(least, unit)} in a pairing; at least {needed}",
        f"in every pairing are needed: --games {games}).  Think time a decision: median, p95.",
    ]
    names = [shown(row["player"]) for row in report["ratings"]]
    name_width = min(18, max(6, *(len(n) for n in names)))
    rows.append(f"  {'player':<{name_width}}  rating  95% CI         score  games  think median, p95")
    for row in report["ratings"]:
        think = row["think_ms"]
        think_text = "-" if think is None else f"{_ms(think['median'])}, {_ms(think['p95'])}"
        score = "" if row["score"] is None else f"{100 * row['score']:.1f}%"
        rows.append(
            f"  {_short(shown(row['player']), name_width):<{name_width}}  {'-':>6}  {'-':<13} {score:>6} "
            f"{row['games']:>6}  {think_text}"
        )
    return rows


def format_report(
    report: dict[str, Any], *, bars: bool = False, jobs: int | None = None, cluster: str | None = None
) -> str:
    """The report as text: what was played, the crosstable, the ratings (with ``bars``, drawn), forfeits, timing.

    At the larger tables: the standings, the ratings, then each table's report.
    """
    if "seats" in report:
        return _format_table_report(report)
    n = len(report["players"])
    points = f", {report['game_points']}-point games" if report["game_points"] != GAME_POINTS else ""
    rows = [
        f"mille.tournament: {plural(n, 'player')}, seed {report['seed']}, "
        f"{report['games_per_pairing']} games a pairing{points}",
        f"  {plural(report['pairs'], 'duplicate pair')} of {report['pairs_total']} played, "
        f"{plural(report['hands'], 'hand')}"
        + (f"; {report['resumed_pairs']} from the results file" if report["resumed_pairs"] else ""),
    ]
    bots = report.get("bot_names")
    if bots:  # the exec: bots' own names, so that two from one directory can be told apart
        rows += [f"  bot {named(spec, name)}" for spec, name in bots.items()]
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
            rows += listing(
                f"Forfeits: {len(errors)} game(s):",
                "  ",
                [
                    shown(
                        f"{pairing['a']} vs {pairing['b']}, game {e['game']}, hand {e['hand']}: "
                        f"{e['name']} {e['kind']}: {e['message']}"
                    )
                    for pairing, e in errors
                ],
            )
        else:
            rows.append("Forfeits: none")
    played = report["pairs"] - report["resumed_pairs"]
    rows.append(
        f"{report['seconds']:.2f} s, {plural(played, 'pair')} played, "
        f"{format_rate(report['pairs_per_second'])} pairs/s{ran_on(jobs, cluster)}"
    )
    return "\n".join(rows)


def _format_table_report(report: dict[str, Any]) -> str:
    """:func:`format_report` at the larger tables: the standings, the ratings, then each table's report."""
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
    "ANCHOR_RATING",
    "DEFAULT_RESAMPLES",
    "MIN_PAIRS_TO_RATE",
    "TIMING_FIELDS",
    "build_report",
    "format_crosstable",
    "format_ratings",
    "format_report",
    "interval_bar",
    "pairwise",
    "without_timing",
]
