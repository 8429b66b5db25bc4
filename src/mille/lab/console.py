"""The lab's console: a status line redrawn in place on the terminal, and writing a report out.

:class:`StatusLine` is the widget under the progress lines of ``mille.match``
(:class:`mille.lab.match.ProgressBar`) and ``mille.tournament``
(:class:`mille.lab.tournament.TournamentBar`), which say what they show;
:func:`write_out` prints a report and survives a reader that has gone.
"""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from typing import TextIO

from ..files.safeio import shown


def format_elapsed(seconds: float) -> str:
    """``0:07``, ``12:30``, ``1:02:03``."""
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def gauge(fraction: float) -> str:
    """A bar of 20 characters, ``[#####...............]``, filled to ``fraction`` (0 to 1)."""
    filled = int(20 * fraction)
    return f"[{'#' * filled}{'.' * (20 - filled)}]"


#: The least time between two redraws for news (a status line redrawn faster only flickers).
NEWS_INTERVAL = 0.2


class StatusLine:
    """One line on a terminal, redrawn in place: at once, when told, and on a timer.

    The timer (a daemon thread, every ``interval`` seconds) keeps the
    elapsed time moving while a long unit of work runs (an ``expert``
    pair lasts tens of seconds), so the terminal is never blank and never
    looks stuck.  ``render(elapsed)`` gives the text; it is escaped
    (:func:`~mille.files.safeio.shown`: it may name players) and cut to the
    terminal's width.
    """

    def __init__(self, stream: TextIO, interval: float = 0.5) -> None:
        self.stream = stream
        self.interval = interval
        self.width = 0
        self.started = time.monotonic()
        self.last = 0.0  # when news was last drawn
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def render(self, elapsed: float) -> str:  # pragma: no cover - overridden
        return format_elapsed(elapsed)

    def news(self, final: bool) -> None:
        """Redraw for news: at once for the ``final`` news, else no sooner than :data:`NEWS_INTERVAL` after the last."""
        now = time.monotonic()
        if now - self.last >= NEWS_INTERVAL or final:
            self.last = now
            self.draw()

    def start(self) -> None:
        """Draw now, and again every ``interval`` seconds until :meth:`clear`."""
        self.started = time.monotonic()
        self.draw()
        self._thread = threading.Thread(target=self._tick, name="mille-status", daemon=True)
        self._thread.start()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self.draw()

    def draw(self) -> None:
        with self._lock:
            if self._stop.is_set() and self._thread is not None:
                return
            line = shown(self.render(time.monotonic() - self.started))  # a player's name may be anything
            try:
                columns = os.get_terminal_size(self.stream.fileno()).columns or 100  # 0: not set
            except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
                columns = 100
            line = line[: max(20, columns - 1)]
            try:
                self.stream.write("\r" + line + " " * max(0, self.width - len(line)))
                self.stream.flush()
            except (OSError, ValueError):
                return
            self.width = len(line)

    def clear(self) -> None:
        """Stop the timer and erase the line."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self.width:
                try:
                    self.stream.write("\r" + " " * self.width + "\r")
                    self.stream.flush()
                except (OSError, ValueError):
                    pass
                self.width = 0


def write_out(text: str) -> int:
    """Print ``text`` on standard output; 0, or 141 when the reader has gone (``| head -1``), without a traceback."""
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes standard output again at exit: point it at /dev/null first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 141  # as a program killed by SIGPIPE
    return 0


__all__ = ["StatusLine", "format_elapsed", "gauge", "write_out"]
