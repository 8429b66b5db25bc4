#!/usr/bin/env python3
"""ptyreplay.py - replay recorded mille transcripts against a program on a pty.

Self-contained (needs only Python 3.11 and pyte 0.8.2; nothing from
../shared): spawns a command on an exact 80x24 pseudo-terminal with
TERM=xterm, feeds its output into a pyte screen, sends each recorded step's
keys and snapshots the settled screen in the format of the bsdref harness's
drive.py transcripts, so that a snapshot compares exactly with a recorded
step:

    {"screen": [24 strings of 80 chars], "cursor": [row, col],
     "attrs": [[row, col, length, flags], ...], "exited": bool, "rc": int}

Library:
    meta, steps, end = load_transcript("tests/golden/chaos-001.jsonl.gz")
    res = replay(argv, steps, compare_until=len(steps), cwd=tmpdir)
    assert res.ok, res.report

    with PtySession(argv) as s:          # lower level
        snap = s.start()
        snap = s.step("p")

CLI:
    python3 tests/helpers/ptyreplay.py tests/golden/*.jsonl.gz              # clone
    python3 tests/helpers/ptyreplay.py --cmd bsd tests/golden/*.jsonl.gz    # real one
    python3 tests/helpers/ptyreplay.py --cmd 'env LD_PRELOAD=/x/seedshim.so \\
        MILLE_SEED={seed} /usr/games/mille' tests/golden/first-101.jsonl.gz

Command templates are split like a shell would (no shell runs) after
expanding {seed}, {python} (this interpreter), {repo}, {src} (repo/src) and
{shim} ($MILLE_SEEDSHIM, default <repo>/../shared/bsdref/seedshim.so).  Two
presets: "clone" (the default: ``{python} -m mille --seed {seed}`` with
PYTHONPATH=<repo>/src) and "bsd" (``env LD_PRELOAD={shim} MILLE_SEED={seed}
/usr/games/mille``).

When is a screen settled?  After writing a step's keys (all in one write, as
drive.py's default "action" pacing does) we read output until
  (1) the child has consumed every key (rchar in /proc/PID/io grew by the
      number of keys the tty passes on: ^C/^\\/^Z and ^S/^Q become signals
      or flow control and are not counted) and has been asleep waiting for
      the terminal (read(0, ...) in /proc/PID/syscall; also select/pselect
      with only fd 0, and poll/ppoll on the single fd 0) for 3 ms with no new
      output, or - fallback - there has been no output for 40 ms; a child
      that is running, asleep on a timer (nanosleep), or has not yet read
      every key sent (whatever it is doing: on a loaded machine the tty can
      take a while to pass keys on) counts as active, so the quiet time
      restarts, until keys unread for 2 s say our count was wrong; and
  (2) the screen shows mille waiting for input (cursor parked at a prompt
      on row 10) or the expected screen, or the child exited,
or the step timeout (5 s) passes.  When a snapshot differs from the
expected step, replay() waits once more for a longer quiet period (so that
a slow program is not reported on a half-drawn screen) and compares again.

Keys containing ^C reach the child as SIGINT through the tty: the child runs
in its own session with the pty as its controlling terminal.  At the end the
child's process group gets SIGHUP, then SIGKILL, and the child is reaped,
whatever happened.
"""

from __future__ import annotations

import argparse
import errno
import fcntl
import gzip
import json
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pyte
from pyte import streams as _pyte_streams

if __name__ == "__main__":  # run by its path: the tests' folder on the path, for ``helpers``
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from helpers import REPO, SRC, TESTS

ROWS, COLS = 24, 80
GOLDEN = os.path.join(TESTS, "golden")

PRESETS = {
    "clone": "{python} -m mille --seed {seed}",
    "bsd": "env LD_PRELOAD={shim} MILLE_SEED={seed} /usr/games/mille",
}

#: How long keys may stay unread before the count of what the tty passes on
#: is taken to be wrong (seconds).
_STUCK_GRACE = 2.0

# x86_64 syscall numbers
_NR_READ, _NR_POLL, _NR_SELECT = 0, 7, 23
_NR_NANOSLEEP, _NR_CLOCK_NANOSLEEP = 35, 230
_NR_PSELECT6, _NR_PPOLL = 270, 271
_TIMER_SLEEPS = {_NR_NANOSLEEP, _NR_CLOCK_NANOSLEEP}


def default_shim() -> str:
    return os.environ.get("MILLE_SEEDSHIM") or os.path.normpath(
        os.path.join(REPO, "..", "shared", "bsdref", "seedshim.so")
    )


# ---------------------------------------------------------------------------
# Terminal: pyte screen + REP (CSI Ps b), which ncurses uses with TERM=xterm
# ---------------------------------------------------------------------------


class _Stream(pyte.ByteStream):
    """pyte ByteStream that dispatches CSI Ps b (REP) to repeat_last()."""

    csi = dict(_pyte_streams.Stream.csi)
    csi["b"] = "repeat_last"
    events = frozenset(set(_pyte_streams.Stream.events) | {"repeat_last"})


class Terminal(pyte.Screen):
    """pyte.Screen that implements REP (repeat the last graphic character
    Ps times; stock pyte 0.8.2 drops it) and counts bells."""

    def __init__(self, cols: int = COLS, rows: int = ROWS):
        super().__init__(cols, rows)
        self.bells = 0
        self._last_graphic: str | None = None

    def draw(self, data: str) -> None:
        if data:
            self._last_graphic = data[-1]
        super().draw(data)

    def repeat_last(self, *params, **kwargs) -> None:
        n = params[0] if params and params[0] else 1
        if self._last_graphic is not None:
            super().draw(self._last_graphic * min(n, self.columns * self.lines))

    def bell(self, *args, **kwargs) -> None:
        self.bells += 1

    def debug(self, *args, **kwargs) -> None:  # unknown sequences: ignore
        pass


_FLAGS = (
    ("reverse", "r"),
    ("bold", "b"),
    ("underscore", "u"),
    ("blink", "k"),
    ("italics", "i"),
    ("strikethrough", "s"),
)
_flag_cache: dict = {}


def _flags(ch) -> str:
    key = (ch.fg, ch.bg, ch.bold, ch.italics, ch.underscore, ch.strikethrough, ch.reverse, ch.blink)
    f = _flag_cache.get(key)
    if f is None:
        f = "".join(c for a, c in _FLAGS if getattr(ch, a))
        if ch.fg != "default":
            f += " fg=" + ch.fg
        if ch.bg != "default":
            f += " bg=" + ch.bg
        _flag_cache[key] = f
    return f


def attr_runs(screen: pyte.Screen) -> list[list]:
    """Runs [row, col, length, flags] of non-default attributes, flags from
    r(everse) b(old) u(nderline) k (blink) i(talic) s(trike) plus " fg=X" /
    " bg=X" for non-default colours - the transcript format (the same runs
    as drive.py's attr_runs, computed from the written cells only: a cell
    pyte never wrote has the default attributes)."""
    runs: list[list] = []
    cols = screen.columns
    for y in range(screen.lines):
        line = screen.buffer[y]
        dflt = _flags(line.default)
        cur, start, nxt = "", 0, 0
        for x in sorted(line):
            if x >= cols:
                break
            f = _flags(line[x])
            if x != nxt and cur != dflt:  # a gap of default cells
                if cur:
                    runs.append([y, start, nxt - start, cur])
                cur, start = dflt, nxt
            if f != cur:
                if cur:
                    runs.append([y, start, x - start, cur])
                cur, start = f, x
            nxt = x + 1
        if nxt < cols and cur != dflt:
            if cur:
                runs.append([y, start, nxt - start, cur])
            cur, start = dflt, nxt
        if cur:
            runs.append([y, start, cols - start, cur])
    return runs


def display(screen: pyte.Screen) -> list[str]:
    """screen.display (the 24 lines as text), faster: rows holding only
    single-cell characters are joined directly; others go through pyte."""
    cols = screen.columns
    out = []
    slow = None
    for y in range(screen.lines):
        line = screen.buffer[y]
        row = [line.default.data] * cols
        ok = len(line.default.data) == 1
        for x, ch in line.items():
            d = ch.data
            if len(d) != 1 or d >= "\u0300":  # wide / combining: use pyte
                ok = False
                break
            if x < cols:
                row[x] = d
        if ok:
            out.append("".join(row))
        else:
            if slow is None:
                try:
                    slow = screen.display
                except IndexError:  # pyte trips over a stray wide stub
                    slow = [_render_row(screen.buffer[r], cols) for r in range(screen.lines)]
            out.append(slow[y])
    return out


def _render_row(line, cols: int) -> str:
    from wcwidth import wcwidth

    out, skip = [], False
    for x in range(cols):
        if skip:
            skip = False
            continue
        d = line[x].data
        skip = bool(d) and wcwidth(d[0]) == 2
        out.append(d)
    return "".join(out)


@dataclass
class Snapshot:
    screen: list[str]
    cursor: list[int]
    attrs: list[list]
    exited: bool = False
    rc: int | None = None
    nbytes: int = 0
    bells: int = 0
    ms: float = 0.0
    timed_out: bool = False
    keys: str = ""

    def as_step(self) -> dict:
        return {
            "keys": self.keys,
            "screen": self.screen,
            "cursor": self.cursor,
            "attrs": self.attrs,
            "bytes": self.nbytes,
            "bells": self.bells,
            "ms": round(self.ms, 2),
            "timed_out": self.timed_out,
            "exited": self.exited,
            "rc": self.rc,
        }


# ---------------------------------------------------------------------------
# mille prompt check (the "ready" half of the settle rule)
# ---------------------------------------------------------------------------

_PROMPTS = (
    ">>:Move:",
    "Really?",
    "Another hand?",
    "Another game?",
    "Save game?",
    "Same file?",
    "file:",
    "Extension?",
    "Overwrite file?",
)
_PROMPT_ROW, _PROMPT_COL = 10, 20


def mille_awaiting(lines: Sequence[str], cursor) -> bool:
    """True when the cursor is parked where mille reads its next key: after
    a prompt on row 10 (col 20), after "U"/"D" (card slot), after the slot
    (Return), anywhere in a file name, or after "Really? N" (an answered ^C
    returns to the interrupted move read without redrawing)."""
    if cursor is None or cursor[0] != _PROMPT_ROW or len(lines) <= _PROMPT_ROW:
        return False
    row = lines[_PROMPT_ROW].ljust(80)
    seg = row[_PROMPT_COL:40]
    for text in _PROMPTS:
        if seg.startswith(text):
            break
    else:
        return False
    col = cursor[1]
    base = _PROMPT_COL + len(text) + 1
    if text == ">>:Move:":
        return (
            col == base
            or (col == base + 1 and row[base] in "UD")
            or (col == base + 2 and row[base] in "UD" and row[base + 1] in "0123456P")
        )
    if text == "file:":
        return col >= base
    if col == base:
        return True
    return text == "Really?" and col == base + 1 and row[base] == "N"


# ---------------------------------------------------------------------------
# PtySession: one child on one 80x24 pty
# ---------------------------------------------------------------------------


def _never_ready(lines: list[str], cursor: list[int]) -> bool:
    return False


class PtySession:
    """A child process on an 80x24 pty whose output feeds a pyte screen."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        term: str = "xterm",
        env: dict | None = None,
        cwd: str | None = None,
        rows: int = ROWS,
        cols: int = COLS,
        quiet_ms: float = 40.0,
        min_quiet_ms: float = 3.0,
        step_timeout: float = 5.0,
        start_timeout: float = 10.0,
        fast: bool = True,
        ready: Callable[[list[str], list], bool] | None = mille_awaiting,
    ):
        self.argv = list(argv)
        self.term = term
        self.extra_env = dict(env or {})
        self.cwd = cwd
        self._scratch: str | None = None
        self.rows, self.cols = rows, cols
        self.quiet = quiet_ms / 1000.0
        self.min_quiet = min_quiet_ms / 1000.0
        self.step_timeout = step_timeout
        self.start_timeout = start_timeout
        self.fast = fast and os.uname().machine == "x86_64" and os.path.exists("/proc/self/syscall")
        self.ready = ready
        self.screen = Terminal(cols, rows)
        self.stream = _Stream(self.screen)
        self.pid: int | None = None
        self.fd: int | None = None
        self.exited = False  # the child has terminated (maybe unreaped)
        self.rc: int | None = None
        self._reaped = False
        self._eof = False
        self._expect_rchar: int | None = 0
        self._stuck_since: float | None = None
        self.total_bytes = 0

    # -- process management -------------------------------------------------
    def spawn(self) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", self.rows, self.cols, 0, 0))
        env = dict(os.environ)
        for k in ("LINES", "COLUMNS", "TERMCAP", "LD_PRELOAD", "MILLE_SEED"):
            env.pop(k, None)
        env["TERM"] = self.term
        if self.cwd is None:
            self._scratch = tempfile.mkdtemp(prefix="ptyreplay-")
            self.cwd = self._scratch
        self.cwd = os.path.abspath(self.cwd)
        env["PWD"] = self.cwd
        env.update(self.extra_env)
        pid = os.fork()
        if pid == 0:  # child: own session, pty as controlling terminal
            try:
                os.close(master)
                os.setsid()
                fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
                for fd in (0, 1, 2):
                    os.dup2(slave, fd)
                if slave > 2:
                    os.close(slave)
                os.chdir(self.cwd)
                os.execvpe(self.argv[0], self.argv, env)
            except BaseException as e:
                try:
                    os.write(2, ("exec failed: %r\n" % (e,)).encode())
                finally:
                    os._exit(127)
        os.close(slave)
        self.pid, self.fd = pid, master
        os.set_blocking(master, False)

    def _poll_exit(self) -> bool:
        """Notice the child's exit without reaping it (WNOWAIT), so that its
        pid stays reserved as our process group id until close()."""
        if self.exited or self.pid is None:
            return self.exited
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            self.exited = self._reaped = True
            return True
        if info is None or info.si_pid == 0:
            return False
        self.exited = True
        if info.si_code == os.CLD_EXITED:
            self.rc = info.si_status
        else:  # killed / dumped: -signal
            self.rc = -info.si_status
        return True

    def close(self) -> None:
        """SIGHUP then SIGKILL to the child's process group, reap, clean up."""
        if self.pid is not None and not self._reaped:
            for sig, grace in ((signal.SIGHUP, 0.5), (signal.SIGKILL, 2.0)):
                if self._poll_exit():
                    break
                try:
                    os.killpg(self.pid, sig)
                except (ProcessLookupError, PermissionError):
                    pass
                deadline = time.monotonic() + grace
                while time.monotonic() < deadline and not self._poll_exit():
                    time.sleep(0.002)
            # leader still unreaped: the group id is ours; stop stragglers
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self._reaped = True
        if self.fd is not None:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = None
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def __enter__(self) -> PtySession:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- output ----------------------------------------------------------------
    def _read(self, timeout: float) -> int:
        """Wait up to `timeout` for output and feed it to the screen.
        Returns bytes read, or -1 at end of file (slave closed)."""
        if self.fd is None or self._eof:
            return -1
        try:
            r, _, _ = select.select([self.fd], [], [], max(timeout, 0.0))
        except InterruptedError:
            return 0
        if not r:
            return 0
        total = 0
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            except OSError as e:
                if e.errno == errno.EIO:  # child side closed
                    data = b""
                else:
                    raise
            if not data:
                if total == 0:
                    self._eof = True
                    return -1
                break
            total += len(data)
            self.stream.feed(data)
        self.total_bytes += total
        return total

    # -- idle probe (Linux x86_64) -----------------------------------------------
    def _rchar(self) -> int | None:
        try:
            with open("/proc/%d/io" % self.pid) as f:
                for line in f:
                    if line.startswith("rchar:"):
                        return int(line.split()[1])
        except (OSError, ValueError):
            pass
        return None

    def _syscall(self):
        try:
            with open("/proc/%d/syscall" % self.pid) as f:
                parts = f.read().split()
        except OSError:
            return None
        if parts and parts[0] == "running":
            return "running"
        try:
            return [int(parts[0])] + [int(p, 16) for p in parts[1:4]]
        except (ValueError, IndexError):
            return None

    def _poll_fd0(self, addr: int) -> bool:
        """Does the single struct pollfd at addr in the child watch fd 0?"""
        try:
            with open("/proc/%d/mem" % self.pid, "rb", buffering=0) as f:
                f.seek(addr)
                b = f.read(4)
            return len(b) == 4 and struct.unpack("i", b)[0] == 0
        except (OSError, ValueError, OverflowError):
            return False

    def _waiting_for_tty(self, sc) -> bool:
        nr = sc[0]
        if nr == _NR_READ:
            return sc[1] == 0
        if nr in (_NR_SELECT, _NR_PSELECT6):
            return sc[1] == 1  # nfds 1: only fd 0
        if nr in (_NR_POLL, _NR_PPOLL):
            return sc[2] == 1 and self._poll_fd0(sc[1])
        return False

    def _probe(self) -> str:
        """ "idle": consumed every key sent and asleep waiting for the tty;
        "busy": running, on a timer, or not yet done reading the keys sent;
        "other": no verdict (use the quiet timer)."""
        if self.pid is None or self.exited:
            return "other"
        sc = self._syscall()
        if sc is None:
            return "other"
        if sc == "running" or sc[0] in _TIMER_SLEEPS:
            return "busy"
        waiting = self._waiting_for_tty(sc)
        rc = self._rchar()
        if rc is None or self._expect_rchar is None:
            return "other"
        if rc >= self._expect_rchar:
            self._stuck_since = None
            return "idle" if waiting else "other"
        # Keys sent but not read yet: whatever the child is doing, the screen
        # is not the step's answer.  On a loaded machine the line discipline
        # can take a long while to pass keys on (the child sleeps in read(0)
        # meanwhile), so only a long wait means our count of what the tty
        # swallows was wrong.
        now = time.monotonic()
        if self._stuck_since is None:
            self._stuck_since = now
        if now - self._stuck_since > _STUCK_GRACE:
            return "idle" if waiting else "other"
        return "busy"

    def _readable(self, data: bytes) -> int | None:
        """How many bytes of `data` the child will read(): the tty turns
        VINTR/VQUIT/VSUSP (ISIG) and VSTART/VSTOP (IXON) into signals and
        flow control.  None in canonical mode (reads are per line)."""
        try:
            iflag, _, _, lflag, _, _, cc = termios.tcgetattr(self.fd)
        except (termios.error, OSError):
            return len(data)
        if lflag & termios.ICANON:
            return None
        eaten = set()
        if lflag & termios.ISIG:
            eaten |= {cc[termios.VINTR], cc[termios.VQUIT], cc[termios.VSUSP]}
        if iflag & termios.IXON:
            eaten |= {cc[termios.VSTART], cc[termios.VSTOP]}
        eaten = {c if isinstance(c, bytes) else bytes([c]) for c in eaten}
        eaten.discard(b"\x00")
        return sum(1 for b in data if bytes([b]) not in eaten)

    # -- waiting ---------------------------------------------------------------
    def _finish_exit(self) -> None:
        """After end of file on the pty: wait (briefly) for the exit status."""
        deadline = time.monotonic() + 2.0
        while not self._poll_exit() and time.monotonic() < deadline:
            time.sleep(0.002)

    def wait(
        self, timeout: float | None = None, quiet: float | None = None, ready="default", expect: dict | None = None
    ) -> Snapshot:
        """Read output until the screen is settled (see the module doc)."""
        timeout = self.step_timeout if timeout is None else timeout
        quiet = self.quiet if quiet is None else quiet
        ready = self.ready if ready == "default" else ready
        t0 = time.monotonic()
        last = t0
        idle_since = None
        nbytes = 0
        bells0 = self.screen.bells
        timed_out = False
        while True:
            now = time.monotonic()
            if self._eof or self._poll_exit():
                break
            if now - t0 >= timeout:
                timed_out = True
                break
            settled = now - last >= quiet
            if self.fast:
                state = self._probe()
                if state == "idle":
                    if idle_since is None:
                        idle_since = now
                    settled = settled or now - idle_since >= self.min_quiet
                else:
                    idle_since = None
                    if state == "busy":
                        last = now
                        settled = False
            if settled and self._is_ready(ready, expect):
                break
            if self.fast:
                tmo = self.min_quiet / 2
            else:
                tmo = max(quiet - (now - last), 0.001)
            n = self._read(min(tmo, max(timeout - (now - t0), 0.0)))
            if n > 0:
                nbytes += n
                last = time.monotonic()
                idle_since = None
        if self._eof or self.exited:
            # drain everything the child wrote before exiting
            while True:
                n = self._read(0.01)
                if n <= 0:
                    break
                nbytes += n
            self._finish_exit()
        while True:
            n = self._read(0)
            if n <= 0:
                break
            nbytes += n
        snap = self.snapshot()
        snap.nbytes = nbytes
        snap.bells = self.screen.bells - bells0
        snap.ms = (time.monotonic() - t0) * 1000.0
        snap.timed_out = timed_out
        return snap

    def _is_ready(self, ready, expect) -> bool:
        if ready is None:
            return True
        sc = self.screen
        lines, cur = display(sc), [sc.cursor.y, sc.cursor.x]
        if ready(lines, cur):
            return True
        return expect is not None and lines == expect.get("screen") and cur == list(expect.get("cursor", ()))

    def snapshot(self) -> Snapshot:
        sc = self.screen
        return Snapshot(
            screen=display(sc), cursor=[sc.cursor.y, sc.cursor.x], attrs=attr_runs(sc), exited=self.exited, rc=self.rc
        )

    def send(self, keys: str) -> None:
        """Write the keys in one go (drive.py's "action" pacing)."""
        if self.fd is None or self.exited or self._eof:
            return
        data = keys.encode("latin-1")
        if self.fast:
            rc = self._rchar()
            n = self._readable(data)
            self._expect_rchar = None if n is None else (rc or 0) + n
            self._stuck_since = None
        deadline = time.monotonic() + self.step_timeout
        while data:
            try:
                n = os.write(self.fd, data)
                data = data[n:]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError("pty write blocked") from None
                self._read(0.005)
            except OSError as e:
                if e.errno == errno.EIO:
                    return
                raise

    def start(self, expect: dict | None = None) -> Snapshot:
        if self.pid is None:
            self.spawn()
        return self.wait(timeout=self.start_timeout, expect=expect)

    def wait_exit(self, timeout: float) -> Snapshot:
        """Read output until the program exits (or ``timeout`` passes), however quiet it is.

        :meth:`wait` stops once the screen is settled, and a program that has
        just been sent a signal still looks settled (asleep on the terminal)
        until the kernel gets round to running it.
        """
        return self.wait(timeout=timeout, ready=_never_ready)

    def step(self, keys: str, expect: dict | None = None) -> Snapshot:
        t0 = time.monotonic()
        self.send(keys)
        snap = self.wait(expect=expect)
        snap.keys = keys
        snap.ms = (time.monotonic() - t0) * 1000.0
        return snap


# ---------------------------------------------------------------------------
# Transcripts, comparison, reports
# ---------------------------------------------------------------------------


def load_transcript(path: str):
    """(meta, steps, end) of a drive.py transcript (.jsonl or .jsonl.gz)."""
    op = gzip.open if path.endswith(".gz") else open
    meta, steps, end = {}, [], {}
    with op(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            d = json.loads(line)
            if "meta" in d:
                meta = d["meta"]
            elif "end" in d:
                end = d["end"]
            else:
                steps.append(d)
    return meta, steps, end


def step_equal(exp: dict, act: dict) -> bool:
    """Screen lines, cursor, attribute runs and exited-or-not all equal."""
    return (
        exp["screen"] == act["screen"]
        and list(exp["cursor"]) == list(act["cursor"])
        and (exp.get("attrs") or []) == (act.get("attrs") or [])
        and bool(exp.get("exited")) == bool(act.get("exited"))
    )


def _attr_grid(step: dict):
    g = [[""] * COLS for _ in range(ROWS)]
    for row, col, n, f in step.get("attrs") or []:
        for x in range(col, min(col + n, COLS)):
            g[row][x] = f
    return g


def render_diff(exp: dict, act: dict, a: str = "expected", b: str = "actual") -> str:
    """Both screens with differing rows flagged '*', then every differing
    row of both with '^' under differing cells ('~' = same text, different
    attributes), then cursor / attribute / exit differences."""
    ga, gb = _attr_grid(exp), _attr_grid(act)
    diff_rows = []
    for y in range(ROWS):
        la = exp["screen"][y].ljust(COLS)
        lb = act["screen"][y].ljust(COLS)
        marks = "".join("^" if la[x] != lb[x] else "~" if ga[y][x] != gb[y][x] else " " for x in range(COLS))
        if marks.strip():
            diff_rows.append((y, marks))
    rows = {y for y, _ in diff_rows}
    w = max(len(a), len(b))
    out = []
    bar = "   +" + "-" * COLS + "+"
    for name, s in ((a, exp), (b, act)):
        out.append(
            "%s: cursor=%s%s" % (name, tuple(s["cursor"]), " exited rc=%s" % s.get("rc") if s.get("exited") else "")
        )
        out.append(bar)
        for y in range(ROWS):
            out.append("%s%2d|%s|" % ("*" if y in rows else " ", y, s["screen"][y].ljust(COLS)[:COLS]))
        out.append(bar)
    if diff_rows:
        out.append("differing rows (%s / %s / marks):" % (a, b))
        for y, marks in diff_rows:
            out.append(" %2d %-*s|%s|" % (y, w, a, exp["screen"][y].ljust(COLS)))
            out.append(" %2d %-*s|%s|" % (y, w, b, act["screen"][y].ljust(COLS)))
            out.append("    %s %s" % (" " * w, marks.rstrip()))
    if list(exp["cursor"]) != list(act["cursor"]):
        out.append("cursor differs: %s=%s %s=%s" % (a, tuple(exp["cursor"]), b, tuple(act["cursor"])))
    if (exp.get("attrs") or []) != (act.get("attrs") or []):
        sa = {tuple(r) for r in exp.get("attrs") or []}
        sb = {tuple(r) for r in act.get("attrs") or []}
        out.append("attribute runs only in %s: %s" % (a, sorted(sa - sb)))
        out.append("attribute runs only in %s: %s" % (b, sorted(sb - sa)))
    if bool(exp.get("exited")) != bool(act.get("exited")):
        out.append(
            "exited differs: %s=%s (rc %s) %s=%s (rc %s)"
            % (a, bool(exp.get("exited")), exp.get("rc"), b, bool(act.get("exited")), act.get("rc"))
        )
    return "\n".join(out)


@dataclass
class ReplayResult:
    ok: bool
    compared: int  # steps that matched
    until: int  # steps that should have been compared
    mismatch: int | None = None  # first differing step
    report: str = ""
    seconds: float = 0.0
    actual: list[dict] = field(default_factory=list)

    @property
    def ms_per_step(self) -> float:
        return 1000.0 * self.seconds / max(len(self.actual), 1)


def _mismatch_report(i: int, steps: list[dict], exp: dict, act: dict, name: str, snap: Snapshot) -> str:
    head = ["%sstep %d differs; keys sent %r" % (name + ": " if name else "", i, exp.get("keys", ""))]
    if i > 0:
        ctx = ", ".join("%d:%r" % (j, steps[j].get("keys", "")) for j in range(max(1, i - 5), i))
        head.append("steps 0..%d identical; previous keys %s" % (i - 1, ctx))
    if snap.timed_out:
        head.append("(the program did not settle within the step timeout)")
    return "\n".join(head) + "\n" + render_diff(exp, act)


def replay(
    argv: Sequence[str],
    steps: list[dict],
    compare_until: int | None = None,
    *,
    env: dict | None = None,
    cwd: str | None = None,
    term: str = "xterm",
    name: str = "",
    step_timeout: float = 5.0,
    start_timeout: float = 10.0,
    quiet_ms: float = 40.0,
    min_quiet_ms: float = 3.0,
    fast: bool = True,
    grace_quiet_ms: float = 250.0,
    on_step: Callable[[int, Snapshot], None] | None = None,
) -> ReplayResult:
    """Spawn argv, send steps[1..]'s keys one step at a time and compare each
    settled snapshot with the recorded step, up to compare_until steps.
    Stops at the first mismatch.  The child is always cleaned up."""
    until = len(steps) if compare_until is None else min(compare_until, len(steps))
    res = ReplayResult(ok=True, compared=0, until=until)
    t0 = time.monotonic()
    sess = PtySession(
        argv,
        term=term,
        env=env,
        cwd=cwd,
        quiet_ms=quiet_ms,
        min_quiet_ms=min_quiet_ms,
        step_timeout=step_timeout,
        start_timeout=start_timeout,
        fast=fast,
    )
    try:
        for i in range(until):
            exp = steps[i]
            if i == 0:
                snap = sess.start(expect=exp)
            else:
                snap = sess.step(exp.get("keys", ""), expect=exp)
            act = snap.as_step()
            if not step_equal(exp, act):
                # not the expected screen: allow a slow program to finish
                more = sess.wait(timeout=max(step_timeout, 1.0), quiet=grace_quiet_ms / 1000.0, ready=None)
                more.keys = snap.keys
                more.timed_out = snap.timed_out
                snap, act = more, more.as_step()
            res.actual.append(act)
            if on_step:
                on_step(i, snap)
            if not step_equal(exp, act):
                res.ok = False
                res.mismatch = i
                res.report = _mismatch_report(i, steps, exp, act, name, snap)
                break
            res.compared += 1
    finally:
        sess.close()
        res.seconds = time.monotonic() - t0
    return res


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------


def command_argv(template: str, seed) -> list[str]:
    """Expand a command template (or a preset name) for a seed."""
    template = PRESETS.get(template, template)
    return shlex.split(template.format(seed=seed, python=sys.executable, repo=REPO, src=SRC, shim=default_shim()))


def clone_env() -> dict:
    """Environment additions for running the Python clone from the repo."""
    return {"PYTHONPATH": SRC}


def _load_manifest() -> dict:
    p = os.path.join(GOLDEN, "manifest.json")
    if not os.path.exists(p):
        return {}
    with open(p) as f:
        return {e["file"]: e for e in json.load(f).get("files", [])}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="transcripts (.jsonl[.gz])")
    ap.add_argument(
        "--cmd",
        default=os.environ.get("MILLE_REPLAY_CMD", "clone"),
        help="command template or preset (clone, bsd); default $MILLE_REPLAY_CMD or clone",
    )
    ap.add_argument(
        "--until",
        type=int,
        default=None,
        help="compare at most this many steps (default: the manifest's compare_until, else all)",
    )
    ap.add_argument("--no-fast", action="store_true", help="quiet timer only (no /proc probe)")
    ap.add_argument("--quiet", action="store_true", help="only the summary")
    a = ap.parse_args(argv)
    man = _load_manifest()
    fails = 0
    nsteps = 0
    t_all = time.monotonic()
    for path in a.files:
        meta, steps, _ = load_transcript(path)
        ent = man.get(os.path.basename(path), {})
        seed = ent.get("seed", meta.get("seed"))
        until = a.until if a.until is not None else ent.get("compare_until")
        with tempfile.TemporaryDirectory(prefix="ptyreplay-") as td:
            res = replay(
                command_argv(a.cmd, seed),
                steps,
                until,
                env=clone_env(),
                cwd=td,
                name=os.path.basename(path),
                fast=not a.no_fast,
            )
        nsteps += len(res.actual)
        if not res.ok:
            fails += 1
            if not a.quiet:
                print(res.report)
        print(
            "%-22s %s %d/%d steps %.2fs (%.1f ms/step)"
            % (
                os.path.basename(path),
                "ok  " if res.ok else "FAIL",
                res.compared,
                res.until,
                res.seconds,
                res.ms_per_step,
            ),
            flush=True,
        )
    dt = time.monotonic() - t_all
    print(
        "%d/%d transcripts identical; %d steps in %.1fs (%.2f ms/step)"
        % (len(a.files) - fails, len(a.files), nsteps, dt, 1000.0 * dt / max(nsteps, 1))
    )
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
