"""The host's side of a game with people (``mille --invite bob``, ``mille --players 4 --invite bob,carol``): one for
every table and every face.

The host's process is the one authority: it runs the game's flow and the
engine as for a game against the computer, each invited person's seat a
:class:`~mille.ui.people.seat.PersonSeat` (the computers in the other seats).
What the people add to the face that plays (the original's board at two
seats, the larger tables' board, or lines) is one wrapper, :class:`HostFace`,
the same for all three:

* the people's news (joined, gone, a stranger refused) at the host's prompts
  and at once while a key or a line is awaited: their sockets, their links
  between moves and the pipe a seat asks on are watched by the terminal
  (:meth:`mille.ui.surface.Terminal.watch`), their callbacks on the thread
  that draws;
* whose turn it is when it passes to a person (``bob is thinking...``);
* every person's view at each deal (after each move, the seat's own:
  :meth:`~mille.ui.people.seat.PersonSeat.inform`);
* a word on every link after some seconds of silence, and a person heard
  from for none of :func:`.link.silence` seconds dropped (a frozen network);
* the host's questions told to the others, but for those that are the
  host's alone (:data:`UNRELAYED`);
* keys typed while a person thinks answered at once (``Q`` quits, ``S``
  saves, ``C`` gives their move to the computer: a silent person's seat is
  the host's to give, not only a dropped one's), never kept for a later
  prompt;
* at a person's drop at their move, the host's choice, asked by the face's
  one choice question (:meth:`mille.ui.flow.Face.choose`): wait for them,
  the computer plays the seat until they are back, or adjourn.

:func:`play_host` seats the people, invites them, waits until all have
joined, plays, and tells each the end.
"""

from __future__ import annotations

from ...engine import rules
from ...engine.rng import GlibcRandom
from ...engine.state import Game
from ...files.safeio import shown
from ...players import is_person_spec, make_player
from ..app import BoardFace
from ..flow import COUP_PROMPT, EXTENSION_PROMPT, PROMPTS, REALLY_PROMPT, Choice, GameFlow, Request, Setup
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE, RESIZED, Heard
from ..tableboard import PROMPT_ROW, TableBoardFace
from .link import LinkClosed, Ticker, beat_after, heard_idle
from .room import Room
from .seat import BACK, COMPUTER, PersonSeat, SeatingError, open_seats, seat_people
from .talk import read_talk, show_story
from .view import fitted
from .view import name as shown_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeAlias

    from ...engine.observation import Observation
    from ...engine.rules import Move, Outcome
    from ...players import Decision, Player
    from ..flow import Face
    from ..plain.lines import LineTerminal
    from ..session import Choices
    from ..surface import Terminal

    #: How the host plays once everyone is there, other than on the board (in lines:
    #: :func:`mille.ui.people.inlines.host_in_lines`): given the people, seat 2's player, the other seats' with their
    #: dice, and the options that host the same table again (``--invite bob:3 --open 1``); the exit status.
    Play: TypeAlias = Callable[["People", "Player", tuple[tuple["Player", GlibcRandom], ...], str], int]


def record_name(names: list[str]) -> str:
    """Who the record of games says a game with people was against: ``person:bob``, ``person:bob,carol``."""
    from ...players import PERSON_PREFIX

    return (PERSON_PREFIX + ",".join(names))[:64]


__all__ = ["UNRELAYED", "HostBoardFace", "HostFace", "HostTableFace", "People", "play_host", "wait_for_people"]

#: The host's own questions that are not told to the other people's terminals: ``Extension?``
#: (the move that answers it is shown to all), ``Really?`` (the host's own), and ``Coup fourre?``
#: asked out of turn, whose asking alone would tell that the host holds the safety
#: (table-rules.md R10).  The others (``Another hand?``, the save's questions) are told, as what
#: the others wait for.
UNRELAYED = frozenset((EXTENSION_PROMPT, REALLY_PROMPT, COUP_PROMPT))


class People:
    """The people at the host's table, as the host's face hears and tells them.

    ``persons`` are their seats, ``host`` the host's name.
    :attr:`adjourned`: the host adjourned the game at a drop; :attr:`saved`:
    the host saved it (``S``) at some point.
    """

    def __init__(self, persons: list[PersonSeat], host: str, room: Room) -> None:
        self.persons = persons
        self.host = host
        #: The room around the table (:mod:`.room`: the door, the watchers, the talk, the story).
        self.room = room
        #: What the host's record of games files the game under (the people, not the computers), and their seats.
        self.record_name = record_name([p.name for p in persons if p.name] or ["open"])
        self.seats = tuple(p.seat for p in persons)
        self.adjourned = False
        self.saved = False
        #: What wakes the host's face to look at the links' silence (made with the face: :meth:`ticker`).
        self._ticker: Ticker | None = None
        for person in persons:
            person.asks_host = True

    def relations(self) -> dict[str, str]:
        """Who each person at the table is to the host, by name: ``partner`` or ``opponent`` (the record of games)."""
        tab = self.room.game.table
        mine = tab.side(0)
        return {p.name: "partner" if tab.side(p.seat) == mine else "opponent" for p in self.persons if p.name}

    def at(self, seat: int) -> PersonSeat | None:
        """The person at ``seat``, if a person sits there."""
        return next((p for p in self.persons if p.seat == seat), None)

    def notices(self) -> list[str]:
        """The people's news (joined, gone) and the room's (refused, watching, talk), oldest first, taken; the
        people's told to the table too."""
        texts = []
        for person in self.persons:
            for text in person.take_notices():
                texts.append(text)
                self.room.person_news(person, text)
        return texts + self.room.take_notices()

    def update_all(self) -> None:
        """A move was made or a hand dealt: every person's new view at once, and the watchers' table."""
        for person in self.persons:
            person.update()
        self.room.update()

    def turn_news(self, game: Game) -> str | None:
        """Whose turn it is, when it is a person's: ``bob is thinking...``, or the computer playing for them."""
        if game.finished or game.pending_extension is not None:
            return None
        person = self.at(rules.seen_turn(game))  # a coup fourré asked of a person is theirs alone (R10)
        if person is None:
            return None
        if person.link is not None:
            return f"{shown_name(person.name)} is thinking..."
        if person.standing_in:
            return f"The computer plays for {shown_name(person.name)}"
        return None

    def relay(self, prompt_no: int) -> None:
        """The host's own question, told to the others' terminals (``Another hand?``: theirs to wait for)."""
        if prompt_no not in UNRELAYED:
            for person in self.persons:
                person.say(f"{shown_name(self.host)}: {PROMPTS[prompt_no]}")
            self.room.say(f"{shown_name(self.host)}: {PROMPTS[prompt_no]}")

    def ticker(self) -> Ticker:
        """The ticks that wake the host's face to beat and to hear silence (a third of a beat apart)."""
        if self._ticker is None:
            self._ticker = Ticker(beat_after() / 3)
        return self._ticker

    def hear_silence(self, thinking: PersonSeat | None) -> None:
        """Each link: a word if this side was quiet, and a person silent past the bound dropped (``thinking``'s link is
        the worker's, which hears its silence itself)."""
        for person in self.persons:
            link = person.link
            if link is None:
                continue
            if person is not thinking and not person.deciding and link.silent():
                person.dropped(link.silence_reason())
                continue
            person.beat()

    def close(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
        for person in self.persons:
            person.close()


def drop_choice(name: str) -> Choice:
    """The host's question when ``name`` dropped at their move."""
    return Choice(
        "Wait/Comp/Adjourn?",
        f"w waits for {name} to join again, c lets the computer play the seat until then, "
        "a adjourns the game (s saves, q quits):",
        "wca",
        ("wait", "computer", "adjourn"),
    )


def waiting_choice(name: str, host: str) -> Choice:
    """The host waits for ``name``: any key (in lines, RETURN) gives the choice back."""
    return Choice(
        "Waiting...", f"Waiting for {name}: they join again with mille --join {host}. RETURN brings the choice back."
    )


class _Done(Heard):
    """The thread that thinks has chosen (a key read while a person thinks gives way)."""


class HostFace:
    """The face that plays (``inner``: the original's board, the larger tables' board or lines) with the people in it.

    ``term`` is the terminal ``inner`` plays on, ``people`` the people at
    the table.  A face of one kind says the people's news its own way
    (:meth:`news`) and reads the keys typed while a person thinks
    (:meth:`busy`); the rest is this one class, every method of the face
    passed on to ``inner`` after (or before) what the people need.
    """

    inner: Face
    #: Whose turn is said after each move while it is a person's (a board's message line, which the computers'
    #: announcements clear), or only when the turn passes to them (lines: once a turn).
    every_move = True

    def __init__(self, inner: Face, term: Terminal | LineTerminal, people: People) -> None:
        self.inner = inner
        self.term = term
        self.people = people
        self.flow: GameFlow
        #: The person whose seat is asked now (its link the worker's alone), while the flow's worker thinks.
        self._thinking: PersonSeat | None = None
        #: The descriptors this face watches on the terminal.
        self._watched: set[int] = set()
        #: The person whose return ends the question asked now (:meth:`_choose_or_back`), if any.
        self._awaited: PersonSeat | None = None

    # ------------------------------------------------------------------
    # What a face of one kind says its own way

    def news(self, texts: list[str]) -> None:
        """The people's news, said at once (each text a sentence without its full stop)."""
        raise NotImplementedError

    def busy(self, ready: int, person: PersonSeat) -> int | None:
        """While ``person`` thinks: None once ``ready`` can be read, or the terminal's event; keys answered at once."""
        raise NotImplementedError

    def busy_line(self, person: PersonSeat) -> str:
        """What a key typed while ``person`` thinks is told."""
        return f"{shown_name(person.name)}'s turn (C: computer)"

    def give(self, person: PersonSeat) -> None:
        """The host gives ``person``'s move, asked now, to the computer (``C`` while they think)."""
        person.give()
        self.news([f"The computer plays for {shown_name(person.name)}"])

    def read_talk(self) -> str:
        """A line of talk typed on this face ('' for none)."""
        raise NotImplementedError

    def talk(self, text: str | None = None) -> None:
        """The host's line of talk (``T``, or ``say`` in lines: ``text``), told to the table and to the host."""
        line = self.read_talk() if text is None else text
        if line:
            self.people.room.host_talk(line, lambda why: self.news([why]))
        self._notices()

    # ------------------------------------------------------------------
    # Hearing the people: the terminal watches their sockets, idle links and the pipes their seats ask on

    def _rewatch(self) -> None:
        """The descriptors watched brought up to date: the room's (the door, the knocks, the watchers), every asking
        pipe, and the links nobody else reads (not the link of a person whose seat is asked now: the worker's alone,
        :func:`.link.heard_idle`)."""
        wanted: dict[int, Callable[[], None]] = {
            fd: lambda callback=callback: self._heard(callback)  # type: ignore[misc]
            for fd, callback in self.people.room.watched().items()
        }
        wanted[self.people.ticker().fd] = self._tick
        for person in self.people.persons:
            wanted[person.asking] = lambda p=person: self._at_drop(p)  # type: ignore[misc]
            link = heard_idle(person.link, person.deciding or person is self._thinking)
            if link is not None:
                wanted[link.fileno()] = lambda p=person, link=link: self._idle(p, link)  # type: ignore[misc]
        for fd in self._watched - wanted.keys():
            self.term.unwatch(fd)
        for fd, callback in wanted.items():
            self.term.watch(fd, callback)
        self._watched = set(wanted)

    def _unwatch_all(self) -> None:
        for fd in self._watched:
            self.term.unwatch(fd)
        self._watched = set()

    def _tick(self) -> None:
        """Time to beat and to hear silence on the links."""
        self.people.ticker().take()
        self.people.hear_silence(self._thinking)
        self._rewatch()
        self._notices()

    def _heard(self, callback: Callable[[], None]) -> None:
        """The room heard (someone at the door, a watcher, a person's talk): acted on and said at once; a person
        awaited who is back ends the question (:class:`Heard`)."""
        callback()
        self._rewatch()
        awaited = self._awaited
        if awaited is not None and awaited.link is not None:
            raise Heard  # (their joining said by the question's end: "bob joined, thinking...")
        self._notices()

    def _idle(self, person: PersonSeat, link: object) -> None:
        """``person``'s link, nothing asked of them: their talk heard, their leaving noted."""
        idle = heard_idle(person.link, person.deciding or person is self._thinking)
        if idle is not None and idle is link:  # (not a link since dropped, nor one the worker reads now)
            try:
                self.people.room.idle(person, idle)
            except LinkClosed as exc:
                person.dropped(str(exc))
        self._rewatch()
        self._notices()

    def _notices(self) -> None:
        texts = self.people.notices()
        if texts:
            self.news([shown(text) for text in texts])

    def _turn_news(self) -> None:
        news = self.people.turn_news(self.flow.game)
        if news is not None:
            self.news([news])

    # ------------------------------------------------------------------
    # The face

    @property
    def window(self) -> int:
        return self.inner.window

    def attach(self, flow: GameFlow) -> None:
        self.flow = flow
        self.inner.attach(flow)
        self._rewatch()

    def begin_hand(self, restored: bool) -> None:
        self.people.room.hand_begins()
        self.inner.begin_hand(restored)
        self.people.update_all()
        self._rewatch()
        self._turn_news()

    def read_move(self) -> Move | Request:
        while True:
            self._rewatch()
            self._notices()
            got = self.inner.read_move()
            if got is Request.TALK:
                self.talk()
            elif got is Request.STORY:
                self.story()
            else:
                return got

    def story(self) -> None:
        """``M`` on the original's board: the table's story (the larger tables' board lists it with the moves)."""
        return None

    def ask(self, prompt_no: int) -> bool | Request:
        self._rewatch()
        self._notices()
        self.people.relay(prompt_no)
        return self.inner.ask(prompt_no)

    def read_file_name(self) -> str:
        return self.inner.read_file_name()

    def choose(self, choice: Choice) -> str | Request:
        return self.inner.choose(choice)

    def announce(self, made: Decision, observation: Observation) -> None:
        self.inner.announce(made, observation)

    def show_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        """The move shown; whose turn it is when it passes to a person.

        Each person has been sent the move and their view after it, if it was
        told to their seat (:meth:`~mille.ui.people.seat.PersonSeat.inform`);
        a refused move (the host's own: ``no more cards``) is no move at the
        table: it sends the others nothing, and the turn has not passed.
        """
        if outcome.error is None:
            self.people.room.update()  # the watchers' table (what the table saw is theirs after the people's)
        self.inner.show_move(game, seat, move, outcome)
        if outcome.error is None and (self.every_move or rules.seen_turn(game) != seat):
            self._turn_news()

    def tell(self, message: str) -> None:
        self.inner.tell(message)

    def hint(self, text: str) -> None:
        self.inner.hint(text)

    def error(self, message: str) -> None:
        self.inner.error(message)

    def save_begins(self) -> None:
        self.inner.save_begins()

    def save_ends(self, done: bool | None) -> None:
        if done:
            self.people.saved = True
        self.inner.save_ends(done)

    def poll(self) -> int | None:
        return self.inner.poll()

    def wait(self, ready: int) -> int | None:
        """While a seat thinks (on the flow's worker): its choice, the terminal's events, the people heard meanwhile.

        A person thinking: the keys typed are read and answered at once
        (:meth:`busy`), and their link is the worker's alone.  A computer
        thinking: keys typed ahead wait for the next prompt, as in the
        original.
        """
        game = self.flow.game
        person = self.people.at(game.to_move)
        self._thinking = person
        self._rewatch()
        if person is not None and person.link is not None:
            event = self.busy(ready, person)
        else:
            event = self.term.wait(ready)
        if event is None:
            self._thinking = None
            self._rewatch()
        return event

    # ------------------------------------------------------------------
    # A person's drop at their move: the host chooses

    def _at_drop(self, person: PersonSeat) -> None:
        """``person`` dropped at their move: ``W`` waits for them, ``C`` the computer plays the seat, ``A`` adjourns.

        ``S`` saves and ``Q`` quits as at any prompt; any key while waiting
        brings the choice back, and their joining again ends it.
        """
        person.asked()
        name = shown_name(person.name)
        self._notices()
        self.news([f"{name} is gone"])
        while person.link is None:
            answer = self._choose_or_back(person, drop_choice(name))
            if answer is None:
                break  # they are back
            if answer == "c":
                self.news([f"The computer plays for {name}"])
                person.answer(COMPUTER)
                return
            if answer == "a":
                self.people.adjourned = True
                person.answer(COMPUTER)  # the seat's worker ends; the game is kept as it stands
                self.flow.leave()
            if answer is Request.SAVE:
                self.flow.save()
            elif answer is Request.QUIT:
                self.flow.rub()
            elif answer == "w":
                self.news([f"Waiting for {name}"])
                if self._choose_or_back(person, waiting_choice(name, shown(self.people.host))) is None:
                    break
        # Back at their move: the news (their joining), and whose turn it is, which the news would hide.
        joined = f"{person.name} joined"
        texts = self.people.notices()
        news = [f"{name} joined, thinking..." if text == joined else shown(text) for text in texts]
        if joined not in texts:
            news.append(f"{name} is thinking...")
        self.news(news)
        person.answer(BACK)

    def _choose_or_back(self, person: PersonSeat, choice: Choice) -> str | Request | None:
        """``choice`` asked; None as soon as ``person`` joined again (the door watched meanwhile)."""
        self._rewatch()
        self._awaited = person
        try:
            return self.inner.choose(choice)
        except Heard:
            return None
        finally:
            self._awaited = None
            self._rewatch()


class HostBoardFace(HostFace):
    """The host on the original's board at two seats: the person's name heads the ``Comp`` column."""

    inner: BoardFace

    def __init__(self, inner: BoardFace, people: People) -> None:
        super().__init__(inner, inner.term, people)
        [self.person] = people.persons
        self._name()

    def _name(self) -> None:
        """The person's name heading the ``Comp`` column (an open seat nobody holds: the computer's ``Comp``)."""
        name = self.person.name
        self.inner.display.other_name = shown(name) if name else None

    def begin_hand(self, restored: bool) -> None:
        self.people.room.hand_begins()
        self._name()  # (an open seat taken for this hand)
        self.inner.begin_hand(restored)
        self.people.update_all()
        self._rewatch()
        self._turn_news()

    def news(self, texts: list[str]) -> None:
        self.inner.tell(fitted("; ".join(texts)))
        self.inner.term.board.refresh()  # the cursor back on the prompt

    def busy(self, ready: int, person: PersonSeat) -> int | None:
        return _busy_keys(self, ready, person)

    def story(self) -> None:
        from ..layout import BOARD_COLS, BOARD_WINDOW

        story = self.people.room.story
        lines = [shown(entry.text) for entry in story.entries]
        show_story(self.inner.term.board, lines, BOARD_WINDOW[0], BOARD_COLS, self.inner.dialogs.readch)
        self.inner.display.repaint()

    def read_talk(self) -> str:
        from ..layout import BOARD_COLS, MOVE_X, MOVE_Y

        term = self.inner.term
        try:
            return read_talk(term, term.board, MOVE_Y, MOVE_X, BOARD_COLS - MOVE_X, self.inner.dialogs.readch)
        finally:
            self.inner.prompt_line("")


class HostTableFace(HostFace):
    """The host on the larger tables' board: the people's names where the computers are ``seat N``."""

    inner: TableBoardFace

    def __init__(self, inner: TableBoardFace, people: People) -> None:
        super().__init__(inner, inner.term, people)

    def news(self, texts: list[str]) -> None:
        for text in texts:
            self.inner.noted(text)  # (listed with the moves: M reads them again)
        self.inner.say("; ".join(texts)[:79])
        self.inner.draw()

    def busy(self, ready: int, person: PersonSeat) -> int | None:
        return _busy_keys(self, ready, person)

    def story(self) -> None:
        self.inner.board_key(ord("M"))  # (the moves and the talk, a page back)

    def read_talk(self) -> str:
        board = self.inner
        asked_at = board.prompting
        try:
            return read_talk(board.term, board.term.miles, PROMPT_ROW, 0, 80, board.readch)
        finally:
            if asked_at:
                board.prompt(asked_at)
            else:
                board.unprompt()


def _busy_keys(face: HostBoardFace | HostTableFace, ready: int, person: PersonSeat) -> int | None:
    """On a board, while ``person`` thinks: the keys typed read at once; ``Q`` quits (``Really?``), ``S`` saves, ``^L``
    repaints, any other is told whose turn it is, with the bell."""
    term = face.inner.term

    def done() -> None:
        raise _Done

    term.watch(ready, done)
    try:
        while True:
            key = term.read_byte()
            if key in (INTERRUPT, HANGUP, LEAVE, END_OF_INPUT):
                return key
            letter = chr(key).lower() if 0 <= key < 128 else ""
            if key == RESIZED:
                continue
            if letter == "q":
                return INTERRUPT  # Really?, as ^C
            if letter == "c":
                face.give(person)
            elif letter == "t":
                face.talk()
            elif letter == "m":
                face.story()
            elif letter == "s":
                term.unwatch(ready)
                try:
                    face.flow.save()
                finally:
                    term.watch(ready, done)
            elif key == 0x0C:
                term.redraw()
            else:
                term.bell()
                face.news([face.busy_line(person)])
    except _Done:
        return None
    finally:
        term.unwatch(ready)


def wait_for_people(room: Room, host: str) -> bool:
    """Before the board: wait until every invited person has joined, and, when every seat is open, until someone
    has taken one (RETURN starts with the computer keeping them); who came, who tried and who watches said as it
    comes.  False if interrupted (^C)."""
    import os
    import select

    from ..keeping import say

    persons = room.persons
    invited = [p for p in persons if p.uid is not None]
    opened = [p for p in persons if p.opened]
    larger = room.game.table.seats > 2
    for person in invited:
        where = f" (seat {person.seat + 1})" if larger else ""
        say(f"mille: waiting for {person.name}{where}: they join with: mille --join {host}")
    if opened:
        which = ", ".join(str(p.seat + 1) for p in opened)
        seats = f"seat {which} is" if len(opened) == 1 else f"seats {which} are"
        say(f"mille: {seats} open to anyone here: mille --list shows the game, mille --join {host} takes a seat")
    starting = not invited  # every seat open: the first to take one starts the game, or RETURN
    say(
        "mille: (RETURN starts with the computer in the open seats; ^C gives up)"
        if starting
        else "mille: (^C gives up)"
    )
    try:
        while True:
            for person in persons:
                for text in person.take_notices():
                    room.person_news(person, text)
                    say(f"mille: {shown(text)}")
            for text in room.take_notices():
                say(f"mille: {shown(text)}")
            if all(p.link is not None for p in invited) and (not starting or any(p.link is not None for p in opened)):
                return True
            callbacks = room.watched()
            if starting:
                callbacks[0] = lambda: None
            ready, _, _ = select.select(list(callbacks), [], [], 0.5)
            for fd in ready:
                if fd == 0:
                    line = os.read(0, 1024)
                    if not line:
                        return False
                    if b"\n" in line or b"\r" in line:
                        return True
                    continue
                callback = room.watched().get(fd)
                if callback is not None:
                    callback()
    except KeyboardInterrupt:
        return False


def play_host(
    choices: Choices,
    spec: str,
    play: Play | None = None,
    opened: int | None = 0,
    watchers: bool = True,
    quiet: bool = False,
) -> int:
    """Host a game for the people ``spec`` names (``--invite bob``, ``bob,carol`` or ``bob:3``) and ``opened`` seats
    open to anyone (``--open``: None every seat not invited, 0 none), computers in the other seats; the exit status.

    ``play`` plays it another way than on the board once everyone is there
    (in lines: :func:`mille.ui.people.inlines.host_in_lines`).
    ``watchers``: anyone may watch (``--no-watchers``: nobody);
    ``quiet``: the watchers' talk stays among the watchers.
    """
    import os

    from ..keeping import say
    from ..session import DEFAULT_COMPUTER, computer_player, play_board, secret_dice
    from .rendezvous import RendezvousError, invite, listen, me, user, user_name

    game = choices.game
    tab = game.table
    host = me()
    try:
        placed = seat_people(spec, tab, host)
        uids = {seat: user(name).pw_uid for seat, name in placed.items()}
        open_at = [] if opened == 0 else open_seats(placed, tab, opened)
    except (SeatingError, RendezvousError) as exc:
        say(f"mille: {exc}")
        return 1
    names = {0: host, **{seat: user_name(uid) for seat, uid in uids.items()}}
    computer = DEFAULT_COMPUTER if is_person_spec(choices.computer_name) else choices.computer_name
    try:
        listener, path = listen()
    except RendezvousError as exc:
        say(f"mille: {exc}")
        return 1
    persons: list[PersonSeat] = []
    for seat in sorted([*uids, *open_at]):
        uid = uids.get(seat)
        persons.append(PersonSeat(seat, uid, game, host, names, make_player(computer), opened=uid is None))
    room = Room(listener, game, host, os.getuid(), persons, names, computer, watchers=watchers, quiet=quiet)
    try:
        at = "" if tab.seats == 2 else f" at {tab.seats} seats"
        line = f"mille: {host} invites you to a game of Mille Bornes{at}: mille --join {host}"
        for person in persons:
            if person.uid is None:
                continue
            reached = invite(person.name, line)
            if not reached:
                say(f"mille: {reached.why}; tell them: mille --join {host}")
        if not wait_for_people(room, host):
            say("mille: not everyone joined" if len(persons) > 1 else "mille: nobody joined")
            for person in persons:
                person.bye(f"{host} gave up waiting")
            room.close(f"{host} gave up waiting")
            return 1
        by_seat: dict[int, PersonSeat] = {p.seat: p for p in persons}
        seat_players: list[tuple[Player, GlibcRandom]] = []
        for seat in range(1, tab.seats):
            if seat in by_seat:
                seat_players.append((by_seat[seat], GlibcRandom.from_urandom()))
            elif seat == 1:
                seat_players.append(computer_player(computer, choices.seed, game))
            else:
                seat_players.append((make_player(computer), secret_dice(computer)))
        people = People(persons, host, room)
        seated = _seated(names, persons, tab.seats)
        first, others = seat_players[0], tuple(seat_players[1:])
        if play is not None:
            status = play(people, first[0], others, seated)
        else:

            def make_flow(term: Terminal, game: Game, setup: Setup) -> GameFlow:
                if game.table.seats == 2:
                    flow = GameFlow(HostBoardFace(BoardFace(term, game, setup.window), people), game, setup)
                else:
                    board_names = {seat: shown_name(n) for seat, n in names.items() if seat}
                    board = TableBoardFace(term, game, 0, board_names, setup.window)
                    flow = GameFlow(HostTableFace(board, people), game, setup)
                    flow.told = board.moved  # the moves since her last turn listed on her board (tableboard.table_flow)
                flow.public = room.moved
                flow.talks = True
                return flow

            status = play_board(
                choices,
                computer=first[0],
                make_flow=make_flow,
                command=f"mille {seated}",
                others=others,
                record_as=people.record_name,
                people=people.seats,
                record_people=people.relations,
            )
        for person in persons:
            if people.adjourned:
                person.bye(f"{host} adjourned the game; join again when invited: mille --join {host}")
                if person.uid is not None:
                    say(f"mille: {person.name} takes their seat again with: mille --join {host}")
            elif status == 1:  # kept as on a hangup, or the computer standing in failed
                person.bye(f"{host} left the game; {host} keeps it and may invite you again")
            elif people.saved:
                person.bye(f"{host} left the game (saved: {host} may invite you again to play it on)")
            else:
                person.bye(f"{host} left the game")
        room.close(f"{host}'s game is over")
        return status
    finally:
        for person in persons:
            person.close()
        room.close(f"{host} left the game")
        listener.close()
        try:
            os.unlink(path)
        except OSError:
            pass


def _seated(names: dict[int, str], persons: list[PersonSeat], seats: int) -> str:
    """The options that host the same table again (``--invite bob``; ``--invite bob:3,carol:2``; ``--open``,
    ``--invite bob:3 --open 1``): a game kept or adjourned is resumed with them, its open seats open again."""
    opened = [p for p in persons if p.opened]
    if seats == 2:
        return "--open" if opened else f"--invite {names[1]}"
    given = ",".join(f"{n}:{s + 1}" for s, n in sorted(names.items()) if s and s not in {p.seat for p in opened})
    words = [f"--invite {given}"] if given else []
    if opened:
        words.append(f"--open {len(opened)}")
    return " ".join(words)
