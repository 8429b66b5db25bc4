"""Where everything goes on the screen: the one layout table (reference §7, §8).

Every window, fixed label and field position of the original's screen is
defined here and nowhere else, so :mod:`mille.ui.board` (which draws),
:mod:`mille.ui.dialogs` (prompts and messages) and the two terminals
(:mod:`mille.ui.surface`, :mod:`mille.ui.cursesterm`) cannot disagree.
Positions are window-relative ``(row, column)``, as curses takes them.

The labels are grouped by *when* the original drew them (the whole board
once, the score header while the ``You`` label is missing, the small or the
full score layout when the layout changes), and listed in the order it
drew them: the bytes ncurses sends depend on the order of the calls, and
each group is drawn by one loop over its table.

Bonus values are not typed here: they are :mod:`mille.engine.scoring`'s amounts,
formatted as the screen shows them.
"""

from __future__ import annotations

from ..engine.cards import NUM_SAFETIES
from ..engine.scoring import (
    ALL_SAFETIES_BONUS,
    COUP_BONUS,
    DELAYED_ACTION_BONUS,
    EXTENSION_BONUS,
    SAFE_TRIP_BONUS,
    SAFETY_POINTS,
    SHUT_OUT_BONUS,
    TRIP_BONUS,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    #: A fixed label: (window, row, column, text).
    Label = tuple[int, int, int, str]
    #: A label whose text may be chosen when it is drawn (``None``).
    VariableLabel = tuple[int, int, int, str | None]

# ----------------------------------------------------------------------
# Who sits where: the engine's seats as this screen shows them.

#: The person at the terminal plays seat 0: their hand, and the ``You``
#: column of the score window.
YOU = 0
#: The computer plays seat 1: its piles at the right, the ``Comp`` column.
COMPUTER = 1


class ScoreView:
    """The score window's layout, toggled by ``W`` (§8.3); saved beside the game as 0 or 1.

    Plain ints, not an IntEnum (an Enum class costs start-up time).
    """

    SMALL = 0
    FULL = 1


# ----------------------------------------------------------------------
# The windows (§7): (rows, columns, top, left) on the 80x24 screen.

#: Which window a label belongs to (an index into :data:`WINDOWS`).
BOARD, SCORE, MILES = 0, 1, 2
BOARD_WINDOW = (17, 40, 0, 0)
SCORE_WINDOW = (17, 40, 0, 40)
MILES_WINDOW = (7, 80, 17, 0)
WINDOWS = (BOARD_WINDOW, SCORE_WINDOW, MILES_WINDOW)
#: The screen the original assumed (and never checked).
SCREEN_ROWS, SCREEN_COLS = 24, 80

SCORE_ROWS, SCORE_COLS = SCORE_WINDOW[:2]
BOARD_COLS = BOARD_WINDOW[1]
MILES_COLS = MILES_WINDOW[1]

# ----------------------------------------------------------------------
# Board window (§8.1, §8.2, §8.6, §8.7)

#: Card columns: the human's at ``CARD_START``, the computer's ``COMP_START``
#: further right; a coup fourré's ``*`` goes ``CARD_START`` to the left.
COMP_START = 20
CARD_START = 2
COUP_MARK = "*"
#: Every card name is ``%-18.18s``.
CARD_WIDTH = 18
#: Safety ``s`` is shown on row ``s``; these rows and the extension banner
#: (rows 0-4, above ``--HAND--``) are blanked at each new hand.
TOP_ROWS = 5
#: Hand slot ``k`` (0 is the ``P`` row) is on row ``HAND_Y + k``.
HAND_Y = 6
BATTLE_Y = 14
SPEED_Y = 16
#: The deck count (``%2d``) and the top of the discard pile, computer's side.
DECK_Y, DECK_X = 6, COMP_START + CARD_START
DECK_WIDTH = 2
DISCARD_Y, DISCARD_X = 8, COMP_START + CARD_START
#: ``Extension`` in standout while the trip is 1000 miles.
EXT_Y, EXT_X = 4, 9
EXT_BANNER = "Extension"
#: The prompt line: every prompt starts here, the answer after one space.
MOVE_Y, MOVE_X = 10, 20
#: The computer's last play or discard (§8.6): ``PLAY``/``DISCARD`` on the
#: row below the prompt, the card right-aligned in 16 columns below that.
ACTION_Y = MOVE_Y + 1
ACTION_CARD_Y = MOVE_Y + 2
ACTION_CARD_WIDTH = 16

#: Drawn once, at the first board: (window, row, column, text).
BOARD_LABELS: tuple[Label, ...] = (
    (BOARD, 5, 0, "--HAND--"),
    (BOARD, 6, 0, "P"),
    (BOARD, 7, 0, "1"),
    (BOARD, 8, 0, "2"),
    (BOARD, 9, 0, "3"),
    (BOARD, 10, 0, "4"),
    (BOARD, 11, 0, "5"),
    (BOARD, 12, 0, "6"),
    (BOARD, 13, 0, "--BATTLE--"),
    (BOARD, 15, 0, "--SPEED--"),
    (BOARD, 5, 20, "--DECK--"),
    (BOARD, 7, 20, "--DISCARD--"),
    (BOARD, 13, 20, "--BATTLE--"),
    (BOARD, 15, 20, "--SPEED--"),
    (MILES, 0, 0, "--MILEAGE--"),
    (MILES, 0, 41, "--MILEAGE--"),
)

# ----------------------------------------------------------------------
# Miles window (§8.4)

#: The k-th card of distance ``i`` is on row ``MILES_Y + i``, at column
#: ``4k`` for the human and ``40 + 4k`` for the computer; a card that would
#: start past the window's right edge is not shown.
MILES_Y = 1
MILES_STEP = 4
MILES_SIDE = 40

# ----------------------------------------------------------------------
# Score window (§8.3, §8.5)

#: The left border (``|`` on every row) and the bottom one.  The underscores
#: run one past the window's width, as the original's did: the last one
#: sticks in the bottom-right corner.
BORDER = "|"
BOTTOM_Y = SCORE_ROWS - 1
BOTTOM_X = 1
BOTTOM = "_" * SCORE_COLS

#: A player's values (``%4d``) are at ``VALUE_X + PLAYER_STEP * player``.
VALUE_X = 21
PLAYER_STEP = 6
VALUE_WIDTH = 4
#: The three-column cells (all safeties, bonuses) start one column further.
CELL_OFFSET = 1
#: The ``Value`` column.
POINTS_X = 37

MILEAGE_Y = 1
SAFETY_Y = 2
ALL_SAFETIES_Y = 3
COUP_Y = 4
#: The score header is rebuilt while this label is missing (§8.3).
HEADER_Y, HEADER_X, HEADER = 0, 22, "You   Comp   Value"
#: Where the other seat's heading (``Comp``) starts, and the room it has
#: before ``Value``: a person's name in its place is cut to fit.
OTHER_X, OTHER_WIDTH = HEADER_X + HEADER.index("Comp"), HEADER.index("Value") - HEADER.index("Comp") - 1
#: The layouts are redrawn from this row down (column 1 keeps the border).
LAYOUT_Y, LAYOUT_X = 5, 1
#: The error and message line; messages longer than the room left wrap
#: into the border (§8.5).
ERR_Y, ERR_X = 15, 5
ERR_WIDTH = SCORE_COLS - ERR_X

#: Rows of the hand total, the overall total and the games won.
SMALL_TOTALS_Y = (6, 8, 9)
FULL_TOTALS_Y = (11, 13, 14)

#: The ``o:`` help row, which follows the Order setting.
ORDER_HELP_Y, ORDER_HELP_X = 12, 21
ORDER_ON_HELP = "o: stop ordering"
ORDER_OFF_HELP = "o: order hand"


def points(value: int) -> str:
    """A point value as the ``Value`` column shows it (``%3d``)."""
    return f"{value:3d}"


#: A player's all-safeties cell: the bonus once every safety is played.
ALL_SAFETIES = NUM_SAFETIES * SAFETY_POINTS
ALL_SAFETIES_CELL = points(ALL_SAFETIES_BONUS)
NO_POINTS_CELL = points(0)

#: The score header, drawn when the score window is first built: labels,
#: then the values of the rows during play.
SCORE_LABELS: tuple[Label, ...] = (
    (SCORE, HEADER_Y, HEADER_X, HEADER),
    (SCORE, MILEAGE_Y, 2, "Milestones Played"),
    (SCORE, SAFETY_Y, 8, "Each Safety"),
    (SCORE, ALL_SAFETIES_Y, 5, "All 4 Safeties"),
    (SCORE, COUP_Y, 3, "Each Coup Fourre"),
    (SCORE, SAFETY_Y, POINTS_X, points(SAFETY_POINTS)),
    (SCORE, ALL_SAFETIES_Y, POINTS_X, points(ALL_SAFETIES_BONUS)),
    (SCORE, COUP_Y, POINTS_X, points(COUP_BONUS)),
)

#: The end-of-hand bonus rows, in :meth:`mille.engine.scoring.Bonuses.rows` order.
BONUS_Y = 5
BONUS_POINTS = (TRIP_BONUS, SAFE_TRIP_BONUS, DELAYED_ACTION_BONUS, EXTENSION_BONUS, SHUT_OUT_BONUS)
#: An earned bonus overwrites the first two columns of its ``  0`` cell
#: (``40`` then reads ``400``), as the original did (§8.3).
BONUS_CELLS = tuple(str(value // 10) for value in BONUS_POINTS)

#: The full layout (§8.3): while the window is full or the hand is over.
FULL_LABELS: tuple[Label, ...] = (
    (SCORE, BONUS_Y, 5, "Trip Completed"),
    (SCORE, BONUS_Y + 1, 10, "Safe Trip"),
    (SCORE, BONUS_Y + 2, 5, "Delayed Action"),
    (SCORE, BONUS_Y + 3, 10, "Extension"),
    (SCORE, BONUS_Y + 4, 11, "Shut-Out"),
    (SCORE, 10, 21, "----   ----   -----"),
    (SCORE, FULL_TOTALS_Y[0], 9, "Hand Total"),
    (SCORE, 12, 20, "-----  -----"),
    (SCORE, FULL_TOTALS_Y[1], 6, "Overall Total"),
    (SCORE, FULL_TOTALS_Y[2], 15, "Games"),
    *((SCORE, BONUS_Y + row, POINTS_X, points(value)) for row, value in enumerate(BONUS_POINTS)),
)

#: The small layout (§8.3): totals and the command help.  ``None`` is the
#: ``o:`` row, whose text follows the Order setting.
SMALL_LABELS: tuple[VariableLabel, ...] = (
    (SCORE, 5, 21, "----   ----   -----"),
    (SCORE, SMALL_TOTALS_Y[0], 9, "Hand Total"),
    (SCORE, 7, 20, "-----  -----"),
    (SCORE, SMALL_TOTALS_Y[1], 6, "Overall Total"),
    (SCORE, SMALL_TOTALS_Y[2], 15, "Games"),
    (SCORE, 11, 2, "p: pick"),
    (SCORE, 12, 2, "u: use #"),
    (SCORE, 13, 2, "d: discard #"),
    (SCORE, 14, 2, "w: toggle window"),
    (SCORE, 11, 21, "q: quit"),
    (SCORE, ORDER_HELP_Y, ORDER_HELP_X, None),
    (SCORE, 13, 21, "s: save"),
    (SCORE, 14, 21, "r: reprint"),
)


def order_help(order: bool) -> str:
    """The ``o:`` help text: what the key would do now."""
    return ORDER_ON_HELP if order else ORDER_OFF_HELP


def value_x(player: int) -> int:
    """The column of a player's score values."""
    return VALUE_X + PLAYER_STEP * player


def card_x(player: int) -> int:
    """The column of a player's safeties, battle and speed piles."""
    return COMP_START * player + CARD_START


def miles_x(player: int, count: int) -> int:
    """The column of a player's ``count``-th card of one distance (from 0)."""
    return MILES_STEP * count + MILES_SIDE * player
