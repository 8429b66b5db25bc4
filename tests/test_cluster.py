"""--cluster: a real Dask LocalCluster of two worker processes on loopback; a worker killed in the middle.

Skipped, with the reason, where the ``cluster`` extra (Dask distributed) is
not installed; ``.ci/run`` installs it, so CI runs these.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

distributed = pytest.importorskip(
    "distributed", reason="the cluster extra is not installed: pip install -e '.[cluster]'"
)

from mille.lab import match, tournament  # noqa: E402
from mille.lab.report import TIMING_FIELDS  # noqa: E402
from mille.lab.standings import without_timing  # noqa: E402
from mille.lab.tournament import run_tournament  # noqa: E402

pytestmark = pytest.mark.cluster

FAST = 1000
PLAYERS = ["bsd", "first", "random"]
SRC = str(Path(__file__).resolve().parents[1] / "src")
ENV = {"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"}


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """Two single-threaded worker processes behind a scheduler on 127.0.0.1."""
    import logging

    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
    )
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def test_cluster_run_is_the_jobs_1_run(client: Any) -> None:
    assert client.scheduler.address.startswith("tcp://127.0.0.1:")
    assert len(client.nthreads()) == 2
    serial = run_tournament(PLAYERS, games=6, seed=5, jobs=1, game_points=FAST, resamples=100)
    clustered = run_tournament(
        PLAYERS, games=6, seed=5, executor=client.get_executor(pure=False), workers=2, game_points=FAST, resamples=100
    )
    assert without_timing(clustered) == without_timing(serial)
    # And a match.
    one = match.run_match("bsd", "random", games=8, seed=2, jobs=1, game_points=FAST)
    many = match.run_match(
        "bsd", "random", games=8, seed=2, executor=client.get_executor(pure=False), workers=2, game_points=FAST
    )
    assert match_without_timing(one) == match_without_timing(many)


def match_without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in TIMING_FIELDS}


def test_a_worker_killed_in_the_middle_loses_nothing(client: Any) -> None:
    """SIGKILL to a worker process that has pairs in hand: they are run again elsewhere, the report is the same."""
    serial = run_tournament(PLAYERS, games=30, seed=9, jobs=1, resamples=100)
    killed: list[tuple[str, int, int]] = []

    def progress(p: tournament.TournamentProgress) -> None:
        if killed or p.pairs < 3:
            return
        processing = client.processing()
        pids = client.run(os.getpid)
        busy = [w for w, keys in processing.items() if keys and w in pids]
        if busy:
            worker = busy[0]
            os.kill(pids[worker], signal.SIGKILL)
            killed.append((worker, pids[worker], len(processing[worker])))

    report = run_tournament(
        PLAYERS,
        games=30,
        seed=9,
        executor=client.get_executor(pure=False),
        workers=2,
        resamples=100,
        progress=progress,
    )
    assert killed, "no worker had work when looked at"
    assert report["pairs"] == report["pairs_total"] == 45
    assert without_timing(report) == without_timing(serial)
    client.wait_for_workers(2, timeout=60)  # the nanny brought it back


BOT = textwrap.dedent(
    """
    class Bot:
        def choose(self, observation, rng):
            return observation.legal_moves()[0]
    """
)


def test_a_bot_the_workers_cannot_import(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Importable here (the current directory), not on the workers: one clear line; with --upload it runs."""
    (tmp_path / "cluster_only_here.py").write_text(BOT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    address = client.scheduler.address
    argv = ["bsd", "cluster_only_here:Bot", "--games", "2", "--bootstrap", "10", "--cluster", address]
    assert tournament.main(argv) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "cannot import 'cluster_only_here'" in err and "--upload" in err and "worker tcp://127.0.0.1:" in err
    assert match.main(["bsd", "cluster_only_here:Bot", "--games", "2", "--cluster", address]) == 1
    assert "cannot import 'cluster_only_here'" in capsys.readouterr().err
    # Sent to the workers, it plays (and the result is the local one).
    assert tournament.main([*argv, "--upload", str(tmp_path / "cluster_only_here.py"), "--json"]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert tournament.main([*argv[:-2], "--jobs", "1", "--json"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert without_timing(remote) == without_timing(local)
    assert remote["pairings"][0]["errors"] == []


def test_cluster_command_lines(
    client: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mille.lab import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)  # nobody listens: do not wait the full 30 s
    assert tournament.main(["bsd", "first", "--cluster", "local:0"]) == 1
    assert "local:N needs a number of workers N of at least 1" in capsys.readouterr().err
    assert match.main(["bsd", "first", "--cluster", "tcp://127.0.0.1:1", "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mille.match: cannot reach a Dask scheduler at tcp://127.0.0.1:1") and err.count("\n") == 1
    assert tournament.main(["bsd", "first", "--cluster", client.scheduler.address, "--upload", "/no/such.py"]) == 1
    assert "--upload /no/such.py: no such file" in capsys.readouterr().err


def test_local_cluster_from_the_command_line(tmp_path: Path) -> None:
    """--cluster local:2 starts and stops its own cluster; the report is --jobs 1's."""
    args = ["bsd", "first", "--games", "6", "--seed", "4", "--bootstrap", "50", "--json"]
    reports = []
    for where in (["--jobs", "1"], ["--cluster", "local:2"]):
        done = subprocess.run(
            [sys.executable, "-m", "mille.tournament", *args, *where],
            capture_output=True,
            text=True,
            env=ENV,
            cwd=tmp_path,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        reports.append(json.loads(done.stdout))
    assert without_timing(reports[0]) == without_timing(reports[1])


KILLER = textwrap.dedent(
    """
    import os
    import signal


    class Killer:
        '''Plays the first legal move here; on a Dask worker it kills the worker process.'''

        def choose(self, observation, rng):
            try:
                from distributed import get_worker

                get_worker()
            except (ImportError, ValueError):
                return observation.legal_moves()[0]
            os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_a_pair_that_keeps_killing_workers_ends_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dask gives up on a task whose workers die (here at once: allowed-failures 0): a message, the file kept."""
    import logging

    import dask

    bot = tmp_path / "worker_killer.py"
    bot.write_text(KILLER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = distributed.LocalCluster(
            n_workers=1,
            threads_per_worker=1,
            processes=True,
            dashboard_address="127.0.0.1:0",
            silence_logs=logging.CRITICAL,
        )
    try:
        out = tmp_path / "t.jsonl"
        argv = ["bsd", "worker_killer:Killer", "--games", "4", "--cluster", cluster.scheduler_address]
        status = tournament.main([*argv, "--upload", str(bot), "--out", str(out)])
    finally:
        cluster.close()
    captured = capsys.readouterr()
    assert status == 1 and captured.out == ""
    err = captured.err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "the cluster failed (KilledWorker" in err and f"--resume {out} goes on" in err
    assert out.read_text().count("\n") == 1  # the header: the file is there to resume


def test_a_record_on_the_cluster_is_the_jobs_1_record(client: Any, tmp_path: Path) -> None:
    """--record: the workers send every move back with the pairs; the match's record is the same bytes."""
    from mille.lab.gamelog import read_record
    from mille.lab.replay import check_game

    one, many = tmp_path / "one.jsonl", tmp_path / "many.jsonl"
    match.run_match("bsd", "random", games=8, seed=2, jobs=1, game_points=FAST, record=one)
    executor = client.get_executor(pure=False)
    match.run_match("bsd", "random", games=8, seed=2, executor=executor, workers=2, game_points=FAST, record=many)
    assert one.read_bytes() == many.read_bytes()
    path = tmp_path / "t.jsonl"
    run_tournament(PLAYERS, games=4, seed=5, executor=executor, workers=2, game_points=FAST, resamples=0, record=path)
    _, games, _ = read_record(path)
    replayed = 0
    for game in games:
        check_game(game)
        replayed += 1
    assert replayed == 12
