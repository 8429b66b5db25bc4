"""A guest's side (``mille --join alice``, or ``alice@host`` over ssh): one run at every table, on every face.

The guest's process never holds the game: it is handed only its seat's
view (:mod:`.messages`: protocol 2's observation; its own hand, every side's
tableau, every hand's size; never another hand nor the deck) and draws or
says the game from it (:mod:`.view`), on the face chosen by the host's
``hello``: the original's board at two seats (:class:`BoardGuest`, the
person in its left column), the larger tables' board at more
(:class:`TableGuest`), or lines (:mod:`mille.ui.people.inlines`).  One run
(:class:`GuestRun`) does the rest at every table and on every face:

* the link to the host, its messages followed, and heard while a key or a
  line is awaited (the terminal watches the link);
* a move checked against the guest's own view before it is sent: a move
  the rules refuse is told at once in the engine's words (:func:`.view.refusal`;
  the host checks it again);
* keys typed while nothing is asked answered at once (``Q`` leaves), never
  kept for the next prompt;
* the host's goodbye; and when the link breaks with the host's mille alive
  (ssh killed, a network drop), the guest told at once and asked
  ``Wait/Leave?`` by the face's choice question: ``W`` tries the host's
  game again every :data:`RETRY` seconds (:class:`Reaching`) and takes the
  seat back as soon as it answers; ``L`` leaves, the host keeping the game.
"""

from __future__ import annotations

import os
import threading
import time

from ...engine.rules import EXTEND, NO_EXTENSION, PASS, Move, MoveType, Phase
from ...engine.state import Game
from ...files.safeio import shown
from ..app import BoardFace
from ..flow import COUP_PROMPT, EXTENSION_PROMPT, REALLY_PROMPT, Choice, GameExit, Request
from ..layout import ScoreView
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE, RESIZED, Heard
from ..tableboard import PROMPT_ROW, TableBoardFace
from . import messages
from .link import Link, LinkClosed, Ticker, beat_after, silence
from .messages import Bye, Decide, Hello, MessageError, Missed, Moved, News, Refused, Said, Talk, View, Withdrawn
from .narration import move_text
from .rendezvous import RendezvousError
from .talk import read_talk, show_story
from .view import fitted, name, public_view, refusal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn, Protocol

    from ...engine.driver import Event
    from ...files.recorder import Recorder
    from ..cursesterm import CursesTerminal
    from ..hints import Adviser
    from ..plain.lines import LineTerminal
    from ..surface import Terminal

    class GuestFace(Protocol):
        """What a guest's run asks of its face (the board at two seats, the larger tables' board, lines)."""

        @property
        def game(self) -> Game:
            """The game drawn (the flow's, for the face's own prompts)."""
            ...

        def start(self) -> None:
            """The first screen, before the host's first view: waiting for the host."""

        def hello(self, hello: Hello, back: bool) -> None:
            """The host's hello again: the people seated now; ``back``: after our return (else someone took a seat)."""

        def view(self, view: View, reading: bool) -> None:
            """A new view; whose turn it is said unless ``reading`` (a key or a line is awaited)."""

        def moved(self, event: Event) -> None:
            """A move every seat saw (before the view after it)."""

        def said(self, text: str) -> None:
            """The host's line for the message line."""

        def talked(self, talk: Talk) -> None:
            """A line of talk at the table (not yet escaped)."""

        def news(self, text: str) -> None:
            """Who came, who went, who took a seat, who watches (not yet escaped)."""

        def missed(self, missed: Missed) -> None:
            """What was told at the table while we were away, oldest first (not yet escaped)."""

        def refused(self, text: str) -> None:
            """The host refused our move: its words, with the bell, kept while the move is asked again."""

        def decide(self, decide: Decide) -> Move:
            """Our move, read at the face's prompt: a legal one (another is told its refusal and asked again)."""
            ...

        def withdrawn(self) -> None:
            """The question asked no longer stands (the host let the computer answer it): its prompt gone, and said."""

        def choose(self, choice: Choice) -> str | Request:
            """A question answered with a letter (:meth:`mille.ui.flow.Face.choose`)."""
            ...

        def tell(self, text: str) -> None:
            """A line of the guest's own (escaped here) on the message line."""

        def idle(self) -> None:
            """Nothing asked: keys (or lines) typed answered at once until a watched descriptor ends the wait."""

        def really(self) -> bool:
            """``Really?`` asked: True to leave."""
            ...

    class Watching(Protocol):
        """What a guest's run asks of its terminal: other descriptors heard while it waits (:meth:`Terminal.watch`)."""

        def watch(self, fd: int, callback: Callable[[], None]) -> None: ...
        def unwatch(self, fd: int) -> None: ...
        def wait(self, ready: int) -> int | None: ...

    #: How a run makes its face on its terminal: (the host's hello, the run's flow).
    MakeFace = Callable[[Hello, "GuestFlow"], GuestFace]

__all__ = [
    "RETRY",
    "BoardGuest",
    "GuestFlow",
    "GuestRun",
    "Reaching",
    "TableGuest",
    "join",
    "join_stdio",
    "knocked",
    "whose_turn",
]

#: Seconds between tries to reach the host's game again while waiting for it.
RETRY = 0.5
#: What a key typed while nothing is asked of the guest is told.
NOT_YOUR_TURN = "not your turn: Q leaves, T talks"


def left_line(host: str, command: str) -> str:
    """The last line of a guest who left (the host keeps the game), on any face."""
    return f"mille: you left the game; {host} keeps it (join again with: {command})"


def ended_line(why: str, host: str, command: str) -> str:
    """The last line of a guest whose link to the host went (``why``) and who did not wait for it."""
    return f"mille: the game ended: {why}; {host} keeps it (join again with: {command})"


def other_table(host: str, command: str) -> str:
    """The last line when the host's game reached again is another table than the one we sat at."""
    return f"mille: {host}'s game is another table now; join it with: {command}"


def gone_choice(host: str) -> Choice:
    """The guest's question when the link to the host broke."""
    return Choice(
        "Wait/Leave?",
        f"w waits for {host}'s game to take you back, l leaves ({host} keeps the game):",
        "wl",
        (f"wait for {host}", "leave"),
    )


def waiting_choice(host: str) -> Choice:
    return Choice("Waiting...", f"Waiting for {host}; RETURN brings the choice back.")


def whose_turn(view: View, names: dict[int, str]) -> str | None:
    """The message line while another seat moves, or the host answers the end of a hand: who is thinking (``names``:
    the people by seat, shown); None on our turn."""
    obs = view.obs
    seat = 0 if view.finished or obs.phase is Phase.HAND_OVER else obs.to_move
    if seat == obs.seat:
        return None
    if seat in names:
        return f"{names[seat]} is thinking..."
    return f"seat {seat + 1} (the computer) is thinking..."


def talk_words(talk: Talk) -> str:
    """A line of talk as a face shows it: who said it (a watcher marked so), then the line (not yet escaped)."""
    return f"{talk.who} (watching): {talk.text}" if talk.watcher else f"{talk.who}: {talk.text}"


def missed_words(missed: Missed) -> str:
    """The story missed, as a board says it (in 20 columns: the two-seat board's prompt line): how much, and the
    key that reads it."""
    return f"{min(len(missed.entries), 999)} missed; M reads"


def seat_names(hello: Hello) -> dict[int, str]:
    """The people's names by seat in ``hello``, the host's among them, as faces show them."""
    names = {seat: name(text) for seat, text in hello.names.items() if seat != hello.seat}
    names[0] = name(hello.host)
    return names


class Rejoined(Exception):
    """The host's game was reached again after a drop: the run goes on reading its messages (its hello first)."""


class _Withdrawn(Exception):
    """The question being answered was withdrawn by the host (the computer answered it)."""


class Reaching:
    """The host's game tried again, one attempt at a time, every :data:`RETRY` seconds, on a thread of its own.

    An attempt is ``reconnect()`` (the socket on this machine, or ssh
    again): a link is made at once over ssh, or on a socket nobody has
    accepted yet, so the host counts as reached only once its hello has
    come (left to be read again: the run reads it first).  An attempt that
    fails, or a link that ends before the hello, is tried again.  The
    thread says it reached the host by a byte on :attr:`reached_fd`, which
    the face's question watches.
    """

    def __init__(self, reconnect: Callable[[], Link]) -> None:
        self.reconnect = reconnect
        self.reached: Link | None = None
        self.reached_fd, self._wake = os.pipe()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mille-reaching", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            tried = time.monotonic()
            try:
                link: Link | None = self.reconnect()
            except (OSError, LinkClosed, RendezvousError):
                link = None
            while link is not None and not self._stop.is_set():
                try:
                    if link.peek_message(timeout=0.1) is not None:
                        self.reached = link
                        os.write(self._wake, b".")
                        return
                except LinkClosed:
                    link.close()
                    link = None
            if link is not None:
                link.close()
            self._stop.wait(max(0.0, RETRY - (time.monotonic() - tried)))

    def stop(self) -> Link | None:
        """No more tries; the link to the host's game if it was reached."""
        self._stop.set()
        self._thread.join(5)
        for fd in (self.reached_fd, self._wake):
            os.close(fd)
        return self.reached


class GuestFlow:
    """What a guest's faces ask of a flow (:class:`mille.ui.flow.Flow`): the game drawn, no hints, no banner; the
    terminal's events are the run's (a hangup leaves, an interrupt asks ``Really?``)."""

    hints: Adviser | None = None
    restore_banner: str | None = None
    #: ``T`` talks: a guest always has people at the table.
    talks = True

    def __init__(self, run: GuestRun) -> None:
        self.run = run
        self.in_interrupt = False

    @property
    def game(self) -> Game:
        return self.run.face.game

    def keep_snapshot(self) -> None:
        pass

    def catch_up(self) -> None:
        pass

    def hangup(self) -> None:
        self.run.leave(1)

    def on_event(self, event: int | None) -> None:
        if event == HANGUP or event == END_OF_INPUT or event == LEAVE:
            self.run.leave(1)
        elif event == INTERRUPT and not self.in_interrupt:
            self.in_interrupt = True
            try:
                self.run.really()
            finally:
                self.in_interrupt = False


class GuestRun:
    """One guest's run, whatever its face: the link to the host, the host's messages, the leaving, the way back.

    ``hello`` is the host's first (it says the table and the seat),
    ``command`` what joins again (``mille --join alice``, as typed),
    ``reconnect`` a new link to the host made as the first was (None: a
    drop ends the run), ``make_face`` the face; ``record``: the guest's
    record of games is kept (the hands and games played with the host,
    under ``person:HOST``, as the host's are under the guest's name).
    """

    def __init__(
        self,
        term: Watching,
        link: Link,
        hello: Hello,
        command: str,
        reconnect: Callable[[], Link] | None,
        make_face: MakeFace,
        record: bool = False,
    ) -> None:
        self.term = term
        self.link = link
        self.seat, self.table = hello.seat, hello.table
        self.host = name(hello.host)
        self.command = command
        self.reconnect = reconnect
        #: The last line, said once the terminal is back (None: nothing).
        self.last: str | None = None
        self.flow = GuestFlow(self)
        self.face = make_face(hello, self.flow)
        self._listening: int | None = None
        #: The last view or question was our turn: the next question is on its way (keys wait for it).
        self._ours = False
        #: The record of games (made at its first event; None: not kept), and what it is told of.
        self._recording = record
        self._recorder: Recorder | None = None
        self.record_name = ("person:" + hello.host)[:64]
        #: The other people at the table by seat, as the host names them (the host's, and each hello's again).
        self.people = {seat: text for seat, text in hello.names.items() if seat != hello.seat}
        #: The hand of the last view was over (None: no view yet), and that view's game.
        self._finished: bool | None = None
        self._last: Game | None = None
        #: The last line of the table's story heard (its number; None: none), said when knocking again after a drop.
        self.heard: int | None = None
        #: The link is a new one, after a drop: its hello is our return.
        self._back = False
        #: The number of the question being answered (None: none).
        self._asking: int | None = None

    # ------------------------------------------------------------------
    # The link, heard by the terminal

    def _listen(self, callback: Callable[[], None]) -> None:
        self._unlisten()
        if not self.link.closed:
            self._listening = self.link.fileno()
            self.term.watch(self._listening, callback)

    def _unlisten(self) -> None:
        if self._listening is not None:
            self.term.unwatch(self._listening)
            self._listening = None

    def pump(self) -> None:
        """The host's messages that came while a key or a line is awaited: views and lines shown, a goodbye acted on."""
        try:
            while True:
                message = self.link.poll_message()
                if message is None:
                    return
                self.handle(message, reading=True)
        except LinkClosed as exc:
            self.gone(str(exc))

    # ------------------------------------------------------------------
    # The run

    def _tick(self, ticker: Ticker) -> None:
        """Time to say a word to the host if we were quiet, and to hear whether it has been silent too long (a frozen
        network: then the link is gone, and the guest chooses)."""
        ticker.take()
        link = self.link
        if link.closed:
            return  # gone: the choice is being asked
        if link.silent():
            self.gone(f"nothing heard from {self.host} for {silence():g} s")
        if link.quiet():
            try:
                link.send(messages.beat())
            except LinkClosed as exc:
                self.gone(str(exc))

    def run(self) -> int:
        """Play until the game ends or a side leaves (at a drop, after the choice); the exit status."""
        ticker = Ticker(beat_after() / 3)
        self.term.watch(ticker.fd, lambda: self._tick(ticker))
        try:
            return self._run()
        finally:
            self.term.unwatch(ticker.fd)
            ticker.stop()

    def _run(self) -> int:
        self.face.start()
        while True:
            try:
                self.follow()
            except Rejoined:
                self._back = True
                continue
            except MessageError as exc:
                self._unlisten()
                self.link.close()
                self.last = f"mille: the host sent garbage ({shown(str(exc))[:100]})"
                return 1
            except GameExit as leave:
                self._unlisten()
                return leave.status

    def follow(self) -> NoReturn:
        """The host's messages handled as they come; between them, while another seat moves, keys answered at once
        (nothing is asked of us; on our turn, the keys typed wait for the question on its way).

        Ends only by an exception: :class:`Rejoined` after a drop, :class:`GameExit` at the end.
        """

        def wake() -> None:
            raise Heard

        while True:
            message: dict[str, object] | None = None
            try:
                message = self.link.poll_message()
            except LinkClosed as exc:
                self.gone(str(exc))
            if message is not None:
                self.handle(message)
                continue
            if self._ours:
                event = self.term.wait(self.link.fileno())
                if event is not None:
                    self.flow.on_event(event)
                continue
            self._listen(wake)
            try:
                self.face.idle()
            except Heard:
                pass
            finally:
                self._unlisten()

    def handle(self, message: dict[str, object], reading: bool = False) -> None:
        """One message of the host's (``reading``: a key or a line is awaited, nothing asked of us)."""
        got = messages.read(message, self.table.seats)
        if isinstance(got, View):
            self._ours = got.obs.to_move == self.seat and not got.finished
            self.face.view(got, reading)
            self._note(got)
        elif isinstance(got, Moved):
            self._heard(message.get("n"))
            self.face.moved(got.event)
        elif isinstance(got, Said):
            self.face.said(got.text)
        elif isinstance(got, Talk):
            self._heard(got.n)
            self.face.talked(got)
        elif isinstance(got, News):
            self._heard(got.n)
            self.face.news(got.text)
        elif isinstance(got, Missed):
            if got.entries:
                self._heard(got.entries[-1].n)
                self.face.missed(got)
        elif isinstance(got, Refused):
            self.face.refused(got.text)
        elif isinstance(got, Bye):
            self.bye(got.text)
        elif isinstance(got, Withdrawn):
            if reading and got.ask == self._asking:
                raise _Withdrawn
        elif isinstance(got, Hello):  # again, after a return: the seat we sat in, or we leave
            if got.seat != self.seat or got.table != self.table:
                self.link.close()
                self.last = other_table(self.host, self.command)
                raise GameExit(1)
            self.face.hello(got, self._back)
            self._back = False
            self.people = {seat: text for seat, text in got.names.items() if seat != self.seat}
        elif isinstance(got, Decide) and not reading:
            self._ours = True
            self._asking = got.ask
            self._listen(self.pump)
            try:
                move = self.face.decide(got)
            except _Withdrawn:
                self.face.withdrawn()
                return
            finally:
                self._unlisten()
                self._asking = None
            try:
                self.link.send(messages.move(move, got.ask))
            except LinkClosed as exc:
                self.gone(str(exc))
            recorder = self.recorder
            if recorder is not None:
                recorder.moved()  # leaving now, the game is abandoned

    def talk(self, text: str) -> None:
        """Our line of talk, to the host (who tells the table, and us, unless we talk too fast)."""
        line = text.strip()[: messages.MAX_TALK]
        if not line:
            return
        try:
            self.link.send(messages.talk_line(line))
        except LinkClosed as exc:
            self.gone(str(exc))

    def _heard(self, n: object) -> None:
        if type(n) is int and (self.heard is None or n > self.heard):
            self.heard = n

    # ------------------------------------------------------------------
    # The record of games

    @property
    def recorder(self) -> Recorder | None:
        """The guest's record of games (made when first needed), or None when it is not kept."""
        if self._recorder is None and self._recording:
            from ...files.recorder import Recorder

            self._recorder = Recorder(side=self.seat % self.table.sides, people=self.relations)
        return self._recorder

    def relations(self) -> dict[str, str]:
        """Who each other person at the table is to us, by name (the host's among them): partner or opponent."""
        tab = self.table
        mine = tab.side(self.seat)
        return {
            shown(name)[:64]: "partner" if tab.side(seat) == mine else "opponent"
            for seat, name in self.people.items()
            if name
        }

    def _note(self, view: View) -> None:
        """A view: the record of games told of a hand that has just ended (and of the game, if it is over)."""
        game = public_view(view.obs, view.finished)
        ended = game.finished and self._finished is False
        self._finished, self._last = game.finished, game
        recorder = self.recorder
        if ended and recorder is not None:
            recorder.hand_over(game, self.record_name)

    def record_leaving(self) -> list[str]:
        """The run is over: a game played since its last end is abandoned; the record's problems, one line each."""
        recorder = self._recorder
        if recorder is None:
            return []
        if self._last is not None:
            recorder.leaving(self._last, self.record_name)
        return recorder.problems

    def bye(self, text: str) -> NoReturn:
        """The host's goodbye: the game is over for us (its words, escaped, are our last line)."""
        self.last = "mille: " + shown(text)[:200]
        raise GameExit(0)

    def leave(self, status: int, meant: bool = False) -> NoReturn:
        """The run leaves (``meant``: on purpose, the host told so: an open seat we took is open again)."""
        self._unlisten()
        if meant:
            try:
                self.link.send(messages.leave())
            except LinkClosed:
                pass
        self.link.close()
        self.last = left_line(self.host, self.command)
        raise GameExit(status)

    def really(self) -> None:
        """``Really?``: yes leaves the seat (the host keeps the game)."""
        if self.face.really():
            self.leave(0, meant=True)

    def gone(self, why: str) -> NoReturn:
        """The link to the host went (the host's mille ended, or the line broke): told at once, and the guest chooses.

        ``W`` waits for the host's game to take them back (:class:`Reaching`;
        any key brings the choice back; then :class:`Rejoined`), ``L``
        leaves (the host keeps the game): :class:`GameExit`.  Without a way
        back, the run ends.
        """
        self._unlisten()
        self.link.close()
        self.last = ended_line(why, self.host, self.command)
        if self.reconnect is None:
            raise GameExit(1)
        self.face.tell(f"the link to {self.host} is gone ({why})")
        while True:
            answer = self.face.choose(gone_choice(self.host))
            if answer == "l" or answer is Request.QUIT:
                raise GameExit(1)
            if answer == "w":
                self.face.tell(f"waiting for {self.host} (a key: the choice)")
                reached = self._reach()
                if reached is not None:
                    self.link = reached
                    self.last = None
                    raise Rejoined
            else:
                self.face.tell(gone_choice(self.host).keys_line())

    def _reach(self) -> Link | None:
        """Try the host's game again until it answers (its link) or a key brings the choice back (None)."""
        reconnect = self.reconnect
        assert reconnect is not None

        def again() -> Link:
            return knocked(reconnect(), "join", self.heard)  # the lines heard: those missed are told

        reaching = Reaching(again)

        def reached() -> None:
            raise Heard

        self.term.watch(reaching.reached_fd, reached)
        try:
            self.face.choose(waiting_choice(self.host))
        except Heard:
            pass
        finally:
            self.term.unwatch(reaching.reached_fd)
        return reaching.stop()


# ----------------------------------------------------------------------
# The faces on the board


def turned(game: Game, seat: int) -> Game:
    """A two-seat ``game`` with ``seat`` in the original's left column (seat 0), as its board draws the person."""
    if seat == 0:
        return game
    game.players = [game.players[1], game.players[0]]
    game.to_move = 1 - game.to_move
    game.hand_starter = 1 - game.hand_starter
    game.order = False  # the Order toggle sorts the host's hand, not this one
    return game


class BoardGuest:
    """A guest on the original's board at two seats: the board's own face (:class:`~mille.ui.app.BoardFace`) drawn
    from the guest's view, the guest in the left column and the host's name heading the ``Comp`` one."""

    def __init__(self, term: Terminal, hello: Hello, flow: GuestFlow) -> None:
        self.term = term
        self.flow = flow
        self.seat = hello.seat
        self.host = name(hello.host)
        self.names = seat_names(hello)
        self.board = BoardFace(term, Game(deck=[], deck_count=0), ScoreView.SMALL)
        self.board.attach(flow)
        self.board.display.other_name = self.host
        #: The game as the host's game has it (the guest's seat where it sits), to check moves on.
        self.public = self.board.game
        #: A view has been drawn (the score window's layout with it).
        self._drawn = False
        #: The table's story as this board heard it (``M``): the moves, the talk, the news, what was missed.
        self.story: list[str] = []
        self._event: Event | None = None
        #: Every person's name by seat, ours too (the story names every seat).
        self.everyone = {**self.names, self.seat: name(hello.you)}
        #: The host refused our last move: its reason stays on the message line.
        self._refused = False

    @property
    def game(self) -> Game:
        return self.board.game

    def start(self) -> None:
        self.board.display.newboard()
        self.tell(f"waiting for {self.host}...")

    def hello(self, hello: Hello, back: bool) -> None:
        self.names = seat_names(hello)
        self.everyone = {**self.names, self.seat: name(hello.you)}

    def tell(self, text: str) -> None:
        self.board.tell(fitted(shown(text)))

    def _told(self, line: str) -> None:
        self.story.append(shown(line))
        del self.story[:-400]

    def talked(self, talk: Talk) -> None:
        self._told(talk_words(talk))
        self.tell(talk_words(talk))

    def news(self, text: str) -> None:
        self._told(text)
        self.tell(text)

    def missed(self, missed: Missed) -> None:
        """On the prompt line, where nothing is asked now (the message line says whose turn it is); ``M`` reads it."""
        for entry in missed.entries:
            self._told(entry.text)
        self.board.prompt_line(missed_words(missed))

    def read_story(self) -> None:
        """``M``: the table's story in the board's window until a key, then the board again."""
        from ..layout import BOARD_COLS, BOARD_WINDOW

        show_story(self.term.board, self.story, BOARD_WINDOW[0], BOARD_COLS, self.board.dialogs.readch)
        self.board.display.repaint()

    def _error(self, text: str) -> None:
        """A refusal, with the bell, shown at once (the original's showed at the next score refresh, §8.5)."""
        self.board.dialogs.error(fitted(shown(text)))
        self.term.score.refresh()

    def view(self, view: View, reading: bool) -> None:
        display = self.board.display
        before = display.game.finished
        self.public = public_view(view.obs, view.finished)
        game = turned(public_view(view.obs, view.finished), self.seat)
        self.board.game = display.game = game
        if game.finished != before or not self._drawn:
            self._drawn = True
            display.newscore()
        display.prboard()
        event, self._event = self._event, None
        if event is not None:
            text = move_text(event, self.public, self.everyone)
            if text is not None:
                self._told(text)
        turn = None if reading else whose_turn(view, self.names)
        if turn is not None:
            self.tell(turn)

    def moved(self, event: Event) -> None:
        """The other's play or discard shown as the original showed its computer's (``PLAY``, ``DISCARD``, the card)."""
        self._event = event  # (told in the story with the view after it)
        if event.seat != self.seat and event.kind in (MoveType.PLAY, MoveType.DISCARD) and event.card >= 0:
            from ...engine import cards

            if event.kind is MoveType.DISCARD or not cards.is_safety(event.card):
                self.board.display.show_action("DISCARD" if event.kind is MoveType.DISCARD else "PLAY", event.card)

    def said(self, text: str) -> None:
        self.tell(text)

    def refused(self, text: str) -> None:
        self._error(text)
        self._refused = True  # it stays on the message line while the move is asked again

    def decide(self, decide: Decide) -> Move:
        self.view(View(decide.obs, False), reading=True)
        if not self._refused:
            self.board.display.clear_message()  # no longer the other's turn: the prompt says it is ours
        self._refused = False
        self.term.score.refresh()
        if decide.obs.phase is Phase.EXTENSION:
            while True:
                answer = self.board.ask(EXTENSION_PROMPT)
                if answer is True or answer is False:
                    return EXTEND if answer else NO_EXTENSION
                self._error(f"only {self.host} may save")
        while True:
            got = self.board.read_move()
            if isinstance(got, Move):
                if got in decide.legal:
                    return got
                self._error(refusal(self.public, self.seat, got, self.host))
            elif got is Request.QUIT:
                self.flow.run.really()
            elif got is Request.SAVE:
                self._error(f"only {self.host} may save")
            elif got is Request.TALK:
                self.talk()
            elif got is Request.STORY:
                self.read_story()

    def talk(self) -> None:
        """``T``: a line typed on the prompt line, sent (the host tells it back with the table's)."""
        from ..layout import BOARD_COLS, MOVE_X, MOVE_Y

        term = self.term
        try:
            line = read_talk(term, term.board, MOVE_Y, MOVE_X, BOARD_COLS - MOVE_X, self.board.dialogs.readch)
        finally:
            self.board.prompt_line("")
        self.flow.run.talk(line)

    def choose(self, choice: Choice) -> str | Request:
        return self.board.choose(choice)

    def withdrawn(self) -> None:
        self.board.prompt_line("")
        self.tell(f"{self.host} let the computer move")

    def idle(self) -> None:
        while True:
            key = self.board.dialogs.readch()
            letter = chr(key).lower() if 0 <= key < 128 else ""
            if letter == "q":
                self.flow.run.really()
            elif letter == "t":
                self.talk()
            elif letter == "m":
                self.read_story()
            elif letter == "s":
                self._error(f"only {self.host} may save")
            elif key == 0x0C:
                self.term.redraw()
            else:
                self.term.bell()
                self.tell(NOT_YOUR_TURN)

    def really(self) -> bool:
        while True:
            answer = self.board.ask(REALLY_PROMPT)
            if answer is True or answer is False:
                return answer
            self._error(f"only {self.host} may save")


class TableGuest:
    """A guest on the larger tables' board (:class:`~mille.ui.tableboard.TableBoardFace`) from their own seat: "you"
    in their side's box, the people's names where the computers are "seat N", every hand's size."""

    def __init__(self, term: Terminal, hello: Hello, flow: GuestFlow) -> None:
        self.term = term
        self.flow = flow
        self.seat = hello.seat
        self.host = name(hello.host)
        self.names = seat_names(hello)
        self.board = TableBoardFace(term, Game(deck=[], table=hello.table), self.seat, dict(self.names))
        self.board.attach(flow)

    @property
    def game(self) -> Game:
        return self.board.game

    def start(self) -> None:
        self.tell(f"waiting for {self.host}...")

    def hello(self, hello: Hello, back: bool) -> None:
        self.names = seat_names(hello)
        assert self.board.names is not None
        self.board.names.clear()  # (the board's own: the people seated now)
        self.board.names.update(self.names)
        if not back:
            self.board.draw()

    def tell(self, text: str) -> None:
        self.board.say(shown(text)[:79])

    def talked(self, talk: Talk) -> None:
        line = shown(talk_words(talk))
        self.board.noted(line)  # (listed with the moves: M reads it again)
        self.board.draw()
        self.board.say(line[:79])

    def news(self, text: str) -> None:
        self.board.noted(shown(text))
        self.board.draw()
        self.tell(text)

    def missed(self, missed: Missed) -> None:
        """The hand's moves missed listed with the board's moves (``M`` pages back), a note on the prompt line."""
        for entry in missed.entries:
            if entry.n < missed.hand:
                continue  # (the last hand's: the board lists this hand's)
            if entry.event is not None:
                self.board.moved(entry.event)
            else:
                self.board.noted(shown(entry.text))
        self.board.draw()
        self.board.aside(missed_words(missed))

    def view(self, view: View, reading: bool) -> None:
        obs = view.obs
        turn = None if reading else whose_turn(view, self.names)
        if turn is not None:
            self.board.note(turn)
        self.board.show_view(public_view(obs, view.finished), obs.hand_sizes)

    def moved(self, event: Event) -> None:
        self.board.moved(event)  # listed with the view that follows

    def said(self, text: str) -> None:
        self.tell(text)

    def refused(self, text: str) -> None:
        self.board.error(shown(text)[:79])

    def decide(self, decide: Decide) -> Move:
        """This seat's move or answer, read at its prompt; a move its view shows refused is told and asked again."""
        board = self.board
        board.note("")
        self.view(View(decide.obs, False), reading=True)
        phase = decide.obs.phase
        if phase is Phase.EXTENSION or phase is Phase.REACTION:
            while True:
                answer = board.ask(EXTENSION_PROMPT if phase is Phase.EXTENSION else COUP_PROMPT)
                if answer is True or answer is False:
                    break
                board.error(f"only {self.host} may save")
            if phase is Phase.EXTENSION:
                return EXTEND if answer else NO_EXTENSION
            play = next((m for m in decide.legal if m.kind is MoveType.PLAY), None)
            return play if answer and play is not None else PASS
        while True:
            got = board.read_move()
            if got is Request.QUIT:
                self.flow.run.really()
            elif got is Request.SAVE:
                board.error(f"only {self.host} may save")
            elif got is Request.TALK:
                self.talk()
            elif isinstance(got, Move):
                if got in decide.legal:
                    return got
                board.error(refusal(board.game, self.seat, got, self.host))

    def choose(self, choice: Choice) -> str | Request:
        return self.board.choose(choice)

    def withdrawn(self) -> None:
        self.board.unprompt()
        self.tell(f"{self.host} let the computer play your move")

    def idle(self) -> None:
        while True:
            key = self.board.readch()
            letter = chr(key).lower() if 0 <= key < 128 else ""
            if key == RESIZED:
                continue
            if letter == "q":
                self.flow.run.really()
            elif letter == "t":
                self.talk()
            elif letter == "s":
                self.board.error(f"only {self.host} may save")
            elif key == 0x0C or letter == "r":
                self.term.redraw()
                self.board.draw()
            elif not self.board.board_key(key):
                self.board.error(NOT_YOUR_TURN)

    def talk(self) -> None:
        """``T``: a line typed on the prompt line, sent."""
        board = self.board
        asked_at = board.prompting
        try:
            line = read_talk(board.term, board.term.miles, PROMPT_ROW, 0, 80, board.readch)
        finally:
            if asked_at:
                board.prompt(asked_at)
            else:
                board.unprompt()
        self.flow.run.talk(line)

    def really(self) -> bool:
        while True:
            answer = self.board.ask(REALLY_PROMPT)
            if answer is True or answer is False:
                return answer
            self.board.error(f"only {self.host} may save")


def board_face(term: Terminal) -> MakeFace:
    """The guest's board on ``term``: the original's at two seats, the larger tables' at more."""

    def make(hello: Hello, flow: GuestFlow) -> GuestFace:
        if hello.table.seats == 2:
            return BoardGuest(term, hello, flow)
        return TableGuest(term, hello, flow)

    return make


# ----------------------------------------------------------------------
# Joining


def first_hello(link: Link, host: str) -> Hello | None:
    """The host's hello (it comes first, once the host takes us in); None after one line saying why it did not
    come (the link ended, ^C while waiting, another version)."""
    from ..keeping import say

    told = False
    try:
        while True:
            message = link.wait_message(timeout=1.0)
            if message is None:
                pass
            elif message.get("type") in ("say", "beat"):  # (an open seat ours at the next deal; the host is there)
                said = messages.read(message, 2)
                if isinstance(said, Said):
                    say(f"mille: {shown(said.text)[:200]}")
                continue
            else:
                first = messages.read_first(message)
                if isinstance(first, Hello):
                    return first
                say(f"mille: {shown(first.text)[:200]}")  # (a bye: no seat here for us, or no mille of ours there)
                break
            if not told:
                told = True
                say(f"mille: waiting for {shown(host)} to take you in (^C gives up)")
    except (LinkClosed, MessageError) as exc:
        say(f"mille: {shown(str(exc))}")
    except KeyboardInterrupt:
        pass
    link.close()
    return None


def join(target: str, lines: Callable[[LineTerminal], MakeFace] | None = None, record: bool = True) -> int:
    """``mille --join HOST`` (on this machine) or ``HOST@MACHINE`` (over ``ssh MACHINE``); the exit status.

    On the board, chosen by the host's hello (the original's at two seats,
    the larger tables' at more); ``lines``: in lines instead
    (:func:`mille.ui.people.inlines.guest_in_lines`), which needs no terminal.
    ``record``: the guest's record of games is kept (``--no-stats``: not).
    """
    from ..keeping import say
    from .rendezvous import connect

    if lines is None and not (os.isatty(0) and os.isatty(1)):
        say("mille: standard input and output must be a terminal to join a game (mille --plain --join plays in lines)")
        return 1
    host, at, machine = target.partition("@")
    command = f"mille --join {shown(target)}"

    def reconnect() -> Link:
        # Again, under the board: what ssh says would be written over it.
        return over_ssh(host, machine, quiet=True) if at else Link(connect(host))

    try:
        link = knocked(over_ssh(host, machine) if at else Link(connect(host)), "join")
    except LinkClosed:  # closed before a byte was read: nothing there is for us
        say(f"mille: {shown(host)}'s game did not let you in (no seat there is yours, and none is open)")
        return 1
    except (RendezvousError, OSError) as exc:
        say(f"mille: {exc}")
        return 1
    hello = first_hello(link, host)
    if hello is None:
        return 1
    if lines is not None:
        from ..plain.lines import LineTerminal

        term = LineTerminal()
        return _play(term, link, hello, command, reconnect, lines(term), record, fit=True)
    from ..cursesterm import CursesTerminal

    screen = CursesTerminal()
    return _play(screen, link, hello, command, reconnect, board_face(screen), record)


def _play(
    term: CursesTerminal | LineTerminal,
    link: Link,
    hello: Hello,
    command: str,
    reconnect: Callable[[], Link],
    make_face: MakeFace,
    record: bool,
    fit: bool = False,
) -> int:
    """A guest's run on ``term`` to its end; its last line said once the terminal is back; the exit status."""
    from ..keeping import say
    from ..surface import TerminalError

    run: GuestRun | None = None
    try:
        term.start()
        run = GuestRun(term, link, hello, command, reconnect, make_face, record)
        status = run.run()
    except TerminalError as exc:
        term.stop()
        say(f"mille: {exc}")
        return 1
    except KeyboardInterrupt:
        status = 1
    finally:
        term.stop()
        if run is not None:
            run.link.close()
        link.close()
    if run is not None:
        if run.last is not None:
            say(run.last, fit)
        for problem in run.record_leaving():
            say(f"mille: {problem}")
    return status


#: The command that reaches another machine (``MILLE_SSH`` overrides: options, a port, a key).
SSH = "ssh"
#: Where mille may be on the other machine, tried in turn (``MILLE_REMOTE`` names the one to run instead): a
#: ``mille`` on its PATH may be another program (bsdgames' ``/usr/games`` is on a non-interactive ssh's PATH).
REMOTES = ("mille", "python3 -m mille")
#: What this program's ``--version`` says, and another program of the name does not.
MARKER = "bsd-mille"
#: Seconds between ssh's own words to the far side while the link is quiet, and how many unanswered end it.
ALIVE_INTERVAL, ALIVE_COUNT = 10, 3


def remote_command(host: str, machine: str, args: str | None = None) -> str:
    """The command ssh runs on ``machine``: the first of :data:`REMOTES` that is this program (its ``--version``
    says :data:`MARKER`) relays to ``host``'s game (or runs with ``args``: ``--list --json``, :mod:`.lobby`); when
    none is, one ``bye`` line saying so (a POSIX shell's words, whatever the login shell is)."""
    import json
    import shlex

    override = os.environ.get("MILLE_REMOTE")
    candidates = [override] if override else list(REMOTES)
    run = f"--join-stdio {shlex.quote(host)}" if args is None else args
    tried = " and ".join(candidates)
    text = f"there is no bsd-mille on {machine} (tried {tried}): install it there, or name it with MILLE_REMOTE"
    bye = json.dumps({"type": "bye", "text": text})
    script = (
        f"for m in {' '.join(shlex.quote(c) for c in candidates)}; do "
        f"if $m --version 2>/dev/null | grep -q {MARKER}; then exec $m {run}; fi; "
        f"done; printf '%s\\n' {shlex.quote(bye)}"
    )
    return f"sh -c {shlex.quote(script)}"


def knocked(link: Link, want: str, since: int | None = None) -> Link:
    """``link`` to a host's table after its knock (what we want there, the last line of its story heard)."""
    link.send(messages.knock(want, since))
    return link


def over_ssh(host: str, machine: str, quiet: bool = False) -> Link:
    """A link to ``host``'s game on ``machine``: ssh there, this program's ``--join-stdio HOST`` over a socket pair.

    ``quiet``: ssh's own words (to standard error) are dropped, as when the board is up.  ssh says a word itself
    after :data:`ALIVE_INTERVAL` seconds of silence, and gives up after :data:`ALIVE_COUNT` unanswered.
    """
    import shlex
    import socket
    import subprocess

    if not machine or machine.startswith("-") or not host or host.startswith("-"):
        raise RendezvousError(f"cannot join {shown(host)}@{shown(machine)}: name a user and a machine")
    ssh = shlex.split(os.environ.get("MILLE_SSH", SSH))
    alive = ["-o", f"ServerAliveInterval={ALIVE_INTERVAL}", "-o", f"ServerAliveCountMax={ALIVE_COUNT}"]
    mine, theirs = socket.socketpair()
    try:
        subprocess.Popen(
            [*ssh, *alive, "-T", "--", machine, remote_command(host, machine)],
            stdin=theirs.fileno(),
            stdout=theirs.fileno(),
            stderr=subprocess.DEVNULL if quiet else None,
        )
    except OSError as exc:
        mine.close()
        raise RendezvousError(f"cannot run {shown(ssh[0])}: {exc.strerror}") from None
    finally:
        theirs.close()
    return Link(mine)


def join_stdio(host: str) -> int:
    """The far side of ``--join HOST@MACHINE`` and ``--watch HOST@MACHINE``: this machine's ``host``'s table, relayed
    to standard input and output.

    Bytes are only passed on, at most 64 kB at a time each way; the host
    checks who connected (the user ssh logged in), the near side says what
    it wants (its knock) and reads what the host sends.  Ends when either
    side does.
    """
    import select

    from .rendezvous import connect

    try:
        sock = connect(host)
    except RendezvousError as exc:
        os.write(2, (f"mille: {exc}\n").encode("utf-8", "backslashreplace"))
        return 1
    stdin, stdout, peer = 0, 1, sock.fileno()
    try:
        while True:
            ready, _, _ = select.select([stdin, peer], [], [])
            if stdin in ready:
                data = os.read(stdin, 65536)
                if not data:
                    return 0
                sock.sendall(data)
            if peer in ready:
                data = sock.recv(65536)
                if not data:
                    return 0
                os.write(stdout, data)
    except OSError:
        return 1
    finally:
        sock.close()
