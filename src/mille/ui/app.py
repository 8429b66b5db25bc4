"""The interactive game: the original's main loop, prompts and dialogs.

A port of the original's ``main`` (``mille.c``), ``domove`` and ``getmove``
(``move.c``), ``getcard``, ``getyn``, ``check_more`` and ``error``
(``misc.c``) and the dialog half of ``save.c``.  The front end is split by
role, and this module is the part that decides:

* :mod:`mille.ui.board` draws (the board, the score window, the miles, with
  their display caches); :class:`MilleApp` tells it when, in the original's
  order;
* :mod:`mille.ui.keys` says what a byte means (§9); the readers here keep
  the reading loops and the echo;
* :mod:`mille.ui.layout` holds every screen position and label (§8).

Every curses call is made in the original's order, so the screen a player
sees (and the bytes curses sends) match the original, including its timing
quirks: messages written by the command reader appear only at the next
score refresh (§8.5), the previous hand's discard stays on screen (§8.2),
``Really? N`` is left on the prompt line after an interrupt (§9.5), and so on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from .. import cards, rules
from ..rules import DRAW, EXTEND, NO_EXTENSION, ORDER, PASS, Move, MoveType, Phase
from ..state import Game
from . import keys
from .board import Board
from .keys import Answer, Command, unctrl
from .layout import (
    BOARD_COLS,
    COMPUTER,
    MOVE_X,
    MOVE_Y,
    YOU,
    ScoreView,
)
from .surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE, RESIZED

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from ..players import Player
    from ..players.bsd import Decision
    from ..rng import GlibcRandom
    from .surface import Terminal

__all__ = [
    "ANOTHER_GAME_PROMPT",
    "ANOTHER_HAND_PROMPT",
    "EXTENSION_PROMPT",
    "FILE_PROMPT",
    "MOVE_PROMPT",
    "NAME_WIDTH",
    "OVERWRITE_PROMPT",
    "PROMPTS",
    "REALLY_PROMPT",
    "SAME_FILE_PROMPT",
    "SAVE_GAME_PROMPT",
    "GameExit",
    "HangupSaver",
    "MilleApp",
    "SaveWriter",
]

#: The prompts (§9.1, §9.3, §9.4), all at (MOVE_Y, MOVE_X), by number.
MOVE_PROMPT = 0
REALLY_PROMPT = 1
ANOTHER_HAND_PROMPT = 2
ANOTHER_GAME_PROMPT = 3
SAVE_GAME_PROMPT = 4
SAME_FILE_PROMPT = 5
FILE_PROMPT = 6
EXTENSION_PROMPT = 7
OVERWRITE_PROMPT = 8
PROMPTS = (
    ">>:Move:",
    "Really?",
    "Another hand?",
    "Another game?",
    "Save game?",
    "Same file?",
    "file:",
    "Extension?",
    "Overwrite file?",
)
#: Room on the prompt line for a typed file name; longer names scroll
#: within it instead of wrapping over the hand (§12.4).
NAME_WIDTH = BOARD_COLS - (MOVE_X + len(PROMPTS[FILE_PROMPT]) + 1) - 1
#: Ends of input in a row after which the program leaves (§9.5).
MAX_EOF = 100


class GameExit(Exception):
    """Leave the program with this status (the original's ``die``)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


#: Saves a game: (file name, copy of the game, score window, computer
#: player's name) -> None; raises OSError (shown with its strerror) when the
#: file cannot be written.  :func:`mille.save.write_game` is one.
SaveWriter = Callable[[str, Game, int, str], None]
#: Saves a game when the terminal goes away: (game, window, computer).
HangupSaver = Callable[[Game, int, str], None]


class MilleApp:
    """One program run: the game loop, the prompts and the dialogs.

    Drawing is :attr:`display`'s (a :class:`~mille.ui.board.Board`); the
    app decides what happens and when the board is drawn.
    """

    def __init__(
        self,
        term: Terminal,
        game: Game,
        *,
        save_writer: SaveWriter | None = None,
        hangup_saver: HangupSaver | None = None,
        from_file: str | None = None,
        restore_banner: str | None = None,
        window: int = ScoreView.SMALL,
        computer: Player | None = None,
        computer_name: str = "bsd",
        computer_dice: GlibcRandom | None = None,
    ) -> None:
        self.term = term
        self.game = game
        self.save_writer = save_writer
        self.hangup_saver = hangup_saver
        self.from_file = from_file
        self.restore_banner = restore_banner
        #: The screen: board, score window and miles, with their caches.
        self.display = Board(term, game, window)
        # The computer seat's player (None: the original's, made when first
        # asked, so that its modules load after the first board).
        self._computer = computer
        self.computer_name = computer_name
        self.computer_dice = game.rng if computer_dice is None else computer_dice
        self.last_prompt = -1
        self.saved = False
        self.in_interrupt = False
        self.eof_count = 0
        #: The game as it last stood between moves or at a key read, for a
        #: crash save (:meth:`keep_snapshot`); None before the first.
        self.last_good: Game | None = None

    @property
    def computer(self) -> Player:
        """The computer seat's player.

        The original's by default (§6), rolling its dice on the game's own
        generator as the original did.
        """
        if self._computer is None:
            from ..players.bsd import BsdPlayer

            self._computer = BsdPlayer()
        return self._computer

    @property
    def window(self) -> int:
        """The score window layout (the ``W`` key, §8.3), saved with the game."""
        return self.display.window

    @window.setter
    def window(self, window: int) -> None:
        self.display.window = window

    # ------------------------------------------------------------------
    # The main loop (the original's main, §3.1)

    def run(self, restore: bool = False) -> int:
        """Play until the player quits; returns the exit status."""
        try:
            self._main_loop(restore)
        except GameExit as leave:
            return leave.status
        return 0  # pragma: no cover - the loop only ends by GameExit

    def _main_loop(self, restore: bool) -> None:
        game = self.game
        display = self.display
        while True:
            # The original settles a restored game whose total reached 5000
            # even when the save was made in the middle of a hand (totals may
            # pass 5000 mid-hand, §5.4), which zeroes the totals under the
            # hand's points; here only a finished hand is settled on restore.
            if not restore or (game.finished and rules.game_over(game)):
                rules.settle_game(game)
            while True:
                # A save made at the end-of-hand questions restores to a new deal.
                if not restore or game.finished:
                    rules.start_hand(game, resumed=restore)
                display.newboard()
                if restore and self.restore_banner is not None:
                    display.show_banner(self.restore_banner)
                display.prboard()
                while not game.finished:
                    self.domove()
                    if game.finished:
                        display.newscore()
                    display.prboard()
                self.check_more()
                restore = False
                if rules.game_over(game):
                    break

    def domove(self) -> None:
        """One turn of the game loop, as the rules' :func:`~mille.rules.phase` directs."""
        self.between_moves()
        game = self.game
        phase = rules.phase(game)
        if phase is Phase.EMPTY_HAND:
            rules.push(game, PASS)
            return
        if phase is Phase.EXTENSION:  # restored at the question
            self.answer_extension()
            return
        move = self.getmove() if game.to_move == YOU else self.calcmove()
        outcome = rules.push(game, move)
        if game.pending_extension is not None:
            # The card reached the trip's end: the question comes before anything is drawn.
            self.answer_extension()
        if outcome.error is not None:
            self.error(outcome.error)

    def calcmove(self) -> Move:
        """The computer's move, with the original's board announcements (§8.6)."""
        self.display.clear_message()
        decision = self._computer_decision()
        if decision.announce is not None:
            card = self.game.players[COMPUTER].hand[decision.move.slot]
            self.display.show_action(decision.announce, card)
        return decision.move

    def _computer_decision(self) -> Decision:
        """Ask the computer's player, shown only what its seat may see."""
        # Imported here, not at the top: the first board does not need them.
        from ..observation import observe
        from ..players.bsd import BsdPlayer, Decision

        obs = observe(self.game, COMPUTER)
        player = self.computer
        if isinstance(player, BsdPlayer):
            return player.decide(obs, self.computer_dice)
        move = player.choose(obs, self.computer_dice)
        if move.kind is MoveType.PLAY and obs.hand[move.slot] < cards.SAFETY_BASE:
            return Decision(move, "PLAY")
        if move.kind is MoveType.DISCARD:
            return Decision(move, "DISCARD")
        return Decision(move)

    def answer_extension(self) -> None:
        """``Extension?``: the human is asked, the computer's player decides silently."""
        game = self.game
        if game.to_move == YOU:
            extend = self.getyn(EXTENSION_PROMPT)
        else:
            extend = self._computer_decision().move.kind is MoveType.EXTEND
        rules.push(game, EXTEND if extend else NO_EXTENSION)

    def check_more(self) -> None:
        """End-of-hand questions: another hand or game, then perhaps save (§5.5)."""
        game = self.game
        if rules.game_over(game):
            if self.getyn(ANOTHER_GAME_PROMPT):
                return
            rules.settle_game(game)
        elif self.getyn(ANOTHER_HAND_PROMPT):
            return
        if not self.saved and self.getyn(SAVE_GAME_PROMPT) and not self.save():
            return
        self.die(0)

    def hangup(self) -> None:
        """The terminal went away (or we were told to stop): keep the game, leave."""
        self._keep_game()
        self.die(1)

    def leave(self) -> None:
        """Quit from the too-small-terminal message: the game is kept as on a hangup, status 0."""
        self._keep_game()
        self.die(0)

    def _keep_game(self) -> None:
        if self.hangup_saver is not None:
            game = self.game.copy() if self._savable(self.game) else self.last_good
            if game is not None:
                try:
                    self.hangup_saver(game, self.window, self.computer_name)
                except OSError:
                    pass

    @staticmethod
    def _savable(game: Game) -> bool:
        """Can ``game`` go in a save file?  Not with the computer's ``Extension?`` open.

        The computer answers its own question inside its move, so a file
        never holds it (``mille.save`` refuses one that does).
        """
        return game.pending_extension is None or game.to_move == YOU

    def keep_snapshot(self) -> None:
        """Note the game as it stands, consistent, for a crash save.

        Called between moves and at every key read: the game is whole at
        both (a save can be made at any prompt), so a failure later in a
        move loses at most that move.
        """
        if self._savable(self.game):
            self.last_good = self.game.copy()

    def between_moves(self) -> None:
        """Act on what the terminal reported while the game moved without reading keys.

        Signals become terminal events, which a key read hands over; a game
        that moves without reading keys (the computer thinking, a seat with
        no cards passing, a computer player stuck on a refused move) would
        otherwise never hear a hangup or an interrupt.  So between moves:
        a hangup saves and leaves (exit 1), an interrupt opens ``Really?``
        as the original's handler did at once (§9.5), and a request to leave
        from the too-small message leaves.  The game is noted for a crash
        save first.
        """
        self.keep_snapshot()
        event = self.term.poll()
        if event == HANGUP:
            self.hangup()
        elif event == LEAVE:
            self.leave()
        elif event == INTERRUPT and not self.in_interrupt:
            self.rub()

    def die(self, status: int) -> None:
        raise GameExit(status)

    def rub(self) -> None:
        """The interrupt key or Q: make sure the player really wants to quit (§9.5)."""
        self.in_interrupt = True
        try:
            if self.getyn(REALLY_PROMPT):
                self.die(0)
        finally:
            self.in_interrupt = False

    # ------------------------------------------------------------------
    # Drawing: the board's, in the order the loop calls it

    def newboard(self) -> None:
        self.display.newboard()

    def newscore(self) -> None:
        self.display.newscore()

    def prboard(self) -> None:
        self.display.prboard()

    def prscore(self) -> None:
        self.display.prscore()

    # ------------------------------------------------------------------
    # Input (§9): keys.py says what a byte means; the echo is made here

    def readch(self) -> int:
        """One key; an interrupt opens ``Really?`` and then the read goes on."""
        self.keep_snapshot()
        while True:
            byte = self.term.read_byte()
            if byte == INTERRUPT:
                if not self.in_interrupt:
                    self.rub()
                continue
            if byte == RESIZED:
                continue
            if byte == HANGUP:
                self.hangup()
                continue
            if byte == LEAVE:
                self.leave()
                continue
            if byte == END_OF_INPUT:
                self.eof_count += 1
                if self.eof_count > MAX_EOF:
                    self.die(1)
                continue
            self.eof_count = 0
            return byte

    def getmove(self) -> Move:
        """The move prompt: keys until one makes a move (§9.1)."""
        board = self.term.board
        game = self.game
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
            if command is Command.PICK:
                move = DRAW
                break
            if command is Command.USE or command is Command.DISCARD:
                slot = self.getcard()
                if slot < 0:
                    continue
                move = Move(MoveType.PLAY if command is Command.USE else MoveType.DISCARD, slot)
                break
            if command is Command.ORDER:
                if self.window == ScoreView.SMALL:
                    self.display.show_order_help(not game.order)
                move = ORDER
                break
            if command is Command.QUIT:
                self.rub()
            elif command is Command.WINDOW:
                self.window = ScoreView.FULL if self.window == ScoreView.SMALL else ScoreView.SMALL
                self.display.newscore()
                self.display.prscore()
                self.term.score.refresh()
            elif command is Command.REPRINT:
                self.term.redraw()
            elif command is Command.SAVE:
                self.save()
            elif command is Command.EXTRAPOLATE:
                self.error("E: command not implemented")
            elif command is Command.IGNORE:
                pass
            else:
                self.error(f"unknown command: {unctrl(c)}")
        board.leaveok(True)
        return move

    def getcard(self) -> int:
        """The slot after U or D; -1 if the command was cancelled (§9.2)."""
        board = self.term.board
        while True:
            c = self.readch()
            while c in keys.CONFIRM_KEYS:
                c = self.readch()
            c = keys.upper(c)
            if c == self.term.kill_char or c == self.term.erase_char:
                return -1
            board.addstr(unctrl(c))
            board.clrtoeol()
            slot = keys.card_slot(c)
            if slot is None:
                self.term.bell()
                board.addstr("\b")
                if not keys.isprint(c):
                    board.addstr("\b")
            board.refresh()
            if slot is None:
                continue
            while True:
                c1 = self.readch()
                if c1 in keys.CONFIRM_KEYS:
                    return slot
                if c1 == self.term.kill_char:
                    return -1
                if c1 == self.term.erase_char:
                    board.addstr("\b")
                    board.clrtoeol()
                    board.refresh()
                    break
                self.term.bell()

    def getyn(self, prompt_no: int) -> bool:
        """A yes/no question; S saves and asks again, ^L repaints (§9.3)."""
        board = self.term.board
        self.saved = False
        while True:
            board.leaveok(False)
            self.prompt(prompt_no)
            board.clrtoeol()
            board.refresh()
            c = self.readch()
            reply = keys.answer(c)
            if reply is Answer.NO or reply is Answer.YES:
                board.addstr(keys.ANSWER_ECHO[reply])
                board.refresh()
                board.leaveok(True)
                return reply is Answer.YES
            if reply is Answer.SAVE:
                board.addstr(keys.ANSWER_ECHO[reply])
                board.refresh()
                self.saved = self.save()
                continue
            if reply is Answer.REPRINT:
                self.term.redraw()
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

    # ------------------------------------------------------------------
    # Messages and saving

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
                        if self._echo_width(typed) >= NAME_WIDTH:
                            self._show_name_tail(typed)
                        else:
                            for _ in range(keys.name_echo_backs(gone)):
                                board.addstr("\b")
                            board.clrtoeol()
                else:
                    typed.append(c)
                    if self._echo_width(typed) > NAME_WIDTH:
                        self._show_name_tail(typed)
                    else:
                        board.addstr(unctrl(c))
                board.refresh()
            if killed:
                continue
            board.leaveok(True)
            # The original kept the name in a C string: a NUL ends it.
            return bytes(typed).split(b"\0", 1)[0].decode("utf-8", "surrogateescape")

    @staticmethod
    def _echo_width(typed: list[int]) -> int:
        return sum(len(unctrl(c)) for c in typed)

    def _show_name_tail(self, typed: list[int]) -> None:
        """Long names scroll within the prompt line instead of wrapping over the hand (§12.4)."""
        echo = "".join(unctrl(c) for c in typed)
        board = self.term.board
        board.move(MOVE_Y, MOVE_X + len(PROMPTS[FILE_PROMPT]) + 1)
        board.addstr(echo[-NAME_WIDTH:])
        board.clrtoeol()

    def save(self) -> bool:
        """The save dialog (§10.1); True if the game was written.

        The game is saved as it is: at ``Extension?`` it holds the question
        itself (the card counted and still in the hand), so the save is
        consistent and a restore asks again (§12.3).
        """
        name: str
        if self.from_file is not None and self.getyn(SAME_FILE_PROMPT):
            name = self.from_file
        else:
            name = self.read_file_name()
            if not name:
                return False
            # lexists: a dangling symbolic link is an existing name too.
            if self.from_file is None and os.path.lexists(name) and not self.getyn(OVERWRITE_PROMPT):
                return False
        if self.save_writer is None:
            self.error("saving is not available")
            return False
        try:
            self.save_writer(name, self.game.copy(), self.window, self.computer_name)
        except OSError as exc:
            self.error(exc.strerror or str(exc))
            return False
        self.display.show_message(f"{name} [{time.ctime()}]")  # C ctime() layout
        self.term.score.refresh()
        return True
