"""Plain mode's terminal: lines in, lines out, and the signals as events.

No curses, no terminal settings: standard input is read as it comes (a
terminal in its ordinary line mode, where the screen reader's and the
terminal's own line editing work, a pipe, a file, ``/dev/null``), and
standard output gets whole lines, each written at once.  The bytes are
the program's alone: every line goes through
:func:`mille.files.safeio.shown`, so whatever a file name or a typed line
holds, no escape sequence or other control character is ever written
(accessible-play.md §2, §4.7-8).

Input is read in binary, a chunk at a time, into a buffer that never holds
more than :data:`MAX_LINE` bytes of one line: a longer line is read to its
end and dropped (:data:`TOO_LONG`), so a line of megabytes costs no memory.

Signals become events at a safe point, as on the board
(:mod:`mille.ui.cursesterm`), by the table both faces share
(:data:`~mille.ui.surface.SIGNAL_EVENTS`): SIGINT is
:data:`~mille.ui.surface.INTERRUPT` (``Really?``, §9.5), SIGHUP, SIGTERM
and SIGQUIT (``^\\``) are :data:`~mille.ui.surface.HANGUP` (keep the game
and leave), and they are there between moves too
(:meth:`LineTerminal.poll`).  A standard output that has gone away (a
closed pipe, a hung-up terminal) is a hangup as well.
"""

from __future__ import annotations

import os
import signal
from types import FrameType

from ...files.safeio import shown
from ..rows import fitted, terminal_width
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, SIGNAL_EVENTS, Watches

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["MAX_LINE", "TOO_LONG", "LineTerminal"]

#: The longest line read, in bytes; a longer one is dropped whole.
MAX_LINE = 4096
#: Returned by :meth:`LineTerminal.read_line` for a line longer than :data:`MAX_LINE`.
TOO_LONG = -10
#: Bytes asked of one read.
_CHUNK = 4096


class _Wakeup(Exception):
    """Raised by a signal handler to break out of a blocking read."""


class LineTerminal:
    """Reads lines from ``fd_in`` and writes lines to ``fd_out``; signals arrive as events.

    :meth:`start` installs the signal handlers and :meth:`stop` puts the
    old ones back; without :meth:`start` (the tests' pipes) it reads and
    writes all the same.
    """

    def __init__(self, fd_in: int = 0, fd_out: int = 1) -> None:
        self.fd_in = fd_in
        self.fd_out = fd_out
        self._buffer = bytearray()
        self._dropping = False
        self._eof = False
        self._in_read = False
        self._pending: list[int] = []
        self._old_handlers: dict[int, object] = {}
        #: Standard output is gone: the next look at the events is a hangup.
        self.gone = False
        #: The terminal echoes typed keys (None: not asked yet); it has echoed ``^C``.
        self._echo: bool | None = None
        self._echoed = False
        #: Other descriptors heard while a line is awaited and in :meth:`wait` (:meth:`watch`).
        self.watches = Watches()
        #: Standard input is a terminal (asked now: a terminal hung up later says it is none).
        self._tty = os.isatty(fd_in)

    def start(self) -> None:
        self._echoes()  # asked now, not inside the first SIGINT's handler
        for name in SIGNAL_EVENTS:
            sig = getattr(signal, name, None)  # Windows has only some of them
            if sig is not None:
                self._old_handlers[sig] = signal.signal(sig, self._on_signal)

    def stop(self) -> None:
        for sig, handler in self._old_handlers.items():
            try:
                signal.signal(sig, handler)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                pass
        self._old_handlers.clear()

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        event = SIGNAL_EVENTS[signal.Signals(signum).name]
        if event == INTERRUPT and self._echoes():
            self._echoed = True
        self._pending.append(event)
        if self._in_read:
            raise _Wakeup

    def _echoes(self) -> bool:
        """Does the terminal echo the keys (and so ``^C``, where the cursor was)?  Asked once."""
        if self._echo is None:
            self._echo = False
            try:
                import termios
            except ImportError:  # no termios (Windows): its console does not echo ^C this way
                return False
            try:
                self._echo = os.isatty(self.fd_in) and bool(termios.tcgetattr(self.fd_in)[3] & termios.ECHO)
            except (OSError, termios.error):
                pass
        return self._echo

    # ------------------------------------------------------------------
    # Events

    def poll(self) -> int | None:
        """A pending INTERRUPT or HANGUP, without waiting; None if there is none."""
        if self._pending:
            return self._pending.pop(0)
        if self.gone:
            return HANGUP
        return None

    # ------------------------------------------------------------------
    # Input

    def has_line(self) -> bool:
        """:meth:`read_line` would answer at once (a whole line, the end of input or an event is there)."""
        return bool(self._pending) or self.gone or self._eof or b"\n" in self._buffer

    def watch(self, fd: int, callback: Callable[[], None]) -> None:
        """Hear ``fd`` too while a line is awaited and in :meth:`wait` (:meth:`mille.ui.surface.Terminal.watch`).

        A person's link, a listening socket, a pipe a thread asks on:
        ``callback()`` runs on this thread when ``fd`` can be read, between
        reads (it may raise :class:`~mille.ui.surface.Heard` to end the wait).
        """
        self.watches.watch(fd, callback)

    def unwatch(self, fd: int) -> None:
        self.watches.unwatch(fd)

    def _heard(self) -> list[int]:
        """Until input is there (or a signal): the watched descriptors that can be read ([]: read now)."""
        import select

        try:
            self._in_read = True
            try:
                if self._pending:
                    return []
                ready = select.select([self.fd_in, *self.watches.fds()], [], [])[0]
            finally:
                self._in_read = False
        except _Wakeup:
            return []
        except (OSError, ValueError):
            return []  # standard input itself is gone: its read says so
        return [fd for fd in ready if fd != self.fd_in]

    def wait(self, ready: int) -> int | None:
        """While another thread thinks: None once ``ready`` can be read, or an event (INTERRUPT, HANGUP).

        Lines typed meanwhile are not read (they wait for the next prompt);
        the watched descriptors are heard (:meth:`watch`).  A terminal hung
        up meanwhile is heard at once, signal or no signal (a terminal
        closed under ``su`` or ``runuser``, which keep the hangup from their
        child); a pipe's end is heard at the next line read, as ever, the
        lines before it still to be read.
        """
        import select

        while True:
            event = self.poll()
            if event is not None:
                return event
            poller = select.poll()
            poller.register(ready, select.POLLIN)
            if self._tty:
                poller.register(self.fd_in, 0)  # its hangup alone: lines typed wait for the prompt
            for fd in self.watches.fds():
                poller.register(fd, select.POLLIN)
            try:
                self._in_read = True
                try:
                    found = [] if self._pending else poller.poll()
                finally:
                    self._in_read = False
            except _Wakeup:
                continue
            if any(fd == ready for fd, _ in found):
                return None
            if any(fd == self.fd_in for fd, _ in found):
                self.gone = True
                return HANGUP
            self.watches.heard(fd for fd, _ in found)

    def read_line(self) -> str | int:
        """The next line (without its end), or an event: INTERRUPT, HANGUP, END_OF_INPUT, TOO_LONG.

        Bytes are decoded as UTF-8, anything else kept as it came
        (``surrogateescape``: a file name may be any bytes); a RETURN before
        the newline is dropped, as a terminal's or a Windows file's.
        """
        while True:
            event = self.poll()
            if event is not None:
                return event
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                if self._dropping:
                    self._dropping = False
                    return TOO_LONG
                return line.rstrip(b"\r").decode("utf-8", "surrogateescape")
            if len(self._buffer) > MAX_LINE:
                self._dropping = True
                self._buffer.clear()
            if self._eof:
                if self._buffer and not self._dropping:
                    line = bytes(self._buffer)  # a last line without its newline
                    self._buffer.clear()
                    return line.rstrip(b"\r").decode("utf-8", "surrogateescape")
                self._buffer.clear()
                return END_OF_INPUT
            if self.watches and not self._pending:
                heard = self._heard()
                if heard:
                    self.watches.heard(heard)
                    continue
            try:
                self._in_read = True
                try:
                    data = None if self._pending else os.read(self.fd_in, _CHUNK)
                finally:
                    self._in_read = False
            except _Wakeup:
                continue
            except OSError:
                data = b""  # a read error: the input is gone
            if data is None:
                continue
            if not data:
                self._eof = True
            else:
                self._buffer += data

    # ------------------------------------------------------------------
    # Output

    def _width(self) -> int:
        """The terminal's width, if standard output is one that says it (0: not a terminal, or unknown)."""
        return terminal_width(self.fd_out)

    def write_line(self, text: str) -> None:
        """``text`` as one line, escaped for the terminal (:func:`shown`), written at once.

        On a terminal a line longer than it is wide is broken into rows
        (:func:`mille.ui.rows.fitted`): a screen reader reads a terminal by its rows, and
        would otherwise hear a word cut in two where the terminal wrapped it.
        A pipe or a file gets every line whole.

        A failed write (the reader is gone) marks the terminal gone: the
        game is kept at the next look at the events, as on a hangup.
        """
        if self.gone:
            return
        line = fitted(shown(text), self._width())
        if self._echoed:
            # The terminal echoed ^C where the cursor was: what follows starts a line of its own.
            self._echoed = False
            line = "\n" + line
        data = (line + "\n").encode("utf-8", "backslashreplace")
        try:
            while data:
                written = os.write(self.fd_out, data)
                data = data[written:]
        except OSError:
            self.gone = True
