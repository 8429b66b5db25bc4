"""The sequential probability ratio test of ``mille.match --sprt``: play pairs until the evidence decides.

The unit is the **duplicate pair** (its two games share their deals, so
they are not independent; pairs are), and what a pair tells is A's game
points in it: 0, 1/2, 1, 3/2 or 2 (a win 1, a tie 1/2).  Their
distribution is the *pentanomial* one over those five values, and the
quantity tested is its mean over two, A's **game score** (the headline of
the match report).  The hypotheses are written in logistic Elo, as in the
tournament's ratings (:func:`elo_to_score`: ``score = 1 / (1 + 10 **
(-elo / 400))``, 0 Elo a score of 1/2, 20 Elo 52.9%):

    H0: A's game score is score(elo0)      H1: A's game score is score(elo1)

The statistic is the generalized log-likelihood ratio of the pentanomial
model, as fishtest computes it (``server/fishtest/stats/LLRcalc.py`` of
official-stockfish/fishtest, ``LLR_logistic``; the theory is Michel Van
den Bergh's note "A multinomial model for the distribution of the scores
in a match", https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf,
Proposition 1.1): for each hypothesis the distribution over the five
values that is most likely to have produced the pairs seen, among those
whose mean score is that hypothesis's, is found by solving one equation
(the "secular" equation, :func:`_secular`), and the LLR is the log of the
ratio of the two likelihoods.  Wald's bounds (log(beta / (1 - alpha)) and
log((1 - beta) / alpha)) decide: H1 is accepted when the LLR reaches the
upper one, H0 when it reaches the lower one.  A value never seen is given
a count of 1/1000 (fishtest's regularization), so that the first pairs
cannot rule any value out.

The mathematics is ported (not the code): the equation is solved here by a
safeguarded Newton iteration instead of SciPy's Brent, so that the
standard library suffices.  :func:`simulate` runs the test on pair scores
drawn from a given pentanomial distribution, to measure its error rates
and its average length (``tests/lab/test_sprt.py``, ``tests/bench/bench_sprt.py``,
``docs/bots.md``).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: The pentanomial's values: A's game points in a duplicate pair.
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)

#: The defaults of ``mille.match --sprt`` (docs/bots.md says why these).
DEFAULT_ELO0 = 0.0
DEFAULT_ELO1 = 20.0
DEFAULT_ALPHA = 0.05
DEFAULT_BETA = 0.05
#: Games played at most when neither --games nor --hands sets the cap.
DEFAULT_CAP_GAMES = 10_000

#: The count given to a value never seen (fishtest's regularization).
_UNSEEN = 1e-3


def elo_to_score(elo: float) -> float:
    """A's expected game score at a logistic Elo difference of ``elo`` (0: 1/2; 400: 10/11)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def score_to_elo(score: float) -> float:
    """The inverse of :func:`elo_to_score` (``score`` strictly between 0 and 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds on the LLR: below the first H0 is accepted, above the second H1."""
    return (math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


def pair_index(pair_score: float) -> int:
    """Which of :data:`PAIR_SCORES` a pair's score is (0 .. 4)."""
    index = round(pair_score * 2.0)
    if not 0 <= index <= 4 or index / 2.0 != pair_score:
        raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2, not {pair_score!r}")
    return index


def _secular(values: Sequence[float], probs: Sequence[float]) -> float:
    """The ``x`` with ``sum(p * a / (1 + x * a)) == 0`` (``values`` ``a`` of both signs, ``probs`` all positive).

    The left side falls from +infinity to -infinity as ``x`` runs over
    ``(-1 / max(a), -1 / min(a))``, where ``1 + x * a`` stays positive for
    every value, so the root is unique: Newton's method from 0 (the root
    when the mean is already 0), falling back on bisection whenever a step
    would leave the bracket the signs have narrowed.
    """
    low, high = -1.0 / max(values), -1.0 / min(values)
    x = 0.0
    for _ in range(200):
        f = df = 0.0
        for a, p in zip(values, probs):
            d = 1.0 + x * a
            f += p * a / d
            df -= p * a * a / (d * d)
        if f > 0.0:
            low = x
        elif f < 0.0:
            high = x
        else:
            return x
        step = x - f / df
        x_new = step if low < step < high else (low + high) / 2.0
        if abs(x_new - x) <= 1e-15 * max(1.0, abs(x)):
            return x_new
        x = x_new
    return x


def mle_with_mean(probs: Sequence[float], score: float) -> list[float]:
    """The distribution over :data:`PAIR_SCORES` closest to ``probs`` (in likelihood) whose mean score is ``score``.

    ``probs`` is an empirical distribution with every value's probability
    positive; ``score`` a game score strictly between 0 and 1 (the pair
    score over two).  Van den Bergh's Proposition 1.1: the answer is
    ``p_i / (1 + x (a_i - score))`` with ``x`` the root of the secular
    equation in the values ``a_i - score``.
    """
    shifted = [v / 2.0 - score for v in PAIR_SCORES]
    x = _secular(shifted, probs)
    return [p / (1.0 + x * a) for a, p in zip(shifted, probs)]


@functools.lru_cache(maxsize=1 << 16)
def llr(counts: tuple[int, ...], score0: float, score1: float) -> float:
    """The generalized log-likelihood ratio of H1 (game score ``score1``) against H0 (``score0``).

    ``counts`` are how many pairs scored 0, 1/2, 1, 3/2 and 2 for A.
    fishtest's ``LLR_logistic`` on a pentanomial, with the scores given
    directly rather than as Elo.
    """
    regular = [float(c) if c > 0 else _UNSEEN for c in counts]
    n = math.fsum(regular)
    empirical = [c / n for c in regular]
    p0 = mle_with_mean(empirical, score0)
    p1 = mle_with_mean(empirical, score1)
    return n * math.fsum(p * (math.log(b) - math.log(a)) for p, a, b in zip(empirical, p0, p1))


@dataclass(frozen=True, slots=True)
class SprtSettings:
    """The test's hypotheses (logistic Elo) and error rates."""

    elo0: float = DEFAULT_ELO0
    elo1: float = DEFAULT_ELO1
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA

    def __post_init__(self) -> None:
        if not (0.0 < self.alpha < 1.0 and 0.0 < self.beta < 1.0 and self.alpha + self.beta < 1.0):
            raise ValueError("alpha and beta must be between 0 and 1, and add up to less than 1")
        if not (abs(self.elo0) <= 3000.0 and abs(self.elo1) <= 3000.0):  # NaN included
            raise ValueError("elo0 and elo1 must be between -3000 and 3000")
        if self.elo0 >= self.elo1:
            raise ValueError("elo0 must be less than elo1")

    @property
    def scores(self) -> tuple[float, float]:
        """The game scores of H0 and H1."""
        return (elo_to_score(self.elo0), elo_to_score(self.elo1))

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha, self.beta)


@dataclass(slots=True)
class Sprt:
    """The test under way: pairs added in order, the LLR after each, the decision once a bound is reached.

    Once decided it takes no more pairs (:meth:`add` says so): the pairs
    played beyond the deciding one are not part of the test.
    """

    settings: SprtSettings = field(default_factory=SprtSettings)
    counts: list[int] = field(default_factory=lambda: [0] * 5)
    llr: float = 0.0
    #: None while undecided, else "H0" or "H1".
    accepted: str | None = None

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def add(self, pair_score: float) -> bool:
        """Take the next pair's score (A's points in it); True once the test has decided."""
        if self.accepted is not None:
            raise ValueError("the test has already decided")
        self.counts[pair_index(pair_score)] += 1
        score0, score1 = self.settings.scores
        self.llr = llr(tuple(self.counts), score0, score1)
        lower, upper = self.settings.bounds
        if self.llr >= upper:
            self.accepted = "H1"
        elif self.llr <= lower:
            self.accepted = "H0"
        return self.accepted is not None

    def to_json(self, *, capped: bool) -> dict[str, Any]:
        """The report's ``sprt`` block (``capped``: the run stopped at its cap, undecided)."""
        s = self.settings
        score0, score1 = s.scores
        lower, upper = s.bounds
        return {
            "elo0": s.elo0,
            "elo1": s.elo1,
            "score0": round(score0, 6),
            "score1": round(score1, 6),
            "alpha": s.alpha,
            "beta": s.beta,
            "llr": round(self.llr, 4),
            "lower_bound": round(lower, 4),
            "upper_bound": round(upper, 4),
            "accepted": self.accepted,
            "result": self.accepted if self.accepted is not None else "undecided",
            "capped": capped and self.accepted is None,
            "pairs": self.pairs,
            "pentanomial": list(self.counts),
            "model": "GSPRT on the pentanomial of duplicate pairs, logistic Elo (fishtest's LLR_logistic)",
        }


# --------------------------------------------------------------------------
# Simulation: the test's error rates and average length on a known distribution


def tilted(probs: Sequence[float], score: float) -> list[float]:
    """``probs`` (over :data:`PAIR_SCORES`, all positive) moved to mean game score ``score`` the least.

    The same tilt as :func:`mle_with_mean`: a measured distribution carried
    to a hypothesis, to simulate the test as if the truth were there.
    """
    total = math.fsum(probs)
    return mle_with_mean([p / total for p in probs], score)


@dataclass(frozen=True, slots=True)
class SimulatedRuns:
    """How simulated tests ended: counts of each decision and the pairs they took."""

    runs: int
    h0: int
    h1: int
    undecided: int
    mean_pairs: float
    max_pairs: int

    def rate(self, what: str) -> float:
        return {"H0": self.h0, "H1": self.h1, "undecided": self.undecided}[what] / self.runs


def simulate(
    probs: Sequence[float],
    settings: SprtSettings,
    *,
    runs: int,
    cap_pairs: int,
    seed: int = 1,
) -> SimulatedRuns:
    """``runs`` tests on pairs drawn from ``probs`` (over :data:`PAIR_SCORES`), each stopped at ``cap_pairs``."""
    rng = random.Random(seed)
    total = math.fsum(probs)
    cumulative = list(itertools.accumulate(p / total for p in probs))
    cumulative[-1] = 1.0  # every draw lands somewhere
    h0 = h1 = 0
    lengths: list[int] = []
    for _ in range(runs):
        test = Sprt(settings)
        while test.pairs < cap_pairs:
            if test.add(PAIR_SCORES[bisect.bisect_right(cumulative, rng.random())]):
                break
        h0 += test.accepted == "H0"
        h1 += test.accepted == "H1"
        lengths.append(test.pairs)
    return SimulatedRuns(runs, h0, h1, runs - h0 - h1, math.fsum(lengths) / runs, max(lengths))


__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_BETA",
    "DEFAULT_CAP_GAMES",
    "DEFAULT_ELO0",
    "DEFAULT_ELO1",
    "PAIR_SCORES",
    "SimulatedRuns",
    "Sprt",
    "SprtSettings",
    "bounds",
    "elo_to_score",
    "llr",
    "mle_with_mean",
    "pair_index",
    "score_to_elo",
    "simulate",
    "tilted",
]
