"""The game's flow: what happens when, and what is asked, whatever shows it.

A port of the deciding half of the original's ``main`` (``mille.c``),
``domove`` (``move.c``), ``check_more`` (``misc.c``) and ``save``
(``save.c``): the hands dealt one after another, each played to its end
through the engine's hand driver (:mod:`mille.engine.driver`) with a seat
for the person and one for the computer, the questions at the end of a
hand, ``Really?``, the save dialog's questions, what the record of games is
told and when, when the game is kept because the terminal went away, and
the hint.

:class:`GameFlow` decides and acts; a face (:class:`Face`) shows and
asks, and is a part the flow holds (as a Textual app holds its driver):
the board (:class:`mille.ui.app.BoardFace`) and the lines of plain mode
(:class:`mille.ui.plain.app.PlainFace`) are two.  A face answers a
question with the answer or with a :class:`Request` (save, quit, a hint),
and the flow acts on it, in one loop for every face (:meth:`GameFlow.ask`,
:meth:`GameFlow.read_move`).  Whatever a face does with keys and curses
stays its own.  Everything here is said in the game's terms (moves,
questions by number, messages), so a face that shows the game in some
other way plays the same game, with the same questions in the same order.
"""

from __future__ import annotations

import enum
import os
import time
from collections.abc import Callable

from ..engine import cards, rules
from ..engine.record import Record
from ..engine.rules import EXTEND, NO_EXTENSION, Move, MoveType, Phase
from ..engine.state import Game
from ..players import decision
from .keeping import Keeper
from .layout import YOU, ScoreView
from .recording import DeferredRecord
from .surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Protocol, TypeVar

    from ..engine.driver import Event
    from ..engine.observation import Observation
    from ..engine.rng import GlibcRandom
    from ..engine.rules import Outcome
    from ..files.kept import Resumed
    from ..files.recorder import Recorder
    from ..files.save import SavedGame
    from ..players import Decision, Player
    from .hints import Adviser
    from .recording import RecordEvent

    T = TypeVar("T")
else:
    Protocol = object  # the face is structural; only the type checker needs the protocol

__all__ = [
    "ANOTHER_GAME_PROMPT",
    "ANOTHER_HAND_PROMPT",
    "Choice",
    "COUP_PROMPT",
    "EXTENSION_PROMPT",
    "Face",
    "FILE_PROMPT",
    "Flow",
    "MOVE_PROMPT",
    "OVERWRITE_PROMPT",
    "PROMPTS",
    "REALLY_PROMPT",
    "Request",
    "SAME_FILE_PROMPT",
    "SAVE_GAME_PROMPT",
    "GameExit",
    "GameFlow",
    "Setup",
    "SaveWriter",
    "as_seen",
    "wait_polling",
]

#: The questions (§9.1, §9.3, §9.4), by number, and their words.
MOVE_PROMPT = 0
REALLY_PROMPT = 1
ANOTHER_HAND_PROMPT = 2
ANOTHER_GAME_PROMPT = 3
SAVE_GAME_PROMPT = 4
SAME_FILE_PROMPT = 5
FILE_PROMPT = 6
EXTENSION_PROMPT = 7
OVERWRITE_PROMPT = 8
#: At a table of more than two (``mille --players``): a hazard was put on
#: your side and you hold its safety, out of turn (R10 of ``table-rules.md``).
COUP_PROMPT = 9
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
    "Coup fourre?",
)

#: Saves a game: (file name, what the save holds) -> None; raises OSError
#: (shown with its strerror) when the file cannot be written.
#: :func:`mille.files.save.write_game` is one.
SaveWriter = Callable[[str, "SavedGame"], None]


def as_seen(game: Game, seat: int = YOU) -> Game:
    """``game`` as the person sees it: while their ``Extension?`` is open, the board the original showed.

    The original asked ``Extension?`` in the middle of the play, after the
    card's miles were counted and before the card left the hand or the board
    was repainted (bsd-mille.md §13): the screen still showed the board as
    it was before the play, the card in the hand and the old mileage, pile
    and totals.  The game itself is right (the miles counted, the card
    held, ``rules.phase`` is ``EXTENSION``); this is what to draw of it, so
    that a game kept or saved at the question resumes with the board the
    person saw, and plain mode reads the same.  Any other game is itself.
    ``seat``: the person's seat (a guest's at a larger table, docs/people.md).
    """
    slot = game.pending_extension
    if slot is None or slot < 0 or game.to_move != seat:
        return game  # no question open, or a version-1 save whose card already left the hand
    seen = game.copy()
    pp = seen.players[seat % game.table.sides]
    card = seen.players[seat].hand[slot]
    if not cards.is_distance(card):  # pragma: no cover - only a mileage card reaches 700
        return game
    value = cards.MILES[card]
    pp.nummiles[card] -= 1
    pp.mileage -= value
    pp.hand_total -= value
    pp.total -= value
    return seen


class GameExit(Exception):
    """Leave the program with this status (the original's ``die``)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Setup(Record):
    """What a run of the game is given, whichever front end shows it (the command line's choices).

    ``computer`` is the computer seat's player, rolling ``computer_dice``;
    ``computer_name`` is what a save and the record call it.  The caller
    chooses all three (the front end never names a kind of player:
    :func:`mille.ui.session.computer_player`).  ``save_writer`` writes a
    save (None: saving fails with a message); ``keeper`` keeps the
    game when the program leaves without asking (:class:`~mille.ui.keeping.Keeper`;
    None: a keeper that keeps nothing, as the original); ``from_file`` is the file a restored
    game came from (``Same file?``), ``restore_banner`` what its first board
    says of it, ``window`` the score window layout it was saved with.
    ``stats`` makes the record of games when it is first needed (None: no
    record is kept); ``hints`` answers the hint (None: no hints).
    ``resumed`` is the kept (hangup or crash) file the game was resumed
    from, removed once the game is saved elsewhere or over
    (:mod:`mille.files.kept`; None: not resumed from one).  ``others``:
    at a table of more than two seats (``mille --players``), the players
    of seats 2 and on with their dice (the computer's is seat 1).
    ``record_name``: who the record of games says the game was against,
    when not the computer (the people at a larger table, docs/people.md);
    ``people``: the seats other people play, whose moves, as yours, make a
    game left unsaved an abandoned one.
    """

    __slots__ = (
        "computer",
        "computer_name",
        "computer_dice",
        "save_writer",
        "keeper",
        "from_file",
        "restore_banner",
        "window",
        "stats",
        "hints",
        "resumed",
        "others",
        "record_name",
        "people",
    )

    def __init__(
        self,
        computer: Player,
        computer_name: str,
        computer_dice: GlibcRandom,
        *,
        save_writer: SaveWriter | None = None,
        keeper: Keeper | None = None,
        from_file: str | None = None,
        restore_banner: str | None = None,
        window: int = ScoreView.SMALL,
        stats: Callable[[], Recorder] | None = None,
        hints: Adviser | None = None,
        resumed: Resumed | None = None,
        others: tuple[tuple[Player, GlibcRandom], ...] = (),
        record_name: str | None = None,
        people: tuple[int, ...] = (),
    ) -> None:
        self.people = people
        self.others = others
        self.record_name = computer_name if record_name is None else record_name
        self.computer = computer
        self.computer_name = computer_name
        self.computer_dice = computer_dice
        self.save_writer = save_writer
        self.keeper = keeper if keeper is not None else Keeper(keeping=False)
        self.from_file = from_file
        self.restore_banner = restore_banner
        self.window = window
        self.stats = stats
        self.hints = hints
        self.resumed = resumed


class Request(enum.Enum):
    """What a person may ask for instead of answering: the flow acts on it, then asks again."""

    #: Save the game (``S``): the save dialog (§10.1).
    SAVE = "save"
    #: Quit (``Q``, the interrupt key): ``Really?`` (§9.5).
    QUIT = "quit"
    #: The hint (``--hints``).
    HINT = "hint"
    #: A line of talk (``T``, with people at the table: docs/people.md); never asked alone against the computer.
    TALK = "talk"
    #: The table's story (``M`` on the original's board, with people at the table): never asked alone either.
    STORY = "story"


class Choice(Record):
    """A question answered with one letter by any face (:meth:`Face.choose`): ``Wait/Comp/Adjourn?``, ``Wait/Leave?``.

    ``prompt`` is the board's words on its prompt line (``Wait/Comp/Adjourn?``),
    ``sentence`` plain mode's line (``w waits for bob to join again, ...:``),
    ``letters`` the answers (lower case; empty: any key, or RETURN in lines,
    answers, as a wait that gives the choice back does) and ``words`` what
    each letter does, for the line said when another key is typed (the
    board: ``W: wait  C: computer  A: adjourn``; lines: ``Answer w, c or a.``).
    """

    __slots__ = ("prompt", "sentence", "letters", "words")

    def __init__(self, prompt: str, sentence: str, letters: str = "", words: tuple[str, ...] = ()) -> None:
        self.prompt = prompt
        self.sentence = sentence
        self.letters = letters
        self.words = words

    def keys_line(self) -> str:
        """What each key does, as the board says it: ``W: wait  C: computer  A: adjourn``."""
        return "  ".join(f"{letter.upper()}: {word}" for letter, word in zip(self.letters, self.words, strict=False))

    def answers_line(self) -> str:
        """The answers, as plain mode says them: ``Answer w, c or a.``."""
        letters = list(self.letters)
        said = letters[0] if len(letters) == 1 else ", ".join(letters[:-1]) + " or " + letters[-1]
        return f"Answer {said}."

    def answer(self, typed: str) -> str | Request | None:
        """What a key (or a line's first letter) ``typed`` answers: a letter of :attr:`letters` (any, when there
        are none), ``s`` and ``q`` the requests to save and to quit, or None for another key."""
        if not self.letters:
            return typed
        if typed and typed in self.letters:
            return typed
        if typed == "s":
            return Request.SAVE
        if typed == "q":
            return Request.QUIT
        return None


class Flow(Protocol):
    """What a face asks of the flow it shows: a game's (:class:`GameFlow`), or a guest's, which holds no game
    (:mod:`mille.ui.people.guest`) and acts on the terminal's events its own way."""

    @property
    def game(self) -> Game:
        """The game drawn (``O``'s help reads its order)."""
        ...

    @property
    def hints(self) -> Adviser | None:
        """The hint's adviser (None: no hints, the hint keys are unknown commands)."""
        ...

    @property
    def restore_banner(self) -> str | None:
        """What the first board of a restored game says of it."""
        ...

    @property
    def talks(self) -> bool:
        """``T`` asks for a line of talk (people at the table); False alone: the original's unknown command."""
        ...

    def keep_snapshot(self) -> None:
        """Before a key or a line is read: the game noted for a crash save."""

    def catch_up(self) -> None:
        """Before a key or a line is read: the record of games told what happened."""

    def on_event(self, event: int | None) -> None:
        """What the terminal reported (a hangup, an interrupt, a request to leave), acted on."""

    def hangup(self) -> None:
        """The terminal went away."""


class Face(Protocol):
    """What shows the game and asks the person: the part of a run that the flow holds.

    A face shows (the new hand, the computer's move, a move made, a
    message, a complaint, the hint) and asks (a move, a yes/no question, a
    file name), answering with the answer or a :class:`Request`; it hands
    the terminal's events to the flow (:meth:`GameFlow.on_event`) and
    notes, at every key read, the game for a crash save and the record's
    news (:meth:`GameFlow.keep_snapshot`, :meth:`GameFlow.catch_up`).  It
    never acts on the game.
    """

    @property
    def window(self) -> int:
        """The score window layout (the board's ``W`` key, §8.3), saved with the game."""
        ...

    def attach(self, flow: GameFlow) -> None:
        """The flow this face shows (called once, by the flow)."""

    def begin_hand(self, restored: bool) -> None:
        """Show the hand just dealt (or, ``restored``, the game just read from its file)."""

    def read_move(self) -> Move | Request:
        """The person's move at the move prompt (a draw, a play, a discard or the Order toggle), or a request."""
        ...

    def ask(self, prompt_no: int) -> bool | Request:
        """A yes/no question (one of :data:`PROMPTS`): the answer, or a request (``S`` saves and asks again)."""
        ...

    def read_file_name(self) -> str:
        """The name typed at ``file:`` ('' for none)."""
        ...

    def choose(self, choice: Choice) -> str | Request:
        """A question answered with one letter (:class:`Choice`): the letter, or a request (``s``, ``q``).

        The terminal's events go to the flow meanwhile, as at any prompt; a
        watched descriptor may end the question (:class:`~mille.ui.surface.Heard`).
        """
        ...

    def announce(self, made: Decision, observation: Observation) -> None:
        """The computer chose ``made`` in ``observation`` (not yet made; never an ``Extension?`` answer)."""

    def show_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        """``seat``'s ``move`` was made (or refused: ``outcome.error``); show the game as it now stands."""

    def tell(self, message: str) -> None:
        """Say ``message`` now (the message line)."""

    def hint(self, text: str) -> None:
        """Show the hint ``text``."""

    def error(self, message: str) -> None:
        """Complain: ``message``, with the bell."""

    def save_begins(self) -> None:
        """The save dialog opens (its failure is said at once)."""

    def save_ends(self, done: bool | None) -> None:
        """The save dialog closed: the game saved (True), not (False), or the dialog left by an exit (None)."""

    def poll(self) -> int | None:
        """What the terminal reported while no key was read (:data:`~mille.ui.surface.HANGUP`, ...), or None."""
        ...

    def wait(self, ready: int) -> int | None:
        """While the computer thinks: None once the descriptor ``ready`` can be read, or what the terminal reports."""
        ...


def wait_polling(poll: Callable[[], int | None], ready: int) -> int | None:
    """A face's :meth:`Face.wait` from its ``poll``: asked every 50 ms until ``ready`` can be read.

    :data:`~mille.ui.surface.HANGUP`, :data:`~mille.ui.surface.INTERRUPT`,
    ... as ``poll`` gives them; None once ``ready`` can be read.  A face
    that can wait for both at once (the curses terminal) does.
    """
    import select

    while True:
        event = poll()
        if event is not None:
            return event
        if select.select([ready], [], [], 0.05)[0]:
            return None


class GameFlow:
    """One program run's game: the loop, the seats, the questions, the record and the keeping.

    ``face`` shows it and asks the person (:class:`Face`); ``setup`` is
    what the run was given (:class:`Setup`).  The flow alone acts.
    """

    #: ``T`` asks for a line of talk: a host with people sets it (:mod:`mille.ui.people.host`), which then answers
    #: :attr:`Request.TALK`; alone, ``T`` is the original's unknown command.
    talks = False

    def __init__(self, face: Face, game: Game, setup: Setup) -> None:
        self.face = face
        self.game = game
        self.computer = setup.computer
        self.computer_name = setup.computer_name
        #: Who the record of games says the game was against; the seats other people play.
        self.record_name = setup.record_name
        self.people = setup.people
        self.computer_dice = setup.computer_dice
        #: Seats 2 and on at a larger table: (player, dice).
        self.others = setup.others
        self.save_writer = setup.save_writer
        self.from_file = setup.from_file
        #: What the first board of a restored game says of it (None: nothing).
        self.restore_banner = setup.restore_banner
        #: The hint's adviser (``--hints``; None: no hints).
        self.hints = setup.hints
        #: The game was saved at the last yes/no question (its ``S``), so
        #: ``Save game?`` is not asked after it (the original's ``Saved``).
        self.saved = False
        #: ``Really?`` is open: another interrupt does not open it again.
        self.in_interrupt = False
        self.ledger = DeferredRecord(setup.stats)
        #: Where the game goes when the program leaves without asking (:mod:`mille.ui.keeping`).
        self.keeper = setup.keeper
        #: The kept file the game was resumed from (None: none), spent once the game is safe elsewhere or over.
        self.resumed = setup.resumed
        #: Why the computer's bot failed (None: it did not).
        self.computer_failure: str | None = None
        #: Told every move made at the table as the person's seat sees it (the
        #: driver's :class:`~mille.engine.driver.Event`, its ``inform``), when
        #: set: the larger tables' board lists them
        #: (:func:`mille.ui.tableboard.table_flow`).  None: nobody (the
        #: original's board shows the computer's move its own way).
        self.told: Callable[[Event], None] | None = None
        #: Told every move as the table sees it, before any seat (the driver's observer's ``inform``), when set:
        #: the room around a host's table (:mod:`mille.ui.people.room`: the watchers, the story).
        self.public: Callable[[Event], None] | None = None
        face.attach(self)

    @property
    def window(self) -> int:
        """The score window layout (the board's ``W`` key, §8.3), saved with the game."""
        return self.face.window

    # ------------------------------------------------------------------
    # Asking, and acting on the answer (the one loop)

    def read_move(self) -> Move:
        """The person's move; a request made at the move prompt is acted on and the prompt asked again."""
        while True:
            answer = self.face.read_move()
            if not isinstance(answer, Request):
                return answer
            if answer is Request.QUIT:
                self.rub()
            elif answer is Request.SAVE:
                self.save()
            elif answer is Request.HINT:
                self.hint()

    def ask(self, prompt_no: int) -> bool:
        """A yes/no question (one of :data:`PROMPTS`); ``S`` saves (noting :attr:`saved`) and asks again."""
        self.saved = False
        while True:
            answer = self.face.ask(prompt_no)
            if answer is True or answer is False:
                return answer
            if answer is Request.SAVE:
                self.saved = self.save()
            elif answer is Request.HINT:
                self.hint()
            elif answer is Request.QUIT:
                self.rub()

    # ------------------------------------------------------------------
    # The record of games and the keeping

    @property
    def stats(self) -> Recorder | None:
        """The player's record of games (:class:`mille.files.recorder.Recorder`), or None when it is not kept."""
        return self.ledger.recorder

    def record(self, event: RecordEvent) -> None:
        """Tell the record of games of ``event`` once the screen is up to date (:mod:`mille.ui.recording`)."""
        self.ledger.record(event)

    def catch_up(self) -> None:
        """Tell the record of games what has happened since the last key read."""
        self.ledger.catch_up()

    @property
    def last_good(self) -> Game | None:
        """The game as it last stood between moves or at a key read, for a crash save; None before the first."""
        return self.keeper.last_good

    def keep_snapshot(self) -> None:
        """Note the game as it stands for a crash save (:meth:`mille.ui.keeping.Keeper.snapshot`)."""
        self.keeper.snapshot(self.game)

    # ------------------------------------------------------------------
    # The main loop (the original's main, §3.1)

    def run(self, restore: bool = False) -> int:
        """Play until the player quits; returns the exit status."""
        try:
            self._main_loop(restore)
        except GameExit as leave:
            self.ledger.leaving(self.game, self.record_name)
            return leave.status
        return 0  # pragma: no cover - the loop only ends by GameExit

    def _main_loop(self, restore: bool) -> None:
        game = self.game
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
                self.face.begin_hand(restore)
                self.play_hand()
                ended, name = game.copy(), self.record_name
                self.record(lambda stats, ended=ended, name=name: stats.hand_over(ended, name))  # type: ignore[misc]
                if self.resumed is not None and rules.game_over(game):
                    self.resumed.spend()  # the game it held is over
                self.check_more()
                restore = False
                if rules.game_over(game):
                    break

    def play_hand(self) -> None:
        """Play the hand to its end through the engine's hand driver (:mod:`mille.engine.driver`).

        The person's seat asks the front end (:class:`_PersonSeat`), the
        computer's asks its player and has the front end announce the move
        (:class:`_ComputerSeat`), and the observer (:class:`_Observer`)
        acts between moves and has the front end show each: the same
        calls, in the same order, as the original's ``domove`` and main
        loop made.
        """
        # Imported here, not at the top: the first board does not need it.
        from ..engine.driver import play_hand

        seats: list[Player] = [_PersonSeat(self), _ComputerSeat(self, self.computer)]
        dice = self.computer_dice
        all_dice = [dice, dice]
        for player, own in self.others:  # a larger table (mille --players): every other seat a computer
            seats.append(_ComputerSeat(self, player))
            all_dice.append(own)
        play_hand(self.game, seats, all_dice, observer=_Observer(self), strict=False)

    def check_more(self) -> None:
        """End-of-hand questions: another hand or game, then perhaps save (§5.5)."""
        game = self.game
        if rules.game_over(game):
            if self.ask(ANOTHER_GAME_PROMPT):
                return
            rules.settle_game(game)
        elif self.ask(ANOTHER_HAND_PROMPT):
            return
        if not self.saved and self.ask(SAVE_GAME_PROMPT) and not self.save():
            return
        self.die(0)

    def die(self, status: int) -> None:
        raise GameExit(status)

    def rub(self) -> None:
        """The interrupt key or Q: make sure the player really wants to quit (§9.5)."""
        self.in_interrupt = True
        try:
            if self.ask(REALLY_PROMPT):
                self.die(0)
        finally:
            self.in_interrupt = False

    # ------------------------------------------------------------------
    # What the terminal reports

    def on_event(self, event: int | None) -> None:
        """Act on a terminal event: a hangup (or the end of input: the terminal went away)
        keeps the game and leaves (exit 1), a request to leave from the too-small message
        leaves, an interrupt opens ``Really?`` as the original's handler did at once (§9.5),
        unless it is open already."""
        if event == HANGUP or event == END_OF_INPUT:
            self.hangup()
        elif event == LEAVE:
            self.leave()
        elif event == INTERRUPT and not self.in_interrupt:
            self.rub()

    def between_moves(self) -> None:
        """Act on what the terminal reported while the game moved without reading keys.

        Signals become terminal events, which a key read hands over; a game
        that moves without reading keys (the computer thinking, a seat with
        no cards passing, a computer player stuck on a refused move) would
        otherwise never hear a hangup or an interrupt.  So between moves the
        game is noted for a crash save, then the front end is polled
        (:meth:`on_event`).
        """
        self.keep_snapshot()
        self.on_event(self.face.poll())

    def think(self, work: Callable[[], T]) -> T:
        """``work()`` (the computer's choice) on a thread of its own, the terminal heard meanwhile.

        A computer player that takes long, or never returns, must not
        hang the game: while it thinks, what the terminal reports is acted
        on at once (:meth:`on_event`: a hangup, the end of input, SIGTERM
        or ``^\\`` keep the game as it stands, before the computer's move,
        and leave; ``^C`` opens ``Really?``, where ``S`` saves).  Keys are
        not read meanwhile: typed ahead, they wait for the next prompt, as
        in the original, which read none while its computer played.  Only
        this thread draws; the worker only chooses, from its observation,
        and is left behind if the program leaves first (a daemon thread).
        """
        import signal
        import threading

        done: list[tuple[bool, object]] = []
        ready, wake = os.pipe()

        def run() -> None:
            try:
                done.append((True, work()))
            except BaseException as exc:  # handed over to this thread, which raises it
                done.append((False, exc))
            finally:
                try:
                    os.write(wake, b".")
                except OSError:  # pragma: no cover - the game left first and closed its end
                    pass
                os.close(wake)

        worker = threading.Thread(target=run, name="mille-computer", daemon=True)
        # Signals are this thread's: the worker starts with them blocked, so
        # that the kernel never hands one to it while this thread waits.
        mask = getattr(signal, "pthread_sigmask", None)
        blocked = None
        if mask is not None:
            blocked = mask(signal.SIG_BLOCK, _heard_signals())
        try:
            worker.start()
        finally:
            if mask is not None and blocked is not None:
                mask(signal.SIG_SETMASK, blocked)
        try:
            while True:
                event = self.face.wait(ready)
                if event is None:
                    break
                self.on_event(event)
        finally:
            os.close(ready)
        worker.join()
        made, value = done[0]
        if not made:
            raise value  # type: ignore[misc]
        return value  # type: ignore[return-value]

    def hangup(self) -> None:
        """The terminal went away (or we were told to stop): keep the game, leave."""
        self._keep_game()
        self.die(1)

    def leave(self) -> None:
        """Quit from the too-small-terminal message: the game is kept as on a hangup, status 0."""
        self._keep_game()
        self.die(0)

    def computer_failed(self, exc: Exception) -> None:
        """The computer's player raised ``exc``: a bot in another process that failed leaves the game kept.

        Such a bot (:class:`~mille.engine.driver.PlayerError`: it crashed,
        answered garbage, took too long) is already gone: the game is kept
        as on a hangup, :attr:`computer_failure` says why, and the program
        leaves with status 1.  Anything else is a fault of the program
        itself, and goes on up.
        """
        from ..engine.driver import PlayerError

        if isinstance(exc, PlayerError):
            self.computer_failure = exc.message
            self._keep_game()
            self.die(1)

    def saved_game(self, game: Game | None = None) -> SavedGame:
        """What a save of ``game`` (the game itself unless given) holds: it, the score window, the computer's name."""
        from ..files.save import SavedGame

        return SavedGame(self.game if game is None else game, self.window, self.computer_name)

    def _keep_game(self) -> None:
        kept = self.keeper.keep(self.saved_game())
        if kept is not None:
            computer = self.record_name
            self.record(lambda stats: stats.saved(kept, computer))

    # ------------------------------------------------------------------
    # The save dialog (§10.1) and the hint

    def save(self) -> bool:
        """The save dialog (§10.1); True if the game was written.

        The game is saved as it is: at ``Extension?`` it holds the question
        itself (the card counted and still in the hand), so the save is
        consistent and a restore asks again (§12.3).
        """
        self.face.save_begins()
        try:
            done = self._save_dialog()
        except BaseException:
            self.face.save_ends(None)
            raise
        self.face.save_ends(done)
        return done

    def _save_dialog(self) -> bool:
        name: str
        if self.from_file is not None and self.ask(SAME_FILE_PROMPT):
            name = self.from_file
        else:
            name = self.face.read_file_name()
            if not name:
                return False
            # lexists: a dangling symbolic link is an existing name too.
            if self.from_file is None and os.path.lexists(name) and not self.ask(OVERWRITE_PROMPT):
                return False
        if self.save_writer is None:
            self.face.error("saving is not available")
            return False
        try:
            self.save_writer(name, self.saved_game(self.game.copy()))
        except OSError as exc:
            self.face.error(exc.strerror or str(exc))
            return False
        saved, computer = self.game.copy(), self.record_name
        self.record(lambda stats: stats.saved(saved, computer))
        if self.resumed is not None:
            self.resumed.spend(written=name)  # the game is safe in the save
        self.face.tell(f"{name} [{time.ctime()}]")  # C ctime() layout
        return True

    def hint(self) -> None:
        """The hint (``--hints``): the adviser's move from the person's seat, told.

        The adviser is shown the person's observation only, as any player
        is (:mod:`mille.ui.hints`); ``thinking...`` is told first if it
        takes more than a blink.
        """
        assert self.hints is not None
        from ..engine.observation import observe

        face = self.face
        text = self.hints.advise(observe(self.game, YOU), lambda: face.tell("thinking..."))
        face.hint(text)
        self.record(lambda stats: stats.hint_used())


def _heard_signals() -> set[int]:
    """The signals the front end turns into events (and ^Z, ncurses'): kept off the computer's thread."""
    import signal

    names = ("SIGINT", "SIGHUP", "SIGTERM", "SIGQUIT", "SIGWINCH", "SIGTSTP", "SIGCONT")
    return {getattr(signal, name) for name in names if hasattr(signal, name)}


class _PersonSeat:
    """The person's seat: moves and answers asked of the front end.

    Its ``inform`` (the driver's hook: every move made at the table, as
    this seat sees it) is :attr:`GameFlow.told`, when the face asked to be
    told, and with hints the hints' adviser hears it too (with the seat's
    ``hand_over`` and each of its own observations), so that a hint's
    expert has read the table as the computer's own does
    (:mod:`mille.ui.hints`); with neither it has none, and the driver makes
    no events for it.
    """

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        told = flow.told
        hints = flow.hints
        inform: Callable[[Event], None] | None = told
        if hints is not None:
            heard = hints.inform
            if told is None:
                inform = heard
            else:

                def both(event: Event) -> None:
                    told(event)
                    heard(event)

                inform = both
            self.hand_over = lambda result: hints.hand_over()
        if inform is not None:
            self.inform = inform

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        hints = self.flow.hints
        if hints is not None:
            hints.observe(observation)
        if observation.phase is Phase.EXTENSION:
            return EXTEND if self.flow.ask(EXTENSION_PROMPT) else NO_EXTENSION
        if observation.phase is Phase.REACTION:
            # Out of turn, at a larger table (R10): the safety against the hazard just put on your side.
            slot = rules.coup_slot(self.flow.game)
            if slot is not None and self.flow.ask(COUP_PROMPT):
                return Move(MoveType.PLAY, slot)
            return rules.PASS
        return self.flow.read_move()


class _ComputerSeat:
    """The computer's seat: its player, with the front end's announcements.

    ``Extension?`` is answered silently.  Otherwise the player is asked
    for a :class:`~mille.players.Decision` (:func:`mille.players.decision`:
    its own ``decide``, or its ``choose`` with the move weighed if it is a
    discard or a play that is not a safety) and the front end announces it
    (the board: ``PLAY`` or ``DISCARD`` with the card for a weighed move,
    §8.6).

    The driver's optional hooks (``inform``, ``hand_over``) are the
    player's own, passed through: the seat has them exactly when its
    player does, so a player without them costs nothing.
    """

    def __init__(self, flow: GameFlow, player: Player) -> None:
        self.flow = flow
        self.player = player
        inform = getattr(player, "inform", None)
        if inform is not None:
            self.inform = inform
        hand_over = getattr(player, "hand_over", None)
        if hand_over is not None:
            self.hand_over = hand_over

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        player, think = self.player, self.flow.think
        try:
            if observation.phase is Phase.EXTENSION:
                return think(lambda: player.choose(observation, rng))
            made = think(lambda: decision(player, observation, rng))
        except Exception as exc:
            self.flow.computer_failed(exc)
            raise
        self.flow.face.announce(made, observation)
        return made.move


class _Observer:
    """The hand driver's observer: between moves, the flow's business; after a move, the front end's."""

    def __init__(self, flow: GameFlow) -> None:
        self.flow = flow
        if flow.public is not None:
            self.inform = flow.public

    def before_move(self, game: Game) -> None:
        self.flow.between_moves()

    def after_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        if seat == YOU or seat in self.flow.people:
            self.flow.record(lambda stats: stats.moved())  # quitting unsaved now abandons the game
        self.flow.face.show_move(game, seat, move, outcome)
