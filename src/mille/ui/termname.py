"""What to do when ``TERM`` names no usable terminal (imported only then).

Over ssh the most common way to meet mille is from a terminal emulator whose
own terminfo entry the server lacks (``xterm-kitty``, ``alacritty``,
``xterm-ghostty``, ``foot``, ``wezterm``): curses cannot start, and the
original stopped with ``Error opening terminal: xterm-kitty.``  Those
emulators all speak xterm's language, so for them (and for ``tmux-*`` and
``screen-*`` names) the nearest installed base entry is used instead and a
note says so after the game.  Any other unknown or empty ``TERM``, and a
terminal that cannot move its cursor (``dumb``), is refused with one line
(which names ``mille --plain``, the game in lines, for such a terminal).
"""

from __future__ import annotations

import curses
import os

from .surface import TerminalError

#: Name patterns of xterm-compatible families, each with the base entries
#: to try, nearest first.  Only the cursor addressing, clearing and standout
#: the board uses need to work, which every one of these has.
_XTERM = ("xterm-256color", "xterm", "vt100")
FAMILIES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("tmux",), ("tmux-256color", "tmux", "screen-256color", "screen", "vt100")),
    (("screen",), ("screen-256color", "screen", "vt100")),
    (("xterm", "kitty", "alacritty", "foot", "wezterm", "ghostty", "contour", "rio"), _XTERM),
)


def candidates(name: str) -> tuple[str, ...]:
    """The base entries to try for ``name``, nearest first; () if it is not of a known family."""
    lowered = name.lower()
    for prefixes, bases in FAMILIES:
        for prefix in prefixes:
            if lowered == prefix or lowered.startswith((prefix + "-", prefix + ".")):
                return tuple(b for b in bases if b != lowered)
    return ()


def fall_back(name: str, fd: int, known: bool) -> str:
    """Set ``TERM`` to a usable base entry for ``name``; the note to print after the game.

    ``known`` says whether ``name`` has a terminfo entry (then it is one
    without cursor addressing, and is refused: curses can set up only one
    terminal per process).  Raises :class:`TerminalError` when there is no
    entry to use: ``name`` is empty, of no known family, or such a terminal.
    """
    from ..files.rescue import shown

    shown_name = shown(name)
    if not name or name == "unknown":
        raise TerminalError("TERM is not set; set it to your terminal's type, e.g. TERM=xterm-256color")
    if known:
        raise TerminalError(
            f"TERM={shown_name} cannot move the cursor; mille needs a full-screen terminal, "
            "or mille --plain plays in lines"
        )
    for base in candidates(name):
        try:
            curses.setupterm(term=base, fd=fd)
        except curses.error:
            continue
        if curses.tigetstr("cup") is None:  # pragma: no cover - every base entry has it
            break
        os.environ["TERM"] = base  # curses.initscr() reads it
        return f"mille: TERM={shown_name} has no terminfo entry here; played as {base}"
    raise TerminalError(f"unknown terminal type TERM={shown_name} (no terminfo entry); try TERM=xterm-256color")
