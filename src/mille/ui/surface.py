"""The window layer the front end draws on, and a pure in-memory backend.

The original draws through three curses windows and relies on curses'
refresh rules for some of its visible behaviour (a message written into the
score window stays invisible until that window is next refreshed).  The
front end therefore talks to windows with curses' semantics through the
small :class:`Window` protocol.  :mod:`mille.ui.cursesterm` implements it
with real curses; :class:`VirtualTerminal` here implements it in memory, so
whole games can be played and their screens checked without a terminal.
"""

from __future__ import annotations

from .layout import BOARD_WINDOW, MILES_WINDOW, SCORE_WINDOW, SCREEN_COLS, SCREEN_ROWS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable


class TerminalError(Exception):
    """The terminal cannot show the game (no usable ``TERM``); the message is one line."""


class Heard(Exception):
    """Raised by a watch's callback (:meth:`Terminal.watch`) to end the wait it ran in.

    The key, the line or the ``wait`` being waited for gives way to what
    was heard: the person a choice waited for joined again, the host's game
    answered, the other thread finished.  The caller that watched catches it.
    """


class Watches:
    """The descriptors a terminal hears while it waits for a key or a line, each with its callback.

    In the spirit of Textual's driver: whoever waits for the person (the
    board's prompts, plain mode's lines, the wait while another thread
    thinks) also hears other descriptors (a person's link, a listening
    socket, a pipe a thread asks on), and their callbacks run on the thread
    that draws, between reads, never inside a signal's wake-up.
    """

    def __init__(self) -> None:
        self._callbacks: dict[int, Callable[[], None]] = {}

    def __bool__(self) -> bool:
        return bool(self._callbacks)

    def watch(self, fd: int, callback: Callable[[], None]) -> None:
        self._callbacks[fd] = callback

    def unwatch(self, fd: int) -> None:
        self._callbacks.pop(fd, None)

    def fds(self) -> list[int]:
        """The descriptors watched (one closed under its watch is left out: its owner forgot to unwatch it)."""
        import os

        alive = []
        for fd in list(self._callbacks):
            try:
                os.fstat(fd)
            except OSError:
                del self._callbacks[fd]
                continue
            alive.append(fd)
        return alive

    def heard(self, ready: Iterable[int]) -> None:
        """The callbacks of the ``ready`` descriptors that are still watched (a callback may unwatch another)."""
        for fd in list(ready):
            callback = self._callbacks.get(fd)
            if callback is not None:
                callback()


#: Returned by :meth:`Terminal.read_byte` when the interrupt key (SIGINT) was
#: pressed while waiting for input.
INTERRUPT = -2
#: Returned at end of input (or a read error).
END_OF_INPUT = -1
#: Returned when the terminal changed size while waiting for input.
RESIZED = -3
#: Returned when the terminal went away (SIGHUP) or the game was told to stop
#: (SIGTERM): save the game and leave.
HANGUP = -4
#: Returned when the person asked to leave while the terminal was too small
#: to show the game (``q`` then ``y``, ^C or ^D at the too-small message):
#: keep the game as on a hangup, say where, and leave.
LEAVE = -5

#: The signals a face hears, by name, and the event each becomes: the one
#: place that says which signal keeps the game (HANGUP), so that whatever
#: keeps it on the board keeps it in plain mode too (issue 36; both faces
#: install their handlers from this table).  SIGINT is the interrupt key
#: (``Really?``, §9.5); SIGHUP (the terminal went away), SIGTERM (a request
#: to stop) and SIGQUIT (``^\\``, which the manual says keeps the game)
#: keep the game and leave.  Names, not numbers: Windows lacks some of them.
SIGNAL_EVENTS: dict[str, int] = {"SIGINT": INTERRUPT, "SIGHUP": HANGUP, "SIGTERM": HANGUP, "SIGQUIT": HANGUP}


if TYPE_CHECKING:
    from typing import Protocol

    class Window(Protocol):
        """The subset of a curses window the game uses."""

        def move(self, y: int, x: int) -> None: ...
        def addstr(self, text: str) -> None: ...
        def clrtoeol(self) -> None: ...
        def clrtobot(self) -> None: ...
        def erase(self) -> None: ...
        def refresh(self) -> None: ...
        def leaveok(self, flag: bool) -> None: ...
        def standout(self) -> None: ...
        def standend(self) -> None: ...
        def inch(self, y: int, x: int) -> str: ...
        def getyx(self) -> tuple[int, int]: ...

    class Terminal(Protocol):
        """The three windows of the original, plus whole-screen operations."""

        @property
        def board(self) -> Window: ...
        @property
        def score(self) -> Window: ...
        @property
        def miles(self) -> Window: ...
        @property
        def erase_char(self) -> int: ...
        @property
        def kill_char(self) -> int: ...

        def redraw(self) -> None:
            """Repaint the whole screen from what it should show (``wrefresh(curscr)``)."""

        def bell(self) -> None: ...

        def read_byte(self) -> int:
            """One input byte (0-255), or INTERRUPT, RESIZED, HANGUP, LEAVE or END_OF_INPUT."""

        def poll(self) -> int | None:
            """A pending INTERRUPT, HANGUP or LEAVE without waiting for a key, or None.

            Asked between moves: signals arrive whenever they like, and a
            game busy without reading keys must still act on them.
            """

        def wait(self, ready: int) -> int | None:
            """Wait until the descriptor ``ready`` can be read (None), or for what the terminal reports meanwhile.

            An INTERRUPT, HANGUP or LEAVE (as :meth:`poll` gives them), or
            END_OF_INPUT when the terminal went away; keys are not read.
            Asked while the computer thinks (``ready``: it has chosen).
            The watched descriptors are heard meanwhile (:meth:`watch`).
            """

        def watch(self, fd: int, callback: Callable[[], None]) -> None:
            """Hear ``fd`` too wherever a key is awaited (:meth:`read_byte`) and in :meth:`wait`: ``callback()``
            runs, on this thread, when it can be read (it may raise :class:`Heard` to end the wait)."""

        def unwatch(self, fd: int) -> None:
            """Hear ``fd`` no more (before it is closed)."""


class VirtualWindow:
    """A curses window in memory: a cell buffer, a cursor and an attribute.

    Writing follows curses: text wraps at the right edge, and on the bottom
    line the cursor sticks to the last column; ``\\n`` clears to the end of
    the line and moves to the start of the next; ``\\b`` moves left.
    """

    def __init__(self, term: VirtualTerminal, rows: int, cols: int, top: int, left: int) -> None:
        self.term = term
        self.rows = rows
        self.cols = cols
        self.top = top
        self.left = left
        self.chars = [[" "] * cols for _ in range(rows)]
        self.attrs = [[False] * cols for _ in range(rows)]
        self.y = 0
        self.x = 0
        self.standout_on = False
        self.leave = False
        #: The last character filled the line and the cursor wrapped (curses'
        #: _WRAPPED flag): a clrtoeol() right after a wrap onto the last row
        #: does nothing.
        self.wrapped = False

    def move(self, y: int, x: int) -> None:
        if 0 <= y < self.rows and 0 <= x < self.cols:
            self.y, self.x = y, x
            self.wrapped = False

    def _put(self, ch: str) -> bool:
        if ch == "\n":
            self.clrtoeol()
            self.wrapped = False
            if self.y < self.rows - 1:
                self.y += 1
                self.x = 0
                return True
            return False
        if ch == "\b":
            if self.x > 0:
                self.x -= 1
            return True
        if ch == "\t":  # curses: blanks up to the next tab stop
            return all(self._put(" ") for _ in range(8 - self.x % 8))
        if ch < " " or ch == "\x7f":  # curses shows other control characters as ^X
            return all(self._put(c) for c in ("^?" if ch == "\x7f" else "^" + chr(ord(ch) + 0x40)))
        self.chars[self.y][self.x] = ch
        self.attrs[self.y][self.x] = self.standout_on
        self.wrapped = False
        if self.x + 1 >= self.cols:
            if self.y < self.rows - 1:
                self.y += 1
                self.x = 0
                self.wrapped = True
                return True
            return False
        self.x += 1
        return True

    def addstr(self, text: str) -> None:
        for ch in text:
            if not self._put(ch):
                return

    def clrtoeol(self) -> None:
        if self.wrapped and self.y == self.rows - 1:
            return  # curses refuses: the cursor only wrapped onto the last row
        row, attr = self.chars[self.y], self.attrs[self.y]
        for x in range(self.x, self.cols):
            row[x] = " "
            attr[x] = False

    def clrtobot(self) -> None:
        self.clrtoeol()
        for y in range(self.y + 1, self.rows):
            self.chars[y] = [" "] * self.cols
            self.attrs[y] = [False] * self.cols

    def erase(self) -> None:
        self.chars = [[" "] * self.cols for _ in range(self.rows)]
        self.attrs = [[False] * self.cols for _ in range(self.rows)]
        self.y = self.x = 0

    def refresh(self) -> None:
        self.term.update(self)

    def leaveok(self, flag: bool) -> None:
        self.leave = flag

    def standout(self) -> None:
        self.standout_on = True

    def standend(self) -> None:
        self.standout_on = False

    def inch(self, y: int, x: int) -> str:
        return self.chars[y][x]

    def getyx(self) -> tuple[int, int]:
        return self.y, self.x


class VirtualTerminal:
    """An 80x24 screen with the original's three windows, all in memory.

    ``screen`` holds what a player would see: each window's contents as of
    its last refresh.  Keys come from a list; interrupts are the
    :data:`INTERRUPT` value in that list, read in turn like keys.  Events
    that arrive whenever they like, as signals do, go in :attr:`pending`:
    :meth:`poll` hands them over between moves, and a read takes them before
    any key.
    """

    def __init__(self, keys: list[int] | None = None, rows: int = SCREEN_ROWS, cols: int = SCREEN_COLS) -> None:
        self.rows = rows
        self.cols = cols
        self.screen = [[" "] * cols for _ in range(rows)]
        self.screen_attrs = [[False] * cols for _ in range(rows)]
        self.cursor = (0, 0)
        self.board = VirtualWindow(self, *BOARD_WINDOW)
        self.score = VirtualWindow(self, *SCORE_WINDOW)
        self.miles = VirtualWindow(self, *MILES_WINDOW)
        self.erase_char = 0x7F
        self.kill_char = 0x15
        self.keys: list[int] = list(keys or [])
        #: Events not tied to a place in the input (signals): see :meth:`poll`.
        self.pending: list[int] = []
        self.bells = 0
        self.watches = Watches()

    def update(self, win: VirtualWindow) -> None:
        last: tuple[int, int] | None = None
        for y in range(win.rows):
            sy = win.top + y
            if sy >= self.rows:
                break
            row, attrs = self.screen[sy], self.screen_attrs[sy]
            for x in range(win.cols):
                sx = win.left + x
                if sx >= self.cols:
                    break
                ch, at = win.chars[y][x], win.attrs[y][x]
                if row[sx] != ch or attrs[sx] != at:
                    row[sx] = ch
                    attrs[sx] = at
                    last = (sy, sx + 1)
        if not win.leave:
            self.cursor = (win.top + win.y, win.left + win.x)
        elif last is not None:
            self.cursor = (last[0], min(last[1], self.cols - 1))

    def redraw(self) -> None:
        """Nothing to repaint: the in-memory screen is always exact."""

    def bell(self) -> None:
        self.bells += 1

    def read_byte(self) -> int:
        """The next key; the watched descriptors that can be read are heard first (their callbacks run).

        Out of keys, what the watched descriptors say within a moment is
        heard (a test's other side may still speak), then the end of input.
        """
        import select

        while True:
            if self.pending:
                return self.pending.pop(0)
            fds = self.watches.fds()
            if fds:
                heard = select.select(fds, [], [], 0 if self.keys else 0.05)[0]
                if heard:
                    self.watches.heard(heard)
                    continue
            if self.keys:
                return self.keys.pop(0)
            return END_OF_INPUT

    def poll(self) -> int | None:
        return self.pending.pop(0) if self.pending else None

    def wait(self, ready: int) -> int | None:
        """The next of :attr:`pending` (it may arrive meanwhile, from another thread), or None once ``ready`` is.

        Keys are not read, so running out of them is not the end of input
        here: a test that wants the terminal gone puts END_OF_INPUT in
        :attr:`pending`.  The watched descriptors are heard meanwhile.
        """
        import select

        while True:
            if self.pending:
                return self.pending.pop(0)
            found = select.select([ready, *self.watches.fds()], [], [], 0.005)[0]
            if ready in found:
                return None
            self.watches.heard(found)

    def watch(self, fd: int, callback: Callable[[], None]) -> None:
        self.watches.watch(fd, callback)

    def unwatch(self, fd: int) -> None:
        self.watches.unwatch(fd)

    def feed(self, data: bytes | str) -> None:
        raw = data.encode("latin-1") if isinstance(data, str) else data
        self.keys.extend(raw)

    def lines(self) -> list[str]:
        return ["".join(row) for row in self.screen]

    def attr_runs(self) -> list[list[object]]:
        """Standout runs as ``[row, col, length, "r"]``, like the harness records."""
        runs: list[list[object]] = []
        for y, row in enumerate(self.screen_attrs):
            x = 0
            while x < self.cols:
                if row[x]:
                    start = x
                    while x < self.cols and row[x]:
                        x += 1
                    runs.append([y, start, x - start, "r"])
                else:
                    x += 1
        return runs
