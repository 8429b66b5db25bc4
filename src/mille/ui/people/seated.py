"""What a guest's run on the board is at two seats and at a larger table alike (one place for both).

The guest holds no game: it follows the host's messages over its link,
hears the host while a key is awaited, and leaves with the same words at
any table (:mod:`.guest`, :mod:`.tableguest`; docs/people.md).
"""

from __future__ import annotations

from ..flow import GameExit
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE
from .link import Link, LinkClosed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

    from ..surface import Terminal

__all__ = ["GuestFlow", "SeatedGuest"]


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


class SeatedGuest:
    """What a guest's run on the board shares at two seats (:class:`mille.ui.people.guest.Guest`) and at a larger table
    (:class:`mille.ui.people.tableguest.TableGuest`): the host heard while a key is awaited, the host's
    messages followed, the leaving.  A subclass says how a message is handled and a drop taken."""

    term: Terminal
    link: Link
    host: str
    last: str | None
    flow: GuestFlow

    def handle(self, message: dict[str, object], reading: bool = False) -> None:
        raise NotImplementedError

    def gone(self, why: str) -> None:
        """The link to the host went (:class:`GameExit`, or the game goes on with a new link)."""
        raise NotImplementedError

    def really(self) -> None:
        raise NotImplementedError

    def pump(self) -> None:
        """Messages that arrived while a key is awaited: views and lines shown, a goodbye acted on."""
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

    def leave(self, status: int) -> None:
        self.link.close()
        self.last = f"mille: you left the game; {self.host} keeps it (join again with: mille --join {self.host})"
        raise GameExit(status)

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
