"""Interval statistics for matches and tournaments: proportions, ratios, means, t quantiles, think times.

The arithmetic behind the reports of matches (:mod:`mille.lab.report`)
and tournaments (:mod:`mille.lab.standings`), written once: the Wilson
interval for a score, a design effect for duplicate pairs (Kish), the
delta-method ratio interval for a margin per hand over clusters, a mean
and its Student's t interval over independent units (the sets of the
larger tables), Student's t itself (through the regularized incomplete
beta function, so the standard library suffices), and a mergeable
histogram of think times.  ``docs/bots.md`` explains how the match uses
them.  The ratings are :mod:`mille.lab.bradley_terry`'s.
"""

from __future__ import annotations

import math
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


def mean(values: Sequence[float], digits: int) -> float | None:
    """The mean of ``values`` rounded to ``digits`` (None for no values: say, a run stopped before its first set).

    >>> mean([0.5, 1.0, 0.0], 4)
    0.5
    """
    return round(math.fsum(values) / len(values), digits) if values else None


def t_interval(values: Sequence[float], low: float = -math.inf, high: float = math.inf) -> tuple[float, float] | None:
    """Student's t 95% interval of the mean of ``values``, within ``low`` .. ``high``, rounded (None below two)."""
    import statistics  # here: the two-seat reports never need it

    n = len(values)
    if n < 2:
        return None
    centre = statistics.fmean(values)
    half = t_quantile(0.975, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (round(max(low, centre - half), 4), round(min(high, centre + half), 4))


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
