#!/usr/bin/env python3
"""Make this directory's files with a checkout of ee40e02 (not collected by pytest).

    python tests/files_ee40e02/make.py /path/to/a/checkout/of/ee40e02

The lab's promise (issue 44): the reports it prints on fixed seeds stay
what ee40e02 printed, and every results file and game record ee40e02 wrote
still resumes and replays.  This runs the commands of :data:`COMMANDS` with
the other checkout's ``src``, in this directory: it writes the results files
and records they make (the results files cut short after a few lines, as a
kill leaves them), and what each command printed; ``manifest.json`` lists
them, and ``tests/lab/test_files_ee40e02.py`` runs every command again with this
checkout and compares (the times masked, ``tests/bench/same_reports.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

#: The tournaments whose results file is written, then cut after so many lines of sets or pairs and resumed.
RESUMED = (
    ("results-2.jsonl", ["bsd", "first", "random", "--games", "20", "--seed", "14"], 13),
    (
        "results-3.jsonl",
        ["--players", "3", "bsd", "random", "first", "mille.players:RandomPlayer", "--games", "6", "--seed", "4"],
        5,
    ),
    ("results-4.jsonl", ["--players", "4", "random", "bsd", "first", "--games", "20", "--seed", "8"], 17),
)

#: The runs whose game record is written, and the replays of it.
RECORDED = (
    (
        "record-2.jsonl",
        "mille.tournament",
        ["bsd", "random", "lab_players:RaisesLate", "--games", "2", "--seed", "5"],
        [["--game", "1", "--pairing", "bsd", "lab_players:RaisesLate"], ["--game", "2"]]
        + [["--game", "2", "--pairing", "bsd", "random", "--hand", "2"]],
    ),
    (
        "record-4.jsonl",
        "mille.match",
        ["--players", "4", "bsd", "random", "--games", "2", "--seed", "3"],
        [["--game", "2", "--hand", "1"]],
    ),
    (
        "record-3.jsonl",
        "mille.tournament",
        ["--players", "3", "bsd", "random", "first", "--games", "3", "--seed", "3"],
        [["--game", "3", "--hand", "1"]],
    ),
)

#: The reports on fixed seeds: each printed as text and as JSON.
REPORTS = (
    ("mille.match", ["bsd", "random", "--games", "20", "--seed", "5", "--jobs", "1"]),
    ("mille.match", ["bsd", "first", "--sprt", "--elo1", "100", "--seed", "3", "--jobs", "1"]),
    ("mille.match", ["bsd", "lab_players:RaisesLate", "--games", "4", "--seed", "2", "--jobs", "1"]),
    ("mille.match", ["--players", "4", "bsd", "random", "--sprt", "--elo1", "100", "--seed", "1", "--jobs", "1"]),
    ("mille.match", ["--players", "3", "bsd", "random", "first", "--hands", "12", "--seed", "4", "--jobs", "1"]),
    ("mille.match", ["--players", "6", "bsd", "lab_players:Raises", "first", "--games", "3", "--seed", "5"]),
    ("mille.tournament", ["bsd", "random", "first", "--games", "4", "--seed", "7", "--jobs", "1"]),
)


def run(tree: str, tool: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.path.join(tree, "src"))
    return subprocess.run(
        [sys.executable, "-m", tool, *args], env=env, cwd=HERE, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )


def main(tree: str) -> int:
    manifest: list[dict[str, object]] = []

    def keep(name: str, tool: str, args: list[str], **what: object) -> None:
        done = run(tree, tool, args)
        with open(os.path.join(HERE, f"{name}.out"), "w") as f:
            f.write(done.stdout + done.stderr)
        manifest.append({"name": name, "tool": tool, "args": args, "status": done.returncode, **what})

    for number, (tool, args) in enumerate(REPORTS, start=1):
        keep(f"report-{number}.json", tool, [*args, "--json"], compare="json")
        keep(f"report-{number}.txt", tool, args, compare="text")
    for name, args, lines in RESUMED:
        for gone in (name, f"{name}.whole"):
            if os.path.exists(os.path.join(HERE, gone)):
                os.remove(os.path.join(HERE, gone))
        done = run(tree, "mille.tournament", [*args, "--jobs", "1", "--out", name, "--json"])
        assert done.returncode == 0, done.stderr
        path = os.path.join(HERE, name)
        with open(path, "rb") as f:
            rows = f.read().splitlines(keepends=True)
        with open(path, "wb") as f:
            f.write(b"".join(rows[: 1 + lines]) + rows[1 + lines][:60])  # a kill in the middle of a line
        for flavour in ("json", "txt"):
            work = f"resumed-{flavour}.jsonl"
            with open(path, "rb") as f, open(os.path.join(HERE, work), "wb") as g:
                g.write(f.read())
            extra = ["--json"] if flavour == "json" else []
            keep(
                f"{name}.resumed.{flavour}",
                "mille.tournament",
                [*args, "--jobs", "1", "--resume", work, *extra],
                compare="json" if flavour == "json" else "text",
                given=[name, work],
                after=[work, f"{name}.after"],
            )
            os.replace(os.path.join(HERE, work), os.path.join(HERE, f"{name}.after"))
    for name, tool, args, games in RECORDED:
        if os.path.exists(os.path.join(HERE, name)):
            os.remove(os.path.join(HERE, name))
        done = run(tree, tool, [*args, "--jobs", "1", "--record", name])
        assert done.returncode == 0, done.stderr
        for k, replay in enumerate([[], ["--check"], *games]):
            keep(f"{name}.replay-{k}", "mille.replay", [name, *replay], compare="exact", given=[name, name])
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
