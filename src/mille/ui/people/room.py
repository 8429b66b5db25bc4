"""The room around the host's table (issue 45): its door, the watchers, the talk, the story told to who comes back.

One door per host (:func:`mille.ui.people.rendezvous.listen`: ``table.sock``
in the host's directory), where anyone on the machine may knock.  The
kernel names each peer (``SO_PEERCRED``) before a byte is read; a peer who
may do nothing at this table (not invited, no seat open, watchers refused)
is disconnected unread, and the host told who tried.  Anyone else's first
message is a knock (:func:`mille.ui.people.messages.knock`), answered by
who they are (:class:`Room`):

* ``list``: the game as ``mille --list`` shows it (:meth:`Room.listing`),
  then the door closes; nobody but the host can make a listing, for the
  lister checks that the process answering is the directory's owner;
* ``join``: the seat kept for them (invited, or an open seat they took
  before) or an open one: the seat's :meth:`~mille.ui.people.seat.PersonSeat.take`,
  then what they missed of the table's story; an open seat a computer is
  keeping while a hand is in play is theirs when the next hand is dealt
  (until then they are told so); a seat kept for someone else, never;
* ``watch``: the watcher's welcome, what every seat sees of the table
  (:func:`mille.engine.observation.public_view`), the story of the hand so
  far, then every move and line of talk as they come; never a card of any
  hand, for a watcher's process is sent nothing else.

What the room sends the watchers is encoded once per move for all of them
and written without blocking (:meth:`mille.ui.people.link.Link.send_line`):
a watcher that stops reading is dropped when its buffer fills, and never
slows the table; one silent for the bound is dropped too, and the host's
words keep a quiet link alive (:meth:`Room.hear_silence`).  Talk (:meth:`Room.talk`) is escaped and cut by the host
before anyone sees it, and limited in rate per sender (:class:`Pace`: three
lines at once, then one a second; the rest is told to the sender alone).
Everything here runs on the host's thread that draws (the terminal watches
the door, the knocks, the watchers' links and the pipe that brings what a
person sent while asked), but :meth:`Room.post`, which the thread asking a
person calls.
"""

from __future__ import annotations

import os
import queue
import time

from ...engine.observation import public_view
from ...files.safeio import shown
from ...players import wire
from . import messages
from .link import Link, LinkClosed, heard_idle
from .messages import MAX_TALK, Knock, Listing, MessageError, Place
from .narration import Story, move_text
from .rendezvous import peer_uid, user_name
from .view import name as shown_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    import socket
    from collections.abc import Callable

    from ...engine.driver import Event
    from ...engine.state import Game
    from .seat import PersonSeat

__all__ = ["KNOCK_WAIT", "MAX_KNOCKING", "MAX_WATCHERS", "Pace", "Room", "Watcher", "clean_talk"]

#: Seconds a connection may take to say what it wants before it is closed.
KNOCK_WAIT = 5.0
#: The most connections waiting to say what they want (more are closed unread).
MAX_KNOCKING = 16
#: The most watchers at a table (more are told so).
MAX_WATCHERS = 64
#: Messages read from one idle link in one go (a flood: a round at a time).
ROUND = 64


def clean_talk(text: str) -> str:
    """A line of talk as the table is told it: control characters escaped, blanks made one, cut to the longest."""
    return " ".join(shown(text).split())[:MAX_TALK]


class Pace:
    """How fast a sender may talk: :attr:`burst` lines at once, then one every :attr:`every` seconds."""

    def __init__(self, burst: int = 3, every: float = 1.0) -> None:
        self.burst = burst
        self.every = every
        self._left: dict[object, tuple[float, float]] = {}

    def allow(self, sender: object, now: float | None = None) -> bool:
        """Whether ``sender`` may say a line now (counted if so)."""
        now = time.monotonic() if now is None else now
        left, at = self._left.get(sender, (float(self.burst), now))
        left = min(float(self.burst), left + (now - at) / self.every)
        if left < 1.0:
            self._left[sender] = (left, now)
            return False
        self._left[sender] = (left - 1.0, now)
        return True


class Watcher:
    """One watcher: their link, their user (named by the kernel), their name."""

    __slots__ = ("link", "uid", "name")

    def __init__(self, link: Link, uid: int) -> None:
        self.link = link
        self.uid = uid
        self.name = user_name(uid)


class Courier:
    """What the watchers are sent, written a moment after the people's views (:data:`WATCH_DELAY`), on a thread of its
    own: a watcher's process wakes once the players' have drawn, and never takes their time.

    The thread alone writes to the watchers' links, in the order things
    were handed to it (:meth:`send`: the bytes, and whom they are for:
    the watchers at that moment); a link that breaks or fills is reported
    with ``gone`` (from the courier's thread: the room hears it on its
    own, :meth:`Room.woken`).
    """

    def __init__(self, gone: Callable[[Watcher], None], delay: float | None) -> None:
        import threading

        self.gone = gone
        #: None: written at once, on the caller's thread (no thread at all).
        self.delay = delay
        self._outbox: list[tuple[tuple[Watcher, ...], bytes]] = []
        self._due: float | None = None
        self._stopped = False
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        if delay is not None:
            self._thread = threading.Thread(target=self._run, name="mille-watchers", daemon=True)
            self._thread.start()

    def send(self, watchers: list[Watcher] | tuple[Watcher, ...], data: bytes) -> None:
        """``data`` for ``watchers``, written after the delay (at once if more is waiting: it goes with it)."""
        delay = self.delay
        if delay is None:
            self._write([(tuple(watchers), data)])
            return
        with self._ready:
            if self._due is None:
                self._due = time.monotonic() + delay
            self._outbox.append((tuple(watchers), data))
            self._ready.notify()

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._stopped and (self._due is None or time.monotonic() < self._due):
                    self._ready.wait(None if self._due is None else max(0.0, self._due - time.monotonic()))
                if self._stopped:
                    return
                taken, self._outbox, self._due = self._outbox, [], None
            self._write(taken)

    def _write(self, taken: list[tuple[tuple[Watcher, ...], bytes]]) -> None:
        broken: list[Watcher] = []
        for watchers, data in taken:
            for watcher in watchers:
                if watcher in broken:
                    continue
                try:
                    watcher.link.send_line(data)
                except LinkClosed:
                    broken.append(watcher)
        for watcher in broken:
            self.gone(watcher)

    def stop(self) -> None:
        """No more writing on the thread; what waits is written now (the room is closing)."""
        with self._ready:
            self._stopped = True
            taken, self._outbox = self._outbox, []
            self._ready.notify()
        if self._thread is not None:
            self._thread.join(5)
        self._write(taken)


#: Seconds the watchers' news waits after the people's (their processes wake once the players' have drawn).
WATCH_DELAY = 0.04


class Room:
    """The host's table as the room sees it: the door, the people's seats, the watchers, the talk and the story.

    ``listener`` is the table's door (non-blocking), ``game`` the host's
    game, ``host`` and ``host_uid`` the host, ``persons`` the people's seats
    (an open seat among them with no user), ``names`` every person's name by
    seat (shared with the seats), ``computer`` the computers' name (for the
    listing); ``watchers``: whether anyone may watch, ``quiet``: whether
    the watchers' talk stays among the watchers; ``delay``: :data:`WATCH_DELAY`
    (None: the watchers written at once, on the calling thread).
    """

    def __init__(
        self,
        listener: socket.socket,
        game: Game,
        host: str,
        host_uid: int,
        persons: list[PersonSeat],
        names: dict[int, str],
        computer: str,
        *,
        watchers: bool = True,
        quiet: bool = False,
        delay: float | None = WATCH_DELAY,
    ) -> None:
        self.listener = listener
        listener.setblocking(False)
        self.game = game
        self.host = host
        self.host_uid = host_uid
        self.persons = persons
        self.names = names
        self.computer = computer
        self.allow_watchers = watchers
        self.quiet = quiet
        #: How long the watchers' news waits after the people's (None: written at once, on this thread).
        self.delay = delay
        self.watchers: list[Watcher] = []
        #: The moves told since the watchers' last table (encoded), sent with the next one; the last table sent.
        self._moved: list[bytes] = []
        self._shown = b""
        #: What writes to the watchers (made with the first of them), and those it found gone.
        self._courier: Courier | None = None
        self._gone: queue.SimpleQueue[Watcher] = queue.SimpleQueue()
        #: Connections that have not yet said what they want: descriptor -> (link, user, deadline).
        self.knocking: dict[int, tuple[Link, int, float]] = {}
        #: Open seats taken while a hand is in play, theirs at the next deal: seat -> (link, user).
        self.held: dict[int, tuple[Link, int]] = {}
        self.story = Story()
        self.pace = Pace()
        #: Lines for the host's face (news, talk), oldest first, not yet escaped; the strangers turned away and not
        #: yet told (name -> how many times, why), and when the last were.
        self._for_host: list[str] = []
        #: Who was turned away since the host was last told, and what they wanted (None: unknown, turned away at the
        #: door unread, which a ``mille --list`` may have been): (how many times, why).
        self._refused: dict[tuple[str, str | None], tuple[int, str]] = {}
        self._refused_told = -1.0
        self.started = time.monotonic()
        #: Hands dealt in this game (since it was resumed, for a game resumed from a file: a save keeps no count);
        #: the game was resumed (until another game starts); a hand is in play (an open seat taken now is the
        #: taker's at the next deal).
        self.hands = 0
        self.resumed = False
        self.dealt = False
        #: The sides' totals when the last hand was dealt (a new game starts them at nothing again).
        self._totals: list[int] = []
        self._posted: queue.SimpleQueue[tuple[PersonSeat, dict[str, object]]] = queue.SimpleQueue()
        self.wake, self._wake_w = os.pipe()
        os.set_blocking(self.wake, False)
        os.set_blocking(self._wake_w, False)
        for person in persons:
            person.heard = self.post

    # ------------------------------------------------------------------
    # Who may do what

    def free_seat(self) -> PersonSeat | None:
        """An open seat nobody holds (nor has taken for the next hand)."""
        return next((p for p in self.persons if p.opened and p.uid is None and p.seat not in self.held), None)

    def may_join(self, uid: int) -> bool:
        return any(p.uid == uid for p in self.persons) or self.free_seat() is not None

    def may_see(self, uid: int) -> bool:
        """Whether ``uid`` may knock at all (the host, someone who may join, anyone when watchers are let in)."""
        return uid == self.host_uid or self.allow_watchers or self.may_join(uid)

    # ------------------------------------------------------------------
    # What the terminal hears

    def watched(self) -> dict[int, Callable[[], None]]:
        """The descriptors the host's terminal watches for the room, with what to do when one can be read."""
        wanted: dict[int, Callable[[], None]] = {self.listener.fileno(): self.door, self.wake: self.woken}
        for fd in self.knocking:
            wanted[fd] = lambda fd=fd: self.knocked(fd)  # type: ignore[misc]
        for watcher in self.watchers:
            wanted[watcher.link.fileno()] = lambda w=watcher: self.from_watcher(w)  # type: ignore[misc]
        for seat, (link, _) in self.held.items():
            wanted[link.fileno()] = lambda seat=seat: self.from_held(seat)  # type: ignore[misc]
        return wanted

    def serve(self, timeout: float) -> None:
        """Before the board: wait up to ``timeout`` seconds for the room's descriptors, and act on those ready."""
        import select

        callbacks = self.watched()
        ready, _, _ = select.select(list(callbacks), [], [], timeout)
        for fd in ready:
            callback = self.watched().get(fd)
            if callback is not None:
                callback()

    def take_notices(self) -> list[str]:
        """The lines for the host (not yet escaped), oldest first, taken; strangers turned away said once a second at
        most, each with how many times."""
        taken, self._for_host = self._for_host, []
        now = time.monotonic()
        if self._refused and now - self._refused_told >= 1.0:
            for (who, wanted), (count, why) in self._refused.items():
                times = "" if count == 1 else f" {count} times"
                if wanted is None:
                    taken.append(f"{who} knocked{times} and was turned away ({why})")
                else:
                    taken.append(f"{who} tried to {wanted}{times} and was refused ({why})")
            self._refused = {}
            self._refused_told = now
        return taken

    def note(self, text: str) -> None:
        self._for_host.append(text)

    # ------------------------------------------------------------------
    # The door

    def door(self) -> None:
        """The connections waiting at the door: each peer named by the kernel; those who may do nothing here closed
        unread (the host told who tried), the others given :data:`KNOCK_WAIT` seconds to knock."""
        self.expire()
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:  # BlockingIOError: nobody waiting
                return
            try:
                uid = peer_uid(conn)
            except OSError:
                conn.close()
                continue
            if not self.may_see(uid):
                conn.close()
                self.refused(uid, wanted=None)
                continue
            if len(self.knocking) >= MAX_KNOCKING:
                conn.close()
                continue
            link = Link(conn)
            self.knocking[link.fileno()] = (link, uid, time.monotonic() + KNOCK_WAIT)

    def refused(self, uid: int, why: str = "", wanted: str | None = "join") -> None:
        """``uid`` was turned away: told to the host, one line a second at most with the count (:meth:`take_notices`:
        a stranger knocking in a loop is one line, not a flood).  ``wanted``: ``join`` or ``watch``, what their knock
        asked; None when it was never read (at the door, or unreadable): the line says they knocked, not that they
        tried to join (a ``mille --list`` knocks at every door)."""
        invited = [p.name for p in self.persons if p.uid is not None]
        if not why:
            why = f"only {', '.join(invited)} invited there" if invited else "nothing there is for them"
            why = why.replace(" invited", " is invited" if len(invited) == 1 else " are invited")
        key = (user_name(uid), wanted)
        count, _ = self._refused.get(key, (0, why))
        self._refused[key] = (count + 1, why)

    def expire(self) -> None:
        """Connections that said nothing in time, closed."""
        now = time.monotonic()
        for fd, (link, _, deadline) in list(self.knocking.items()):
            if now > deadline:
                del self.knocking[fd]
                link.close()

    def knocked(self, fd: int) -> None:
        """A connection at the door said something (or went): its knock answered by who the peer is."""
        got = self.knocking.get(fd)
        if got is None:
            return
        link, uid, _ = got
        try:
            message = link.poll_message()
        except LinkClosed:
            del self.knocking[fd]  # went without a word (a second host of ours asking whether this one answers)
            return
        if message is None:
            return
        del self.knocking[fd]
        try:
            knock = messages.read_knock(message)
        except MessageError:
            link.close()
            self.refused(uid, "their mille did not say what it wants", wanted=None)
            return
        if knock.want == "list":
            self.answer_list(link, uid)
        elif knock.want == "watch":
            self.answer_watch(link, uid, knock)
        else:
            self.answer_join(link, uid, knock)

    def _bye(self, link: Link, text: str) -> None:
        try:
            link.send(messages.bye(text))
        except LinkClosed:
            pass
        link.close()

    def answer_list(self, link: Link, uid: int) -> None:
        try:
            link.send(messages.listing(self.listing(uid)))
        except LinkClosed:
            pass
        link.close()

    def answer_join(self, link: Link, uid: int, knock: Knock) -> None:
        """``uid`` wants to play: their kept seat, or an open one (now, or at the next deal); else one line why not."""
        person = next((p for p in self.persons if p.uid == uid), None)
        if person is not None:
            if person.link is not None and not person.link.closed:
                self._bye(link, f"you sit at {self.host}'s table already")
                return
            back = person.came
            if person.take(link):
                self.catch_up(person, knock.since, back)
                self.came_with_knock(person, link)
            return
        seat = self.free_seat()
        if seat is None:
            if uid == self.host_uid:
                self._bye(link, "you host this game")
                return
            self._bye(link, f"no seat at {self.host}'s table is kept for you, and none is open")
            self.refused(uid)
            return
        who = user_name(uid)
        if self.dealt and not self.game.finished:
            self.held[seat.seat] = (link, uid)
            try:
                link.send(messages.say(f"seat {seat.seat + 1} is yours when the next hand is dealt"))
            except LinkClosed:
                del self.held[seat.seat]
                return
            self.tell(f"{who} takes seat {seat.seat + 1} at the next hand")
            return
        self.seat_taker(seat, link, uid)

    def seat_taker(self, seat: PersonSeat, link: Link, uid: int) -> None:
        """An open seat taken by ``uid``: theirs, the table told, everyone's names brought up to date."""
        seat.claim(uid)
        seat.take_notices()  # (its "joined" is said as "took seat N")
        if not seat.take(link):
            seat.vacate()
            return
        seat.take_notices()
        self.tell(f"{seat.name} took seat {seat.seat + 1}", skip=seat)
        self.renamed(seat)
        self.catch_up(seat, None)
        self.came_with_knock(seat, link)

    def came_with_knock(self, person: PersonSeat, link: Link) -> None:
        """What ``person`` sent in the same write as their knock, handled now: it was read from the socket with the
        knock, so the terminal, which hears the socket, would not hear it until they sent something more."""
        if heard_idle(link, person.deciding) is None:
            return  # (their move asked already: the thread asking them reads it)
        try:
            self.idle(person, link)
        except LinkClosed as exc:
            person.dropped(str(exc))

    def renamed(self, seat: PersonSeat) -> None:
        """Who sits where changed: every other person's hello again (their boards name the seats)."""
        for person in self.persons:
            if person is not seat and person.link is not None:
                person.send(messages.hello(self.host, person.name, person.seat, self.game.table, self.names))

    def from_held(self, seat: int) -> None:
        """A taker waiting for the next deal went, or sent something (only their leaving matters)."""
        link, uid = self.held[seat]
        try:
            for _ in range(ROUND):
                if link.poll_message() is None:
                    return
        except LinkClosed:
            del self.held[seat]
            self.tell(f"{user_name(uid)} does not take seat {seat + 1} after all")

    def answer_watch(self, link: Link, uid: int, knock: Knock) -> None:
        """``uid`` wants to watch: the welcome, the table, the story so far; or one line why not."""
        if not self.allow_watchers:
            self._bye(link, f"{self.host} takes no watchers at this game")
            self.refused(uid, "no watchers at this game", wanted="watch")
            return
        if len(self.watchers) >= MAX_WATCHERS:
            self._bye(link, f"{self.host}'s game has {MAX_WATCHERS} watchers already")
            return
        if self._moved:
            self.update()  # (the watchers already here told the moves pending: the new one's story has them)
        watcher = Watcher(link, uid)
        welcome = [messages.watching(self.host, watcher.name, self.game.table, self.names)]
        if self.dealt:
            table = messages.table_view(wire.public_json(public_view(self.game)))
            welcome.append(table)
            self._shown = wire.encode(table)  # (what every watcher has seen now)
        entries, complete = self.story.since(knock.since)
        if entries:
            welcome.append(messages.missed(entries, self.game.table.sides, complete, self.story.hand_from))
        self.tell(f"{watcher.name} is watching")
        if self._courier is None:
            self._courier = Courier(self._report_gone, self.delay)
        self._courier.send([watcher], b"".join(wire.encode(message) for message in welcome))
        self.watchers.append(watcher)
        self.from_watcher(watcher)  # what came with the knock (the terminal hears only what comes after it)

    def catch_up(self, person: PersonSeat, since: int | None, back: bool = False) -> None:
        """What ``person`` missed of the table's story (after ``since``; None: this hand's so far); ``back``: they sat
        here before (else it is what was told before they came)."""
        entries, complete = self.story.since(since)
        if entries:
            person.send(messages.missed(entries, self.game.table.sides, complete, self.story.hand_from, back))

    # ------------------------------------------------------------------
    # The table's story, told to everyone

    def tell(self, text: str, skip: PersonSeat | None = None, host: bool = True) -> None:
        """A piece of news: a line of the story, to every person (but ``skip``), every watcher and the host (unless
        ``host`` is False: told already)."""
        entry = self.story.tell(text)
        data = messages.news(entry.n, text)
        for person in self.persons:
            if person is not skip and person.link is not None:
                person.send(data)
        self._to_watchers(wire.encode(data))
        if host:
            self.note(text)

    def person_news(self, person: PersonSeat, text: str) -> None:
        """A seat's news (joined, gone) told to the table: everyone but the person, the host being told already."""
        self.tell(text, skip=person, host=False)

    def hand_begins(self, restored: bool = False) -> None:
        """A hand is dealt (``restored``: the game's first here, resumed from a file): the story starts the hand, and
        who took an open seat meanwhile sits in it now; a new game with the same table (the host's ``Another
        game?``) is told to everyone, its hands counted from one."""
        totals = [pp.total for pp in self.game.players[: self.game.table.sides]]
        if restored:
            self.resumed = True
        if self.hands and not any(totals) and any(self._totals):
            self.tell(f"{self.host} starts another game with the same table")
            self.hands, self.resumed = 0, False
        self._totals = totals
        self.hands += 1
        self.dealt = True
        self.story.new_hand()
        for seat, (link, uid) in list(self.held.items()):
            del self.held[seat]
            person = next(p for p in self.persons if p.seat == seat)
            if person.uid is None:
                self.seat_taker(person, link, uid)
            else:
                self._bye(link, f"seat {seat + 1} was taken meanwhile")

    def moved(self, event: Event) -> None:
        """A move every seat saw (the driver's public hook, before any seat is told): a line of the story, and to the
        watchers, encoded once; each person's ``moved`` carries the line's number."""
        text = move_text(event, self.game, self.story_names())
        n = None if text is None else self.story.tell(text, event).n
        for person in self.persons:
            person.line = n
        if self.watchers:  # told with the table after it (:meth:`update`), once the people have theirs
            self._moved.append(wire.encode(messages.moved(event, self.game.table.sides, n)))

    def story_names(self) -> dict[int, str]:
        """The names the story says, escaped and cut: the host's, and the people's in their seats."""
        return {seat: shown_name(name) for seat, name in self.names.items()}

    def update(self) -> None:
        """A move was made or a hand dealt: the move and what every seat sees, to the watchers (encoded once, after
        every person was sent theirs: the people's screens first)."""
        moved, self._moved = self._moved, []
        if self.watchers:
            view = wire.encode(messages.table_view(wire.public_json(public_view(self.game))))
            if view == self._shown and not moved:
                return  # nothing the table sees has changed (a coup fourré let pass out of turn is no news: R10)
            self._shown = view
            self._to_watchers(b"".join(moved) + view)

    def say(self, text: str) -> None:
        """The host's question (``alice: Another hand?``), to the watchers (the people are told by their seats)."""
        if self.watchers:
            self._to_watchers(wire.encode(messages.say(text)))

    def _to_watchers(self, data: bytes) -> None:
        if self.watchers and self._courier is not None:
            self._courier.send(self.watchers, data)

    def _report_gone(self, watcher: Watcher) -> None:
        """A watcher's link broke or filled (on the courier's thread): heard on the room's (:meth:`woken`)."""
        self._gone.put(watcher)
        try:
            os.write(self._wake_w, b".")
        except OSError:
            pass

    def watcher_gone(self, watcher: Watcher) -> None:
        if watcher in self.watchers:
            self.watchers.remove(watcher)
            watcher.link.close()
            self.tell(f"{watcher.name} stopped watching")

    def hear_silence(self) -> None:
        """The watchers' links as the people's are (:meth:`mille.ui.people.host.People.hear_silence`): a word on each
        the host has been quiet on, and a watcher heard from for none of :func:`.link.silence` seconds dropped (a
        frozen network, a process stopped)."""
        quiet = []
        for watcher in list(self.watchers):
            link = watcher.link
            if link.silent():
                self.watcher_gone(watcher)
            elif link.quiet():
                quiet.append(watcher)
        if quiet and self._courier is not None:
            self._courier.send(quiet, wire.encode(messages.beat()))

    # ------------------------------------------------------------------
    # Talk

    def talk(self, sender: object, who: str, text: str, watcher: bool, back: Callable[[str], None]) -> None:
        """A line of talk from ``who``: escaped and cut, limited in rate (``back`` tells the sender alone why not),
        told to everyone (a watcher's only to the watchers, with ``quiet``) and to the story."""
        line = clean_talk(text)
        if not line:
            return
        if not self.pace.allow(sender):
            back("too fast: one line a second; that line was not sent")
            return
        name = shown_name(who)
        heard = f"{name} (watching): {line}" if watcher else f"{name}: {line}"
        among_watchers = watcher and self.quiet
        n = self.story.next if among_watchers else self.story.tell(heard).n
        data = messages.talk(n, name, line, watcher)
        if not among_watchers:
            for person in self.persons:
                if person.link is not None:
                    person.send(data)
            self.note(heard)
        self._to_watchers(wire.encode(data))

    def host_talk(self, text: str, back: Callable[[str], None]) -> None:
        self.talk("host", self.host, text, False, back)

    def post(self, person: PersonSeat, message: dict[str, object]) -> None:
        """What ``person`` sent while asked their move that is no move (on the thread asking them): heard on the
        thread that draws (:meth:`woken`)."""
        self._posted.put((person, message))
        try:
            os.write(self._wake_w, b".")
        except OSError:  # full (the thread that draws is behind; it reads them all) or closed
            pass

    def woken(self) -> None:
        try:
            os.read(self.wake, 4096)
        except OSError:
            pass
        while True:
            try:
                self.watcher_gone(self._gone.get_nowait())
            except queue.Empty:
                break
        while True:
            try:
                person, message = self._posted.get_nowait()
            except queue.Empty:
                return
            self.heard(person, message)

    def heard(self, person: PersonSeat, message: dict[str, object]) -> None:
        """A person's message that is no move: a line of talk told, their leaving noted (an open seat taken is open
        again once they are gone)."""
        said = messages.read_peer(message)
        if said is None:
            return
        if said == "":
            person.leaving = True
            return
        self.talk(("seat", person.seat), person.name, said, False, lambda text: person.send(messages.say(text)))

    def idle(self, person: PersonSeat, link: Link) -> None:
        """``person``'s link while nothing is asked of them: what they sent heard (a round at a time); their leaving
        raised (:class:`LinkClosed`)."""
        for _ in range(ROUND):
            message = link.poll_message()
            if message is None:
                return
            self.heard(person, message)

    def from_watcher(self, watcher: Watcher) -> None:
        """A watcher's link: their talk heard (a round at a time), their leaving told."""
        try:
            for _ in range(ROUND):
                message = watcher.link.poll_message()
                if message is None:
                    return
                said = messages.read_peer(message)
                if said:
                    back = lambda text, w=watcher: self._say_to(w, text)  # noqa: E731
                    self.talk(("watcher", watcher.uid), watcher.name, said, True, back)
        except LinkClosed:
            self.watcher_gone(watcher)

    def _say_to(self, watcher: Watcher, text: str) -> None:
        if self._courier is not None:
            self._courier.send([watcher], wire.encode(messages.say(text)))

    # ------------------------------------------------------------------
    # The listing

    def listing(self, uid: int) -> Listing:
        """The game as ``mille --list`` shows it to ``uid``."""
        game = self.game
        tab = game.table
        places = [Place(1, "host", self.host)]
        by_seat = {p.seat: p for p in self.persons}
        for seat in range(1, tab.seats):
            person = by_seat.get(seat)
            if person is None:
                places.append(Place(seat + 1, "computer", self.computer))
            elif person.uid is None:
                held = self.held.get(seat)
                places.append(Place(seat + 1, "invited", user_name(held[1])) if held else Place(seat + 1, "open"))
            elif person.link is not None:
                places.append(Place(seat + 1, "person", person.name))
            else:
                places.append(Place(seat + 1, "away" if person.came else "invited", person.name))
        return Listing(
            host=self.host,
            table=tab,
            places=places,
            hand=self.hands,
            resumed=self.resumed,
            scores=[max(0, game.players[side].total) for side in range(tab.sides)],
            running=int(time.monotonic() - self.started),
            watchers=[w.name for w in self.watchers],
            join=self.may_join(uid) and uid != self.host_uid,
            watch=self.allow_watchers and uid != self.host_uid,
        )

    # ------------------------------------------------------------------

    def close(self, text: str) -> None:
        """The game is over for the room: the watchers and the takers waiting told ``text``, every link closed."""
        if self._courier is not None:
            self._courier.stop()  # (what waits for the watchers written first)
            self._courier = None
        for watcher in self.watchers:
            self._bye(watcher.link, text)
        self.watchers = []
        for link, _ in self.held.values():
            self._bye(link, text)
        self.held = {}
        for link, _, _ in self.knocking.values():
            link.close()
        self.knocking = {}
        for fd in (self.wake, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
