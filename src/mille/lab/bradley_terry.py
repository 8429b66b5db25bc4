"""Ratings: a Bradley-Terry model on the Elo scale, fitted to every game, with a bootstrap over duplicate units.

A tournament's rating list (:mod:`mille.lab.standings`, at every table):
:func:`fit_bradley_terry` finds the strengths by maximum likelihood
(Newton's method), and :func:`rate_players` anchors them on the Elo scale
and gives each a percentile bootstrap interval, resampling each pairing's
units (duplicate pairs, or at the larger tables a set counted as two games)
with a virtual split pair as the prior.  ``docs/tournaments.md`` explains
the arithmetic.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

#: Elo points per unit of log-strength: a 400-point gap is odds of 10 to 1.
ELO_PER_LOGIT = 400.0 / math.log(10.0)


@dataclass(frozen=True, slots=True)
class PairingScores:
    """One pairing's results for the rating fit: players ``i`` and ``j`` and i's points in each duplicate pair.

    A pair is two games, so each score is 0, 0.5, 1, 1.5 or 2 (a tie counts half).
    """

    i: int
    j: int
    pair_scores: tuple[float, ...]


def fit_bradley_terry(
    players: int,
    results: Sequence[tuple[int, int, float, float]],
    anchor: int = 0,
    virtual_draws: float = 1.0,
    start: Sequence[float | None] | None = None,
) -> list[float | None]:
    """Log-strengths of a Bradley-Terry model by maximum likelihood, the anchor's fixed at 0.

    ``results`` are ``(i, j, wins_i, games)``: player ``i`` scored
    ``wins_i`` points (a tie counts half) in ``games`` games against ``j``.
    The model says i beats j with probability ``1 / (1 + exp(s_j - s_i))``.
    ``virtual_draws`` adds that many drawn games to every pairing that was
    played (BayesElo's prior): without them a player who won or lost every
    game would be infinitely strong or weak.  Newton's method on the
    concave log-likelihood, with step halving.  A player not connected to
    the anchor by played games has no rating (None).  ``start`` (say, the
    fit to the whole sample, for a bootstrap resample) only saves steps.
    """
    wins: dict[tuple[int, int], float] = {}
    games: dict[tuple[int, int], float] = {}
    neighbours: list[set[int]] = [set() for _ in range(players)]
    for i, j, w, n in results:
        if n <= 0 or i == j:
            continue
        key = (i, j) if i < j else (j, i)
        w_key = w if i < j else n - w
        wins[key] = wins.get(key, 0.0) + w_key
        games[key] = games.get(key, 0.0) + n
        neighbours[i].add(j)
        neighbours[j].add(i)
    reached = {anchor}
    frontier = [anchor]
    while frontier:
        p = frontier.pop()
        for q in neighbours[p]:
            if q not in reached:
                reached.add(q)
                frontier.append(q)
    free = sorted(reached - {anchor})  # the unknowns
    index = {p: k for k, p in enumerate(free)}
    edges = [
        (i, j, wins[(i, j)] + virtual_draws / 2.0, games[(i, j)] + virtual_draws)
        for (i, j) in sorted(games)
        if i in reached
    ]
    strength = [0.0] * players
    if start is not None:
        for p in free:
            value = start[p]
            strength[p] = value if value is not None and math.isfinite(value) else 0.0

    def loglik(s: Sequence[float]) -> float:
        total = 0.0
        for i, j, w, n in edges:
            d = s[i] - s[j]
            # w log sigma(d) + (n - w) log sigma(-d), computed stably
            total -= w * _log1pexp(-d) + (n - w) * _log1pexp(d)
        return total

    current = loglik(strength)
    for _ in range(100):
        k = len(free)
        if k == 0:
            break
        gradient = [0.0] * k
        hessian = [[0.0] * k for _ in range(k)]
        for i, j, w, n in edges:
            prob = _sigmoid(strength[i] - strength[j])
            g = w - n * prob
            h = n * prob * (1.0 - prob)
            ii, jj = index.get(i), index.get(j)
            if ii is not None:
                gradient[ii] += g
                hessian[ii][ii] += h
            if jj is not None:
                gradient[jj] -= g
                hessian[jj][jj] += h
            if ii is not None and jj is not None:
                hessian[ii][jj] -= h
                hessian[jj][ii] -= h
        step = _solve(hessian, gradient)
        scale = 1.0
        while True:
            trial = strength[:]
            for player, k_ in index.items():
                trial[player] += scale * step[k_]
            value = loglik(trial)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2.0
        moved = max(abs(scale * x) for x in step)
        strength, current = trial, value
        if moved < 1e-10:
            break
    return [strength[p] if p in reached else None for p in range(players)]


def _sigmoid(x: float) -> float:
    """1 / (1 + exp(-x)) without overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _log1pexp(x: float) -> float:
    """log(1 + exp(x)) without overflow."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix @ x = vector`` (symmetric positive definite here) by Gaussian elimination with pivoting."""
    n = len(vector)
    a = [row[:] + [vector[r]] for r, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ValueError("singular system")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - math.fsum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the Elo scale with its bootstrap interval (None: not rated)."""

    rating: float | None
    low: float | None
    high: float | None


def rate_players(
    players: int,
    pairings: Sequence[PairingScores],
    *,
    anchor: int = 0,
    anchor_rating: float = 1500.0,
    virtual_draws: float = 1.0,
    resampled_prior: float = 0.5,
    resamples: int = 1000,
    seed: int = 1,
    confidence: float = 0.95,
) -> list[Rating]:
    """Bradley-Terry ratings from every game, anchored, with percentile bootstrap intervals.

    The prior is one virtual split pair per pairing (two games, one won by
    each side), in two halves.  ``virtual_draws`` games (one: half a pair)
    are in every fit, so that no rating is infinite.  The other half,
    ``resampled_prior`` pairs of weight, is drawn in the bootstrap along
    with the real pairs, so that a clean sweep, which resampling its own
    pairs alone could never vary, gets an interval reaching towards the
    other side (about as far as a Wilson interval does); the estimate
    counts it at its expected share, so that the estimate and the
    bootstrap agree on average and the interval holds the estimate.

    The estimate is :func:`fit_bradley_terry` on every game (and the
    prior), on the Elo scale (``anchor_rating + 400 log10`` of the
    strength ratio).  The interval resamples duplicate pairs, the
    independent units, with replacement within each pairing (each pairing
    keeps its number of pairs), refits, and takes the
    ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles of
    each player's rating over ``resamples`` refits.  The anchor's interval
    is its fixed rating: the others are relative to it.  ``seed`` makes
    the bootstrap repeatable.
    """

    def fit(totals: Sequence[tuple[float, float]], start: Sequence[float | None] | None = None) -> list[float | None]:
        results = [(p.i, p.j, w, n) for p, (w, n) in zip(pairings, totals)]
        return fit_bradley_terry(players, results, anchor, virtual_draws, start)

    def elo(strengths: Sequence[float | None]) -> list[float | None]:
        return [None if s is None else anchor_rating + ELO_PER_LOGIT * s for s in strengths]

    def observed(p: PairingScores) -> tuple[float, float]:
        m = len(p.pair_scores)
        if m == 0:
            return (0.0, 0.0)
        share = m * resampled_prior / (m + resampled_prior)  # split pairs a resample holds, on average
        return (math.fsum(p.pair_scores) + share, 2.0 * (m + share))

    whole = fit([observed(p) for p in pairings])
    estimate = elo(whole)
    if resamples < 1:
        return [Rating(r, None, None) for r in estimate]
    rng = random.Random(seed)
    # A resample of a pairing's m pairs, drawn with replacement, matters only through its total,
    # and the pair scores take a handful of values (0, 0.5, 1, 1.5, 2): draw how many times each
    # value comes up (a multinomial, as binomials in turn), in O(sqrt m) steps rather than m.
    tables: list[tuple[int, list[tuple[float, float]]]] = []
    for p in pairings:
        counts: dict[float, float] = {1.0: resampled_prior} if resampled_prior > 0 and p.pair_scores else {}
        for x in p.pair_scores:
            counts[x] = counts.get(x, 0.0) + 1.0
        tables.append((len(p.pair_scores), sorted(counts.items())))
    draws: list[list[float]] = [[] for _ in range(players)]
    for _ in range(resamples):
        totals = [(_resampled_total(rng, m, table), 2.0 * m) for m, table in tables]
        for player, r in enumerate(elo(fit(totals, whole))):
            if r is not None:
                draws[player].append(r)
    ratings = []
    for player, r in enumerate(estimate):
        if r is None or len(draws[player]) < resamples:
            ratings.append(Rating(r, None, None))
            continue
        values = sorted(draws[player])
        ratings.append(
            Rating(r, _quantile(values, (1.0 - confidence) / 2.0), _quantile(values, (1.0 + confidence) / 2.0))
        )
    return ratings


def _resampled_total(rng: random.Random, m: int, table: Sequence[tuple[float, float]]) -> float:
    """The total of ``m`` draws with replacement from a population given as (value, weight) pairs."""
    total = 0.0
    left, left_weight = m, math.fsum(weight for _, weight in table)
    for value, weight in table[:-1]:
        k = binomial(rng, left, min(1.0, weight / left_weight)) if left else 0
        total += value * k
        left -= k
        left_weight -= weight
    if table:
        total += table[-1][0] * left
    return total


def binomial(rng: random.Random, n: int, p: float) -> int:
    """A Binomial(n, p) draw by inversion searched outward from the mode: exact, O(sqrt(n p (1 - p))) steps.

    (``random.binomialvariate`` is Python 3.12's; this gives the same
    numbers on every Python the project supports.)
    """
    if n <= 0 or p <= 0.0:
        return 0
    if p >= 1.0:
        return n
    mode = min(n, int((n + 1) * p))
    log_mode = (
        math.lgamma(n + 1)
        - math.lgamma(mode + 1)
        - math.lgamma(n - mode + 1)
        + mode * math.log(p)
        + (n - mode) * math.log1p(-p)
    )
    u = rng.random()
    p_mode = math.exp(log_mode)
    u -= p_mode
    if u <= 0.0:
        return mode
    odds = p / (1.0 - p)
    low, high, p_low, p_high = mode, mode, p_mode, p_mode
    while low > 0 or high < n:
        if high < n:
            p_high *= (n - high) / (high + 1) * odds
            high += 1
            u -= p_high
            if u <= 0.0:
                return high
        if low > 0:
            p_low *= low / ((n - low + 1) * odds)
            low -= 1
            u -= p_low
            if u <= 0.0:
                return low
    return mode  # the rounding left a sliver of probability: the mode takes it


def _quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted ``values`` by linear interpolation (type 7, as numpy's default)."""
    position = q * (len(values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)
