"""Colour (``--color``): the same screen, with attributes added by what is drawn.

The board is drawn by :mod:`mille.ui.board` exactly as without colour; this
module wraps the terminal's three windows and, for each piece of text
written, looks at where it goes and what it says, and puts an attribute
around it.  Nothing is moved and no character changes: with colour on the
screen's text and positions are the original's, only attributes are
added; with colour off this module is not even imported, so every byte
sent stays the original's.

The palette is small and reads on dark and on light backgrounds alike: it
uses the terminal's own default background and foreground, and only the
three colours that keep their contrast on both (red, green, magenta), with
bold for emphasis.  Blue, cyan and yellow each vanish on one of the two.

* **Cards by kind**, wherever a card is shown (the hand, the safety area,
  the battle and speed piles, the discard pile, the computer's last play):
  hazards red, remedies green, safeties bold magenta (with the coup
  fourré's ``*``); distance cards, most of the board, keep the terminal's
  own colour.
* **Headings** (``--HAND--``, ``--BATTLE--``, ``--SPEED--``, ...) bold.
* **The message line** (messages, hints, the restore banner) bold.
* **The score window**: its header and the overall totals bold.

On a terminal without colours (or when curses cannot use its default
colours) :func:`colour_terminal` returns the terminal itself: the original
screen, quietly.
"""

from __future__ import annotations

from ..engine import cards
from .layout import (
    ACTION_CARD_Y,
    BATTLE_Y,
    CARD_START,
    COMPUTER,
    DISCARD_X,
    DISCARD_Y,
    ERR_X,
    ERR_Y,
    FULL_TOTALS_Y,
    HAND_Y,
    HEADER,
    HEADER_X,
    HEADER_Y,
    MOVE_X,
    SMALL_TOTALS_Y,
    SPEED_Y,
    YOU,
    card_x,
    value_x,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    from .cursesterm import CursesTerminal, CursesWindow
    from .surface import Window

    class _ColourWindow(Window, Protocol):
        """A window that also takes attributes (:class:`~mille.ui.cursesterm.CursesWindow`)."""

        def attron(self, attr: int) -> None: ...
        def attroff(self, attr: int) -> None: ...


# The curses colour numbers (the ANSI ones); -1 is the terminal's default.
DEFAULT, RED, GREEN, MAGENTA = -1, 1, 2, 5

#: The roles and their look: (foreground colour, bold).
HAZARD, REMEDY, SAFETY, HEADING, MESSAGE, SCORE = range(6)
STYLES: tuple[tuple[int, bool], ...] = (
    (RED, False),  # HAZARD
    (GREEN, False),  # REMEDY
    (MAGENTA, True),  # SAFETY
    (DEFAULT, True),  # HEADING
    (DEFAULT, True),  # MESSAGE
    (DEFAULT, True),  # SCORE
)
#: A card's role by its name as drawn (distance cards have none: the terminal's colour).
CARD_ROLES: dict[str, int] = {
    info.name: role
    for info in cards.TABLE
    for kind, role in ((cards.Kind.HAZARD, HAZARD), (cards.Kind.REMEDY, REMEDY), (cards.Kind.SAFETY, SAFETY))
    if info.kind is kind
}

#: Where the board window shows a card: (row, column) where its name starts.
_SIDES = (card_x(YOU), card_x(COMPUTER))
CARD_FIELDS: frozenset[tuple[int, int]] = frozenset(
    [(row, x) for row in range(cards.NUM_SAFETIES) for x in _SIDES]
    + [(HAND_Y + slot, CARD_START) for slot in range(cards.HAND_SIZE)]
    + [(row, x) for row in (BATTLE_Y, SPEED_Y) for x in _SIDES]
    + [(DISCARD_Y, DISCARD_X), (ACTION_CARD_Y, MOVE_X)]
)
#: Where a coup fourré's ``*`` goes (left of the safety).
COUP_FIELDS: frozenset[tuple[int, int]] = frozenset(
    (row, x - CARD_START) for row in range(cards.NUM_SAFETIES) for x in _SIDES
)
#: The overall totals' cells, in the small and the full score layout.
TOTAL_FIELDS: frozenset[tuple[int, int]] = frozenset(
    (row, value_x(seat)) for row in (SMALL_TOTALS_Y[1], FULL_TOTALS_Y[1]) for seat in (YOU, COMPUTER)
)


def board_role(y: int, x: int, text: str) -> int | None:
    """The role of ``text`` written at (y, x) in the board window, or None."""
    if (y, x) in CARD_FIELDS:
        return CARD_ROLES.get(text.strip())
    if text == "*" and (y, x) in COUP_FIELDS:
        return SAFETY
    if len(text) > 4 and text.startswith("--") and text.endswith("--"):
        return HEADING
    return None


def score_role(y: int, x: int, text: str) -> int | None:
    """The role of ``text`` written at (y, x) in the score window, or None."""
    if (y, x) == (ERR_Y, ERR_X):
        return MESSAGE
    if (y, x) == (HEADER_Y, HEADER_X) and text == HEADER:
        return SCORE
    if (y, x) in TOTAL_FIELDS and text.strip().lstrip("-").isdigit():
        return SCORE
    return None


def miles_role(y: int, x: int, text: str) -> int | None:
    """The role of ``text`` written at (y, x) in the miles window: its headings only."""
    if text.startswith("--") and text.endswith("--"):
        return HEADING
    return None


class PaletteWindow:
    """A curses window whose text gets the attribute of its role; every other call passes through."""

    def __init__(self, win: CursesWindow, role: Callable[[int, int, str], int | None], attrs: list[int]) -> None:
        self.win: _ColourWindow = win
        self.role = role
        self.attrs = attrs

    def addstr(self, text: str) -> None:
        y, x = self.win.getyx()
        role = self.role(y, x, text)
        attr = 0 if role is None else self.attrs[role]
        if not attr:
            self.win.addstr(text)
            return
        self.win.attron(attr)
        try:
            self.win.addstr(text)
        finally:
            self.win.attroff(attr)

    def move(self, y: int, x: int) -> None:
        self.win.move(y, x)

    def clrtoeol(self) -> None:
        self.win.clrtoeol()

    def clrtobot(self) -> None:
        self.win.clrtobot()

    def erase(self) -> None:
        self.win.erase()

    def refresh(self) -> None:
        self.win.refresh()

    def leaveok(self, flag: bool) -> None:
        self.win.leaveok(flag)

    def standout(self) -> None:
        self.win.standout()

    def standend(self) -> None:
        self.win.standend()

    def inch(self, y: int, x: int) -> str:
        return self.win.inch(y, x)

    def getyx(self) -> tuple[int, int]:
        return self.win.getyx()


class PaletteTerminal:
    """The curses terminal with its windows wrapped; keys, the bell and repaints are the terminal's."""

    def __init__(self, term: CursesTerminal, attrs: list[int]) -> None:
        self.term = term
        self.board = PaletteWindow(term.board, board_role, attrs)
        self.score = PaletteWindow(term.score, score_role, attrs)
        self.miles = PaletteWindow(term.miles, miles_role, attrs)

    @property
    def erase_char(self) -> int:
        return self.term.erase_char

    @property
    def kill_char(self) -> int:
        return self.term.kill_char

    def redraw(self) -> None:
        self.term.redraw()

    def bell(self) -> None:
        self.term.bell()

    def read_byte(self) -> int:
        return self.term.read_byte()

    def poll(self) -> int | None:
        return self.term.poll()

    def wait(self, ready: int) -> int | None:
        return self.term.wait(ready)

    def watch(self, fd: int, callback: Callable[[], None]) -> None:
        self.term.watch(fd, callback)

    def unwatch(self, fd: int) -> None:
        self.term.unwatch(fd)


def colour_terminal(term: CursesTerminal) -> CursesTerminal | PaletteTerminal:
    """``term`` drawing in colour, or ``term`` itself where the terminal has no colours (call after start)."""
    attrs = term.colour_attributes(STYLES)
    if attrs is None:
        return term
    return PaletteTerminal(term, attrs)


__all__ = [
    "CARD_ROLES",
    "STYLES",
    "PaletteTerminal",
    "PaletteWindow",
    "board_role",
    "colour_terminal",
    "miles_role",
    "score_role",
]
