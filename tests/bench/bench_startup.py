"""Benchmark: time to the first complete board, mille vs a bare curses program.

Not a test (pytest does not collect ``bench_*``).  Uses ``startup.py``'s
measurement from the harness in ``../shared/bsdref``; runs the two programs
interleaved so machine load affects both alike, with byte-compiled sources
as an installed package would have them.  Usage::

    python tests/bench/bench_startup.py [--runs 31] [--compare TREE]

``--compare TREE`` adds a second checkout (``TREE/src``, say the commit
before a change, checked out with ``git worktree add``), run in turn with
the others, and prints the ratio of the two medians.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tests' folder, for helpers

from helpers import REPO, SRC, TESTS

HARNESS = os.path.join(REPO, "..", "shared", "bsdref")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=31)
    ap.add_argument("--compare", metavar="TREE", help="also time the checkout TREE, interleaved")
    args = ap.parse_args()
    sys.path.insert(0, HARNESS)
    import startup  # type: ignore[import-not-found]

    src = SRC
    compileall.compile_dir(src, quiet=1)
    env = "env -u PYTHONDONTWRITEBYTECODE"
    programs = {
        "mille": f"{env} PYTHONPATH={src} {sys.executable} -m mille --seed {{seed}}",
        "bare curses": f"{env} {sys.executable} {os.path.join(TESTS, 'bench', 'bare_board.py')}",
    }
    if args.compare:
        other = os.path.join(os.path.abspath(args.compare), "src")
        compileall.compile_dir(other, quiet=1)
        programs["other tree"] = f"{env} PYTHONPATH={other} {sys.executable} -m mille --seed {{seed}}"
    times: dict[str, list[float]] = {name: [] for name in programs}
    names = list(programs)
    for r in range(args.runs):
        # The order turns each round, so that no program always runs first.
        for name in names[r % len(names) :] + names[: r % len(names)]:
            times[name].append(startup.measure(programs[name], "1"))
    medians = {name: statistics.median(ts) for name, ts in times.items()}
    for name, ts in times.items():
        print(f"{name:12s} median {medians[name]:6.1f} ms  (min {min(ts):.1f}, max {max(ts):.1f}, runs {len(ts)})")
    print(f"ratio mille / bare curses: {medians['mille'] / medians['bare curses']:.2f} (target <= 1.20)")
    if args.compare:
        print(f"ratio mille / other tree ({args.compare}): {medians['mille'] / medians['other tree']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
