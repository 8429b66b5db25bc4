"""Benchmark: a key pressed on one person's pty to the other person's screen (issue 37: p95 under 50 ms), with and
without watchers (issue 45: a watcher never slows the game).

Real users (made for the run: root only), the host (``mille --invite``)
and the guest (``mille --join``) each on a pty of its own, and ``--watchers
N`` more processes of a third user watching (``mille --watch``, each on a
pty of its own, read as a terminal reads it).  Each person in turn picks
and discards their first card; the time is from the write of the RETURN
that ends the discard on one pty to the first change of the other pty's
screen (read into an 80x24 screen as it arrives).

    python tests/bench/bench_people.py [--moves N] [--watchers N]
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tests' folder, for helpers

from helpers.people import Player, connect_in_child, people
from mille.ui.people.rendezvous import table_path

#: A watcher's knock (the raw watchers read the link itself, in a process of the watching user).
KNOCK = b'{"type":"knock","version":2,"want":"watch"}\n'


def _changed(other: Player, before: str, deadline: float = 10.0) -> float:
    start = time.monotonic()
    while other.text() == before:
        other.pump(0.001)
        if time.monotonic() - start > deadline:
            raise AssertionError("the other screen never changed")
    return time.monotonic() - start


def _drain(fds: list[int]) -> int:
    """The watchers' terminals read as terminals read them (what they draw taken at once, and dropped), in a process
    of their own as a terminal emulator is: the timing process is not slowed by reading them.  Its pid."""
    pid = os.fork()
    if pid:
        return pid
    try:  # the child: never returns into the benchmark
        while fds:
            for fd in select.select(fds, [], [], 1.0)[0]:
                try:
                    if not os.read(fd, 65536):
                        fds.remove(fd)
                except OSError:
                    fds.remove(fd)
    finally:
        os._exit(0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="moves timed (each side half)")
    parser.add_argument("--watchers", type=int, default=0, help="processes watching the game (mille --watch)")
    parser.add_argument(
        "--raw", action="store_true", help="the watchers read the link and draw nothing (the host's own cost alone)"
    )
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("bench_people: needs root (it makes two users)", file=sys.stderr)
        return 1
    with people(3) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (_carol, c_uid, c_gid)]:
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        guest = None
        watchers: list[Player] = []
        drainer = 0
        times: list[float] = []
        try:
            host.wait_for(f"mille --join {alice}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            raw: list[tuple[int, int]] = []
            for _ in range(args.watchers):
                if args.raw:
                    raw.append(connect_in_child(c_uid, c_gid, table_path(a_uid), KNOCK))
                    continue
                watcher = Player(c_uid, c_gid, ["--watch", alice], seats=2)
                watcher.wait_for("Watching", deadline=30)
                watchers.append(watcher)
            if raw:
                host.wait_for("is watching")
            drainer = _drain([w.fd for w in watchers] + [fd for _, fd in raw])
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
            if drainer:
                os.kill(drainer, signal.SIGKILL)
                os.waitpid(drainer, 0)
            host.kill()
            if guest is not None:
                guest.kill()
            for watcher in watchers:
                watcher.kill()
            for pid, fd in raw:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(fd)
    times.sort()
    p50 = times[len(times) // 2] * 1000
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))] * 1000
    top = times[-1] * 1000
    print(
        f"key to the other screen, {args.watchers} watching: {len(times)} moves, median {p50:.1f} ms, "
        f"p95 {p95:.1f} ms, max {top:.1f} ms"
    )
    return 0 if p95 < 50 else 1


if __name__ == "__main__":
    sys.exit(main())
