"""A match's report: the summary of its sets (a JSON-ready dict) and the same as text.

At two seats :func:`summarize` gives A's game score with a Wilson
interval, the mean score margin per hand with an interval computed over
the duplicate pairs (so that the pairing's variance reduction counts),
think times and errors; at the larger tables :func:`summarize_table` gives
each player's game score and margin per hand, averaged over each set's
rotations, with Student's t intervals over the sets (the rotations'
variance reduction counts).  Each table keeps the report it has always
had; ``docs/bots.md`` explains the arithmetic (:mod:`mille.lab.stats`).
The same sets give the same report apart from :data:`TIMING_FIELDS`,
whatever ran them.  :func:`format_report` writes either as text; the
number formatting here (:func:`plural`, :func:`format_rate`, ...) serves
the tournament's report (:mod:`mille.lab.standings`) and the progress
lines too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..engine.scoring import GAME_POINTS
from ..files.safeio import shown
from .records import MatchConfig, SetResult
from .stats import ThinkStats, game_score_interval, mean, ratio_interval, t_interval

#: Report fields that depend on the machine and the moment, not on the seed.
TIMING_FIELDS = ("think_ms", "seconds", "games_per_second")

#: The report's names of players A and B (its ``think_ms`` keys, its errors' ``player``).
PLAYER_KEYS = ("a", "b")


def rounded(value: float | None, digits: int) -> float | None:
    """``round(value, digits)``, None staying None."""
    return None if value is None else round(value, digits)


def think_summary(think: ThinkStats) -> dict[str, float] | None:
    """Median, p95 and max in milliseconds; None for a player that made no decision."""
    return think.summary() if think.count else None


def summarize(
    config: MatchConfig,
    pairs: Sequence[SetResult],
    *,
    seconds: float = 0.0,
    interrupted: bool = False,
) -> dict[str, Any]:
    """The report of a two-seat match over these pairs (any order: they are sorted by index).

    With no pairs there is no result: the score, its interval, the design
    effect and the think times are None (null in JSON), not zeros.
    """
    pairs = sorted(pairs, key=lambda p: p.pair)
    games = [g for p in pairs for g in p.games]
    hands = sum(p.hands for p in pairs)
    a_wins = sum(1 for g in games if g.winner == 0)
    b_wins = sum(1 for g in games if g.winner == 1)
    ties = sum(1 for g in games if g.winner is None)
    rate: float | None = None
    rate_ci: tuple[float | None, float | None] = (None, None)
    deff: float | None = None
    if pairs:
        rate, rate_ci, deff = game_score_interval([p.a_score for p in pairs])
    margin = ratio_interval([p.margin for p in pairs], [p.hands for p in pairs])
    hand_margins = [m for g in games for m in g.margins]
    unpaired: float | None = None
    if len(hand_margins) >= 2:
        mean = math.fsum(hand_margins) / len(hand_margins)
        variance = math.fsum((m - mean) ** 2 for m in hand_margins) / (len(hand_margins) - 1)
        unpaired = math.sqrt(variance / len(hand_margins))
    think = (ThinkStats(), ThinkStats())
    for p in pairs:
        think[0].merge(p.think[0])
        think[1].merge(p.think[1])
    errors = [
        {
            "game": g.index + 1,
            "pair": g.pair + 1,
            "hand": g.fault.hand + 1,
            "player": PLAYER_KEYS[g.fault.player],
            "name": (config.a, config.b)[g.fault.player],
            "seat": g.a_seat if g.fault.player == 0 else 1 - g.a_seat,
            "kind": g.fault.kind,
            "message": g.fault.message,
        }
        for g in games
        if g.fault is not None
    ]
    return {
        "a": config.a,
        "b": config.b,
        "seed": config.seed,
        "games": len(games),
        "pairs": len(pairs),
        "hands": hands,
        "game_points": config.game_points,
        "max_think_ms": config.max_think_ms,
        "a_game_wins": a_wins,
        "b_game_wins": b_wins,
        "ties": ties,
        "a_game_win_rate": rounded(rate, 6),
        "a_game_win_rate_ci95": [rounded(rate_ci[0], 6), rounded(rate_ci[1], 6)],
        "design_effect": rounded(deff, 4),
        "a_points_per_hand": rounded(sum(g.a_points for g in games) / hands if hands else None, 3),
        "b_points_per_hand": rounded(sum(g.b_points for g in games) / hands if hands else None, 3),
        "margin_per_hand": rounded(margin.estimate, 3),
        "margin_ci95": [rounded(margin.low, 3), rounded(margin.high, 3)],
        "margin_se": rounded(margin.se, 3),
        "margin_se_unpaired": rounded(unpaired, 3),
        "think_ms": {"a": think_summary(think[0]), "b": think_summary(think[1])},
        "errors": errors,
        # Pair by pair (same seed, same deals and dice: two runs with one
        # player changed can be compared pair against pair).
        "by_pair": [{"pair": p.pair + 1, "a_score": p.a_score, "margin": p.margin, "hands": p.hands} for p in pairs],
        "interrupted": interrupted,
        "seconds": round(seconds, 3),
        "games_per_second": round(len(games) / seconds, 4) if seconds > 0 else 0.0,
    }


def summarize_table(
    config: MatchConfig, sets: Sequence[SetResult], *, seconds: float = 0.0, interrupted: bool = False
) -> dict[str, Any]:
    """The report of a match at a larger table over these sets (any order: they are sorted by index).

    A player's score in a set is its average over the set's rotations: the
    game score (1 for a game won, the winners sharing a tie, 0 for a game
    lost) and the points it scored minus the average of the other sides',
    per hand; the intervals are Student's t over the sets.  With no sets
    the means and intervals are None.
    """
    players = config.players
    sides = len(players)
    scores: list[list[float]] = [[] for _ in players]
    margins: list[list[float]] = [[] for _ in players]
    wins = [0.0] * sides
    hands_played = 0
    errors: list[dict[str, Any]] = []
    ordered = sorted(sets, key=lambda r: r.unit)
    for r in ordered:
        set_score = [0.0] * sides
        set_margin = [0.0] * sides
        set_hands = 0
        for g in r.games:
            set_hands += g.hands
            for p in g.winners:
                set_score[p] += 1.0 / len(g.winners)
                wins[p] += 1.0 / len(g.winners)
            for p in range(sides):
                others = [g.points[q] for q in range(sides) if q != p]
                set_margin[p] += g.points[p] - sum(others) / len(others)
            if g.fault is not None:
                errors.append(
                    {
                        "set": r.unit + 1,
                        "rotation": g.rotation + 1,
                        "player": players[g.fault.player],
                        "kind": g.fault.kind,
                        "message": g.fault.message,
                    }
                )
        hands_played += set_hands
        for p in range(sides):
            scores[p].append(set_score[p] / len(r.games))
            margins[p].append(set_margin[p] / set_hands if set_hands else 0.0)
    return {
        "seats": config.seats,
        "sides": sides,
        "players": list(players),
        "seed": config.seed,
        "game_points": config.game_points,
        "max_think_ms": config.max_think_ms,
        "sets": len(ordered),
        "games": len(ordered) * sides,
        "hands": hands_played,
        "per_player": [
            {
                "player": players[p],
                "game_score": mean(scores[p], 4),
                "game_score_interval": t_interval(scores[p], 0.0, 1.0),
                "games_won": round(wins[p], 2),
                "margin_per_hand": mean(margins[p], 2),
                "margin_interval": t_interval(margins[p]),
            }
            for p in range(sides)
        ],
        "errors": errors,
        "seconds": round(seconds, 3),
        "interrupted": interrupted,
    }


# --------------------------------------------------------------------------
# Text (the tournament's report and the progress lines write numbers alike)


def percent(x: float) -> str:
    """``61.9%``."""
    return f"{100.0 * x:.1f}%"


def _signed(x: float | None) -> str:
    return "n/a" if x is None else f"{x:+.1f}"


def plural(n: int, word: str) -> str:
    """``1 pair``, ``2 pairs``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def format_rate(x: float) -> str:
    """A rate that stays readable when slow: 173, 61.9, 5.0, 0.0445 (three figures below 1)."""
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.1f}" if x >= 1 or x == 0 else f"{x:.3g}"


def listing(title: str, indent: str, items: Sequence[str], most: int = 10) -> list[str]:
    """``title``, then the first ``most`` items indented, then how many more there are (``--json`` has them all)."""
    rows = [title] + [indent + item for item in items[:most]]
    if len(items) > most:
        rows.append(f"{indent}... and {len(items) - most} more (--json lists them all)")
    return rows


def ran_on(jobs: int | None, cluster: str | None) -> str:
    """Where a run ran, for the end of its timing line: ``, cluster ADDRESS``, ``, 2 jobs``, or nothing."""
    if cluster is not None:
        return f", cluster {shown(cluster)}"
    return "" if jobs is None else f", {plural(jobs, 'job')}"


def format_think(t: dict[str, float] | None) -> str:
    return "no decisions" if t is None else f"median {t['median']:.3f} ms, p95 {t['p95']:.3f} ms, max {t['max']:.3f} ms"


def format_sprt(sprt: dict[str, Any], *, interrupted: bool = False) -> list[str]:
    """The report's lines for ``--sprt``: the decision, then the hypotheses."""
    if sprt["accepted"] is not None:
        what = f"{sprt['accepted']} accepted after {plural(sprt['pairs'], 'pair')}"
    elif interrupted:
        what = f"undecided: interrupted after {plural(sprt['pairs'], 'pair')}"
    elif sprt["capped"]:
        cap = f"{sprt['cap_games']} games" if sprt["cap_games"] is not None else f"{sprt['cap_hands']} hands"
        what = f"undecided after {plural(sprt['pairs'], 'pair')}, the cap of {cap}"
    else:
        what = f"undecided after {plural(sprt['pairs'], 'pair')}"
    return [
        f"  SPRT             {what}",
        f"                   LLR {sprt['llr']:+.2f} (bounds {sprt['lower_bound']:+.2f} and "
        f"{sprt['upper_bound']:+.2f}; alpha {sprt['alpha']:g}, beta {sprt['beta']:g})",
        f"                   H0: {sprt['elo0']:g} Elo, game score {percent(sprt['score0'])}; "
        f"H1: {sprt['elo1']:g} Elo, {percent(sprt['score1'])}",
    ]


def replay_line(seed: int) -> str:
    """The report's last line when the run drew its seed (no ``--seed``): how to replay it.

    The seed is said only at the end: while the run lasts, nothing a player
    can read derives the deals (docs/tournaments.md, "Seeds"); after it, the
    deals are public, as a card room's hand history is.
    """
    return f"  seed drawn at random: replay with --seed {seed}"


def bot_name(player: object) -> str | None:
    """The name an ``exec:`` bot gave in its hello (None for any other player).

    Two bots run from one directory (``exec:./bot``) have the same spec;
    the report shows their own names beside it so they can be told apart
    (docs/protocol.md, ``hello``).
    """
    from ..players.external import ExternalPlayer

    return player.name if isinstance(player, ExternalPlayer) else None


#: Characters of a bot's hello name in a report's line (the name is at most 64).
NAME_WIDTH = 24


def named(spec: str, name: str | None) -> str:
    """``spec`` as a report shows it, with the bot's hello name (escaped, cut to :data:`NAME_WIDTH`) if it has one."""
    text = shown(spec)  # names from the command line, and from a bot: anything
    if name is None:
        return text
    said = shown(name)
    return f"{text} ({said if len(said) <= NAME_WIDTH else said[: NAME_WIDTH - 1] + '~'})"


def format_report(report: dict[str, Any], *, jobs: int | None = None, cluster: str | None = None) -> str:
    """The report as text, in lines of at most 79 columns (apart from long player names and error messages).

    A larger table's report (:func:`summarize_table`) is :func:`format_table_report`'s.
    """
    if "seats" in report:
        return format_table_report(report)
    names = report.get("bot_names") or {}
    a, b = named(report["a"], names.get("a")), named(report["b"], names.get("b"))
    timing = f"  {report['seconds']:.2f} s, {format_rate(report['games_per_second'])} games/s{ran_on(jobs, cluster)}"
    points = f"; {report['game_points']}-point games" if report["game_points"] != GAME_POINTS else ""
    rows = [f"mille.match: A = {a}, B = {b}"]
    if report["pairs"] == 0:
        why = "interrupted before any pair finished" if report["interrupted"] else "no pair played"
        rows += [f"  seed {report['seed']}{points}: {why}, so no result", timing]
        return "\n".join(rows)
    low, high = report["a_game_win_rate_ci95"]
    m_low, m_high = report["margin_ci95"]
    rows += [
        f"  seed {report['seed']}; {plural(report['games'], 'game')} "
        f"({plural(report['pairs'], 'duplicate pair')}), {plural(report['hands'], 'hand')}{points}",
    ]
    if report["interrupted"]:
        rows.append("  INTERRUPTED: a partial result, over the pairs finished")
    rows += [
        f"  games won        A {report['a_game_wins']}, B {report['b_game_wins']}, ties {report['ties']}",
        f"  A's game score   {percent(report['a_game_win_rate'])}  "
        f"(95% CI {percent(low)} to {percent(high)}; a tie counts half)",
    ]
    if "sprt" in report:
        rows += format_sprt(report["sprt"], interrupted=report["interrupted"])
    if report["margin_per_hand"] is not None:
        interval = "" if m_low is None else f"  (95% CI {_signed(m_low)} to {_signed(m_high)})"
        rows.append(f"  margin per hand  A {_signed(report['margin_per_hand'])} points{interval}")
        if report["margin_se"] is not None and report["margin_se_unpaired"] is not None:
            rows.append(
                f"  standard error   {report['margin_se']:.1f} over duplicate pairs "
                f"({report['margin_se_unpaired']:.1f} for independent hands)"
            )
        rows.append(f"  points per hand  A {report['a_points_per_hand']:.1f}, B {report['b_points_per_hand']:.1f}")
    for key in PLAYER_KEYS:
        rows.append(f"  think time {key.upper()}     {format_think(report['think_ms'][key])}")
    errors = report["errors"]
    if errors:
        rows += listing(
            f"  errors           {len(errors)} game(s) forfeited:",
            "    ",
            [
                shown(
                    f"game {e['game']} (pair {e['pair']}), hand {e['hand']}: "
                    f"{e['player'].upper()} ({e['name']}) {e['kind']}: {e['message']}"
                )
                for e in errors
            ],
        )
    else:
        rows.append("  errors           none")
    rows.append(timing)
    return "\n".join(rows)


def format_table_report(report: dict[str, Any]) -> str:
    """A larger table's report as text: one line per player (its side's score over the rotations, with intervals)."""
    kind = "partnerships" if report["seats"] > report["sides"] else "each for themselves"
    lines = [
        f"Table of {report['seats']} ({report['sides']} sides, {kind}), seed {report['seed']}: "
        f"{plural(report['sets'], 'set')} of {report['sides']} rotations, {plural(report['games'], 'game')}, "
        f"{plural(report['hands'], 'hand')}",
    ]

    def span(iv: list[float] | tuple[float, float] | None, fmt: str) -> str:
        return "" if iv is None else f" [{format(iv[0], fmt)}, {format(iv[1], fmt)}]"

    if report["interrupted"]:
        lines.append(f"  interrupted (Ctrl-C): the sets finished, {report['sets']}")
    for row in report["per_player"]:
        if row["game_score"] is None:
            lines.append(f"  {shown(row['player'])}: no set finished")
            continue
        lines.append(
            f"  {shown(row['player'])}: game score {row['game_score']:.3f}{span(row['game_score_interval'], '.3f')}, "
            f"margin {row['margin_per_hand']:+.1f}/hand{span(row['margin_interval'], '+.1f')}"
        )
    if "sprt" in report:
        lines += format_sprt(report["sprt"])
    for e in report["errors"][:10]:
        lines.append(
            f"  forfeit: set {e['set']}, rotation {e['rotation']}: "
            + shown(f"{e['player']} ({e['kind']}: {e['message']})")
        )
    return "\n".join(lines)


__all__ = [
    "PLAYER_KEYS",
    "TIMING_FIELDS",
    "format_rate",
    "format_report",
    "format_sprt",
    "format_table_report",
    "format_think",
    "listing",
    "percent",
    "plural",
    "ran_on",
    "rounded",
    "summarize",
    "summarize_table",
    "think_summary",
]
