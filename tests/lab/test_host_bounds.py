"""The lab bounded by the host, not by what a bot or a command line hands it (issue 36).

Each fault is injected the way it happens: a real command line with the
bad value, a real directory that cannot be made, a real bot program, a
real signal to a real match, a real second user of the machine.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from helpers import SRC
from helpers.faults import local_user
from helpers.procs import processes
from mille.lab import sim
from mille.lab.options import RunOptions

ENV = {"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}


def _run(
    *argv: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``python -m ARGV`` with this tree's sources, its standard input empty."""
    return subprocess.run(
        [sys.executable, "-m", *argv],
        env={**ENV, "HOME": str(cwd), **(env or {})},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def _last_line_only(err: str) -> str:
    """The error line of a refused command line (after argparse's usage), and no traceback."""
    assert "Traceback" not in err, err
    return err.strip().splitlines()[-1]


# --------------------------------------------------------------------------
# --max-think-ms: a finite number within a documented range


@pytest.mark.parametrize("value", ["nan", "inf", "1e308", "-1", "0", "86400001"])
@pytest.mark.parametrize("tool", ["mille.match", "mille.tournament"])
def test_a_think_limit_that_is_no_number_of_milliseconds_is_refused(tool: str, value: str, tmp_path: Path) -> None:
    done = _run(tool, "bsd", "first", "--games", "2", "--jobs", "1", "--max-think-ms", value, cwd=tmp_path)
    assert done.returncode == 2
    assert _last_line_only(done.stderr).endswith(
        "error: --max-think-ms must be a number of milliseconds more than 0 and at most 86400000"
    )


def test_the_largest_think_limit_plays(tmp_path: Path) -> None:
    done = _run(
        "mille.match",
        "bsd",
        "first",
        "--games",
        "2",
        "--jobs",
        "1",
        "--max-think-ms",
        "86400000",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["errors"] == [] and report["a_game_wins"] + report["b_game_wins"] + report["ties"] == 2


# --------------------------------------------------------------------------
# The bots' log directory that cannot be made


@pytest.mark.parametrize("by_variable", [False, True])
def test_a_log_directory_that_cannot_be_made_is_one_line(by_variable: bool, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("a regular file, not a directory\n")
    where = str(tmp_path / "file" / "logs")
    options = [] if by_variable else ["--bot-logs", where]
    env = {"MILLE_BOT_LOGS": where} if by_variable else {}
    bot = "exec:" + sys.executable + " -m mille.bot bsd"
    done = _run("mille.match", bot, "bsd", "--games", "2", "--jobs", "1", *options, cwd=tmp_path, env=env)
    assert done.returncode == 2
    name = "MILLE_BOT_LOGS" if by_variable else "--bot-logs"
    assert _last_line_only(done.stderr) == (
        f"python -m mille.match: error: {name} {where}: cannot make the bots' log directory there (Not a directory)"
    )


# --------------------------------------------------------------------------
# python -m mille.sim: one seed rule with mille's, names escaped


@pytest.mark.parametrize("seed", ["0", "-1", "2147483648", "4294967295"])
def test_sim_refuses_the_seeds_mille_refuses(seed: str, tmp_path: Path) -> None:
    rule = "give a whole number from 1 to 2147483647"
    for tool in ("mille.sim", "mille"):
        done = (
            _run(tool, "--seed", seed, "--hands", "1", cwd=tmp_path)
            if tool == "mille.sim"
            else _run(tool, "--seed", seed, cwd=tmp_path)
        )
        assert done.returncode == (2 if tool == "mille.sim" else 1), (tool, done.stdout)
        assert f"argument --seed: '{seed}' is not a seed: {rule}" in _last_line_only(done.stderr)


def test_a_wide_seed_replays_a_simulation_and_is_no_game_seed(tmp_path: Path) -> None:
    """A seed of 2**32 or more is one a run drew at random (issue 43): the simulation takes it back, a game does not."""
    seed = "4294967297"
    assert _run("mille.sim", "--seed", seed, "--hands", "1", cwd=tmp_path).returncode == 0
    done = _run("mille", "--seed", seed, cwd=tmp_path)
    assert done.returncode == 1
    assert f"argument --seed: '{seed}' is not a seed: give a whole number from 1 to 2147483647" in done.stderr


def test_sim_takes_the_largest_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert sim.main(["--seed", "2147483647", "--hands", "1", "--json"]) == 0
    assert '"seed": 2147483647' in capsys.readouterr().out


def test_sim_shows_a_name_from_outside_escaped(tmp_path: Path) -> None:
    """A command line's escape sequence (a retitle) reaches the summary as text, not as a control sequence."""
    bot = f"exec:env X=\x1b]0;owned\x07 {sys.executable} -m mille.bot bsd"
    done = _run("mille.sim", "--hands", "1", "--human", bot, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "X=\\x1b]0;owned\\x07" in done.stdout.splitlines()[0]


# --------------------------------------------------------------------------
# Stopping is stopping: SIGTERM ends the workers and their bots


def _started(pid: int) -> str | None:
    """The start time of process ``pid`` (to tell it from a later process of the same ID), None if gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] in ("Z", "X") else fields[19]


def _tree(root: int) -> dict[int, int]:
    """Every process under ``root`` now, with its depth below it (1: a child)."""
    children: dict[int, list[int]] = {}
    for pid, _, ppid in processes():
        children.setdefault(ppid, []).append(pid)
    found: dict[int, int] = {}
    level = [root]
    depth = 0
    while level:
        depth += 1
        level = [child for pid in level for child in children.get(pid, [])]
        found.update((pid, depth) for pid in level)
    return found


def _terminate_mid_run(
    argv: list[str], cwd: Path, ready: Callable[[dict[int, int]], bool]
) -> tuple[subprocess.CompletedProcess[str], list[int]]:
    """Start ``python -m ARGV``, wait until its process tree is ``ready``, SIGTERM it alone, wait for its exit.

    Returns what it printed and its status, and the processes of its tree
    (as they were just before the signal) still running once they have had
    a moment to go (these are then killed).  Its output goes to files, so
    that a process left behind holding a pipe cannot hang the test.
    """
    out_path, err_path = cwd / "stdout", cwd / "stderr"
    with open(out_path, "w") as out, open(err_path, "w") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", *argv],
            env={**ENV, "HOME": str(cwd)},
            cwd=cwd,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    seen: dict[int, str] = {}
    left: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            tree = _tree(process.pid)
            if ready(tree):
                break
            assert process.poll() is None, "finished before it could be stopped"
            assert time.monotonic() < deadline, f"the run never got under way: {tree}"
            time.sleep(0.02)
        seen = {pid: start for pid in tree if (start := _started(pid)) is not None}
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        left = _left_behind(seen)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for pid in seen:  # whatever it left behind goes now
            if _started(pid) == seen[pid]:
                os.kill(pid, signal.SIGKILL)
    done = subprocess.CompletedProcess(argv, process.returncode, out_path.read_text(), err_path.read_text())
    out_path.unlink()
    err_path.unlink()
    return done, left


def _left_behind(seen: dict[int, str]) -> list[int]:
    """Those of ``seen`` still running once they have had a moment to go (polled, with a deadline)."""
    deadline = time.monotonic() + 5
    while True:
        left = [pid for pid, start in seen.items() if _started(pid) == start]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.02)


def test_sigterm_to_a_match_ends_its_workers_and_their_bots(tmp_path: Path) -> None:
    """``kill PID`` of a match of exec: bots on two workers: the workers and every bot go, the report says so."""
    bot = f"exec:{sys.executable} -m mille.bot bsd"
    argv = ["mille.match", bot, bot, "--games", "4000", "--jobs", "2", "--json", "--bot-logs", str(tmp_path / "logs")]
    # Under way: both workers (children) have their bots (grandchildren).
    done, left = _terminate_mid_run(argv, tmp_path, lambda tree: sum(1 for d in tree.values() if d == 2) >= 2)
    assert left == []
    assert done.returncode == 143, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert report["interrupted"] is True and report["games"] < 4000


def test_sigterm_to_a_tournament_keeps_a_resumable_file(tmp_path: Path) -> None:
    """``kill PID`` of a tournament on two workers: every finished pair is in the file, and --resume finishes it."""
    path = tmp_path / "t.jsonl"
    argv = ["mille.tournament", "bsd", "first", "random", "--games", "40", "--jobs", "2", "--bootstrap", "0"]
    argv += ["--json", "--out", str(path)]

    def lines() -> int:
        try:
            return path.read_bytes().count(b"\n")
        except FileNotFoundError:
            return 0

    done, left = _terminate_mid_run(argv, tmp_path, lambda tree: lines() >= 1 + 3)
    assert left == []
    assert done.returncode == 143, done.stderr
    report = json.loads(done.stdout)
    assert report["interrupted"] is True and report["pairs"] < report["pairs_total"]
    assert lines() == 1 + report["pairs"]
    rest = _run(*argv[:-2], "--resume", str(path), cwd=tmp_path)
    assert rest.returncode == 0, rest.stderr
    finished = json.loads(rest.stdout)
    assert finished["resumed_pairs"] == report["pairs"] and finished["pairs"] == finished["pairs_total"]


# --------------------------------------------------------------------------
# Bounded by the host, not the bot: rolls never read, logs of a whole run

#: A bot that, asked for a move, asks for rolls without end and never reads the answers;
#: or (``stderr N``) one that writes N KiB to its standard error, its last line numbered, and crashes.
HOSTILE_BOT = """
import json, os, sys
mode = sys.argv[1]
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol": 1, "name": mode}), flush=True)
for line in sys.stdin:
    if json.loads(line)["type"] != "decide":
        continue
    if mode == "rolls":
        roll = b'{"type":"roll"}\\n' * 4096
        while True:
            os.write(1, roll)
    kib = int(sys.argv[2])
    sys.stderr.write(("x" * 1023 + "\\n") * kib + "the end of bot %d\\n" % os.getpid())
    sys.stderr.flush()
    sys.exit(3)
"""


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """The hostile bot's command (``exec:python FILE``) and its log directory; no bot of it outlives the test."""
    from mille.players import botprocess

    path = tmp_path / "hostile.py"
    path.write_text(HOSTILE_BOT)
    logs = tmp_path / "logs"
    monkeypatch.setenv(botprocess.LOGS_VARIABLE, str(logs))
    yield f"exec:{sys.executable} {path}", logs
    botprocess.shutdown()


def test_a_bot_that_asks_for_rolls_and_never_reads_them_forfeits(hostile: tuple[str, Path]) -> None:
    """Its unread answers stop at a bound (the host's memory with them): a forfeit in one line, not a long wait."""
    from mille.lab.match import run_match
    from mille.players import external

    command, _ = hostile
    began = time.monotonic()
    report = run_match(f"{command} rolls", "bsd", games=2, options=RunOptions(jobs=1, max_think_ms=20_000))
    assert time.monotonic() - began < 15  # the bound, not the think limit, ended it
    errors = report["errors"]
    assert errors and all(e["kind"] == "illegal" for e in errors)
    assert (
        f"asked for rolls without reading them ({external.MAX_UNREAD_ROLLS} bytes of answers unread)"
        in (errors[0]["message"])
    )


def test_the_logs_of_a_run_have_a_total_cap_and_keep_each_failure_s_tail(
    hostile: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that writes 200 KiB and crashes in every game: each log keeps its end, all of them stay under the cap."""
    from mille.lab.match import run_match
    from mille.players import botprocess

    monkeypatch.setattr(botprocess, "MAX_LOG", 64 << 10)
    monkeypatch.setattr(botprocess, "MAX_LOGS", 256 << 10)
    command, logs = hostile
    report = run_match(f"{command} stderr 200", "bsd", games=20, options=RunOptions(jobs=1))
    failures = report["errors"]
    assert len(failures) == 20 and all(e["kind"] == "exception" for e in failures)
    kept = sorted(logs.iterdir(), key=lambda p: p.stat().st_mtime)
    assert sum(p.stat().st_size for p in kept) <= 256 << 10
    assert 3 <= len(kept) < 20  # the newest failures' logs, the oldest gone
    for log in kept:
        text = log.read_text()
        assert len(text) <= (64 << 10) + 100
        assert text.startswith("[mille: the first ") and re.search(r"\nthe end of bot \d+\n\Z", text)
    # The last failure's message names a log that is there.
    assert f"(its standard error is in {kept[-1]};" in failures[-1]["message"]


# --------------------------------------------------------------------------
# Another user of the machine


@pytest.fixture
def other_user() -> Iterator[tuple[str, int, int]]:
    """A second real local user (name, uid, gid), made for the test and removed after it (root only)."""
    with local_user() as user:
        yield user


# --------------------------------------------------------------------------
# --resume: what the name is, said in one line; a link never starts a file


def _start(path: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return _run("mille.tournament", "bsd", "first", "--games", "2", "--jobs", "1", "--out", str(path), cwd=cwd)


def _resume(path: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return _run("mille.tournament", "bsd", "first", "--games", "2", "--jobs", "1", "--resume", str(path), cwd=cwd)


def test_resume_through_a_link_to_an_empty_file_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.touch()
    link = tmp_path / "link"
    link.symlink_to(target)
    done = _resume(link, tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == (
        f"mille.tournament: --resume {link} is a symbolic link to an empty file: start a tournament with --out "
        "on the file itself, not through a link\n"
    )
    assert target.read_bytes() == b""


def test_resume_through_a_link_to_a_started_file_of_ones_own_goes_on(tmp_path: Path) -> None:
    target = tmp_path / "t.jsonl"
    started = _run(
        "mille.tournament", "bsd", "first", "--games", "2", "--jobs", "1", "--out", str(target), cwd=tmp_path
    )
    assert started.returncode == 0, started.stderr
    lines = target.read_bytes()
    target.write_bytes(lines.splitlines(keepends=True)[0])  # the header only: the pair to play again
    link = tmp_path / "link"
    link.symlink_to(target)
    done = _resume(link, tmp_path)
    assert done.returncode == 0, done.stderr
    assert target.read_bytes().count(b"\n") == lines.count(b"\n") == 2  # the header and the pair played again


def test_resume_through_a_link_to_another_users_file_is_refused(
    tmp_path: Path, other_user: tuple[str, int, int]
) -> None:
    _, uid, gid = other_user
    target = tmp_path / "theirs.jsonl"
    started = _run(
        "mille.tournament", "bsd", "first", "--games", "2", "--jobs", "1", "--out", str(target), cwd=tmp_path
    )
    assert started.returncode == 0, started.stderr
    before = target.read_bytes()
    target.write_bytes(before.splitlines(keepends=True)[0])
    os.chown(target, uid, gid)
    target.chmod(0o666)  # writable by anyone: only the rule stops the run from writing into it
    link = tmp_path / "link"
    link.symlink_to(target)
    done = _resume(link, tmp_path)
    assert done.returncode == 1
    assert (
        done.stderr == f"mille.tournament: --resume {link} is a symbolic link to a file of another user: not followed\n"
    )
    assert target.read_bytes() == before.splitlines(keepends=True)[0]


def test_resume_of_a_fifo_says_it_is_a_fifo_and_does_not_wait(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = _resume(fifo, tmp_path)
    assert done.returncode == 1
    assert done.stderr == f"mille.tournament: cannot open {fifo}: not a regular file (a FIFO)\n"
