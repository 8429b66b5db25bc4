#!/usr/bin/env python3
"""Record the engine's golden transcripts from the REAL BSD mille.

    python3 tests/golden_engine/record.py            # all of SPECS
    python3 tests/golden_engine/record.py sim-5      # some of them

Each transcript is a drive.py run (``<repo>/../shared/bsdref``, or $BSDREF)
of /usr/games/mille with the seed forced through getpid(), gzipped here:

* ``first-N``: the harness's ``first`` policy, two whole hands;
* ``sim-N``: the human seat's moves of ``python -m mille.sim --seed N``
  (the BSD strategy playing the human's cards) typed as keys, for a few
  hands; the real computer answers them.  Because the simulator's human
  seat rolls its own dice, the real program deals and plays exactly as the
  simulator did, which ``tests/lab/test_sim.py`` checks screen number for
  screen number.

The engine tests replay the keys through the engine (no curses, no screen
code) and compare the numbers and cards each screen shows.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BSDREF = os.environ.get("BSDREF", os.path.normpath(os.path.join(REPO, "..", "shared", "bsdref")))

#: name -> (seed, policy, hands)
SPECS: dict[str, tuple[int, str, int]] = {
    "first-201": (201, "first", 2),
    "first-202": (202, "first", 2),
    "first-203": (203, "first", 2),
    "sim-5": (5, "sim", 6),
    "sim-31": (31, "sim", 6),
    "sim-4242": (4242, "sim", 6),
}


def sim_keys(seed: int, hands: int) -> list[str]:
    """The human seat's moves of a simulated run, as key steps for drive.py."""
    sys.path.insert(0, os.path.join(REPO, "src"))
    from mille.engine.rules import MoveType
    from mille.lab.sim import Simulator, Step

    keys: list[str] = []
    asked: list[bool] = []

    class Recorder(Simulator):
        def _decide_extension(self, game, slot):  # type: ignore[no-untyped-def]
            answer = super()._decide_extension(game, slot)
            if game.play == 0:
                asked.append(answer)
            return answer

    def observe(game, step: Step) -> None:  # type: ignore[no-untyped-def]
        if step.player != 0:
            return
        move = step.decision.move
        if move.kind is MoveType.DRAW:
            keys.append("p")
        else:
            letter = "u" if move.kind is MoveType.PLAY else "d"
            keys.append(f"{letter}{'p' if move.slot == 0 else move.slot}\r")
        while asked:
            keys.append("y" if asked.pop() else "n")

    sim = Recorder(seed, observer=observe)
    for hand in range(hands):
        sim.play_hand()
        if hand < hands - 1:
            keys.append("y")  # Another hand? / Another game?
    return keys


def record(name: str) -> None:
    seed, policy, hands = SPECS[name]
    drive = os.path.join(BSDREF, "drive.py")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "t.jsonl")
        cmd = [sys.executable, drive, "--seed", str(seed), "--out", out, "--max-steps", "3000"]
        if policy == "sim":
            cmd += ["--keys", *[k.replace("\r", "\\r") for k in sim_keys(seed, hands)]]
        else:
            cmd += ["--policy", policy, "--max-hands", str(hands)]
        subprocess.run(cmd, check=True, cwd=BSDREF)
        with open(out, "rb") as src, gzip.GzipFile(os.path.join(HERE, f"{name}.jsonl.gz"), "wb", mtime=0) as dst:
            dst.write(src.read())


def main(argv: list[str]) -> int:
    for name in argv or sorted(SPECS):
        print(f"recording {name}", file=sys.stderr)
        record(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
