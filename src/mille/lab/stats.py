"""Interval statistics for matches and tournaments: proportions, ratios, t quantiles, think times.

The arithmetic behind the reports of matches (:mod:`mille.lab.report`)
and tournaments (:mod:`mille.lab.standings`), written once: the Wilson
interval for a score, a design effect for duplicate pairs (Kish), the
delta-method ratio interval for a margin per hand over clusters, Student's
t (through the regularized incomplete beta function, so the standard
library suffices), and a mergeable histogram of think times.  ``docs/bots.md`` explains how the
match uses them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054

#: Below this many pairs the game-score interval does not trust a design
#: effect under 1 estimated from the pairs (see :func:`game_score_interval`).
MIN_PAIRS_FOR_DESIGN_EFFECT = 30


# --------------------------------------------------------------------------
# Think times: a mergeable log histogram (about 1% resolution, exact max)

_BUCKETS_PER_E = 1.0 / math.log(1.02)


@dataclass(slots=True)
class ThinkStats:
    """Think times of one player: a histogram of log-microsecond buckets, the exact max."""

    buckets: dict[int, int] = field(default_factory=dict)
    count: int = 0
    max_seconds: float = 0.0

    def add(self, seconds: float) -> None:
        micro = seconds * 1e6
        bucket = int(math.log(micro) * _BUCKETS_PER_E) if micro > 1.0 else 0
        self.buckets[bucket] = self.buckets.get(bucket, 0) + 1
        self.count += 1
        if seconds > self.max_seconds:
            self.max_seconds = seconds

    def merge(self, other: ThinkStats) -> None:
        for bucket, n in other.buckets.items():
            self.buckets[bucket] = self.buckets.get(bucket, 0) + n
        self.count += other.count
        self.max_seconds = max(self.max_seconds, other.max_seconds)

    def quantile_ms(self, q: float) -> float:
        """The ``q`` quantile in milliseconds (a bucket's geometric middle; 0 with no data)."""
        if self.count == 0:
            return 0.0
        rank = q * (self.count - 1)
        seen = 0
        for bucket in sorted(self.buckets):
            seen += self.buckets[bucket]
            if seen > rank:
                if bucket == 0:
                    return 0.001
                return min(math.exp((bucket + 0.5) / _BUCKETS_PER_E) / 1000.0, self.max_seconds * 1000.0)
        return self.max_seconds * 1000.0

    def summary(self) -> dict[str, float]:
        return {
            "median": round(self.quantile_ms(0.5), 4),
            "p95": round(self.quantile_ms(0.95), 4),
            "max": round(self.max_seconds * 1000.0, 4),
        }


# --------------------------------------------------------------------------
# Interval arithmetic


def wilson_interval(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p`` observed over ``n`` trials (``n`` may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denominator
    half = z * math.sqrt(max(p * (1.0 - p), 0.0) / n + z2 / (4.0 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function."""
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """Quantile of Student's t (by bisection on :func:`t_cdf`); the normal one for infinite ``df``."""
    if not 0.0 < p < 1.0:
        raise ValueError("p must be in (0, 1)")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if math.isinf(df):
        from statistics import NormalDist

        return NormalDist().inv_cdf(p)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


@dataclass(frozen=True, slots=True)
class RatioEstimate:
    """A ratio of sums with its cluster-robust (delta-method) standard error and t interval."""

    estimate: float | None
    se: float | None
    low: float | None
    high: float | None


def ratio_interval(totals: Sequence[float], sizes: Sequence[float], confidence: float = 0.95) -> RatioEstimate:
    """``sum(totals) / sum(sizes)`` over independent clusters, with a t interval on m - 1 degrees of freedom.

    The standard error is the linearised (delta-method, cluster-robust)
    one: with ``R`` the ratio and ``d_i = totals_i - R * sizes_i``,
    ``var(R) = m / (m - 1) * sum(d_i**2) / sum(sizes)**2``.
    """
    m = len(totals)
    n = math.fsum(sizes)
    if m == 0 or n <= 0:
        return RatioEstimate(None, None, None, None)
    ratio = math.fsum(totals) / n
    if m < 2:
        return RatioEstimate(ratio, None, None, None)
    residuals = math.fsum((y - ratio * x) ** 2 for y, x in zip(totals, sizes))
    se = math.sqrt(m / (m - 1) * residuals) / n
    t = t_quantile(0.5 + confidence / 2.0, m - 1)
    return RatioEstimate(ratio, se, ratio - t * se, ratio + t * se)


def game_score_interval(pair_scores: Sequence[float], z: float = Z95) -> tuple[float, tuple[float, float], float]:
    """A's game score (wins + ties / 2 over games) with a 95% Wilson interval, and the design effect used.

    ``pair_scores`` are A's game points in each pair (0 to 2).  The Wilson
    interval is taken with the effective number of games ``2m / deff``,
    where the design effect ``deff`` is the variance of the pair means
    relative to the binomial variance of independent games (Kish; Korn and
    Graubard).  Duplicate pairs usually make it less than 1 (one player's
    good cards in one game are the other's in the other), which narrows
    the interval; it is only trusted below 1 from
    :data:`MIN_PAIRS_FOR_DESIGN_EFFECT` pairs on.
    """
    m = len(pair_scores)
    if m == 0:
        return (0.0, (0.0, 1.0), 1.0)
    means = [s / 2.0 for s in pair_scores]
    p = math.fsum(means) / m
    n = 2.0 * m
    binomial = p * (1.0 - p) / n
    deff = 1.0
    if m >= 2 and binomial > 0.0:
        clustered = math.fsum((x - p) ** 2 for x in means) / (m - 1) / m
        deff = clustered / binomial
        if m < MIN_PAIRS_FOR_DESIGN_EFFECT:
            deff = max(deff, 1.0)
    effective = n / deff if deff > 0.0 else math.inf
    if math.isinf(effective):
        return (p, (p, p), deff)
    return (p, wilson_interval(p, effective, z), deff)


def think_to_json(think: ThinkStats) -> dict[str, object]:
    """A :class:`ThinkStats` as JSON: the buckets and their counts as two flat lists (quick to write and read).

    ``max_seconds`` round-trips exactly (JSON floats are Python's repr).
    """
    buckets = sorted(think.buckets)
    return {
        "count": think.count,
        "max_seconds": think.max_seconds,
        "buckets": buckets,
        "counts": [think.buckets[b] for b in buckets],
    }


def think_from_json(data: object) -> ThinkStats:
    """The inverse of :func:`think_to_json`; ValueError for anything else."""
    if not isinstance(data, dict) or set(data) != {"count", "max_seconds", "buckets", "counts"}:
        raise ValueError("a think-time histogram must have exactly count, max_seconds, buckets and counts")
    count, max_seconds, buckets, counts = data["count"], data["max_seconds"], data["buckets"], data["counts"]
    if type(count) is not int or count < 0 or type(max_seconds) not in (int, float) or max_seconds < 0:
        raise ValueError("bad think-time count or maximum")
    if (
        not isinstance(buckets, list)
        or not isinstance(counts, list)
        or len(buckets) != len(counts)
        or not all(type(b) is int for b in buckets)
        or not all(type(n) is int and n >= 1 for n in counts)
    ):
        raise ValueError("think-time buckets and counts must be lists of integers of the same length")
    table = dict(zip(buckets, counts))
    if len(table) != len(buckets):
        raise ValueError("a think-time bucket is listed twice")
    if sum(counts) != count:
        raise ValueError("think-time buckets do not add up to the count")
    return ThinkStats(table, count, float(max_seconds))


# --------------------------------------------------------------------------
# Ratings: Bradley-Terry on the Elo scale, with a bootstrap over duplicate pairs

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
