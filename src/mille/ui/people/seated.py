"""What a guest's run is at two seats and at a larger table alike (one place for both).

The guest holds no game: it follows the host's messages over its link,
hears the host while a key is awaited, and leaves with the same words at
any table (:mod:`.guest`, :mod:`.tableguest`; docs/people.md).  When the
link breaks while the host's mille lives (ssh killed, a socket broken), the
guest chooses at any table, on the board (:meth:`SeatedGuest.gone`) or in
lines (:meth:`mille.ui.people.inlines.GuestLines.gone`), whether to wait for
the host's game (:class:`Reaching`: tried again every :data:`RETRY`
seconds, reached once its hello has come) or to leave.
"""

from __future__ import annotations

import time

from ...files.safeio import shown
from ...players import wire
from ..flow import GameExit
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE
from .link import Link, LinkClosed
from .rendezvous import RendezvousError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn

    from ..surface import Terminal

__all__ = [
    "GONE_PROMPT",
    "RETRY",
    "WAITING_PROMPT",
    "GuestFlow",
    "GuestRun",
    "Reaching",
    "Rejoined",
    "SeatedGuest",
    "ended_line",
    "left_line",
    "same_table",
]

#: The guest's prompt-line question when the host's link goes, and while waiting for it to come back.
GONE_PROMPT = "Wait/Leave? "
WAITING_PROMPT = "Waiting... "
#: Seconds between tries to reach the host again while waiting.
RETRY = 0.5


def left_line(host: str) -> str:
    """The last line of a guest who left (the host keeps the game), at any table, on the board or in lines."""
    return f"mille: you left the game; {host} keeps it (join again with: mille --join {host})"


def ended_line(why: str, host: str) -> str:
    """The last line of a guest whose link to the host went (``why``) and who did not wait for it."""
    return f"mille: the game ended: {why}; {host} keeps it (join again with: mille --join {host})"


def same_table(hello: dict[str, object], seats: int, seat: int) -> bool:
    """Whether the host's ``hello`` seats us where we sat: ``seat`` of ``seats`` (a two seats' hello names none)."""
    said = hello.get("seats", 2)
    return said == seats and (seats == 2 or hello.get("seat") == seat)


def other_table(host: str) -> str:
    """The last line when the host's game reached again is another table than the one we sat at."""
    return f"mille: {host}'s game is another table now; join it with: mille --join {host}"


class Rejoined(Exception):
    """The host's game was reached again after a drop: the run goes on reading its messages (its hello first)."""


class Reaching:
    """The host's game tried again, one attempt at a time, every :data:`RETRY` seconds (docs/people.md "Drops").

    An attempt is ``reconnect()`` (the socket on this machine, or ssh
    again): a link is made at once over ssh, or on a socket nobody has
    accepted yet, so the host counts as reached only once its hello has
    come (left to be read again: the run reads it first).  An attempt
    that fails, or a link that ends before the hello, is tried again.
    """

    def __init__(self, reconnect: Callable[[], Link]) -> None:
        self.reconnect = reconnect
        self.pending: Link | None = None
        self.tried = -RETRY

    def fds(self) -> list[int]:
        """What to watch besides the terminal: the link tried, while its hello has not come."""
        return [] if self.pending is None else [self.pending.fileno()]

    def step(self) -> Link | None:
        """Another attempt when it is time; the link once the host's hello has come on it, else None."""
        if self.pending is None:
            if time.monotonic() - self.tried < RETRY:
                return None
            self.tried = time.monotonic()
            try:
                self.pending = self.reconnect()
            except (OSError, LinkClosed, RendezvousError):
                return None
        try:
            if self.pending.peek_message(timeout=0) is not None:
                link, self.pending = self.pending, None
                return link
        except LinkClosed:
            self.stop()
        return None

    def stop(self) -> None:
        """No more waiting (a key or a line brought the choice back): the link tried, closed."""
        if self.pending is not None:
            self.pending.close()
            self.pending = None


class GuestFlow:
    """What the board's key reading asks of a flow, for a guest that holds no game: the terminal's events acted on.

    One for the guest at two seats (:class:`mille.ui.people.guest.Guest`'s) and at a larger
    table (:class:`mille.ui.people.tableguest.TableGuest`'s).
    """

    def __init__(self, guest: SeatedGuest) -> None:
        self.guest = guest
        self.in_interrupt = False

    def keep_snapshot(self) -> None:
        """Before each key read (the board's ``readch``): wait for a key, hearing the host meanwhile."""
        self.guest.await_key()

    def catch_up(self) -> None:
        pass

    def on_event(self, event: int | None) -> None:
        if event == HANGUP or event == END_OF_INPUT or event == LEAVE:
            self.guest.leave(1)
        elif event == INTERRUPT and not self.in_interrupt:
            self.in_interrupt = True
            try:
                self.guest.really()
            finally:
                self.in_interrupt = False


class GuestRun:
    """What every guest's run shares, on the board or in lines (:class:`mille.ui.people.inlines.GuestLines`), at any
    table: the link to the host, the way back to it, the last line said, the leaving."""

    link: Link
    host: str
    last: str | None
    #: A new link to the host (made as the first: the socket here, or ssh); None: a drop ends the run.
    reconnect: Callable[[], Link] | None = None

    def leave(self, status: int) -> None:
        self.link.close()
        self.last = left_line(self.host)
        raise GameExit(status)

    def hello(self, message: dict[str, object], seats: int, seat: int) -> None:
        """The host's hello (again, after a drop): it must seat us where we sat, else we leave with a line."""
        if not same_table(message, seats, seat):
            self.link.close()
            self.last = other_table(self.host)
            raise GameExit(1)

    def bye(self, message: dict[str, object]) -> NoReturn:
        """The host's goodbye: the game is over for us (its words, escaped, are our last line)."""
        self.last = "mille: " + shown(str(message.get("text", "the game is over")))[:200]
        raise GameExit(0)

    def handle(self, message: dict[str, object], reading: bool = False) -> None:
        """One message of the host's (``reading``: while a key or a line is awaited, nothing asked of us)."""
        raise NotImplementedError

    def gone(self, why: str) -> None:
        """The link to the host went (``why``): the run ends, or goes on with a new link (:class:`Rejoined`)."""
        raise NotImplementedError

    def pump(self) -> None:
        """Messages that arrived while a key or a line is awaited: views and lines shown, a goodbye acted on."""
        if self.link.closed:
            return  # gone: the choice is being asked
        try:
            while True:
                message = self.link.poll_message()
                if message is None:
                    return
                self.handle(message, reading=True)
        except LinkClosed as exc:
            self.gone(str(exc))


class SeatedGuest(GuestRun):
    """What a guest's run on the board shares at two seats (:class:`mille.ui.people.guest.Guest`) and at a larger table
    (:class:`mille.ui.people.tableguest.TableGuest`): the host heard while a key is awaited, the host's
    messages followed, the choice at a drop.  A subclass says how a message is handled and its prompt line drawn."""

    term: Terminal
    flow: GuestFlow

    def really(self) -> None:
        raise NotImplementedError

    def tell(self, text: str) -> None:
        """``text`` on the message line (escaped, fitted to it)."""
        raise NotImplementedError

    def prompt(self, text: str) -> None:
        """``text`` on the prompt line (the two seats' board and the larger tables' have their own)."""
        raise NotImplementedError

    def unprompt(self) -> None:
        """The prompt line emptied: nothing asked."""
        raise NotImplementedError

    def gone(self, why: str) -> None:
        """The link to the host went (the host left, or the line broke): told at once, and the guest chooses.

        ``W`` waits for the host's game to take them back (:class:`Reaching`;
        any key brings the choice back; then :class:`Rejoined`), ``L``
        leaves (the host keeps the game; ``mille --join HOST`` later):
        :class:`GameExit`.  Without a way back, the run ends.  The same at
        every table (docs/people.md "Drops").
        """
        self.link.close()
        self.last = ended_line(why, self.host)
        if self.reconnect is None:
            raise GameExit(1)
        self.tell(f"{self.host} is gone ({why})")
        while True:
            key = self._key(GONE_PROMPT)
            if key == ord("l") or key == ord("q"):
                raise GameExit(1)
            if key == ord("w"):
                self.tell(f"waiting for {self.host} (a key: the choice)")
                if self._key(WAITING_PROMPT, Reaching(self.reconnect)) is None:
                    self.last = None
                    self.unprompt()
                    raise Rejoined
            elif key is not None:
                self.tell(f"W: wait for {self.host}  L: leave")
                self.term.bell()

    def _key(self, prompt: str, reaching: Reaching | None = None) -> int | None:
        """``prompt`` on the prompt line, then a key (lower case); None once ``reaching`` reached the host again."""
        import select

        from ..surface import RESIZED

        self.prompt(prompt)
        fd = getattr(self.term, "fd", 0)
        try:
            while True:
                event = self.term.poll()
                if event is not None:
                    self.flow.on_event(event)
                    continue
                if reaching is not None:
                    link = reaching.step()
                    if link is not None:
                        self.link = link
                        return None
                watched = [fd, *reaching.fds()] if reaching is not None else [fd]
                if fd in select.select(watched, [], [], RETRY / 5)[0]:
                    key = self.term.read_byte()
                    if key == RESIZED:
                        continue
                    if key in (HANGUP, END_OF_INPUT, LEAVE, INTERRUPT):
                        self.flow.on_event(key)
                        continue
                    return ord(chr(key).lower()) if 0 <= key < 128 else key
        finally:
            if reaching is not None:
                reaching.stop()

    def await_key(self) -> None:
        """Until a key can be read: the host's messages acted on (a goodbye leaves), the terminal's events too.

        The board reads keys one ``read(2)`` at a time, so a key waiting on
        the terminal is seen here; a terminal that went away reads as
        ready, and its read then gives the end of input.
        """
        import select

        fd = getattr(self.term, "fd", 0)
        while True:
            self.pump()
            event = self.term.poll()
            if event is not None:
                self.flow.on_event(event)
                continue
            watched = [fd] if self.link.closed else [fd, self.link.fileno()]
            ready, _, _ = select.select(watched, [], [], 0.2)
            if fd in ready:
                return

    def run(self) -> int:
        """Play until the game ends or a side leaves (at a drop, after the choice); the exit status."""
        while True:
            try:
                try:
                    self.follow()
                except LinkClosed as exc:
                    self.gone(str(exc))
            except Rejoined:
                continue
            except wire.WireError as exc:
                self.link.close()
                self.last = f"mille: the host sent garbage ({shown(str(exc))[:100]})"
                return 1
            except GameExit as leave:
                return leave.status

    def follow(self) -> NoReturn:
        """The host's messages handled as they come, the terminal's events between them.

        Ends only by an exception: :class:`LinkClosed` at a drop, :class:`GameExit` at the end.
        """
        while True:
            message = self.link.poll_message()
            if message is None:
                event = self.term.wait(self.link.fileno())
                if event is not None:
                    self.flow.on_event(event)
                continue
            self.handle(message)
