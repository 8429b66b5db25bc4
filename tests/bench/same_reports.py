#!/usr/bin/env python3
"""Do two checkouts play the same matches, and read each other's files?  (Not collected by pytest.)

    python tests/bench/same_reports.py TREE [--quick]

Runs the same ``python -m mille.match`` and ``mille.tournament`` commands,
at every table (2, 3, 4 and 6 seats), in this checkout and in ``TREE``
(another checkout, say the commit before a reshaping, made with ``git
worktree add``), on fixed seeds, and compares:

* the ``--json`` reports with the fields that depend on the machine and the
  moment removed (``TIMING_FIELDS``), key order included, pair for pair
  (``by_pair``) and set for set;
* the text reports, with the times masked (seconds, rates, think times);
* the one-line refusals of bad command lines (status and standard error);
* the files: a results file written by ``TREE`` (``--out``, then cut short
  as a kill leaves it) resumed by each checkout (the same report, the same
  file after), the results files and game records both write for the same
  command (the same bytes, think times apart), and a record written by
  ``TREE`` replayed by each (``python -m mille.replay``: the listing,
  ``--check``, ``--game N``, ``--hand H``).

A change that is meant to move no card (a reshaping, a speed-up) must print
``identical`` for every line; the exit status is 1 otherwise.  The runs are
a check, not a measurement: the seeds and sizes are fixed so that they take
a few minutes on two cores (``--quick``: the cheap players only, a minute
or two).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tests' folder, for helpers

from helpers import REPO
from helpers.reports import lines_without_think, masked, without_timing

#: A player module for forfeits, on the PYTHONPATH of both checkouts' runs.
PLAYERS = """
class Raises:
    def choose(self, observation, rng):
        raise RuntimeError("boom \\x1b[2J")


class RaisesLate:
    def choose(self, observation, rng):
        if any(p.total > p.hand_total for p in observation.players):  # a hand has been scored
            raise ValueError("late")
        return observation.legal_moves()[0]
"""

#: (tool, arguments, whether the text report is compared too): each run with --json, and as text.
RUNS: tuple[tuple[str, list[str], bool], ...] = (
    ("mille.match", ["bsd", "bsd", "--games", "400", "--seed", "11", "--jobs", "1"], True),
    ("mille.match", ["first", "random", "--games", "400", "--seed", "12", "--jobs", "1"], True),
    ("mille.match", ["bsd", "random", "--hands", "60", "--seed", "4", "--jobs", "2"], True),
    ("mille.match", ["bsd", "first", "--sprt", "--elo1", "100", "--seed", "3", "--jobs", "1"], True),
    ("mille.match", ["bsd", "bsd", "--sprt", "--games", "40", "--seed", "3", "--jobs", "2"], True),
    ("mille.match", ["bsd", "lab_players:RaisesLate", "--games", "6", "--seed", "2", "--jobs", "1"], True),
    ("mille.match", ["--players", "4", "bsd", "random", "--games", "20", "--seed", "5", "--jobs", "1"], True),
    ("mille.match", ["--players", "4", "bsd", "random", "--sprt", "--elo1", "100", "--seed", "1"], True),
    ("mille.match", ["--players", "3", "bsd", "random", "first", "--games", "12", "--seed", "5", "--jobs", "2"], True),
    ("mille.match", ["--players", "3", "bsd", "random", "first", "--hands", "25", "--seed", "4", "--jobs", "1"], True),
    ("mille.match", ["--players", "6", "bsd", "random", "first", "--games", "6", "--seed", "5", "--jobs", "1"], True),
    (
        "mille.match",
        ["--players", "4", "lab_players:Raises", "bsd", "--games", "4", "--seed", "1", "--jobs", "1"],
        True,
    ),
    ("mille.tournament", ["bsd", "first", "random", "--games", "20", "--seed", "14", "--jobs", "1"], True),
    ("mille.tournament", ["bsd", "random", "--games", "6", "--seed", "3", "--jobs", "2"], True),
    ("mille.tournament", ["bsd", "lab_players:RaisesLate", "--games", "4", "--seed", "3", "--jobs", "1"], True),
    (
        "mille.tournament",
        ["--players", "3", "bsd", "random", "first", "mille.players:RandomPlayer", "--games", "3", "--seed", "4"],
        True,
    ),
    (
        "mille.tournament",
        ["--players", "4", "random", "bsd", "first", "--games", "20", "--seed", "8", "--bootstrap", "200"],
        True,
    ),
    ("mille.tournament", ["--players", "6", "bsd", "random", "first", "--games", "3", "--seed", "9"], True),
)
#: The expert's runs (not with --quick): the JSON only, as they take a while.
SLOW_RUNS: tuple[tuple[str, list[str], bool], ...] = (
    ("mille.match", ["expert", "bsd", "--games", "12", "--seed", "13", "--jobs", "1"], False),
    ("mille.match", ["expert-2026", "bsd", "--games", "6", "--seed", "15", "--jobs", "1"], False),
    ("mille.match", ["--players", "4", "expert", "bsd", "--games", "2", "--seed", "16", "--jobs", "1"], False),
)

#: Command lines refused in one line: the status and the standard error must be the same.
REFUSED: tuple[tuple[str, list[str]], ...] = (
    ("mille.match", ["bsd"]),
    ("mille.match", ["bsd", "random", "first"]),
    ("mille.match", ["--players", "3", "bsd", "random"]),
    ("mille.match", ["--players", "4", "bsd", "random", "first"]),
    ("mille.match", ["--players", "6", "--sprt", "bsd", "random", "first"]),
    ("mille.match", ["--players", "5", "bsd", "random"]),
    ("mille.match", ["--elo0", "5", "bsd", "bsd"]),
    ("mille.match", ["--sprt", "--alpha", "2", "bsd", "bsd"]),
    ("mille.match", ["--games", "0", "bsd", "bsd"]),
    ("mille.match", ["--hands", "0", "--players", "4", "bsd", "bsd"]),
    ("mille.match", ["--games", "2", "--hands", "3", "bsd", "bsd"]),
    ("mille.match", ["--jobs", "0", "bsd", "bsd"]),
    ("mille.match", ["--jobs", "2", "--cluster", "local:2", "bsd", "bsd"]),
    ("mille.match", ["--upload", "x.py", "bsd", "bsd"]),
    ("mille.match", ["--insecure", "bsd", "bsd"]),
    ("mille.match", ["--max-think-ms", "0", "bsd", "bsd"]),
    ("mille.match", ["--max-think-ms", "nan", "--players", "3", "bsd", "bsd", "bsd"]),
    ("mille.match", ["nosuch", "bsd"]),
    ("mille.match", ["--players", "3", "bsd", "nosuch", "first"]),
    ("mille.match", ["--record", "exists.txt", "bsd", "bsd"]),
    ("mille.match", ["--record", "exists.txt", "--players", "4", "bsd", "bsd"]),
    ("mille.tournament", ["bsd"]),
    ("mille.tournament", ["bsd", "bsd"]),
    ("mille.tournament", ["--players", "3", "bsd", "random"]),
    ("mille.tournament", ["--players", "3", "bsd", "random", "first", "--pairs-per-task", "2"]),
    ("mille.tournament", ["--players", "4", "bsd", "bsd", "random"]),
    ("mille.tournament", ["--resume", "nosuch.jsonl", "bsd", "random"]),
    ("mille.tournament", ["--players", "3", "--resume", "nosuch.jsonl", "a", "b", "c"]),
    ("mille.tournament", ["--bootstrap", "-1", "bsd", "random"]),
    ("mille.tournament", ["--pairs-per-task", "0", "bsd", "random"]),
    ("mille.tournament", ["--games", "0", "--players", "4", "bsd", "random"]),
    ("mille.tournament", ["--out", "exists.txt", "bsd", "random", "--seed", "1"]),
    ("mille.tournament", ["--out", "exists.txt", "--players", "4", "bsd", "random", "--seed", "1"]),
    ("mille.tournament", ["--resume", "exists.txt", "bsd", "random", "--seed", "1"]),
    ("mille.tournament", ["--resume", "exists.txt", "--players", "3", "bsd", "random", "first"]),
    ("mille.tournament", ["--record", "exists.txt", "--players", "3", "bsd", "random", "first"]),
    ("mille.tournament", ["--players", "3", "bsd", "random", "nosuch"]),
)

#: Tournaments whose results file the other checkout writes and each resumes (cut after so many sets or pairs).
RESUMED: tuple[tuple[list[str], int], ...] = (
    (["bsd", "first", "random", "--games", "20", "--seed", "14"], 13),
    (["--players", "3", "bsd", "random", "first", "mille.players:RandomPlayer", "--games", "6", "--seed", "4"], 5),
    (["--players", "4", "random", "bsd", "first", "--games", "20", "--seed", "8", "--bootstrap", "200"], 17),
)

#: Runs with --record: the same record written by both, and the other's replayed by each.
RECORDED: tuple[tuple[str, list[str], list[list[str]]], ...] = (
    (
        "mille.match",
        ["bsd", "random", "--games", "6", "--seed", "3"],
        [["--game", "3"], ["--game", "2", "--hand", "2"]],
    ),
    (
        "mille.match",
        ["bsd", "lab_players:RaisesLate", "--games", "2", "--seed", "3"],
        [["--game", "2"]],
    ),
    (
        "mille.match",
        ["--players", "4", "bsd", "random", "--games", "4", "--seed", "3"],
        [["--game", "3"], ["--game", "2", "--hand", "1"]],
    ),
    (
        "mille.match",
        ["--players", "3", "bsd", "random", "first", "--games", "3", "--seed", "3"],
        [["--game", "2"]],
    ),
    (
        "mille.tournament",
        ["bsd", "random", "first", "--games", "2", "--seed", "5"],
        [["--game", "2", "--pairing", "bsd", "first"], ["--pairing", "random", "first"], ["--game", "2"]],
    ),
    (
        "mille.tournament",
        ["--players", "4", "bsd", "random", "first", "--games", "4", "--seed", "2"],
        [["--game", "2", "--pairing", "first", "bsd", "--hand", "1"], ["--game", "2"]],
    ),
)


class Runner:
    """Runs a tool of a checkout in the scratch directory, the forfeiting players importable."""

    def __init__(self, scratch: str) -> None:
        self.scratch = scratch

    def run(self, tree: str, tool: str, args: list[str]) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, PYTHONPATH=os.path.join(tree, "src") + os.pathsep + self.scratch)
        env.pop("MILLE_BOT_LOGS", None)
        return subprocess.run(
            [sys.executable, "-m", tool, *args],
            env=env,
            capture_output=True,
            text=True,
            cwd=self.scratch,
            stdin=subprocess.DEVNULL,
        )

    def ok(self, tree: str, tool: str, args: list[str]) -> str:
        done = self.run(tree, tool, args)
        if done.returncode != 0:
            raise SystemExit(f"{tree}: {tool} {' '.join(args)} failed:\n{done.stderr}")
        return done.stdout

    def path(self, name: str) -> str:
        return os.path.join(self.scratch, name)

    def remove(self, *names: str) -> None:
        for name in names:
            try:
                os.remove(self.path(name))
            except FileNotFoundError:
                pass


class Verdict:
    def __init__(self) -> None:
        self.same = True

    def say(self, same: bool, what: str, why: str = "") -> None:
        self.same &= same
        print(f"{'identical' if same else 'DIFFERENT'}  {what}" + ("" if same or not why else f": {why}"))


def differing_keys(mine: Any, theirs: Any) -> str:
    if isinstance(mine, dict) and isinstance(theirs, dict):
        return ", ".join(sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))) or "key order"
    return "the value"


def compare_runs(runner: Runner, other: str, runs: tuple[tuple[str, list[str], bool], ...], verdict: Verdict) -> None:
    for tool, run, text in runs:
        what = f"{tool} {' '.join(run)}"
        mine = without_timing(json.loads(runner.ok(REPO, tool, [*run, "--json"])))
        theirs = without_timing(json.loads(runner.ok(other, tool, [*run, "--json"])))
        same = json.dumps(mine) == json.dumps(theirs)  # the key order too
        units = len(mine.get("by_pair", [])) or sum(len(c.get("by_pair", [])) for c in mine.get("pairings", []))
        verdict.say(same, f"--json {what}" + (f" ({units} pairs)" if units else ""), differing_keys(mine, theirs))
        if text:
            mine_text, theirs_text = masked(runner.ok(REPO, tool, run)), masked(runner.ok(other, tool, run))
            verdict.say(mine_text == theirs_text, f"text   {what}", _first_difference(mine_text, theirs_text))


def _first_difference(mine: str, theirs: str) -> str:
    for k, (a, b) in enumerate(zip(mine.splitlines(), theirs.splitlines()), start=1):
        if a != b:
            return f"line {k}: {a!r} here, {b!r} there"
    return "the number of lines"


def compare_refusals(runner: Runner, other: str, verdict: Verdict) -> None:
    with open(runner.path("exists.txt"), "w") as f:
        f.write("not a results file\n")
    for tool, run in REFUSED:
        mine, theirs = runner.run(REPO, tool, run), runner.run(other, tool, run)
        same = (mine.returncode, mine.stdout, mine.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr)
        verdict.say(same, f"refused {tool} {' '.join(run)} (status {mine.returncode})", f"{mine.stderr!r} here")
    runner.remove("exists.txt")


def compare_resumed(runner: Runner, other: str, verdict: Verdict) -> None:
    for run, keep in RESUMED:
        what = f"mille.tournament {' '.join(run)}"
        runner.remove("there.jsonl", "here.jsonl")
        runner.ok(other, "mille.tournament", [*run, "--jobs", "1", "--out", "there.jsonl", "--json"])
        runner.ok(REPO, "mille.tournament", [*run, "--jobs", "1", "--out", "here.jsonl", "--json"])
        verdict.say(
            lines_without_think(runner.path("here.jsonl")) == lines_without_think(runner.path("there.jsonl")),
            f"--out  {what}: the results files (think times apart)",
        )
        with open(runner.path("there.jsonl"), "rb") as f:
            lines = f.read().splitlines(keepends=True)
        cut = b"".join(lines[: 1 + keep]) + lines[1 + keep][:50]  # a kill in the middle of writing a line
        reports: dict[str, tuple[Any, str, list[Any]]] = {}
        for tree, name in ((REPO, "here"), (other, "there")):
            for flavour in ("json", "text"):
                with open(runner.path(f"{name}-{flavour}.jsonl"), "wb") as f:
                    f.write(cut)
            report = json.loads(
                runner.ok(tree, "mille.tournament", [*run, "--resume", f"{name}-json.jsonl", "--jobs", "1", "--json"])
            )
            text = runner.ok(tree, "mille.tournament", [*run, "--resume", f"{name}-text.jsonl", "--jobs", "2"])
            reports[name] = (
                without_timing(report),
                masked(text),
                lines_without_think(runner.path(f"{name}-json.jsonl")),
            )
            runner.remove(f"{name}-json.jsonl", f"{name}-text.jsonl")
        (mine, mine_text, mine_file), (theirs, theirs_text, theirs_file) = reports["here"], reports["there"]
        verdict.say(
            json.dumps(mine) == json.dumps(theirs),
            f"--resume of the other's file, --json  {what}",
            differing_keys(mine, theirs),
        )
        verdict.say(
            mine_text == theirs_text,
            f"--resume of the other's file, text  {what}",
            _first_difference(mine_text, theirs_text),
        )
        verdict.say(mine_file == theirs_file, f"--resume of the other's file: the file after  {what}")
    runner.remove("there.jsonl", "here.jsonl")


def compare_records(runner: Runner, other: str, verdict: Verdict) -> None:
    for tool, run, games in RECORDED:
        what = f"{tool} {' '.join(run)} --record"
        runner.remove("here.rec", "there.rec")
        runner.ok(REPO, tool, [*run, "--jobs", "1", "--record", "here.rec"])
        runner.ok(other, tool, [*run, "--jobs", "1", "--record", "there.rec"])
        with open(runner.path("here.rec"), "rb") as a, open(runner.path("there.rec"), "rb") as b:
            verdict.say(a.read() == b.read(), f"{what}: the same record, byte for byte")
        for replay in ([], ["--check"], *games):
            mine = runner.run(REPO, "mille.replay", ["there.rec", *replay])
            theirs = runner.run(other, "mille.replay", ["there.rec", *replay])
            same = (mine.returncode, mine.stdout, mine.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr)
            verdict.say(
                same and (mine.returncode == 0 or replay not in ([], ["--check"])),
                f"mille.replay {' '.join(replay) or '(the listing)'} of the other's record of {tool} {' '.join(run)}",
                _first_difference(mine.stdout + mine.stderr, theirs.stdout + theirs.stderr),
            )
    runner.remove("here.rec", "there.rec")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", help="the other checkout")
    ap.add_argument("--quick", action="store_true", help="the cheap players only (no expert)")
    args = ap.parse_args(argv)
    other = os.path.abspath(args.tree)
    verdict = Verdict()
    scratch = tempfile.mkdtemp(prefix="same-reports-")
    try:
        with open(os.path.join(scratch, "lab_players.py"), "w") as f:
            f.write(PLAYERS)
        runner = Runner(scratch)
        compare_runs(runner, other, RUNS if args.quick else RUNS + SLOW_RUNS, verdict)
        compare_refusals(runner, other, verdict)
        compare_resumed(runner, other, verdict)
        compare_records(runner, other, verdict)
    finally:
        shutil.rmtree(scratch)
    return 0 if verdict.same else 1


if __name__ == "__main__":
    sys.exit(main())
