"""Where people meet, attacked (issue 43): a second host of the same user, an impostor's directory or socket.

Real users made for the test (``useradd``, as root; skipped with the
reason otherwise), each running mille on a pty of its own
(:class:`helpers.people.Player`), or a real process of an impostor user
that makes the meeting directory, or a symbolic link in its place, and
listens there.
"""

from __future__ import annotations

import os
import shutil
import signal

import pytest

from helpers.people import Player, impostor, impostor_heard, people
from mille.ui.people.rendezvous import TABLE_SOCKET, directory, table_path


def _said(player: Player) -> str:
    """Everything ``player``'s process wrote, as text, its lines joined (a line wrapped on the pty joined again)."""
    return player.raw.decode("utf-8", "replace").replace("\r\n", "\n")


def test_a_second_host_for_the_same_guest_is_refused_and_a_dead_ones_socket_replaced() -> None:
    """Issue 43: a second ``mille --invite bob`` of the same user took the running game's socket (its guest sent to
    the new one).  Now it is refused in one line and the first game keeps its guest (one table per host: its door,
    ``table.sock``); a socket left by a game that is gone is replaced as before."""
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
            assert "a game of yours is already waiting or running" in said and "Traceback" not in said
            assert os.path.exists(table_path(a_uid))

            # The first game keeps its socket: bob joins it.
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            guest.wait_for(f"{alice} is thinking...")
            first.wait_asked()
            # The second game's check that the first answers is not a stranger knocking: nothing said of it.
            assert "tried to join" not in _said(first) and " knocked" not in _said(first), _said(first)

            # The first game killed where it stands: its socket is left, nobody answers on it; a new game takes it.
            os.kill(first.pid, signal.SIGKILL)
            first.reap()
            guest.wait_for("Wait/Leave?")  # his link went: he leaves (it is not waited out)
            guest.send("l")
            assert guest.reap() == 1
            assert os.path.exists(table_path(a_uid))
            third = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            players.append(third)
            third.wait_for(f"mille --join {alice}")
            again = Player(b_uid, b_gid, ["--join", alice])
            players.append(again)
            again.wait_for(f"{alice} is thinking...")
        finally:
            for p in players:
                p.kill()


def _one_line(player: Player) -> str:
    """The process ended with status 1, having written exactly one line (``mille: ...``), no traceback."""
    assert player.reap() == 1, player.text()
    said = _said(player)
    lines = [line for line in said.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("mille: ") and "Traceback" not in said, said
    return lines[0]


@pytest.mark.parametrize("kind", ["directory", "symlink"])
def test_an_impostors_meeting_place_is_refused_by_the_guest_and_named_to_the_host(kind: str) -> None:
    """Issue 43: eve makes ``/tmp/mille-ALICE`` (a directory, or a link to one of hers) before alice first hosts,
    and listens there as alice's game for bob.  bob's ``mille --join alice`` (and the far side of ssh's,
    ``--join-stdio``) refuses in one line and connects to nothing; alice's ``mille --invite bob`` says in one
    line whose it is and what to do."""
    with people(3) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (eve, e_uid, e_gid)]:
        place = directory(a_uid)
        hers = os.path.join("/tmp", f"mille-eve-{os.getpid()}-{kind}")

        def make() -> str:
            if kind == "directory":
                os.mkdir(place, 0o755)
                return os.path.join(place, TABLE_SOCKET)
            os.mkdir(hers, 0o755)
            os.symlink(hers, place)
            return os.path.join(hers, TABLE_SOCKET)

        players: list[Player] = []
        try:
            listening = impostor(e_uid, e_gid, make)
            try:
                for argv in (["--join", alice], ["--join-stdio", alice]):
                    guest = Player(b_uid, b_gid, argv)
                    players.append(guest)
                    line = _one_line(guest)
                    assert f"cannot join {alice}:" in line and f"of {eve}'s" in line, line
                    assert "nothing was sent" in line
            finally:
                heard = impostor_heard(*listening)
            assert heard == b"none", heard  # never connected: the impostor learnt nothing of bob

            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            players.append(host)
            line = _one_line(host)
            assert f"cannot host: {place} is a " in line and f"of {eve}'s" in line and "ask them" in line, line
        finally:
            for p in players:
                p.kill()
            if os.path.islink(place):
                os.unlink(place)
            shutil.rmtree(hers, ignore_errors=True)


def test_a_guest_refuses_a_game_another_user_listens_on_and_sends_nothing() -> None:
    """The place is alice's, but the process that answers is eve's (the kernel names it at either end of the
    socket): bob's ``mille --join alice`` refuses in one line, having sent nothing."""
    with people(3) as [(alice, a_uid, a_gid), (_bob, b_uid, b_gid), (eve, e_uid, e_gid)]:
        place = directory(a_uid)

        def make() -> str:  # as root: alice's own directory, in it the socket eve will listen on
            os.mkdir(place, 0o711)
            os.chown(place, a_uid, a_gid)
            os.chmod(place, 0o711)
            return os.path.join(place, TABLE_SOCKET)

        players: list[Player] = []
        try:
            listening = impostor(e_uid, e_gid, make, become_first=False)
            os.chown(os.path.join(place, TABLE_SOCKET), a_uid, a_gid)
            try:
                guest = Player(b_uid, b_gid, ["--join", alice])
                players.append(guest)
                line = _one_line(guest)
                assert f"is {eve}'s, not {alice}'s" in line and "nothing was sent" in line, line
            finally:
                heard = impostor_heard(*listening)
            assert heard == b"connected:", heard  # connected (the kernel's answer needs it), and sent nothing
        finally:
            for p in players:
                p.kill()
