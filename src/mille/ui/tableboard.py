"""The board for 3, 4 and 6 seats (``mille --players N``, issues 38 and 44): an 80x24 screen and its keys.

The two-seat board (:mod:`mille.ui.board`, :mod:`mille.ui.layout`) is the
original's, byte for byte, and is not touched: a larger table is drawn
here, on the same three windows (:mod:`mille.ui.surface`: the board 17x40
at the top left, the score 17x40 at the top right, the miles 7x80 below),
so the terminal, its size check (refused below 80x23, as for two) and the
tests' in-memory terminal serve both.

* Each side has a box of eight lines (:func:`side_box`): who plays on it,
  its miles, its battle and speed piles, its safeties (a coup fourré
  marked ``*``), the distance cards played, the hand and overall totals
  and games, and the number of cards in each of its players' hands.  Sides
  A and B fill the left window; side C (at 3 and 6 seats) the top of the
  right one.
* The rest of the right window lists the hand's moves (:func:`move_line`:
  who, what, on which side), the newest last, so that the moves made since
  your last one are there when you are asked (``M`` pages back through the
  earlier ones).  ``W`` puts the score window there instead, the
  original's (:func:`score_lines`: each side's points broken down, the
  end-of-hand bonuses once the hand is over, which shows it as the
  original's full layout did), and ``?`` the keys until the next key.
* Below: your hand (``P`` and slots 1-6), the table (:func:`table_lines`:
  the trip, the deck, the discard pile, whose turn it is), the message
  line, the prompt line, and the keys (:func:`key_line`).

:class:`TableBoardFace` is the face (:class:`mille.ui.flow.Face`) the
game's flow holds at those tables, and the board a guest's run draws
(:mod:`mille.ui.people.guest`).  Its keys are the original's,
decoded by :mod:`mille.ui.keys`: a card's slot after ``U`` or ``D`` is
confirmed with RETURN or SPACE, the erase key takes it back and the kill
key cancels (:func:`mille.ui.dialogs.read_confirmed`, the original's
``getcard``); a hazard that two sides could take asks the side's letter
after the slot, confirmed the same way (``U 3 RETURN B RETURN``; at 4
seats there is one opposing side and no question).  The coup fourré out
of turn is a yes/no question, ``Coup fourre?``, as ``Extension?`` is.
"""

from __future__ import annotations

from ..engine import cards, rules, scoring
from ..engine.cards import EMPTY, SPEED_LIMIT
from ..engine.rules import DRAW, ORDER, Move, MoveType
from ..engine.state import EXTENDED_TRIP, Game, SafetyStatus
from . import keys
from .dialogs import read_confirmed
from .flow import COUP_PROMPT, EXTENSION_PROMPT, FILE_PROMPT, MOVE_PROMPT, PROMPTS, GameFlow, Request, Setup, as_seen
from .keys import Answer, Command, unctrl
from .layout import ALL_SAFETIES, BONUS_POINTS, FULL_LABELS, SCORE_LABELS, YOU, ScoreView
from .surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE, RESIZED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..engine.driver import Event
    from ..engine.observation import Observation
    from ..engine.rules import Outcome
    from ..players import Decision
    from .flow import Choice, Flow
    from .surface import Terminal, Window


__all__ = [
    "WATCHER",
    "TableBoardFace",
    "key_line",
    "key_list",
    "move_line",
    "score_lines",
    "side_box",
    "table_flow",
    "table_lines",
]

#: Width of a window's line that is written (one column short of the edge: curses' last column).
_WIDE = 39
#: The rows of the miles window (the bottom seven lines): your hand (two rows), the table (two), the
#: message, the prompt, the keys.
HAND_ROW, TABLE_ROW, MESSAGE_ROW, PROMPT_ROW, KEYS_ROW = 0, 2, 4, 5, 6
#: Rows of the right window: side C's box (at three sides) and the moves below it.
RIGHT_ROWS = 17
C_MOVES_ROW = 9
_SHORT = {
    cards.EXTRA_TANK: "Extra Tank",
    cards.PUNCTURE_PROOF: "Puncture Proof",
    cards.DRIVING_ACE: "Driving Ace",
    cards.RIGHT_OF_WAY: "Right of Way",
}
#: What a side can be attacked with: the battle pile's hazards and Speed Limit.
_HAZARDS = cards.HAZARDS | {SPEED_LIMIT}
#: The moves the board lists: the cards put on the table or the discard pile, and the Extension's answers.
#: A draw (each turn's first move, told by the deck's count) and a pass are not listed.
_LISTED = (MoveType.PLAY, MoveType.DISCARD, MoveType.EXTEND, MoveType.NO_EXTENSION)
#: The score window's rows that break a hand down, with the worth of each (the original's labels).
_DURING_PLAY = tuple(text for _, _, _, text in SCORE_LABELS[1:5])
_BONUS_LABELS = tuple(text for _, _, _, text in FULL_LABELS[: len(BONUS_POINTS)])


def table_flow(term: Terminal, game: Game, setup: Setup, face: TableBoardFace | None = None) -> GameFlow:
    """One program run at a larger table on the board: the flow holding a :class:`TableBoardFace`.

    ``face``: the board to hold (the host's with people,
    :class:`mille.ui.people.host.HostTableFace`); None: one for you
    alone against the computers.  The board is told every move made at the
    table as your seat sees it (:attr:`mille.ui.flow.GameFlow.told`), and
    lists them.
    """
    board = face if face is not None else TableBoardFace(term, game, window=setup.window)
    flow = GameFlow(board, game, setup)
    flow.told = board.moved
    return flow


def _letter(side: int) -> str:
    return "ABC"[side]


#: Who sits where, as a board names them: seat number -> a person's name (already escaped and cut).
Names = dict[int, str]

#: The seat a watcher's board is drawn for (``mille --watch``, docs/people.md): none, so no side is "yours", no
#: seat is "you", and no hand is shown (what the rows of one show instead is the board's :attr:`~TableBoardFace.rows`).
WATCHER = -1
#: The keys on a watcher's board.
WATCHER_KEYS = "t talk  q leave  w score  m earlier moves and talk  r redraw  ? keys"


def _seat(seat: int, me: int = YOU, names: Names | None = None) -> str:
    """``you`` for the board's own seat, a person's name (``--invite``, docs/people.md), or ``seat N``."""
    if seat == me:
        return "you"
    if names and seat in names:
        return names[seat]
    return f"seat {seat + 1}"


def _held(game: Game, seat: int, sizes: tuple[int, ...] | None = None) -> int:
    if sizes is not None:  # a guest's board: the other hands are hidden, their sizes told (docs/people.md)
        return sizes[seat]
    return cards.HAND_SIZE - game.players[seat].hand.count(EMPTY)


def side_box(
    game: Game, side: int, me: int = YOU, names: Names | None = None, sizes: tuple[int, ...] | None = None
) -> list[str]:
    """The eight lines of ``side``'s box, each at most 39 columns, seen from seat ``me`` (you)."""
    tab = game.table
    pp = game.players[side]
    seats = list(tab.partners(side))
    who = ", ".join(_seat(s, me, names) for s in seats)
    head = f"Side {_letter(side)}" + (" (yours)" if me != WATCHER and side == tab.side(me) else "") + f": {who}"
    miles = f"Miles {pp.mileage:4d} of {game.trip_length}"
    battle = cards.name(pp.battle) or "-"
    speed = "Limit" if pp.speed == SPEED_LIMIT else "-"
    safeties = [
        _SHORT[cards.SAFETY_BASE + i] + ("*" if pp.coups[i] else "")
        for i in range(cards.NUM_SAFETIES)
        if pp.safety[i] == SafetyStatus.PLAYED
    ]
    played = " ".join(f"{cards.MILES[i]}x{n}" if n > 1 else str(cards.MILES[i]) for i, n in enumerate(pp.nummiles) if n)
    lines = [
        head,
        f" {miles}  {'can go' if pp.can_go else 'stopped'}",
        f" Battle: {battle}  Speed: {speed}",
        " Safety: " + (", ".join(safeties[:2]) if safeties else "-"),
        "         " + ", ".join(safeties[2:]) if len(safeties) > 2 else "",
        f" Played: {played or '-'}",
        f" Hand {pp.hand_total:5d} Total {pp.total:5d} Games {pp.games}",
        " Cards: " + ", ".join(f"{_seat(s, me, names)} {_held(game, s, sizes)}" for s in seats),
    ]
    return [line[:_WIDE] for line in lines]


def table_lines(game: Game, me: int = YOU, names: Names | None = None) -> list[str]:
    """The table's two lines under your hand (the trip, the deck, the discard; the turn), each at most 79 columns."""
    turn = rules.seen_turn(game, me)  # a coup fourré asked of another seat is its secret (R10)
    side = _letter(game.table.side(turn))
    asked = " (coup fourre?)" if game.reaction is not None and game.to_move == me else ""
    return [
        f"Mille Bornes, {game.table.seats} seats   Trip {game.trip_length}   "
        f"Deck {max(game.deck_count, 0):3d} cards   Discard: {cards.name(game.discard) or '-'}",
        f"Turn: {_seat(turn, me, names)} (side {side}){asked}"[:79],
    ]


def hand_lines(game: Game, me: int = YOU) -> list[str]:
    """Your hand (seat ``me``'s), slot by slot (two lines of at most 79 columns)."""
    hand = game.players[me].hand
    cells = [f"{'P' if slot == 0 else slot}: {cards.name(card) or '-'}" for slot, card in enumerate(hand)]
    first = "Your hand  " + "  ".join(cells[:4])
    return [first[:79], ("           " + "  ".join(cells[4:]))[:79]]


def key_line(hints: bool) -> str:
    """The keys, on the bottom line (79 columns), as the original's small score window listed its commands."""
    last = "h hint" if hints else "? keys"
    return f"p pick  u # use  d # discard  o order  w score  m moves  s save  q quit  {last}"


def key_list() -> list[str]:
    """The keys, each said (``?``, or ``h`` without ``--hints``): the right window's lines, at most 39 columns."""
    return [
        "Keys (until the next key)",
        "p      pick a card",
        "u #    use the card in slot # (p or 0",
        "       for the one picked, 1 to 6),",
        "       then RETURN or SPACE",
        "d #    discard it, then RETURN or SPACE",
        "       erase takes # back, kill cancels",
        "u # b  a hazard on side B: the side is",
        "       asked when two could take it",
        "o      order your hand (again: do not)",
        "w      the score window (again: back)",
        "m      earlier moves of the hand",
        "s      save the game",
        "q      quit",
        "r, ^L  redraw the screen",
        "?, h   these keys",
    ]


def score_lines(game: Game, me: int = YOU) -> list[str]:
    """The score window (``W``): each side's points this hand as the original's window breaks them down.

    Milestones, the safeties, all four of them, the coups fourrés, and (once
    the hand is over) the end-of-hand bonuses, each side in a column with
    what each is worth; then the hand's total, the overall total and the
    games won.  The totals and the bonuses are :func:`mille.engine.scoring.hand_result`'s;
    17 lines of at most 39 columns.
    """
    sides = game.table.sides
    result = scoring.hand_result(game)
    players = game.players[:sides]

    def row(label: str, values: list[int] | tuple[int, ...], worth: int | None = None) -> str:
        cells = "".join(f"{value:5d}" for value in values)
        return f"{label:>17}{cells}" + (f"{worth:7d}" if worth is not None else "")

    rule = " " * 17 + " ----" * sides
    during = (
        row(_DURING_PLAY[0], [pp.mileage for pp in players]),
        row(_DURING_PLAY[1], [pp.safety_score for pp in players], scoring.SAFETY_POINTS),
        row(
            _DURING_PLAY[2],
            [scoring.ALL_SAFETIES_BONUS if pp.safety_score == ALL_SAFETIES else 0 for pp in players],
            scoring.ALL_SAFETIES_BONUS,
        ),
        row(_DURING_PLAY[3], [pp.coup_score for pp in players], scoring.COUP_BONUS),
    )
    earned = [bonuses.rows() if game.finished else (False,) * len(BONUS_POINTS) for bonuses in result.bonuses]
    bonus_rows = tuple(
        row(label, [worth if earned[side][i] else 0 for side in range(sides)], worth)
        for i, (label, worth) in enumerate(zip(_BONUS_LABELS, BONUS_POINTS, strict=True))
    )
    yours = "" if me == WATCHER else f": side {_letter(game.table.side(me))} yours"
    head = "Score, this hand" + (" (over)" if game.finished else "") + yours
    return [
        head[:_WIDE],
        " " * 17 + "".join(f"{_letter(side):>5}" for side in range(sides)) + "  Value",
        *during,
        *bonus_rows,
        rule,
        row("Hand Total", result.hand_totals),
        rule,
        row("Overall Total", result.totals),
        row("Games", [pp.games for pp in players]),
        "w: the moves again",
    ]


def move_line(event: Event, game: Game, me: int = YOU, names: Names | None = None) -> str | None:
    """One move made at the table, as the board lists it (at most 39 columns); None for a move not listed.

    ``seat 2 (B) played Stop on side A``; a safety that ``game`` shows as a
    coup fourré on the mover's side is said so (``seat 3 (C) coup fourre:
    Extra Tank``); a long name is cut, never what was done.
    """
    kind, card = event.kind, event.card
    name = cards.name(card)
    side = game.table.side(event.seat)
    if kind is MoveType.PLAY:
        if cards.is_distance(card):
            body = f"played {name} miles"
        elif event.target is not None:
            body = f"played {name} on side {_letter(event.target)}"
        elif cards.is_safety(card) and game.players[side].coups[card - cards.SAFETY_BASE]:
            body = f"coup fourre: {name}"
        else:
            body = f"played {name}"
    elif kind is MoveType.DISCARD:
        body = f"discarded {name}"
    elif kind is MoveType.EXTEND:
        body = f"extended the trip to {EXTENDED_TRIP}"
    elif kind is MoveType.NO_EXTENSION:
        body = "did not extend the trip"
    else:
        return None
    head = f" ({_letter(side)}) "
    who = _seat(event.seat, me, names)[: max(_WIDE - len(body) - len(head), 1)]
    return f"{who}{head}{body}"[:_WIDE]


def _put(win: Window, row: int, text: str) -> None:
    win.move(row, 0)
    win.addstr(text)
    win.clrtoeol()


class TableBoardFace:
    """The board of a larger table: drawn whole after every move, the original's keys read on its prompt line.

    ``me`` is the seat the board is drawn for (you: seat 0, or a guest's
    seat, :mod:`mille.ui.people.guest`), ``names`` the people's names by
    seat (escaped; other seats are ``seat N``), ``window`` the score
    window's layout (:class:`mille.ui.layout.ScoreView`: ``FULL`` when it
    is shown, saved with the game).

    What a guest's run uses (the host's face is the flow's): :meth:`show_view`
    (its seat's view and the hands' sizes), :meth:`moved` (each move at the
    table, from the host's ``moved`` message), :meth:`note` and :meth:`say`
    (the message line), :meth:`prompt` and :meth:`unprompt` (its own
    questions on the prompt line), :meth:`read_move`, :meth:`ask`,
    :meth:`error`, and :attr:`game`.
    """

    def __init__(
        self,
        term: Terminal,
        game: Game,
        me: int = YOU,
        names: Names | None = None,
        window: int = ScoreView.SMALL,
    ) -> None:
        self.term = term
        #: The game drawn (a guest's: its seat's view, :meth:`show_view`).
        self.game = game
        self.me = me
        self.names = names
        #: The hands' sizes by seat, on a guest's board (its game holds no other hand to count); None: counted.
        self.sizes: tuple[int, ...] | None = None
        self.flow: Flow
        #: The message line's text (drawn with the board).
        self.message = ""
        #: What the prompt line asks now ("" for nothing).
        self.prompting = ""
        #: ``--hints`` (``h`` and ``?`` ask the adviser; without, they show the keys): known once attached.
        self.advised = False
        #: A hint is on the message line: your next move clears it.
        self.hint_shown = False
        #: The score window's layout the person chose (``W``), and whether the score window is up now
        #: (it comes up at the end of a hand as the original's full layout did).
        self._window = window
        self.score_shown = window == ScoreView.FULL
        #: The hand's end was drawn (the score window came up once for it).
        self._over = False
        #: ``?``: the keys are shown in the right window until the next key.
        self.keys_shown = False
        #: The moves made at the table this hand that the board lists (:meth:`moved`), oldest first, and the lines
        #: of the table's talk and news among them (:meth:`noted`: with people).
        self.moves: list[Event | str] = []
        #: A watcher's board (:data:`WATCHER`): the two lines where a hand would be.
        self.rows = ["", ""]
        #: How many lines back from the newest the moves are shown (``M``; 0: the newest).
        self.back = 0

    @property
    def window(self) -> int:
        """The score window's layout (``W``), saved with the game: ``FULL`` while the person keeps it up."""
        return self._window

    def attach(self, flow: Flow) -> None:
        self.flow = flow
        self.advised = flow.hints is not None

    # ------------------------------------------------------------------
    # What a guest's run tells the board (the host's flow tells it the same through the face)

    def show_view(self, game: Game, sizes: tuple[int, ...] | None = None) -> None:
        """Draw ``game`` (a guest's: its seat's view) with the hands' ``sizes``; a new hand starts the moves afresh.

        A view of a hand in play after one of a hand over is the next deal.
        """
        if self.game.finished and not game.finished:
            self._new_hand()
        self.game = game
        self.sizes = sizes
        self.draw()

    def moved(self, event: Event) -> None:
        """A move made at the table, as every seat sees it (the driver's :class:`~mille.engine.driver.Event`).

        Noted for the moves' list, which the next drawing shows (the host's
        after the move, a guest's with the view that follows the host's
        ``moved`` message); a draw or a pass is not listed.
        """
        if event.kind in _LISTED:
            self.moves.append(event)
            self.back = 0

    def noted(self, line: str) -> None:
        """A line of the table's talk or news (escaped), listed with the moves (cut to the window)."""
        self.moves.append(line)
        self.back = 0

    def note(self, message: str) -> None:
        """The message line's text, shown with the next drawing of the board."""
        self.message = message

    def _new_hand(self) -> None:
        self.moves = []
        self.back = 0
        self._over = False
        self.score_shown = self._window == ScoreView.FULL

    # ------------------------------------------------------------------
    # Drawing

    def draw(self) -> None:
        """The whole board: the sides, the moves (or the score window, or the keys), your hand, the table.

        The cursor is left where it was on the prompt line, so that what is
        typed there is echoed after the prompt.
        """
        game = as_seen(self.game, self.me)
        if game.finished and not self._over:
            self._over = True
            self.score_shown = True  # as the original's full score window at the end of a hand
        term = self.term
        board, score, miles = term.board, term.score, term.miles
        me, names, sizes = self.me, self.names, self.sizes
        at = miles.getyx()
        board.erase()
        for row, line in enumerate(side_box(game, 0, me, names, sizes) + [""] + side_box(game, 1, me, names, sizes)):
            _put(board, row, line)
        score.erase()
        for row, line in enumerate(self._right(game)):
            _put(score, row, line)
        for row, line in enumerate(hand_lines(game, me) if me != WATCHER else self.rows):
            _put(miles, HAND_ROW + row, line)
        for row, line in enumerate(table_lines(game, me, names)):
            _put(miles, TABLE_ROW + row, line)
        _put(miles, MESSAGE_ROW, self.message[:79])
        _put(miles, KEYS_ROW, key_line(self.advised) if me != WATCHER else WATCHER_KEYS)
        miles.move(*at)
        board.refresh()
        score.refresh()
        miles.refresh()

    def _right(self, game: Game) -> list[str]:
        """The right window's lines: the keys (``?``), or the score window (``W``), or side C's box and the moves."""
        if self.keys_shown:
            return key_list()
        if self.score_shown:
            return score_lines(game, self.me)
        if game.table.sides == 3:
            top = side_box(game, 2, self.me, self.names, self.sizes) + [""]
            return top + self._move_lines(game, RIGHT_ROWS - C_MOVES_ROW)
        return self._move_lines(game, RIGHT_ROWS)

    def _listed(self, game: Game) -> list[str]:
        me, names = self.me, self.names
        listed = (e[:_WIDE] if isinstance(e, str) else move_line(e, game, me, names) for e in self.moves)
        return [line for line in listed if line is not None]

    def _move_lines(self, game: Game, rows: int) -> list[str]:
        """The moves in ``rows`` lines: a heading, then the newest that fit (or the page ``M`` went back to)."""
        lines = self._listed(game)
        page = rows - 1
        count = len(lines)
        back = min(self.back, max(count - page, 0))
        end = count - back
        start = max(end - page, 0)
        if not count:
            head = "Moves: none yet this hand"
        elif start == 0 and end == count:
            head = "Moves this hand"
        elif back == 0:
            head = f"Moves this hand, last {end - start} (m: earlier)"
        else:
            head = f"Moves {start + 1}-{end} of {count} (m: " + ("latest)" if start == 0 else "earlier)")
        return [head[:_WIDE], *lines[start:end]]

    def _page_back(self) -> None:
        """``M``: the page of moves before the one shown; from the first page, the newest again."""
        sides = self.game.table.sides
        page = RIGHT_ROWS - (C_MOVES_ROW if sides == 3 else 0) - 1
        count = len(self._listed(as_seen(self.game, self.me)))
        if count <= page:
            self.back = 0
            self.say("no earlier moves this hand")
        elif self.back >= count - page:
            self.back = 0
        else:
            self.back = min(self.back + page, count - page)

    def aside(self, text: str) -> None:
        """``text`` on the prompt line while nothing is asked there (a guest's note; the next prompt writes over it)."""
        if not self.prompting:
            self._write(PROMPT_ROW, text[:79])

    def say(self, message: str) -> None:
        """``message`` on the message line at once (the cursor stays on the prompt line)."""
        self.message = message
        self._write(MESSAGE_ROW, message[:79])

    def _write(self, row: int, text: str) -> None:
        miles = self.term.miles
        at = miles.getyx()
        _put(miles, row, text)
        miles.move(*at)
        miles.refresh()

    # ------------------------------------------------------------------
    # Keys

    def readch(self) -> int:
        """One key; the terminal's events go to the flow (as :meth:`mille.ui.dialogs.Dialogs.readch`).

        The keys shown by ``?`` go with the next key.
        """
        flow = self.flow
        flow.keep_snapshot()
        flow.catch_up()
        while True:
            byte = self.term.read_byte()
            if byte == RESIZED:
                continue
            if byte in (INTERRUPT, HANGUP, LEAVE, END_OF_INPUT):
                flow.on_event(byte)
                continue
            break
        if self.keys_shown:
            self.keys_shown = False
            self.draw()
        return byte

    def prompt(self, text: str) -> None:
        """``text`` on the prompt line, the cursor after it: what the board asks now."""
        self.prompting = text
        miles = self.term.miles
        _put(miles, PROMPT_ROW, text + " ")
        miles.refresh()

    def unprompt(self) -> None:
        """The prompt line emptied: nothing is asked of this board now."""
        self.prompting = ""
        miles = self.term.miles
        _put(miles, PROMPT_ROW, "")
        miles.refresh()

    def _echo(self, text: str) -> None:
        miles = self.term.miles
        miles.addstr(text)
        miles.refresh()

    def board_key(self, key: int) -> bool:
        """The keys that change the board and ask nothing (at the move prompt and at a question); True if taken.

        ``W`` the score window, ``M`` the earlier moves (the moves again
        first, if the score window is up), ``R`` or ^L a redraw, and ``?``
        (``h`` too without ``--hints``) the keys.
        """
        key = keys.upper(key)
        if key == ord("W"):
            self.score_shown = not self.score_shown
            self._window = ScoreView.FULL if self.score_shown else ScoreView.SMALL
        elif key == ord("M") and self.score_shown:  # the moves back first, the newest
            self.score_shown = False
            self._window = ScoreView.SMALL
            self.back = 0
        elif key == ord("M"):
            self._page_back()
        elif key == ord("R") or key == keys.CTRL_L:
            self.term.redraw()
        elif key in (ord("?"), ord("H")) and not self.advised:
            self.keys_shown = True
        else:
            return False
        self.draw()
        return True

    def error(self, message: str) -> None:
        """``message`` on the message line, with the bell."""
        self.term.bell()
        self.say(message)

    def read_move(self) -> Move | Request:
        try:
            return self._read_move()
        finally:
            self.prompting = ""  # answered: the line keeps the move typed, but asks nothing more

    def _read_move(self) -> Move | Request:
        """The move prompt, read as the original's ``getmove`` (§9.1) with the larger table's own keys."""
        term = self.term
        while True:
            self.prompt(PROMPTS[MOVE_PROMPT])
            c = self.readch()
            while c == term.kill_char or c == term.erase_char:
                c = self.readch()
            c = keys.upper(c)
            if keys.echoes_command(c):
                self._echo(chr(c))
            command = keys.decode_command(c)
            if command == Command.PICK:
                return DRAW
            if command == Command.USE or command == Command.DISCARD:
                move = self._card(command == Command.USE)
                if move is not None:
                    return move
            elif command == Command.ORDER:
                return ORDER
            elif command == Command.QUIT:
                return Request.QUIT
            elif command == Command.SAVE:
                return Request.SAVE
            elif command == Command.EXTRAPOLATE:
                self.error("E: command not implemented")
            elif command == Command.IGNORE:
                pass
            elif self.advised and c in keys.HINT_KEYS:
                return Request.HINT
            elif c == keys.TALK_KEY and self.flow.talks:
                return Request.TALK
            elif not self.board_key(c):
                self.error(f"unknown command: {unctrl(c)}")

    def _card(self, use: bool) -> Move | None:
        """The slot after ``U`` or ``D``, confirmed; for a hazard two sides could take, the side's letter too.

        None if the command was cancelled (the kill key, or the erase key
        before a key) or the hazard can go nowhere.
        """
        term = self.term
        miles = term.miles
        slot = read_confirmed(term, miles, self.readch, keys.card_slot)
        if slot < 0:
            return None
        if not use:
            return Move(MoveType.DISCARD, slot)
        game = self.game
        me = self.me
        mine = game.table.side(me)
        others = [side for side in range(game.table.sides) if side != mine]
        if game.players[me].hand[slot] not in _HAZARDS or len(others) == 1:
            return Move(MoveType.PLAY, slot)
        open_sides = [side for side in others if rules.play_refusal(game, me, slot, side) is None]
        if len(open_sides) <= 1:
            return Move(MoveType.PLAY, slot, open_sides[0] if open_sides else None)
        self._echo(f" side {'/'.join(_letter(side) for side in open_sides)}? ")
        letters = {ord(_letter(side)): side for side in open_sides}
        side = read_confirmed(term, miles, self.readch, letters.get)
        if side < 0:
            return None
        return Move(MoveType.PLAY, slot, side)

    def ask(self, prompt_no: int) -> bool | Request:
        """A yes or no on the prompt line (the original's ``getyn``, §9.3), cleared once answered.

        Left there, the question would stand answered on the board while the
        others play (``Coup fourre?`` out of turn while a person thinks), and
        read as still asked.  The board's own keys (``W``, ``M``, ``?``)
        work here too: at the end of a hand the score window is up, and
        ``W`` shows side C again.
        """
        asked_at = self.prompting  # a question asked at another (Really? at the move prompt): that one back
        while True:
            self.prompt(PROMPTS[prompt_no])
            c = self.readch()
            reply = keys.answer(c)
            if reply == Answer.YES or reply == Answer.NO or reply == Answer.SAVE:
                if asked_at:
                    self.prompt(asked_at)
                else:
                    self.unprompt()
                if reply == Answer.SAVE:
                    return Request.SAVE
                return reply == Answer.YES
            if self.advised and prompt_no in (EXTENSION_PROMPT, COUP_PROMPT) and c in keys.HINT_KEYS:
                return Request.HINT
            if not self.board_key(c):
                self._echo(unctrl(c))
                self.term.bell()

    def read_file_name(self) -> str:
        """The ``file:`` prompt: RETURN ends the name, the erase key takes a character back, the kill key all."""
        asked_at = self.prompting
        self.prompt(PROMPTS[FILE_PROMPT])
        name = ""
        term = self.term
        while True:
            byte = self.readch()
            if byte in keys.END_OF_NAME:
                self.prompting = asked_at
                return name
            if byte in (8, 127, term.erase_char):
                name = name[:-1]
            elif byte == term.kill_char:
                name = ""
            elif keys.isprint(byte) and len(name) < 60:
                name += chr(byte)
            self.prompt(PROMPTS[FILE_PROMPT] + " " + name)

    def choose(self, choice: Choice) -> str | Request:
        """``choice``'s words on the prompt line and a key (:meth:`mille.ui.flow.Face.choose`); the line given back
        once answered.  Another key rings the bell and says the keys on the message line."""
        asked_at = self.prompting
        try:
            while True:
                self.prompt(choice.prompt)
                key = self.readch()
                if key == 0x0C:
                    self.term.redraw()
                    self.draw()
                    continue
                answer = choice.answer(chr(key).lower() if 0 <= key < 128 else "")
                if answer is not None:
                    return answer
                self.term.bell()
                self.say(choice.keys_line())
        finally:  # answered, or ended by what a watch heard
            if asked_at:
                self.prompt(asked_at)
            else:
                self.unprompt()

    def poll(self) -> int | None:
        return self.term.poll()

    def wait(self, ready: int) -> int | None:
        return self.term.wait(ready)

    # ------------------------------------------------------------------
    # What happens

    def begin_hand(self, restored: bool) -> None:
        banner = self.flow.restore_banner
        self.message = banner if restored and banner is not None else ""
        self._new_hand()
        self.draw()

    def announce(self, made: Decision, observation: Observation) -> None:
        """Another seat is about to move: the message line is cleared (as the original's before the computer's
        move); the move itself is listed once made (:meth:`moved`)."""
        self.message = ""

    def show_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        """The board after a move (nothing while ``Extension?`` is open); a hint goes once you have moved."""
        if game.pending_extension is not None:
            return
        if self.hint_shown and seat == self.me:
            self.hint_shown = False
            self.message = ""
        if outcome.error is not None:
            self.term.bell()
            self.message = outcome.error
        self.draw()

    def hint(self, text: str) -> None:
        """The hint on the message line, until your next move."""
        self.say(text)
        self.hint_shown = True

    def tell(self, message: str) -> None:
        self.say(message)

    def save_begins(self) -> None:
        pass

    def save_ends(self, done: bool | None) -> None:
        pass
