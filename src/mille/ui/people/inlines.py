"""People in lines (``mille --plain --invite bob``, ``mille --plain --join alice``; docs/people.md), at every table.

Either side may play in plain mode and the other on the board: a blind
person and a sighted friend.  The faces are plain mode's own
(:class:`~mille.ui.plain.app.PlainFace`: the same sentences, questions and
reading keys), with the people named where a game against the computers
names a seat (:func:`person_words` at two seats, :func:`mille.ui.plain.tablewords.named`
at more):

* the host: :class:`HostLinesFace`, the host's face of every face
  (:class:`mille.ui.people.host.HostFace`: the people's news said at once,
  even while the host types, "bob is thinking..." when the turn passes to
  them, the drop asked in a line), saying its news as lines and reading
  the lines typed while a person thinks;
* a guest: :class:`LinesGuest`, the face of a guest's run
  (:class:`mille.ui.people.guest.GuestRun`): each move said from the host's
  ``moved`` message (what every seat saw of it) and the view that follows,
  through plain mode's face on the table turned to the guest's seat (they are
  "you", seat 1, their side A; :func:`seat_view`), the moves typed turned
  back before they are sent.
"""

from __future__ import annotations

import re

from ...engine import rules
from ...engine.cards import EMPTY, HAND_SIZE
from ...engine.observation import Observation
from ...engine.rules import EXTEND, MADE, NO_EXTENSION, PASS, Move, MoveType
from ...engine.state import Game
from ...files.safeio import shown
from ..flow import COUP_PROMPT, EXTENSION_PROMPT, REALLY_PROMPT, Choice, GameFlow, Request
from ..layout import ScoreView
from ..plain import tablewords
from ..plain.app import PlainFace
from ..plain.commands import Command, parse
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, Heard
from .guest import NOT_YOUR_TURN, GuestFlow
from .host import HostFace, People
from .messages import Decide, Hello, View
from .view import name, public_view, refusal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ...engine.driver import Event
    from ...engine.rng import GlibcRandom
    from ...players import Player
    from ..flow import Setup
    from ..plain.lines import LineTerminal
    from ..session import Choices
    from .guest import GuestFace, MakeFace
    from .host import Play
    from .seat import PersonSeat

__all__ = [
    "HostLinesFace",
    "LinesGuest",
    "NamedFace",
    "guest_in_lines",
    "host_in_lines",
    "person_words",
    "seat_view",
    "unturned",
]

_COMPUTER = re.compile(r"\b([Tt])he computer\b|\bcomputer\b")


def person_words(line: str, person: str) -> str:
    """``line`` of plain mode with the other seat's ``person`` where a game against the computer names it."""
    return _COMPUTER.sub(lambda _: person, line)  # a function: a name's backslashes (escapes) taken as they are


class NamedFace(PlainFace):
    """Plain mode's face with the people named where it names a seat (``names``: by seat as the face counts them,
    shown); ``plain``: whether the other seat's own words stand (two seats, the computer playing for the person)."""

    def __init__(
        self,
        term: LineTerminal,
        game: Game,
        window: int,
        detail: str,
        names: dict[int, str],
        plain: Callable[[], bool] = lambda: False,
    ) -> None:
        super().__init__(term, game, window, detail=detail)
        self.names = names
        self._plain = plain
        #: The words of a question of the people's own, asked now (they name the people already).
        self._asking: str | None = None

    def named(self, line: str) -> str:
        if line == self._asking:
            return line
        if self.game.table.seats > 2:
            return tablewords.named(line, self.names)
        return line if self._plain() else person_words(line, self.names[1])

    def say(self, line: str) -> None:
        super().say(self.named(line))

    def show(self, line: str) -> None:
        super().show(self.named(line))

    def choose(self, choice: Choice) -> str | Request:
        self._asking = choice.sentence
        try:
            return super().choose(choice)
        finally:
            self._asking = None

    def say_as_is(self, line: str) -> None:
        """A line of the people's own (a name in it already), said and kept for ``m``."""
        super().say(line)

    def reading(self, line: str) -> bool:
        """A reading key (``r``, ``w``, ``c``, ``m``, ``v``, ``?``) answered in full; False if ``line`` is none."""
        return self._query(parse(line))

    def noted(self, before: object, card: int) -> None:
        """Another seat's move about to be said: its side's tableau before it, and the card it showed (what a
        computer's announcement notes, :meth:`~mille.ui.plain.app.PlainFace.announce`)."""
        self._before = before  # type: ignore[assignment]
        self._card = card


def _sentence(text: str) -> str:
    """A line of news as plain mode says it: a sentence, with its full stop."""
    return text if text.endswith((".", "...", ":")) else text + "."


class HostLinesFace(HostFace):
    """The host in lines: the people's news as lines, the lines typed while a person thinks answered at once."""

    inner: NamedFace
    every_move = False

    def __init__(self, inner: NamedFace, term: LineTerminal, people: People) -> None:
        super().__init__(inner, term, people)
        self.lines = term

    def news(self, texts: list[str]) -> None:
        for text in texts:
            self.inner.say_as_is(_sentence(text))

    def busy(self, ready: int, person: PersonSeat) -> int | None:
        """While ``person`` thinks: each line typed answered at once (``q`` quits, ``s`` saves, the reading keys read),
        none kept for the host's next prompt."""
        term = self.lines

        class Done(Heard):
            pass

        def done() -> None:
            raise Done

        term.watch(ready, done)
        try:
            while True:
                got = term.read_line()
                if got in (END_OF_INPUT, HANGUP, INTERRUPT):
                    return HANGUP if got == END_OF_INPUT else int(got)
                if not isinstance(got, str):
                    continue
                command = parse(got).command
                if command == Command.QUIT:
                    return INTERRUPT  # Really?, as ^C
                if command == Command.SAVE:
                    term.unwatch(ready)
                    try:
                        self.flow.save()
                    finally:
                        term.watch(ready, done)
                elif command != Command.EMPTY and not self.inner.reading(got):
                    self.inner.say_as_is(f"{name(person.name)} is thinking: q quits, s saves; r, w, c, m and ? read.")
        except Done:
            return None
        finally:
            term.unwatch(ready)


def host_in_lines(choices: Choices) -> Play:
    """How a host plays in lines (``play`` of :func:`mille.ui.people.host.play_host`): plain mode's run."""
    from ..plain import DETAILS
    from ..session import play_plain

    detail = choices.detail or DETAILS[0]

    def play(people: People, computer: Player, others: tuple[tuple[Player, GlibcRandom], ...], seated: str) -> int:
        names = {p.seat: name(p.name) for p in people.persons}

        def make(term: LineTerminal, game: Game, setup: Setup) -> GameFlow:
            first = people.at(1)
            plain = (lambda: first.standing_in) if first is not None and game.table.seats == 2 else (lambda: False)
            inner = NamedFace(term, game, setup.window, detail, names, plain)
            return GameFlow(HostLinesFace(inner, term, people), game, setup)

        command = f"mille --plain --invite {seated}"
        return play_plain(
            choices,
            computer=computer,
            make_flow=make,
            command=command,
            others=others,
            record_as=people.record_name,
            people=people.seats,
        )

    return play


# ----------------------------------------------------------------------
# A guest in lines

#: What stands in a seat's view for another hand's hidden cards (only their number is ever said).
HIDDEN = 0


def seat_view(obs: Observation, finished: bool) -> Game:
    """The game as ``obs``'s seat sees it, turned so that this seat is seat 0 (plain mode's "you", seat 1).

    Plain mode says a table from seat 0 (:mod:`mille.ui.plain.tablewords`):
    a guest in lines hears it counted from their own seat, the seats after
    them numbered 2, 3, ... in turn order and their own side A.  Seat ``i``
    here is seat ``(i + obs.seat) % seats`` at the host, side ``j`` side
    ``(j + obs.seat) % sides`` (sides divide seats: partners stay partners).
    The other hands hold :data:`HIDDEN` cards, as many as they hold, so
    their sizes are counted as from any hand.
    """
    game = public_view(obs, finished)
    tab, turn = game.table, obs.seat
    seats, sides = tab.seats, tab.sides
    old, sizes = game.players, obs.hand_sizes
    players = []
    for seat in range(seats):
        was = (seat + turn) % seats
        player = old[(seat + turn) % sides].copy() if seat < sides else old[was].copy()
        if was != turn:
            player.hand = [HIDDEN] * sizes[was] + [EMPTY] * (HAND_SIZE - sizes[was])
        else:
            player.hand = old[was].hand[:]
        players.append(player)
    game.players = players
    game.to_move = (game.to_move - turn) % seats
    game.hand_starter = (game.hand_starter - turn) % seats
    game.order = game.order and turn == 0  # the Order toggle sorts the host's hand alone
    if game.reaction is not None:
        game.reaction = (game.reaction - turn) % seats
    return game


def unturned(move: Move, seat: int, sides: int) -> Move:
    """A move made on :func:`seat_view`'s game, as the host's game has it (the hazard's side turned back)."""
    if move.target is None:
        return move
    return Move(move.kind, move.slot, (move.target + seat) % sides)


def _target(before: Game, after: Game, mover_side: int) -> int | None:
    """The side a hazard just played went to: the other side whose battle or speed pile changed."""
    for side in range(after.table.sides):
        if side == mover_side:
            continue
        was, now = before.players[side], after.players[side]
        if was.battle != now.battle or was.speed != now.speed:
            return side
    return None


class LinesGuest:
    """A guest's face in lines (:class:`mille.ui.people.guest.GuestFace`): plain mode's face on the table turned to
    the guest's seat, each move said from the host's ``moved`` message and the view after it."""

    def __init__(self, term: LineTerminal, hello: Hello, flow: GuestFlow, detail: str) -> None:
        self.term = term
        self.flow = flow
        self.seat, self.seats = hello.seat, hello.table.seats
        self.host = name(hello.host)
        self.plain = NamedFace(term, Game(deck=[], deck_count=0, table=hello.table), ScoreView.SMALL, detail, {})
        self.hello(hello)
        self.plain.attach(flow)
        #: The move the host said was made, said once its view has come.
        self._moved: Event | None = None
        #: Our own last move (its slot: what we played or discarded), as our turned game has it.
        self._sent: Move | None = None
        self._seen = False
        self._in_really = False

    @property
    def game(self) -> Game:
        return self.plain.game

    def start(self) -> None:
        self.term.write_line(f"Waiting for {self.host}...")

    def hello(self, hello: Hello) -> None:
        """The people's names, by seat as this guest counts them (from their own seat, 0); the board read again when
        the host's view comes (a first hello, or one after a return)."""
        names = {seat: name(text) for seat, text in hello.names.items() if seat != self.seat}
        names[0] = self.host
        self.plain.names = {(seat - self.seat) % self.seats: text for seat, text in names.items()}
        self._seen = False
        self._moved = None

    def tell(self, text: str) -> None:
        self.plain.say_as_is(_sentence(shown(text)))

    def said(self, text: str) -> None:
        self.plain.say_as_is(shown(text))

    def refused(self, text: str) -> None:
        self.plain.say_as_is(shown(text))

    def moved(self, event: Event) -> None:
        self._moved = event

    def view(self, view: View, reading: bool) -> None:
        """A new view: the move that led to it said, a new hand announced, the table read on the first."""
        face = self.plain
        obs = view.obs
        before = face.game
        game = seat_view(obs, view.finished)
        event, self._moved = self._moved, None
        mover = None if event is None else (event.seat - self.seat) % self.seats
        if not self._seen and not any(obs.hand_sizes):
            self._seen = True  # joined before the deal: the hand's beginning is said when it is dealt
            game.finished = True
            face.game = game
            return
        if not self._seen:
            self._seen = True
            face.game = game
            face.begin_hand(restored=True)
        elif before.finished and not game.finished:
            face.game = game
            face.begin_hand(restored=False)
        elif event is not None and mover is not None:
            side = game.table.side(mover)
            if mover != 0:
                face.noted(before.players[side].copy(), event.card)
                target = _target(before, game, side) if event.kind is MoveType.PLAY else None
                move = Move(event.kind, 0, target)
            else:
                sent = self._sent
                move = sent if sent is not None and sent.kind is event.kind else Move(event.kind, 0)
            face.game = game
            face.show_move(game, mover, move, MADE)
        else:
            face.game = game
        turn = game.to_move
        names = face.names
        if not game.finished and turn != 0 and turn in names and mover != turn:
            face.say_as_is(f"{names[turn]} is thinking...")  # once a turn: when it passes to them, or we join

    def decide(self, decide: Decide) -> Move:
        """This seat's move or answer, read in lines; a move the rules refuse told in the engine's words."""
        self.view(View(decide.obs, False), reading=True)
        face = self.plain
        game = face.game
        if game.pending_extension is not None or game.reaction is not None:
            extension = game.pending_extension is not None
            while True:
                answer = face.ask(EXTENSION_PROMPT if extension else COUP_PROMPT)
                if answer is True or answer is False:
                    break
                face.say_as_is(f"Only {self.host} may save.")
            if extension:
                move = EXTEND if answer else NO_EXTENSION
            else:
                slot = rules.coup_slot(game)
                move = Move(MoveType.PLAY, slot) if answer and slot is not None else PASS
        else:
            legal = rules.legal_moves(game)
            while True:
                got = face.read_move()
                if isinstance(got, Move):
                    if got in legal:
                        move = got
                        break
                    face.say_as_is(refusal(game, 0, got, self.host))
                elif got is Request.QUIT:
                    self.flow.run.really()
                elif got is Request.SAVE:
                    face.say_as_is(f"Only {self.host} may save.")
        self._sent = move
        return unturned(move, self.seat, game.table.sides)

    def choose(self, choice: Choice) -> str | Request:
        return self.plain.choose(choice)

    def idle(self) -> None:
        """Nothing asked: each line answered at once (``q`` leaves, the reading keys read), none kept for later."""
        while True:
            got = self.term.read_line()
            if got == END_OF_INPUT or got == HANGUP:
                self.flow.hangup()
            elif got == INTERRUPT:
                self.flow.on_event(INTERRUPT)
            elif isinstance(got, str):
                command = parse(got).command
                if command == Command.QUIT:
                    self.flow.run.really()
                elif command == Command.SAVE:
                    self.plain.say_as_is(f"Only {self.host} may save.")
                elif command != Command.EMPTY and not self.plain.reading(got):
                    self.plain.say_as_is(_sentence(NOT_YOUR_TURN[0].upper() + NOT_YOUR_TURN[1:]))

    def really(self) -> bool:
        if self._in_really:
            return False
        self._in_really = True
        try:
            while True:
                answer = self.plain.ask(REALLY_PROMPT)
                if answer is True or answer is False:
                    return answer
                self.plain.say_as_is(f"Only {self.host} may save.")
        finally:
            self._in_really = False


def guest_in_lines(detail: str | None) -> Callable[[LineTerminal], MakeFace]:
    """How a guest plays in lines (:func:`mille.ui.people.guest.join`'s ``lines``)."""
    from ..plain import DETAILS

    def on(term: LineTerminal) -> MakeFace:
        def make(hello: Hello, flow: GuestFlow) -> GuestFace:
            return LinesGuest(term, hello, flow, detail or DETAILS[0])

        return make

    return on
