"""The board for 3, 4 and 6 seats (``mille --players N``, issue 38): an 80x24 screen and its keys.

The two-seat board (:mod:`mille.ui.board`, :mod:`mille.ui.layout`) is the
original's, byte for byte, and is not touched: a larger table is drawn
here, on the same three windows (:mod:`mille.ui.surface`: the board 17x40
at the top left, the score 17x40 at the top right, the miles 7x80 below),
so the terminal, its size check (refused below 80x23, as for two) and the
tests' in-memory terminal serve both.

* Each side has a box of eight lines: who plays on it, its miles, its
  battle and speed piles, its safeties (a coup fourré marked ``*``), the
  distance cards played, the hand and overall totals and games, and the
  number of cards in each of its players' hands.  Sides A and B fill the
  board window; side C (at 3 and 6 seats) the top of the score window.
* The table: the trip, the deck, the discard pile and whose turn it is.
* Below: your hand (``P`` and slots 1-6), the message line and the prompt.

:class:`TableBoardFace` is the face (:class:`mille.ui.flow.Face`) the
game's flow holds at those tables: the original's keys (``P``, ``U`` and
``D`` with a slot, ``O``, ``S``, ``Q``, ``R`` or ``^L``), and for a hazard
the side's letter after the slot when two sides could take it (``U 3 B``),
asked on the prompt line; at 4 seats there is one opposing side and no
question.  The coup fourré out of turn is a yes/no question, ``Coup
fourre?``, as ``Extension?`` is.
"""

from __future__ import annotations

from ..engine import cards, rules
from ..engine.cards import EMPTY, OUT_OF_GAS, SPEED_LIMIT, STOP
from ..engine.rules import DRAW, ORDER, Move, MoveType
from ..engine.state import Game, SafetyStatus
from .flow import (
    COUP_PROMPT,
    EXTENSION_PROMPT,
    FILE_PROMPT,
    MOVE_PROMPT,
    PROMPTS,
    Flow,
    GameFlow,
    Request,
    Setup,
    as_seen,
)
from .layout import YOU
from .surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE, RESIZED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..engine.observation import Observation
    from ..engine.rules import Outcome
    from ..players import Decision
    from .flow import Choice
    from .surface import Terminal, Window

__all__ = ["TableBoardFace", "side_box", "table_flow"]

#: Width of a window's line that is written (one column short of the edge: curses' last column).
_WIDE = 39
#: The rows of the miles window (the bottom seven lines): the hand, the message, the prompt.
HAND_ROW, MESSAGE_ROW, PROMPT_ROW = 0, 4, 5
_SHORT = {
    cards.EXTRA_TANK: "Extra Tank",
    cards.PUNCTURE_PROOF: "Puncture Proof",
    cards.DRIVING_ACE: "Driving Ace",
    cards.RIGHT_OF_WAY: "Right of Way",
}


def table_flow(term: Terminal, game: Game, setup: Setup) -> GameFlow:
    """One program run at a larger table on the board: the flow holding a :class:`TableBoardFace`."""
    return GameFlow(TableBoardFace(term, game), game, setup)


def _letter(side: int) -> str:
    return "ABC"[side]


#: Who sits where, as a board names them: seat number -> a person's name (already escaped and cut).
Names = dict[int, str]


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
    head = f"Side {_letter(side)}" + (" (yours)" if side == tab.side(me) else "") + f": {who}"
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
    """The table's own lines (the trip, the deck, the discard, the turn), each at most 39 columns."""
    turn = rules.seen_turn(game, me)  # a coup fourré asked of another seat is its secret (R10)
    side = _letter(game.table.side(turn))
    asked = " (coup fourre?)" if game.reaction is not None and game.to_move == me else ""
    return [
        f"Mille Bornes, {game.table.seats} seats",
        f"Trip {game.trip_length}   Deck {max(game.deck_count, 0):3d} cards",
        f"Discard: {cards.name(game.discard) or '-'}",
        f"Turn: {_seat(turn, me, names)} (side {side}){asked}"[:_WIDE],
    ]


def hand_lines(game: Game, me: int = YOU) -> list[str]:
    """Your hand (seat ``me``'s), slot by slot (two lines of at most 79 columns)."""
    hand = game.players[me].hand
    cells = [f"{'P' if slot == 0 else slot}: {cards.name(card) or '-'}" for slot, card in enumerate(hand)]
    first = "Your hand  " + "  ".join(cells[:4])
    return [first[:79], ("           " + "  ".join(cells[4:]))[:79]]


def _put(win: Window, row: int, text: str) -> None:
    win.move(row, 0)
    win.addstr(text)
    win.clrtoeol()


class TableBoardFace:
    """The board of a larger table: drawn whole after every move, the original's keys read on its prompt line.

    ``me`` is the seat the board is drawn for (you: seat 0, or a guest's
    seat, :mod:`mille.ui.people.guest`), ``names`` the people's names by
    seat (escaped; other seats are ``seat N``); :attr:`sizes`, when set, the
    hands' sizes by seat (a guest's game holds no other hand to count).
    """

    def __init__(self, term: Terminal, game: Game, me: int = YOU, names: Names | None = None) -> None:
        self.term = term
        self.game = game
        self.me = me
        self.names = names
        self.sizes: tuple[int, ...] | None = None
        self.flow: Flow
        self.message = ""
        #: What the prompt line asks now ("" for nothing).
        self.prompting = ""

    @property
    def window(self) -> int:
        return 0

    def attach(self, flow: Flow) -> None:
        self.flow = flow

    # ------------------------------------------------------------------
    # Drawing

    def draw(self) -> None:
        """The whole board: the sides, the table, your hand, the message line."""
        game = as_seen(self.game, self.me)
        term = self.term
        board, score, miles = term.board, term.score, term.miles
        sides = game.table.sides
        board.erase()
        score.erase()
        me, names, sizes = self.me, self.names, self.sizes
        for row, line in enumerate(side_box(game, 0, me, names, sizes) + [""] + side_box(game, 1, me, names, sizes)):
            _put(board, row, line)
        right = side_box(game, 2, me, names, sizes) + [""] if sides == 3 else []
        for row, line in enumerate(right + table_lines(game, me, names)):
            _put(score, row, line)
        for row, line in enumerate(hand_lines(game, me)):
            _put(miles, HAND_ROW + row, line)
        _put(miles, MESSAGE_ROW, self.message[:79])
        board.refresh()
        score.refresh()
        miles.refresh()

    def say(self, message: str) -> None:
        self.message = message
        miles = self.term.miles
        _put(miles, MESSAGE_ROW, message[:79])
        miles.refresh()

    # ------------------------------------------------------------------
    # Keys

    def readch(self) -> int:
        """One key; the terminal's events go to the flow (as :meth:`mille.ui.dialogs.Dialogs.readch`)."""
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
            return byte

    def _prompt(self, text: str) -> None:
        self.prompting = text
        miles = self.term.miles
        _put(miles, PROMPT_ROW, text + " ")
        miles.refresh()

    def _unprompt(self) -> None:
        """The prompt line emptied: nothing is asked of this board now."""
        self.prompting = ""
        miles = self.term.miles
        _put(miles, PROMPT_ROW, "")
        miles.refresh()

    def _echo(self, text: str) -> None:
        miles = self.term.miles
        miles.addstr(text)
        miles.refresh()

    def read_move(self) -> Move | Request:
        try:
            return self._read_move()
        finally:
            self.prompting = ""  # answered: the line keeps the move typed, but asks nothing more

    def _read_move(self) -> Move | Request:
        while True:
            self._prompt(PROMPTS[MOVE_PROMPT])
            key = chr(self.readch()).upper()
            if key in "\x0cR":
                self.term.redraw()
                self.draw()
                continue
            self._echo(key)
            if key == "P":
                return DRAW
            if key == "O":
                return ORDER
            if key == "Q":
                return Request.QUIT
            if key == "S":
                return Request.SAVE
            if key in "H?" and self.flow.hints is not None:
                return Request.HINT
            if key in "UD":
                move = self._card(key == "U")
                if move is not None:
                    return move
                continue
            self.term.bell()
            self.say(f"{key!r}: P pick, U use, D discard (and a slot), O order, S save, Q quit, R redraw")

    def _card(self, use: bool) -> Move | None:
        key = chr(self.readch()).upper()
        slot = 0 if key in "P0" else int(key) if key in "123456" else -1
        if slot < 0:
            self.term.bell()
            self.say("a slot: P (or 0) for the card picked, 1 to 6")
            return None
        self._echo(key)
        if not use:
            return Move(MoveType.DISCARD, slot)
        game = self.game
        me = self.me
        card = game.players[me].hand[slot]
        hazard = OUT_OF_GAS <= card <= STOP or card == SPEED_LIMIT
        mine = game.table.side(me)
        others = [side for side in range(game.table.sides) if side != mine]
        if not hazard or len(others) == 1:
            return Move(MoveType.PLAY, slot)
        open_sides = [side for side in others if rules.play_refusal(game, me, slot, side) is None]
        if len(open_sides) <= 1:
            return Move(MoveType.PLAY, slot, open_sides[0] if open_sides else None)
        letters = "/".join(_letter(side) for side in open_sides)
        self._echo(f" side {letters}? ")
        key = chr(self.readch()).upper()
        chosen = [side for side in open_sides if _letter(side) == key]
        if not chosen:
            self.term.bell()
            self.say(f"a hazard goes to side {' or '.join(_letter(s) for s in open_sides)}")
            return None
        self._echo(key)
        return Move(MoveType.PLAY, slot, chosen[0])

    def ask(self, prompt_no: int) -> bool | Request:
        """A yes or no on the prompt line, cleared once answered.

        Left there, the question would stand answered on the board while the
        others play (``Coup fourre?`` out of turn while a person thinks), and
        read as still asked.
        """
        asked_at = self.prompting  # a question asked at another (Really? at the move prompt): that one back
        while True:
            self._prompt(PROMPTS[prompt_no])
            key = chr(self.readch()).upper()
            if key in "YNS":
                if asked_at:
                    self._prompt(asked_at)
                else:
                    self._unprompt()
            if key == "Y":
                return True
            if key == "N":
                return False
            if key == "S":
                return Request.SAVE
            if key in "H?" and self.flow.hints is not None and prompt_no in (EXTENSION_PROMPT, COUP_PROMPT):
                return Request.HINT
            if key in "\x0cR":
                self.term.redraw()
                self.draw()
                continue
            self.term.bell()

    def read_file_name(self) -> str:
        asked_at = self.prompting
        self._prompt(PROMPTS[FILE_PROMPT])
        name = ""
        while True:
            byte = self.readch()
            if byte in (10, 13):
                self.prompting = asked_at
                return name
            if byte in (8, 127, self.term.erase_char):
                name = name[:-1]
            elif 32 <= byte < 127 and len(name) < 60:
                name += chr(byte)
            self._prompt(PROMPTS[FILE_PROMPT] + " " + name)

    def choose(self, choice: Choice) -> str | Request:
        """``choice``'s words on the prompt line and a key (:meth:`mille.ui.flow.Face.choose`); the line given back
        once answered.  Another key rings the bell and says the keys on the message line."""
        asked_at = self.prompting
        try:
            while True:
                self._prompt(choice.prompt)
                key = self.readch()
                if key in (0x0C, ord("R"), ord("r")) and "r" not in choice.letters and choice.letters:
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
                self._prompt(asked_at)
            else:
                self._unprompt()

    def poll(self) -> int | None:
        return self.term.poll()

    def wait(self, ready: int) -> int | None:
        return self.term.wait(ready)

    # ------------------------------------------------------------------
    # What happens

    def begin_hand(self, restored: bool) -> None:
        banner = self.flow.restore_banner
        self.message = banner if restored and banner is not None else ""
        self.draw()

    def announce(self, made: Decision, observation: Observation) -> None:
        move = made.move
        if made.considered and move.kind in (MoveType.PLAY, MoveType.DISCARD):
            word = "DISCARD" if move.kind is MoveType.DISCARD else "PLAY"
            side = _letter(self.game.table.side(observation.seat))
            who = _seat(observation.seat, self.me, self.names)
            self.message = f"{who} (side {side}): {word} {cards.name(observation.hand[move.slot])}"

    def show_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        if game.pending_extension is not None:
            return
        if outcome.error is not None:
            self.term.bell()
            self.message = outcome.error
        self.draw()

    def hint(self, text: str) -> None:
        self.say(text)

    def tell(self, message: str) -> None:
        self.say(message)

    def error(self, message: str) -> None:
        self.term.bell()
        self.say(message)

    def save_begins(self) -> None:
        pass

    def save_ends(self, done: bool | None) -> None:
        pass
