"""The interactive game on the board: the face that shows the game's flow on the curses screen.

:class:`BoardFace` is the face (:class:`mille.ui.flow.Face`) that the
game's flow (:class:`mille.ui.flow.GameFlow`: the loop, the seats, the
questions, the record of games, the keeping) holds to show the game on the
original's screen; :func:`board_flow` makes the two:

* :mod:`mille.ui.board` draws (the board, the score window, the miles, with
  their display caches); the methods here tell it when, in the original's
  order (the original's main loop and ``domove``);
* :mod:`mille.ui.dialogs` reads the keys at the prompts (``getmove``,
  ``getcard``, ``getyn``, ``file:``) and echoes them;
* :mod:`mille.ui.keys` says what a byte means (§9), :mod:`mille.ui.layout`
  where everything goes (§8).

Every curses call is made in the original's order, so the screen a player
sees (and the bytes curses sends) match the original, including its timing
quirks: messages written by the command reader appear only at the next
score refresh (§8.5), the previous hand's discard stays on screen (§8.2),
``Really? N`` is left on the prompt line after an interrupt (§9.5), and so on.
"""

from __future__ import annotations

from ..engine.rules import Move, MoveType
from ..engine.state import Game
from .board import Board
from .dialogs import Dialogs
from .flow import Flow, GameFlow, Request, Setup, as_seen
from .layout import MOVE_X, MOVE_Y, YOU

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from ..engine.observation import Observation
    from ..engine.rules import Outcome
    from ..players import Decision
    from .flow import Choice
    from .surface import Terminal

__all__ = ["BoardFace", "board_flow"]


def board_flow(term: Terminal, game: Game, setup: Setup) -> GameFlow:
    """One program run on the board: the game's flow holding a :class:`BoardFace` on ``term``.

    ``setup`` is what the run was given (:class:`mille.ui.flow.Setup`: the
    computer seat's player, its name and dice, chosen by the caller; the
    banner of a restored game's first board; the score window layout it
    was saved with; the save writer, the keeper, the record, the hints).
    """
    return GameFlow(BoardFace(term, game, setup.window), game, setup)


class BoardFace:
    """The board: the game drawn by :attr:`display`, asked by :attr:`dialogs`."""

    def __init__(self, term: Terminal, game: Game, window: int) -> None:
        self.term = term
        self.game = game
        #: The screen: board, score window and miles, with their caches.
        self.display = Board(term, game, window)
        #: The prompt line: the keys read at each prompt, and their echo (made when attached to its flow).
        self.dialogs: Dialogs
        self.flow: Flow
        #: A hint is on the message line: the person's next move clears it.
        self.hint_shown = False
        #: The save dialog is open (nested when S is typed at a prompt it asks): its failure shows at once.
        self._saving = 0

    def attach(self, flow: Flow) -> None:
        self.flow = flow
        self.dialogs = Dialogs(self.term, self.display, flow)

    @property
    def window(self) -> int:
        """The score window layout (the ``W`` key, §8.3), saved with the game."""
        return self.display.window

    # ------------------------------------------------------------------
    # The flow's questions, asked on the prompt line

    def read_move(self) -> Move | Request:
        return self.dialogs.getmove()

    def ask(self, prompt_no: int) -> bool | Request:
        return self.dialogs.getyn(prompt_no)

    def read_file_name(self) -> str:
        return self.dialogs.read_file_name()

    def choose(self, choice: Choice) -> str | Request:
        """``choice``'s words on the prompt line and a key (:meth:`mille.ui.flow.Face.choose`); the line emptied
        once answered.  Another key rings the bell and says the keys on the message line."""
        board = self.term.board
        try:
            while True:
                board.move(MOVE_Y, MOVE_X)
                board.addstr(choice.prompt + " ")
                board.clrtoeol()
                board.refresh()
                self.dialogs.last_prompt = -1  # the next prompt is drawn whole
                key = self.dialogs.readch()
                if key == 0x0C:  # ^L
                    self.term.redraw()
                    continue
                answer = choice.answer(chr(key).lower() if 0 <= key < 128 else "")
                if answer is not None:
                    return answer
                self.tell(choice.keys_line())
                self.term.bell()
        finally:  # answered, or ended by what a watch heard
            self.prompt_line("")

    def prompt_line(self, text: str) -> None:
        """``text`` alone on the prompt line (nothing asked there now when empty)."""
        board = self.term.board
        board.move(MOVE_Y, MOVE_X)
        board.addstr(text)
        board.clrtoeol()
        board.refresh()
        self.dialogs.last_prompt = -1

    def poll(self) -> int | None:
        return self.term.poll()

    def wait(self, ready: int) -> int | None:
        return self.term.wait(ready)

    # ------------------------------------------------------------------
    # Drawing, in the original's order

    def begin_hand(self, restored: bool) -> None:
        """The new board, with the restore message on the first of a restored game.

        A game restored at the person's ``Extension?`` is drawn as the
        original showed it while asking (:func:`~mille.ui.flow.as_seen`: the
        card still in the hand, the miles not yet on the board); the answer's
        repaint then brings the board up to date, as in a live game.
        """
        display = self.display
        display.newboard()
        banner = self.flow.restore_banner
        if restored and banner is not None:
            display.show_banner(banner)
        game = self.game
        display.game = as_seen(game)
        try:
            display.prboard()
        finally:
            display.game = game

    def announce(self, made: Decision, observation: Observation) -> None:
        """The computer's move (§8.6): the error line is cleared; a move it weighed its hand for is shown.

        ``PLAY`` or ``DISCARD`` with the card; draws and safeties played on
        the spot are silent.
        """
        self.display.clear_message()
        if made.considered:
            move = made.move
            word = "DISCARD" if move.kind is MoveType.DISCARD else "PLAY"
            self.display.show_action(word, observation.hand[move.slot])

    def show_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        """The screen after a move, as the original's loop drew it.

        Nothing while ``Extension?`` is open (its answer comes at once,
        before anything is drawn).  A hint on the message line goes once
        the person has moved (``--hints`` only: the original had none).
        An error goes to the error line; then
        the score window switches to the full layout if the hand is over,
        and the board is brought up to date.
        """
        if game.pending_extension is not None:
            return
        display = self.display
        if self.hint_shown and seat == YOU:
            # The hint was for the move just made (never shown without --hints).
            self.hint_shown = False
            display.clear_message()
        if outcome.error is not None:
            self.error(outcome.error)
        if game.finished:
            display.newscore()
        display.prboard()

    def hint(self, text: str) -> None:
        """The hint on the message line, until the person's next move."""
        self.tell(text)
        self.hint_shown = True

    def tell(self, message: str) -> None:
        """A message on the error line, shown at once."""
        self.display.show_message(message)
        self.term.score.refresh()

    def error(self, message: str) -> None:
        """A message on the error line, with the bell; it shows at the next score refresh (§8.5).

        A failed save's reason is shown at once, as plain mode says it at
        once: the original wrote it and showed it only after the next move
        (§8.5, §10.1 step 4), so a person saw the bell and no save, and could
        believe the game saved (a listed difference: README, the manual).
        """
        self.dialogs.error(message)
        if self._saving:
            self.term.score.refresh()

    def save_begins(self) -> None:
        """The save dialog (§10.1) opens: its failure is said at once (:meth:`error`)."""
        self._saving += 1

    def save_ends(self, done: bool | None) -> None:
        self._saving -= 1
