"""The real terminal: curses windows, keys read from standard input.

This is the only module that imports curses.  It sets the terminal up as the
original did (three windows, cbreak, no echo) and reads keys one byte at a
time with ``read(2)`` on standard input, as the original's ``readch`` did,
so escape sequences and bytes above 127 arrive as the separate keys the
original saw.

Signals become input events at a safe point instead of running code inside
a signal handler, by the table both faces share
(:data:`~mille.ui.surface.SIGNAL_EVENTS`): SIGINT while waiting for a key
yields :data:`~mille.ui.surface.INTERRUPT`, SIGHUP, SIGTERM and SIGQUIT
(``^\\``) yield :data:`~mille.ui.surface.HANGUP`; SIGWINCH, the board's alone, yields
:data:`~mille.ui.surface.RESIZED`.
The same events are there between moves without waiting for a key
(:meth:`CursesTerminal.poll`), and while the computer thinks
(:meth:`CursesTerminal.wait`, which also hears the terminal go away without
reading the keys typed ahead), so a game that is busy without reading keys
still hears them.  A read that fails or finds the end of input (the
terminal hung up) yields :data:`~mille.ui.surface.END_OF_INPUT`, which the
game takes for a hangup.  ncurses keeps its own ^Z handling, which restores
the terminal and repaints on resume.

A ``TERM`` this system has no terminfo entry for is replaced by the nearest
installed base entry when it names an xterm-compatible emulator (the usual
case over ssh from kitty, alacritty, foot, wezterm or ghostty), and refused
with one line otherwise (:class:`TerminalError`), as is a terminal that
cannot move its cursor (``TERM=dumb``); see :mod:`mille.ui.termname`.
"""

from __future__ import annotations

import curses
import os
import signal
import sys
from types import FrameType

from .layout import BOARD_WINDOW, MILES_WINDOW, SCORE_WINDOW, SCREEN_COLS, SCREEN_ROWS
from .surface import END_OF_INPUT, INTERRUPT, LEAVE, RESIZED, SIGNAL_EVENTS, Watches

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

#: The smallest terminal the game plays on; a smaller one gets a message.
#: The original assumed 80x24 (§7) but runs at 80x23 too (an 80x24 terminal
#: with tmux's status line): its last row, screen row 23, is never written
#: (§8.4), and curses clips the Miles window's unused bottom row.
MIN_ROWS = SCREEN_ROWS - 1
MIN_COLS = SCREEN_COLS
#: Keys at the too-small message: ^D leaves at once, q asks first (y leaves).
_CTRL_D = 0x04


class _Wakeup(Exception):
    """Raised by a signal handler to break out of a blocking read."""


class CursesWindow:
    """A curses window that never raises on writes past its edge (curses does)."""

    def __init__(self, win: curses.window, term: CursesTerminal) -> None:
        self.win = win
        self.term = term
        self.leave = False

    def move(self, y: int, x: int) -> None:
        try:
            self.win.move(y, x)
        except curses.error:
            pass

    def addstr(self, text: str) -> None:
        if not text.isascii():
            # Typed bytes above 159 and non-ASCII file names: the original
            # wrote the raw byte, which a UTF-8 terminal cannot show; a
            # one-column "?" keeps the layout.
            text = text.encode("ascii", "replace").decode("ascii")
        try:
            self.win.addstr(text)
        except curses.error:
            pass  # the bottom-right cell: curses writes it, then reports ERR

    def clrtoeol(self) -> None:
        self.win.clrtoeol()

    def clrtobot(self) -> None:
        self.win.clrtobot()

    def erase(self) -> None:
        self.win.erase()

    def refresh(self) -> None:
        if self.term.too_small:
            self.win.noutrefresh()  # keep it for the repaint once there is room
        else:
            self.win.refresh()

    def leaveok(self, flag: bool) -> None:
        self.leave = flag
        self.win.leaveok(flag)

    def standout(self) -> None:
        self.win.standout()

    def standend(self) -> None:
        self.win.standend()

    def attron(self, attr: int) -> None:
        """Attributes for what is written next (``--color`` only: :mod:`mille.ui.palette`)."""
        self.win.attron(attr)

    def attroff(self, attr: int) -> None:
        self.win.attroff(attr)

    def inch(self, y: int, x: int) -> str:
        return chr(self.win.inch(y, x) & 0xFF)

    def getyx(self) -> tuple[int, int]:
        y, x = self.win.getyx()
        return int(y), int(x)


class CursesTerminal:
    """Owns curses from :meth:`start` to :meth:`stop`; a context manager."""

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        self.too_small = False
        self._in_read = False
        self._pending: list[int] = []
        self._started = False
        self._old_handlers: dict[int, object] = {}
        self.erase_char = 0x7F
        self.kill_char = 0x15
        #: A line to print after the game (the TERM that was used instead), or None.
        self.note: str | None = None
        self._quit_asked = False
        self._message_shown = False
        #: The terminal went away (a failed read, the end of input, SIGHUP):
        #: a SIGHUP still on its way (a shell passes it on a moment later) is
        #: ignored once the terminal is put back, instead of killing the
        #: program while it says where the game went.
        self.gone = False
        #: Other descriptors heard while a key is awaited and in :meth:`wait` (:meth:`watch`).
        self.watches = Watches()

    def __enter__(self) -> CursesTerminal:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Set the terminal up; :class:`TerminalError` if ``TERM`` names nothing usable."""
        name = os.environ.get("TERM", "unknown")
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else 1
        known = usable = sys.platform == "win32"  # the Windows console has no terminfo
        if not usable:
            try:
                # What curses.initscr() does first (once per process: its
                # own call is then skipped), here so that a failure can be
                # handled.
                curses.setupterm(term=name, fd=fd)
                known = True
                usable = curses.tigetstr("cup") is not None
            except curses.error:
                pass
        if not usable:
            from . import termname  # only when TERM is a problem

            self.note = termname.fall_back(name, fd, known)  # or TerminalError
        rows, cols = self._real_size()
        if rows < MIN_ROWS or cols < MIN_COLS:
            # curses cannot place the windows on a small screen; pretend it
            # is 80x24 and show a message until the terminal is resized.
            os.environ["LINES"] = str(SCREEN_ROWS)
            os.environ["COLUMNS"] = str(SCREEN_COLS)
        # The original never calls setlocale, so its curses ran in the C
        # locale, where ncurses may use the terminal's repeat-character
        # capability (the bytes sent then match the original's).  Python
        # starts in the user's locale.
        # (_locale is what locale.setlocale calls with a string; importing
        # the locale module would take 3 ms of the start-up, with re.)
        import _locale

        try:
            _locale.setlocale(_locale.LC_CTYPE, "C")
        except _locale.Error:  # type: ignore[attr-defined]  # (it is locale.Error; the stubs omit it)
            pass
        curses.initscr()
        self._started = True
        board = curses.newwin(*BOARD_WINDOW)
        score = curses.newwin(*SCORE_WINDOW)
        miles = curses.newwin(*MILES_WINDOW)
        for win in (board, score, miles):
            win.idlok(True)
        score.leaveok(True)
        miles.leaveok(True)
        self.board = CursesWindow(board, self)
        self.score = CursesWindow(score, self)
        self.miles = CursesWindow(miles, self)
        curses.cbreak()
        curses.noecho()
        self.erase_char = curses.erasechar()[0]
        self.kill_char = curses.killchar()[0]
        for name in (*SIGNAL_EVENTS, "SIGWINCH"):
            sig = getattr(signal, name, None)  # Windows has only some of them
            if sig is not None:
                self._old_handlers[sig] = signal.signal(sig, self._on_signal)
        self.too_small = rows < MIN_ROWS or cols < MIN_COLS
        if self.too_small:
            # ncurses switches to its own screen (the alternate screen, where
            # the terminal has one) at its first update; the message must go
            # there, or it is left on the shell's screen after the game.
            curses.doupdate()
            self._show_too_small(rows, cols)

    def stop(self) -> None:
        """Put the terminal back as it was (also after errors and hangups)."""
        if not self._started:
            return
        self._started = False
        if self._message_shown:
            # The too-small message went straight to the terminal, past
            # curses: clear it, or it stays on the shell's screen.
            self._write(curses.tigetstr("clear") or b"\x1b[H\x1b[2J")
        for sig, handler in self._old_handlers.items():
            if self.gone and sig == getattr(signal, "SIGHUP", None):
                handler = signal.SIG_IGN
            try:
                signal.signal(sig, handler)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                pass
        try:
            curses.endwin()
        except curses.error:
            pass
        try:
            sys.stdout.flush()
        except OSError:
            pass

    # ------------------------------------------------------------------

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if signum == getattr(signal, "SIGWINCH", None):
            event = RESIZED
        else:
            event = SIGNAL_EVENTS[signal.Signals(signum).name]
            if signum == getattr(signal, "SIGHUP", None):
                self.gone = True
        self._pending.append(event)
        if self._in_read:
            raise _Wakeup

    def poll(self) -> int | None:
        """A pending event (INTERRUPT, HANGUP, LEAVE), without waiting; None if there is none.

        Called between moves, so that signals are acted on while the game
        moves without reading keys.  A resize is handled here (a repaint, or
        the too-small message), and an interrupt while the terminal is too
        small to show the game means leave (:data:`LEAVE`), as at a read.
        """
        while self._pending:
            event = self._pending.pop(0)
            if event == RESIZED:
                self._check_size()
                continue
            if event == INTERRUPT and self.too_small:
                return LEAVE
            return event
        return None

    def watch(self, fd: int, callback: Callable[[], None]) -> None:
        """Hear ``fd`` too while a key is awaited and in :meth:`wait` (:meth:`mille.ui.surface.Terminal.watch`)."""
        self.watches.watch(fd, callback)

    def unwatch(self, fd: int) -> None:
        self.watches.unwatch(fd)

    def _heard(self) -> list[int]:
        """Until a key (or a signal) is there: the watched descriptors that can be read ([]: read the key now).

        The select is made with the flag up, as the read is, so that a
        signal breaks it; the callbacks run after, never inside a wake-up.
        """
        import select

        try:
            self._in_read = True
            try:
                if self._pending:
                    return []
                ready = select.select([self.fd, *self.watches.fds()], [], [])[0]
            finally:
                self._in_read = False
        except _Wakeup:
            return []
        except (OSError, ValueError):
            return []  # the terminal itself is gone: its read says so
        return [] if self.fd in ready and len(ready) == 1 else [fd for fd in ready if fd != self.fd]

    def read_byte(self) -> int:
        while True:
            if self.watches and not self._pending and sys.platform != "win32":
                heard = self._heard()
                if heard:
                    self.watches.heard(heard)  # news first, then the key (if one is there too)
                    continue
            # The flag goes up before the pending events are looked at, so a
            # signal handled after the look raises _Wakeup instead of leaving
            # its event pending behind a blocking read.
            try:
                self._in_read = True
                try:
                    data = None if self._pending else self._read()
                finally:
                    self._in_read = False
            except _Wakeup:
                continue
            except OSError:
                self.gone = True
                return END_OF_INPUT
            if data is None:
                event = self._pending.pop(0)
                if event == RESIZED:
                    if self._check_size():
                        return RESIZED
                    continue
                if event == INTERRUPT and self.too_small:
                    return LEAVE
                return event
            if not data:
                self.gone = True
                return END_OF_INPUT
            if self.too_small:
                # Nothing can be seen, so keys would act blind; only the
                # ways out of the message work (q then y, ^D; ^C above).
                if self._small_key(data[0]):
                    return LEAVE
                continue
            return data[0]

    def wait(self, ready: int) -> int | None:
        """Wait until ``ready`` (a descriptor) can be read: None; or return what the terminal reports meanwhile.

        Called while the computer thinks (``ready`` is readable once it
        has chosen).  A pending event (INTERRUPT, HANGUP, LEAVE, as
        :meth:`poll` gives them) comes back at once; a terminal that goes
        away (hung up, standard input closed) gives END_OF_INPUT.  Keys
        typed meanwhile are not read: they wait for the next prompt, as
        they did in the original, which read no keys while its computer
        played.  The watched descriptors are heard meanwhile (:meth:`watch`).
        """
        import select

        if not hasattr(select, "poll"):  # Windows: no poll(2); the computer is waited for
            os.read(ready, 1)
            return None
        while True:
            event = self.poll()
            if event is not None:
                return event
            poller = select.poll()
            poller.register(ready, select.POLLIN)
            # No events asked of the terminal: poll() reports its hangup, an
            # error or a closed descriptor all the same, and keys typed ahead
            # do not wake the wait.
            poller.register(self.fd, 0)
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
            if any(fd == self.fd for fd, _ in found):
                self.gone = True
                return END_OF_INPUT
            self.watches.heard(fd for fd, _ in found)

    def _read(self) -> bytes:
        if sys.platform != "win32":
            while True:
                try:
                    return os.read(self.fd, 1)
                except BlockingIOError:
                    # Standard input left non-blocking by another program
                    # sharing the terminal: wait for a key instead of taking
                    # "nothing yet" for the end of input.
                    import select

                    select.select([self.fd], [], [])
        # The Windows console has no byte-at-a-time read(2); ask curses.
        key = self.board.win.getch()
        if key < 0:
            return b""
        return bytes([key]) if key < 256 else b""

    def redraw(self) -> None:
        """Repaint the whole screen from curses' copy (the original's ``wrefresh(curscr)``)."""
        if self.too_small:
            return
        win = self.board.win
        win.clearok(True)
        if self.board.leave:
            # After ^C and `n` a read goes on with the board in leave-cursor
            # mode: put the cursor back on the input all the same.
            win.leaveok(False)
            win.refresh()
            win.leaveok(True)
        else:
            win.refresh()

    def bell(self) -> None:
        if not self.too_small:
            curses.beep()

    def colour_attributes(self, styles: Sequence[tuple[int, bool]]) -> list[int] | None:
        """Curses attributes for ``(colour, bold)`` styles, or None on a terminal without colours.

        Asked for only with ``--color`` (:mod:`mille.ui.palette`), after
        :meth:`start`.  Colours are set on the terminal's own default
        background (colour -1 is its default foreground); a terminal that
        cannot keep its default colours gets none, rather than a background
        it did not choose.
        """
        try:
            if not curses.has_colors():
                return None
            curses.start_color()
            curses.use_default_colors()
            if curses.COLORS < 8:
                return None
            attrs: list[int] = []
            for pair, (colour, bold) in enumerate(styles, 1):
                attr = curses.A_BOLD if bold else 0
                if colour >= 0:
                    curses.init_pair(pair, colour, -1)
                    attr |= curses.color_pair(pair)
                attrs.append(attr)
        except curses.error:
            return None
        return attrs

    # ------------------------------------------------------------------
    # Terminal size

    def _real_size(self) -> tuple[int, int]:
        try:
            size = os.get_terminal_size(self.fd)
        except OSError:
            try:
                size = os.get_terminal_size(1)
            except OSError:
                return MIN_ROWS, MIN_COLS
        return size.lines, size.columns

    def _check_size(self) -> bool:
        """After a resize: True when the game should be repainted."""
        rows, cols = self._real_size()
        if rows < MIN_ROWS or cols < MIN_COLS:
            self.too_small = True
            self._show_too_small(rows, cols)
            return False
        self.too_small = False
        self._quit_asked = False
        self._message_shown = False
        self._fit_rows(rows)
        self.redraw()
        return True

    @staticmethod
    def _fit_rows(rows: int) -> None:
        """Keep curses' idea of the height within the terminal's when it is 80x23.

        curses keeps the size it started with (the signal that would tell it
        of a resize is the game's).  That is harmless on a larger terminal,
        but on 23 rows a curses that believes in 24 could move the cursor to,
        or scroll, a row that is not there.  So curses is told of 23 rows,
        and of 24 again once there is room (the Miles window, clipped to 6
        rows meanwhile, gets its seventh back).
        """
        lines = curses.LINES
        if rows < lines and rows < SCREEN_ROWS:
            curses.resizeterm(rows, curses.COLS)
        elif lines < SCREEN_ROWS <= rows:
            curses.resizeterm(SCREEN_ROWS, curses.COLS)

    def _small_key(self, key: int) -> bool:
        """A key at the too-small message: True to leave (q then y, or ^D)."""
        if key == _CTRL_D or (self._quit_asked and key in b"yY"):
            return True
        asked = key in b"qQ"
        if asked != self._quit_asked:
            self._quit_asked = asked
            self._show_too_small(*self._real_size())
        return False

    def _show_too_small(self, rows: int, cols: int) -> None:
        """Say why nothing is shown, straight to the terminal (curses may think 80x24)."""
        lines = [
            f"mille needs a terminal of at least {MIN_COLS}x{MIN_ROWS};",
            f"this one is {cols}x{rows}.",
            "Make it larger to go on.",
            "Quit (your game is kept)? y or n" if self._quit_asked else "q quits, keeping your game.",
        ]
        clear = curses.tigetstr("clear") or b"\x1b[H\x1b[2J"
        self._write(clear + b"\r\n".join(line[: max(cols, 1)].encode() for line in lines[: max(rows, 1)]))
        self._message_shown = True

    @staticmethod
    def _write(data: bytes) -> None:
        try:
            os.write(1, data)
        except OSError:
            pass
