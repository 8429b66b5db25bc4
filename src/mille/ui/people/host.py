"""The host's side of a game between two people: the one authority, the guest a seat that asks over a link.

The host runs the game's flow and the engine as for a game against the
computer; the guest's seat (the computer's, seat 1) is a :class:`RemotePerson`:
a player that sends the guest its observation (the bot protocol's
encoding, :mod:`mille.players.wire`: never the other hand or the deck) and
waits for the move typed at the guest's terminal.  Every move made is sent
to the guest as its new view at once.

Drops lose nothing and hang nothing.  If the guest's connection goes
(terminal closed, ssh killed, process killed) or breaks the conversation,
the host is told at once, and at the guest's move chooses
(:meth:`HostBoardFace.at_drop`, docs/people.md "Drops"): wait for them
(``mille --join HOST`` retakes the seat at that move), let the computer
(the original's procedure) play the seat until they join again, or
adjourn (the game kept; ``mille --invite GUEST FILE`` resumes it).  The
seat asks on the flow's worker thread; the face, on the thread that draws,
answers (:meth:`RemotePerson.ask_host`, :meth:`RemotePerson.answer`).  A
move the rules refuse is refused with the original's reason
(:meth:`RemotePerson.refusal`).  Anyone else who connects is refused
before a byte is read, and the host told.
"""

from __future__ import annotations

import os
import queue
import select
import socket
import threading

from ...engine import rules
from ...engine.observation import Observation, observe
from ...engine.rng import GlibcRandom
from ...engine.rules import Move, Phase
from ...engine.state import Game
from ...files.safeio import shown
from ...players import Decision, weighed, wire
from ...players.bsd import BsdPlayer
from ..app import BoardFace
from ..board import Board
from ..dialogs import Dialogs
from ..flow import COUP_PROMPT, EXTENSION_PROMPT, PROMPTS, REALLY_PROMPT, GameFlow, Request, Setup
from ..layout import MOVE_X, MOVE_Y
from ..surface import END_OF_INPUT, HANGUP, INTERRUPT, LEAVE, RESIZED
from .link import Link, LinkClosed, drain_idle, heard_idle
from .rendezvous import peer_uid, user_name

#: The host's own questions that are not told to the other people's terminals: ``Extension?``
#: (the move that answers it is shown to all), ``Really?`` (the host's own), and ``Coup fourre?``
#: asked out of turn, whose asking alone would tell that the host holds the safety
#: (table-rules.md R10).  The others (``Another hand?``, the save's questions) are told, as what
#: the others wait for.
UNRELAYED = frozenset((EXTENSION_PROMPT, REALLY_PROMPT, COUP_PROMPT))

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ...engine.driver import Event
    from ...engine.rules import Outcome
    from ...players import Player
    from ..session import Choices
    from ..surface import Terminal

#: The guest's seat: the computer's in a game against the computer.
GUEST = 1

#: The host's answers at a drop, handed from the face (the main thread) to the seat (the worker):
#: the guest is back (ask them), or the computer plays their seat until they are.
BACK, COMPUTER = "back", "computer"


class DropQuestion:
    """A person's seat asks the host what to do at their drop (:class:`RemotePerson`, and at the larger tables
    :class:`mille.ui.people.tablehost.TablePerson`).

    The seat asks on the flow's worker thread (:meth:`ask_host`: a byte on
    :attr:`asking` wakes the host's face); the face, on the thread that
    draws, answers :data:`BACK` or :data:`COMPUTER` (:meth:`answer`).
    """

    def __init__(self) -> None:
        #: A face that answers drops is there; without one the computer stands in at once.
        self.asks_host = False
        self.asking, self._asking_w = os.pipe()
        self._answers: queue.Queue[str] = queue.Queue()

    def ask_host(self) -> str:
        """At a drop, on the worker: wake the host's face, wait for its answer (:data:`BACK`, :data:`COMPUTER`)."""
        os.write(self._asking_w, b"?")
        return self._answers.get()

    def answer(self, choice: str) -> None:
        """The host's face answers the seat's :meth:`ask_host`."""
        try:
            os.read(self.asking, 1)
        except OSError:
            pass
        self._answers.put(choice)

    def close(self) -> None:
        """The pipe the seat asks on, closed (the game is over)."""
        for fd in (self.asking, self._asking_w):
            try:
                os.close(fd)
            except OSError:
                pass


class PersonSeat(DropQuestion):
    """A person's seat over a link, as the flow's player: what a guest at two seats (:class:`RemotePerson`) and a
    person at a larger table (:class:`mille.ui.people.tablehost.TablePerson`) share (one place for each).

    ``listener`` is the socket they connect to (non-blocking; theirs
    alone), ``uid`` the only user let in, ``game`` the host's game.
    Notices for the host (joined, left, refused) wait in :attr:`notices`
    for the host's face, which alone draws.  A subclass says what it tells
    a person who joins (:meth:`welcome`), the notices' words
    (:attr:`REFUSED`, :meth:`gone`), and how it asks for a move
    (:meth:`ask_move`).
    """

    #: The host's notice when another user tries to join: ``who`` tried, only ``name`` is invited.
    REFUSED = "{who} tried to join and was refused (only {name} is invited)"

    def __init__(self, listener: socket.socket, uid: int, game: Game, host: str, standin: Player) -> None:
        self.listener = listener
        listener.setblocking(False)
        self.uid = uid
        self.name = user_name(uid)
        self.host = host
        self.game = game
        self.link: Link | None = None
        self.standin = standin
        self._lock = threading.Lock()
        #: Sends come from the flow's thread and, while the person decides, the worker: one at a time.
        self._sending = threading.Lock()
        #: The worker waits for the person's move: it alone reads their link meanwhile (:func:`.link.heard_idle`).
        self.deciding = False
        #: One-line notices for the host, oldest first (shown by the face, escaped).
        self.notices: list[str] = []
        #: The host chose, at the person's drop, that the computer plays the seat until they are back.
        self.standing_in = False
        #: A face that answers drops sets :attr:`asks_host` (:class:`DropQuestion`).
        super().__init__()

    # ------------------------------------------------------------------
    # Who is at the other end

    def notice(self, text: str) -> None:
        with self._lock:
            self.notices.append(text)

    def take_notices(self) -> list[str]:
        with self._lock:
            taken, self.notices = self.notices, []
        return taken

    def admit(self, wait: float = 0.0) -> bool:
        """Take the connections waiting (up to ``wait`` seconds for one): the person seated, anyone else refused.

        The peer's user is asked of the kernel before a byte is read.  True
        if the person is (now) connected.
        """
        if wait > 0 and self.link is None:
            select.select([self.listener], [], [], wait)
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:  # BlockingIOError: nobody waiting
                break
            try:
                uid = peer_uid(conn)
            except OSError:
                conn.close()
                continue
            if uid != self.uid:
                conn.close()
                self.notice(self.REFUSED.format(who=user_name(uid), name=self.name))
                continue
            if self.link is not None and not self.link.closed:
                conn.close()  # the person twice: the seat is taken
                continue
            self.link = Link(conn)
            try:
                self.welcome()
            except LinkClosed:
                self.link = None
                continue
            self.standing_in = False  # the seat is theirs again; another drop asks again
            self.notice(f"{self.name} joined")
        return self.link is not None

    def welcome(self) -> None:
        """Who they are and the game as it stands, for a person just seated (:class:`LinkClosed` if the link broke)."""
        raise NotImplementedError

    def gone(self, why: str) -> str:
        """The host's notice that the person dropped (``why``)."""
        return f"{self.name} is gone ({why})"

    def dropped(self, why: str) -> None:
        if self.link is not None:
            self.link.close()
        self.link = None
        self.notice(self.gone(why))

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
        """A line for the person's message line (the host's questions, the end)."""
        self.send({"type": "say", "text": text})

    # ------------------------------------------------------------------
    # The player protocol (the driver calls these, on the flow's worker thread)

    def decide(self, observation: Observation, rng: GlibcRandom) -> Decision:
        move = self.choose(observation, rng)
        return Decision(move, weighed(move, observation))

    def choose(self, observation: Observation, rng: GlibcRandom) -> Move:
        """The person's move, asked over the link; at a drop, what the host chooses (wait, or the computer's).

        The host waits for them or lets the computer play the seat until
        they are back (or adjourns, which ends the game's thread).  Gone at
        a coup fourré asked out of turn, the computer answers it without
        asking the host (her question then would tell the secret).
        """
        self.admit()
        legal = observation.legal_moves()
        while True:
            if self.link is not None:
                self.deciding = True
                try:
                    move = self.ask_move(observation, legal)
                finally:
                    self.deciding = False
                if move is not None:
                    return move
                continue
            if self.standing_in or not self.asks_host:
                return self.standin.choose(observation, rng)
            if observation.phase is Phase.REACTION:
                # Asked the coup fourré out of turn, their question is their secret (being asked says they
                # hold the safety; table-rules.md R10): the host asked now would learn it.  The computer
                # answers this once; the host chooses at their next move.
                return self.standin.choose(observation, rng)
            if self.ask_host() == COMPUTER:
                self.standing_in = True

    def ask_move(self, observation: Observation, legal: list[Move]) -> Move | None:
        """The person's legal move, asked until they give one; None once they are gone."""
        raise NotImplementedError

    def bye(self, text: str) -> None:
        """The game is over for everyone, or the host left: ``text`` for the person, and the link closed."""
        self.send({"type": "bye", "text": text})
        if self.link is not None:
            try:
                self.link.flush()
            except LinkClosed:
                pass
            self.link.close()
            self.link = None


class RemotePerson(PersonSeat):
    """The guest at their own terminal, as the flow's second seat (the computer stands in while they are away).

    ``listener`` is the host's listening socket (non-blocking), ``guest_uid``
    the only user let in, ``game`` the host's game (to send the guest its
    view after every move).  Notices for the host (joined, left, refused)
    wait in :attr:`notices` for the host's face, which alone draws.
    """

    def __init__(self, listener: socket.socket, guest_uid: int, game: Game, host_name: str) -> None:
        super().__init__(listener, guest_uid, game, host_name, BsdPlayer())
        #: The host adjourned the game at a drop.
        self.adjourned = False

    def welcome(self) -> None:
        self._send({"type": "hello", "host": self.host, "you": self.name, "seat": GUEST})
        if self.game.finished:
            self._send({"type": "say", "text": f"{self.host} is thinking..."})
        else:
            self._send_view()

    def _send_view(self) -> None:
        game = self.game
        if self.link is None:
            return
        self._send(
            {
                "type": "view",
                "obs": wire.observation_json(observe(game, GUEST)),
                "finished": bool(game.finished),
                "host": self.host,
            }
        )

    def ask_move(self, observation: Observation, legal: list[Move]) -> Move | None:
        """The guest's legal move; a refused one told the original's reason and asked again; None at a drop."""
        assert self.link is not None
        decide: dict[str, object] = {
            "type": "decide",
            "obs": wire.observation_json(observation),
            "legal": [wire.move_json(m) for m in legal],
        }
        try:
            self._send(decide)
            while True:
                message = self.link.wait_message(timeout=0.5)
                self.admit()  # refuse others who try meanwhile
                if message is None or message.get("type") != "move":
                    continue
                try:
                    move: Move | None = wire.move_from_json(message.get("move"))
                except wire.WireError:
                    move = None
                if move is not None and move in legal:
                    return move
                self._send({"type": "error", "text": self.refusal(move)})
                self._send(decide)
        except LinkClosed as exc:
            self.dropped(str(exc))
        return None

    def refusal(self, move: Move | None) -> str:
        """Why ``move`` is refused, in the original's words (the engine's rules, tried on a copy of the game)."""
        if move is not None:
            try:
                outcome = rules.push(self.game.copy(), move)
            except (ValueError, IndexError):
                outcome = None
            if outcome is not None and outcome.error is not None:
                return outcome.error
        return "That move is not legal now."

    def inform(self, event: Event) -> None:
        """A move was made: what it was (the event every seat sees) and the guest's new view, at once."""
        if self.link is None:
            self.admit()
        try:
            self._send({**wire.read_message(wire.event_line(event)), "type": "moved"})
            self._send_view()
        except LinkClosed as exc:
            self.dropped(str(exc))


class HostBoardFace(BoardFace):
    """The host's board: the original's, plus the guest's notices and whose turn it is on the message line."""

    def __init__(self, term: Terminal, game: Game, window: int, remote: RemotePerson) -> None:
        super().__init__(term, game, window)
        self.remote = remote
        remote.asks_host = True
        self.display.other_name = shown(remote.name)

    def attach(self, flow: GameFlow) -> None:
        super().attach(flow)
        self.dialogs = _HostDialogs(self.term, self.display, flow, self)

    def _notices(self) -> None:
        for text in self.remote.take_notices():
            self.tell(shown(text)[:39])

    def read_move(self) -> Move | Request:
        self._notices()
        return super().read_move()

    def ask(self, prompt_no: int) -> bool | Request:
        self._notices()
        if prompt_no not in UNRELAYED:
            self.remote.say(f"{self.remote.host}: {PROMPTS[prompt_no]}")
        return super().ask(prompt_no)

    def show_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        """The original's screen after a move; then whose turn it is (news of the guest waits for the host's prompt).

        The computer's moves for an absent guest clear the message line
        (§6.3 step 0), so the news is said when the host is next asked,
        after the stand-in's moves, where it stays until the host moves.
        """
        super().show_move(game, seat, move, outcome)
        if not game.finished and game.to_move == GUEST and game.pending_extension is None:
            name = shown(self.remote.name)
            if self.remote.link is not None:
                self.tell(f"{name} is thinking..."[:39])
            elif self.remote.standing_in:
                self.tell(f"the computer plays for {name}"[:39])

    def wait(self, ready: int) -> int | None:
        """While the guest's seat is asked (on the flow's worker): the terminal, and the seat's question at a drop.

        As the terminal's own ``wait``; but when the guest drops at their
        move the seat asks the host (:meth:`RemotePerson.ask_host`), and the
        choice is made here, on the thread that draws (:meth:`at_drop`).
        """
        import select

        remote = self.remote
        fd = getattr(self.term, "fd", None)
        poller = select.poll()
        poller.register(ready, select.POLLIN)
        poller.register(remote.asking, select.POLLIN)
        if fd is not None:
            poller.register(fd, 0)  # its hangup only: keys typed ahead wait for the next prompt
        while True:
            event = self.term.poll()
            if event is not None:
                return event
            found = dict(poller.poll(100))
            if ready in found:
                return None
            if remote.asking in found:
                self.at_drop()
            elif found:
                return self.term.wait(ready)  # the terminal went away: its own wait says so

    def at_drop(self) -> None:
        """The guest dropped at their move: the host chooses, one key each (the original's prompt line).

        ``W`` waits for them (``mille --join`` again takes the seat; any key
        while waiting brings the choice back), ``C`` lets the computer play
        the seat until they are back, ``A`` adjourns (the game kept where
        both resume it: ``mille --invite GUEST FILE``, ``mille --join HOST``);
        ``S`` saves and ``Q`` quits as at any prompt.
        """
        remote = self.remote
        name = shown(remote.name)
        self._notices()
        self.tell(f"{name} is gone"[:39])
        while remote.link is None:
            key = self._drop_key(DROP_PROMPT)
            if key is None:
                break  # they are back
            if key == ord("c"):
                self._clear_prompt()
                self.tell(f"the computer plays for {name}"[:39])
                remote.answer(COMPUTER)
                return
            if key == ord("a"):
                remote.adjourned = True
                remote.answer(COMPUTER)  # the seat's worker ends; the game is kept as it stands
                self.flow.leave()
            if key == ord("s"):
                self.flow.save()
            elif key == ord("q"):
                self.flow.rub()
            elif key == ord("w"):
                self.tell(f"waiting for {name} (a key: the choice)"[:39])
                if self._drop_key(WAITING_PROMPT) is None:
                    break
            else:
                self.tell(DROP_HELP)
                self.term.bell()
        self._clear_prompt()
        self._notices()
        self.tell(f"{name} joined, thinking..."[:39])  # back at their move: whose turn it is stays said
        remote.answer(BACK)

    def _drop_key(self, prompt: str) -> int | None:
        """``prompt`` on the prompt line, and a key (lower case); None if the guest came back meanwhile."""
        board = self.term.board
        remote = self.remote
        board.move(MOVE_Y, MOVE_X)
        board.addstr(prompt)
        board.clrtoeol()
        board.refresh()
        self.dialogs.last_prompt = -1  # the next prompt is drawn whole
        return drop_key(self.term, self.flow, remote)

    def _clear_prompt(self) -> None:
        board = self.term.board
        board.move(MOVE_Y, MOVE_X)
        board.clrtoeol()
        board.refresh()


def drop_key(term: Terminal, flow: GameFlow, person: PersonSeat) -> int | None:
    """At a person's drop, on the board (two seats, :class:`HostBoardFace`; larger tables,
    :class:`mille.ui.people.tablehost.TableHostFace`): a key (lower case), the terminal's events acted on
    meanwhile; None if ``person`` came back first."""
    fd = getattr(term, "fd", 0)
    listener = person.listener.fileno()
    while True:
        flow.keep_snapshot()
        event = term.poll()
        if event is not None:
            flow.on_event(event)
            continue
        ready, _, _ = select.select([fd, listener], [], [], 0.2)
        if listener in ready and person.admit():
            return None
        if fd in ready:
            key = term.read_byte()
            if key == RESIZED:
                continue
            if key in (INTERRUPT, HANGUP, LEAVE, END_OF_INPUT):
                flow.on_event(key)
                continue
            return ord(chr(key).lower()) if 0 <= key < 128 else key


#: The prompt-line question at a drop, and while waiting for the guest to come back.
DROP_PROMPT = "Wait/Comp/Adjourn? "
WAITING_PROMPT = "Waiting... "
#: Said on the message line when another key is typed at the choice.
DROP_HELP = "W: wait  C: computer  A: adjourn"


class _HostDialogs(Dialogs):
    """The host's prompt line: while a key is awaited, the guest's socket and the listener are heard too.

    So a guest who leaves while the host thinks is noticed at once, and one
    who joins again sees the board at once (the seat is theirs at their
    next move).  While the guest decides (the host's ``Really?`` after ^C)
    their link is the worker's alone (:func:`.link.heard_idle`): read here,
    their move was lost and the game hung.
    """

    def __init__(self, term: Terminal, display: Board, flow: GameFlow, face: HostBoardFace) -> None:
        super().__init__(term, display, flow)
        self.face = face

    def readch(self) -> int:
        import select

        remote = self.face.remote
        fd = getattr(self.term, "fd", 0)
        while True:
            watched = [fd, remote.listener.fileno()]
            link = heard_idle(remote.link, remote.deciding)
            if link is not None:
                watched.append(link.fileno())
            try:
                ready, _, _ = select.select(watched, [], [], 0.2)
            except (OSError, ValueError):
                break
            if link is not None and link.fileno() in ready:
                try:
                    drain_idle(link)  # nothing is asked of the guest now: only their leaving matters
                except LinkClosed as exc:
                    remote.dropped(str(exc))
            if remote.listener.fileno() in ready:
                remote.admit()
            if remote.notices:
                self.face._notices()
                self.term.board.refresh()
            if fd in ready:
                break
            event = self.term.poll()  # a signal meanwhile: acted on as at a key read
            if event is not None:
                self.flow.on_event(event)
        return super().readch()


def wait_for_guest(remote: RemotePerson, path: str) -> bool:
    """Before the board: wait for the guest, saying who tried; False if interrupted (^C)."""
    from ..keeping import say

    say(f"mille: waiting for {remote.name}: they join with: mille --join {remote.host}  (^C gives up)")
    try:
        while not remote.admit(wait=0.5):
            for text in remote.take_notices():
                say(f"mille: {text}")
    except KeyboardInterrupt:
        return False
    remote.take_notices()
    return True


def play_host(choices: Choices, guest: str, play: Callable[[RemotePerson], int] | None = None) -> int:
    """Host a game for ``guest`` (a user of this machine) on the board; the exit status.

    ``play`` plays it another way once the guest is there (in lines:
    :func:`mille.ui.people.inlines.host_in_lines`).
    """
    import os

    from ..keeping import say
    from ..session import play_board
    from .rendezvous import RendezvousError, invite, listen, me, user

    try:
        guest_uid = user(guest).pw_uid
        listener, path = listen(user_name(guest_uid))
    except RendezvousError as exc:
        say(f"mille: {exc}")
        return 1
    host_name = me()
    remote = RemotePerson(listener, guest_uid, choices.game, host_name)
    try:
        line = f"mille: {host_name} invites you to a game of Mille Bornes: mille --join {host_name}"
        reached = invite(remote.name, line)
        if not reached:
            say(f"mille: {reached.why}; tell them: mille --join {host_name}")
        if not wait_for_guest(remote, path):
            say("mille: nobody joined")
            return 1

        def make_flow(term: Terminal, game: Game, setup: Setup) -> GameFlow:
            return GameFlow(HostBoardFace(term, game, setup.window, remote), game, setup)

        if play is not None:
            status = play(remote)
        else:
            command = f"mille --invite {remote.name}"
            status = play_board(choices, computer=remote, make_flow=make_flow, command=command)
        if remote.adjourned:
            say(f"mille: {remote.name} takes their seat again with: mille --join {host_name}")
        elif status != 0:  # kept as on a hangup, or the computer standing in failed
            remote.bye(f"{host_name} left the game; {host_name} keeps it and may invite you again")
        else:  # quit (Really?), or the end of the game (a save, if any, is the host's)
            remote.bye(f"{host_name} left the game")
        return status
    finally:
        remote.close()
        listener.close()
        try:
            os.unlink(path)
        except OSError:
            pass


__all__ = ["GUEST", "DropQuestion", "HostBoardFace", "PersonSeat", "RemotePerson", "play_host", "wait_for_guest"]
