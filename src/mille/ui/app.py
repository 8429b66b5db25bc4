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

from ..engine import rules
from ..engine.rules import DRAW, EXTEND, NO_EXTENSION, ORDER, Move, MoveType, Phase
from ..engine.state import Game
from . import keys
from .board import Board
from .keys import Answer, Command, unctrl
from .layout import (
    BOARD_COLS,
    MOVE_X,
    MOVE_Y,
    YOU,
    ScoreView,
)
from .surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE, RESIZED

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from ..engine.observation import Observation
    from ..engine.rng import GlibcRandom
    from ..engine.rules import Outcome
    from ..files.ledger import Recorder
    from ..players import Player
    from .hints import Adviser
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
#: file cannot be written.  :func:`mille.files.save.write_game` is one.
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
        stats: Callable[[], Recorder] | None = None,
        hints: Adviser | None = None,
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
        # Makes the player's record of games (mille.ledger) when it is first
        # needed, after the first board (start-up time); None: not kept.
        self._make_stats = stats
        self._stats: Recorder | None = None
        self._deferred: list[Callable[[Recorder], None]] = []
        #: The expert's advice on the hint key (``--hints``; None: the key is the original's).
        self.hints = hints
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
    def stats(self) -> Recorder | None:
        """The player's record of games (:class:`mille.files.ledger.Recorder`), or None when it is not kept."""
        if self._stats is None and self._make_stats is not None:
            self._stats = self._make_stats()
        return self._stats

    def record(self, event: Callable[[Recorder], None]) -> None:
        """Tell the record of games (if it is kept) of ``event``, once the screen is up to date.

        Writing the record (a file synced to disk, read once on a restore)
        must not hold up what the player sees: the original drew the next
        prompt at once.  So events wait for the next key read, when the
        screen is complete and the program would only wait, or for the way
        out; they are told in the order they happened.
        """
        if self._make_stats is not None:
            self._deferred.append(event)

    def catch_up(self) -> None:
        """Tell the record of games what has happened since the last key read."""
        while self._deferred:
            event = self._deferred.pop(0)
            stats = self.stats
            if stats is not None:
                event(stats)

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
            self.catch_up()
            if self._stats is not None:  # (never made: nothing happened to record)
                self._stats.leaving(self.game, self.computer_name)
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
                self.play_hand()
                ended, name = game.copy(), self.computer_name
                self.record(lambda stats, ended=ended, name=name: stats.hand_over(ended, name))  # type: ignore[misc]
                self.check_more()
                restore = False
                if rules.game_over(game):
                    break

    def play_hand(self) -> None:
        """Play the hand to its end through the engine's hand driver (:mod:`mille.engine.driver`).

        The person's seat reads keys (:class:`_PersonSeat`), the computer's
        asks its player (:meth:`computer_move`), and the screen is an
        observer (:class:`_Screen`): the same calls, in the same order, as
        the original's ``domove`` and main loop made.
        """
        # Imported here, not at the top: the first board does not need them.
        from ..engine.driver import play_hand

        seats = (_PersonSeat(self), _ComputerSeat(self))
        play_hand(self.game, seats, (self.computer_dice, self.computer_dice), observer=_Screen(self), strict=False)

    def computer_move(self, observation: Observation) -> Move:
        """The computer's move, with the original's board announcements (§8.6).

        The board announces a move the player weighed its hand for, ``PLAY``
        or ``DISCARD`` with the card; draws and safeties played on the spot
        are silent.  The player says which of its moves it weighed
        (:func:`mille.players.decision`; the original's procedure does, and
        for a player that does not, every play of a card that is not a
        safety, and every discard, counts).  ``Extension?`` is answered
        silently.
        """
        from ..players import decision

        player = self.computer
        if observation.phase is Phase.EXTENSION:
            return player.choose(observation, self.computer_dice)
        self.display.clear_message()
        made = decision(player, observation, self.computer_dice)
        move = made.move
        if made.considered:
            word = "DISCARD" if move.kind is MoveType.DISCARD else "PLAY"
            self.display.show_action(word, observation.hand[move.slot])
        return move

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
                else:
                    computer = self.computer_name
                    self.record(lambda stats: stats.saved(game, computer))

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
        self.catch_up()
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
                if self.window == ScoreView.SMALL:
                    self.display.show_order_help(not game.order)
                move = ORDER
                break
            if command == Command.QUIT:
                self.rub()
            elif command == Command.WINDOW:
                self.window = ScoreView.FULL if self.window == ScoreView.SMALL else ScoreView.SMALL
                self.display.newscore()
                self.display.prscore()
                self.term.score.refresh()
            elif command == Command.REPRINT:
                self.term.redraw()
            elif command == Command.SAVE:
                self.save()
            elif command == Command.EXTRAPOLATE:
                self.error("E: command not implemented")
            elif command == Command.IGNORE:
                pass
            elif self.hints is not None and c in keys.HINT_KEYS:
                self.show_hint()
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
            if reply == Answer.NO or reply == Answer.YES:
                board.addstr(keys.ANSWER_ECHO[reply])
                board.refresh()
                board.leaveok(True)
                return reply == Answer.YES
            if reply == Answer.SAVE:
                board.addstr(keys.ANSWER_ECHO[reply])
                board.refresh()
                self.saved = self.save()
                continue
            if reply == Answer.REPRINT:
                self.term.redraw()
            elif prompt_no == EXTENSION_PROMPT and self.hints is not None and c in keys.HINT_KEYS:
                self.show_hint()
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
        saved, computer = self.game.copy(), self.computer_name
        self.record(lambda stats: stats.saved(saved, computer))
        self.display.show_message(f"{name} [{time.ctime()}]")  # C ctime() layout
        self.term.score.refresh()
        return True

    def show_hint(self) -> None:
        """The hint key (``--hints``): the expert's move from the person's seat, on the message line.

        The adviser is shown the person's observation only, as any player
        is; ``thinking...`` goes up first if it takes more than a blink.
        """
        assert self.hints is not None
        from ..engine.observation import observe

        def thinking() -> None:
            self.display.show_message("thinking...")
            self.term.score.refresh()

        text = self.hints.advise(observe(self.game, YOU), thinking)
        self.display.show_message(text)
        self.term.score.refresh()
        self.record(lambda stats: stats.hint_used())


class _PersonSeat:
    """The person's seat: moves and answers read from the keys (§9)."""

    def __init__(self, app: MilleApp) -> None:
        self.app = app

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        if observation.phase is Phase.EXTENSION:
            return EXTEND if self.app.getyn(EXTENSION_PROMPT) else NO_EXTENSION
        return self.app.getmove()


class _ComputerSeat:
    """The computer's seat: its player, with the board's announcements."""

    def __init__(self, app: MilleApp) -> None:
        self.app = app

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        return self.app.computer_move(observation)


class _Screen:
    """The hand driver's observer: the screen after every move, as the original's loop drew it.

    An error goes to the error line after the move (and after its
    ``Extension?`` answer, which comes at once, before anything is drawn);
    then the score window switches to the full layout if the hand is over,
    and the board is brought up to date.
    """

    def __init__(self, app: MilleApp) -> None:
        self.app = app

    def before_move(self, game: Game) -> None:
        self.app.between_moves()

    def after_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        if seat == YOU:
            self.app.record(lambda stats: stats.moved())  # quitting unsaved now abandons the game
        if game.pending_extension is not None:
            return
        if outcome.error is not None:
            self.app.error(outcome.error)
        display = self.app.display
        if game.finished:
            display.newscore()
        display.prboard()
