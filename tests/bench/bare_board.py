"""Baseline for the startup benchmark: a bare Python curses program.

It draws the same first board as ``mille --seed 1`` (hard-coded text, no
game logic) and waits for a key, so ``startup.py`` can time what Python and
curses alone cost.  Not a test; run by ``tests/bench/bench_startup.py``.
"""

import curses
import locale
import os

BOARD = {
    (5, 0): "--HAND--",
    (6, 0): "P",
    (7, 0): "1 Out of Gas",
    (8, 0): "2 25",
    (9, 0): "3 75",
    (10, 0): "4 Spare Tire",
    (11, 0): "5 75",
    (12, 0): "6 Repairs",
    (13, 0): "--BATTLE--",
    (15, 0): "--SPEED--",
    (5, 20): "--DECK--",
    (6, 22): "89",
    (7, 20): "--DISCARD--",
    (13, 20): "--BATTLE--",
    (15, 20): "--SPEED--",
}
SCORE = {
    (0, 22): "You   Comp   Value",
    (1, 2): "Milestones Played     0     0",
    (2, 8): "Each Safety     0     0      100",
    (3, 5): "All 4 Safeties     0     0      300",
    (4, 3): "Each Coup Fourre     0     0      300",
    (5, 21): "----   ----   -----",
    (6, 9): "Hand Total     0     0",
    (7, 20): "-----  -----",
    (8, 6): "Overall Total     0     0",
    (9, 15): "Games    0     0",
    (11, 2): "p: pick            q: quit",
    (12, 2): "u: use #           o: order hand",
    (13, 2): "d: discard #       s: save",
    (14, 2): "w: toggle window   r: reprint",
}


def main() -> None:
    locale.setlocale(locale.LC_CTYPE, "C")
    curses.initscr()
    board = curses.newwin(17, 40, 0, 0)
    score = curses.newwin(17, 40, 0, 40)
    miles = curses.newwin(7, 80, 17, 0)
    score.leaveok(True)
    miles.leaveok(True)
    curses.cbreak()
    curses.noecho()
    for (y, x), text in BOARD.items():
        board.addstr(y, x, text)
    for (y, x), text in SCORE.items():
        score.addstr(y, x, text)
    for y in range(17):
        score.addstr(y, 0, "|")
    try:
        score.addstr(16, 1, "_" * 39)
    except curses.error:
        pass  # curses writes the bottom-right cell, then reports ERR
    miles.addstr(0, 0, "--MILEAGE--")
    miles.addstr(0, 41, "--MILEAGE--")
    board.move(10, 20)
    board.standout()
    board.addstr(">>:Move:")
    board.standend()
    board.addstr(" ")
    board.refresh()
    miles.refresh()
    score.refresh()
    board.refresh()
    while os.read(0, 1) not in (b"q", b""):
        pass
    curses.endwin()


if __name__ == "__main__":
    main()
