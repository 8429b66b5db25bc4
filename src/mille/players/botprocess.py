"""A bot's process, for the ``exec:`` player: started, spoken to with deadlines, logged, killed, pooled.

:class:`Bot` is one running bot program (``docs/protocol.md``): its
process, started from ``COMMAND`` split as a shell would split it
(:func:`split_command`, :func:`shlex.split`) but without a shell, in a
session and process group of its own; its standard input and output as
non-blocking pipes that every read and write waits on with a deadline (a
line at most :data:`~mille.players.wire.MAX_LINE` bytes); its standard
error kept in a log file (its last :data:`MAX_LOG` bytes; :data:`MAX_LOGS` for all of a process's bots; ``--bot-logs``).
A failure kills the whole group and reaps it, so nothing it does can stall
the host or leave a zombie.

A player takes an idle process of its command that has never seen the
game's deal, or a new one (:func:`acquire`), and gives it back when done
(:func:`release`): no process plays two games that share a deal, so that
none can remember the first (issue 36), and a match starts only a few
(a start costs far more than a hand).  :func:`shutdown` (at
exit, and at a pool worker's exit) sends ``quit`` to all and kills what
does not leave.  The conversation itself,
what is said when, is the player's (:mod:`mille.players.external`).
Needs a POSIX system (process groups, ``poll``).
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shlex
import signal
import subprocess
import sys
import threading
import time

from . import wire
from .base import EXEC_PREFIX, PlayerSpecError

#: Seconds a bot has to answer the greeting (a program's start included).
HANDSHAKE_DEADLINE = 20.0
#: Seconds a bot has to leave after ``quit`` before it is terminated.
QUIT_GRACE = 2.0
#: Seconds between SIGTERM and SIGKILL when a bot that was told to quit does not.
TERM_GRACE = 0.2
#: Bytes of a bot's standard error kept in its log: the last ones (what a failure's cause is in);
#: past this, the log is cut from the front to its last half.
MAX_LOG = 1 << 20
#: Bytes of logs one process (the host, or a worker of a match) keeps on disk in all: past this, the
#: logs of bots that have ended go, oldest first, those that did not fail first (:meth:`_Logs.trim`).
MAX_LOGS = 64 << 20
#: The environment variable naming the directory of the bots' logs
#: (``--bot-logs``; it reaches the worker processes of a match).
LOGS_VARIABLE = "MILLE_BOT_LOGS"

_READ = select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR
_WRITE = select.POLLOUT | select.POLLHUP | select.POLLERR
#: How often a wait with nothing to read looks whether the bot has exited
#: (it may have left a child holding its standard output open).
_LOOK = 0.25


class BotFailure(Exception):
    """The bot broke the protocol: ``kind`` is a :class:`PlayerError` kind, ``message`` why."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def split_command(spec: str) -> list[str]:
    """The argument vector of ``exec:COMMAND``; :class:`PlayerSpecError` if there is none."""
    command = spec[len(EXEC_PREFIX) :] if spec.startswith(EXEC_PREFIX) else spec
    try:
        argv = shlex.split(command)
    except ValueError as exc:  # an open quote
        raise PlayerSpecError(f"{spec!r}: {exc}") from None
    if not argv:
        raise PlayerSpecError(f"{spec!r} names no program (exec:COMMAND, docs/protocol.md)")
    return argv


# --------------------------------------------------------------------------
# The logs


class _Logs:
    """Where the bots' standard error goes: ``--bot-logs``, or a temporary directory of this process.

    The temporary directory is removed at exit unless a bot failed (its
    failure's message names its log).
    """

    def __init__(self) -> None:
        self.temporary: str | None = None
        self.failed = False
        self.count = 0
        #: Bytes in the logs of this process's bots, those running and those kept after them.
        self.total = 0
        #: The logs of bots that have ended, oldest first: (path, bytes, whether the bot failed).
        self.ended: list[tuple[str, int, bool]] = []

    def directory(self) -> str:
        chosen = os.environ.get(LOGS_VARIABLE)
        if chosen:
            os.makedirs(chosen, exist_ok=True)
            return chosen
        if self.temporary is None:
            import tempfile

            self.temporary = tempfile.mkdtemp(prefix="mille-bots-")
        return self.temporary

    def open(self, argv: list[str]) -> tuple[str, int]:
        """A new log file for a bot run from ``argv``: its name and a descriptor to append to."""
        directory = self.directory()
        slug = "".join(c if c.isalnum() or c in "._-" else "-" for c in "-".join(os.path.basename(a) for a in argv))
        slug = slug.strip("-.")[:40] or "bot"
        while True:
            with _lock:
                self.count += 1
            path = os.path.join(directory, f"{slug}-{os.getpid()}-{self.count}.log")
            try:
                # Read and written: a log cut from the front reads its own end back (Bot.log).
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
            except FileExistsError:
                continue
            return path, fd

    def grew(self, size: int) -> None:
        """A running bot's log grew (or shrank) by ``size`` bytes: trimmed if over :data:`MAX_LOGS`."""
        self.total += size
        if self.total > MAX_LOGS:
            self.trim()

    def closed(self, path: str, size: int, failed: bool) -> None:
        """A bot's log is complete (the bot ended): kept, in the order logs end, for :meth:`trim`."""
        self.ended.append((path, size, failed))
        if self.total > MAX_LOGS:
            self.trim()

    def trim(self) -> None:
        """Remove ended bots' logs until the total is within :data:`MAX_LOGS`: clean ones first, oldest first.

        The log of a bot that failed is what its failure's message names,
        so it goes only when every clean one has gone; the logs of the bots
        still running are never removed (each is within :data:`MAX_LOG`).
        """
        for failed in (False, True):
            keep = []
            for entry in self.ended:
                path, size, bot_failed = entry
                if self.total > MAX_LOGS and bot_failed == failed:
                    try:
                        os.unlink(path)
                    except OSError:
                        pass
                    self.total -= size
                else:
                    keep.append(entry)
            self.ended = keep

    def clean(self) -> None:
        if self.temporary is not None and not self.failed:
            import shutil

            shutil.rmtree(self.temporary, ignore_errors=True)
            self.temporary = None


_logs = _Logs()


def set_log_directory(path: str) -> None:
    """Keep every bot's standard error in ``path`` (made if need be), in this process and those it starts."""
    os.environ[LOGS_VARIABLE] = os.path.abspath(path)


# --------------------------------------------------------------------------
# One running bot


class Bot:
    """One running bot program: its process, its pipes, what it said at the handshake.

    ``game_open``: a ``game`` was sent and its ``game_over`` not yet (a
    player that takes this process over ends it as abandoned first).
    """

    def __init__(self, spec: str, argv: list[str]) -> None:
        self.spec = spec
        self.argv = argv
        try:
            self.log_path, self.log_fd = _logs.open(argv)
        except (OSError, ValueError) as exc:  # say, MILLE_BOT_LOGS names a directory that cannot be made
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise PlayerSpecError(f"{spec!r}: cannot make the log of its standard error ({why})") from None
        self.logged = 0  # bytes in its log file now
        self.dropped = 0  # bytes cut from the front of its log
        self.marked = 0  # bytes of the line at its front that says so
        self.failed = False
        self.tail = b""
        self.out = bytearray()
        self.buf = bytearray()
        self.alive = False
        self.game_open = False
        #: Games begun on this process (its first says ``fresh``); keys of the deals it has seen (:func:`acquire`).
        self.games = 0
        self.deals: set[int] = set()
        self.name = ""
        self.dice: str | None = None
        #: The hello's opt-ins (docs/protocol-speed.md): asked forced moves too; the compact encoding.
        self.every_decision = False
        self.compact = False
        #: The protocols its hello says it speaks (docs/protocol.md, "Protocols 1 and 2"): (1,), (2,) or (1, 2).
        self.protocols: tuple[int, ...] = (wire.PROTOCOL,)
        #: Games the bot plays at once (its hello's ``games``; docs/protocol-speed.md, "Games in flight"):
        #: past 1, a match in one process plays that many on it, every message tagged (:func:`acquire_tag`).
        self.capacity = 1
        #: With games in flight: the hello's ``events`` and ``legal`` (False: not sent; docs/protocol.md).
        self.events = True
        self.legal = True
        #: Tags handed out to players now; tags whose game was begun and not ended.
        self.busy: set[int] = set()
        self.open_tags: set[int] = set()
        #: Tag -> the answer awaited for it (:class:`mille.players.external.Awaited`); answers not yet sent.
        self.waiting: dict[int, object] = {}
        self.unsent: list[object] = []
        #: Why the bot was killed, for the games it still had in flight (their next decision says so).
        self.failure = ""
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                close_fds=True,
                start_new_session=True,
            )
        except OSError as exc:
            os.close(self.log_fd)
            try:
                os.unlink(self.log_path)
            except OSError:
                pass
            raise PlayerSpecError(f"{spec!r}: cannot run {argv[0]!r}: {exc.strerror or exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        self.stdin = self.proc.stdin.fileno()
        self.stdout = self.proc.stdout.fileno()
        self.stderr: int | None = self.proc.stderr.fileno()
        for fd in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(fd, False)
        self.poller = select.poll()
        self.poller.register(self.stdout, _READ)
        self.poller.register(self.stderr, _READ)
        self.writing = False
        self.alive = True

    # -- the handshake -----------------------------------------------------
    def handshake(self) -> None:
        """Greet the bot and read its hello; :class:`PlayerSpecError` (the bot killed) if it does not answer one."""
        try:
            self.send(wire.encode(wire.greeting()))
            hello = wire.read_message(
                self.exchange(
                    time.monotonic() + HANDSHAKE_DEADLINE,
                    f"did not say hello within {HANDSHAKE_DEADLINE:g} s",
                    "before saying hello",
                )
            )
            if hello["type"] != "hello":
                raise BotFailure("illegal", f"answered the greeting with a {wire.excerpt(str(hello['type']))} message")
            protocols = hello_protocols(hello)
            name = hello.get("name")
            if not isinstance(name, str) or not name:
                raise BotFailure("illegal", "said hello without a name")
            dice = hello.get("dice", "own")
            if dice not in ("own", "game"):
                raise BotFailure("illegal", f"asked for dice {wire.excerpt(str(dice))} (own or game)")
            every = hello.get(wire.EVERY_DECISION, False)
            if type(every) is not bool:
                raise BotFailure("illegal", f"said {wire.EVERY_DECISION} {wire.excerpt(str(every))} (true or false)")
            games = hello.get(wire.GAMES, 1)
            if type(games) is not int or games < 1:
                raise BotFailure(
                    "illegal", f"said {wire.GAMES} {wire.excerpt(str(games))} (a number of games, 1 or more)"
                )
            events, legal = hello.get(wire.EVENTS, True), hello.get(wire.LEGAL, True)
            if type(events) is not bool or type(legal) is not bool:
                raise BotFailure("illegal", f"said {wire.EVENTS} or {wire.LEGAL} other than true or false")
            encoding = hello.get(wire.ENCODING, "json")
            if encoding not in wire.ENCODINGS:
                raise BotFailure("illegal", f"asked for the encoding {wire.excerpt(str(encoding))} (json or compact)")
        except (BotFailure, wire.WireError) as exc:
            self.fail()
            raise PlayerSpecError(f"{self.spec!r}: {self.describe(exc)}") from None
        except BaseException:
            self.fail()
            raise
        self.name = name if name.isprintable() and len(name) <= 64 else wire.excerpt(name, 40)
        self.dice = "game" if dice == "game" else None
        self.every_decision = every
        self.compact = encoding == wire.COMPACT
        self.protocols = protocols
        self.capacity = min(games, wire.MAX_GAMES)
        self.events = events
        self.legal = legal

    # -- talking -----------------------------------------------------------
    def send(self, data: bytes) -> None:
        """Queue ``data`` for the bot (written during the next :meth:`exchange` or :meth:`flush`)."""
        self.out += data
        if not self.writing:
            self.poller.register(self.stdin, _WRITE)
            self.writing = True

    def exchange(self, deadline: float, late: str, before: str) -> bytes:
        """Write what is queued and read the bot's next line, by ``deadline`` (``time.monotonic``).

        :class:`BotFailure` if it exits or closes its pipes (the message
        ends with ``before``: "before its move"), writes a line longer than
        :data:`~mille.players.wire.MAX_LINE`, or nothing in time (the
        message is ``late``).
        """
        buf = self.buf
        if self.out:
            self.write()  # a pipe has room for a message, nearly always: no poll needed for it
        while True:
            end = buf.find(b"\n")
            if end >= 0:
                line = bytes(buf[:end])
                del buf[: end + 1]
                return line
            if len(buf) > wire.MAX_LINE:
                raise BotFailure("illegal", f"wrote a line longer than {wire.MAX_LINE} bytes")
            self.pump(deadline, late, before)

    def check_quiet(self) -> None:
        """:class:`BotFailure` if the bot has written since its last answer (a move nobody asked for)."""
        if not self.buf:
            data = self.read(self.stdout)  # one read, not a poll: the events queued stay queued
            if data is None:
                return
            if not data:
                raise BotFailure("exception", f"{self.ended(self.settle())} after its move")
            self.buf += data
        if self.buf:
            raise BotFailure("illegal", f"wrote more after its move: {wire.excerpt(bytes(self.buf))}")

    def flush(self, deadline: float) -> None:
        """Write what is queued, by ``deadline`` (what the bot says meanwhile is read, and kept)."""
        while self.out:
            self.pump(deadline, "did not read its messages", "before reading its messages")

    def pump(self, deadline: float, late: str, before: str) -> None:
        """Wait for the pipes, at most until ``deadline``: write, read, log what is ready."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise BotFailure("timeout", late)
        ready = self.poller.poll(min(left, _LOOK) * 1000.0)
        if not ready:
            status = _exit_status(self.proc.pid)
            if status is not None:  # gone, leaving a child that holds its pipes
                raise BotFailure("exception", f"{self.ended(status)} {before}")
            return
        for fd, _ in ready:
            if fd == self.stdout:
                data = self.read(fd)
                if data is None:
                    continue
                if not data:
                    raise BotFailure("exception", f"{self.ended(self.settle())} {before}")
                self.buf += data
            elif fd == self.stdin:
                self.write()
            else:
                self.log(self.read(fd))

    def write(self) -> None:
        try:
            n = os.write(self.stdin, self.out)
        except BlockingIOError:
            return
        except OSError:  # EPIPE: it closed its standard input, or exited
            raise BotFailure("exception", f"{self.ended(self.settle())} (its standard input is closed)") from None
        del self.out[:n]
        if not self.out:
            self.poller.unregister(self.stdin)
            self.writing = False

    @staticmethod
    def read(fd: int) -> bytes | None:
        """What the pipe holds (b"": closed; None: nothing yet)."""
        try:
            return os.read(fd, 65536)
        except BlockingIOError:
            return None
        except OSError:
            return b""

    def log(self, data: bytes | None) -> None:
        """Append ``data`` from the bot's standard error to its log, which keeps the last :data:`MAX_LOG` bytes.

        Past :data:`MAX_LOG` the log is cut from the front to its last half,
        under a line saying how much went: what a failure's cause is in is
        the end of the log, and a bot that floods its standard error cannot
        fill the disk.
        """
        if data is None:
            return
        if not data:  # its standard error is closed
            assert self.stderr is not None
            self.poller.unregister(self.stderr)
            self.stderr = None
            return
        self.tail = (self.tail + data)[-4096:]
        before = self.logged
        try:
            if self.logged + len(data) <= MAX_LOG:
                os.write(self.log_fd, data)
                self.logged += len(data)
            else:
                keep = MAX_LOG // 2
                old = max(0, keep - len(data))
                kept = (os.pread(self.log_fd, old, self.logged - old) if old else b"") + data[-keep:]
                self.dropped += self.logged - self.marked + len(data) - len(kept)
                text = b"[mille: the first %d bytes of this bot's standard error were dropped]\n" % self.dropped
                self.marked = len(text)
                os.ftruncate(self.log_fd, 0)
                os.lseek(self.log_fd, 0, os.SEEK_SET)
                os.write(self.log_fd, text + kept)
                self.logged = len(text) + len(kept)
        except OSError:  # a full disk: the log is what it is
            pass
        _logs.grew(self.logged - before)

    # -- the end -----------------------------------------------------------
    def settle(self, wait: float = 0.5) -> int | None:
        """The bot's exit status, waiting up to ``wait`` seconds for it to exit (None: still running).

        The bot is not reaped here: until :meth:`kill` reaps it, its
        process ID names its process group and no other.
        """
        deadline = time.monotonic() + wait
        pause = 0.001
        while True:
            status = _exit_status(self.proc.pid)
            if status is not None or time.monotonic() >= deadline:
                return status
            time.sleep(pause)
            pause = min(pause * 2, 0.02)

    @staticmethod
    def ended(status: int | None) -> str:
        if status is None:
            return "closed its standard output"
        if status < 0:
            try:
                name = signal.Signals(-status).name
            except ValueError:
                name = f"signal {-status}"
            return f"was killed by {name}"
        return f"exited with status {status}"

    def describe(self, exc: Exception) -> str:
        """``exc``'s message with where to look: the log, and the last line the bot wrote there."""
        message = exc.message if isinstance(exc, BotFailure) else str(exc)
        if self.stderr is not None:  # what it wrote before its end may not have been read yet
            self.log(self.read(self.stderr))
        last = self.last_words()
        said = f"; its last words: {wire.excerpt(last, 100)}" if last else ""
        return f"{message} (its standard error is in {self.log_path}{said})"

    def last_words(self) -> str:
        lines = [line for line in self.tail.decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1].strip() if lines else ""

    def fail(self) -> None:
        """Kill the bot and all its process group at once, reap it, keep its log."""
        _logs.failed = True
        self.failed = True
        self.kill()

    def kill(self, term_first: bool = False) -> None:
        """Kill the process group (SIGTERM and a grace first if ``term_first``), reap the bot, close everything.

        Signals are held meanwhile, so that an alarm or Ctrl-C cannot
        leave a process unreaped; they are delivered after.
        """
        if not self.alive:
            return
        self.alive = False
        held = _hold_signals()
        try:
            pid = self.proc.pid
            if term_first:
                _signal_group(pid, signal.SIGTERM)
                self.settle(TERM_GRACE)
            # Its ID still names its group (it is not reaped yet): the
            # children it left in the group go too.
            _signal_group(pid, signal.SIGKILL)
            self.proc.wait()
            self.drain_log()
            self.close_pipes()
            os.close(self.log_fd)
            _logs.closed(self.log_path, self.logged, self.failed)
        finally:
            release_signals(held)
        _forget(self)

    def close_pipes(self) -> None:
        """Close this side of the bot's three pipes (one already broken is closed as far as it goes)."""
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def drain_log(self) -> None:
        """Keep what the bot wrote to its standard error before it died (briefly: a stray child may hold it)."""
        deadline = time.monotonic() + 0.2
        while self.stderr is not None and time.monotonic() < deadline:
            ready = select.select([self.stderr], [], [], max(0.0, deadline - time.monotonic()))[0]
            if not ready:
                break
            self.log(self.read(self.stderr))

    def say_quit(self) -> None:
        """Queue the end: its game ended as abandoned if open, then ``quit`` (:meth:`leave` waits for it)."""
        if self.alive:
            if self.game_open:
                self.send(ABANDONED)
                self.game_open = False
            for tag in sorted(self.open_tags):  # games in flight not finished
                self.send(wire.tagged(ABANDONED, tag))
            self.open_tags.clear()
            self.send(_QUIT)

    def leave(self, deadline: float) -> None:
        """After :meth:`say_quit`: give the bot until ``deadline`` to read it and leave, then kill its group."""
        if not self.alive:
            return
        try:
            self.flush(deadline)
            while _exit_status(self.proc.pid) is None and time.monotonic() < deadline:
                self.buf.clear()  # whatever it says now is of no use
                self.pump(deadline, "did not leave", "")
        except BotFailure:
            pass
        except BaseException:
            self.kill()
            raise
        self.kill(term_first=True)


def hello_protocols(hello: dict[str, object]) -> tuple[int, ...]:
    """The protocols a ``hello`` says the bot speaks; :class:`BotFailure` for a hello that says none this host does.

    ``"protocol"`` is 1 or 2 (a bot of protocol 1 as first published says
    1 alone); ``"protocols"``, optional, lists every one it speaks, the
    ``protocol`` among them.  So a bot of both says ``"protocol": 1,
    "protocols": [1, 2]``, which a host of protocol 1 alone accepts too.
    """
    known = " or ".join(str(p) for p in wire.PROTOCOLS)
    said = hello.get("protocol")
    if type(said) is not int or said not in wire.PROTOCOLS:
        raise BotFailure("illegal", f"speaks protocol {wire.excerpt(str(said))}, not {known}")
    listed = hello.get("protocols", [said])
    if (
        type(listed) is not list
        or not listed
        or any(type(p) is not int or p not in wire.PROTOCOLS for p in listed)
        or said not in listed
    ):
        raise BotFailure(
            "illegal", f"said protocols {wire.excerpt(json.dumps(listed))} (a list of {known}, its protocol among them)"
        )
    return tuple(sorted(set(listed)))


_QUIT = wire.encode({"type": "quit"})
ABANDONED = wire.encode({"type": "game_over", "finished": False, "totals": None, "winner": None})


def _exit_status(pid: int) -> int | None:
    """How ``pid`` ended (as ``Popen.returncode``: negative for a signal), None if it runs; never reaps it."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:  # reaped already
        return 0
    if info is None:
        return None
    return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _hold_signals() -> set[int] | None:
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        return None
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT, signal.SIGTERM}))


def release_signals(held: set[int] | None) -> None:
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


# --------------------------------------------------------------------------
# The pool


_lock = threading.Lock()
#: Bots idle between players, by spec: running, greeted, each with the deals it has seen.
_idle: dict[str, list[Bot]] = {}
#: Every bot alive, to quit at exit.
_running: list[Bot] = []
#: Bots playing games in flight (tagged), by spec: running, greeted, each with the deals it has seen.
_shared: dict[str, list[Bot]] = {}
#: Bots told to quit, not yet reaped: (bot, when to kill it).
_leaving: list[tuple[Bot, float]] = []


def acquire(spec: str, deal: int | None = None) -> Bot:
    """A bot of ``spec`` for a player: an idle one that has never seen ``deal``, else a new one (started, greeted).

    Two games that share a deal (the two of a duplicate pair) must not be
    played by one process, which could remember the first (issue 36): a
    process is handed out again only for a deal it has not seen
    (``deal``: a key of the deal, :func:`mille.lab.play.play_game`
    passes the seed of the pair's first hand; None, the board's games,
    which share no deal, takes any idle one).  Starting a process costs
    ~45 ms of CPU, far more than a hand, so a match keeps them: a worker
    of a match needs two per command and seat, one for each game of a
    pair.  Bots of one user can still pass notes between their processes
    through files; only a sandbox with a private ``/tmp`` stops that
    (``docs/protocol.md``, "What a process plays").
    """
    _watch_exit()
    _reap_leaving()
    with _lock:
        idle = _idle.get(spec, [])
        for bot in idle:
            if bot.alive and (deal is None or deal not in bot.deals):
                idle.remove(bot)
                break
        else:
            bot = None
    if bot is None:
        bot = _start(spec, split_command(spec))
        bot.handshake()
    if deal is not None:
        bot.deals.add(deal)
    return bot


def games_at_once(spec: str) -> int:
    """How many games a bot of ``spec`` plays at once (its hello's ``games``; 1 if it cannot be started).

    A bot is started for it if none is idle, and left idle for the players
    that follow (:func:`acquire`, :func:`acquire_tag`).  Games in flight
    are protocol 1's (docs/protocol-speed.md): a bot that does not speak it
    plays one game at a time whatever it offers, in its own protocol.
    """
    try:
        bot = acquire(spec)
    except Exception:  # the match's own players say why, game by game
        return 1
    release(bot)
    return bot.capacity if 1 in bot.protocols else 1


def acquire_tag(spec: str, deal: int | None) -> tuple[Bot, int]:
    """A bot of ``spec`` playing games in flight, and a free tag on it, for one game of a match.

    As :func:`acquire`, never a process that has seen ``deal`` (issue 36):
    a process plays at most its hello's ``games`` at once, each its own
    player and dice on the bot's side, every message tagged; a new one is
    started when every process has seen the deal or is full.
    """
    _watch_exit()
    _reap_leaving()
    chosen = None
    with _lock:
        candidates = _shared.setdefault(spec, []) + [b for b in _idle.get(spec, []) if b.capacity > 1]
        for bot in candidates:
            if (
                bot.alive
                and not bot.failed
                and len(bot.busy) < bot.capacity
                and (deal is None or deal not in bot.deals)
            ):
                chosen = bot
                break
        if chosen is not None and chosen not in _shared[spec]:
            _idle[spec].remove(chosen)
            _shared[spec].append(chosen)
    if chosen is None:
        chosen = _start(spec, split_command(spec))
        chosen.handshake()
        with _lock:
            _shared.setdefault(spec, []).append(chosen)
    tag = 0
    while tag in chosen.busy:
        tag += 1
    chosen.busy.add(tag)
    if deal is not None:
        chosen.deals.add(deal)
    return chosen, tag


def release_tag(bot: Bot, tag: int) -> None:
    """A game in flight is done with ``tag`` on ``bot`` (a game left open is ended as abandoned by the next)."""
    bot.busy.discard(tag)
    bot.waiting.pop(tag, None)


def _start(spec: str, argv: list[str]) -> Bot:
    bot = Bot(spec, argv)
    with _lock:
        _running.append(bot)
    return bot


def release(bot: Bot) -> None:
    """The player is done with ``bot``: alive, it waits idle for the next player (a failed one was killed)."""
    if not bot.alive or bot.failed:
        return
    with _lock:
        _idle.setdefault(bot.spec, []).append(bot)


def finish_leaving() -> None:
    """Wait for the bots told to quit (each until its grace is over, then killed), and reap them.

    For the end of a run in this process: no bot is left behind, not even
    as a zombie, however the run goes on (:func:`acquire` and
    :func:`release` reap without waiting).
    """
    pause = 0.001
    while True:
        _reap_leaving()
        with _lock:
            if not _leaving:
                return
        time.sleep(pause)
        pause = min(pause * 2, 0.02)


def _reap_leaving() -> None:
    """Reap the bots told to quit that have left; kill those past their grace."""
    with _lock:
        leaving = list(_leaving)
    now = time.monotonic()
    for bot, deadline in leaving:
        if not bot.alive or _exit_status(bot.proc.pid) is not None or now >= deadline:
            with _lock:
                if (bot, deadline) in _leaving:
                    _leaving.remove((bot, deadline))
            bot.kill(term_first=bot.alive and now >= deadline)
            _drop_empty_log(bot)


def _drop_empty_log(bot: Bot) -> None:
    """A bot that left without a word on its standard error leaves no log (a match starts one a game)."""
    if bot.logged == 0:
        try:
            os.unlink(bot.log_path)
        except OSError:
            pass


def _forget(bot: Bot) -> None:
    with _lock:
        if bot in _running:
            _running.remove(bot)
        idle = _idle.get(bot.spec)
        if idle is not None and bot in idle:
            idle.remove(bot)
        shared = _shared.get(bot.spec)
        if shared is not None and bot in shared:
            shared.remove(bot)


def shutdown() -> None:
    """Quit every bot of this process (:data:`QUIT_GRACE` seconds for all), then remove a clean log directory."""
    with _lock:
        _idle.clear()
        _shared.clear()
        _leaving.clear()
        bots = list(_running)
    bots = [bot for bot in bots if bot.alive]
    for bot in bots:
        try:
            bot.say_quit()
        except Exception:
            pass
    deadline = time.monotonic() + QUIT_GRACE
    for bot in bots:
        try:
            bot.leave(deadline)
        except Exception:
            bot.kill()
    _logs.clean()


def kill_all() -> None:
    """Kill every bot of this process with its group at once, without a word, and tidy a clean log directory.

    For a process told to stop now (a pool worker sent SIGTERM, from a
    signal handler): no lock is taken (the handler may have interrupted its
    holder), no process is waited for (the bots are reaped by whoever
    inherits them when this process exits).
    """
    for bot in list(_running):
        if bot.alive:
            _signal_group(bot.proc.pid, signal.SIGKILL)
    _logs.clean()


_watching = False


def _watch_exit() -> None:
    """Quit the bots when this process ends: at exit, and at a pool worker's exit (which skips atexit)."""
    global _watching
    if _watching:
        return
    _watching = True
    atexit.register(shutdown)
    if "multiprocessing" in sys.modules:
        from multiprocessing import util

        util.Finalize(None, shutdown, exitpriority=20)


def _after_fork() -> None:
    """In a forked child: the parent's bots are the parent's; close their pipes here and forget them."""
    global _watching
    for bot in _running:
        bot.close_pipes()
        try:
            os.close(bot.log_fd)
        except OSError:
            pass
        bot.alive = False
    _running.clear()
    _idle.clear()
    _shared.clear()
    _leaving.clear()
    _logs.temporary = None
    _logs.failed = False
    _logs.total = 0
    _logs.ended = []
    _watching = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


__all__ = [
    "ABANDONED",
    "HANDSHAKE_DEADLINE",
    "LOGS_VARIABLE",
    "MAX_LOG",
    "MAX_LOGS",
    "QUIT_GRACE",
    "TERM_GRACE",
    "Bot",
    "BotFailure",
    "acquire",
    "hello_protocols",
    "acquire_tag",
    "finish_leaving",
    "games_at_once",
    "kill_all",
    "release",
    "release_tag",
    "set_log_directory",
    "shutdown",
    "split_command",
]
