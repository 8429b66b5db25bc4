"""Benchmark: a key pressed on one person's pty to the other person's screen (issue 37: p95 under 50 ms).

Two real users (made for the run: root only), the host (``mille --invite``)
and the guest (``mille --join``) each on a pty of its own.  Each person in
turn picks and discards their first card; the time is from the write of
the RETURN that ends the discard on one pty to the first change of the
other pty's screen (read into an 80x24 screen as it arrives).

    python tests/bench/bench_people.py [--moves N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tests' folder, for helpers

from helpers.people import Player, people


def _changed(other: Player, before: str, deadline: float = 10.0) -> float:
    start = time.monotonic()
    while other.text() == before:
        other.pump(0.001)
        if time.monotonic() - start > deadline:
            raise AssertionError("the other screen never changed")
    return time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="moves timed (each side half)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("bench_people: needs root (it makes two users)", file=sys.stderr)
        return 1
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)]:
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        guest = None
        times: list[float] = []
        try:
            host.wait_for(f"mille --join {alice}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            mover, other = host, guest
            for _ in range(args.moves):
                mover.wait_asked()
                mover.send("p")
                time.sleep(0.05)  # the pick drawn (not timed)
                mover.pump(0.01)
                other.pump(0.01)
                keys = mover.discard_keys()
                mover.send(keys[:-1])
                other.pump(0.01)
                before = other.text()
                mover.send("\r")
                try:
                    times.append(_changed(other, before))
                except AssertionError:
                    mover.pump(0.5)
                    print(mover.text(), file=sys.stderr)
                    print(other.text(), os.waitpid(other.pid, os.WNOHANG), file=sys.stderr)
                    raise
                mover, other = other, mover
        finally:
            host.kill()
            if guest is not None:
                guest.kill()
    times.sort()
    p50 = times[len(times) // 2] * 1000
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))] * 1000
    top = times[-1] * 1000
    print(f"key to the other screen: {len(times)} moves, median {p50:.1f} ms, p95 {p95:.1f} ms, max {top:.1f} ms")
    return 0 if p95 < 50 else 1


if __name__ == "__main__":
    sys.exit(main())
