"""Two people at their own terminals (``mille --invite``, ``mille --join``; docs/people.md), as real users on ptys.

The host and the guest are two real users made for the test (``useradd``,
as root; skipped with the reason otherwise), each running mille on a
pseudo-terminal of its own (forked from this interpreter, then ``setuid``).
A third real user who connects is refused before a byte is read, and the
host told; the guest's moves show on the host's board and the host's on
the guest's; a guest killed at its move prompt is noticed, the computer
plays the seat, and ``mille --join`` again retakes it.  The link's bounds
(garbage, a line that never ends, a peer that stops reading) are checked
on a socket pair.
"""

from __future__ import annotations

# The users made for the test may not read this interpreter's library (it
# may live under root's home): what the game imports after ``setuid`` is
# imported here first, before the fork.
import curses  # noqa: F401
import fcntl
import json  # noqa: F401
import os
import pty
import secrets  # noqa: F401
import select
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time
import traceback  # noqa: F401
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

import mille.cli
import mille.engine.driver
import mille.files.rescue
import mille.files.save
import mille.ui.cursesterm
import mille.ui.people.guest
import mille.ui.people.host  # noqa: F401
import ptyreplay
from fault_helpers import local_user
from mille.engine.state import Game
from mille.players import wire
from mille.ui.people import link as people_link
from mille.ui.people.rendezvous import directory
from terminal_helpers import _children


class Player:
    """mille run by a real user on a pty of its own, read into an 80x24 screen."""

    def __init__(
        self,
        uid: int,
        gid: int,
        argv: list[str],
        env: dict[str, str] | None = None,
        program: list[str] | None = None,
        columns: int = 80,
        before: Callable[[], None] | None = None,
    ) -> None:
        """``mille ARGV`` forked from this interpreter; or, given ``program``, that program run (``bash -i``).

        ``before`` is called in the child, still root, before it becomes the user (a mount namespace of its own).

        The terminal is 24 rows of ``columns`` (the screen read is 80x24 whatever it is: a very wide one is for
        plain mode, every line said whole); every byte read is kept too (:attr:`raw`).
        """
        self.raw = b""
        self.screen = ptyreplay.Terminal(80, 24)
        self.stream = ptyreplay._Stream(self.screen)
        pid, fd = pty.fork()
        if pid == 0:  # the child: never returns into pytest
            code = 3
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
                os.closerange(3, 4096)  # the other players' terminals (their masters) are not this one's
                if before is not None:
                    before()
                os.setgroups([])
                os.setgid(gid)
                os.setuid(uid)
                os.chdir("/")
                os.environ.update(
                    {"HOME": "/nonexistent", "TERM": "xterm", "XDG_STATE_HOME": "/nonexistent", **(env or {})}
                )
                if program is not None:
                    os.execvp(program[0], program)
                from mille.cli import main

                code = main(argv)
            except BaseException:
                import traceback

                traceback.print_exc()
            finally:
                os._exit(code)
        self.pid, self.fd = pid, fd
        self.status: int | None = None

    def pump(self, timeout: float = 0.05) -> None:
        if self.fd < 0:
            time.sleep(timeout)
            return
        while select.select([self.fd], [], [], timeout)[0]:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.raw += data
            self.stream.feed(data)
            timeout = 0.01

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, wanted: str, deadline: float = 10.0) -> float:
        """Read until ``wanted`` is on the screen; the seconds it took (fails after ``deadline``)."""
        start = time.monotonic()
        while wanted not in self.text():
            if time.monotonic() - start > deadline:
                raise AssertionError(f"{wanted!r} never showed:\n{self.text()}")
            self.pump(0.02)
        return time.monotonic() - start

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def kill(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.reap()

    def reap(self, deadline: float = 10.0) -> int:
        end = time.monotonic() + deadline
        while self.status is None:
            self.pump(0.02)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
            elif time.monotonic() > end:
                os.kill(self.pid, signal.SIGKILL)
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        return self.status


def in_shell(uid: int, gid: int, argv: list[str]) -> Player:
    """``mille ARGV`` typed at an interactive ``bash -i`` on a pty of its own (the system python, this checkout).

    Closing that pty's master is a terminal closed under a shell: bash is
    hung up and passes the hangup on to its job, as a window closed does.
    """
    python = shutil.which("python3", path="/usr/bin:/usr/local/bin")
    bash = shutil.which("bash")
    if python is None or bash is None:
        pytest.skip("no bash or no system python3 for a game run from a shell")
    if not _readable_by(uid, gid, [python, os.path.join(SRC, "mille", "__main__.py")]):
        pytest.skip(f"the test's user cannot run {python} on {SRC} (a checkout in a private directory)")
    player = Player(uid, gid, [], env={"PS1": "$ "}, program=[bash, "--norc", "--noprofile", "-i"])
    player.wait_for("$")
    command = " ".join(shlex.quote(a) for a in ["env", f"PYTHONPATH={SRC}", python, "-m", "mille", *argv])
    player.send(command + "\r")
    return player


def close_terminal(player: Player) -> None:
    """The player's terminal goes away (its pty's master closed), as a window closed or a line dropped."""
    os.close(player.fd)
    player.fd = -1


@contextmanager
def people(n: int) -> Iterator[list[tuple[str, int, int]]]:
    """``n`` real users for the test (and their meeting directories removed after)."""
    with ExitStack() as stack:
        users = [stack.enter_context(local_user()) for _ in range(n)]
        try:
            yield users
        finally:
            for _, uid, _ in users:
                shutil.rmtree(directory(uid), ignore_errors=True)


def _asked(player: Player, deadline: float = 10.0) -> float:
    """Wait until ``player``'s move prompt is open and empty (a move typed leaves it until the next prompt)."""
    start = time.monotonic()
    while not any(line[20:40].rstrip() == ">>:Move:" for line in player.screen.display):
        if time.monotonic() - start > deadline:
            raise AssertionError(f"no move prompt:\n{player.text()}")
        player.pump(0.01)
    return time.monotonic() - start


SAFETIES = ("Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way")


def discard_keys(player: Player) -> str:
    """The keys that discard the first card of ``player``'s hand that is not a safety (always legal)."""
    for row in player.screen.display[7:13]:
        slot, name = row[:1], row[2:20].strip()
        if slot.isdigit() and name and name not in SAFETIES:
            return f"d{slot}\r"
    raise AssertionError(player.text())


def _picked(player: Player) -> str:
    """The card on the hand's ``P`` row: there from the pick until the move is made (then it fills the slot played)."""
    return player.screen.display[6][2:20].strip()


def _until_shown(player: Player, shown: Callable[[], bool], deadline: float = 10.0) -> None:
    end = time.monotonic() + deadline
    while not shown():
        assert time.monotonic() < end, player.text()
        player.pump(0.01)


def _move(player: Player, made: bool = True) -> None:
    """Pick, then discard a card that is not a safety (the keys typed at once); back once the move is made.

    The move is made when the deck has one card fewer and the ``P`` row is
    empty again: what the move changed on the screen is waited for, never the
    prompt going away (the other seat may answer and the prompt come back
    between two reads of the pty).  ``made=False``: the keys typed, not waited
    for (the host's worker takes the move later).
    """
    deck = _deck(player)
    player.send("p" + discard_keys(player))
    if made:
        _until_shown(player, lambda: _deck(player) < deck and _picked(player) == "")


def _deck(player: Player) -> int:
    return int(player.screen.display[6][20:40])


def _agree(host: Player, guest: Player) -> None:
    """The two boards, drawn from one game, agree on everything public (each seat's side swapped)."""
    deadline = time.monotonic() + 10
    while host.screen.display[6][20:40] != guest.screen.display[6][20:40]:  # the deck's count, once both are drawn
        assert time.monotonic() < deadline, (host.text(), guest.text())
        host.pump(0.01)
        guest.pump(0.01)
    h, g = host.screen.display, guest.screen.display
    assert h[8][20:40] == g[8][20:40]  # the discard pile
    for row in (14, 16):  # battle and speed piles: mine on the left, the other's on the right
        assert h[row][:20].strip() == g[row][20:40].strip()
        assert h[row][20:40].strip() == g[row][:20].strip()
    for row in (1, 2, 3, 4, 6, 8, 9):  # the score window's figures: You and Comp swapped
        hy, hc = h[row][61:66].strip(), h[row][67:73].strip()
        gy, gc = g[row][61:66].strip(), g[row][67:73].strip()
        assert (hy, hc) == (gc, gy), (row, h[row], g[row])
    assert h[18:24] != [] and [r[:40].strip() for r in h[18:24]] == [r[40:].strip() for r in g[18:24]]


def test_two_people_play_a_third_is_refused_and_a_killed_guest_comes_back() -> None:
    with people(3) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid), (_eve, e_uid, e_gid)]:
        host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
        guests: list[Player] = []
        try:
            host.wait_for(f"mille --join {alice}")
            sock_path = os.path.join(directory(a_uid), f"{bob}.sock")
            assert os.stat(directory(a_uid)).st_mode & 0o777 == 0o711

            # Eve connects and writes first: refused, her bytes never read, the host told.
            refused = _connect_as(e_uid, e_gid, sock_path)
            assert refused == b"", refused
            host.wait_for("tried to join and was refused")

            guest = Player(b_uid, b_gid, ["--join", alice])
            guests.append(guest)
            _asked(host)
            guest.wait_for(f"{alice} is thinking...")

            # Each move shows on the other board at once, and whose turn it is.
            _move(host)
            _asked(guest)
            assert f"{alice} is thinking" not in guest.text()
            _move(guest)
            host.wait_for("DISCARD")
            _asked(host)
            guest.wait_for(f"{alice} is thinking...")

            _agree(host, guest)

            # Alice's ^C while Bob thinks: Really? on her board; his move, made meanwhile, is his once she answers
            # (her prompt read his link too, took his move away, and the game hung).
            _move(host)
            _asked(guest)
            host.send("\x03")
            host.wait_for("Really?")
            _move(guest, made=False)  # taken once she answers
            host.pump(0.3)
            assert "Really?" in host.text(), host.text()
            host.send("n")
            _asked(host)

            # The guest's process killed at its move prompt: the host is told, the computer plays the seat.
            _move(host)
            _asked(guest)
            guest.kill()
            host.wait_for(f"{bob} is gone")
            host.wait_for("Wait/Comp/Adjourn?")
            assert bob[:6] in host.screen.display[0][60:80], host.text()  # his name heads the Comp column
            host.send("c")
            _asked(host)

            # Bob joins again while Alice thinks at her prompt: his board at once, his seat at his next move.
            back = Player(b_uid, b_gid, ["--join", alice])
            guests.append(back)
            back.wait_for(f"{alice} is thinking...")
            host.wait_for(f"{bob} joined")
            # His terminal closed under him while Alice thinks: she is told at once, without moving.
            back.kill()
            host.wait_for(f"{bob} is gone")
            again = Player(b_uid, b_gid, ["--join", alice])
            guests.append(again)
            again.wait_for(f"{alice} is thinking...")
            _move(host)
            _asked(again)
            host.wait_for(f"{bob} is thinking...")

            # The host quits: the guest is told and leaves.
            _move(again)
            _asked(host)
            host.send("q")
            host.wait_for("Really?")
            host.send("y")
            assert host.reap() == 0
            assert again.reap() == 0
            assert not os.path.exists(sock_path)
        finally:
            host.kill()
            for g in guests:
                g.kill()


SSHD = "/usr/sbin/sshd"
SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")


@contextmanager
def readable_directory() -> Iterator[str]:
    """A directory every user may read (the test's own tmp_path is root's alone), removed after."""
    path = tempfile.mkdtemp(prefix="mille-ssh-test-")
    os.chmod(path, 0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _state_home(place: str, uid: int, gid: int) -> str:
    """A directory in ``place`` for ``uid``'s ``XDG_STATE_HOME`` (where a host keeps a game), theirs alone."""
    state = os.path.join(place, "state")
    os.mkdir(state, 0o700)
    os.chown(state, uid, gid)
    return state


def _readable_by(uid: int, gid: int, paths: list[str]) -> bool:
    pid = os.fork()
    if pid == 0:
        ok = 1
        try:
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            ok = 0 if all(os.access(p, os.R_OK) for p in paths) else 1
        finally:
            os._exit(ok)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def test_a_guest_joins_over_a_real_sshd_on_loopback() -> None:
    """``mille --join alice@127.0.0.1`` through ssh (a real sshd, a throwaway host key and user key)."""
    python = shutil.which("python3", path="/usr/bin:/usr/local/bin")
    if not os.path.exists(SSHD) or shutil.which("ssh") is None or shutil.which("ssh-keygen") is None:
        pytest.skip("openssh-server and openssh-client are not installed (.ci/run installs them as root)")
    if python is None:
        pytest.skip("no system python3 for the far side of ssh")
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        if not _readable_by(b_uid, b_gid, [python, os.path.join(SRC, "mille", "__main__.py")]):
            pytest.skip(f"the test's user cannot run {python} on {SRC} (a checkout in a private directory)")
        made_run = not os.path.isdir("/run/sshd")
        if made_run:
            os.makedirs("/run/sshd", mode=0o755)
        sshd = None
        host = guest = None
        try:
            for name in ("host_key", "user_key"):
                subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(place, name)],
                               check=True, capture_output=True)  # fmt: skip
            os.chown(os.path.join(place, "user_key"), b_uid, b_gid)
            # useradd locks the account ("!"), which sshd refuses; "*" has no password and is not locked.
            subprocess.run(["usermod", "-p", "*", bob], check=True, capture_output=True)
            shutil.copy(os.path.join(place, "user_key.pub"), os.path.join(place, "authorized_keys"))
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            config = os.path.join(place, "sshd_config")
            with open(config, "w") as f:
                f.write(
                    f"Port {port}\nListenAddress 127.0.0.1\nHostKey {place}/host_key\n"
                    f"AuthorizedKeysFile {place}/authorized_keys\nStrictModes no\nUsePAM no\n"
                    f"PasswordAuthentication no\nKbdInteractiveAuthentication no\nAllowUsers {bob}\n"
                    f"PidFile {place}/sshd.pid\n"
                )
            log = os.open(os.path.join(place, "log"), os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                sshd = subprocess.Popen([SSHD, "-D", "-e", "-f", config], stderr=log)
            finally:
                os.close(log)
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline and sshd.poll() is None, "sshd did not start"
                    time.sleep(0.05)
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            host.wait_for(f"mille --join {alice}")
            ssh = (
                f"ssh -p {port} -i {place}/user_key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
                " -o BatchMode=yes -o LogLevel=ERROR"
            )
            guest = Player(
                b_uid,
                b_gid,
                ["--join", f"{alice}@127.0.0.1"],
                env={"MILLE_SSH": ssh, "MILLE_REMOTE": f"env PYTHONPATH={SRC} {python} -m mille"},
            )
            try:
                _asked(host, deadline=20)
            except AssertionError:
                guest.pump(0.5)
                raise AssertionError(guest.text()) from None
            guest.wait_for(f"{alice} is thinking...", deadline=20)
            _move(host)
            _asked(guest)
            _move(guest)
            host.wait_for("DISCARD")
            # ssh killed under the guest: the host is told, the computer plays the seat.
            _asked(host)
            _move(host)
            for child in _children(guest.pid):  # the guest's own ssh, by its process id
                os.kill(child, signal.SIGKILL)
            host.wait_for(f"{bob} is gone", deadline=20)
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("c")
            _asked(host)  # the computer played his seat
            # Bob, whose link broke under him, is told too, and chooses to wait: ssh again, his seat back.
            guest.wait_for(f"{alice} is gone")
            guest.wait_for("Wait/Leave?")
            guest.send("w")
            host.wait_for(f"{bob} joined", deadline=20)
            guest.wait_for(f"{alice} is thinking...", deadline=20)
            _move(host)
            _asked(guest, deadline=20)
        finally:
            if guest is not None and guest.status is None:
                for child in _children(guest.pid):
                    os.kill(child, signal.SIGKILL)
            for p in (host, guest):
                if p is not None:
                    p.kill()
            if sshd is not None:
                sshd.kill()
                sshd.wait()
                with open(os.path.join(place, "log")) as f:
                    print(f.read())  # sshd's own words, for a failure
            if made_run:
                shutil.rmtree("/run/sshd", ignore_errors=True)


def test_the_hosts_terminal_closed_keeps_the_game_for_both_and_both_resume_it() -> None:
    """The host's terminal closed at the guest's move: the game kept, the guest told; --invite FILE resumes it."""
    from mille.files import save

    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        state = _state_home(place, a_uid, a_gid)
        env = {"XDG_STATE_HOME": state}
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"], env=env)
            players.append(host)
            host.wait_for(f"mille --join {alice}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            _asked(host)
            _move(host)
            _asked(guest)
            hand = [row[:20] for row in guest.screen.display[6:13]]

            os.close(host.fd)  # the host's terminal goes away under it
            host.fd = -1
            assert host.reap() == 1
            assert guest.reap() == 0
            assert f"{alice} left the game" in guest.text()
            [name] = os.listdir(os.path.join(state, "mille"))
            kept = os.path.join(state, "mille", name)
            assert save.read_game(kept).computer == f"person:{bob}"

            again = Player(a_uid, a_gid, ["--invite", bob, "--no-stats", kept], env=env)
            players.append(again)
            again.wait_for(f"mille --join {alice}")
            back = Player(b_uid, b_gid, ["--join", alice])
            players.append(back)
            _asked(back)
            assert "plays, not" not in again.text()
            assert [row[:20] for row in back.screen.display[6:13]] == hand
            _agree(again, back)
        finally:
            for p in players:
                p.kill()


def _connect_in_child(uid: int, gid: int, path: str) -> tuple[int, int]:
    """Connect to ``path`` as ``uid`` in a forked child that writes first, then reads to the end: (pid, pipe)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            try:
                s.sendall(b'{"type":"move","move":{"kind":"draw"}}\n')
            except OSError:
                pass
            s.settimeout(10)
            got = b""
            try:
                while chunk := s.recv(65536):
                    got += chunk
            except OSError:
                pass
            os.write(write_end, got)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _child_read(pid: int, fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return b"".join(chunks)


def _connect_as(uid: int, gid: int, path: str) -> bytes:
    """Connect to ``path`` as ``uid``, write first, and return what came back before the end (b'' if refused)."""
    return _child_read(*_connect_in_child(uid, gid, path))


# ----------------------------------------------------------------------
# The link's bounds: a hostile or broken peer cannot crash, hang or exhaust the other


def test_a_line_that_never_ends_ends_the_link_not_the_memory() -> None:
    mine, theirs = people_link.pair()
    try:
        chunk = b"x" * 4096
        sent = 0
        while sent <= people_link.MAX_LINE + len(chunk):
            theirs.sock.setblocking(True)
            theirs.sock.sendall(chunk)
            sent += len(chunk)
        with pytest.raises(people_link.LinkClosed, match="too long"):
            while mine.poll_message() is None:
                select.select([mine.sock], [], [], 1)
        assert len(mine._in) <= people_link.MAX_LINE + 65536
    finally:
        mine.close()
        theirs.close()


def test_garbage_ends_the_link_in_one_line() -> None:
    mine, theirs = people_link.pair()
    try:
        theirs.sock.setblocking(True)
        theirs.sock.sendall(b"\x1b]0;owned\x07 not json\n")
        with pytest.raises(people_link.LinkClosed, match="garbage"):
            mine.wait_message(timeout=5)
    finally:
        mine.close()
        theirs.close()


def test_a_peer_that_stops_reading_is_dropped_without_blocking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(people_link, "WRITE_DEADLINE", 0.2)
    mine, theirs = people_link.pair()
    try:
        message = {"type": "say", "text": "y" * 1000}
        start = time.monotonic()
        with pytest.raises(people_link.LinkClosed, match="stopped reading"):
            while True:
                mine.send(message)  # never blocks: the buffer is bounded, the stall timed
                if time.monotonic() - start > 0.25:
                    mine.flush()
        assert time.monotonic() - start < 10
    finally:
        mine.close()
        theirs.close()


def test_a_message_round_trips_in_the_bot_protocols_encoding() -> None:
    mine, theirs = people_link.pair()
    try:
        mine.send({"type": "move", "move": wire.move_json(wire.move_from_json({"kind": "draw"}))})
        got = theirs.wait_message(timeout=5)
        assert got is not None and got["type"] == "move"
    finally:
        mine.close()
        theirs.close()


def test_a_seed_typed_with_invite_is_refused_in_one_line() -> None:
    """A command line is seen by every user of the machine: a seed on it would make the deal public."""
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run(
        [sys.executable, "-m", "mille", "--invite", "nobody", "--seed", "5"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    assert "would make the deal public" in done.stderr and "Traceback" not in done.stderr


def _utmp_record(user: str, line: str, kind: int = 7) -> bytes:
    """One Linux ``struct utmp`` record (the layout the code reads: ``rendezvous.UTMP_RECORD``)."""
    from mille.ui.people.rendezvous import UTMP_RECORD

    return UTMP_RECORD.pack(kind, os.getpid(), line.encode(), b"ts/0", user.encode(), b"", 0, 0, 0, 0, 0, 0, 0, 0, 0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the utmp layout written here is Linux's")
def test_the_invitation_reaches_the_guests_pty_as_write_does_and_not_after_mesg_n(tmp_path: object) -> None:
    """A real pty owned by the guest, listed in a utmp file the test writes: one line there; none after ``mesg n``."""
    from mille.ui.people import rendezvous

    with people(1) as [(bob, b_uid, b_gid)]:
        master, slave = os.openpty()
        try:
            tty = os.ttyname(slave)
            utmp = os.path.join(str(tmp_path), "utmp")
            with open(utmp, "wb") as f:
                f.write(_utmp_record("someone", tty[len("/dev/") :]))  # another user's login on that tty
                f.write(_utmp_record(bob, tty[len("/dev/") :], kind=8))  # a dead process: not a login
                f.write(_utmp_record(bob, tty[len("/dev/") :]))
            os.chown(tty, b_uid, b_gid)
            assert rendezvous.terminals(bob, utmp) == [tty]

            os.chmod(tty, 0o620)  # mesg y
            assert rendezvous.invite(bob, "mille: alice invites you", utmp=utmp) == [tty]
            got = b""
            while b"invites you" not in got:
                assert select.select([master], [], [], 5)[0], got
                got += os.read(master, 4096)
            assert b"mille: alice invites you" in got

            os.chmod(tty, 0o600)  # mesg n: the group may not write
            assert rendezvous.invite(bob, "mille: alice invites you again", utmp=utmp) == []
            assert not select.select([master], [], [], 0.2)[0]
        finally:
            os.close(slave)
            os.close(master)


def test_drops_under_a_shell_and_each_choice_the_host_makes() -> None:
    """The guest's terminal closed under ``bash -i`` at the move prompt, then while the host thinks, then killed:
    the host is told at once and chooses: wait (the seat retaken), the computer, adjourn (resumed by both)."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        state = _state_home(place, a_uid, a_gid)
        env = {"XDG_STATE_HOME": state}
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"], env=env)
            players.append(host)
            host.wait_for(f"mille --join {alice}")
            guest = in_shell(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            _asked(host)
            _move(host)
            _asked(guest)

            # At his move prompt: his terminal closed under the shell.  Alice chooses to wait.
            close_terminal(guest)
            the_choice_after_a_wait(host, bob)
            host.send("w")
            host.wait_for("Waiting...")
            back = in_shell(b_uid, b_gid, ["--join", alice])
            players.append(back)
            _asked(back)  # the seat retaken, at the same move
            host.wait_for(f"{bob} joined")
            _move(back)
            _asked(host)

            # While Alice thinks: his terminal closed again; she is told at once, and chooses the computer.
            close_terminal(back)
            host.wait_for(f"{bob} is gone")
            _move(host)
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("c")
            _asked(host)
            deck = int(host.screen.display[6][20:40])
            _move(host)
            # The computer stands in without asking again: her prompt again, a card drawn for each (two or more:
            # a safety played gives the computer another turn, and the deal is one nobody can choose).
            _asked(host)
            assert "Adjourn?" not in host.text(), host.text()
            assert int(host.screen.display[6][20:40]) <= deck - 2, host.text()

            # He comes back, his process is killed at his prompt, and Alice adjourns.
            again = Player(b_uid, b_gid, ["--join", alice])
            players.append(again)
            again.wait_for(f"{alice} is thinking...")
            _move(host)
            _asked(again)
            hand = [row[:20] for row in again.screen.display[6:13]]
            again.kill()
            host.wait_for("Wait/Comp/Adjourn?")
            host.send("a")
            assert host.reap() == 0
            said = "".join(line.rstrip() if len(line.rstrip()) < 80 else line for line in host.screen.display)
            assert f"resume it with: mille --invite {bob} " in said, host.text()
            assert f"{bob} takes their seat again with: mille --join {alice}" in said, host.text()
            [name] = os.listdir(os.path.join(state, "mille"))
            kept = os.path.join(state, "mille", name)

            # Both resume it: his seat, his hand, his move.
            resumed = Player(a_uid, a_gid, ["--invite", bob, "--no-stats", kept], env=env)
            players.append(resumed)
            resumed.wait_for(f"mille --join {alice}")
            last = Player(b_uid, b_gid, ["--join", alice])
            players.append(last)
            _asked(last)
            assert [row[:20] for row in last.screen.display[6:13]] == hand
        finally:
            for p in players:
                p.kill()


def the_choice_after_a_wait(host: Player, name: str) -> None:
    """``name`` dropped: the host is told at once and asked; another key is told the choices; W waits; any key
    brings the choice back (waiting never hangs)."""
    host.wait_for(f"{name} is gone")
    host.wait_for("Wait/Comp/Adjourn?")
    host.send("x")
    host.wait_for("W: wait  C: computer  A: adjourn")
    host.send("w")
    host.wait_for("Waiting...")
    host.send(" ")
    host.wait_for("Wait/Comp/Adjourn?")


def _answer(player: Player, line: str, wanted: str, deadline: float = 10.0) -> str:
    """Type ``line`` at a plain prompt; what follows it (rows joined) once the next prompt is there."""
    player.pump(0.02)
    player.screen = ptyreplay.Terminal(80, 24)  # only what comes after the line is looked at
    player.stream = ptyreplay._Stream(player.screen)
    player.send(line + "\r")
    end = time.monotonic() + deadline
    while True:
        text = " ".join(row.strip() for row in player.screen.display)
        if wanted in text and text.rstrip().endswith("Your move:"):
            return text
        assert time.monotonic() < end, player.text()
        player.pump(0.02)


def _plain_answer(player: Player, line: str, wanted: str, deadline: float = 10.0) -> None:
    """Type ``line`` at a plain question; wait for ``wanted`` after it."""
    player.pump(0.02)
    player.screen = ptyreplay.Terminal(80, 24)
    player.stream = ptyreplay._Stream(player.screen)
    player.send(line + "\r")
    player.wait_for(wanted, deadline)


def _plain_discard(player: Player) -> str:
    """In lines: the line that discards the first card of the hand that is not a safety (``c`` says the hand)."""
    hand = _answer(player, "c", "Your hand: ")
    hand = hand[hand.index("Your hand: ") + len("Your hand: ") :]
    for item in hand[: hand.index(".")].split("; "):
        slot, card = item.split(": ", 1)
        if card not in SAFETIES and card != "empty":
            return f"d {slot.lower()}"
    raise AssertionError(hand)


def _plain_move(player: Player) -> None:
    """In lines: pick, then discard the first card of the hand that is not a safety."""
    _answer(player, "p", "You pick")
    player.send(_plain_discard(player) + "\r")


def test_a_person_in_lines_and_a_friend_on_the_board_either_way() -> None:
    """``--plain --invite`` with a guest on the board, then ``--plain --join`` with a host on the board."""
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)]:
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--plain", "--invite", bob, "--no-stats"])
            players.append(host)
            host.wait_for(f"mille --join {alice}")
            guest = Player(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            host.wait_for(f"Mille Bornes against {bob}, in lines")
            host.wait_for("Your move:")
            guest.wait_for(f"{alice} is thinking...")
            assert alice[:6] in guest.screen.display[0][60:80]  # her name heads his Comp column
            _plain_move(host)
            host.wait_for(f"{bob} is thinking...")
            _asked(guest)
            # A move the rules refuse: the original's own reason, on his board.  (Not a safety: a safety
            # counts as picked, and its discard is refused as "discard a safety?", bsd-mille.md §3.3, §3.4.)
            guest.send(discard_keys(guest))
            guest.wait_for("must pick first")
            _move(guest)
            host.wait_for(f"{bob} discards")
            # His process killed at her turn's end: she is asked in a line.
            _plain_move(host)
            _asked(guest)
            guest.kill()
            host.wait_for(f"{bob} is gone")
            host.wait_for("c lets the computer play the seat")
            _plain_answer(host, "w", f"Waiting for {bob}")
            _plain_answer(host, "", "c lets the computer play the seat")  # RETURN: the choice again
            host.send("c\r")
            host.wait_for(f"The computer plays for {bob}")
            host.send("q\r")
            host.wait_for("Really?")
            host.send("y\r")
            assert host.reap() == 0

            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            players.append(host)
            host.wait_for(f"mille --join {alice}")
            guest = Player(b_uid, b_gid, ["--plain", "--join", alice])
            players.append(guest)
            _asked(host)
            guest.wait_for(f"{alice} is thinking...")
            _move(host)
            guest.wait_for(f"Mille Bornes against {alice}, in lines")
            guest.wait_for(f"{alice} discards")
            guest.wait_for("Your move:")
            guest.send(_plain_discard(guest) + "\r")  # not a safety (above)
            guest.wait_for("must pick first")
            _plain_move(guest)
            host.wait_for("DISCARD")
            _asked(host)
            host.send("q")
            host.wait_for("Really?")
            host.send("y")
            assert host.reap() == 0
            assert guest.reap() == 0
            assert f"{alice} left the game" in guest.text()

            # Her mille killed under him: he is told in a line, waits, and her next game takes him back.
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            players.append(host)
            host.wait_for(f"mille --join {alice}")
            guest = Player(b_uid, b_gid, ["--plain", "--join", alice])
            players.append(guest)
            _asked(host)
            guest.wait_for(f"{alice} is thinking...")
            host.kill()
            guest.wait_for(f"{alice} is gone")
            guest.wait_for(f"w waits for {alice}'s game")
            _plain_answer(guest, "w", f"Waiting for {alice}")
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats"])
            players.append(host)
            _asked(host)
            _move(host)
            guest.wait_for(f"{alice} discards")
            guest.wait_for("Your move:")
        finally:
            for p in players:
                p.kill()


def _one_play_from_the_end() -> tuple[Game, str]:
    """A game where seat 0 (the host) has picked and one play of hers ends the hand (or asks Extension?); its key."""
    from mille.engine import driver, rules
    from mille.engine.rng import GlibcRandom
    from mille.engine.rules import MoveType, Phase
    from mille.players.bsd import BsdPlayer

    class Found(Exception):
        pass

    class Watch:
        def before_move(self, game: Game) -> None:
            if game.to_move != 0 or rules.phase(game) is not Phase.MOVE or game.deck_count <= 0:
                return
            if rules.draw_refusal(game, 0) is None:
                return  # not picked yet
            for move in rules.legal_moves(game):
                trial = game.copy()
                rules.push(trial, move)
                if move.kind is MoveType.PLAY and (trial.finished or trial.pending_extension is not None):
                    raise Found(game.copy(), "p" if move.slot == 0 else str(move.slot))

        def after_move(self, *args: object) -> None:
            pass

    for seed in range(1, 100):
        game = Game(rng=GlibcRandom(seed))
        rules.start_hand(game)
        try:
            driver.play_hand(game, [BsdPlayer(), BsdPlayer()], [GlibcRandom(1), GlibcRandom(2)], observer=Watch())
        except Found as found:
            return found.args[0], found.args[1]
    raise AssertionError("no deal ends on a play of seat 0")


def test_a_drop_at_another_hand_is_told_at_once_and_the_seat_retaken_in_the_next_hand() -> None:
    """The guest's terminal closed under bash while the host is asked ``Another hand?``: she is told at once,
    answers, and at his first move of the next hand waits for him: his seat again."""
    from mille.files.save import SavedGame, write_game

    game, key = _one_play_from_the_end()
    with people(2) as [(alice, a_uid, a_gid), (bob, b_uid, b_gid)], readable_directory() as place:
        kept = os.path.join(place, "near-the-end.json")
        write_game(kept, SavedGame(game, 0, f"person:{bob}"))
        os.chown(kept, a_uid, a_gid)
        players: list[Player] = []
        try:
            host = Player(a_uid, a_gid, ["--invite", bob, "--no-stats", kept])
            players.append(host)
            host.wait_for(f"mille --join {alice}")
            guest = in_shell(b_uid, b_gid, ["--join", alice])
            players.append(guest)
            _asked(host)
            host.send(f"u{key}\r")
            deadline = time.monotonic() + 10
            while "Another hand?" not in host.text():
                assert time.monotonic() < deadline, host.text()
                if "Extension?" in host.text():
                    host.send("n")
                    host.wait_for("Another hand?")
                host.pump(0.02)
            guest.wait_for(f"{alice}: Another hand?")
            close_terminal(guest)
            host.wait_for(f"{bob} is gone")  # at the question, at once
            host.send("y")
            deadline = time.monotonic() + 10
            while "Adjourn?" not in host.text():
                assert time.monotonic() < deadline, host.text()
                if any(line[20:40].rstrip() == ">>:Move:" for line in host.screen.display):
                    _move(host)  # she starts the hand: his turn comes after hers
                host.pump(0.02)
            host.send("w")
            host.wait_for("Waiting...")
            back = Player(b_uid, b_gid, ["--join", alice])
            players.append(back)
            _asked(back)
            host.wait_for(f"{bob} joined")
        finally:
            for p in players:
                p.kill()


def test_the_hosts_prompt_leaves_the_link_of_a_guest_who_decides_to_the_thread_that_asks_them(tmp_path: object) -> None:
    """The host's key loop (``Really?`` after ^C while the guest thinks) never reads a deciding guest's link.

    The guest's seat asks on the flow's worker, which alone reads their
    link while they decide; read by the host's prompt, their move was lost
    and the game hung (the race the larger tables had, ``link.heard_idle``).
    Here the move is on the link before the key: deterministic.
    """
    from mille.engine import rules
    from mille.engine.rng import GlibcRandom
    from mille.players.bsd import BsdPlayer
    from mille.ui.flow import GameFlow, Setup
    from mille.ui.people.host import HostBoardFace, RemotePerson
    from mille.ui.surface import VirtualTerminal

    game = Game(rng=GlibcRandom(5))
    rules.start_hand(game)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(os.path.join(str(tmp_path), "guest.sock"))
    listener.listen(1)
    host_end, guest_end = people_link.pair()
    ready, typed = os.pipe()
    remote = RemotePerson(listener, os.getuid(), game, "alice")
    try:
        term = VirtualTerminal(keys=[ord("n")])
        os.write(typed, b"n")
        term.fd = ready  # type: ignore[attr-defined]
        face = HostBoardFace(term, game, 0, remote)
        GameFlow(face, game, Setup(BsdPlayer(), "bsd", GlibcRandom(1)))
        remote.link = host_end
        remote.deciding = True  # as RemotePerson.choose, on the worker, while it waits for the move
        move = {"type": "move", "move": wire.move_json(rules.DRAW)}
        guest_end.send(move)
        assert face.dialogs.readch() == ord("n")
        assert host_end.wait_message(timeout=5) == move  # still the worker's to read
        assert remote.link is host_end and not remote.take_notices()
    finally:
        remote.close()
        listener.close()
        host_end.close()
        guest_end.close()
        os.close(ready)
        os.close(typed)


def test_the_hosts_line_in_plain_mode_leaves_the_link_of_a_guest_who_decides_alone(tmp_path: object) -> None:
    """The same in lines: a line awaited by a plain host (``Really?`` after ^C) leaves a deciding guest's link."""
    from mille.engine import rules
    from mille.engine.rng import GlibcRandom
    from mille.ui.people.host import RemotePerson
    from mille.ui.people.inlines import HostLinesFace
    from mille.ui.plain.lines import LineTerminal

    game = Game(rng=GlibcRandom(5))
    rules.start_hand(game)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(os.path.join(str(tmp_path), "guest.sock"))
    listener.listen(1)
    host_end, guest_end = people_link.pair()
    lines, typed = os.pipe()
    said = os.open(os.devnull, os.O_WRONLY)
    remote = RemotePerson(listener, os.getuid(), game, "alice")
    try:
        face = HostLinesFace(LineTerminal(lines, said), game, 0, remote, "brief")
        remote.link = host_end
        remote.deciding = True  # as RemotePerson.choose, on the worker, while it waits for the move
        move = {"type": "move", "move": wire.move_json(rules.DRAW)}
        guest_end.send(move)
        os.write(typed, b"n\n")
        face._hear()
        assert host_end.wait_message(timeout=5) == move  # still the worker's to read
        assert remote.link is host_end
    finally:
        remote.close()
        listener.close()
        host_end.close()
        guest_end.close()
        for fd in (lines, typed, said):
            os.close(fd)


def test_who_is_run_by_its_full_path_never_from_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 43: ``who`` from ``PATH`` runs whatever comes first on it; the system's is named by its full path."""
    from mille.ui.people import rendezvous

    ran = tmp_path / "ran"
    fake = tmp_path / "who"
    fake.write_text(f"#!/bin/sh\ntouch {shlex.quote(str(ran))}\necho 'bob pts/99 2026-01-01 00:00'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    lines = rendezvous._who_lines("bob")
    assert not ran.exists() and "pts/99" not in lines
    assert rendezvous._system_program(rendezvous.WHO) in (None, *rendezvous.WHO)
