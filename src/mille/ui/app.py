"""The interactive game: the original's screen and key handling, call for call.

Drawing goes through :class:`~mille.ui.surface.Terminal` windows with curses
semantics, in the same order as 4.4BSD mille made its curses calls, so the
screen a player sees (and the bytes curses sends) match the original,
including its timing quirks: messages written by the command reader appear
only at the next score refresh, the previous hand's discard stays on screen,
``Really? N`` is left on the prompt line after an interrupt, and so on.

The display caches (what each field last showed) live here, not in the game
state: the engine knows nothing about screens.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from .. import cards, rules, scoring
from ..cards import EMPTY, NAMES
from ..observation import observe
from ..players.bsd import BsdPlayer, Decision
from ..rng import GlibcRandom
from ..rules import DRAW, EXTEND, NO_EXTENSION, ORDER, PASS, Move, MoveType, Phase
from ..state import COMPUTER, EXTENDED_TRIP, HUMAN, Game, SafetyStatus, Window
from .surface import END_OF_INPUT, HANGUP, INTERRUPT, RESIZED

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from ..players import Player
    from .surface import Terminal

MOVE_Y, MOVE_X = 10, 20
ERR_Y, ERR_X = 15, 5
EXT_Y, EXT_X = 4, 9
COMP_START = 20
CARD_START = 2
#: Room on the error line before a message would wrap into the border.
ERR_WIDTH = 40 - ERR_X
#: Room on the prompt line for a typed file name.
NAME_WIDTH = 40 - (MOVE_X + len("file:") + 1) - 1

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

CTRL_L = 0x0C


class GameExit(Exception):
    """Leave the program with this status (the original's ``die``)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def unctrl(byte: int) -> str:
    """The printable form the original showed for a byte: ``^A``, ``^?``, ``~@``.

    Bytes 160-255 come out as themselves, one column wide: 4.4BSD mille
    (bsdgames 2.17, narrow ncurses) writes them raw, not as ``M-x``.
    """
    byte &= 0xFF
    if byte < 0x20:
        return "^" + chr(byte + 0x40)
    if byte < 0x7F:
        return chr(byte)
    if byte == 0x7F:
        return "^?"
    if byte < 0xA0:
        return "~" + chr(byte - 0x80 + 0x40)
    return chr(byte)


def _isprint(byte: int) -> bool:
    return 0x20 <= byte < 0x7F


def _upper(byte: int) -> int:
    return byte - 0x20 if 0x61 <= byte <= 0x7A else byte


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


#: Saves a game: (file name, copy of the game, score window, computer
#: player's name) -> None; raises OSError (shown with its strerror) when the
#: file cannot be written.  :func:`mille.save.write_game` is one.
SaveWriter = Callable[[str, Game, int, str], None]
#: Saves a game when the terminal goes away: (game, window, computer).
HangupSaver = Callable[[Game, int, str], None]


class MilleApp:
    """One program run: the game loop, the board, the prompts and the keys."""

    def __init__(
        self,
        term: Terminal,
        game: Game,
        *,
        save_writer: SaveWriter | None = None,
        hangup_saver: HangupSaver | None = None,
        from_file: str | None = None,
        restore_banner: str | None = None,
        window: int = Window.SMALL,
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
        #: The score window layout (the ``W`` key), saved with the game.
        self.window = window
        #: The computer seat's player; the original's by default, rolling its
        #: dice on the game's own generator as the original did.
        self.computer: Player = BsdPlayer() if computer is None else computer
        self.computer_name = computer_name
        self.computer_dice = game.rng if computer_dice is None else computer_dice
        self.shown = [_Shown(), _Shown()]
        self.shown_discard = EMPTY
        self.last_prompt = -1
        self.first_board = True
        self.was_full = -1
        self.last_window = -1
        self.saved = False
        self.in_interrupt = False
        self.eof_count = 0

    # ------------------------------------------------------------------
    # The main loop (the original's main)

    def run(self, restore: bool = False) -> int:
        """Play until the player quits; returns the exit status."""
        try:
            self._main_loop(restore)
        except GameExit as leave:
            return leave.status
        return 0  # pragma: no cover - the loop only ends by GameExit

    def _main_loop(self, restore: bool) -> None:
        game = self.game
        while True:
            if not restore or rules.game_over(game):
                rules.settle_game(game)
            while True:
                # A save made at the end-of-hand questions restores to a new deal.
                if not restore or game.finished:
                    rules.start_hand(game, resumed=restore)
                self.newboard()
                if restore and self.restore_banner is not None:
                    self.term.score.move(ERR_Y, ERR_X)
                    self.term.score.addstr(self._fit_message(self.restore_banner) + "\n")
                self.prboard()
                while not game.finished:
                    self.domove()
                    if game.finished:
                        self.newscore()
                    self.prboard()
                self.check_more()
                restore = False
                if rules.game_over(game):
                    break

    def domove(self) -> None:
        """One turn of the game loop, as the rules' :func:`~mille.rules.phase` directs."""
        game = self.game
        phase = rules.phase(game)
        if phase is Phase.EMPTY_HAND:
            rules.push(game, PASS)
            return
        if phase is Phase.EXTENSION:  # restored at the question
            self.answer_extension()
            return
        move = self.getmove() if game.to_move == HUMAN else self.calcmove()
        outcome = rules.push(game, move)
        if game.pending_extension is not None:
            # The card reached 700: the question comes before anything is drawn.
            self.answer_extension()
        if outcome.error is not None:
            self.error(outcome.error)

    def calcmove(self) -> Move:
        """The computer's move, with the original's board announcements."""
        score = self.term.score
        score.move(ERR_Y, ERR_X)
        score.clrtoeol()
        decision = self._computer_decision()
        if decision.announce is not None:
            board = self.term.board
            board.move(MOVE_Y + 1, MOVE_X)
            board.addstr(decision.announce + "\n")
            board.move(MOVE_Y + 2, MOVE_X)
            card = self.game.players[COMPUTER].hand[decision.move.slot]
            board.addstr(f"{cards.name(card):>16}")
        return decision.move

    def _computer_decision(self) -> Decision:
        """Ask the computer's player, shown only what its seat may see."""
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
        if game.to_move == HUMAN:
            extend = self.getyn(EXTENSION_PROMPT)
        else:
            extend = self._computer_decision().move.kind is MoveType.EXTEND
        rules.push(game, EXTEND if extend else NO_EXTENSION)

    def check_more(self) -> None:
        """End-of-hand questions: another hand or game, then perhaps save."""
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
        if self.hangup_saver is not None:
            try:
                self.hangup_saver(self.game.copy(), self.window, self.computer_name)
            except OSError:
                pass
        self.die(1)

    def die(self, status: int) -> None:
        raise GameExit(status)

    def rub(self) -> None:
        """The interrupt key or Q: make sure the player really wants to quit."""
        self.in_interrupt = True
        try:
            if self.getyn(REALLY_PROMPT):
                self.die(0)
        finally:
            self.in_interrupt = False

    # ------------------------------------------------------------------
    # Input

    def readch(self) -> int:
        """One key; an interrupt opens ``Really?`` and then the read goes on."""
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
            if byte == END_OF_INPUT:
                self.eof_count += 1
                if self.eof_count > 100:
                    self.die(1)
                continue
            self.eof_count = 0
            return byte

    def getmove(self) -> Move:
        board = self.term.board
        game = self.game
        while True:
            self.prompt(MOVE_PROMPT)
            board.leaveok(False)
            board.refresh()
            c = self.readch()
            while c == self.term.kill_char or c == self.term.erase_char:
                c = self.readch()
            c = _upper(c)
            if _isprint(c) and c != 0x20:
                board.addstr(chr(c))
                board.refresh()
            key = chr(c)
            if key == "P":
                move = DRAW
                break
            if key in "UD":
                slot = self.getcard()
                if slot < 0:
                    continue
                move = Move(MoveType.PLAY if key == "U" else MoveType.DISCARD, slot)
                break
            if key == "O":
                if self.window == Window.SMALL:
                    score = self.term.score
                    score.move(12, 21)
                    score.addstr("o: stop ordering" if not game.order else "o: order hand")
                    score.clrtoeol()
                move = ORDER
                break
            if key == "Q":
                self.rub()
            elif key == "W":
                self.window = Window.FULL if self.window == Window.SMALL else Window.SMALL
                self.newscore()
                self.prscore()
                self.term.score.refresh()
            elif key == "R" or c == CTRL_L:
                self.term.redraw()
            elif key == "S":
                self.save()
            elif key == "E":
                self.error("E: command not implemented")
            elif c in (0x0D, 0x0A, 0x20, 0x00):
                pass
            else:
                self.error(f"unknown command: {unctrl(c)}")
        board.leaveok(True)
        return move

    def getcard(self) -> int:
        """The slot after U or D; -1 if the command was cancelled."""
        board = self.term.board
        while True:
            c = self.readch()
            while c in (0x0A, 0x0D, 0x20):
                c = self.readch()
            c = _upper(c)
            if c == self.term.kill_char or c == self.term.erase_char:
                return -1
            board.addstr(unctrl(c))
            board.clrtoeol()
            if 0x31 <= c <= 0x36:
                slot = c - 0x30
            elif c == 0x30 or c == 0x50:
                slot = 0
            else:
                self.term.bell()
                board.addstr("\b")
                if not _isprint(c):
                    board.addstr("\b")
                slot = -1
            board.refresh()
            if slot < 0:
                continue
            while True:
                c1 = self.readch()
                if c1 in (0x0D, 0x0A, 0x20):
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
        """A yes/no question; S saves and asks again, ^L repaints."""
        board = self.term.board
        self.saved = False
        while True:
            board.leaveok(False)
            self.prompt(prompt_no)
            board.clrtoeol()
            board.refresh()
            c = self.readch()
            if c in (0x6E, 0x4E):
                board.addstr("N")
                board.refresh()
                board.leaveok(True)
                return False
            if c in (0x79, 0x59):
                board.addstr("Y")
                board.refresh()
                board.leaveok(True)
                return True
            if c in (0x73, 0x53):
                board.addstr("S")
                board.refresh()
                self.saved = self.save()
                continue
            if c == CTRL_L:
                self.term.redraw()
            else:
                board.addstr(unctrl(c))
                board.refresh()
                self.term.bell()

    def prompt(self, prompt_no: int) -> None:
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
        """Write a message on the error line; it shows at the next score refresh."""
        score = self.term.score
        score.move(ERR_Y, ERR_X)
        score.addstr(self._fit_message(message))
        score.clrtoeol()
        self.term.bell()
        self.term.board.refresh()

    @staticmethod
    def _fit_message(message: str) -> str:
        """Keep a message on the error line instead of wrapping into the border.

        Only file names make messages this long (``name [date]``): the name
        loses its directory, then the date its weekday, seconds and year,
        then the date goes, then the name loses its middle.
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

    def read_file_name(self) -> str:
        """The ``file:`` prompt with erase and kill; RETURN ends it."""
        board = self.term.board
        while True:
            self.prompt(FILE_PROMPT)
            board.leaveok(False)
            board.refresh()
            typed: list[int] = []
            killed = False
            while True:
                c = self.readch()
                if c in (0x0A, 0x0D):
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
                            board.addstr("\b")
                            if gone < 0x20 or gone >= 0x80:
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
        """Long names scroll within the prompt line instead of wrapping over the hand."""
        echo = "".join(unctrl(c) for c in typed)
        board = self.term.board
        board.move(MOVE_Y, MOVE_X + len(PROMPTS[FILE_PROMPT]) + 1)
        board.addstr(echo[-NAME_WIDTH:])
        board.clrtoeol()

    def save(self) -> bool:
        """The save dialog; True if the game was written.

        The game is saved as it is: at ``Extension?`` it holds the question
        itself (the card counted and still in the hand), so the save is
        consistent and a restore asks again.
        """
        name: str
        if self.from_file is not None and self.getyn(SAME_FILE_PROMPT):
            name = self.from_file
        else:
            name = self.read_file_name()
            if not name:
                return False
            if self.from_file is None and os.path.exists(name) and not self.getyn(OVERWRITE_PROMPT):
                return False
        if self.save_writer is None:
            self.error("saving is not available")
            return False
        score = self.term.score
        try:
            self.save_writer(name, self.game.copy(), self.window, self.computer_name)
        except OSError as exc:
            self.error(exc.strerror or str(exc))
            return False
        score.move(ERR_Y, ERR_X)
        score.addstr(self._fit_message(f"{name} [{time.ctime()}]"))  # C ctime() layout
        score.clrtoeol()
        score.refresh()
        return True



    # ------------------------------------------------------------------
    # Drawing (the original's newboard, newscore, prboard, prscore)

    def newboard(self) -> None:
        board, miles = self.term.board, self.term.miles
        if self.first_board:
            board.erase()
            self.term.score.erase()
            for y, x, text in (
                (5, 0, "--HAND--"),
                (6, 0, "P"),
                (7, 0, "1"),
                (8, 0, "2"),
                (9, 0, "3"),
                (10, 0, "4"),
                (11, 0, "5"),
                (12, 0, "6"),
                (13, 0, "--BATTLE--"),
                (15, 0, "--SPEED--"),
                (5, 20, "--DECK--"),
                (7, 20, "--DISCARD--"),
                (13, 20, "--BATTLE--"),
                (15, 20, "--SPEED--"),
            ):
                board.move(y, x)
                board.addstr(text)
            miles.move(0, 0)
            miles.addstr("--MILEAGE--")
            miles.move(0, 41)
            miles.addstr("--MILEAGE--")
            for sh in self.shown:
                sh.hand = [EMPTY] * cards.HAND_SIZE
                sh.battle = EMPTY
                sh.speed = EMPTY
                sh.mileage = -1
            self.first_board = False
        else:
            for y in range(5):
                board.move(y, 0)
                board.clrtoeol()
            miles.move(1, 0)
            miles.clrtobot()
            board.move(MOVE_Y + 1, MOVE_X)
            board.clrtoeol()
            board.move(MOVE_Y + 2, MOVE_X)
            board.clrtoeol()
        self.shown_discard = EMPTY
        for sh in self.shown:
            sh.safety = [False] * cards.NUM_SAFETIES
            sh.nummiles = [0] * cards.NUM_MILES
            sh.safety_score = -1
        self.newscore()

    def newscore(self) -> None:
        game = self.game
        score = self.term.score
        if self.was_full < 0:
            self.was_full = int(self.window != Window.FULL)
        full = self.window == Window.FULL or game.finished
        new = False
        if score.inch(0, 22) != "Y":
            score.erase()
            for y, x, text in (
                (0, 22, "You   Comp   Value"),
                (1, 2, "Milestones Played"),
                (2, 8, "Each Safety"),
                (3, 5, "All 4 Safeties"),
                (4, 3, "Each Coup Fourre"),
                (2, 37, "100"),
                (3, 37, "300"),
                (4, 37, "300"),
            ):
                score.move(y, x)
                score.addstr(text)
            new = True
        elif full != bool(self.was_full):
            score.move(5, 1)
            score.clrtobot()
            new = True
        elif self.window != self.last_window:
            new = True
        if new:
            for y in range(17):
                score.move(y, 0)
                score.addstr("|")
            score.move(16, 1)
            score.addstr("_" * 40)
            for sh in self.shown:
                sh.hand_total = -1
                sh.total = -1
                sh.games = -1
                sh.safety_score = -1
        for sh in self.shown:
            sh.was_finished = not game.finished
        if full:
            if not self.was_full or new:
                for y, x, text in (
                    (5, 5, "Trip Completed"),
                    (6, 10, "Safe Trip"),
                    (7, 5, "Delayed Action"),
                    (8, 10, "Extension"),
                    (9, 11, "Shut-Out"),
                    (10, 21, "----   ----   -----"),
                    (11, 9, "Hand Total"),
                    (12, 20, "-----  -----"),
                    (13, 6, "Overall Total"),
                    (14, 15, "Games"),
                    (5, 37, "400"),
                    (6, 37, "300"),
                    (7, 37, "300"),
                    (8, 37, "200"),
                    (9, 37, "500"),
                ):
                    score.move(y, x)
                    score.addstr(text)
        elif self.was_full or new:
            for y, x, text in (
                (5, 21, "----   ----   -----"),
                (6, 9, "Hand Total"),
                (7, 20, "-----  -----"),
                (8, 6, "Overall Total"),
                (9, 15, "Games"),
                (11, 2, "p: pick"),
                (12, 2, "u: use #"),
                (13, 2, "d: discard #"),
                (14, 2, "w: toggle window"),
                (11, 21, "q: quit"),
                (12, 21, "o: stop ordering" if game.order else "o: order hand"),
                (13, 21, "s: save"),
                (14, 21, "r: reprint"),
            ):
                score.move(y, x)
                score.addstr(text)
        self.was_full = int(full)
        self.last_window = self.window

    def _show_card(self, y: int, x: int, card: int, shown: int) -> int:
        if card != shown:
            board = self.term.board
            board.move(y, x)
            board.addstr(f"{cards.name(card):<18.18}")
        return card

    def prboard(self) -> None:
        game = self.game
        board, miles = self.term.board, self.term.miles
        for k in (HUMAN, COMPUTER):
            pp = game.players[k]
            sh = self.shown[k]
            col = k * COMP_START + CARD_START
            for i in range(cards.NUM_SAFETIES):
                if pp.safety[i] == SafetyStatus.PLAYED and not sh.safety[i]:
                    board.move(i, col)
                    board.addstr(NAMES[i + cards.SAFETY_BASE])
                    if pp.coups[i]:
                        board.move(i, col - CARD_START)
                        board.addstr("*")
                    sh.safety[i] = True
            sh.battle = self._show_card(14, col, pp.battle, sh.battle)
            sh.speed = self._show_card(16, col, pp.speed, sh.speed)
            for i in range(cards.NUM_MILES):
                played = pp.nummiles[i]
                if played == sh.nummiles[i]:
                    continue
                for j in range(sh.nummiles[i], played):
                    x = j * 4 + k * 40
                    if x < 80:
                        miles.move(i + 1, x)
                        miles.addstr(NAMES[i])
                sh.nummiles[i] = played
        self.prscore()
        human = game.players[HUMAN]
        sh = self.shown[HUMAN]
        for i in range(cards.HAND_SIZE):
            sh.hand[i] = self._show_card(i + 6, CARD_START, human.hand[i], sh.hand[i])
        board.move(6, COMP_START + CARD_START)
        board.addstr(f"{game.deck_count:2d}")
        self.shown_discard = self._show_card(8, COMP_START + CARD_START, game.discard, self.shown_discard)
        if game.trip_length == EXTENDED_TRIP:
            board.move(EXT_Y, EXT_X)
            board.standout()
            board.addstr("Extension")
            board.standend()
        board.refresh()
        miles.refresh()
        self.term.score.refresh()

    def prscore(self) -> None:
        game = self.game
        score = self.term.score
        full = self.window == Window.FULL or game.finished
        for k in (HUMAN, COMPUTER):
            pp = game.players[k]
            sh = self.shown[k]
            x = k * 6 + 21
            sh.mileage = self._show_score(1, x, pp.mileage, sh.mileage)
            if pp.safety_score != sh.safety_score:
                score.move(2, x)
                score.addstr(f"{pp.safety_score:4d}")
                score.move(3, x + 1)
                score.addstr("300" if pp.safety_score == 400 else "  0")
                score.move(4, x)
                score.addstr(f"{pp.coup_score:4d}")
                sh.safety_score = pp.safety_score
            if full:
                self._final_score(k)
                sh.hand_total = self._show_score(11, x, pp.hand_total, sh.hand_total)
                sh.total = self._show_score(13, x, pp.total, sh.total)
                sh.games = self._show_score(14, x, pp.games, sh.games)
            else:
                sh.hand_total = self._show_score(6, x, pp.hand_total, sh.hand_total)
                sh.total = self._show_score(8, x, pp.total, sh.total)
                sh.games = self._show_score(9, x, pp.games, sh.games)

    def _show_score(self, y: int, x: int, value: int, shown: int) -> int:
        if value != shown:
            score = self.term.score
            score.move(y, x)
            score.addstr(f"{value:4d}")
        return value

    def _final_score(self, player: int) -> None:
        """The bonus cells of the full score window (the points are the engine's)."""
        game = self.game
        sh = self.shown[player]
        if sh.was_finished == game.finished:
            return
        sh.was_finished = game.finished
        score = self.term.score
        col = player * 6 + 22
        for y in range(5, 10):
            score.move(y, col)
            score.addstr("  0")
        if not game.finished:
            return
        bonuses = scoring.end_of_hand_bonuses(game, player)
        for y, (earned, text) in enumerate(zip(bonuses.rows(), ("40", "30", "30", "20", "50"), strict=True), 5):
            if earned:
                score.move(y, col)
                score.addstr(text)
