"""Two people in lines (``mille --plain --invite bob``, ``mille --plain --join alice``; docs/people.md).

Either side may play in plain mode and the other on the board: a blind
person and a sighted friend.  The faces are plain mode's own
(:class:`~mille.ui.plain.app.PlainFace`: the same sentences, questions and
reading keys), with the other person named where a game against the
computer says "the computer" (the face's naming policy,
:class:`~mille.ui.plain.speaker.Naming`), and with the other side heard
while a line is awaited:

* :class:`HostLinesFace`: the host's face.  The guest's joining, leaving
  and a stranger refused are said at once, even while the host types;
  "bob is thinking..." at the guest's turn; at the guest's drop the host
  is asked in one line (``w`` waits, ``c`` lets the computer play the
  seat, ``a`` adjourns; ``s`` saves, ``q`` quits), as on the board
  (:meth:`mille.ui.people.host.HostBoardFace.at_drop`).
* :class:`GuestLines`: the guest's run.  The guest holds no game: each
  move is said from the host's ``moved`` message (who, what kind, the card
  shown: the bot protocol's event) and the view that follows it, through a
  :class:`PlainFace` whose game is the guest's public view
  (:func:`mille.ui.people.guest.public_game`).
"""

from __future__ import annotations

import select

from ...engine import rules
from ...engine.cards import EMPTY, HAND_SIZE
from ...engine.rules import EXTEND, MADE, NO_EXTENSION, PASS, Move, MoveType, Phase
from ...engine.state import Game, table
from ...files.safeio import shown
from ...players import wire
from ..flow import COUP_PROMPT, EXTENSION_PROMPT, PROMPTS, REALLY_PROMPT, GameExit, GameFlow, Request, wait_polling
from ..layout import ScoreView
from ..plain.app import PlainFace
from ..plain.speaker import Naming
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE
from .guest import public_game
from .host import BACK, COMPUTER, GUEST, UNRELAYED, PersonSeat, RemotePerson
from .link import Link, LinkClosed, drain_idle, heard_idle
from .seated import RETRY, GuestRun, Reaching, Rejoined, ended_line
from .tableguest import HIDDEN, hello_names, public_view, refusal
from .tablehost import NAME_WIDTH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ...engine.driver import Event
    from ...engine.observation import Observation
    from ...engine.rng import GlibcRandom
    from ...engine.rules import Outcome
    from ...players import Player
    from ..flow import Setup
    from ..plain.lines import LineTerminal
    from ..session import Choices
    from .tablehost import PlayTable, TablePeople, TablePerson

__all__ = [
    "GuestLines",
    "HostLinesFace",
    "TableHostLinesFace",
    "guest_in_lines",
    "host_in_lines",
    "play_guest_lines",
    "TableGuestLines",
    "table_guest_in_lines",
    "table_host_in_lines",
]


def drop_question(name: str) -> str:
    """The host's question in lines when ``name`` dropped at their move (two seats or more)."""
    return (
        f"w waits for {name} to join again, c lets the computer play the seat until then, "
        "a adjourns the game (s saves, q quits):"
    )


def waiting_line(name: str, host: str) -> str:
    """Said when the host chose to wait for ``name``."""
    return f"Waiting for {name}: they join again with mille --join {host}. RETURN brings the choice back."


class _PeopleLinesFace(PlainFace):
    """What the host's faces in lines share, at two seats (:class:`HostLinesFace`) and at larger tables
    (:class:`TableHostLinesFace`): a line read while the people are heard, and a person's drop asked in a line."""

    def _notices(self) -> None:
        """The people's news (joined, gone, refused), said at once."""
        raise NotImplementedError

    def _hear(self, back: PersonSeat | None = None) -> bool:
        """Until a line (or an event) can be read: the people heard; True at once if ``back`` has joined again."""
        raise NotImplementedError

    def _adjourn(self) -> None:
        """The host adjourned the game at a drop: noted for the game's end."""
        raise NotImplementedError

    def _read(self, prompt: str) -> str:
        flow = self.flow
        flow.keep_snapshot()
        flow.catch_up()
        self._notices()
        self.show(prompt)
        while True:
            self._hear()
            got = self.term.read_line()
            if isinstance(got, str):
                return got
            if got == END_OF_INPUT or got == HANGUP:
                flow.hangup()
            elif got == INTERRUPT:
                flow.on_event(INTERRUPT)
            else:
                self.say("That line is too long; it is ignored.")
            self.show(prompt)

    def _drop_choice(self, person: PersonSeat, name: str, host: str) -> None:
        """At ``person``'s drop: ``w`` waits for them, ``c`` the computer plays for them, ``a`` adjourns."""
        while person.link is None:
            line = self._line_or_back(drop_question(name), person)
            if line is None:
                break
            word = line.strip().lower()[:1]
            if word == "c":
                PlainFace.say(self, f"The computer plays for {name} until they join again.")
                person.answer(COMPUTER)
                return
            if word == "a":
                self._adjourn()
                person.answer(COMPUTER)
                self.flow.leave()
            if word == "s":
                self.flow.save()
            elif word == "q":
                self.flow.rub()
            elif word == "w":
                if self._line_or_back(waiting_line(name, shown(host)), person) is None:
                    break
            else:
                PlainFace.say(self, "Answer w, c or a.")
        self._notices()
        person.answer(BACK)

    def _line_or_back(self, prompt: str, person: PersonSeat) -> str | None:
        """``prompt``, then a line; None if ``person`` joined again first."""
        PlainFace.show(self, prompt)
        while True:
            if self._hear(back=person):
                return None
            got = self.term.read_line()
            if isinstance(got, str):
                return got
            if got == END_OF_INPUT or got == HANGUP:
                self.flow.hangup()
            elif got == INTERRUPT:
                self.flow.on_event(INTERRUPT)
            PlainFace.show(self, prompt)


class HostLinesFace(_PeopleLinesFace):
    """The host's game in lines, the guest named and heard (:mod:`mille.ui.people.inlines`)."""

    def __init__(self, term: LineTerminal, game: Game, window: int, remote: RemotePerson, detail: str) -> None:
        super().__init__(term, game, window, detail=detail)
        self.remote = remote
        remote.asks_host = True
        self.other = shown(remote.name)

    @property
    def naming(self) -> Naming:
        """The guest by name (the computer's own words while it stands in for them)."""
        if self.remote.standing_in:
            return Naming.at(self.game.table)
        return Naming.at(self.game.table, {GUEST: self.other})

    def _notices(self) -> None:
        for text in self.remote.take_notices():
            PlainFace.say(self, shown(text) + ".")

    # Reading: the guest and the door heard while a line is awaited

    def _hear(self, back: PersonSeat | None = None) -> bool:
        """Until a line (or an event) can be read: the guest's leaving and joining heard, and said at once.

        ``back`` (the guest): return True as soon as they have joined again.
        """
        remote, term = self.remote, self.term
        while not term.has_line():
            if back is not None and back.link is not None:
                return True
            watched = [term.fd_in, remote.listener.fileno()]
            link = heard_idle(remote.link, remote.deciding)  # (Really? while they decide: the worker's to read)
            if link is not None:
                watched.append(link.fileno())
            try:
                ready = select.select(watched, [], [], 0.2)[0]
            except (OSError, ValueError):
                return False
            if link is not None and link.fileno() in ready:
                try:
                    drain_idle(link)  # the guest says nothing out of turn: only its leaving matters
                except LinkClosed as exc:
                    remote.dropped(str(exc))
            if remote.listener.fileno() in ready:
                remote.admit()
            self._notices()
            if term.fd_in in ready:
                break
        return back is not None and back.link is not None

    def read_move(self) -> Move | Request:
        self._notices()
        return super().read_move()

    def ask(self, prompt_no: int) -> bool | Request:
        self._notices()
        if prompt_no not in UNRELAYED:
            self.remote.say(f"{self.remote.host}: {PROMPTS[prompt_no]}")
        return super().ask(prompt_no)

    def show_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        super().show_move(game, seat, move, outcome)
        if seat != GUEST and not game.finished and game.to_move == GUEST and game.pending_extension is None:
            if self.remote.link is not None:
                PlainFace.say(self, f"{self.other} is thinking...")
            elif self.remote.standing_in:
                PlainFace.say(self, f"The computer plays for {self.other}.")

    # The guest's drop: the host chooses in a line

    def wait(self, ready: int) -> int | None:
        """While the guest's seat is asked: the terminal's events, and the seat's question at a drop."""
        remote = self.remote
        while True:
            event = self.term.poll()
            if event is not None:
                return event
            found = select.select([ready, remote.asking], [], [], 0.05)[0]
            if ready in found:
                return None
            if remote.asking in found:
                self.at_drop()

    def at_drop(self) -> None:
        """``w`` waits for the guest (a line brings the choice back), ``c`` the computer, ``a`` adjourns."""
        remote, name = self.remote, self.other
        self._notices()
        self._drop_choice(remote, name, remote.host)

    def _adjourn(self) -> None:
        self.remote.adjourned = True


class TableHostLinesFace(_PeopleLinesFace):
    """The host in lines at a larger table (``mille --plain --players 4 --invite bob``): the people named and heard.

    Plain mode's sentences at the larger tables (each event naming the player
    and the side) with each person's name beside their seat's number (the
    face's :class:`~mille.ui.plain.speaker.Naming`);
    the people's news and "bob is thinking..." as at two seats; their views
    sent after each move (:class:`~mille.ui.people.tablehost.TablePeople`, shared
    with the board's :class:`~mille.ui.people.tablehost.TableHostFace`); at a
    person's drop the host is asked in a line (:func:`drop_question`).
    """

    def __init__(
        self, term: LineTerminal, game: Game, window: int, people: TablePeople, names: dict[int, str], detail: str
    ) -> None:
        named = {seat: shown(name)[:NAME_WIDTH] for seat, name in names.items() if seat}
        super().__init__(term, game, window, detail=detail, naming=Naming.at(game.table, named))
        self.people = people

    def _notices(self) -> None:
        for text in self.people.notices():
            PlainFace.say(self, shown(text) + ".")

    def _news(self) -> None:
        news = self.people.turn_news(self.game)
        if news is not None:
            PlainFace.say(self, news if news.endswith("...") else news[0].upper() + news[1:] + ".")

    def _hear(self, back: PersonSeat | None = None) -> bool:
        """Until a line (or an event) can be read: the people's leaving and joining heard, and said at once.

        ``back``: return True as soon as that person has joined again.
        """
        term = self.term
        while not term.has_line():
            if back is not None and back.link is not None:
                return True
            try:
                ready = select.select([term.fd_in, *self.people.watched()], [], [], 0.2)[0]
            except (OSError, ValueError):
                return False
            self.people.hear(ready)
            self._notices()
            if term.fd_in in ready:
                break
        return back is not None and back.link is not None

    def read_move(self) -> Move | Request:
        self._notices()
        return super().read_move()

    def ask(self, prompt_no: int) -> bool | Request:
        self._notices()
        self.people.relay(prompt_no)
        return super().ask(prompt_no)

    def begin_hand(self, restored: bool) -> None:
        super().begin_hand(restored)
        self.people.update_all()
        self._news()

    def show_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        """The move said; whose turn it is said when it passes to a person (not again after their pick, or a
        safety's turn again: one line a turn, as at two seats).  A refused move is no move at the table (the host's
        own ``no more cards``): the others are sent nothing, so a guest in lines does not hear the turn again."""
        if outcome.error is None:
            self.people.update_all()
        super().show_move(game, seat, move, outcome)
        if rules.seen_turn(game) != seat:
            self._news()

    def wait(self, ready: int) -> int | None:
        """While a seat thinks (on the flow's worker): the terminal's events, and a seat's question at a drop."""
        while True:
            event = self.term.poll()
            if event is not None:
                return event
            found = select.select([ready, *self.people.asking()], [], [], 0.05)[0]
            if ready in found:
                return None
            person = self.people.asker(found)
            if person is not None:
                self.at_drop(person)

    def at_drop(self, person: TablePerson) -> None:
        """``w`` waits for ``person`` (a line brings the choice back), ``c`` the computer, ``a`` adjourns."""
        name = shown(person.name)[:NAME_WIDTH]
        self._notices()
        PlainFace.say(self, f"{name} is gone.")
        self._drop_choice(person, name, self.people.host)

    def _adjourn(self) -> None:
        self.people.adjourned = True


def table_host_in_lines(choices: Choices) -> PlayTable:
    """How a host plays in lines at a larger table (``play`` of :func:`mille.ui.people.tablehost.play_table_host`)."""
    from ..plain import DETAILS
    from ..session import play_plain

    detail = choices.detail or DETAILS[0]

    def play(
        people: TablePeople,
        names: dict[int, str],
        computer: Player,
        others: tuple[tuple[Player, GlibcRandom], ...],
        seated: str,
    ) -> int:
        def make(term: LineTerminal, game: Game, setup: Setup) -> GameFlow:
            return GameFlow(TableHostLinesFace(term, game, setup.window, people, names, detail), game, setup)

        command = f"mille --plain --invite {seated}"
        return play_plain(choices, computer=computer, make_flow=make, command=command, others=others)

    return play


def host_in_lines(choices: Choices) -> Callable[[RemotePerson], int]:
    """How a host plays in lines (``play`` of :func:`mille.ui.people.host.play_host`): plain mode's run."""
    from ..plain import DETAILS
    from ..session import play_plain

    detail = choices.detail or DETAILS[0]

    def play(remote: RemotePerson) -> int:
        def make(term: LineTerminal, game: Game, setup: Setup) -> GameFlow:
            return GameFlow(HostLinesFace(term, game, setup.window, remote, detail), game, setup)

        command = f"mille --plain --invite {remote.name}"
        return play_plain(choices, computer=remote, make_flow=make, command=command)

    return play


def guest_in_lines(detail: str | None) -> Callable[[str, Link, Callable[[], Link]], int]:
    """How a guest plays in lines (:func:`mille.ui.people.guest.join`'s ``play``)."""
    from ..plain import DETAILS

    def play(host: str, link: Link, reconnect: Callable[[], Link]) -> int:
        return play_guest_lines(host, link, detail or DETAILS[0], reconnect)

    return play


# ----------------------------------------------------------------------
# The guest in lines


class _GuestLinesFace(PlainFace):
    """Plain mode's face on the guest's public view: the host named, the host heard while a line is awaited."""

    def __init__(self, term: LineTerminal, guest: GuestLines, detail: str) -> None:
        super().__init__(term, Game(deck=[], deck_count=0), ScoreView.SMALL, detail=detail)
        self.guest = guest

    @property
    def naming(self) -> Naming:
        """The people by name (:meth:`GuestLines.people`), as this face's game counts the seats."""
        return Naming.at(self.game.table, self.guest.people())

    def _read(self, prompt: str) -> str:
        self.show(prompt)
        while True:
            self.guest.hear()
            got = self.term.read_line()
            if isinstance(got, str):
                return got
            if got == END_OF_INPUT or got == HANGUP:
                self.guest.leave(1)
            elif got == INTERRUPT:
                self.guest.really()
            self.show(prompt)


class _GuestLinesFlow:
    """What plain mode's face asks of a flow, for a guest that holds no game."""

    hints = None
    restore_banner = None

    def __init__(self, guest: GuestLines) -> None:
        self.guest = guest

    def keep_snapshot(self) -> None:
        pass

    def catch_up(self) -> None:
        pass

    def hangup(self) -> None:
        self.guest.leave(1)

    def on_event(self, event: int | None) -> None:
        if event == HANGUP or event == END_OF_INPUT or event == LEAVE:
            self.guest.leave(1)
        elif event == INTERRUPT:
            self.guest.really()


class GuestLines(GuestRun):
    """One guest's run in lines: each move said, the prompts asked as lines; the host answers the rest."""

    def __init__(
        self, term: LineTerminal, link: Link, host: str, detail: str, reconnect: Callable[[], Link] | None = None
    ) -> None:
        self.term = term
        self.link = link
        self.host = shown(host)[:32]
        self.reconnect = reconnect
        self.face = _GuestLinesFace(term, self, detail)
        self.face.attach(_GuestLinesFlow(self))  # type: ignore[arg-type]
        self.last: str | None = None
        #: The move the host said was made, said once its view has come.
        self._moved: Event | None = None
        #: Our own last move (its slot: what we played or discarded).
        self._sent: Move | None = None
        self._seen = False
        self._in_really = False

    @property
    def game(self) -> Game:
        return self.face.game

    def people(self) -> dict[int, str]:
        """The people's names by seat as this run's face counts them: the host at seat 1 of the guest's view."""
        return {1: self.host}

    def hear(self) -> None:
        """Until a line can be read: the host's messages said (views, lines, a goodbye acted on)."""
        while not self.term.has_line():
            self.pump()
            watched = [self.term.fd_in] if self.link.closed else [self.term.fd_in, self.link.fileno()]
            ready = select.select(watched, [], [], 0.2)[0]
            if self.term.fd_in in ready:
                return

    def handle(self, message: dict[str, object], reading: bool = False) -> None:
        kind = message.get("type")
        if kind == "hello":
            self.hello(message, 2, 1)
            self.host = shown(str(message.get("host", self.host)))[:32]
        elif kind == "moved":
            try:
                self._moved = wire.event_from_json(message)
            except wire.WireError:
                self._moved = None
        elif kind == "view":
            self.view(wire.observation_from_json(message.get("obs")), bool(message.get("finished")))
        elif kind in ("say", "error"):
            self.face.say(shown(str(message.get("text", ""))))
        elif kind == "bye":
            self.bye(message)
        elif kind == "decide" and not reading:
            obs = wire.observation_from_json(message.get("obs"))
            self.view(obs, False)
            move = self.decide(obs)
            self._sent = move
            self.link.send({"type": "move", "move": wire.move_json(move)})

    def view(self, obs: Observation, finished: bool) -> None:
        """A new view: the move that led to it said, a new hand announced, the board read on the first."""
        face = self.face
        before = face.game
        game = public_game(obs, finished)
        event, self._moved = self._moved, None
        if not self._seen:
            self._seen = True
            face.game = game
            face.begin_hand(restored=True)
        elif before.finished and not finished:
            face.game = game
            face.begin_hand(restored=False)
        elif event is not None:
            seat = 0 if event.seat == obs.seat else 1
            if seat == 1:
                face._before = before.players[1].copy()
                face._card = event.card
                move = Move(event.kind, 0)
            else:
                sent = self._sent
                move = sent if sent is not None and sent.kind is event.kind else Move(event.kind, 0)
                face._card = event.card if event.card != EMPTY else face._card
            face.game = game
            face.show_move(game, seat, move, MADE)
        else:
            face.game = game
        theirs = not finished and obs.to_move != obs.seat and obs.phase is not Phase.HAND_OVER
        if theirs and (event is None or event.seat == obs.seat):
            face.say(f"{self.host} is thinking...")  # once a turn: when it passes to them, or we join

    def decide(self, obs: Observation) -> Move:
        face = self.face
        if obs.phase is Phase.EXTENSION:
            while True:
                answer = face.ask(EXTENSION_PROMPT)
                if answer is True:
                    return EXTEND
                if answer is False:
                    return NO_EXTENSION
                face.say(f"Only {self.host} may save.")
        while True:
            got = face.read_move()
            if isinstance(got, Move):
                if got.kind is MoveType.ORDER:
                    face.say("o: the hand's order is the host's, in a game between two people.")
                    continue
                return got
            if got is Request.QUIT:
                self.really()
            elif got is Request.SAVE:
                face.say(f"Only {self.host} may save.")

    def really(self) -> None:
        if self._in_really:
            return
        self._in_really = True
        try:
            if self.face.ask(REALLY_PROMPT) is True:
                self.leave(0)
        finally:
            self._in_really = False

    def gone(self, why: str) -> None:
        """The host's link went: said, and the guest chooses in a line (``w`` waits, ``l`` leaves), at every table.

        The board's choice in lines (:meth:`mille.ui.people.seated.SeatedGuest.gone`).
        """
        self.link.close()
        self.last = ended_line(why, self.host)
        if self.reconnect is None:
            raise GameExit(1)
        self.face.say(f"{self.host} is gone ({shown(why)}).")
        while True:
            self.face.show(f"w waits for {self.host}'s game to take you back, l leaves ({self.host} keeps the game):")
            got = self.term.read_line()
            word = got.strip().lower()[:1] if isinstance(got, str) else ""
            if got in (END_OF_INPUT, HANGUP) or word in ("l", "q"):
                raise GameExit(1)
            if word == "w":
                self.face.say(f"Waiting for {self.host}; RETURN brings the choice back.")
                if self._reached():
                    self.last = None
                    raise Rejoined
            else:
                self.face.say("Answer w or l.")

    def _reached(self) -> bool:
        """Try to reach the host every half second until it answers (True) or a line is typed (False)."""
        assert self.reconnect is not None
        reaching = Reaching(self.reconnect)
        try:
            while True:
                link = reaching.step()
                if link is not None:
                    self.link = link
                    return True
                fd = self.term.fd_in
                if self.term.has_line() or fd in select.select([fd, *reaching.fds()], [], [], RETRY / 5)[0]:
                    self.term.read_line()
                    return False
        finally:
            reaching.stop()

    def run(self) -> int:
        """Play until the game ends or a side leaves; the exit status."""
        while True:
            try:
                self._play()
            except Rejoined:
                self._seen = False  # the board read again when the host's view comes
                self._moved = None
                continue
            except wire.WireError as exc:  # as on the board (seated.SeatedGuest.run): one line, no traceback
                self.link.close()
                self.last = f"mille: the host sent garbage ({shown(str(exc))[:100]})"
                return 1
            except GameExit as leave:
                return leave.status

    def _play(self) -> None:
        try:
            while True:
                message = self.link.poll_message()
                if message is None:
                    event = wait_polling(self.term.poll, self.link.fileno())
                    if event is not None:
                        self.face.flow.on_event(event)
                    continue
                self.handle(message)
        except LinkClosed as exc:
            self.gone(str(exc))


class TableGuestLines(GuestLines):
    """A guest's run in lines at a larger table (``mille --plain --join alice``; docs/people.md).

    As at two seats, the guest holds no game: each move is said from the
    host's ``moved`` message (protocol 2's event) and the view that follows
    it (protocol 2's observation, :func:`heard_view`), through plain mode's
    face speaking for this seat (its ``me``) in the host's numbering, as
    every board counts the seats: seat 1 is the host's and side A the
    host's side; the people named with their seat and side (the face's
    :class:`~mille.ui.plain.speaker.Naming`).  A move typed there is sent
    as it is; one the rules refuse is told at once in the engine's words.
    """

    def __init__(
        self,
        term: LineTerminal,
        link: Link,
        host: str,
        detail: str,
        hello: dict[str, object],
        reconnect: Callable[[], Link] | None = None,
    ) -> None:
        super().__init__(term, link, host, detail, reconnect)
        seats, seat = hello.get("seats"), hello.get("seat")
        if type(seats) is not int or seats not in (3, 4, 6) or type(seat) is not int or not 0 < seat < seats:
            raise LinkClosed("the host sent a table that is not one")
        self.seat, self.seats = seat, seats
        self.host = shown(str(hello.get("host", host)))[:NAME_WIDTH]
        #: The other people's names by seat (the host's numbering: the host at 0), escaped and cut.
        self.names: dict[int, str] = hello_names(hello, seats, seat)
        self.face.game = Game(deck=[], deck_count=0, table=table(seats))
        self.face.me = seat

    def people(self) -> dict[int, str]:
        return self.names

    def handle(self, message: dict[str, object], reading: bool = False) -> None:
        kind = message.get("type")
        if kind == "moved":
            try:
                self._moved = wire.event_from_json_2(message, self.seats)
            except wire.WireError:
                self._moved = None
        elif kind == "view":
            self.view_2(wire.observation_from_json_2(message.get("obs")), bool(message.get("finished")))
        elif kind == "decide":
            if not reading:
                obs = wire.observation_from_json_2(message.get("obs"))
                self.view_2(obs, False)
                move = self.decide_2()
                self._sent = move
                self.link.send({"type": "move", "move": wire.move_json_2(move)})
        elif kind == "hello":  # again, after a drop (the first was read before): the same seat, or we leave
            self.hello(message, self.seats, self.seat)
            self.names = hello_names(message, self.seats, self.seat)
        else:
            super().handle(message, reading)

    def view_2(self, obs: Observation, finished: bool) -> None:
        """A new view: the move that led to it said, a new hand announced, the table read on the first."""
        face = self.face
        before = face.game
        game = heard_view(obs, finished)
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
        elif before.finished and not finished:
            face.game = game
            face.begin_hand(restored=False)
        elif event is not None and mover is not None:
            side = game.table.side(mover)
            if mover != self.seat:
                face._before = before.players[side].copy()
                face._card = event.card
                move = Move(event.kind, 0, _target(before, game, side) if event.kind is MoveType.PLAY else None)
            else:
                sent = self._sent
                move = sent if sent is not None and sent.kind is event.kind else Move(event.kind, 0)
            face.game = game
            face.show_move(game, mover, move, MADE)
        else:
            face.game = game
        turn = game.to_move
        thinking = not finished and turn != self.seat and obs.phase is not Phase.HAND_OVER and turn in self.names
        if thinking and mover != turn:
            face.say(f"{self.names[turn]} is thinking...")  # once a turn: when it passes to them, or we join

    def decide_2(self) -> Move:
        """This seat's move or answer, read in lines; a move the rules refuse told in the engine's words."""
        face = self.face
        game = face.game
        if game.pending_extension is not None or game.reaction is not None:
            extension = game.pending_extension is not None
            while True:
                answer = face.ask(EXTENSION_PROMPT if extension else COUP_PROMPT)
                if answer is True or answer is False:
                    break
                face.say(f"Only {self.host} may save.")
            if extension:
                return EXTEND if answer else NO_EXTENSION
            slot = rules.coup_slot(game)
            return Move(MoveType.PLAY, slot) if answer and slot is not None else PASS
        legal = rules.legal_moves(game)
        while True:
            got = face.read_move()
            if isinstance(got, Move):
                if got in legal:
                    return got
                face.say(refusal(game, self.seat, got, self.host))
            elif got is Request.QUIT:
                self.really()
            elif got is Request.SAVE:
                face.say(f"Only {self.host} may save.")


def heard_view(obs: Observation, finished: bool) -> Game:
    """The game as ``obs``'s seat sees it, in the host's numbering, each other hand :data:`HIDDEN` cards as many as
    it holds (plain mode counts them on the board, and tells a coup fourré let pass from an empty hand's pass)."""
    game = public_view(obs, finished)
    for seat, size in enumerate(obs.hand_sizes):
        if seat != obs.seat:
            game.players[seat].hand = [HIDDEN] * size + [EMPTY] * (HAND_SIZE - size)
    return game


def _target(before: Game, after: Game, mover_side: int) -> int | None:
    """The side a hazard just played went to: the other side whose battle or speed pile changed (an event hides it)."""
    for side in range(after.table.sides):
        if side == mover_side:
            continue
        was, now = before.players[side], after.players[side]
        if was.battle != now.battle or was.speed != now.speed:
            return side
    return None


def table_guest_in_lines(detail: str | None) -> Callable[[str, Link, dict[str, object], Callable[[], Link]], int]:
    """How a guest plays in lines at a larger table (:func:`mille.ui.people.guest.join`'s ``play_table``)."""
    from ..plain import DETAILS

    def play(host: str, link: Link, hello: dict[str, object], reconnect: Callable[[], Link]) -> int:
        from ..keeping import say
        from ..plain.lines import LineTerminal

        try:
            term = LineTerminal()
            guest = TableGuestLines(term, link, host, detail or DETAILS[0], hello, reconnect)
        except LinkClosed as exc:
            link.close()
            say(f"mille: {exc}")
            return 1
        return _run_guest(term, guest)

    return play


def play_guest_lines(host: str, link: Link, detail: str, reconnect: Callable[[], Link] | None = None) -> int:
    """Take the seat ``host`` invited us to, in lines; the exit status."""
    from ..plain.lines import LineTerminal

    term = LineTerminal()
    guest = GuestLines(term, link, host, detail, reconnect)
    return _run_guest(term, guest)


def _run_guest(term: LineTerminal, guest: GuestLines) -> int:
    """A guest's run in lines, at two seats or at a larger table, to its end: its last line said; the exit status."""
    from ..keeping import say

    try:
        term.start()
        term.write_line(f"Waiting for {guest.host}...")
        status = guest.run()
    except KeyboardInterrupt:
        status = 1
    finally:
        term.stop()
        guest.link.close()
    if guest.last is not None:
        say(guest.last, fit=True)
    return status
