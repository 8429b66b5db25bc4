"""The board's dialogs: the prompts, the keys read at them and their echo (§9).

A port of the original's ``getmove`` (``move.c``), ``getcard``, ``getyn``,
``readch``, ``prompt`` and ``error`` (``misc.c``) and the ``file:`` prompt of
``save.c``.  What a byte means is :mod:`mille.ui.keys`'; what is asked when,
and what an answer leads to, is the game's flow (:mod:`mille.ui.flow`); here
are the reading loops and the echo, every curses call in the original's
order, so that the screen a player sees (and the bytes curses sends) match
the original's, quirks included: the same prompt asked again only clears
its answer (§8.7), ``Really? N`` is left on the prompt line after an
interrupt (§9.5), a message written by the command reader shows only at
the next score refresh (§8.5).  One thing is not the original's: the end of
input is a hangup (the original gave up after about 100 failed reads and
kept nothing, §9.5).
"""

from __future__ import annotations

from ..engine.rules import DRAW, ORDER, Move, MoveType
from . import keys
from .board import Board
from .flow import EXTENSION_PROMPT, FILE_PROMPT, MOVE_PROMPT, PROMPTS, Flow, Request
from .keys import Answer, Command, unctrl
from .layout import BOARD_COLS, MOVE_X, MOVE_Y, ScoreView
from .surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE, RESIZED

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable

    from .surface import Terminal, Window

__all__ = ["NAME_WIDTH", "Dialogs", "read_confirmed"]

#: Room on the prompt line for a typed file name; longer names scroll
#: within it instead of wrapping over the hand (§12.4).
NAME_WIDTH = BOARD_COLS - (MOVE_X + len(PROMPTS[FILE_PROMPT]) + 1) - 1


class Dialogs:
    """The prompt line of the board: reads moves, answers and file names from the keys.

    ``flow`` is the game being played (quitting, saving, the hint and the
    terminal's events are its business); ``display`` is the board, for the
    keys that change it (``W``, ``O``).
    """

    def __init__(self, term: Terminal, display: Board, flow: Flow) -> None:
        self.term = term
        self.display = display
        self.flow = flow
        #: The prompt on the prompt line (one of :data:`mille.ui.flow.PROMPTS`), -1 for none yet.
        self.last_prompt = -1

    def readch(self) -> int:
        """One key; the terminal's events go to the flow (an interrupt opens ``Really?``, then the read goes on).

        Before waiting the game is noted for a crash save and the record of
        games is told what happened since the last key.

        The end of input is a hangup: the game is kept and the program
        leaves (status 1).  A terminal that goes away (an ssh drop, a
        closed window) fails every read at once, while the SIGHUP comes
        later (a shell passes it on to its job a moment after) or never (a
        game in a session of its own); the original gave up after about
        100 failed reads and kept nothing (§9.5).
        """
        flow = self.flow
        flow.keep_snapshot()
        flow.catch_up()
        while True:
            byte = self.term.read_byte()
            if byte == RESIZED:
                continue
            if byte == INTERRUPT or byte == HANGUP or byte == LEAVE or byte == END_OF_INPUT:
                flow.on_event(byte)
                continue
            return byte

    def getmove(self) -> Move | Request:
        """The move prompt: keys until one makes a move (§9.1), or a request for the flow (quit, save, hint).

        The flow acts on a request and calls again: the loop here starts
        over with the prompt, as the original's ``getmove`` did after it.
        """
        board = self.term.board
        flow = self.flow
        display = self.display
        while True:
            self.prompt(MOVE_PROMPT)
            board.leaveok(False)
            board.refresh()
            c = self.readch()
            while c == self.term.kill_char or c == self.term.erase_char:
                c = self.readch()
            c = keys.upper(c)
            if keys.echoes_command(c):
                board.addstr(chr(c))
                board.refresh()
            command = keys.decode_command(c)
            if command == Command.PICK:
                move = DRAW
                break
            if command == Command.USE or command == Command.DISCARD:
                slot = self.getcard()
                if slot < 0:
                    continue
                move = Move(MoveType.PLAY if command == Command.USE else MoveType.DISCARD, slot)
                break
            if command == Command.ORDER:
                if display.window == ScoreView.SMALL:
                    display.show_order_help(not flow.game.order)
                move = ORDER
                break
            if command == Command.QUIT:
                return Request.QUIT
            elif command == Command.WINDOW:
                display.window = ScoreView.FULL if display.window == ScoreView.SMALL else ScoreView.SMALL
                display.newscore()
                display.prscore()
                self.term.score.refresh()
            elif command == Command.REPRINT:
                self.term.redraw()
            elif command == Command.SAVE:
                return Request.SAVE
            elif command == Command.EXTRAPOLATE:
                self.error("E: command not implemented")
            elif command == Command.IGNORE:
                pass
            elif flow.hints is not None and c in keys.HINT_KEYS:
                return Request.HINT
            elif c == keys.TALK_KEY and flow.talks:
                return Request.TALK
            elif c == keys.STORY_KEY and flow.talks:
                return Request.STORY
            else:
                self.error(f"unknown command: {unctrl(c)}")
        board.leaveok(True)
        return move

    def getcard(self) -> int:
        """The slot after U or D; -1 if the command was cancelled (§9.2)."""
        return read_confirmed(self.term, self.term.board, self.readch, keys.card_slot)

    def getyn(self, prompt_no: int) -> bool | Request:
        """A yes/no question; S asks the flow to save (it then asks again), ^L repaints (§9.3)."""
        board = self.term.board
        flow = self.flow
        while True:
            board.leaveok(False)
            self.prompt(prompt_no)
            board.clrtoeol()
            board.refresh()
            c = self.readch()
            reply = keys.answer(c)
            if reply == Answer.NO or reply == Answer.YES:
                board.addstr(keys.ANSWER_ECHO[reply])
                board.refresh()
                board.leaveok(True)
                return reply == Answer.YES
            if reply == Answer.SAVE:
                board.addstr(keys.ANSWER_ECHO[reply])
                board.refresh()
                return Request.SAVE
            if reply == Answer.REPRINT:
                self.term.redraw()
            elif prompt_no == EXTENSION_PROMPT and flow.hints is not None and c in keys.HINT_KEYS:
                return Request.HINT
            else:
                board.addstr(unctrl(c))
                board.refresh()
                self.term.bell()

    def prompt(self, prompt_no: int) -> None:
        """Show a prompt at (MOVE_Y, MOVE_X); the same one again only clears its answer (§8.7)."""
        board = self.term.board
        text = PROMPTS[prompt_no]
        if prompt_no == self.last_prompt:
            board.move(MOVE_Y, MOVE_X + len(text) + 1)
        else:
            board.move(MOVE_Y, MOVE_X)
            if prompt_no == MOVE_PROMPT:
                board.standout()
            board.addstr(text)
            if prompt_no == MOVE_PROMPT:
                board.standend()
            board.addstr(" ")
            self.last_prompt = prompt_no
        board.clrtoeol()

    def error(self, message: str) -> None:
        """Write a message on the error line; it shows at the next score refresh (§8.5)."""
        self.display.show_message(message)
        self.term.bell()
        self.term.board.refresh()

    def read_file_name(self) -> str:
        """The ``file:`` prompt with erase and kill; RETURN ends it (§9.4)."""
        board = self.term.board
        while True:
            self.prompt(FILE_PROMPT)
            board.leaveok(False)
            board.refresh()
            typed: list[int] = []
            killed = False
            while True:
                c = self.readch()
                if c in keys.END_OF_NAME:
                    break
                if c == self.term.kill_char:
                    killed = True
                    break
                if c == self.term.erase_char:
                    if typed:
                        gone = typed.pop()
                        if _echo_width(typed) >= NAME_WIDTH:
                            self._show_name_tail(typed)
                        else:
                            for _ in range(keys.name_echo_backs(gone)):
                                board.addstr("\b")
                            board.clrtoeol()
                else:
                    typed.append(c)
                    if _echo_width(typed) > NAME_WIDTH:
                        self._show_name_tail(typed)
                    else:
                        board.addstr(unctrl(c))
                board.refresh()
            if killed:
                continue
            board.leaveok(True)
            # The original kept the name in a C string: a NUL ends it.
            return bytes(typed).split(b"\0", 1)[0].decode("utf-8", "surrogateescape")

    def _show_name_tail(self, typed: list[int]) -> None:
        """Long names scroll within the prompt line instead of wrapping over the hand (§12.4)."""
        echo = "".join(unctrl(c) for c in typed)
        board = self.term.board
        board.move(MOVE_Y, MOVE_X + len(PROMPTS[FILE_PROMPT]) + 1)
        board.addstr(echo[-NAME_WIDTH:])
        board.clrtoeol()


def _echo_width(typed: list[int]) -> int:
    return sum(len(unctrl(c)) for c in typed)


def read_confirmed(term: Terminal, win: Window, readch: Callable[[], int], decode: Callable[[int], int | None]) -> int:
    """A key chosen and confirmed, the original's ``getcard`` (§9.2): what ``decode`` makes of it, -1 if cancelled.

    RETURN, LF and SPACE before the key are skipped, and one of them after
    it confirms it; the erase key takes the key back (another is read), the
    kill key cancels, and so does either before a key; a key ``decode``
    refuses (None) rings the bell and is written over.  The echo is written
    at ``win``'s cursor (the board's prompt line on the original's board;
    the larger tables' board asks a slot and a hazard's side with it,
    :mod:`mille.ui.tableboard`).  ``decode`` is given the key upper-cased.
    """
    while True:
        c = readch()
        while c in keys.CONFIRM_KEYS:
            c = readch()
        c = keys.upper(c)
        if c == term.kill_char or c == term.erase_char:
            return -1
        win.addstr(unctrl(c))
        win.clrtoeol()
        chosen = decode(c)
        if chosen is None:
            term.bell()
            win.addstr("\b")
            if not keys.isprint(c):
                win.addstr("\b")
        win.refresh()
        if chosen is None:
            continue
        while True:
            c1 = readch()
            if c1 in keys.CONFIRM_KEYS:
                return chosen
            if c1 == term.kill_char:
                return -1
            if c1 == term.erase_char:
                win.addstr("\b")
                win.clrtoeol()
                win.refresh()
                break
            term.bell()
