"""The host's side of one person: their seat, as the flow's player of it, at any table (two seats included).

Each invited person's seat is a :class:`PersonSeat`: a player that sends
the person only what their seat may see (:mod:`.messages`: protocol 2's
observation, never another hand, a partner's included, nor the deck) and
waits for the move typed at their terminal.  One class does, for every table:

* **admission**: the person knocks at the table's door (:mod:`.room`: who
  connected is asked of the kernel before a byte is read) and the door
  hands the seat their link (:meth:`PersonSeat.take`); an open seat
  (``--open``) is anyone's until someone takes it, then theirs;
* **the asking loop**: ``decide``, numbered, then their ``move`` to that
  number (a move sent out of turn answers nothing later); a move the rules
  refuse is answered ``error`` with the engine's words (:func:`.view.refusal`,
  the guest said them already from its own view) and asked again; the host
  may give a silent person's move to the computer (:meth:`PersonSeat.give`:
  the question ``withdrawn``);
* **the views**: the hello and the view when they join, at each deal
  (:meth:`PersonSeat.update`), and with each move told to them (``moved``,
  once, and the view after it, :meth:`PersonSeat.inform`): a move told to no
  one (a coup fourré let pass out of turn, R10) changes no one's view;
* **drops**: a link that breaks is noted for the host (:attr:`PersonSeat.notices`);
  at their move the seat asks the host's face what to do
  (:meth:`PersonSeat.ask_host`: wait for them, or let the computer stand in
  until they join again), except at a coup fourré asked out of turn, whose
  asking is their secret (table-rules.md R10): the computer answers that one.

Who sits where (:func:`seat_people`): the host is seat 1; ``NAME:N`` puts a
person at seat N; the others take, in the order invited, first the host's
partners' seats (at 4 and 6 seats the first person invited is the host's
partner), then the other seats in turn order.
"""

from __future__ import annotations

import os
import queue
import threading

from ...engine.observation import Observation, observe
from ...engine.rng import GlibcRandom
from ...engine.rules import Move, Phase
from ...engine.state import Game, Table
from ...files.safeio import shown
from ...players import Decision, weighed
from . import messages
from .link import Link, LinkClosed
from .rendezvous import user_name
from .view import refusal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ...engine.driver import Event
    from ...players import Player

__all__ = ["BACK", "COMPUTER", "PersonSeat", "SeatingError", "open_seats", "seat_people"]

#: The host's answers at a drop (:meth:`PersonSeat.answer`): the person is back (ask them), or the computer plays
#: their seat until they are.
BACK, COMPUTER = "back", "computer"


class SeatingError(ValueError):
    """An ``--invite`` list that cannot seat its people; the message is one line."""


def seat_people(spec: str, tab: Table, host: str) -> dict[int, str]:
    """The people of ``--invite`` (``bob``, ``bob,carol`` or ``bob:3``) by seat (0-based); :class:`SeatingError` if
    none fits.

    Seats are numbered from 1 as the boards show them, the host at seat 1.
    Unplaced people take the host's partners' seats first (R2 of
    ``table-rules.md``: partners sit apart, so at 4 seats the partner is
    seat 3), then the others in turn order.
    """
    seats = tab.seats
    placed: dict[int, str] = {}
    unplaced: list[str] = []
    names: set[str] = set()
    for item in spec.split(",") if spec else []:
        name, colon, number = item.strip().partition(":")
        if not name:
            raise SeatingError(f"--invite {shown(spec)!r}: a person's name is missing")
        if name == host:
            raise SeatingError("you are seat 1 already: invite the others")
        if name in names:
            raise SeatingError(f"{shown(name)} is invited twice")
        names.add(name)
        if not colon:
            unplaced.append(name)
            continue
        if not number.isdigit() or not 2 <= int(number) <= seats:
            raise SeatingError(f"{shown(item)}: a seat is a number from 2 to {seats} (you are seat 1)")
        seat = int(number) - 1
        if seat in placed:
            raise SeatingError(f"seat {seat + 1} is given twice")
        placed[seat] = name
    if len(names) > seats - 1:
        if seats == 2:
            raise SeatingError("one person at two seats; more with --players 3, 4 or 6")
        raise SeatingError(f"a table of {seats} seats has room for {seats - 1} people besides you")
    free = [s for s in _order(tab) if s not in placed]
    for name, seat in zip(unplaced, free, strict=False):
        placed[seat] = name
    return placed


def _order(tab: Table) -> list[int]:
    """The seats people take, in turn: the host's partners' first (R2), then the others in turn order."""
    partners = [s for s in tab.partners(tab.side(0)) if s != 0]
    return partners + [s for s in range(1, tab.seats) if s not in partners]


def open_seats(placed: dict[int, str], tab: Table, count: int | None) -> list[int]:
    """The seats ``--open`` leaves to anyone: ``count`` of those nobody is invited to (None: every one), taken as
    invited people take them; :class:`SeatingError` if there are not so many."""
    free = [s for s in _order(tab) if s not in placed]
    if count is None:
        if not free:
            raise SeatingError("--open: every seat is given already")
        return free
    if not 1 <= count <= len(free):
        left = "no seat is" if not free else f"only {len(free)} seat{'s are' if len(free) > 1 else ' is'}"
        raise SeatingError(f"--open {count}: {left} left to open")
    return free[:count]


class PersonSeat:
    """One person's seat, as the flow's player of ``seat`` (a computer, ``standin``, plays it while they are away and
    the host says so, and while an open seat waits for someone to take it).

    ``uid`` is the only user let in (None: an open seat, ``--open``, anyone's
    until taken: :meth:`claim`), ``game`` the host's game, ``host`` the
    host's name, ``names`` every person's name by seat (the host's at 0).
    Notices for the host (joined, gone) wait in :attr:`notices` for the
    host's face, which alone draws.  Called by the driver on the flow's
    worker thread (:meth:`choose`, :meth:`inform`) and by the host's face on
    the thread that draws (:meth:`take`, :meth:`update`, :meth:`answer`).
    """

    def __init__(
        self,
        seat: int,
        uid: int | None,
        game: Game,
        host: str,
        names: dict[int, str],
        standin: Player,
        opened: bool = False,
    ) -> None:
        self.seat = seat
        self.uid = uid
        self.name = "" if uid is None else user_name(uid)
        #: Opened (``--open``): anyone may take it while nobody holds it, and it is open again when they leave.
        self.opened = opened
        #: They have sat here at least once (a listing says "away" once they have, "invited" before).
        self.came = False
        #: The number of the table's story line the move being told is (:mod:`.narration`; None: a move not told).
        self.line: int | None = None
        #: They said they leave (``leave``): at their link's end an open seat they took is open again.
        self.leaving = False
        #: Where the lines they send while asked that are no move go (talk, their leaving; :mod:`.room`).
        self.heard: Callable[[PersonSeat, dict[str, object]], None] | None = None
        self.host = host
        self.names = names
        self.game = game
        self.standin = standin
        self.link: Link | None = None
        self._lock = threading.Lock()
        #: Sends come from the flow's thread and, while the person decides, the worker: one at a time.
        self._sending = threading.Lock()
        #: The worker waits for the person's move: it alone reads their link meanwhile (:func:`.link.heard_idle`).
        self.deciding = False
        #: One-line notices for the host, oldest first (shown by the face, escaped).
        self.notices: list[str] = []
        #: The host chose, at the person's drop, that the computer plays the seat until they are back (an open seat
        #: nobody holds: the computer keeps it).
        self.standing_in = uid is None
        #: A face that answers drops is there (:meth:`ask_host`); without one the computer stands in at once.
        self.asks_host = False
        #: The pipe the seat asks the host's face on at a drop (its byte read by :meth:`asked`), the answer queued.
        self.asking, self._asking_w = os.pipe()
        self._answers: queue.Queue[str] = queue.Queue()
        #: The number of the question last asked (``decide``): a move answers only the question it names.
        self._asked = 0
        #: The host gave the move asked now to the computer (:meth:`give`).
        self._given = threading.Event()

    # ------------------------------------------------------------------
    # Who is at the other end

    def notice(self, text: str) -> None:
        with self._lock:
            self.notices.append(text)

    def take_notices(self) -> list[str]:
        """The notices for the host, oldest first, taken."""
        with self._lock:
            taken, self.notices = self.notices, []
        return taken

    def claim(self, uid: int) -> None:
        """An open seat taken by ``uid`` (named by the kernel): theirs, kept for them, until they leave on purpose."""
        self.uid = uid
        self.name = user_name(uid)
        self.names[self.seat] = self.name

    def vacate(self) -> None:
        """An open seat's taker left on purpose: open again, the computer keeping it."""
        if self.link is not None:
            self.link.close()
            self.link = None
        self.uid = None
        self.name = ""
        self.came = False
        self.leaving = False
        self.names.pop(self.seat, None)
        self.standing_in = True

    def take(self, link: Link) -> bool:
        """The person's link, let in by the door: their hello and view sent, the seat theirs again; False if the
        link broke at once (nothing noted: it is as if they had not come)."""
        if self.link is not None and not self.link.closed:
            link.close()  # the person twice: the seat is taken
            return False
        self.link = link
        try:
            self._send(messages.hello(self.host, self.name, self.seat, self.game.table, self.names))
            self._send_view()
        except LinkClosed:
            self.link = None
            return False
        self.came = True
        self.standing_in = False  # the seat is theirs again; another drop asks again
        self.notice(f"{self.name} joined")
        return True

    def dropped(self, why: str) -> None:
        """The link went (``why``): closed, and the host told; an open seat whose taker left on purpose, open again."""
        if self.link is not None:
            self.link.close()
        self.link = None
        if self.leaving and self.opened:
            name = self.name
            self.vacate()
            self.notice(f"{name} left seat {self.seat + 1}; it is open again")
            return
        self.leaving = False
        if self.asks_host:
            self.notice(f"{self.name} is gone ({why})")
        else:
            self.notice(f"{self.name} is gone; the computer plays for them until they join again ({why})")

    def _send(self, message: dict[str, object]) -> None:
        """Send ``message`` (:class:`LinkClosed` if the link broke), one sender at a time."""
        link = self.link
        if link is None:
            return
        with self._sending:
            link.send(message)

    def send(self, message: dict[str, object]) -> None:
        """Send the person ``message`` if they are there (a drop is noted, never raised)."""
        try:
            self._send(message)
        except LinkClosed as exc:
            self.dropped(str(exc))

    def say(self, text: str) -> None:
        """A line for the person's message line (the host's questions)."""
        self.send(messages.say(text))

    def _send_view(self) -> None:
        game = self.game
        self._send(messages.view(observe(game, self.seat), bool(game.finished)))

    def update(self) -> None:
        """A move was made or a hand dealt: the person's new view at once."""
        if self.link is None:
            return
        try:
            self._send_view()
        except LinkClosed as exc:
            self.dropped(str(exc))

    def inform(self, event: Event) -> None:
        """A move was told to this seat: what every seat saw of it (said by a guest in lines), and the view after it.

        The driver tells a seat the moves it may know of: a coup fourré let
        pass out of turn is told to its seat alone (being asked says it held
        the safety, R10), so no other person's view changes with it.
        """
        line, self.line = self.line, None
        if event.seat != self.seat:
            self._given.clear()  # another seat's move: a turn given to the computer is over
        if self.link is None:
            return
        try:
            self._send(messages.moved(event, self.game.table.sides, line))
            self._send_view()
        except LinkClosed as exc:
            self.dropped(str(exc))

    def beat(self) -> None:
        """A word for the person if this side has been quiet long enough (:meth:`.link.Link.quiet`)."""
        link = self.link
        if link is not None and link.quiet():
            self.send(messages.beat())

    # ------------------------------------------------------------------
    # The player protocol (the driver calls these, on the flow's worker thread)

    def decide(self, observation: Observation, rng: GlibcRandom) -> Decision:
        move = self.choose(observation, rng)
        return Decision(move, weighed(move, observation))

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        """The person's move, asked over the link; at a drop, what the host chooses (wait, or the computer's).

        The host waits for them or lets the computer play the seat until
        they are back (or adjourns, which ends the game's thread).  Gone at a
        coup fourré asked out of turn, the computer answers it without
        asking the host (her question then would tell the secret, R10).
        """
        legal = observation.legal_moves()
        while True:
            if self._given.is_set():  # the host gave this turn to the computer: the seat theirs at the next
                return self.standin.choose(observation, rng)
            if self.link is not None:
                self.deciding = True
                try:
                    move = self._ask(observation, legal)
                finally:
                    self.deciding = False
                if move is not None:
                    return move
                continue
            if self.standing_in or not self.asks_host or observation.phase is Phase.REACTION:
                return self.standin.choose(observation, rng)
            if self.ask_host() == COMPUTER:
                self.standing_in = True

    def _ask(self, observation: Observation, legal: list[Move]) -> Move | None:
        """The person's legal move, asked until they give one; a refused one answered with the engine's words and
        asked again; None once they are gone."""
        link = self.link
        assert link is not None
        sides = observation.table.sides
        try:
            ask = self._question(observation, legal)
            while True:
                message = link.wait_message(timeout=0.2)
                if self._given.is_set():
                    self._send(messages.withdrawn(ask))
                    return None
                if message is None:
                    if link.silent():
                        raise LinkClosed(link.silence_reason())
                    continue
                move = messages.read_move(message, sides, ask)
                if move is not None and move in legal:
                    return move
                if messages.is_move(message, ask):
                    self._send(messages.error(refusal(self.game, self.seat, move, self.host)))
                    ask = self._question(observation, legal)
                elif message.get("type") != "move" and self.heard is not None:
                    self.heard(self, message)  # (talk, or their leaving: the room's, on the thread that draws)
        except LinkClosed as exc:
            self.dropped(str(exc))
        return None

    def _question(self, observation: Observation, legal: list[Move]) -> int:
        """``decide`` sent, numbered anew; the number."""
        self._asked += 1
        self._send(messages.decide(observation, legal, self._asked))
        return self._asked

    def give(self) -> None:
        """The host gives the person's turn, asked now, to the computer (they are silent, connected or not): the
        question is withdrawn, the computer plays the rest of the turn, and the seat is theirs again at its next."""
        self._given.set()

    def bye(self, text: str) -> None:
        """The game is over for everyone, or the host left: ``text`` for the person, and the link closed."""
        self.send(messages.bye(text))
        if self.link is not None:
            try:
                self.link.flush()
            except LinkClosed:
                pass
            self.link.close()
            self.link = None

    # ------------------------------------------------------------------
    # A drop at their move: the host's face chooses

    def ask_host(self) -> str:
        """At a drop, on the worker: wake the host's face (a byte on :attr:`asking`), wait for :data:`BACK` or
        :data:`COMPUTER`."""
        os.write(self._asking_w, b"?")
        return self._answers.get()

    def asked(self) -> None:
        """The host's face heard the question (its byte taken: heard once)."""
        try:
            os.read(self.asking, 1)
        except OSError:
            pass

    def answer(self, choice: str) -> None:
        """The host's face answers the seat's :meth:`ask_host`."""
        self._answers.put(choice)

    def close(self) -> None:
        """The game is over: the link and the pipe the seat asks on closed."""
        if self.link is not None:
            self.link.close()
            self.link = None
        for fd in (self.asking, self._asking_w):
            try:
                os.close(fd)
            except OSError:
                pass
