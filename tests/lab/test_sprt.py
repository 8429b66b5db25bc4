"""python -m mille.match --sprt: the log-likelihood ratio, the test's error rates by simulation, real short runs."""

from __future__ import annotations

import io
import json
import math
from typing import Any

import pytest

from mille.lab import match, sprt
from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.lab.report import TIMING_FIELDS, format_report
from mille.lab.sprt import Sprt, SprtSettings, elo_to_score, llr, simulate, tilted

#: Pairs scoring 0, 1/2, 1, 3/2, 2 for A in ``python -m mille.match bsd bsd --games 4000 --seed 1``.
BSD_BSD = (34, 1, 1926, 2, 37)


def reference_llr(counts: tuple[int, ...], score0: float, score1: float) -> float:
    """fishtest's LLR_logistic written out plainly, with the secular equation solved by 300 bisections."""
    regular = [c if c > 0 else 1e-3 for c in counts]
    n = sum(regular)
    pdf = [(i / 4, c / n) for i, c in enumerate(regular)]

    def mle(s: float) -> list[float]:
        shifted = [(a - s, p) for a, p in pdf]
        low = -1 / max(a for a, _ in shifted)
        high = -1 / min(a for a, _ in shifted)
        for _ in range(300):
            mid = (low + high) / 2
            if sum(p * a / (1 + mid * a) for a, p in shifted) > 0:
                low = mid
            else:
                high = mid
        x = (low + high) / 2
        return [p / (1 + x * (a - s)) for a, p in pdf]

    p0, p1 = mle(score0), mle(score1)
    return n * sum(p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, p0, p1))


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in TIMING_FIELDS}


# --------------------------------------------------------------------------
# The arithmetic


@pytest.mark.parametrize(
    "counts",
    [BSD_BSD, (389, 3, 505, 5, 98), (0, 0, 1, 0, 0), (0, 0, 0, 0, 1), (1, 0, 0, 0, 0), (3, 10, 50, 20, 7)],
)
@pytest.mark.parametrize(("elo0", "elo1"), [(0.0, 20.0), (-10.0, 5.0), (0.0, 2.0)])
def test_llr_is_fishtests(counts: tuple[int, ...], elo0: float, elo1: float) -> None:
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    assert llr(counts, s0, s1) == pytest.approx(reference_llr(counts, s0, s1), rel=1e-9, abs=1e-12)


def test_llr_symmetries_and_the_brownian_approximation() -> None:
    s0, s1 = elo_to_score(0), elo_to_score(20)
    # Swapping the hypotheses changes the sign; mirroring the pairs and the scores changes nothing.
    counts = (40, 30, 300, 60, 70)
    assert llr(counts, s1, s0) == pytest.approx(-llr(counts, s0, s1))
    assert llr(counts[::-1], 1 - s0, 1 - s1) == pytest.approx(llr(counts, s0, s1))
    # With many pairs it is close to N (s1 - s0)(2 mean - s0 - s1) / (2 var) (fishtest's LLR_alt2).
    n = sum(counts)
    values = [v / 4 for v in range(5)]
    mean = sum(c * v for c, v in zip(counts, values)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n
    assert llr(counts, s0, s1) == pytest.approx(n * (s1 - s0) * (2 * mean - s0 - s1) / var / 2, rel=0.05)


def test_elo_scale_and_bounds() -> None:
    assert elo_to_score(0) == 0.5 and elo_to_score(400) == pytest.approx(10 / 11)
    assert elo_to_score(20) == pytest.approx(0.528751, abs=1e-6)
    assert sprt.score_to_elo(elo_to_score(-123.0)) == pytest.approx(-123.0)
    low, high = sprt.bounds(0.05, 0.05)
    assert (low, high) == (pytest.approx(math.log(0.05 / 0.95)), pytest.approx(math.log(0.95 / 0.05)))
    settings = SprtSettings()
    assert (settings.elo0, settings.elo1, settings.alpha, settings.beta) == (0.0, 20.0, 0.05, 0.05)
    for bad in ({"elo0": 5.0, "elo1": 5.0}, {"alpha": 0.0}, {"beta": 1.0}, {"alpha": 0.6, "beta": 0.5}):
        with pytest.raises(ValueError):
            SprtSettings(**bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SprtSettings(elo1=math.nan)


def test_a_test_stops_taking_pairs_once_decided() -> None:
    test = Sprt(SprtSettings())
    steps = 0
    while not test.add(2.0):
        steps += 1
    assert test.accepted == "H1" and test.pairs == steps + 1 == 53  # a sweep: 53 pairs won 2-0
    with pytest.raises(ValueError):
        test.add(1.0)
    with pytest.raises(ValueError):
        Sprt().add(0.25)


# --------------------------------------------------------------------------
# The error rates, by simulation of the pairs of a real match


def test_under_the_null_h1_is_accepted_no_more_often_than_alpha() -> None:
    """2000 tests on bsd-vs-bsd pairs (the measured pentanomial: true Elo 0, H0): H1 in at most alpha of them."""
    settings = SprtSettings()
    runs = simulate([float(c) for c in BSD_BSD], settings, runs=2000, cap_pairs=5000, seed=11)
    assert runs.undecided == 0
    assert runs.rate("H1") <= settings.alpha
    assert 50 < runs.mean_pairs < 200  # about a hundred pairs: the duplicate pairs of bsd against bsd vary little


def test_at_h1_h0_is_accepted_about_beta_of_the_time() -> None:
    """The same pairs carried to 20 Elo: H0 in about beta of the tests (GSPRT's rates are approximate)."""
    settings = SprtSettings()
    probs = tilted([float(c) for c in BSD_BSD], settings.scores[1])
    assert sum(p * v for p, v in zip(probs, sprt.PAIR_SCORES)) / 2 == pytest.approx(settings.scores[1])
    runs = simulate(probs, settings, runs=2000, cap_pairs=5000, seed=12)
    assert runs.undecided == 0
    assert runs.rate("H0") <= settings.beta + 0.02
    assert runs.rate("H1") >= 0.9


def test_a_clearly_weaker_player_is_found_out_early() -> None:
    """Against a player far below (all pairs lost 0-2 or split), H0 comes in a few dozen pairs, every time."""
    runs = simulate([30.0, 0.0, 70.0, 0.0, 0.0], SprtSettings(), runs=200, cap_pairs=5000, seed=13)
    assert runs.h0 == 200 and runs.max_pairs < 60


# --------------------------------------------------------------------------
# Real short runs


def test_bsd_against_first_stops_early_with_h1() -> None:
    """A sweep: H1 after 53 pairs, not the 5000 of the cap; the same stop whatever the parallelism."""
    one = run_match(
        "bsd", "first", games=sprt.DEFAULT_CAP_GAMES, sprt=SprtSettings(), options=RunOptions(seed=1, jobs=1)
    )
    block = one["sprt"]
    assert block["accepted"] == "H1" and block["result"] == "H1" and not block["capped"]
    assert block["pairs"] == one["pairs"] == 53 and block["pentanomial"] == [0, 0, 0, 0, 53]
    assert block["llr"] >= block["upper_bound"] > 0 > block["lower_bound"]
    assert block["cap_games"] == sprt.DEFAULT_CAP_GAMES and block["cap_hands"] is None
    assert (block["elo0"], block["elo1"], block["score1"]) == (0.0, 20.0, 0.528751)
    # Two processes playing tasks of five pairs play past the stop; what is past it is not in the report.
    two = run_match(
        "bsd",
        "first",
        games=sprt.DEFAULT_CAP_GAMES,
        sprt=SprtSettings(),
        options=RunOptions(seed=1, jobs=2, pairs_per_task=5),
    )
    assert without_timing(two) == without_timing(one)
    text = format_report(one)
    assert "SPRT             H1 accepted after 53 pairs" in text
    assert "LLR +2.96 (bounds -2.94 and +2.94; alpha 0.05, beta 0.05)" in text
    assert "H0: 0 Elo, game score 50.0%; H1: 20 Elo, 52.9%" in text
    assert all(len(line) <= 79 for line in text.splitlines())


def test_bsd_against_bsd_on_a_small_cap_does_not_accept_h1() -> None:
    """Five matches of at most 30 pairs on five seeds: never H1 (the truth is H0)."""
    for seed in range(1, 6):
        report = run_match("bsd", "bsd", games=60, sprt=SprtSettings(), options=RunOptions(seed=seed, jobs=1))
        block = report["sprt"]
        assert block["accepted"] != "H1"
        if block["accepted"] is None:
            assert block["capped"] and report["pairs"] == 30 and block["pairs"] == 30
            assert "undecided after 30 pairs, the cap of 60 games" in format_report(report)


def test_the_hands_cap() -> None:
    report = run_match(
        "bsd", "bsd", hands=40, sprt=SprtSettings(), options=RunOptions(seed=3, jobs=1, game_points=1000)
    )
    block = report["sprt"]
    assert block["accepted"] is None and block["capped"] and block["cap_hands"] == 40
    assert report["hands"] >= 40 and report["hands"] - report["by_pair"][-1]["hands"] < 40


def test_progress_line_shows_the_llr_and_its_bounds() -> None:
    stream = io.StringIO()
    bar = match.ProgressBar(stream, "bsd", "first", target_games=10_000)
    bar(match.Progress(10, 10_000, 40, None, 2.0, 0.75, 812.0, 1.234, (-2.944, 2.944)))
    line = stream.getvalue()
    assert "10/10000 games, 5.0 games/s" in line and "LLR +1.23 (-2.94 to +2.94)" in line
    bar.clear()


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bsd", "first", "--sprt", "--elo1", "30", "--alpha", "0.1", "--games", "400", "--jobs", "1", "--json"]
    assert match.main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    block = report["sprt"]
    assert (block["elo0"], block["elo1"], block["alpha"], block["beta"]) == (0.0, 30.0, 0.1, 0.05)
    assert block["accepted"] == "H1" and block["cap_games"] == 400 and report["pairs"] == block["pairs"] < 200


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--elo1", "10"], "--elo1 goes with --sprt"),
        (["--sprt", "--elo0", "10", "--elo1", "5"], "elo0 must be less than elo1"),
        (["--sprt", "--alpha", "0"], "alpha and beta must be between 0 and 1"),
        (["--sprt", "--beta", "nan"], "alpha and beta"),
        (["--sprt", "--elo1", "inf"], "between -3000 and 3000"),
    ],
)
def test_bad_options(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        match.main(["bsd", "first", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_without_sprt_the_report_has_no_sprt_block() -> None:
    report = run_match("bsd", "first", games=2, options=RunOptions(seed=1, jobs=1))
    assert "sprt" not in report and "SPRT" not in format_report(report)


def test_interrupted_undecided(tmp_path: Any) -> None:
    """Ctrl-C: the test is undecided, not capped; the record holds the games of the report."""
    from mille.lab.gamelog import read_record

    def progress(p: match.Progress) -> None:
        if p.games == 4:
            raise KeyboardInterrupt

    path = tmp_path / "i.jsonl"
    report = run_match(
        "bsd",
        "bsd",
        games=100,
        sprt=SprtSettings(),
        progress=progress,
        options=RunOptions(seed=1, jobs=1, game_points=1000, record=path),
    )
    block = report["sprt"]
    assert report["interrupted"] and block["accepted"] is None and not block["capped"] and block["pairs"] == 2
    assert "SPRT             undecided: interrupted after 2 pairs" in format_report(report)
    assert len(list(read_record(path)[1])) == 4
