"""People in lines (``mille --plain --invite bob``, ``mille --plain --join alice``; docs/people.md), at every table.

Either side may play in plain mode and the other on the board: a blind
person and a sighted friend.  The faces are plain mode's own
(:class:`~mille.ui.plain.app.PlainFace`: the same sentences, questions and
reading keys), the people named by its naming policy
(:class:`~mille.ui.plain.speaker.Naming`: ``bob`` at two seats, ``bob (seat
2, side B)`` at more), every seat and side in the host's numbering for
every listener:

* the host: :class:`HostLinesFace`, the host's face of every face
  (:class:`mille.ui.people.host.HostFace`: the people's news said at once,
  even while the host types, "bob is thinking..." when the turn passes to
  them, the drop asked in a line), saying its news as lines and answering
  the lines typed while a person thinks;
* a guest: :class:`LinesGuest`, the face of a guest's run
  (:class:`mille.ui.people.guest.GuestRun`): each move said from the host's
  ``moved`` message (what every seat saw of it) and the view that follows,
  through plain mode's face speaking for the guest's seat (its ``me``) on
  that seat's view (:func:`heard_view`).
"""

from __future__ import annotations

from ...engine.cards import EMPTY, HAND_SIZE
from ...engine.observation import Observation
from ...engine.rules import EXTEND, MADE, NO_EXTENSION, PASS, Move, MoveType
from ...engine.state import Game, Table, Tableau
from ...files.safeio import shown
from ..flow import COUP_PROMPT, EXTENSION_PROMPT, REALLY_PROMPT, Choice, GameFlow, Request
from ..layout import ScoreView
from ..plain.app import PlainFace
from ..plain.commands import Command, Parsed, parse
from ..plain.speaker import Naming
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, Heard
from .guest import NOT_YOUR_TURN, GuestFlow, seat_names
from .host import HostFace, People
from .messages import Decide, Hello, Missed, Talk, View
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
    "HIDDEN",
    "HostLinesFace",
    "LinesGuest",
    "PeoplePlain",
    "guest_in_lines",
    "heard_view",
    "host_in_lines",
    "naming",
]


class PeoplePlain(PlainFace):
    """Plain mode's face with people at the table: ``naming`` says who sits where now (a person, or the computer
    standing in for them); the reading keys answered on the people's behalf; another seat's move noted to be said."""

    def __init__(
        self,
        term: LineTerminal,
        game: Game,
        window: int,
        detail: str,
        naming: Callable[[], Naming],
        me: int = 0,
    ) -> None:
        super().__init__(term, game, window, detail=detail, me=me)
        self._names = naming

    #: Where a line of talk goes (``say TEXT``, at any prompt): the host's or the guest's; None: ``say`` is unknown.
    talker: Callable[[str], None] | None = None

    @property
    def naming(self) -> Naming:
        return self._names()

    def _query(self, parsed: Parsed) -> bool:
        """The reading keys, and ``say TEXT`` (a line of talk to the table) where people are."""
        if parsed.word.lower() == "say" and self.talker is not None:
            if parsed.rest.strip():
                self.talker(parsed.rest)
            else:
                self.show("say and a line: the line is told to everyone at the table.")
            return True
        return super()._query(parsed)

    def reading(self, line: str) -> bool:
        """A reading key (``r``, ``w``, ``c``, ``m``, ``v``, ``?``) answered in full; False if ``line`` is none."""
        return self._query(parse(line))

    def noted(self, before: Tableau, card: int) -> None:
        """Another seat's move about to be said: its side's tableau before it and the card it showed (what a
        computer's announcement notes, :meth:`~mille.ui.plain.app.PlainFace.announce`)."""
        self._before = before
        self._card = card


def _sentence(text: str) -> str:
    """A line of news as plain mode says it: a sentence, with its full stop."""
    return text if text.endswith((".", "...", ":")) else text + "."


class HostLinesFace(HostFace):
    """The host in lines: the people's news as lines, the lines typed while a person thinks answered at once."""

    inner: PeoplePlain
    every_move = False

    def __init__(self, inner: PeoplePlain, term: LineTerminal, people: People) -> None:
        super().__init__(inner, term, people)
        self.lines = term

    def news(self, texts: list[str]) -> None:
        for text in texts:
            self.inner.say(_sentence(text))

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
                if got.strip().lower() == "computer":
                    self.give(person)
                elif command == Command.SAVE:
                    term.unwatch(ready)
                    try:
                        self.flow.save()
                    finally:
                        term.watch(ready, done)
                elif command != Command.EMPTY and not self.inner.reading(got):
                    self.inner.say(
                        f"{name(person.name)} is thinking: computer gives their move to the computer, q quits, "
                        "s saves; r, w, c, m and ? read."
                    )
        except Done:
            return None
        finally:
            term.unwatch(ready)


def naming(people: People, table: Table) -> Callable[[], Naming]:
    """How the host's lines name the seats: each person by name, but while the computer stands in for them (its own
    words then, as alone against the computers)."""
    return lambda: Naming.at(table, {p.seat: name(p.name) for p in people.persons if not p.standing_in})


def host_in_lines(choices: Choices) -> Play:
    """How a host plays in lines (``play`` of :func:`mille.ui.people.host.play_host`): plain mode's run."""
    from ..plain import DETAILS
    from ..session import play_plain

    detail = choices.detail or DETAILS[0]

    def play(people: People, computer: Player, others: tuple[tuple[Player, GlibcRandom], ...], seated: str) -> int:
        def make(term: LineTerminal, game: Game, setup: Setup) -> GameFlow:
            inner = PeoplePlain(term, game, setup.window, detail, naming(people, game.table))
            face = HostLinesFace(inner, term, people)
            inner.talker = face.talk
            flow = GameFlow(face, game, setup)
            flow.public = people.room.moved  # the room's story and its watchers told every move
            return flow

        command = f"mille --plain {seated}"
        return play_plain(
            choices,
            computer=computer,
            make_flow=make,
            command=command,
            others=others,
            record_as=people.record_name,
            people=people.seats,
            record_people=people.relations,
        )

    return play


# ----------------------------------------------------------------------
# A guest in lines

#: What stands in a seat's view for another hand's hidden cards (only their number is ever said).
HIDDEN = 0


def heard_view(obs: Observation, finished: bool) -> Game:
    """The game as ``obs``'s seat sees it, in the host's numbering, each other hand :data:`HIDDEN` cards as many as
    it holds (plain mode counts them on the board, and tells a coup fourre let pass from an empty hand's pass)."""
    game = public_view(obs, finished)
    for seat, size in enumerate(obs.hand_sizes):
        if seat != obs.seat:
            game.players[seat].hand = [HIDDEN] * size + [EMPTY] * (HAND_SIZE - size)
    return game


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
    """A guest's face in lines (:class:`mille.ui.people.guest.GuestFace`): plain mode's face speaking for the guest's
    seat, in the host's numbering, each move said from the host's ``moved`` message and the view after it."""

    def __init__(self, term: LineTerminal, hello: Hello, flow: GuestFlow, detail: str) -> None:
        self.term = term
        self.flow = flow
        self.seat = hello.seat
        self.host = name(hello.host)
        self.names = seat_names(hello)
        table_game = Game(deck=[], deck_count=0, table=hello.table)
        self.plain = PeoplePlain(
            term, table_game, ScoreView.SMALL, detail, lambda: Naming.at(hello.table, self.names), me=self.seat
        )
        self.plain.attach(flow)
        self.plain.talker = flow.run.talk  # say TEXT, at any prompt
        #: The move the host said was made, said once its view has come.
        self._moved: Event | None = None
        #: Our own last move (its slot: what we played or discarded).
        self._sent: Move | None = None
        self._seen = False
        self._in_really = False

    @property
    def game(self) -> Game:
        return self.plain.game

    def start(self) -> None:
        self.term.write_line(f"Waiting for {self.host}...")

    def hello(self, hello: Hello, back: bool) -> None:
        """The host's hello again: the people seated now; after our return, the board read again with its view."""
        self.names = seat_names(hello)
        if back:
            self._seen = False
            self._moved = None

    def tell(self, text: str) -> None:
        self.plain.say(_sentence(shown(text)))

    def talked(self, talk: Talk) -> None:
        """A line of talk, said whole: ``bob says: ...``."""
        who = f"{talk.who} (watching)" if talk.watcher else talk.who
        self.plain.say(f"{shown(who)} says: {shown(talk.text)}")

    def news(self, text: str) -> None:
        self.plain.say(_sentence(shown(text)))

    def missed(self, missed: Missed) -> None:
        """The story missed, said line by line, oldest first."""
        head = "While you were away" if missed.back else "Before you came"
        head += ":" if missed.complete else " (the last of it):"
        self.plain.say(head)
        for entry in missed.entries:
            self.plain.say(shown(entry.text))

    def said(self, text: str) -> None:
        self.plain.say(shown(text))

    def refused(self, text: str) -> None:
        self.plain.say(shown(text))

    def moved(self, event: Event) -> None:
        self._moved = event

    def view(self, view: View, reading: bool) -> None:
        """A new view: the move that led to it said, a new hand announced, the table read on the first."""
        face = self.plain
        obs = view.obs
        before = face.game
        game = heard_view(obs, view.finished)
        event, self._moved = self._moved, None
        mover = None if event is None else event.seat
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
            if mover != self.seat:
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
        if not game.finished and turn != self.seat and turn in self.names and mover != turn:
            face.say(f"{self.names[turn]} is thinking...")  # once a turn: when it passes to them, or we join

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
                face.say(f"Only {self.host} may save.")
            if extension:
                move = EXTEND if answer else NO_EXTENSION
            else:
                play = next((m for m in decide.legal if m.kind is MoveType.PLAY), None)
                move = play if answer and play is not None else PASS
        else:
            while True:
                got = face.read_move()
                if isinstance(got, Move):
                    if got in decide.legal:
                        move = got
                        break
                    face.say(refusal(game, self.seat, got, self.host))
                elif got is Request.QUIT:
                    self.flow.run.really()
                elif got is Request.SAVE:
                    face.say(f"Only {self.host} may save.")
        self._sent = move
        return move

    def choose(self, choice: Choice) -> str | Request:
        return self.plain.choose(choice)

    def withdrawn(self) -> None:
        self.plain.say(f"{self.host} let the computer play your move.")

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
                    self.plain.say(f"Only {self.host} may save.")
                elif command != Command.EMPTY and not self.plain.reading(got):
                    self.plain.say(_sentence(NOT_YOUR_TURN[0].upper() + NOT_YOUR_TURN[1:]))

    def really(self) -> bool:
        if self._in_really:
            return False
        self._in_really = True
        try:
            while True:
                answer = self.plain.ask(REALLY_PROMPT)
                if answer is True or answer is False:
                    return answer
                self.plain.say(f"Only {self.host} may save.")
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
