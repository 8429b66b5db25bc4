"""What a guest's run and a watcher's share (``mille --join alice``, ``mille --watch alice``): a run at another
person's table that holds no game of its own.

* **Reaching the table** (:func:`reach`): the host's door on this machine
  (checked to be the host's before a byte is sent:
  :func:`mille.ui.people.rendezvous.connect`), or on another machine
  through ssh (:func:`over_ssh`: the far side's ``--join-stdio``, run by the
  first mille there that is this program, :func:`remote_command`); then the
  knock that says what we want there (:func:`knocked`).
* **The run** (:class:`Visit`): the host's messages handled as they come,
  the keys (or lines) answered between them, the terminal hearing the link
  meanwhile; a line of talk sent; a word to the host after some seconds of
  our own silence, and the host silent for the bound (:func:`.link.silence`)
  gone, as if the link had broken; the run's last line said once the
  terminal is back (:func:`visit`).  Its flow (:class:`VisitFlow`) holds no
  game and gives no hints; a hangup leaves.
* **What its faces share**: a line of talk as a board shows it
  (:func:`talk_words`) and as lines say it (:func:`talk_said`), the story
  missed in lines (:func:`missed_lines`) and on a board (:func:`missed_words`),
  and on the larger tables' board a line listed with the moves
  (:func:`listed`, :func:`list_missed`).

A guest's run (:class:`mille.ui.people.guest.GuestRun`) adds its seat: the
questions asked of it, the record of games, the way back after a drop; a
watcher's (:class:`mille.ui.people.watch.WatchRun`) only leaves.
"""

from __future__ import annotations

import os

from ...files.safeio import shown
from ..flow import GameExit
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE, Heard
from . import messages
from .link import Link, LinkClosed, Ticker, beat_after, silence
from .messages import MessageError, Missed, Talk
from .rendezvous import RendezvousError
from .view import name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn, Protocol, TypeVar

    from ..cursesterm import CursesTerminal
    from ..hints import Adviser
    from ..plain.lines import LineTerminal
    from ..tableboard import TableBoardFace

    class Listening(Protocol):
        """What a run asks of its terminal: other descriptors heard while it waits (:meth:`Terminal.watch`)."""

        def watch(self, fd: int, callback: Callable[[], None]) -> None: ...
        def unwatch(self, fd: int) -> None: ...
        def wait(self, ready: int) -> int | None: ...

    class VisitFace(Protocol):
        """What every run asks of its face."""

        def start(self) -> None:
            """The first screen, before the host's first word."""

        def idle(self) -> None:
            """Nothing asked: keys (or lines) typed answered at once until a watched descriptor ends the wait."""

    V = TypeVar("V", bound="Visit")

__all__ = [
    "ALIVE_COUNT",
    "ALIVE_INTERVAL",
    "MARKER",
    "REMOTES",
    "SSH",
    "Visit",
    "VisitFlow",
    "knocked",
    "list_missed",
    "listed",
    "missed_lines",
    "missed_words",
    "over_ssh",
    "reach",
    "remote_command",
    "talk_said",
    "talk_words",
    "visit",
]


class Visit:
    """One run at another's table: the link to the host, the host's messages, the keys between them, the leaving.

    ``term`` is the run's terminal, ``link`` the link to ``host``'s table,
    ``command`` what comes back (``mille --join alice``, as typed).  A run of
    one kind handles the host's messages (:meth:`handle`), leaves
    (:meth:`leave`) and goes when the link does (:meth:`gone`) its own way.
    """

    face: VisitFace

    def __init__(self, term: Listening, link: Link, host: str, command: str) -> None:
        self.term = term
        self.link = link
        self.host = name(host)
        self.command = command
        #: The last line, said once the terminal is back (None: nothing).
        self.last: str | None = None
        self._listening: int | None = None

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

    # ------------------------------------------------------------------
    # The run

    def run(self) -> int:
        """Follow the host's table until the run ends; the exit status.

        A :class:`~.link.Ticker` wakes the run to say a word to the host after some seconds of its own silence and
        to hear the host's (:meth:`tick`), as the host's side does on every link (a watcher's too).
        """
        ticker = Ticker(beat_after() / 3)
        self.term.watch(ticker.fd, lambda: self.tick(ticker))
        try:
            self.face.start()
            try:
                self.follow()
            except MessageError as exc:
                self._unlisten()
                self.link.close()
                self.last = f"mille: the host sent garbage ({shown(str(exc))[:100]})"
                return 1
            except GameExit as leave:
                self._unlisten()
                return leave.status
        finally:
            self.term.unwatch(ticker.fd)
            ticker.stop()

    def tick(self, ticker: Ticker) -> None:
        """Time to say a word to the host if we were quiet, and to hear whether it has been silent too long (a frozen
        network: then the link is gone, :meth:`gone`)."""
        ticker.take()
        link = self.link
        if link.closed:
            return  # gone already (a guest is being asked what to do)
        if link.silent():
            self.gone(f"nothing heard from {self.host} for {silence():g} s")
        if link.quiet():
            try:
                link.send(messages.beat())
            except LinkClosed as exc:
                self.gone(str(exc))

    def follow(self) -> NoReturn:
        """The host's messages handled as they come; between them, the keys (:meth:`between`).

        Ends only by an exception: :class:`GameExit` at the end.
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
            self.between(wake)

    def between(self, wake: Callable[[], None]) -> None:
        """Nothing from the host for now: keys answered at once (:meth:`VisitFace.idle`) until the link has news
        (``wake``, called when it can be read, ends the wait)."""
        self._listen(wake)
        try:
            self.face.idle()
        except Heard:
            pass
        finally:
            self._unlisten()

    def handle(self, message: dict[str, object]) -> None:
        """One message of the host's."""
        raise NotImplementedError

    def talk(self, text: str) -> None:
        """Our line of talk, to the host (who tells the table, and us, unless we talk too fast)."""
        line = text.strip()[: messages.MAX_TALK]
        if not line:
            return
        try:
            self.link.send(messages.talk_line(line))
        except LinkClosed as exc:
            self.gone(str(exc))

    def leave(self, status: int) -> NoReturn:
        """The run leaves (a key, a hangup, the end of input)."""
        raise NotImplementedError

    def gone(self, why: str) -> NoReturn:
        """The link to the host went (``why``)."""
        raise NotImplementedError


class VisitFlow:
    """What a run's faces ask of a flow (:class:`mille.ui.flow.Flow`): no game of their own, no hints, no banner; the
    terminal's events are the run's (a hangup leaves; an interrupt is the run's own, :meth:`interrupted`)."""

    hints: Adviser | None = None
    restore_banner: str | None = None
    #: ``T`` talks: a run at another's table always has people at it.
    talks = True

    def __init__(self, run: Visit) -> None:
        self.run = run

    def keep_snapshot(self) -> None:
        pass

    def catch_up(self) -> None:
        pass

    def hangup(self) -> None:
        self.run.leave(1)

    def on_event(self, event: int | None) -> None:
        if event == HANGUP or event == END_OF_INPUT or event == LEAVE:
            self.run.leave(1)
        elif event == INTERRUPT:
            self.interrupted()

    def interrupted(self) -> None:
        """``^C``."""
        raise NotImplementedError


def visit(
    term: CursesTerminal | LineTerminal, link: Link, make_run: Callable[[], V], fit: bool, interrupted: int
) -> tuple[int, V | None]:
    """The run ``make_run()`` makes on ``term`` (started here), to its end; its last line said once the terminal is
    back (``fit``: cut to the terminal's width, in lines): the exit status (``interrupted`` after a ``^C`` no face
    heard), and the run (None if the terminal could not be had)."""
    from ..keeping import say
    from ..surface import TerminalError

    run: V | None = None
    try:
        term.start()
        run = make_run()
        status = run.run()
    except TerminalError as exc:
        term.stop()
        say(f"mille: {exc}")
        return 1, None
    except KeyboardInterrupt:
        status = interrupted
    finally:
        term.stop()
        if run is not None:
            run.link.close()
        link.close()
    if run is not None and run.last is not None:
        say(run.last, fit)
    return status, run


# ----------------------------------------------------------------------
# What the faces share


def talk_words(talk: Talk) -> str:
    """A line of talk as a board shows it: who said it (a watcher marked so), then the line (not yet escaped)."""
    return f"{talk.who} (watching): {talk.text}" if talk.watcher else f"{talk.who}: {talk.text}"


def talk_said(talk: Talk) -> str:
    """A line of talk as lines say it, whole and escaped: ``bob says: ...``."""
    who = f"{talk.who} (watching)" if talk.watcher else talk.who
    return f"{shown(who)} says: {shown(talk.text)}"


def missed_words(missed: Missed) -> str:
    """The story missed, as a board says it (in 20 columns: the two-seat board's prompt line): how much, and the
    key that reads it."""
    return f"{min(len(missed.entries), 999)} missed; M reads"


def missed_lines(missed: Missed) -> list[str]:
    """The story missed, in lines (escaped), oldest first, after what it is: what was told while we were away, or
    before we came (the last of it, when the story kept no more)."""
    head = "While you were away" if missed.back else "Before you came"
    head += ":" if missed.complete else " (the last of it):"
    return [head, *(shown(entry.text) for entry in missed.entries)]


def listed(board: TableBoardFace, text: str) -> None:
    """A line of talk or news (not yet escaped) on the larger tables' board: listed with the moves (``M`` reads it
    again) and said on the message line."""
    line = shown(text)
    board.noted(line)
    board.draw()
    board.say(line[:79])


def list_missed(board: TableBoardFace, missed: Missed) -> None:
    """The hand's story missed listed with the larger tables' board's moves (``M`` pages back; the last hand's is
    left out: the board lists this hand's)."""
    for entry in missed.entries:
        if entry.n < missed.hand:
            continue
        if entry.event is not None:
            board.moved(entry.event)
        else:
            board.noted(shown(entry.text))
    board.draw()


# ----------------------------------------------------------------------
# Reaching the host's table

#: The command that reaches another machine (``MILLE_SSH`` overrides: options, a port, a key).
SSH = "ssh"
#: Where mille may be on the other machine, tried in turn (``MILLE_REMOTE`` names the one to run instead): a
#: ``mille`` on its PATH may be another program (bsdgames' ``/usr/games`` is on a non-interactive ssh's PATH).
REMOTES = ("mille", "python3 -m mille")
#: What this program's ``--version`` says, and another program of the name does not.
MARKER = "bsd-mille"
#: Seconds between ssh's own words to the far side while the link is quiet, and how many unanswered end it.
ALIVE_INTERVAL, ALIVE_COUNT = 10, 3


def reach(host: str, machine: str | None, want: str, refused: str) -> Link | None:
    """A link to ``host``'s table, on this machine (``machine`` None) or on ``machine`` through ssh, after our knock
    (``want``: ``join``, ``watch``); None after one line saying why not (``refused``: why a door that closed before
    a byte was read had nothing for us)."""
    from ..keeping import say
    from .rendezvous import connect

    try:
        return knocked(over_ssh(host, machine) if machine is not None else Link(connect(host, want)), want)
    except LinkClosed:  # closed before a byte was read: nothing there is for us
        say(f"mille: {shown(host)}'s game did not let you in ({refused})")
    except (RendezvousError, OSError) as exc:
        say(f"mille: {exc}")
    return None


def knocked(link: Link, want: str, since: int | None = None) -> Link:
    """``link`` to a host's table after its knock (what we want there, the last line of its story heard)."""
    link.send(messages.knock(want, since))
    return link


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
