"""The drawing half of the front end: the board, the score window, the miles.

A port of the original's ``newboard``, ``newscore``, ``prboard`` and
``prscore`` (``init.c``, ``print.c``) and of the bonus cells of ``end.c``
(reference §8).  Positions and labels come from :mod:`mille.ui.layout`.

:class:`Board` reads the game and decides nothing: the app tells it when to
draw.  It makes the original's curses calls in the original's order, with
its display caches (what each field last showed), because the order and
the caches decide which bytes ncurses sends and produce the original's
visible quirks: a field is redrawn only when its value changes, so the
previous hand's discard stays on screen (§8.2), and a message written into
the score window shows only at that window's next refresh (§8.5).  The
caches live here, not in the game: the engine knows nothing about screens.
"""

from __future__ import annotations

import os

from ..engine import cards, scoring
from ..engine.cards import EMPTY, NAMES
from ..engine.state import EXTENDED_TRIP, Game, SafetyStatus
from .layout import (
    ACTION_CARD_WIDTH,
    ACTION_CARD_Y,
    ACTION_Y,
    ALL_SAFETIES,
    ALL_SAFETIES_CELL,
    ALL_SAFETIES_Y,
    BATTLE_Y,
    BOARD_LABELS,
    BONUS_CELLS,
    BONUS_Y,
    BORDER,
    BOTTOM,
    BOTTOM_X,
    BOTTOM_Y,
    CARD_START,
    CARD_WIDTH,
    CELL_OFFSET,
    COMPUTER,
    COUP_MARK,
    COUP_Y,
    DECK_WIDTH,
    DECK_X,
    DECK_Y,
    DISCARD_X,
    DISCARD_Y,
    ERR_WIDTH,
    ERR_X,
    ERR_Y,
    EXT_BANNER,
    EXT_X,
    EXT_Y,
    FULL_LABELS,
    FULL_TOTALS_Y,
    HAND_Y,
    HEADER,
    HEADER_X,
    HEADER_Y,
    LAYOUT_X,
    LAYOUT_Y,
    MILEAGE_Y,
    MILES_COLS,
    MILES_Y,
    MOVE_X,
    NO_POINTS_CELL,
    ORDER_HELP_X,
    ORDER_HELP_Y,
    OTHER_WIDTH,
    OTHER_X,
    SAFETY_Y,
    SCORE_LABELS,
    SCORE_ROWS,
    SMALL_LABELS,
    SMALL_TOTALS_Y,
    SPEED_Y,
    TOP_ROWS,
    VALUE_WIDTH,
    YOU,
    ScoreView,
    card_x,
    miles_x,
    order_help,
    value_x,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from .surface import Terminal
    from .surface import Window as CursesWindow


def fit_message(message: str) -> str:
    """Keep a message on the error line instead of wrapping into the border.

    Only file names make messages this long (``name [date]``): the name
    loses its directory, then the date its weekday, seconds and year,
    then the date goes, then the name loses its middle.  The original let
    them wrap and damage the border (§8.5, §12.9).
    """
    if len(message) <= ERR_WIDTH:
        return message
    head, sep, tail = message.partition(" [")
    if not sep or not tail.endswith("]"):
        return message[: ERR_WIDTH - 3] + "..."
    name = os.path.basename(head) or head
    date = tail[:-1]
    short_date = date[4:16] if len(date) >= 16 else date
    for when in (date, short_date):
        text = f"{name} [{when}]"
        if len(text) <= ERR_WIDTH:
            return text
    if len(name) <= ERR_WIDTH:
        return name
    keep = ERR_WIDTH - 3
    return f"{name[: keep // 2]}...{name[len(name) - (keep - keep // 2) :]}"


def fit_name(name: str) -> str:
    """``name`` (escaped already) fitted to the ``Comp`` heading's room: cut, and padded to clear it."""
    return name[:OTHER_WIDTH].ljust(OTHER_WIDTH)


class _Shown:
    """What the screen last showed for one player (the original's ``sh_`` fields)."""

    __slots__ = (
        "safety",
        "nummiles",
        "hand",
        "battle",
        "speed",
        "mileage",
        "hand_total",
        "safety_score",
        "total",
        "games",
        "was_finished",
    )

    def __init__(self) -> None:
        self.safety = [False] * cards.NUM_SAFETIES
        self.nummiles = [0] * cards.NUM_MILES
        self.hand = [EMPTY] * cards.HAND_SIZE
        self.battle = EMPTY
        self.speed = EMPTY
        self.mileage = -1
        self.hand_total = -1
        self.safety_score = -1
        self.total = -1
        self.games = -1
        self.was_finished = False


class Board:
    """The screen as the original drew it, with its display caches.

    ``window`` is the score window layout the player chose (the ``W`` key,
    saved with the game); the app sets it, the board only follows it.
    """

    def __init__(self, term: Terminal, game: Game, window: int = ScoreView.SMALL) -> None:
        self.term = term
        self.game = game
        self.window = window
        self.shown = [_Shown(), _Shown()]
        self.shown_discard = EMPTY
        self.first_board = True
        self.was_full = -1
        self.last_window = -1
        #: The other seat's name in the score window's ``Comp`` heading (a
        #: person's, already escaped); None: the original's ``Comp``.
        self.other_name: str | None = None

    def _windows(self) -> tuple[CursesWindow, CursesWindow, CursesWindow]:
        """The terminal's windows, indexed as the layout table's labels are."""
        term = self.term
        return term.board, term.score, term.miles

    # ------------------------------------------------------------------
    # A new hand (the original's newboard and newscore)

    def newboard(self) -> None:
        """Prepare the screen for a new hand: labels once, else blank the last hand."""
        board, miles = self.term.board, self.term.miles
        if self.first_board:
            board.erase()
            self.term.score.erase()
            windows = self._windows()
            for w, y, x, text in BOARD_LABELS:
                win = windows[w]
                win.move(y, x)
                win.addstr(text)
            for sh in self.shown:
                sh.hand = [EMPTY] * cards.HAND_SIZE
                sh.battle = EMPTY
                sh.speed = EMPTY
                sh.mileage = -1
            self.first_board = False
        else:
            for y in range(TOP_ROWS):
                board.move(y, 0)
                board.clrtoeol()
            miles.move(MILES_Y, 0)
            miles.clrtobot()
            board.move(ACTION_Y, MOVE_X)
            board.clrtoeol()
            board.move(ACTION_CARD_Y, MOVE_X)
            board.clrtoeol()
        # Not redrawn until it changes: the last hand's discard stays (§8.2).
        self.shown_discard = EMPTY
        for sh in self.shown:
            sh.safety = [False] * cards.NUM_SAFETIES
            sh.nummiles = [0] * cards.NUM_MILES
            sh.safety_score = -1
        self.newscore()

    def repaint(self) -> None:
        """The whole screen drawn again from the game, its labels first (something was shown over the board: the
        table's story, with people at two seats; never alone against the computer)."""
        self.first_board = True
        self.newboard()
        self.prboard()

    def newscore(self) -> None:
        """Build the score window's layout, small or full, if it is not the one shown (§8.3)."""
        game = self.game
        score = self.term.score
        if self.was_full < 0:
            self.was_full = int(self.window != ScoreView.FULL)
        full = self.window == ScoreView.FULL or game.finished
        new = False
        if score.inch(HEADER_Y, HEADER_X) != HEADER[0]:
            score.erase()
            for _, y, x, text in SCORE_LABELS:
                score.move(y, x)
                score.addstr(text)
            if self.other_name is not None:
                score.move(HEADER_Y, OTHER_X)
                score.addstr(fit_name(self.other_name))
            new = True
        elif full != bool(self.was_full):
            score.move(LAYOUT_Y, LAYOUT_X)
            score.clrtobot()
            new = True
        elif self.window != self.last_window:
            new = True
        if new:
            for y in range(SCORE_ROWS):
                score.move(y, 0)
                score.addstr(BORDER)
            score.move(BOTTOM_Y, BOTTOM_X)
            score.addstr(BOTTOM)
            for sh in self.shown:
                sh.hand_total = -1
                sh.total = -1
                sh.games = -1
                sh.safety_score = -1
        for sh in self.shown:
            sh.was_finished = not game.finished
        if full:
            if not self.was_full or new:
                for _, y, x, text in FULL_LABELS:
                    score.move(y, x)
                    score.addstr(text)
        elif self.was_full or new:
            for _, y, x, label in SMALL_LABELS:
                score.move(y, x)
                score.addstr(order_help(game.order) if label is None else label)
        self.was_full = int(full)
        self.last_window = self.window

    # ------------------------------------------------------------------
    # After every move (the original's prboard and prscore)

    def _show_card(self, y: int, x: int, card: int, shown: int) -> int:
        if card != shown:
            board = self.term.board
            board.move(y, x)
            board.addstr(f"{cards.name(card):<{CARD_WIDTH}.{CARD_WIDTH}}")
        return card

    def prboard(self) -> None:
        """Draw what changed since the last call, then refresh the three windows (§8.2, §8.4)."""
        game = self.game
        board, miles = self.term.board, self.term.miles
        for k in (YOU, COMPUTER):
            pp = game.players[k]
            sh = self.shown[k]
            col = card_x(k)
            for i in range(cards.NUM_SAFETIES):
                if pp.safety[i] == SafetyStatus.PLAYED and not sh.safety[i]:
                    board.move(i, col)
                    board.addstr(NAMES[i + cards.SAFETY_BASE])
                    if pp.coups[i]:
                        board.move(i, col - CARD_START)
                        board.addstr(COUP_MARK)
                    sh.safety[i] = True
            sh.battle = self._show_card(BATTLE_Y, col, pp.battle, sh.battle)
            sh.speed = self._show_card(SPEED_Y, col, pp.speed, sh.speed)
            for i in range(cards.NUM_MILES):
                played = pp.nummiles[i]
                if played == sh.nummiles[i]:
                    continue
                for j in range(sh.nummiles[i], played):
                    x = miles_x(k, j)
                    if x < MILES_COLS:
                        miles.move(MILES_Y + i, x)
                        miles.addstr(NAMES[i])
                sh.nummiles[i] = played
        self.prscore()
        human = game.players[YOU]
        sh = self.shown[YOU]
        for i in range(cards.HAND_SIZE):
            sh.hand[i] = self._show_card(HAND_Y + i, CARD_START, human.hand[i], sh.hand[i])
        board.move(DECK_Y, DECK_X)
        board.addstr(f"{game.deck_count:{DECK_WIDTH}d}")
        self.shown_discard = self._show_card(DISCARD_Y, DISCARD_X, game.discard, self.shown_discard)
        if game.trip_length == EXTENDED_TRIP:
            board.move(EXT_Y, EXT_X)
            board.standout()
            board.addstr(EXT_BANNER)
            board.standend()
        board.refresh()
        miles.refresh()
        self.term.score.refresh()

    def prscore(self) -> None:
        """Write the score values that changed into the score window (not refreshed) (§8.3)."""
        game = self.game
        score = self.term.score
        full = self.window == ScoreView.FULL or game.finished
        totals_y = FULL_TOTALS_Y if full else SMALL_TOTALS_Y
        for k in (YOU, COMPUTER):
            pp = game.players[k]
            sh = self.shown[k]
            x = value_x(k)
            sh.mileage = self._show_score(MILEAGE_Y, x, pp.mileage, sh.mileage)
            if pp.safety_score != sh.safety_score:
                score.move(SAFETY_Y, x)
                score.addstr(f"{pp.safety_score:{VALUE_WIDTH}d}")
                score.move(ALL_SAFETIES_Y, x + CELL_OFFSET)
                score.addstr(ALL_SAFETIES_CELL if pp.safety_score == ALL_SAFETIES else NO_POINTS_CELL)
                score.move(COUP_Y, x)
                score.addstr(f"{pp.coup_score:{VALUE_WIDTH}d}")
                sh.safety_score = pp.safety_score
            if full:
                self._final_score(k)
            sh.hand_total = self._show_score(totals_y[0], x, pp.hand_total, sh.hand_total)
            sh.total = self._show_score(totals_y[1], x, pp.total, sh.total)
            sh.games = self._show_score(totals_y[2], x, pp.games, sh.games)

    def _show_score(self, y: int, x: int, value: int, shown: int) -> int:
        if value != shown:
            score = self.term.score
            score.move(y, x)
            score.addstr(f"{value:{VALUE_WIDTH}d}")
        return value

    def _final_score(self, player: int) -> None:
        """The bonus cells of the full score window (the points are the engine's, §5.2)."""
        game = self.game
        sh = self.shown[player]
        if sh.was_finished == game.finished:
            return
        sh.was_finished = game.finished
        score = self.term.score
        col = value_x(player) + CELL_OFFSET
        for y in range(BONUS_Y, BONUS_Y + len(BONUS_CELLS)):
            score.move(y, col)
            score.addstr(NO_POINTS_CELL)
        if not game.finished:
            return
        bonuses = scoring.end_of_hand_bonuses(game, player)
        for y, (earned, text) in enumerate(zip(bonuses.rows(), BONUS_CELLS, strict=True), BONUS_Y):
            if earned:
                score.move(y, col)
                score.addstr(text)

    # ------------------------------------------------------------------
    # Single fields the app writes between repaints

    def show_order_help(self, order: bool) -> None:
        """The ``o:`` help row after the ``O`` key, at once (small layout only, §9.1)."""
        score = self.term.score
        score.move(ORDER_HELP_Y, ORDER_HELP_X)
        score.addstr(order_help(order))
        score.clrtoeol()

    def show_action(self, action: str, card: int) -> None:
        """The computer's last play or discard, under the prompt (§8.6)."""
        board = self.term.board
        board.move(ACTION_Y, MOVE_X)
        board.addstr(action + "\n")
        board.move(ACTION_CARD_Y, MOVE_X)
        board.addstr(f"{cards.name(card):>{ACTION_CARD_WIDTH}}")

    def show_message(self, message: str) -> None:
        """A message on the error line; it shows at the score window's next refresh (§8.5)."""
        score = self.term.score
        score.move(ERR_Y, ERR_X)
        score.addstr(fit_message(message))
        score.clrtoeol()

    def show_banner(self, message: str) -> None:
        """The restore banner on the error line (§10.4).

        Written with a newline, as the original did, rather than cleared to
        the end of the line; it shows with the first board.
        """
        score = self.term.score
        score.move(ERR_Y, ERR_X)
        score.addstr(fit_message(message) + "\n")

    def clear_message(self) -> None:
        """Blank the error line (before each computer decision, §6.3 step 0)."""
        score = self.term.score
        score.move(ERR_Y, ERR_X)
        score.clrtoeol()
