"""A line of talk typed on a board (``T``; docs/people.md, "Talk"): the prompt line's own little line editor.

On either board the line is typed where the move prompt is asked (the
original's prompt line at two seats, 19 columns; the larger tables' at
more, 79), after ``Say:``: printable characters are taken, the terminal's
erase key takes one back, its kill key empties the line, RETURN sends it,
and a line that grows past the room scrolls within it, its end shown (as
the original's ``file:`` prompt does, §12.4).  At most
:data:`mille.ui.people.messages.MAX_TALK` characters are taken; the host
escapes and cuts again whatever comes (a peer may be another program).
An empty line sends nothing.

The table's story (``M`` on the original's board at two seats, with people
there: the moves, the talk and the news, and what one missed while away)
is shown in the board's window until the next key (:func:`show_story`),
the newest last; the board is then drawn again whole.
"""

from __future__ import annotations

from ..keys import CR, LF, isprint
from .messages import MAX_TALK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..surface import Terminal, Window

__all__ = ["PROMPT", "read_talk", "show_story", "story_rows"]

#: What the prompt line says while a line of talk is typed.
PROMPT = "Say:"


def read_talk(term: Terminal, win: Window, y: int, x: int, width: int, readch: Callable[[], int]) -> str:
    """The line typed at ``win``'s (``y``, ``x``) in ``width`` columns, keys read with ``readch``; '' for none."""
    typed: list[str] = []
    room = max(width - len(PROMPT) - 2, 1)
    while True:
        shown = "".join(typed)[-room:]
        win.move(y, x)
        win.addstr(f"{PROMPT} {shown}"[: width - 1])
        win.clrtoeol()
        win.refresh()
        key = readch()
        if key in (CR, LF):
            return "".join(typed).strip()
        if key in (8, 127, term.erase_char):
            if typed:
                typed.pop()
        elif key == term.kill_char:
            typed = []
        elif 0 <= key < 256 and isprint(key) and len(typed) < MAX_TALK:
            typed.append(chr(key))
        else:
            term.bell()


def story_rows(lines: list[str], rows: int, width: int) -> list[str]:
    """The last of ``lines`` (escaped already) that fit ``rows`` rows of ``width`` columns, each wrapped at blanks."""
    import textwrap

    out: list[str] = []
    for line in reversed(lines):
        wrapped = textwrap.wrap(line, width, subsequent_indent="  ") or [""]
        if len(out) + len(wrapped) > rows:
            break
        out[:0] = wrapped
    return out


def show_story(win: Window, lines: list[str], rows: int, width: int, readch: Callable[[], int]) -> None:
    """``lines`` of the table's story in ``win`` (``rows`` x ``width``), the newest last, until a key is read."""
    win.erase()
    win.move(0, 0)
    win.addstr("The table, the newest last:"[: width - 1])
    shown = story_rows(lines, rows - 2, width - 1) or ["Nothing told yet this hand."]
    for row, line in enumerate(shown, 1):
        win.move(row, 0)
        win.addstr(line)
    win.move(rows - 1, 0)
    win.addstr("Any key: the board again."[: width - 1])
    win.refresh()
    readch()
