"""The conversation between the host's process and each guest's: bounded JSON lines, at every table.

Either side may be hostile or broken (garbage, a flood, a line that never
ends, a peer that stops reading), and neither may crash, hang or exhaust
the other, so:

* a line is at most :data:`MAX_LINE` bytes; a longer one ends the link
  (:class:`LinkClosed`, said in one line), never a buffer that grows;
* what is read is a JSON object (:func:`mille.players.wire.read_message`),
  or the link ends;
* writes never block: what the peer has not taken waits in a buffer of at
  most :data:`MAX_PENDING` bytes, and a peer that lets it fill, or takes
  nothing for :data:`WRITE_DEADLINE` seconds, is dropped;
* every string a peer sends is shown only through
  :func:`mille.files.safeio.shown` (by the faces that show it);
* a silent network is noticed: each side says a word (the link's
  ``beat``) after :func:`beat_after` seconds of its own silence, and a peer
  heard from for none of :func:`silence` seconds is dropped
  (:meth:`Link.silent`; a :class:`Ticker` wakes the side that waits).
"""

from __future__ import annotations

import errno
import os
import select
import socket
import threading
import time

from ...players import wire

#: The longest line either side accepts (an observation is under 2 kB).
MAX_LINE = 16384
#: The most bytes waiting for a peer that does not read.
MAX_PENDING = 1 << 18
#: Seconds a peer may leave written bytes untaken before it is dropped.
WRITE_DEADLINE = 10.0
#: Seconds a peer may say nothing before it is dropped (a frozen network, a peer that hangs): the default of
#: :func:`silence`, which ``MILLE_LINK_SILENCE`` overrides (the tests' frozen proxy waits seconds, not this).
SILENCE = 30.0


def silence() -> float:
    """Seconds a peer may say nothing before it is dropped: :data:`SILENCE`, or ``MILLE_LINK_SILENCE``."""
    try:
        seconds = float(os.environ.get("MILLE_LINK_SILENCE", SILENCE))
    except ValueError:
        return SILENCE
    return seconds if seconds > 0 else SILENCE


def beat_after() -> float:
    """Seconds of a side's own silence after which it says a word: a third of :func:`silence` (two beats missed
    before a peer counts as gone)."""
    return silence() / 3


class LinkClosed(Exception):
    """The other side is gone, or broke the conversation (the message says which, in one line)."""


class Link:
    """One end of the conversation over a connected socket (non-blocking)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        sock.setblocking(False)
        self._in = bytearray()
        self._out = bytearray()
        self._stalled_since: float | None = None
        self.closed = False
        #: When the peer was last heard from, and when this side last sent (monotonic seconds).
        self.heard_at = self.sent_at = time.monotonic()
        #: A message read by :meth:`peek_message`, given again by the next read.
        self._ahead: list[dict[str, object]] = []

    def fileno(self) -> int:
        return self.sock.fileno()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.sock.close()
            except OSError:
                pass

    # ------------------------------------------------------------------
    # Writing

    def send(self, message: dict[str, object]) -> None:
        """Queue ``message`` and write what the peer takes now; :class:`LinkClosed` if it is gone or stalled."""
        self.send_line(wire.encode(message))

    def send_line(self, data: bytes) -> None:
        """:meth:`send` of a message already encoded (one encoding for many links: the watchers, :mod:`.room`)."""
        if self.closed:
            raise LinkClosed("the connection is closed")
        if len(self._out) + len(data) > MAX_PENDING:
            self.close()
            raise LinkClosed("the other side stopped reading")
        self._out += data
        self.sent_at = time.monotonic()
        self.flush()

    def flush(self) -> None:
        """Write what the peer takes without blocking; drop a peer that took nothing for too long."""
        while self._out:
            try:
                sent = self.sock.send(self._out)
            except BlockingIOError:
                now = time.monotonic()
                if self._stalled_since is None:
                    self._stalled_since = now
                elif now - self._stalled_since > WRITE_DEADLINE:
                    self.close()
                    raise LinkClosed("the other side stopped reading") from None
                return
            except OSError as exc:
                self.close()
                raise LinkClosed(f"the connection broke ({exc.strerror})") from None
            del self._out[:sent]
            self._stalled_since = None

    # ------------------------------------------------------------------
    # Reading

    def poll_message(self) -> dict[str, object] | None:
        """A whole message if one has arrived (reading what is there, never waiting); None if none yet."""
        if self._ahead:
            return self._ahead.pop(0)
        message = self._take()
        if message is not None:
            return message
        while True:
            try:
                data = self.sock.recv(65536)
            except BlockingIOError:
                return None
            except OSError as exc:
                self.close()
                raise LinkClosed(f"the connection broke ({exc.strerror})") from None
            if not data:
                self.close()
                raise LinkClosed("the connection closed")
            self._in += data
            self.heard_at = time.monotonic()
            message = self._take()
            if message is not None:
                return message
            if len(self._in) > MAX_LINE:
                self.close()
                raise LinkClosed("the other side sent a line too long")

    def _take(self) -> dict[str, object] | None:
        end = self._in.find(b"\n")
        if end < 0:
            if len(self._in) > MAX_LINE:
                self.close()
                raise LinkClosed("the other side sent a line too long")
            return None
        if end > MAX_LINE:
            self.close()
            raise LinkClosed("the other side sent a line too long")
        line = bytes(self._in[: end + 1])
        del self._in[: end + 1]
        try:
            return wire.read_message(line)
        except wire.WireError as exc:
            self.close()
            raise LinkClosed(f"the other side sent garbage ({exc})") from None

    def wait_message(self, timeout: float | None = None) -> dict[str, object] | None:
        """The next message, waiting at most ``timeout`` seconds (None: for ever); None on time out."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            message = self.poll_message()
            if message is not None:
                return message
            self.flush()
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if left == 0.0:
                return None
            try:
                pause = 0.5 if left is None else min(left, 0.5)
                select.select([self.sock], [self.sock] if self._out else [], [], pause)
            except OSError as exc:
                if exc.errno != errno.EINTR:
                    raise

    def peek_message(self, timeout: float | None = None) -> dict[str, object] | None:
        """The next message, as :meth:`wait_message`, left to be read again (a guest's way back waits for the host's
        hello on a new link, which the run then reads first)."""
        message = self.wait_message(timeout)
        if message is not None:
            self._ahead.insert(0, message)
        return message

    def silent(self) -> bool:
        """The peer has said nothing for :func:`silence` seconds (a frozen network, a peer that hangs)."""
        return time.monotonic() - self.heard_at > silence()

    def quiet(self) -> bool:
        """This side has said nothing for :func:`beat_after` seconds: time for a word."""
        return time.monotonic() - self.sent_at >= beat_after()

    def silence_reason(self) -> str:
        return f"nothing heard for {silence():g} s"


class Ticker:
    """A byte on :attr:`fd` every ``period`` seconds, from a thread of its own: what wakes a side that waits on a
    terminal and its links to look at their silence (:meth:`Link.silent`, :meth:`Link.quiet`)."""

    def __init__(self, period: float) -> None:
        self.fd, self._wake = os.pipe()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(period,), name="mille-ticker", daemon=True)
        self._thread.start()

    def _run(self, period: float) -> None:
        while not self._stop.wait(period):
            try:
                os.write(self._wake, b".")
            except OSError:
                return

    def take(self) -> None:
        """The ticks come so far, read (a tick heard once)."""
        try:
            os.read(self.fd, 4096)
        except OSError:
            pass

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(1)
        for fd in (self.fd, self._wake):
            try:
                os.close(fd)
            except OSError:
                pass


def heard_idle(link: Link | None, deciding: bool) -> Link | None:
    """The link the host's terminal may hear while it waits for a key or a line: None while the person decides.

    While a person decides, their link is the thinking thread's alone: the
    host's own prompt (``Really?`` after ^C, or any question) read their
    move away once, and the game hung waiting for it.  Between their moves
    nothing is asked of them, and only their leaving matters
    (:func:`drain_idle`).
    """
    if link is None or link.closed or deciding:
        return None
    return link


def drain_idle(link: Link) -> None:
    """What a person asked nothing sent, read and dropped (a flood: a round at a time); :class:`LinkClosed` if gone."""
    for _ in range(64):
        if link.poll_message() is None:
            return


def pair() -> tuple[Link, Link]:
    """Two linked ends (for tests and a host talking to itself)."""
    a, b = socket.socketpair()
    return Link(a), Link(b)


__all__ = [
    "MAX_LINE",
    "MAX_PENDING",
    "SILENCE",
    "WRITE_DEADLINE",
    "Link",
    "LinkClosed",
    "Ticker",
    "beat_after",
    "drain_idle",
    "heard_idle",
    "pair",
    "silence",
]
