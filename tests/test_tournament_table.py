"""Tournaments at the larger tables: the results file (--out, --resume after SIGTERM and SIGINT), --record, ratings."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mille.lab.options import RunOptions
from mille.lab.records import Fault, GameRecord
from mille.lab.results import TournamentError
from mille.lab.tabletournament import (
    FORMAT,
    TableTournamentConfig,
    format_table_tournament,
    pairwise,
    parse_sets,
    run_table_tournament,
)

SRC = str(Path(__file__).resolve().parents[1] / "src")
ENV = {"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"}
FAST = 1000  # game points: a game is a hand or two


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    """A table tournament's report without what depends on the run (its times, the sets read back)."""
    kept = {k: v for k, v in report.items() if k not in ("seconds", "resumed_sets")}
    kept["tables"] = [{k: v for k, v in t.items() if k != "seconds"} for t in report["tables"]]
    return kept


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


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
def test_a_stopped_tournament_resumed_reports_what_one_run_does(
    tmp_path: Path, sig: signal.Signals, jobs: str, status: int
) -> None:
    """Stopped by a real signal once some sets are in the file, resumed: the straight run's report, the file whole."""
    path = tmp_path / "t.jsonl"
    args = ["--players", "3", "bsd", "random", "first", "--games", "150", "--seed", "6", "--bootstrap", "100"]
    process = subprocess.Popen(
        [sys.executable, "-m", "mille.tournament", *args, "--jobs", jobs, "--json", "--out", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        cwd=tmp_path,
        start_new_session=True,
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
    assert stopped["interrupted"] is True and 3 <= stopped["sets"] < stopped["sets_total"] == 50
    assert _lines(path) == 1 + stopped["sets"]  # every set counted is in the file, and no other
    rest = _tournament(*args, "--json", "--resume", str(path), cwd=tmp_path)  # the seed read back from the file
    assert rest.returncode == 0, rest.stderr
    resumed = json.loads(rest.stdout)
    assert resumed["resumed_sets"] == stopped["sets"] and resumed["sets"] == 50
    straight = run_table_tournament(
        ["bsd", "random", "first"], seats=3, games=150, resamples=100, options=RunOptions(seed=6, jobs=1)
    )
    assert without_timing(resumed) == without_timing(json.loads(json.dumps(straight)))  # (its tuples as JSON lists)
    assert _lines(path) == 1 + 50
    again = _tournament(*args, "--json", "--resume", str(path), cwd=tmp_path)  # nothing left to play
    assert again.returncode == 0 and json.loads(again.stdout)["resumed_sets"] == 50


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
    run_table_tournament(
        ["bsd", "random", "first"], seats=3, games=6, out=path, options=RunOptions(seed=3, jobs=1, game_points=FAST)
    )
    config = TableTournamentConfig(3, ("bsd", "random", "first"), 2, 3, None, FAST)
    data = path.read_bytes()
    done, good = parse_sets(data, config, path)
    assert sorted(done) == [(0, 0), (0, 1)] and good == len(data)
    head, first, second = data.decode().splitlines()

    def refused(*lines: str) -> str:
        with pytest.raises(TournamentError) as caught:
            parse_sets(("\n".join(lines) + "\n").encode(), config, path)
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
    assert sorted(parse_sets((head + "\n" + first + "\n" + second[:40]).encode(), config, path)[0]) == [(0, 0)]


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
    report = run_table_tournament(
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
    text = format_table_tournament(report)
    assert "Ratings: Bradley-Terry on the Elo scale, bsd = 1500" in text and "over sets (200 resamples)" in text
    few = run_table_tournament(
        ["random", "bsd", "first"], seats=4, games=4, options=RunOptions(seed=8, jobs=1, game_points=FAST)
    )
    assert few["ratings_withheld"]["unit"] == "set" and all(r["rating"] is None for r in few["ratings"])
    assert "too few sets to rate" in format_table_tournament(few) and "--games 20" in format_table_tournament(few)
    assert FORMAT == "mille.tournament table results"
