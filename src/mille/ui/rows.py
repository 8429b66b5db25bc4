"""A line of text fitted to a terminal's rows, for a reader who reads a terminal by its rows (a screen reader).

Plain mode writes every line through :func:`fitted`
(:meth:`mille.ui.plain.lines.LineTerminal.write_line`), and so do the last
words of a game played in lines on standard error
(:func:`mille.ui.keeping.say`): both lie above this module, which imports
nothing of the faces.
"""

from __future__ import annotations

import os

__all__ = ["MIN_WRAP", "fitted", "terminal_width"]

#: The narrowest terminal whose lines are broken between words (a narrower one wraps them itself).
MIN_WRAP = 20


def terminal_width(fd: int) -> int:
    """The width of the terminal on ``fd``, if it is one that says it (0: not a terminal, or unknown)."""
    try:
        return os.get_terminal_size(fd).columns
    except OSError:
        return 0


def fitted(line: str, width: int) -> str:
    """``line`` (already escaped, :func:`~mille.files.safeio.shown`) in rows narrower than ``width``; whole if
    ``width`` is 0 (not a terminal).

    A row each, so that a screen reader reading by rows never hears a word
    cut in two.  A line of items (a hand: ``P: empty; 1: 50 miles; ...``)
    is broken at its ``"; "`` first, so that no item is split (``50`` on one
    row and ``miles`` on the next); a line whose items do not each fit is
    broken between words.  Also what plain mode's last lines on standard
    error get (the hangup line), so that they read as the game's.
    """
    if width < MIN_WRAP or len(line) < width:
        return line
    room = width - 1
    items = line.split("; ")
    if len(items) > 1 and all(len(item) + 1 <= room for item in items):
        rows: list[str] = []
        for n, item in enumerate(items):
            piece = item + (";" if n < len(items) - 1 else "")
            if rows and len(rows[-1]) + 1 + len(piece) <= room:
                rows[-1] += " " + piece
            else:
                rows.append(piece)
        return "\n".join(rows)
    import textwrap

    return "\n".join(textwrap.wrap(line, room, break_on_hyphens=False)) or line
