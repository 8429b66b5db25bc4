"""python -m mille.tournament: ratings on known data, the crosstable, results files, resume after kills."""

from __future__ import annotations

import functools
import json
import math
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mille.lab import stats, tournament
from mille.lab.match import run_match
from mille.lab.pairs import MatchConfig
from mille.lab.results import FORMAT, ResultsWriter, header
from mille.lab.schedule import TournamentConfig, pairing_seed
from mille.lab.standings import CELL, _cell_lines, format_crosstable, format_report, interval_bar, without_timing
from mille.lab.tournament import run_tournament

FAST = 1000  # game points in most tests: a game is a hand or two
SRC = str(Path(__file__).resolve().parents[1] / "src")
ENV = {"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"}


# --------------------------------------------------------------------------
# Ratings on synthetic results with a known answer


def test_bradley_terry_recovers_known_strengths() -> None:
    # Strengths 9 : 3 : 1 and exactly the expected results: P(0 beats 1) = 9/12, P(1 beats 2) = 3/4,
    # P(0 beats 2) = 9/10.  Without virtual draws the maximum-likelihood fit is exact.
    results = [(0, 1, 750.0, 1000.0), (1, 2, 750.0, 1000.0), (0, 2, 900.0, 1000.0)]
    s = stats.fit_bradley_terry(3, results, anchor=2, virtual_draws=0.0)
    assert s[2] == 0.0
    assert s[0] == pytest.approx(math.log(9.0), abs=1e-9)
    assert s[1] == pytest.approx(math.log(3.0), abs=1e-9)
    # The same results listed from the other side, and another anchor: the same differences.
    flipped = [(1, 0, 250.0, 1000.0), (2, 1, 250.0, 1000.0), (2, 0, 100.0, 1000.0)]
    t = stats.fit_bradley_terry(3, flipped, anchor=0, virtual_draws=0.0)
    assert t[1] == pytest.approx(-math.log(3.0)) and t[2] == pytest.approx(-math.log(9.0))


def test_bradley_terry_two_players_is_the_logit_with_virtual_draws() -> None:
    # 30 points of 40 games, plus one virtual draw: log-odds of 30.5 to 10.5.
    s = stats.fit_bradley_terry(2, [(0, 1, 30.0, 40.0)], anchor=1, virtual_draws=1.0)
    assert s[0] == pytest.approx(math.log(30.5 / 10.5), abs=1e-9)
    # A clean sweep stays finite thanks to the virtual draw.
    sweep = stats.fit_bradley_terry(2, [(0, 1, 0.0, 2000.0)], anchor=0)
    assert sweep[1] == pytest.approx(math.log(4001.0), abs=1e-6)


def test_bradley_terry_unconnected_player_has_no_rating() -> None:
    s = stats.fit_bradley_terry(4, [(0, 1, 3.0, 4.0), (2, 3, 1.0, 2.0)], anchor=0)
    assert s[0] == 0.0 and s[1] is not None and s[2] is None and s[3] is None


def test_ratings_elo_scale_and_bootstrap_interval() -> None:
    # Two players, 400 pairs: pair scores with mean 1.5 of 2 (a 75% game score).
    rng = random.Random(5)
    scores = tuple(rng.choice([1.0, 1.5, 2.0, 2.0, 1.0, 1.5, 2.0, 1.0]) for _ in range(400))
    p = sum(scores) / (2 * len(scores))
    ratings = stats.rate_players(2, [stats.PairingScores(0, 1, scores)], anchor=1, resamples=2000, seed=3)
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
    se = stats.ELO_PER_LOGIT * sd / math.sqrt(len(scores)) / (p * (1 - p))
    assert other.low is not None and other.high is not None
    assert other.low < other.rating < other.high
    assert other.high - other.low == pytest.approx(2 * stats.Z95 * se, rel=0.1)
    # Repeatable from its seed; another seed moves the ends a little, not the estimate.
    again = stats.rate_players(2, [stats.PairingScores(0, 1, scores)], anchor=1, resamples=2000, seed=3)
    assert again == ratings
    other_seed = stats.rate_players(2, [stats.PairingScores(0, 1, scores)], anchor=1, resamples=2000, seed=4)
    assert other_seed[0].rating == other.rating and (other_seed[0].low, other_seed[0].high) != (other.low, other.high)


@pytest.mark.parametrize(("n", "p"), [(1, 0.3), (7, 0.5), (40, 0.05), (400, 0.8), (5000, 0.37)])
def test_binomial_sampler_has_the_binomial_distribution(n: int, p: float) -> None:
    rng = random.Random(n)
    draws = [stats.binomial(rng, n, p) for _ in range(20000)]
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
    assert stats.binomial(rng, 0, 0.5) == 0 and stats.binomial(rng, 9, 0.0) == 0 and stats.binomial(rng, 9, 1.0) == 9


def test_a_clean_sweep_gets_an_interval_like_wilson() -> None:
    """20 pairs all lost: the bootstrap cannot vary them; the prior's split pair lets the interval reach up."""
    ratings = stats.rate_players(2, [stats.PairingScores(0, 1, (0.0,) * 20)], anchor=1, resamples=2000, seed=1)
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
    return run_tournament(PLAYERS, games=4, seed=7, jobs=1, game_points=FAST, resamples=200)


def test_each_pairing_is_the_match_it_names(small: dict[str, Any]) -> None:
    """One driver: a pairing's report is mille.match's for the pairing seed."""
    assert [(p["a"], p["b"]) for p in small["pairings"]] == [("bsd", "first"), ("bsd", "random"), ("first", "random")]
    for pairing in small["pairings"]:
        alone = run_match(
            pairing["a"],
            pairing["b"],
            games=4,
            seed=pairing_seed(7, pairing["a"], pairing["b"]),
            jobs=1,
            game_points=FAST,
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


def test_ratings_list(small: dict[str, Any]) -> None:
    rows = {r["player"]: r for r in small["ratings"]}
    assert rows["bsd"]["rating"] == 1500.0 and rows["bsd"]["rating_ci95"] == [1500.0, 1500.0]
    assert small["ratings"][0]["player"] == "bsd"  # it beats both here
    for r in small["ratings"]:
        assert r["games"] == 8
        assert r["think_ms"] is not None and set(r["think_ms"]) == {"median", "p95", "max"}
        low, high = r["rating_ci95"]
        assert low <= r["rating"] <= high
    assert sum(r["score"] for r in small["ratings"]) == pytest.approx(1.5)  # half a point a game, 3 pairings
    text = format_report(small, bars=True, jobs=1)
    assert "bsd = 1500" in text and "anchor" in text
    lines = text.splitlines()
    scale = next(
        k
        for k, line in enumerate(lines)
        if line.strip() and line.split()[-1].isdigit() and "  " in line and "[" not in line and "." not in line
    )
    assert len([line for line in lines[scale + 1 : scale + 4] if "|" in line]) == 3
    plain = format_report(small, bars=False, jobs=1)
    assert len(plain.splitlines()) == len(lines) - 5  # the blank line, the scale and three bars


def test_anchor_is_the_first_named_without_bsd() -> None:
    report = run_tournament(["random", "first"], games=2, seed=1, jobs=1, game_points=FAST, resamples=50)
    assert report["rating_model"]["anchor"] == "random"
    assert {r["player"]: r["rating"] for r in report["ratings"]}["random"] == 1500.0


def test_report_does_not_depend_on_jobs(small: dict[str, Any]) -> None:
    two = run_tournament(PLAYERS, games=4, seed=7, jobs=2, game_points=FAST, resamples=200, pairs_per_task=2)
    assert without_timing(two) == without_timing(small)


# --------------------------------------------------------------------------
# Results files


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_out_then_resume_plays_nothing_more(tmp_path: Path, small: dict[str, Any]) -> None:
    path = tmp_path / "t.jsonl"
    report = run_tournament(PLAYERS, games=4, seed=7, jobs=1, game_points=FAST, resamples=200, out=path)
    assert without_timing(report) == without_timing(small)
    records = _records(path)
    assert records[0]["format"] == FORMAT and records[0]["players"] == PLAYERS
    assert len(records) == 1 + 6
    again = run_tournament(PLAYERS, games=4, seed=7, jobs=1, game_points=FAST, resamples=200, resume=path)
    assert again["resumed_pairs"] == 6
    assert without_timing(again) == without_timing({**small, "resumed_pairs": 6})
    # Think times come back from the file exactly, so they are the same too.
    assert [r["think_ms"] for r in again["ratings"]] == [r["think_ms"] for r in report["ratings"]]
    assert len(_records(path)) == 7


def test_a_truncated_last_line_is_dropped_and_replayed(tmp_path: Path, small: dict[str, Any]) -> None:
    path = tmp_path / "t.jsonl"
    run_tournament(PLAYERS, games=4, seed=7, jobs=1, game_points=FAST, resamples=200, out=path)
    data = path.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[: last + (len(data) - last) // 2])  # a kill in the middle of the last write
    resumed = run_tournament(PLAYERS, games=4, seed=7, jobs=1, game_points=FAST, resamples=200, resume=path)
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
    report = run_tournament(PLAYERS, games=4, seed=7, jobs=1, game_points=FAST, resamples=200, resume=path)
    assert without_timing(report) == without_timing(small)
    assert len(_records(path)) == 7
    for content in (b'{"format": "mille.tourn', b'{"minified":[1,2,3],"json":true}', b"\x00" * 100):
        path.write_bytes(content)
        with pytest.raises(tournament.TournamentError, match="is not a mille.tournament results file"):
            run_tournament(PLAYERS, games=4, seed=7, jobs=1, game_points=FAST, resamples=200, resume=path)
        assert path.read_bytes() == content


def _main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = tournament.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


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
        run_tournament(["bsd", "first"], games=4, seed=1, jobs=1, out=path, resamples=0)
        lines = path.read_bytes().split(b"\n")
        lines[1] = lines[1][:40]
        content = b"\n".join(lines)
    path.write_bytes(content)
    status, out, err = _main(["bsd", "first", "--games", "4", "--jobs", "1", "--resume", str(path)], capsys)
    assert status == 1 and out == "" and err.count("\n") == 1 and needle in err, err


def test_ctrl_c_keeps_what_is_finished(tmp_path: Path, small: dict[str, Any]) -> None:
    path = tmp_path / "t.jsonl"
    seen: list[int] = []

    def progress(p: tournament.TournamentProgress) -> None:
        seen.append(p.pairs)
        if p.pairs == 3:
            raise KeyboardInterrupt

    report = run_tournament(
        PLAYERS, games=4, seed=7, jobs=1, game_points=FAST, resamples=200, out=path, progress=progress
    )
    assert report["interrupted"] is True and report["pairs"] == 3 and seen == [1, 2, 3]
    assert len(_records(path)) == 1 + 3
    assert "INTERRUPTED" in format_report(report)
    rest = run_tournament(PLAYERS, games=4, seed=7, jobs=1, game_points=FAST, resamples=200, resume=path)
    assert without_timing(rest) == without_timing({**small, "resumed_pairs": 3})


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_resume_after_kills_at_random_points(tmp_path: Path) -> None:
    """Killed (the whole process group, SIGKILL) at random records, resumed each time: the same report."""
    args = ["bsd", "first", "random", "--games", "30", "--seed", "11", "--bootstrap", "300"]
    reference = run_tournament(["bsd", "first", "random"], games=30, seed=11, jobs=1, resamples=300)
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
    status, out, _ = _main(["bsd", "first", "random", "--games", "2", "--jobs", "1", "--bootstrap", "20"], capsys)
    assert status == 0
    assert out.startswith("mille.tournament: 3 players, seed 1, 2 games a pairing\n  3 duplicate pairs of 3 played")
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
    rest = run_tournament(["bsd", "first", "random"], games=60, seed=1, jobs=2, resamples=50, resume=path)
    assert rest["resumed_pairs"] == report["pairs"] and rest["pairs"] == rest["pairs_total"] and not rest["interrupted"]


def test_many_players_with_long_names_fit_79_columns() -> None:
    players = [*PLAYERS, "mille.players:FirstPlayer", "mille.players:RandomPlayer", "mille.players.bsd:BsdPlayer"]
    report = run_tournament(players, games=2, seed=1, jobs=1, game_points=FAST, resamples=50)
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

    text = (Path(__file__).resolve().parents[1] / "docs" / "tournaments.md").read_text()
    marker = "`python -m mille.tournament bsd first random --games 40\n--jobs 2` on a terminal):\n\n```\n"
    documented = text[text.index(marker) + len(marker) :].split("```", 1)[0].splitlines()
    report = run_tournament(PLAYERS, games=40, seed=1, jobs=1)
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
