"""A watcher's run (``mille --watch alice``, or ``alice@host`` over ssh; docs/people.md, "Watch"): the table as
everyone sees it, on the board or in lines.

A watcher's process is sent only what every seat sees
(:func:`mille.engine.observation.public_view`: the tableaus, the discard,
the deck's and every hand's count, the scores, whose turn the table
sees; never a card of any hand), the moves as the table sees them, the
talk and the news, and when it arrives the story of the hand so far.  It
holds no game and is asked nothing: its keys are the board's own (``W``
the score window, ``M`` earlier moves and talk, ``R`` or ``^L`` a redraw,
``?`` the keys), ``T`` a line of talk and ``Q`` (or ``^C``) leaving at once.

* On the board (:class:`WatchBoard`): the larger tables' board at every
  table size, two seats included, drawn for no seat (no side is "yours",
  no hand: two lines saying who watches and the keys where a hand would
  be), the talk and news listed with the moves.
* In lines (:class:`WatchLines`): each move said as the table's story
  says it (:func:`mille.ui.people.narration.move_text`), the talk whole,
  a new hand and a hand's end announced; ``r`` reads the table, ``w`` the
  scores, ``say TEXT`` talks, ``q`` leaves.
"""

from __future__ import annotations

import os

from ...engine import cards
from ...engine.state import Game
from ...files.safeio import shown
from ..flow import GameExit
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, RESIZED
from ..tableboard import PROMPT_ROW, WATCHER, TableBoardFace
from . import messages
from .link import Link, LinkClosed
from .messages import Bye, MessageError, Missed, Moved, News, Said, TableView, Talk, Watching
from .narration import move_text, seat_words
from .talk import read_talk
from .view import name
from .visit import Visit, VisitFlow, list_missed, listed, missed_lines, reach, talk_said, talk_words, visit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn, Protocol

    from ...engine.driver import Event
    from ...engine.observation import PublicView
    from ..cursesterm import CursesTerminal
    from ..plain.lines import LineTerminal
    from ..surface import Terminal
    from .visit import Listening

    class WatchFace(Protocol):
        """What a watcher's run asks of its face (the board, or lines)."""

        def start(self) -> None: ...
        def table(self, view: PublicView) -> None: ...
        def moved(self, event: Event) -> None: ...
        def said(self, text: str) -> None: ...
        def talked(self, talk: Talk) -> None: ...
        def news(self, text: str) -> None: ...
        def missed(self, missed: Missed) -> None: ...
        def idle(self) -> None:
            """Keys (or lines) answered until a watched descriptor ends the wait (:class:`Heard`)."""

    MakeFace = Callable[[Watching, "WatchFlow"], WatchFace]

__all__ = ["WatchBoard", "WatchFlow", "WatchLines", "WatchRun", "watch"]

_LETTERS = "ABC"
#: How much a watcher's process lowers its own priority where it cannot wait for idle time alone.
WATCHER_NICE = 19


def stand_back() -> None:
    """This process (a watcher's) gives way to every other: the players' processes on the same machine draw first.

    On Linux it runs only when the processor is otherwise idle
    (``SCHED_IDLE``): a table's watchers, however many, take no time the
    players' processes want (``tests/bench/bench_people.py --watchers 20``);
    elsewhere it is niced as far as it goes.  A watcher's board comes a
    moment later than the players' when the machine is busy, never the other
    way round.
    """
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        try:
            os.sched_setscheduler(0, idle, os.sched_param(0))
            return
        except OSError:
            pass
    try:
        os.nice(WATCHER_NICE)
    except OSError:
        pass


class WatchFlow(VisitFlow):
    """A watcher's flow (:class:`.visit.VisitFlow`): no game of their own; ``^C`` leaves at once (a watcher has
    nothing to lose)."""

    run: WatchRun

    def __init__(self, run: WatchRun) -> None:
        super().__init__(run)
        self.game = Game(deck=[], deck_count=0)

    def interrupted(self) -> None:
        self.run.leave(0)


class WatchRun(Visit):
    """One watcher's run (:class:`.visit.Visit`): the host's messages shown, the talk sent, the leaving."""

    face: WatchFace

    def __init__(self, term: Listening, link: Link, welcome: Watching, command: str, make_face: MakeFace) -> None:
        super().__init__(term, link, welcome.host, command)
        self.seats = welcome.table.seats
        self.flow = WatchFlow(self)
        self.face = make_face(welcome, self.flow)

    def handle(self, message: dict[str, object]) -> None:
        got = messages.read(message, self.seats)
        if isinstance(got, TableView):
            self.face.table(got.view)
        elif isinstance(got, Moved):
            self.face.moved(got.event)
        elif isinstance(got, Talk):
            self.face.talked(got)
        elif isinstance(got, News):
            self.face.news(got.text)
        elif isinstance(got, Missed):
            if got.entries:
                self.face.missed(got)
        elif isinstance(got, Said):
            self.face.said(got.text)
        elif isinstance(got, Bye):
            self.link.close()
            self.last = "mille: " + shown(got.text)[:200]
            raise GameExit(0)

    def leave(self, status: int) -> NoReturn:
        self.link.close()
        self.last = f"mille: you stopped watching {self.host}'s game (watch again with: {self.command})"
        raise GameExit(status)

    def gone(self, why: str) -> NoReturn:
        self.link.close()
        self.last = f"mille: {self.host}'s game is gone from here ({why}); watch again with: {self.command}"
        raise GameExit(1)


def _names(welcome: Watching) -> dict[int, str]:
    return {seat: name(text) for seat, text in welcome.names.items()}


class WatchBoard:
    """A watcher on the larger tables' board, at every table size, drawn for no seat."""

    def __init__(self, term: Terminal, welcome: Watching, flow: WatchFlow) -> None:
        self.term = term
        self.flow = flow
        self.host = name(welcome.host)
        self.board = TableBoardFace(term, Game(deck=[], table=welcome.table), WATCHER, _names(welcome))
        self.board.attach(flow)
        self.board.rows = [f"Watching {self.host}'s game: you see what every seat sees, and no hand", ""]
        #: The table has been drawn once.
        self._seen = False

    def start(self) -> None:
        self.board.note(f"waiting for {self.host}'s table...")
        self.board.draw()

    def table(self, view: PublicView) -> None:
        if not self._seen:
            self._seen = True
            self.board.note("")  # (no longer waiting)
        self.board.show_view(view.public_game(), view.hand_sizes)

    def moved(self, event: Event) -> None:
        self.board.moved(event)

    def said(self, text: str) -> None:
        self.board.say(shown(text)[:79])

    def talked(self, talk: Talk) -> None:
        listed(self.board, talk_words(talk))

    def news(self, text: str) -> None:
        listed(self.board, text)

    def missed(self, missed: Missed) -> None:
        """The hand's story so far listed with the moves (``M`` pages back), and how much there was."""
        list_missed(self.board, missed)
        count = len(missed.entries)
        self.board.say(f"{count} line{'s' if count != 1 else ''} of this hand before you came: m reads them")

    def idle(self) -> None:
        board = self.board
        while True:
            key = board.readch()
            letter = chr(key).lower() if 0 <= key < 128 else ""
            if key == RESIZED:
                continue
            if letter == "q":
                self.flow.run.leave(0)
            elif letter == "t":
                try:
                    line = read_talk(board.term, board.term.miles, PROMPT_ROW, 0, 80, board.readch)
                finally:
                    board.unprompt()
                self.flow.run.talk(line)
            elif not board.board_key(key):
                board.error("you are watching: t talks, q leaves, ? the keys")


class WatchLines:
    """A watcher in lines: the table's story said as it comes, the talk whole, the reading keys."""

    def __init__(self, term: LineTerminal, welcome: Watching, flow: WatchFlow) -> None:
        self.term = term
        self.flow = flow
        self.host = name(welcome.host)
        self.names = _names(welcome)
        self.table_seats = welcome.table
        self.game: Game | None = None
        self.sizes: tuple[int, ...] = ()
        self._moved: Event | None = None

    def say(self, line: str) -> None:
        self.term.write_line(line)

    def start(self) -> None:
        seats = ", ".join(self._seat_words(seat) for seat in range(self.table_seats.seats))
        self.say(f"You are watching {self.host}'s game at {self.table_seats.seats} seats: {seats}.")
        self.say(
            "You see what every seat sees, and no hand. say TEXT talks, r reads the table, w the scores, q leaves."
        )

    def _seat_words(self, seat: int) -> str:
        if self.table_seats.seats == 2:
            return self.names.get(seat, "the computer")
        return f"seat {seat + 1} {self.names.get(seat, 'the computer')}"

    def table(self, view: PublicView) -> None:
        game = view.public_game()
        before = self.game
        self.game, self.sizes = game, view.hand_sizes
        event, self._moved = self._moved, None
        if before is None or (before.finished and not game.finished):
            self.say("A hand is dealt." if before is not None else "The hand in play:")
            for line in self.board_lines():
                self.say(line)
            return
        if event is not None:
            text = move_text(event, game, self.names)
            if text is not None:
                self.say(text)
        if game.finished and not before.finished:
            self.say("The hand is over. " + self.scores())

    def moved(self, event: Event) -> None:
        self._moved = event

    def said(self, text: str) -> None:
        self.say(shown(text))

    def talked(self, talk: Talk) -> None:
        self.say(talk_said(talk))

    def news(self, text: str) -> None:
        self.say(shown(text) + ".")

    def missed(self, missed: Missed) -> None:
        for line in missed_lines(missed):
            self.say(line)

    def board_lines(self) -> list[str]:
        """The table in lines (``r``): the trip and the deck, each side, every hand's count, whose turn."""
        game = self.game
        if game is None:
            return ["The table is not dealt yet."]
        tab = game.table
        lines = [
            f"Trip {game.trip_length} miles; {max(game.deck_count, 0)} cards in the deck; "
            f"the discard pile shows {cards.name(game.discard) or 'nothing'}."
        ]
        for side in range(tab.sides):
            pp = game.players[side]
            who = ", ".join(seat_words(s, game, self.names) for s in tab.partners(side))
            label = who if tab.seats == 2 else f"Side {_LETTERS[side]} ({who})"
            state = "can move" if pp.can_go else "is stopped"
            battle = cards.name(pp.battle) or "nothing"
            safeties = [cards.name(cards.SAFETY_BASE + i) for i in range(cards.NUM_SAFETIES) if pp.safety[i] == 2]
            limit = ", limited to 50" if pp.speed == cards.SPEED_LIMIT else ""
            lines.append(
                f"{label}: {pp.mileage} miles, {state}{limit}; battle pile {battle}; "
                f"safeties: {', '.join(safeties) or 'none'}; this hand {pp.hand_total}, in all {pp.total}."
            )
        counts = ", ".join(f"{seat_words(s, game, self.names)} {n}" for s, n in enumerate(self.sizes))
        lines.append(f"Cards in hand: {counts}.")
        if not game.finished:
            lines.append(f"{seat_words(game.to_move, game, self.names)} to move.")
        return lines

    def scores(self) -> str:
        game = self.game
        if game is None:
            return "No score yet."
        tab = game.table
        parts = []
        for side in range(tab.sides):
            pp = game.players[side]
            who = seat_words(side, game, self.names) if tab.seats == 2 else f"side {_LETTERS[side]}"
            parts.append(f"{who} {pp.hand_total} this hand, {pp.total} in all, {pp.games} games")
        return "Scores: " + "; ".join(parts) + "."

    def idle(self) -> None:
        while True:
            got = self.term.read_line()
            if got in (END_OF_INPUT, HANGUP):
                self.flow.run.leave(1)
            if got == INTERRUPT:
                self.flow.run.leave(0)
            if not isinstance(got, str):
                continue
            word, _, rest = got.strip().partition(" ")
            word = word.lower()
            if word in ("q", "quit"):
                self.flow.run.leave(0)
            elif word == "say":
                if rest.strip():
                    self.flow.run.talk(rest)
                else:
                    self.say("say and a line: the line is told to everyone at the table.")
            elif word in ("r", "board"):
                for line in self.board_lines():
                    self.say(line)
            elif word in ("w", "score"):
                self.say(self.scores())
            elif word:
                self.say("You are watching: say TEXT talks, r reads the table, w the scores, q leaves.")


def first_welcome(link: Link, host: str) -> Watching | None:
    """The host's welcome (it comes first); None after one line saying why it did not come (refused, gone, ^C)."""
    from ..keeping import say

    try:
        while True:
            message = link.wait_message(timeout=5.0)
            if message is None:
                say(f"mille: {shown(host)}'s game did not answer")
                break
            if message.get("type") == "bye":
                got = messages.read(message, 2)
                if isinstance(got, Bye):
                    say(f"mille: {shown(got.text)[:200]}")
                break
            return messages.read_watching(message)
    except LinkClosed:
        say(f"mille: {shown(host)}'s game did not let you in (it takes no watchers, or it is over)")
    except MessageError as exc:
        say(f"mille: {shown(str(exc))}")
    except KeyboardInterrupt:
        pass
    link.close()
    return None


def watch(target: str, plain: bool) -> int:
    """``mille --watch HOST`` (on this machine) or ``HOST@MACHINE`` (over ``ssh MACHINE``); the exit status."""
    from ..keeping import say

    if not plain and not (os.isatty(0) and os.isatty(1)):
        say("mille: standard input and output must be a terminal to watch a game (mille --plain --watch: in lines)")
        return 1
    stand_back()
    host, at, machine = target.partition("@")
    command = f"mille --watch {shown(target)}"
    link = reach(host, machine if at else None, "watch", "it takes no watchers, or it is over")
    if link is None:
        return 1
    welcome = first_welcome(link, host)
    if welcome is None:
        return 1
    term: CursesTerminal | LineTerminal
    if plain:
        from ..plain.lines import LineTerminal

        lines = LineTerminal()
        term = lines

        def make_lines(welcome: Watching, flow: WatchFlow) -> WatchFace:
            return WatchLines(lines, welcome, flow)

        make_face: MakeFace = make_lines
    else:
        from ..cursesterm import CursesTerminal

        screen = CursesTerminal()
        term = screen

        def make_board(welcome: Watching, flow: WatchFlow) -> WatchFace:
            return WatchBoard(screen, welcome, flow)

        make_face = make_board

    def make_run() -> WatchRun:
        return WatchRun(term, link, welcome, command, make_face)

    status, _ = visit(term, link, make_run, plain, 0)
    return status
