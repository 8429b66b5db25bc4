"""Where people meet, attacked (issue 43): a second host of the same user, an impostor's directory or socket.

Real users made for the test (``useradd``, as root; skipped with the
reason otherwise), each running mille on a pty of its own
(:class:`test_people.Player`), or a real process of an impostor user
that makes the meeting directory, or a symbolic link in its place, and
listens there.
"""

from __future__ import annotations

import os
import signal

from mille.ui.people.rendezvous import socket_path
from test_people import Player, _asked, people


def _said(player: Player) -> str:
    """Everything ``player``'s process wrote, as text, its lines joined (a line wrapped on the pty joined again)."""
    return player.raw.decode("utf-8", "replace").replace("\r\n", "\n")


def test_a_second_host_for_the_same_guest_is_refused_and_a_dead_ones_socket_replaced() -> None:
    """Issue 43: a second ``mille --invite bob`` of the same user took the running game's socket (its guest sent to
    the new one).  Now it is refused in one line and the first game keeps its guest; a socket left by a game that
    is gone is replaced as before."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)]:
        players: list[Player] = []
        try:
            first = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            players.append(first)
            first.wait_for(f"mille --join {alice}")
            second = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            players.append(second)
            second.wait_for("already waiting or running")
            assert second.reap() == 1
            said = _said(second)
            lines = [line for line in said.splitlines() if line.strip()]
            assert len(lines) == 1 and lines[0].startswith("mille: "), said
            assert f"for {bob} is already waiting or running" in said and "Traceback" not in said
            assert os.path.exists(socket_path(a_uid, bob))

            # The first game keeps its socket: bob joins it.
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            guest.wait_for(f"{alice} is thinking...")
            _asked(first)

            # The first game killed where it stands: its socket is left, nobody answers on it; a new game takes it.
            os.kill(first.pid, signal.SIGKILL)
            first.reap()
            guest.reap()
            assert os.path.exists(socket_path(a_uid, bob))
            third = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            players.append(third)
            third.wait_for(f"mille --join {alice}")
            again = Player(b_uid, b_gid, ["--join", alice])
            players.append(again)
            again.wait_for(f"{alice} is thinking...")
        finally:
            for p in players:
                p.kill()
