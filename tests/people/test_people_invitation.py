"""The invitation reaches the guest through the system's ``write(1)``, or the host is told why not (issue 45).

mille opened the invited user's terminal itself, which only root may do
(terminals are group ``tty``, mode 0620, written by the set-group-ID
``write(1)``), so alice was told ``bob's terminals take no messages`` even
when bob's ``mesg`` was ``y`` and ``write bob`` worked.

Real users, not root: alice's ``mille --invite bob`` runs as alice on a pty
of her own; bob's terminal is a pty owned by bob, group ``tty``, mode 0620
as ``login`` leaves it.  ``write(1)`` finds a user's terminals in the
system's login records alone (``/run/utmp``; util-linux's reads no other
file), so alice's process runs in a mount namespace of its own whose
``/run`` is a directory of the test's, holding a ``utmp`` with bob's login
on that pty (the machine's own records are never touched).  Where the
system's ``write(1)`` is not set-group-ID ``tty`` (Debian 12 installs it
so), a copy made so stands in for it in the delivery test, and the
system's own is run in another: alice is told plainly why it cannot.
"""

from __future__ import annotations

import ctypes
import grp
import os
import select
import shutil
import stat
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from helpers.people import Player, people, readable_directory
from mille.ui.people import rendezvous

CLONE_NEWNS = 0x00020000


def _said(player: Player) -> str:
    """Everything ``player``'s process wrote, its lines whole (the terminal's wrapping undone)."""
    return player.raw.decode("utf-8", "replace").replace("\r\n", "\n")


def _wait_said(player: Player, wanted: str, deadline: float = 10.0) -> str:
    end = time.monotonic() + deadline
    while wanted not in _said(player):
        assert time.monotonic() < end, _said(player)
        player.pump(0.02)
    return _said(player)


def _records(user: str, line: str) -> bytes:
    """bob's login on ``line``, as ``login`` records it in utmp (Linux's ``struct utmp``)."""
    return rendezvous.UTMP_RECORD.pack(
        rendezvous.USER_PROCESS, os.getpid(), line.encode(), b"ts/9", user.encode(), b"", 0, 0, 0, 0, 0, 0, 0, 0, 0
    )


def _login_records_of_our_own(run: str) -> Callable[[], None]:
    """A ``before`` for :class:`Player`: the child's own mount namespace, in which ``/run`` is ``run``."""
    libc = ctypes.CDLL(None, use_errno=True)
    mount = shutil.which("mount")
    assert mount is not None

    def enter() -> None:
        if libc.unshare(CLONE_NEWNS) != 0:
            raise OSError(ctypes.get_errno(), "unshare")
        subprocess.run([mount, "--make-rprivate", "/"], check=True, capture_output=True)
        subprocess.run([mount, "--bind", run, "/run"], check=True, capture_output=True)

    return enter


def _needs_a_mount_namespace() -> None:
    if not os.path.isdir("/run") or shutil.which("mount") is None or shutil.which("unshare") is None:
        pytest.skip("write(1) reads the system's login records alone: the test needs /run, mount and unshare")
    done = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if done.returncode != 0:
        pytest.skip(
            f"write(1) reads the system's login records alone, and no mount namespace can be made here: "
            f"{done.stderr.decode(errors='replace').strip()}"
        )


def _set_group_id_tty(path: str) -> bool:
    info = os.stat(path)
    return bool(info.st_mode & stat.S_ISGID) and info.st_gid == grp.getgrnam("tty").gr_gid


@contextmanager
def bobs_terminal() -> Iterator[tuple[str, int, int, str, int, int, str, int, str]]:
    """alice and bob, real users; bob's pty (bob's, group tty, 0620); a ``/run`` for alice holding bob's login.

    (alice, uid, gid, bob, uid, gid, the pty's path, its master, the place of the test's files).
    """
    _needs_a_mount_namespace()
    if shutil.which("useradd") is None:
        pytest.skip("making real users needs useradd")
    try:
        tty_group = grp.getgrnam("tty").gr_gid
    except KeyError:
        pytest.skip("no group tty: terminals here are not written through a set-group-ID write(1)")
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        master, slave = os.openpty()
        try:
            tty = os.ttyname(slave)
            os.chown(tty, b_uid, tty_group)
            os.chmod(tty, 0o620)  # mesg y, as login leaves a terminal
            run = os.path.join(place, "run")
            os.mkdir(run, 0o755)
            with open(os.path.join(run, "utmp"), "wb") as f:
                f.write(_records(bob, tty[len("/dev/") :]))
            os.chmod(os.path.join(run, "utmp"), 0o644)
            yield alice, a_uid, a_gid, bob, b_uid, b_gid, tty, master, place
        finally:
            os.close(slave)
            os.close(master)


def _write_set_group_id(place: str) -> str:
    """The system's write(1) if it is set-group-ID tty, else a copy of it made so (as most systems install it)."""
    system = rendezvous._system_program(rendezvous.WRITE)
    if system is None:
        pytest.skip(f"no write(1) here ({rendezvous.WRITE_PACKAGE})")
    if _set_group_id_tty(system):
        return system
    copy = os.path.join(place, "write")
    shutil.copy(system, copy)
    os.chown(copy, 0, grp.getgrnam("tty").gr_gid)
    os.chmod(copy, 0o2755)
    return copy


def _arrived(master: int, wanted: bytes, deadline: float = 10.0) -> bytes:
    got = b""
    end = time.monotonic() + deadline
    while wanted not in got:
        left = end - time.monotonic()
        assert left > 0, got
        if select.select([master], [], [], left)[0]:
            got += os.read(master, 4096)
    return got


def _drain(master: int) -> bytes:
    """What else comes on the pty (write(1) ends its message with a line of its own), until it is quiet."""
    got = b""
    while select.select([master], [], [], 0.5)[0]:
        got += os.read(master, 4096)
    return got


def test_the_invitation_arrives_through_write_and_not_after_mesg_n(monkeypatch: pytest.MonkeyPatch) -> None:
    with bobs_terminal() as (alice, a_uid, a_gid, bob, _b_uid, _b_gid, tty, master, place):
        monkeypatch.setattr(rendezvous, "WRITE", (_write_set_group_id(place),))
        enter = _login_records_of_our_own(os.path.join(place, "run"))
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"], before=enter)
            players.append(host)
            got = _arrived(master, f"mille --join {alice}".encode())
            assert f"mille: {alice} invites you to a game of Mille Bornes".encode() in got, got
            said = _wait_said(host, f"waiting for {bob}")
            assert "tell them" not in said, said
            host.kill()
            _drain(master)

            # mesg n: nothing arrives, and alice is told why, with the line to pass on.
            os.chmod(tty, 0o600)
            again = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"], before=enter)
            players.append(again)
            said = _wait_said(again, f"waiting for {bob}")
            assert f"mille: {bob}'s terminals take no messages (mesg n); tell them: mille --join {alice}" in said
            assert not select.select([master], [], [], 0.3)[0]
        finally:
            for p in players:
                p.kill()


def test_alice_is_told_plainly_why_the_invitation_cannot_arrive(monkeypatch: pytest.MonkeyPatch) -> None:
    """The system's own write(1) (not set-group-ID tty here: it refuses, and alice is told so), no write(1) at all
    (the package named), and bob not logged in."""
    with bobs_terminal() as (alice, a_uid, a_gid, bob, _b_uid, _b_gid, tty, master, place):
        run = os.path.join(place, "run")
        enter = _login_records_of_our_own(run)
        players: list[Player] = []
        try:
            system = rendezvous._system_program(rendezvous.WRITE)
            if system is not None:
                host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"], before=enter)
                players.append(host)
                said = _wait_said(host, f"waiting for {bob}")
                if _set_group_id_tty(system):
                    assert "tell them" not in said, said
                    _arrived(master, f"mille --join {alice}".encode())
                    _drain(master)
                else:
                    line = next(line for line in said.splitlines() if "tell them" in line)
                    assert line.startswith(f"mille: write(1) could not reach {bob} on {tty[len('/dev/') :]}: ")
                    assert "only root may write on another user's terminal" in line, line
                    assert line.endswith(f"; tell them: mille --join {alice}"), line
                host.kill()

            monkeypatch.setattr(rendezvous, "WRITE", ("/nonexistent/write",))
            none = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"], before=enter)
            players.append(none)
            said = _wait_said(none, f"waiting for {bob}")
            assert (
                f"write(1), which reaches another user's terminal, is not installed ({rendezvous.WRITE_PACKAGE})"
                in said
            )
            none.kill()

            with open(os.path.join(run, "utmp"), "wb"):
                pass  # bob logged out
            gone = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"], before=enter)
            players.append(gone)
            said = _wait_said(gone, f"waiting for {bob}")
            assert f"mille: {bob} is not logged in here" in said and f"tell them: mille --join {alice}" in said
            assert not select.select([master], [], [], 0.2)[0]
        finally:
            for p in players:
                p.kill()
