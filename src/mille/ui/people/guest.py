"""The guest's side of a game between two people: the board drawn from its seat's view, its keys sent back.

The guest's process never holds the game: it is handed only what its
seat may see (an :class:`~mille.engine.observation.Observation` in the bot
protocol's encoding: its own hand, both tableaus, the discard, the counts,
the scores; never the other hand or the deck), builds from it a public
game with itself in the person's seat, and draws the original's board
from that (:mod:`mille.ui.board`), reading its moves at the original's
prompts (:mod:`mille.ui.dialogs`).  The host answers the end-of-hand
questions and alone may save; the guest sees what the host answered.

When the host leaves, the guest is told in one line and leaves; the host
keeps the game.  When the link breaks with the host's game still there
(ssh killed, a network drop), the guest is told at once and chooses
(:meth:`mille.ui.people.seated.SeatedGuest.gone`, at every table): wait
(the host's game reached again, as it was reached first, takes them back)
or leave (docs/people.md "Drops").
"""

from __future__ import annotations

from ...engine.observation import Observation
from ...engine.rules import EXTEND, NO_EXTENSION, Move, Phase
from ...engine.state import Game
from ...files.safeio import shown
from ...players import wire
from ..flow import EXTENSION_PROMPT, REALLY_PROMPT, Request
from ..layout import ScoreView
from .link import Link
from .seated import GuestFlow, SeatedGuest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..board import Board
    from ..dialogs import Dialogs
    from ..surface import Terminal


def public_game(obs: Observation, finished: bool) -> Game:
    """The game as ``obs``'s seat sees it, that seat in the person's place (seat 0); the hidden cards empty."""
    me, them = obs.seat, 1 - obs.seat
    game = Game(deck=[], deck_count=obs.deck_count, discard=obs.discard, finished=finished)
    game.players = [obs.players[me].copy(), obs.players[them].copy()]
    game.trip_length = obs.trip_length
    game.to_move = 0 if obs.to_move == me else 1
    game.hand_starter = 0 if obs.hand_starter == me else 1
    game.order = obs.order
    game.pending_extension = obs.pending_extension
    return game


class _GuestFlow(GuestFlow):
    """What the board's dialogs ask of a flow at two seats: the game drawn, no hints."""

    hints = None
    guest: Guest

    def __init__(self, guest: Guest) -> None:
        super().__init__(guest)
        self.saved = False

    @property
    def game(self) -> Game:
        return self.guest.display.game


class Guest(SeatedGuest):
    """One guest's run on the board: the link to the host, the board, the prompts.

    ``reconnect`` makes a new link to the host (as the first was made:
    the socket on this machine, or ssh); None: a drop ends the run.
    """

    def __init__(self, term: Terminal, link: Link, reconnect: Callable[[], Link] | None = None) -> None:
        from ..board import Board
        from ..dialogs import Dialogs

        self.term = term
        self.link = link
        self.reconnect = reconnect
        self.display: Board = Board(term, Game(deck=[], deck_count=0), ScoreView.SMALL)
        self.flow = _GuestFlow(self)
        self.dialogs: Dialogs = Dialogs(term, self.display, self.flow)  # type: ignore[arg-type]
        self.host = "the host"
        self.last: str | None = None
        #: A view has been drawn (the score window's layout with it).
        self.drawn = False
        #: The host refused our last move: its reason stays on the message line.
        self.refused = False

    def tell(self, text: str) -> None:
        self.display.show_message(shown(text)[:39])
        self.term.score.refresh()

    def prompt(self, text: str) -> None:
        from ..layout import MOVE_X, MOVE_Y

        board = self.term.board
        board.move(MOVE_Y, MOVE_X)
        board.addstr(text)
        board.clrtoeol()
        board.refresh()
        self.dialogs.last_prompt = -1  # the next prompt is drawn whole

    def unprompt(self) -> None:
        from ..layout import MOVE_X, MOVE_Y

        board = self.term.board
        board.move(MOVE_Y, MOVE_X)
        board.clrtoeol()
        board.refresh()

    def really(self) -> None:
        answer = self.dialogs.getyn(REALLY_PROMPT)
        if answer is True:
            self.leave(0)

    def show(self, obs: Observation, finished: bool) -> None:
        """The board from ``obs``; the score window's layout redrawn when a hand starts or ends."""
        display = self.display
        before = display.game.finished
        display.game = public_game(obs, finished)
        if finished != before or not self.drawn:
            self.drawn = True
            display.newscore()
        display.prboard()

    def handle(self, message: dict[str, object], reading: bool = False) -> None:
        kind = message.get("type")
        if kind == "hello":
            self.hello(message, 2, 1)
            self.host = shown(str(message.get("host", "the host")))[:32]
            self.display.other_name = self.host
            self.display.newboard()
        elif kind == "view":
            obs = wire.observation_from_json(message.get("obs"))
            finished = bool(message.get("finished"))
            self.show(obs, finished)
            if not reading and not finished and obs.to_move != obs.seat:
                self.tell(f"{self.host} is thinking...")
        elif kind == "say":
            self.tell(str(message.get("text", "")))
        elif kind == "error":  # the host's rules refused our move: the original's reason, with the bell
            self.dialogs.error(shown(str(message.get("text", "")))[:39])
            self.refused = True  # it stays on the message line while the move is asked again
        elif kind == "bye":
            self.bye(message)
        elif kind == "decide" and not reading:
            obs = wire.observation_from_json(message.get("obs"))
            self.show(obs, False)
            if not self.refused:
                self.display.clear_message()  # no longer the other's turn: the prompt says it is ours
            self.refused = False
            self.term.score.refresh()
            self.link.send({"type": "move", "move": wire.move_json(self.decide(obs))})

    def decide(self, obs: Observation) -> Move:
        if obs.phase is Phase.EXTENSION:
            while True:
                answer = self.dialogs.getyn(EXTENSION_PROMPT)
                if answer is True:
                    return EXTEND
                if answer is False:
                    return NO_EXTENSION
                self.dialogs.error(f"only {self.host} may save")
        while True:
            got = self.dialogs.getmove()
            if isinstance(got, Move):
                return got
            if got is Request.QUIT:
                self.really()
            elif got is Request.SAVE:
                self.dialogs.error(f"only {self.host} may save")


def play_guest(host: str, link: Link, reconnect: Callable[[], Link] | None = None) -> int:
    """Take the seat ``host`` invited us to, on the board; the exit status."""
    from ..cursesterm import CursesTerminal
    from ..keeping import say
    from ..surface import TerminalError

    term = CursesTerminal()
    guest: Guest | None = None
    try:
        term.start()
        guest = Guest(term, link, reconnect)
        guest.host = shown(host)[:32]
        guest.display.other_name = guest.host  # the host's name heads the Comp column
        guest.display.newboard()
        guest.tell(f"waiting for {guest.host}...")  # taken in at the host's next move
        status = guest.run()
    except TerminalError as exc:
        term.stop()
        say(f"mille: {exc}")
        return 1
    except KeyboardInterrupt:
        status = 1
    finally:
        term.stop()
        link.close()
    if guest is not None and guest.last is not None:
        say(guest.last)
    return status


def join(
    target: str,
    play: Callable[[str, Link, Callable[[], Link]], int] | None = None,
    play_table: Callable[[str, Link, dict[str, object], Callable[[], Link]], int] | None = None,
) -> int:
    """``mille --join HOST`` (on this machine) or ``HOST@MACHINE`` (over ``ssh MACHINE``); the exit status.

    ``play`` plays the seat another way than on the board (in lines:
    :func:`mille.ui.people.inlines.play_guest_lines`); it needs no terminal.
    ``play_table`` plays a seat at a larger table another way (in lines:
    :func:`mille.ui.people.inlines.table_guest_in_lines`).  Each is given
    ``reconnect``, the way back to the host's game after a drop, at every
    table (:meth:`mille.ui.people.seated.SeatedGuest.gone`).
    """
    import os

    from ..keeping import say
    from .rendezvous import RendezvousError, connect, me

    if play is None and not (os.isatty(0) and os.isatty(1)):
        say("mille: standard input and output must be a terminal to join a game (mille --plain --join plays in lines)")
        return 1
    host, at, machine = target.partition("@")

    def reconnect() -> Link:
        # Again, under the board: what ssh says would be written over it.
        return _over_ssh(host, machine, quiet=True) if at else Link(connect(host, me()))

    try:
        link = _over_ssh(host, machine) if at else Link(connect(host, me()))
    except (RendezvousError, OSError) as exc:
        say(f"mille: {exc}")
        return 1
    from .tableguest import at_table, play_table_guest

    hello = at_table(link, host)  # the host's hello, looked at: a larger table has its own board (issue 38)
    if hello is None:
        return 1
    if hello:
        if play_table is not None:
            return play_table(host, link, hello, reconnect)
        if play is not None:
            say("mille: people at a larger table play on the board (--no-plain)")
            return 1
        return play_table_guest(host, link, hello, reconnect)
    if play is not None:
        return play(host, link, reconnect)
    return play_guest(host, link, reconnect)


#: The command that reaches another machine (``MILLE_SSH`` overrides: options, a port, a key).
SSH = "ssh"
#: What runs mille on the other machine (``MILLE_REMOTE`` overrides).
REMOTE = "mille"


def _over_ssh(host: str, machine: str, quiet: bool = False) -> Link:
    """A link to ``host``'s game on ``machine``: ``ssh MACHINE mille --join-stdio HOST`` over a socket pair.

    ``quiet``: ssh's own words (to standard error) are dropped, as when the board is up.
    """
    import os
    import shlex
    import socket
    import subprocess

    from .rendezvous import RendezvousError

    if not machine or machine.startswith("-") or not host or host.startswith("-"):
        raise RendezvousError(f"cannot join {shown(host)}@{shown(machine)}: name a user and a machine")
    ssh = shlex.split(os.environ.get("MILLE_SSH", SSH))
    remote = os.environ.get("MILLE_REMOTE", REMOTE)
    mine, theirs = socket.socketpair()
    try:
        subprocess.Popen(
            [*ssh, "-T", "--", machine, f"{remote} --join-stdio {shlex.quote(host)}"],
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


def join_stdio(host: str) -> int:
    """The far side of ``--join HOST@MACHINE``: this machine's ``host``'s socket, relayed to standard input and output.

    Bytes are only passed on, at most 64 kB at a time each way; the host
    checks who connected (the user ssh logged in) and the guest's process
    reads what the host sends.  Ends when either side does.
    """
    import os
    import select

    from .rendezvous import RendezvousError, connect, me

    try:
        sock = connect(host, me())
    except RendezvousError as exc:
        os.write(2, (f"mille: {exc}\n").encode("utf-8", "backslashreplace"))
        return 1
    stdin, stdout, peer = 0, 1, sock.fileno()
    try:
        while True:
            ready, _, _ = select.select([stdin, peer], [], [])
            if stdin in ready:
                data = os.read(stdin, 65536)
                if not data:
                    return 0
                sock.sendall(data)
            if peer in ready:
                data = sock.recv(65536)
                if not data:
                    return 0
                os.write(stdout, data)
    except OSError:
        return 1
    finally:
        sock.close()


__all__ = ["Guest", "join", "join_stdio", "play_guest", "public_game"]
