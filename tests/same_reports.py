#!/usr/bin/env python3
"""Do two checkouts play the same matches?  (Not collected by pytest.)

    python tests/same_reports.py TREE [--quick]

Runs the same ``python -m mille.match`` (and one ``mille.tournament``) in
this checkout and in ``TREE`` (another checkout, say the commit before a
reshaping, made with ``git worktree add``), on fixed seeds, and compares the
``--json`` reports with the fields that depend on the machine and the
moment removed (``TIMING_FIELDS``), pair for pair (``by_pair``).  A change
that is meant to move no card (a reshaping, a speed-up) must print
``identical`` for every line; the exit status is 1 otherwise.  The runs are
a check, not a measurement: the seeds and sizes are fixed so that they take
a few minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any

HERE = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
#: Fields that depend on the machine and the moment (both tools' TIMING_FIELDS, at any depth).
TIMING = {"think_ms", "seconds", "games_per_second", "pairs_per_second"}

RUNS: tuple[tuple[str, list[str]], ...] = (
    ("mille.match", ["bsd", "bsd", "--games", "400", "--seed", "11", "--jobs", "1"]),
    ("mille.match", ["first", "random", "--games", "400", "--seed", "12", "--jobs", "1"]),
    ("mille.match", ["expert", "bsd", "--games", "12", "--seed", "13", "--jobs", "1"]),
    ("mille.match", ["expert-2026", "bsd", "--games", "6", "--seed", "15", "--jobs", "1"]),
    ("mille.tournament", ["bsd", "first", "random", "--games", "20", "--seed", "14", "--jobs", "1"]),
)


def without_timing(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def report(tree: str, tool: str, args: list[str]) -> Any:
    env = dict(os.environ, PYTHONPATH=os.path.join(tree, "src"))
    done = subprocess.run(
        [sys.executable, "-m", tool, *args, "--json"], env=env, capture_output=True, text=True, cwd=tree
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {tool} {' '.join(args)} failed:\n{done.stderr}")
    return without_timing(json.loads(done.stdout))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", help="the other checkout")
    ap.add_argument("--quick", action="store_true", help="the two fast matches only")
    args = ap.parse_args(argv)
    other = os.path.abspath(args.tree)
    same = True
    for tool, run in RUNS[:2] if args.quick else RUNS:
        mine, theirs = report(HERE, tool, run), report(other, tool, run)
        what = f"{tool} {' '.join(run)}"
        if mine == theirs:
            pairs = len(mine.get("by_pair", [])) or sum(len(c.get("by_pair", [])) for c in mine.get("pairings", []))
            print(f"identical  {what}" + (f" ({pairs} pairs)" if pairs else ""))
        else:
            same = False
            keys = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
            print(f"DIFFERENT  {what}: {', '.join(keys)}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
