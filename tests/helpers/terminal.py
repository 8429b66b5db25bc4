"""A real terminal that goes away: a pty whose master is closed under a running game.

What an ssh drop or a closed window does: the terminal emulator (or sshd)
closes the pty's master.  The kernel hangs the terminal up: every read of
it returns end of file from then on, and SIGHUP goes to the session
leader only, which is the game itself only when nothing stands between
the terminal and the game.  The setups, as a person meets them
(:data:`SETUPS`):

* ``shell``: an interactive ``bash`` (job control) in the terminal, with
  the game typed at its prompt: the shell is hung up and passes SIGHUP on
  to its job a moment later, while the game's reads already fail;
* ``direct``: the game is the terminal's program (``ssh -t host mille``):
  it is the session leader and gets SIGHUP from the kernel itself;
* ``sh-c``: a shell without job control runs it (``ssh -t host 'cd games
  && mille'``): the shell gets the SIGHUP, the game (in the shell's
  process group) only when the shell has died of it;
* ``setsid``: the game in a session of its own (``setsid mille`` typed at
  the shell): the terminal is not its controlling terminal, so no signal
  ever comes; the end of input is all it hears.

Nothing here sends the game a signal: the test closes the master, as the
emulator does, and waits for the game's exit (a pidfd: the game need not
be our child), then reads what it left.  No fixed times: every wait is for
a screen, a process or an exit, with a generous bound only against a hang.
"""

from __future__ import annotations

import fcntl
import os
import select
import shlex
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Sequence

from helpers import ptyreplay
from helpers import ui as H
from helpers.procs import processes

#: The ways a game meets its terminal (see the module's documentation).
SETUPS = ("shell", "direct", "sh-c", "setsid")
#: A bound against a hang, never a pause: waits end as soon as what they wait for happens.
WAIT_S = 60.0


def _children(pid: int) -> list[int]:
    return [child for child, _, parent in processes() if parent == pid]


def _cmdline(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return []


def _is_game(pid: int) -> bool:
    args = _cmdline(pid)
    return args[:1] == [sys.executable] and args[1:3] == ["-m", "mille"]


class GoneTerminal:
    """``python -m mille ARGS`` on an 80x24 pty in one of :data:`SETUPS`, its screen in pyte.

    ``cwd`` is the working directory; ``state`` is $XDG_STATE_HOME (where
    the hangup files and the record of games go).  The game's standard
    error goes to ``err_file`` when given (the line that says where the
    game was kept is then readable after the terminal is gone).
    """

    def __init__(
        self,
        setup: str,
        args: Sequence[str],
        *,
        cwd: str,
        state: str,
        err_file: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        assert setup in SETUPS, setup
        self.setup = setup
        stream_cls, screen_cls = H._pyte()
        self.screen = screen_cls(H.COLS, H.ROWS)
        self.stream = stream_cls(self.screen)
        self.home = tempfile.mkdtemp(prefix="gone-home-")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.home,
            "TERM": "xterm",
            "LANG": "C.UTF-8",
            "PS1": "$ ",
            "PYTHONPATH": H.MILLE_PATH,
            "XDG_STATE_HOME": state,
            **(env or {}),
        }
        game = [sys.executable, "-m", "mille", *args]
        command = shlex.join(game) + (f" 2>{shlex.quote(err_file)}" if err_file else "")
        if setup == "shell":
            self.argv = ["bash", "--norc", "--noprofile", "-i"]
            self.typed: str | None = command + "\r"
        elif setup == "direct":
            self.argv = game if err_file is None else ["sh", "-c", "exec " + command]
            self.typed = None
        elif setup == "sh-c":
            self.argv = ["sh", "-c", command + "; echo the game ended"]
            self.typed = None
        else:  # setsid: a session of its own, typed at an interactive shell
            self.argv = ["bash", "--norc", "--noprofile", "-i"]
            self.typed = "setsid -w " + command + "\r"
        self.cwd = cwd
        self.pid = 0  # the terminal's program (our child)
        self.game_pid = 0
        self.fd: int | None = None
        self.rc: int | None = None
        self._spawn()

    def _spawn(self) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", H.ROWS, H.COLS, 0, 0))
        self.pid, self.fd = H.fork_on_pty(master, slave, self.argv, self.cwd, self.env), master

    # -- the screen -----------------------------------------------------------
    def pump(self, timeout: float) -> None:
        if self.fd is None:
            return
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return
        try:
            data = os.read(self.fd, 65536)
        except (BlockingIOError, OSError):
            return
        self.stream.feed(data)

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        return "\n".join(f"{i:2d}|{line}" for i, line in enumerate(self.lines()))

    def wait_screen(self, pred, what: str) -> None:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + WAIT_S
        while not pred(self):
            assert time.monotonic() < deadline, f"{what} never came ({self.setup}):\n{self.text()}"
            self.pump(0.05)

    def at_move_prompt(self) -> bool:
        lines = self.screen.display
        return lines[10][20:28] == ">>:Move:" and (self.screen.cursor.y, self.screen.cursor.x) == (10, 29)

    def send(self, data: str) -> None:
        assert self.fd is not None
        os.write(self.fd, data.encode())

    def start(self) -> None:
        """Run the game (typed at the shell when there is one) and wait for its first board."""
        if self.typed is not None:
            self.wait_screen(lambda s: "$" in "".join(s.lines()), "the shell's prompt")
            self.send(self.typed)
        self.wait_screen(GoneTerminal.at_move_prompt, "the first board")
        self.game_pid = self.find_game()

    def pick(self) -> None:
        """Draw a card (``p``) and wait for the move prompt with the card in the hand: a move made."""
        self.send("p")
        self.wait_screen(lambda s: s.at_move_prompt() and s.lines()[6][2:20].strip() != "", "the card drawn")

    def find_game(self) -> int:
        """The game's process: the terminal's program, or a descendant of it."""
        return game_under(self.pid)

    # -- the terminal goes away -----------------------------------------------
    def close_terminal(self) -> None:
        """Close the master, as a terminal emulator or sshd does when the window closes or the link drops."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def wait_game_exit(self) -> None:
        """Wait for the game's process to end (a pidfd: it need not be our child); fail if it never does."""
        wait_gone(self.game_pid)

    def wait_exit(self) -> int:
        """The terminal's program's exit status (our child); waits for it."""
        if self.rc is None:
            deadline = time.monotonic() + WAIT_S
            while True:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    self.rc = os.waitstatus_to_exitcode(status)
                    break
                assert time.monotonic() < deadline, f"the terminal's program ({self.setup}) never ended"
                ready = _wait_child(self.pid)
                if not ready:
                    time.sleep(0.01)  # pragma: no cover - no pidfd
        return self.rc

    def close(self) -> None:
        self.close_terminal()
        for pid in (self.game_pid, self.pid):
            if pid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        if self.rc is None:
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
        shutil.rmtree(self.home, ignore_errors=True)

    def __enter__(self) -> GoneTerminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _wait_child(pid: int) -> bool:
    try:
        pidfd = os.pidfd_open(pid)
    except (ProcessLookupError, OSError):
        return False
    try:
        select.select([pidfd], [], [], WAIT_S)
    finally:
        os.close(pidfd)
    return True


# -- for sessions made elsewhere (helpers.ui.Pty, ptyreplay.PtySession) ---


def in_a_shell(game: Sequence[str]) -> list[str]:
    """``game`` run by an interactive bash with job control (``bash -i -c``), as the terminal's program.

    The shell is the session leader and the game its foreground job in a
    process group of its own, as when the command is typed at a prompt:
    when the terminal goes away the shell is hung up and passes SIGHUP on
    to the game a moment later, while the game's reads already fail.
    """
    return ["bash", "--norc", "--noprofile", "-i", "-c", shlex.join(game) + "; exit $?"]


def game_under(pid: int) -> int:
    """The game's process at or below ``pid`` (a terminal's program), waited for until it is there."""
    deadline = time.monotonic() + WAIT_S
    while True:
        todo, seen = [pid], []
        while todo:
            each = todo.pop()
            seen.append(each)
            todo.extend(_children(each))
        games = [each for each in seen if _is_game(each)]
        if games:
            return games[0]
        assert time.monotonic() < deadline, "the game's process was not found"
        time.sleep(0.01)


def wait_gone(pid: int) -> None:
    """Wait for process ``pid`` (not necessarily our child) to end; fail if it never does."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        ready, _, _ = select.select([pidfd], [], [], WAIT_S)
        assert ready, f"process {pid} did not leave after its terminal went away"
    finally:
        os.close(pidfd)


def shell_session(game: Sequence[str], **kwargs: object) -> ShellSession:
    """A :class:`ptyreplay.PtySession` whose program is an interactive shell running ``game`` (:func:`in_a_shell`)."""
    return ShellSession(game, **kwargs)


class ShellSession(ptyreplay.PtySession):
    """:class:`ptyreplay.PtySession` on ``bash -i -c GAME``: the settle probes look at the game, not the shell.

    :meth:`hang_up` closes the terminal (the master) and waits for the
    game to leave; :attr:`game_pid` is the game's process.
    """

    def __init__(self, game: Sequence[str], **kwargs: object) -> None:
        super().__init__(in_a_shell(game), **kwargs)  # type: ignore[arg-type]
        self.game_pid = 0

    def _on_game(self, probe, *args):  # type: ignore[no-untyped-def]
        leader = self.pid
        if leader is None:
            return probe(*args)
        if not self.game_pid:
            self.game_pid = game_under(leader)
        self.pid = self.game_pid
        try:
            return probe(*args)
        finally:
            self.pid = leader

    def _rchar(self):  # type: ignore[no-untyped-def]
        return self._on_game(super()._rchar)

    def _syscall(self):  # type: ignore[no-untyped-def]
        return self._on_game(super()._syscall)

    def _poll_fd0(self, addr: int) -> bool:
        return bool(self._on_game(super()._poll_fd0, addr))

    def hang_up(self) -> None:
        """The terminal goes away (its master closed, as sshd does on a drop); wait for the game to leave."""
        if not self.game_pid and self.pid is not None:
            self.game_pid = game_under(self.pid)
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        wait_gone(self.game_pid)

    def close(self) -> None:
        if self.game_pid:
            try:
                os.kill(self.game_pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        super().close()
