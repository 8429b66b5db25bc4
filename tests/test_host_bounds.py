"""The lab bounded by the host, not by what a bot or a command line hands it (issue 36).

Each fault is injected the way it happens: a real command line with the
bad value, a real directory that cannot be made, a real bot program, a
real signal to a real match, a real second user of the machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mille.lab import sim

SRC = str(Path(__file__).resolve().parents[1] / "src")
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


@pytest.mark.parametrize("seed", ["0", "-1", "2147483648", "4294967297"])
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
