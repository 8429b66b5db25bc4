"""python -m mille.tournament at every table: ratings on known data, the reports, results files, resume after kills.

The larger tables' own (their standings, their results file's format, the
ratings read from every game between every two sides) follow in a section
of their own; a tournament stopped by a signal and resumed is tried at
every kind of table.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from helpers import DOCS, SRC
from helpers.faults import full_disk, run_python
from mille.lab import bradley_terry, results, stats, tournament
from mille.lab.match import run_match
from mille.lab.options import RunOptions
from mille.lab.records import Fault, GameRecord, MatchConfig
from mille.lab.results import FORMAT, TABLE_FORMAT, ResultsWriter, TournamentError, header, parse_results
from mille.lab.schedule import TournamentConfig, pairing_seed, table_seed
from mille.lab.standings import (
    CELL,
    MIN_PAIRS_TO_RATE,
    _cell_lines,
    format_crosstable,
    format_report,
    interval_bar,
    pairwise,
    without_timing,
)
from mille.lab.tournament import run_tournament

FAST = 1000  # game points in most tests: a game is a hand or two
ENV = {"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"}


# --------------------------------------------------------------------------
# Ratings on synthetic results with a known answer


def test_bradley_terry_recovers_known_strengths() -> None:
    # Strengths 9 : 3 : 1 and exactly the expected results: P(0 beats 1) = 9/12, P(1 beats 2) = 3/4,
    # P(0 beats 2) = 9/10.  Without virtual draws the maximum-likelihood fit is exact.
    results = [(0, 1, 750.0, 1000.0), (1, 2, 750.0, 1000.0), (0, 2, 900.0, 1000.0)]
    s = bradley_terry.fit_bradley_terry(3, results, anchor=2, virtual_draws=0.0)
    assert s[2] == 0.0
    assert s[0] == pytest.approx(math.log(9.0), abs=1e-9)
    assert s[1] == pytest.approx(math.log(3.0), abs=1e-9)
    # The same results listed from the other side, and another anchor: the same differences.
    flipped = [(1, 0, 250.0, 1000.0), (2, 1, 250.0, 1000.0), (2, 0, 100.0, 1000.0)]
    t = bradley_terry.fit_bradley_terry(3, flipped, anchor=0, virtual_draws=0.0)
    assert t[1] == pytest.approx(-math.log(3.0)) and t[2] == pytest.approx(-math.log(9.0))


def test_bradley_terry_two_players_is_the_logit_with_virtual_draws() -> None:
    # 30 points of 40 games, plus one virtual draw: log-odds of 30.5 to 10.5.
    s = bradley_terry.fit_bradley_terry(2, [(0, 1, 30.0, 40.0)], anchor=1, virtual_draws=1.0)
    assert s[0] == pytest.approx(math.log(30.5 / 10.5), abs=1e-9)
    # A clean sweep stays finite thanks to the virtual draw.
    sweep = bradley_terry.fit_bradley_terry(2, [(0, 1, 0.0, 2000.0)], anchor=0)
    assert sweep[1] == pytest.approx(math.log(4001.0), abs=1e-6)


def test_bradley_terry_unconnected_player_has_no_rating() -> None:
    s = bradley_terry.fit_bradley_terry(4, [(0, 1, 3.0, 4.0), (2, 3, 1.0, 2.0)], anchor=0)
    assert s[0] == 0.0 and s[1] is not None and s[2] is None and s[3] is None


def test_ratings_elo_scale_and_bootstrap_interval() -> None:
    # Two players, 400 pairs: pair scores with mean 1.5 of 2 (a 75% game score).
    rng = random.Random(5)
    scores = tuple(rng.choice([1.0, 1.5, 2.0, 2.0, 1.0, 1.5, 2.0, 1.0]) for _ in range(400))
    p = sum(scores) / (2 * len(scores))
    ratings = bradley_terry.rate_players(
        2, [bradley_terry.PairingScores(0, 1, scores)], anchor=1, resamples=2000, seed=3
    )
    anchor, other = ratings[1], ratings[0]
    assert (anchor.rating, anchor.low, anchor.high) == (1500.0, 1500.0, 1500.0)
    # The prior: one drawn game, and the split pair's expected share of a resample.
    m = len(scores)
    share = m * 0.5 / (m + 0.5)
    wins = sum(scores) + share + 0.5
    games = 2 * m + 2 * share + 1
    expected = 1500.0 + 400.0 * math.log10(wins / (games - wins))
    assert other.rating == pytest.approx(expected)
    # The delta method for the logit of a mean of pair scores: the bootstrap agrees within 10%.
    sd = math.sqrt(sum((x / 2 - p) ** 2 for x in scores) / (len(scores) - 1))
    se = bradley_terry.ELO_PER_LOGIT * sd / math.sqrt(len(scores)) / (p * (1 - p))
    assert other.low is not None and other.high is not None
    assert other.low < other.rating < other.high
    assert other.high - other.low == pytest.approx(2 * stats.Z95 * se, rel=0.1)
    # Repeatable from its seed; another seed moves the ends a little, not the estimate.
    again = bradley_terry.rate_players(2, [bradley_terry.PairingScores(0, 1, scores)], anchor=1, resamples=2000, seed=3)
    assert again == ratings
    other_seed = bradley_terry.rate_players(
        2, [bradley_terry.PairingScores(0, 1, scores)], anchor=1, resamples=2000, seed=4
    )
    assert other_seed[0].rating == other.rating and (other_seed[0].low, other_seed[0].high) != (other.low, other.high)


@pytest.mark.parametrize(("n", "p"), [(1, 0.3), (7, 0.5), (40, 0.05), (400, 0.8), (5000, 0.37)])
def test_binomial_sampler_has_the_binomial_distribution(n: int, p: float) -> None:
    rng = random.Random(n)
    draws = [bradley_terry.binomial(rng, n, p) for _ in range(20000)]
    assert all(0 <= k <= n for k in draws)
    mean = sum(draws) / len(draws)
    variance = sum((k - mean) ** 2 for k in draws) / (len(draws) - 1)
    sd = math.sqrt(n * p * (1 - p))
    assert mean == pytest.approx(n * p, abs=5 * sd / math.sqrt(len(draws)))
    assert variance == pytest.approx(n * p * (1 - p), rel=0.06)
    # The probability of the mode, against the formula.
    mode = int((n + 1) * p)
    pmf = math.exp(
        math.lgamma(n + 1)
        - math.lgamma(mode + 1)
        - math.lgamma(n - mode + 1)
        + mode * math.log(p)
        + (n - mode) * math.log(1 - p)
    )
    seen = draws.count(mode) / len(draws)
    assert seen == pytest.approx(pmf, abs=5 * math.sqrt(pmf * (1 - pmf) / len(draws)))
    assert (
        bradley_terry.binomial(rng, 0, 0.5) == 0
        and bradley_terry.binomial(rng, 9, 0.0) == 0
        and bradley_terry.binomial(rng, 9, 1.0) == 9
    )


def test_a_clean_sweep_gets_an_interval_like_wilson() -> None:
    """20 pairs all lost: the bootstrap cannot vary them; the prior's split pair lets the interval reach up."""
    ratings = bradley_terry.rate_players(
        2, [bradley_terry.PairingScores(0, 1, (0.0,) * 20)], anchor=1, resamples=2000, seed=1
    )
    loser = ratings[0]
    share = 20 * 0.5 / 20.5  # the split pair's expected share, and one drawn game
    assert loser.rating == pytest.approx(1500 - 400 * math.log10((40 + share + 0.5) / (share + 0.5)))
    # The low end: a resample without the split pair (as likely as not), a sweep again.
    assert loser.low == pytest.approx(1500 - 400 * math.log10(40.5 / 0.5))
    assert loser.low < loser.rating < loser.high
    # The upper end: a little short of where a game score at Wilson's upper bound for 0 of 40 would.
    wilson_high = stats.wilson_interval(0.0, 40)[1]
    as_rating = 1500 + 400 * math.log10(wilson_high / (1 - wilson_high))
    assert loser.high is not None and as_rating - 100 < loser.high < as_rating


def test_interval_bar() -> None:
    assert interval_bar(10, 15, 20, (0, 40), 41) == "." * 10 + "[====|====]" + "." * 20
    assert interval_bar(0, 0, 0, (0, 40), 41) == "|" + "." * 40
    assert interval_bar(30, 35, 40, (0, 40), 41).endswith("[====|====]")


# --------------------------------------------------------------------------
# A small tournament


PLAYERS = ["bsd", "first", "random"]


@pytest.fixture(scope="module")
def small() -> dict[str, Any]:
    return run_tournament(PLAYERS, games=4, resamples=200, options=RunOptions(seed=7, jobs=1, game_points=FAST))


def test_each_pairing_is_the_match_it_names(small: dict[str, Any]) -> None:
    """One driver: a pairing's report is mille.match's for the pairing seed."""
    assert [(p["a"], p["b"]) for p in small["pairings"]] == [("bsd", "first"), ("bsd", "random"), ("first", "random")]
    for pairing in small["pairings"]:
        alone = run_match(
            pairing["a"],
            pairing["b"],
            games=4,
            options=RunOptions(seed=pairing_seed(7, pairing["a"], pairing["b"]), jobs=1, game_points=FAST),
        )
        for key in ("seconds", "games_per_second", "interrupted"):
            alone.pop(key)
        assert without_timing(pairing) == without_timing(alone)
        assert pairing["seed"] == pairing_seed(7, pairing["a"], pairing["b"])


def test_crosstable_cells_mirror(small: dict[str, Any]) -> None:
    cells = small["crosstable"]
    assert [cells[k][k] for k in range(3)] == [None, None, None]
    for (i, j), pairing in zip([(0, 1), (0, 2), (1, 2)], small["pairings"]):
        a, b = cells[i][j], cells[j][i]
        assert a["score"] == pairing["a_game_win_rate"] and a["games"] == 4
        assert b["score"] == pytest.approx(1 - a["score"])
        assert b["score_ci95"] == pytest.approx([1 - a["score_ci95"][1], 1 - a["score_ci95"][0]])
        assert b["margin_per_hand"] == -a["margin_per_hand"]
        assert b["margin_ci95"] == [-a["margin_ci95"][1], -a["margin_ci95"][0]]
    text = "\n".join(format_crosstable(small))
    row_bsd = next(line for line in text.splitlines() if line.startswith("  1 bsd"))
    first = cells[0][1]
    assert (
        f"{100 * first['score']:.0f} {100 * first['score_ci95'][0]:.0f}-{100 * first['score_ci95'][1]:.0f}" in row_bsd
    )
    assert all(len(line) <= 79 for line in text.splitlines())


@pytest.fixture(scope="module")
def rated() -> dict[str, Any]:
    """The fewest pairs a pairing may have for ratings (MIN_PAIRS_TO_RATE): 20 games."""
    return run_tournament(
        PLAYERS, games=2 * MIN_PAIRS_TO_RATE, resamples=200, options=RunOptions(seed=7, jobs=1, game_points=FAST)
    )


def test_ratings_list(rated: dict[str, Any]) -> None:
    rows = {r["player"]: r for r in rated["ratings"]}
    assert rows["bsd"]["rating"] == 1500.0 and rows["bsd"]["rating_ci95"] == [1500.0, 1500.0]
    assert rated["ratings"][0]["player"] == "bsd"  # it beats both here
    assert "ratings_withheld" not in rated
    for r in rated["ratings"]:
        assert r["games"] == 4 * MIN_PAIRS_TO_RATE
        assert r["think_ms"] is not None and set(r["think_ms"]) == {"median", "p95", "max"}
        low, high = r["rating_ci95"]
        assert low <= r["rating"] <= high
    assert sum(r["score"] for r in rated["ratings"]) == pytest.approx(1.5)  # half a point a game, 3 pairings
    text = format_report(rated, bars=True, jobs=1)
    assert "bsd = 1500" in text and "anchor" in text
    lines = text.splitlines()
    scale = next(
        k
        for k, line in enumerate(lines)
        if line.strip() and line.split()[-1].isdigit() and "  " in line and "[" not in line and "." not in line
    )
    assert len([line for line in lines[scale + 1 : scale + 4] if "|" in line]) == 3
    plain = format_report(rated, bars=False, jobs=1)
    assert len(plain.splitlines()) == len(lines) - 5  # the blank line, the scale and three bars


def test_too_few_pairs_to_rate_says_so(small: dict[str, Any]) -> None:
    """Two pairs a pairing: no rating, no interval that looks exact and means nothing; the text and JSON say why."""
    assert small["ratings_withheld"] == {
        "reason": "too few pairs to rate",
        "least_pairs_per_pairing": 2,
        "min_pairs_per_pairing": MIN_PAIRS_TO_RATE,
    }
    for r in small["ratings"]:
        assert r["rating"] is None and r["rating_ci95"] == [None, None] and r["games"] == 8
    assert [r["score"] for r in small["ratings"]] == sorted((r["score"] for r in small["ratings"]), reverse=True)
    text = format_report(small, bars=True, jobs=1)
    assert f"too few pairs to rate (2 duplicate pairs in a pairing; at least {MIN_PAIRS_TO_RATE}" in text
    assert f"--games {2 * MIN_PAIRS_TO_RATE}" in text
    assert "1500" not in text and "anchor" not in text and "[" not in text  # no rating, no interval, no bar
    assert all(len(line) <= 79 for line in text.splitlines())
    # A pair split 1-1 in every pairing once gave "1500  1500 to 1500" for everybody.
    twins = run_tournament(
        ["first", "mille.players:FirstPlayer"], games=2, options=RunOptions(seed=1, jobs=1, game_points=FAST)
    )
    assert twins["ratings_withheld"]["least_pairs_per_pairing"] == 1
    assert "1500" not in format_report(twins)


def test_anchor_is_the_first_named_without_bsd() -> None:
    report = run_tournament(
        ["random", "first"], games=20, resamples=50, options=RunOptions(seed=1, jobs=1, game_points=FAST)
    )
    assert report["rating_model"]["anchor"] == "random"
    assert {r["player"]: r["rating"] for r in report["ratings"]}["random"] == 1500.0


def test_report_does_not_depend_on_jobs(small: dict[str, Any]) -> None:
    two = run_tournament(
        PLAYERS, games=4, resamples=200, options=RunOptions(seed=7, jobs=2, game_points=FAST, pairs_per_task=2)
    )
    assert without_timing(two) == without_timing(small)


# --------------------------------------------------------------------------
# Results files


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_out_then_resume_plays_nothing_more(tmp_path: Path, small: dict[str, Any]) -> None:
    path = tmp_path / "t.jsonl"
    report = run_tournament(
        PLAYERS, games=4, resamples=200, out=path, options=RunOptions(seed=7, jobs=1, game_points=FAST)
    )
    assert without_timing(report) == without_timing(small)
    records = _records(path)
    assert records[0]["format"] == FORMAT and records[0]["players"] == PLAYERS
    assert len(records) == 1 + 6
    again = run_tournament(
        PLAYERS, games=4, resamples=200, resume=path, options=RunOptions(seed=7, jobs=1, game_points=FAST)
    )
    assert again["resumed_pairs"] == 6
    assert without_timing(again) == without_timing({**small, "resumed_pairs": 6})
    # Think times come back from the file exactly, so they are the same too.
    assert [r["think_ms"] for r in again["ratings"]] == [r["think_ms"] for r in report["ratings"]]
    assert len(_records(path)) == 7


def test_a_truncated_last_line_is_dropped_and_replayed(tmp_path: Path, small: dict[str, Any]) -> None:
    path = tmp_path / "t.jsonl"
    run_tournament(PLAYERS, games=4, resamples=200, out=path, options=RunOptions(seed=7, jobs=1, game_points=FAST))
    data = path.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[: last + (len(data) - last) // 2])  # a kill in the middle of the last write
    resumed = run_tournament(
        PLAYERS, games=4, resamples=200, resume=path, options=RunOptions(seed=7, jobs=1, game_points=FAST)
    )
    assert resumed["resumed_pairs"] == 5
    assert without_timing(resumed) == without_timing({**small, "resumed_pairs": 5})
    records = _records(path)  # every line whole again
    assert len(records) == 7 and path.read_bytes().endswith(b"\n")


def test_only_a_missing_or_empty_file_starts_afresh(tmp_path: Path, small: dict[str, Any]) -> None:
    """An empty file is a tournament not started; a file without one whole line is somebody else's, kept as it is.

    (A results file always has its header whole: it is written before the
    file has its name, so a kill cannot leave a header cut short.)
    """
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"")
    report = run_tournament(
        PLAYERS, games=4, resamples=200, resume=path, options=RunOptions(seed=7, jobs=1, game_points=FAST)
    )
    assert without_timing(report) == without_timing(small)
    assert len(_records(path)) == 7
    for content in (b'{"format": "mille.tourn', b'{"minified":[1,2,3],"json":true}', b"\x00" * 100):
        path.write_bytes(content)
        with pytest.raises(TournamentError, match=r"is not a mille\.tournament results file"):
            run_tournament(
                PLAYERS, games=4, resamples=200, resume=path, options=RunOptions(seed=7, jobs=1, game_points=FAST)
            )
        assert path.read_bytes() == content


def _main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = tournament.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_without_a_seed_the_seed_is_drawn_kept_private_and_said_at_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No --seed: a seed from os.urandom, in a 0600 results file while it runs, said last; --resume reads it back."""
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"")
    path.chmod(0o644)  # an empty file taken over is made private too
    status, out, err = _main(
        ["bsd", "first", "--games", "2", "--jobs", "1", "--bootstrap", "20", "--out", str(path)], capsys
    )
    assert status == 0, err
    seed = json.loads(path.read_bytes().splitlines()[0])["seed"]
    assert 2**127 <= seed < 2**128  # 128 bits: no hand of it can be searched (issue 43)
    assert out.startswith(f"mille.tournament: 2 players, seed {seed}, ")
    assert out.endswith(f"\n  seed drawn at random: replay with --seed {seed}\n"), out
    assert path.stat().st_mode & 0o777 == 0o600
    # --resume without --seed goes on with the file's seed (nothing left to play: the same report).
    status, again, err = _main(
        ["bsd", "first", "--games", "2", "--jobs", "1", "--bootstrap", "20", "--resume", str(path)], capsys
    )
    assert status == 0 and err == "" and f"seed {seed}, " in again and "replay" not in again
    status, _, err = _main(["bsd", "first", "--games", "2", "--jobs", "1", "--out", str(tmp_path / "u.jsonl")], capsys)
    assert status == 0
    assert json.loads((tmp_path / "u.jsonl").read_bytes().splitlines()[0])["seed"] != seed


def test_a_file_of_other_arguments_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.jsonl"
    assert _main(["bsd", "first", "--games", "2", "--seed", "2", "--jobs", "1", "--out", str(path)], capsys)[0] == 0
    before = path.read_bytes()
    for argv, needle in [
        (["bsd", "first", "--games", "2", "--seed", "3"], "--seed 2 there, 3 here"),
        (["bsd", "random", "--games", "2", "--seed", "2"], "players bsd first there, bsd random here"),
        (["bsd", "first", "--games", "4", "--seed", "2"], "--games (pairs per pairing) 1 there, 2 here"),
        (
            ["bsd", "first", "--games", "2", "--seed", "2", "--max-think-ms", "50"],
            "--max-think-ms none there, 50.0 here",
        ),
    ]:
        status, out, err = _main([*argv, "--jobs", "1", "--resume", str(path)], capsys)
        assert status == 1 and out == ""
        assert err.count("\n") == 1 and "holds a tournament of other arguments" in err and needle in err, err
    assert path.read_bytes() == before  # untouched
    # --out never overwrites.
    status, _, err = _main(["bsd", "first", "--games", "2", "--seed", "2", "--out", str(path)], capsys)
    assert status == 1 and f"--resume {path}" in err


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"hello\n", "not a mille.tournament results file"),
        (b"[1, 2]\n", "not a mille.tournament results file"),
        (None, "line 2: a damaged record"),
    ],
)
def test_damaged_files_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, needle: str
) -> None:
    path = tmp_path / "t.jsonl"
    if content is None:  # a damaged record that is not the last line
        run_tournament(["bsd", "first"], games=4, out=path, resamples=0, options=RunOptions(seed=1, jobs=1))
        lines = path.read_bytes().split(b"\n")
        lines[1] = lines[1][:40]
        content = b"\n".join(lines)
    path.write_bytes(content)
    status, out, err = _main(["bsd", "first", "--games", "4", "--jobs", "1", "--resume", str(path)], capsys)
    assert status == 1 and out == "" and err.count("\n") == 1 and needle in err, err


# --------------------------------------------------------------------------
# A results file comes from outside: every record is checked before it counts

RESUME = ["bsd", "first", "--games", "4", "--jobs", "1", "--bootstrap", "10"]


@pytest.fixture(scope="module")
def results_lines(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The lines of the results file of ``RESUME`` (two pairs): the header, then lines 2 and 3."""
    path = tmp_path_factory.mktemp("results") / "t.jsonl"
    run_tournament(["bsd", "first"], games=4, out=path, resamples=0, options=RunOptions(seed=1, jobs=1))
    return path.read_bytes().splitlines(keepends=True)


def _edit(line: bytes, change: Any) -> bytes:
    """``line``'s record changed by ``change(record)`` (which may also return the new line's bytes)."""
    record = json.loads(line)
    new = change(record)
    return new if isinstance(new, bytes) else (json.dumps(record, separators=(",", ":")) + "\n").encode()


def _first_game(record: dict[str, Any]) -> dict[str, Any]:
    game: dict[str, Any] = record["result"]["games"][0]
    return game


def _flip_winner(record: dict[str, Any]) -> None:
    game = _first_game(record)
    game["winner"] = 0 if game["winner"] == 1 else 1


def _forfeit_by_winner(record: dict[str, Any]) -> None:
    game = _first_game(record)
    game.update(margins=[], a_points=0, b_points=0, winner=0)
    game["fault"] = {"player": 0, "kind": "exception", "message": "boom", "hand": 0}


def _max_seconds(record: dict[str, Any], number: str) -> bytes:
    """The record's line with player A's longest think time written as ``number`` (JSON that Python reads)."""
    return (
        re.sub(
            r'"max_seconds":[^,]*', f'"max_seconds":{number}', json.dumps(record, separators=(",", ":")), count=1
        ).encode()
        + b"\n"
    )


def _more_decisions(record: dict[str, Any]) -> None:
    think = record["result"]["think"][0]
    think["count"] += 10**3000
    think["counts"][0] += 10**3000


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        # Flipping one game's winner moved a rating by 200 points, silently.
        (_flip_winner, "the first game: the winner is not the player with more points"),
        # A 4,000-digit margin was an OverflowError; ten thousand "[", a RecursionError.
        (lambda r: _first_game(r)["margins"].__setitem__(0, 10**3999), "a hand's margin beyond what a hand can score"),
        (lambda r: b"[" * 10_000 + b"]" * 10_000 + b"\n", "nested deeper than any line of a results file"),
        (_more_decisions, "player A: more decisions than two games have"),
        (lambda r: r["result"]["think"][1]["buckets"].__setitem__(-1, 10**300), "think times beyond the longest"),
        (lambda r: _max_seconds(r, "1e999"), "player A's longest think time is not a time a decision took"),
        (lambda r: _max_seconds(r, "NaN"), "NaN is not a number"),
        (lambda r: _first_game(r)["margins"].__setitem__(0, _first_game(r)["margins"][0] + 1), "do not add up"),
        (lambda r: _first_game(r).__setitem__("a_seat", 1), "player A in seat 1"),
        (lambda r: _first_game(r).update(margins=[0], a_points=0, b_points=0, winner=None), "before either player"),
        (_forfeit_by_winner, "the winner is the player who forfeited"),
        (lambda r: r["result"].__setitem__("pair", 0), "pair 1 of bsd first is recorded twice"),
        (lambda r: r["result"].__setitem__("pair", 7), "pair 8 is beyond the 2 of a pairing"),
        (lambda r: r.__setitem__("pairing", ["bsd", "random"]), "bsd random is not a pairing of this tournament"),
        (lambda r: _first_game(r).__setitem__("margins", [[[1]]]), "margins must be a list of integers"),
    ],
)
def test_a_record_that_does_not_add_up_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], results_lines: list[bytes], change: Any, needle: str
) -> None:
    path = tmp_path / "t.jsonl"
    content = b"".join([*results_lines[:2], _edit(results_lines[2], change)])
    path.write_bytes(content)
    status, out, err = _main([*RESUME, "--resume", str(path)], capsys)
    assert status == 1 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"mille.tournament: {path}, line 3: a damaged record (") and needle in err, err
    assert path.read_bytes() == content  # untouched


def test_a_header_with_fields_of_its_own_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], results_lines: list[bytes]
) -> None:
    path = tmp_path / "t.jsonl"
    first = json.loads(results_lines[0])
    content = json.dumps({**first, "extra": [[[[]]]]}).encode() + b"\n" + b"".join(results_lines[1:])
    path.write_bytes(content)
    status, out, err = _main([*RESUME, "--resume", str(path)], capsys)
    assert status == 1 and out == "" and err.count("\n") == 1 and f"{path}, line 1: a damaged header" in err, err
    assert path.read_bytes() == content
    # A header of other arguments says which, its values escaped and cut short.
    first["players"] = ["bsd", "\x1b]0;pwned\x07" + "x" * 500]
    path.write_bytes(json.dumps(first).encode() + b"\n")
    status, out, err = _main([*RESUME, "--resume", str(path)], capsys)
    assert status == 1 and err.count("\n") == 1 and "\x1b" not in err and "\x07" not in err, err
    assert "players bsd \\x1b]0;pwned\\x07xxx" in err and "... there, bsd first here" in err


def test_a_results_file_too_large_a_fifo_and_a_full_disk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, results_lines: list[bytes]
) -> None:
    """Refused in one line, never read whole nor waited on; a full disk leaves the file ending with a whole line."""
    path = tmp_path / "t.jsonl"
    content = b"".join(results_lines)
    path.write_bytes(content)
    monkeypatch.setattr(results, "MAX_FILE", len(content) - 1)
    status, _, err = _main([*RESUME, "--resume", str(path)], capsys)
    assert status == 1 and err.count("\n") == 1 and f"cannot read {path}: too large" in err, err
    assert path.read_bytes() == content
    monkeypatch.undo()
    # A FIFO where the results file is to be made: refused as what it is, opened without blocking.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "mille.tournament", *RESUME, "--out", str(fifo)],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert (
        done.returncode == 1 and done.stderr == f"mille.tournament: cannot write {fifo}: not a regular file (a FIFO)\n"
    )
    # A disk that fills up in the middle of the third record: one line, and the file still ends with a whole record.
    out_path = tmp_path / "full.jsonl"
    limit = len(b"".join(results_lines[:2])) + 300  # the header and a record, not two
    main = "import sys\nfrom mille.lab import tournament\nsys.exit(tournament.main(sys.argv[1:]))\n"
    args = ["bsd", "first", "--games", "6", "--jobs", "1", "--bootstrap", "10"]
    done = run_python(full_disk(limit) + main, *args, "--out", str(out_path))
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert f"cannot write {out_path}: write cut short" in done.stderr
    written = out_path.read_bytes()
    assert written.endswith(b"\n") and len(written.splitlines()) == 2  # the pair cut short is not there, even in part
    status, out, err = _main([*args, "--resume", str(out_path), "--json"], capsys)
    assert status == 0 and json.loads(out)["resumed_pairs"] == 1, err


def test_a_results_file_is_written_as_it_always_was(tmp_path: Path, results_lines: list[bytes]) -> None:
    """Through safeio.AppendOnly, the same bytes: compact JSON lines (old files resume, and new ones in old code)."""
    for line in results_lines:
        assert line == (json.dumps(json.loads(line), separators=(",", ":")) + "\n").encode()
    path = tmp_path / "t.jsonl"
    run_tournament(["bsd", "first"], games=4, out=path, resamples=0, options=RunOptions(seed=1, jobs=1))
    assert path.read_bytes().splitlines(keepends=True)[0] == results_lines[0]
    assert os.stat(path).st_mode & 0o777 == 0o600  # made whole, the user's own


#: A player whose name would retitle the terminal if printed raw: ``evil:ESC]0;x BEL`` (a real plug-in).
EVIL_MODULE = 'from mille.players import FirstPlayer\n\nglobals()["\\x1b]0;x\\x07"] = FirstPlayer\n'
EVIL = "evil:\x1b]0;x\x07"


def test_names_and_messages_from_outside_are_printed_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player's name from the command line, a forfeit's message from a results file: escaped on the terminal."""
    (tmp_path / "evil.py").write_text(EVIL_MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "t.jsonl"
    argv = ["bsd", EVIL, "--games", "2", "--jobs", "1", "--bootstrap", "10"]
    status, out, err = _main([*argv, "--out", str(path)], capsys)
    assert status == 0 and "\x1b" not in out + err and "\x07" not in out + err
    assert out.count("evil:\\x1b]0;x\\x07") == 1 and "2 evil:\\x1~" in out  # the rating list; the crosstable's head
    # JSON escapes it as JSON does, and gives it back.
    status, out, _ = _main([*argv, "--json"], capsys)
    assert status == 0 and "\x1b" not in out and json.loads(out)["players"] == ["bsd", EVIL]
    # A forfeit's message read back from the file.
    lines = path.read_bytes().splitlines(keepends=True)
    record = json.loads(lines[1])
    message = "\x1b]2;pwned\x07\x1b[2J"
    record["result"]["games"][0].update(margins=[], a_points=0, b_points=0, winner=1)
    record["result"]["games"][0]["fault"] = {"player": 0, "kind": "exception", "message": message, "hand": 0}
    path.write_bytes(lines[0] + (json.dumps(record) + "\n").encode())
    status, out, err = _main([*argv, "--resume", str(path)], capsys)
    assert status == 0 and "\x1b" not in out + err and "\x07" not in out + err, out
    assert "bsd vs evil:\\x1b]0;x\\x07, game 1, hand 1: bsd exception: \\x1b]2;pwned\\x07\\x1b[2J" in out
    # The command line's own errors quote it escaped too.
    with pytest.raises(SystemExit):
        tournament.main(["bsd", "first", "--\x1b]0;x\x07"])
    err = capsys.readouterr().err
    assert "\x1b" not in err and "unrecognized arguments: --\\x1b]0;x\\x07" in err


def test_a_player_made_once_and_not_again_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A factory that works for the command line's check and fails on the run's own try: one line, no traceback."""
    (tmp_path / "once.py").write_text(
        "from mille.players import FirstPlayer\n\nmade = []\n\n\ndef Once():\n    made.append(1)\n"
        "    if len(made) > 1:\n        raise RuntimeError('only once')\n    return FirstPlayer()\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    status, out, err = _main(["bsd", "once:Once", "--games", "2", "--jobs", "1"], capsys)
    assert status == 1 and out == "" and err == "mille.tournament: 'once:Once' failed to make a player: only once\n"


def test_ctrl_c_keeps_what_is_finished(tmp_path: Path, small: dict[str, Any]) -> None:
    path = tmp_path / "t.jsonl"
    seen: list[int] = []

    def progress(p: tournament.TournamentProgress) -> None:
        seen.append(p.pairs)
        if p.pairs == 3:
            raise KeyboardInterrupt

    report = run_tournament(
        PLAYERS,
        games=4,
        resamples=200,
        out=path,
        progress=progress,
        options=RunOptions(seed=7, jobs=1, game_points=FAST),
    )
    assert report["interrupted"] is True and report["pairs"] == 3 and seen == [1, 2, 3]
    assert len(_records(path)) == 1 + 3
    assert "INTERRUPTED" in format_report(report)
    rest = run_tournament(
        PLAYERS, games=4, resamples=200, resume=path, options=RunOptions(seed=7, jobs=1, game_points=FAST)
    )
    assert without_timing(rest) == without_timing({**small, "resumed_pairs": 3})


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_resume_after_kills_at_random_points(tmp_path: Path) -> None:
    """Killed (the whole process group, SIGKILL) at random records, resumed each time: the same report."""
    args = ["bsd", "first", "random", "--games", "30", "--seed", "11", "--bootstrap", "300"]
    reference = run_tournament(["bsd", "first", "random"], games=30, resamples=300, options=RunOptions(seed=11, jobs=1))
    total = reference["pairs_total"]
    path = tmp_path / "t.jsonl"
    rng = random.Random()
    seed = rng.randrange(10**9)
    rng.seed(seed)
    kills = 0
    for attempt in range(3):
        done = max(0, _lines(path) - 1)
        if done >= total - 1:
            break
        target = rng.randint(done + 1, total - 1)  # kill once this many pairs are recorded
        file_option = ["--out", str(path)] if attempt == 0 else ["--resume", str(path)]
        process = subprocess.Popen(
            [sys.executable, "-m", "mille.tournament", *args, "--jobs", "2", *file_option],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=ENV,
            cwd=tmp_path,
            start_new_session=True,
        )
        try:
            while _lines(path) - 1 < target and process.poll() is None:
                try:
                    process.wait(timeout=0.005)
                except subprocess.TimeoutExpired:
                    pass
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                kills += 1
        finally:
            process.wait()
            assert process.stderr is not None
            error = process.stderr.read().decode()
            process.stderr.close()
        assert process.returncode in (0, -signal.SIGKILL), f"seed {seed}: {error}"
    assert kills >= 1, f"seed {seed}: never killed"
    final = subprocess.run(
        [sys.executable, "-m", "mille.tournament", *args, "--jobs", "1", "--resume", str(path), "--json"],
        capture_output=True,
        text=True,
        env=ENV,
        cwd=tmp_path,
        timeout=300,
    )
    assert final.returncode == 0, final.stderr
    report = json.loads(final.stdout)
    assert report["resumed_pairs"] >= 1
    assert without_timing({**report, "resumed_pairs": 0}) == without_timing(reference), f"seed {seed}"
    assert _lines(path) == 1 + total  # every pair once (a pair recorded twice would be skipped on reading)


# --------------------------------------------------------------------------
# The command line


def test_main_json_is_one_document(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _main(["bsd", "first", "--games", "2", "--jobs", "1", "--json", "--bootstrap", "20"], capsys)
    assert status == 0 and err == "" and out.count("\n") == 1
    report = json.loads(out)
    assert report["players"] == ["bsd", "first"] and report["pairs"] == 1
    assert set(report) >= {"crosstable", "ratings", "pairings", "rating_model", "interrupted", "seconds"}


def test_main_text(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bsd", "first", "random", "--games", "2", "--jobs", "1", "--bootstrap", "20", "--seed", "1"]
    status, out, _ = _main(argv, capsys)
    assert status == 0
    assert out.startswith("mille.tournament: 3 players, seed 1, 2 games a pairing\n  3 duplicate pairs of 3 played")
    assert "replay" not in out
    assert "Crosstable" in out and "Ratings" in out and "Forfeits: none" in out
    assert "....|" not in out  # no bars on a pipe
    assert all(len(line) <= 79 for line in out.splitlines())


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from mille import __version__

    with pytest.raises(SystemExit) as exc:
        tournament.main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out == f"mille.tournament (bsd-mille) {__version__}\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["bsd"],
        ["bsd", "bsd"],
        ["bsd", "nobody"],
        ["bsd", "nomodule_xyz:Bot"],
        ["bsd", "first", "--games", "0"],
        ["bsd", "first", "--jobs", "0"],
        ["bsd", "first", "--out", "a", "--resume", "b"],
        ["bsd", "first", "--resume", "/nonexistent/file"],
        ["bsd", "first", "--jobs", "2", "--cluster", "local:2"],
        ["bsd", "first", "--upload", "bot.py"],
        ["bsd", "first", "--insecure"],
        ["bsd", "first", "--cluster", "local:2", "--insecure"],
        ["bsd", "first", "--cluster", "tcp://host:8786", "--tls-ca", "ca.pem"],
        ["bsd", "first", "--cluster", "local:2", "--connect-timeout", "3"],
        ["bsd", "first", "--cluster", "tls://host:8786", "--connect-timeout", "0"],
    ],
)
def test_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        tournament.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.splitlines()[-1].startswith("python -m mille.tournament: error:")


def test_progress_line_at_once() -> None:
    import io

    stream = io.StringIO()
    bar = tournament.TournamentBar(stream, 30, interval=60)
    bar.start()
    assert stream.getvalue().startswith("\r[....................] 0/30 pairs, 0:00; the first pair is under way")
    bar(tournament.TournamentProgress(15, 30, 5, 2.0))
    assert (
        "[##########..........] 15/30 pairs" in stream.getvalue()
        and "5.0 pairs/s, 5 from the file" in stream.getvalue()
    )
    bar.clear()


def test_progress_rate_falls_while_a_slow_pair_runs() -> None:
    """The rate is over the time elapsed: 1 pair in its first second reads 1.0 a second then, 0.07 at 0:14."""
    import io

    bar = tournament.TournamentBar(io.StringIO(), 3, interval=60)
    bar.latest = tournament.TournamentProgress(1, 3, 0, 1.0)
    assert bar.render(1.0) == "[######..............] 1/3 pairs, 0:01, 1.0 pairs/s"
    assert bar.render(14.0) == "[######..............] 1/3 pairs, 0:14, 0.0714 pairs/s"


def test_progress_counts_the_pairs_resumed_from_the_start(tmp_path: Path) -> None:
    """A file holding one pair of three: the line reads 1/3 at once, not 0/3 until the next pair is in."""
    import io

    path = tmp_path / "t.jsonl"
    run_tournament(
        ["bsd", "first"], games=6, out=path, resamples=0, options=RunOptions(seed=1, jobs=1, game_points=FAST)
    )
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:2]))
    seen: list[tournament.TournamentProgress] = []
    stream = io.StringIO()
    bar = tournament.TournamentBar(stream, 3, interval=60)

    def progress(p: tournament.TournamentProgress) -> None:
        seen.append(p)
        if len(seen) == 1:
            bar(p)
            assert "1/3 pairs, 0:00, 1 from the file; the first pair is under way" in stream.getvalue()

    run_tournament(
        ["bsd", "first"],
        games=6,
        resume=path,
        resamples=0,
        progress=progress,
        options=RunOptions(seed=1, jobs=1, game_points=FAST),
    )
    assert [(p.pairs, p.resumed) for p in seen] == [(1, 1), (2, 1), (3, 1)]


def test_results_header_names_every_setting() -> None:
    config = TournamentConfig(("bsd", "first"), 5, seed=3, max_think_ms=20.0, game_points=FAST)
    first = header(config)
    assert first["players"] == ["bsd", "first"] and first["pairs_per_pairing"] == 5
    assert (first["seed"], first["max_think_ms"], first["game_points"]) == (3, 20.0, FAST)
    assert config.match_config(0, 1) == MatchConfig("bsd", "first", pairing_seed(3, "bsd", "first"), 20.0, FAST)


def test_ctrl_c_on_the_command_line_keeps_every_finished_pair(tmp_path: Path) -> None:
    """SIGINT to the process group, as a terminal's Ctrl-C: status 130, a partial report, all of it in the file.

    The child starts with SIGINT at its default action, as a terminal's
    foreground job has it: a test run started in the background by a
    non-interactive shell inherits SIGINT ignored, and Python then leaves
    it ignored (rightly: a tournament started that way is not meant to stop).
    """
    path = tmp_path / "t.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "mille.tournament", "bsd", "first", "random", "--games", "60", "--jobs", "2"]
        + ["--bootstrap", "50", "--json", "--out", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        cwd=tmp_path,
        start_new_session=True,
        preexec_fn=functools.partial(signal.signal, signal.SIGINT, signal.SIG_DFL),
    )
    try:
        while _lines(path) < 1 + 5 and process.poll() is None:
            try:
                process.wait(timeout=0.01)
            except subprocess.TimeoutExpired:
                pass
        assert process.poll() is None, "finished before it could be interrupted"
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, err
    assert "Traceback" not in err
    report = json.loads(out)
    assert report["interrupted"] is True and 5 <= report["pairs"] < report["pairs_total"]
    assert _lines(path) == 1 + report["pairs"]  # every finished pair, and only those, is in the file
    seed = report["seed"]  # drawn (no --seed): the report says it
    rest = run_tournament(
        ["bsd", "first", "random"], games=60, resamples=50, resume=path, options=RunOptions(seed=seed, jobs=2)
    )
    assert rest["resumed_pairs"] == report["pairs"] and rest["pairs"] == rest["pairs_total"] and not rest["interrupted"]


def test_many_players_with_long_names_fit_79_columns() -> None:
    players = [*PLAYERS, "mille.players:FirstPlayer", "mille.players:RandomPlayer", "mille.players.bsd:BsdPlayer"]
    report = run_tournament(
        players, games=2 * MIN_PAIRS_TO_RATE, resamples=50, options=RunOptions(seed=1, jobs=1, game_points=FAST)
    )
    text = format_report(report, bars=True, jobs=1)
    lines = text.splitlines()
    assert all(len(line) <= 79 and line == line.rstrip() for line in lines)
    headers = [line for line in lines if line.startswith(" " * 16 + "1 bsd") or line.startswith(" " * 16 + "6 ")]
    assert len(headers) == 2  # the crosstable in two blocks of columns
    assert "6 mille.pl~" in headers[1]
    assert sum(1 for line in lines if line.startswith("  mille.players.bsd~")) == 2  # a rating row and a bar
    assert "-0 " not in text  # a mirrored zero margin is +0
    # The widest score cell still leaves a space before the next.
    widest = {"score": 1.0, "score_ci95": [1.0, 1.0], "margin_per_hand": 1.0, "margin_ci95": [0.5, 1.5]}
    assert _cell_lines(widest)[0] == "100 100-100" and len("100 100-100") < CELL


def test_the_documented_example_is_what_the_program_prints() -> None:
    """docs/tournaments.md's report is a real run: the same crosstable, ratings and bars (think times apart)."""
    import re

    text = (Path(DOCS) / "tournaments.md").read_text()
    marker = "`python -m mille.tournament bsd first random --games 40\n--jobs 2` on a terminal):\n\n```\n"
    documented = text[text.index(marker) + len(marker) :].split("```", 1)[0].splitlines()
    report = run_tournament(PLAYERS, games=40, options=RunOptions(seed=1, jobs=1))
    printed = format_report(report, bars=True, jobs=2).splitlines()

    def steady(lines: list[str]) -> list[str]:
        return [re.sub(r"[\d.]+ ms, [\d.]+ ms", "T", line) for line in lines[:-1]]

    assert steady(printed) == steady(documented)


def test_results_writer_flushes_each_record_at_once_and_groups_fsyncs(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    writer = ResultsWriter(path, truncate_to=None, header={"h": 1})
    assert writer.syncs == 1 and path.read_bytes() == b'{"h":1}\n'
    for k in range(50):
        writer.append({"k": k})
        # On its way to the disk at once: another process (a reader, or --resume after a kill) sees it.
        assert path.read_bytes().endswith(b'{"k":%d}\n' % k)
    writer.close()
    assert [json.loads(line) for line in path.read_text().splitlines()][1:] == [{"k": k} for k in range(50)]
    # Fifty records in well under a second: a handful of fsyncs, the last at close.
    assert 2 <= writer.syncs < 50


# --------------------------------------------------------------------------
# The larger tables: standings, their results file, ratings from every game between every two sides


def without_resumed(report: dict[str, Any]) -> dict[str, Any]:
    """A tournament's report without what depends on the run (its times, the sets or pairs read back)."""
    return {k: v for k, v in without_timing(report).items() if k not in ("resumed_sets", "resumed_pairs")}


def _tournament(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mille.tournament", *args],
        capture_output=True,
        text=True,
        env=ENV,
        cwd=cwd,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def _session_gone(pgid: int) -> bool:
    """Whether every process of the session ``pgid`` has gone (polled, with a deadline)."""
    deadline = time.monotonic() + 10
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


@pytest.mark.parametrize(("sig", "jobs", "status"), [(signal.SIGTERM, "2", 143), (signal.SIGINT, "1", 130)])
@pytest.mark.parametrize(
    ("seats", "units", "total"), [(2, "pairs", 3 * 50), (3, "sets", 50)], ids=["two seats", "three seats"]
)
def test_a_stopped_tournament_resumed_reports_what_one_run_does(
    tmp_path: Path, sig: signal.Signals, jobs: str, status: int, seats: int, units: str, total: int
) -> None:
    """Stopped by a real signal once some sets are in the file, resumed: the straight run's report, the file whole."""
    path = tmp_path / "t.jsonl"
    games = "100" if seats == 2 else "150"  # 50 pairs a pairing, or 50 sets a table
    args = ["--players", str(seats), "bsd", "random", "first", "--games", games, "--seed", "6", "--bootstrap", "100"]
    process = subprocess.Popen(
        [sys.executable, "-m", "mille.tournament", *args, "--jobs", jobs, "--json", "--out", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        cwd=tmp_path,
        start_new_session=True,
        # SIGINT at its default action, as a terminal's program has it (a suite run in the background of a
        # non-interactive shell inherits it ignored, and Python then never raises KeyboardInterrupt).
        preexec_fn=functools.partial(signal.signal, signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        while _lines(path) < 1 + 3:
            assert process.poll() is None, "finished before it could be stopped"
            assert time.monotonic() < deadline, "no set in the file"
            time.sleep(0.01)
        process.send_signal(sig)  # to the tournament alone, as kill(1) sends it
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert _session_gone(process.pid), "a worker outlived the tournament"
    assert process.returncode == status, err
    assert "Traceback" not in err
    stopped = json.loads(out)
    assert stopped["interrupted"] is True and 3 <= stopped[units] < stopped[f"{units}_total"] == total
    assert _lines(path) == 1 + stopped[units]  # every set counted is in the file, and no other
    rest = _tournament(*args, "--json", "--resume", str(path), cwd=tmp_path)  # the seed read back from the file
    assert rest.returncode == 0, rest.stderr
    resumed = json.loads(rest.stdout)
    assert resumed[f"resumed_{units}"] == stopped[units] and resumed[units] == total
    straight = run_tournament(
        ["bsd", "random", "first"], seats=seats, games=int(games), resamples=100, options=RunOptions(seed=6, jobs=1)
    )
    assert without_resumed(resumed) == without_resumed(json.loads(json.dumps(straight)))  # (its tuples as lists)
    assert _lines(path) == 1 + total
    again = _tournament(*args, "--json", "--resume", str(path), cwd=tmp_path)  # nothing left to play
    assert again.returncode == 0 and json.loads(again.stdout)[f"resumed_{units}"] == total


def test_the_record_of_a_tournament_replays_every_table(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    done = _tournament(
        "--players", "4", "bsd", "random", "first", "--games", "4", "--seed", "2", "--record", str(record), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    lines = record.read_text().splitlines()
    head = json.loads(lines[0])
    assert head["tool"] == "mille.tournament" and head["seats"] == 4 and len(lines) == 1 + 3 * 4  # 3 tables
    assert len({json.loads(line)["seed"] for line in lines[1:]}) == 3  # each table its own seed
    checked = subprocess.run(
        [sys.executable, "-m", "mille.replay", str(record), "--check"], capture_output=True, text=True, env=ENV
    )
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == "12 games replayed: every move legal, every score as recorded"
    listing = subprocess.run(
        [sys.executable, "-m", "mille.replay", str(record)], capture_output=True, text=True, env=ENV
    )
    assert "a record of mille.tournament at the table of 4, 12 games" in listing.stdout

    def replay(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mille.replay", str(record), *args], capture_output=True, text=True, env=ENV
        )

    several = replay("--game", "2")  # game 2 of each of the three tables
    assert several.returncode == 1 and "game 2 of several tables: name one with --pairing" in several.stderr
    one = replay("--game", "2", "--pairing", "first", "bsd", "--hand", "1")
    assert one.returncode == 0, one.stderr
    text = one.stdout.splitlines()
    assert "set 1, rotation 2" in text[0] and text[-1] == "Replayed: every move legal; the hands' results as recorded."
    assert any(line.startswith("Hand 1 over") for line in text) and not any("Hand 2 over" in t for t in text)
    assert any(t.startswith("  side 0 (seats 0, 2): ") for t in text[1:3])
    assert replay("--game", "9", "--pairing", "bsd", "first").returncode == 1  # four games a table


def test_what_a_table_results_file_does_not_add_up_to_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    run_tournament(
        ["bsd", "random", "first"], seats=3, games=6, out=path, options=RunOptions(seed=3, jobs=1, game_points=FAST)
    )
    config = TournamentConfig(("bsd", "random", "first"), 2, 3, None, FAST, seats=3)
    data = path.read_bytes()
    done, good = parse_results(data, config, path)
    assert sorted(done) == [(0, 0), (0, 1)] and good == len(data)
    head, first, second = data.decode().splitlines()

    def refused(*lines: str) -> str:
        with pytest.raises(TournamentError) as caught:
            parse_results(("\n".join(lines) + "\n").encode(), config, path)
        message = str(caught.value)
        assert "\n" not in message
        return message

    record = json.loads(first)
    game = record["games"][0]
    loser = next(p for p in range(3) if p not in game["winners"])
    game["winners"] = sorted([*game["winners"], loser])  # a player who lost named a winner
    assert "line 2: a damaged record (rotation 1: the winners are not the players with the most points)" in refused(
        head, json.dumps(record)
    )
    assert "line 3: a damaged record (set 1 of" in refused(head, first, first)
    assert "line 2: a damaged record (a set is 3 games" in refused(head, json.dumps({**json.loads(first), "games": []}))
    assert "line 2: a damaged record (a set is not a whole number from 0 to 1)" in refused(
        head, json.dumps({**json.loads(first), "set": 4})
    )
    assert "is not a table of this tournament" in refused(head, json.dumps({**json.loads(first), "table": ["a", "b"]}))
    assert "--seed 4 there, 3 here" in refused(head.replace('"seed":3', '"seed":4'), first)
    two_seat = json.dumps({"format": "mille.tournament results", "version": 1})
    assert "the results file of a two-seat tournament" in refused(two_seat)
    # A last line cut short is a set to play again, not a damaged file.
    assert sorted(parse_results((head + "\n" + first + "\n" + second[:40]).encode(), config, path)[0]) == [(0, 0)]


def test_the_command_line_refuses_a_file_of_another_table_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    made = _tournament(
        "--players", "4", "bsd", "random", "--games", "2", "--seed", "1", "--out", str(path), cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    other = _tournament("--players", "3", "bsd", "random", "first", "--games", "2", "--resume", str(path), cwd=tmp_path)
    assert other.returncode == 1 and other.stdout == "" and other.stderr.count("\n") == 1
    assert "holds a tournament of other arguments" in other.stderr and "--players 4 there, 3 here" in other.stderr
    exists = _tournament("--players", "4", "bsd", "random", "--games", "2", "--out", str(path), cwd=tmp_path)
    assert exists.returncode == 1 and f"{path} exists: --resume {path} goes on with it" in exists.stderr


def _game(points: tuple[int, ...], winners: tuple[int, ...], fault: tuple[int, str, str] | None = None) -> GameRecord:
    return GameRecord(0, 0, 3, points, winners, None if fault is None else Fault(*fault, 3))


def test_a_game_read_between_every_two_sides() -> None:
    won = _game((5100, 2000, 3000), (0,))
    assert [pairwise(won, 0, 1), pairwise(won, 1, 0), pairwise(won, 2, 1), pairwise(won, 1, 2)] == [1, 0, 1, 0]
    tie = _game((5100, 5100, 3000), (0, 1))
    assert [pairwise(tie, 0, 1), pairwise(tie, 1, 2), pairwise(tie, 2, 0)] == [0.5, 1, 0]
    level = _game((5100, 2000, 2000), (0,))
    assert pairwise(level, 1, 2) == pairwise(level, 2, 1) == 0.5
    forfeit = _game((900, 4000, 100), (1, 2), (0, "illegal", "no"))  # the forfeit loses to the player it led
    assert [pairwise(forfeit, 0, 1), pairwise(forfeit, 0, 2), pairwise(forfeit, 2, 1)] == [0, 0, 0.5]


def test_ratings_at_four_seats_rank_the_partnerships() -> None:
    """Enough sets: every player rated, bsd the anchor at 1500 and first; each interval holds its rating."""
    report = run_tournament(
        ["random", "bsd", "first"],
        seats=4,
        games=20,
        resamples=200,
        options=RunOptions(seed=8, jobs=1, game_points=FAST),
    )
    rows = report["ratings"]
    assert rows[0]["player"] == "bsd" and rows[0]["rating"] == 1500.0
    assert report["rating_model"]["anchor"] == "bsd" and report["rating_model"]["units"] == "sets"
    for row in rows[1:]:
        low, high = row["rating_ci95"]
        assert row["rating"] < 1500 and low <= row["rating"] <= high
        assert row["games"] == 2 * 20  # two tables of 20 games each
    assert sum(r["score"] * r["games"] for r in rows) == pytest.approx(sum(r["games"] for r in rows) / 2)
    text = format_report(report)
    assert "Ratings: Bradley-Terry on the Elo scale, bsd = 1500" in text and "over sets (200 resamples)" in text
    few = run_tournament(
        ["random", "bsd", "first"], seats=4, games=4, options=RunOptions(seed=8, jobs=1, game_points=FAST)
    )
    assert few["ratings_withheld"]["unit"] == "set" and all(r["rating"] is None for r in few["ratings"])
    assert "too few sets to rate" in format_report(few) and "--games 20" in format_report(few)
    assert TABLE_FORMAT == "mille.tournament table results"


def test_a_tournament_at_three_seats_plays_every_group_of_three() -> None:
    players = ["bsd", "random", "first", "mille.players:RandomPlayer"]
    report = run_tournament(players, seats=3, games=3, options=RunOptions(seed=4, game_points=FAST, jobs=1))
    groups = [tuple(t["players"]) for t in report["tables"]]
    assert sorted(groups) == sorted(itertools.combinations(players, 3))
    assert len({t["seed"] for t in report["tables"]}) == 4  # each group its own deals
    for t in report["tables"]:
        assert sum(r["game_score"] for r in t["per_player"]) == pytest.approx(1.0)
    assert {r["player"]: r["tables"] for r in report["standings"]} == dict.fromkeys(players, 3)
    assert report["standings"][0]["player"] == "bsd"
    again = run_tournament(players, seats=3, games=3, options=RunOptions(seed=4, game_points=FAST, jobs=1))
    assert [t["per_player"] for t in again["tables"]] == [t["per_player"] for t in report["tables"]]
    assert "Tournament at the table of 3" in format_report(report)
    for t in report["tables"]:  # each table is the match it names, as a pairing is at two seats
        alone = run_match(
            *t["players"],
            seats=3,
            games=3,
            options=RunOptions(seed=table_seed(4, 3, t["players"]), jobs=1, game_points=FAST),
        )
        assert {**alone, "seconds": 0} == {**t, "seconds": 0}


def test_the_tournament_command_line_at_three_seats() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mille.tournament", "--players", "3", "bsd", "random", "first", "--games", "3"]
        + ["--seed", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["seats"] == 3 and len(report["tables"]) == 1 and len(report["standings"]) == 3
    refused = subprocess.run(
        [sys.executable, "-m", "mille.tournament", "--players", "3", "bsd", "random", "first"]
        + ["--pairs-per-task", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert (
        refused.returncode == 2 and "--pairs-per-task is not played at --players 3" in refused.stderr.splitlines()[-1]
    )
