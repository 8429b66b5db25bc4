"""A guest's side of a larger table (``mille --join alice`` when alice hosts 3, 4 or 6 seats; docs/people.md).

As at two seats (:mod:`.guest`), the guest's process never holds the game:
it is handed only its seat's view, protocol 2's observation
(:func:`mille.players.wire.observation_from_json_2`: its own hand, every
side's tableau without hands, every hand's size), and draws the larger
tables' board (:mod:`mille.ui.tableboard`) from it, from its own seat
(``you``; the people's names where the host sent them, ``seat N`` for the
computers).  It reads its moves with that board's keys (``U 3 B`` aims a
hazard), answers its own ``Extension?`` and ``Coup fourre?``, and checks a
move against its view before sending it, so a move the rules refuse is
told at once in the engine's words; the host checks it again.  When the
link breaks while the host's mille lives, the guest chooses at
``Wait/Leave?`` as at two seats (:meth:`mille.ui.people.seated.SeatedGuest.gone`):
the host's game reached again sends its hello and this seat's view, and the
board goes on from there.
"""

from __future__ import annotations

from ...engine import rules
from ...engine.cards import EMPTY, HAND_SIZE
from ...engine.observation import Observation
from ...engine.rules import EXTEND, NO_EXTENSION, PASS, Move, MoveType, Phase
from ...engine.state import Game, table
from ...files.safeio import shown
from ...players import wire
from ..flow import COUP_PROMPT, EXTENSION_PROMPT, REALLY_PROMPT, Request
from ..tableboard import TableBoardFace
from .link import Link, LinkClosed
from .seated import GuestFlow, SeatedGuest
from .tablehost import NAME_WIDTH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..surface import Terminal

__all__ = [
    "TableGuest",
    "at_table",
    "hello_names",
    "play_table_guest",
    "public_view",
    "refusal",
    "seat_view",
    "unturned",
]


def public_view(obs: Observation, finished: bool) -> Game:
    """The game as ``obs``'s seat sees it (the other hands and the deck empty), to draw and to check moves on."""
    game = obs.public_game()
    game.finished = finished or obs.phase is Phase.HAND_OVER
    return game


#: What stands in a seat's view for another hand's hidden cards (only their number is ever said).
HIDDEN = 0


def seat_view(obs: Observation, finished: bool) -> Game:
    """The game as ``obs``'s seat sees it, turned so that this seat is seat 0 (plain mode's "you", seat 1).

    Plain mode says a table from seat 0 (:mod:`mille.ui.plain.tablewords`):
    a guest in lines hears it counted from their own seat, the seats after
    them numbered 2, 3, ... in turn order and their own side A.  Seat ``i``
    here is seat ``(i + obs.seat) % seats`` at the host, side ``j`` side
    ``(j + obs.seat) % sides`` (sides divide seats: partners stay partners).
    The other hands hold :data:`HIDDEN` cards, as many as they hold, so
    their sizes are counted as from any hand.
    """
    game = public_view(obs, finished)
    tab, turn = game.table, obs.seat
    seats, sides = tab.seats, tab.sides
    old, sizes = game.players, obs.hand_sizes
    players = []
    for seat in range(seats):
        was = (seat + turn) % seats
        player = old[(seat + turn) % sides].copy() if seat < sides else old[was].copy()
        if was != turn:
            player.hand = [HIDDEN] * sizes[was] + [EMPTY] * (HAND_SIZE - sizes[was])
        else:
            player.hand = old[was].hand[:]
        players.append(player)
    game.players = players
    game.to_move = (game.to_move - turn) % seats
    game.hand_starter = (game.hand_starter - turn) % seats
    if game.reaction is not None:
        game.reaction = (game.reaction - turn) % seats
    return game


def unturned(move: Move, seat: int, sides: int) -> Move:
    """A move made on :func:`seat_view`'s game, as the host's game has it (the hazard's side turned back)."""
    if move.target is None:
        return move
    return Move(move.kind, move.slot, (move.target + seat) % sides)


class _TableGuestFlow(GuestFlow):
    """What the larger table's board asks of a flow (:class:`mille.ui.tableboard.TableFlow`): no hints, no banner."""

    hints = None
    restore_banner = None


class TableGuest(SeatedGuest):
    """One guest's run at a larger table: the link to the host, the board from its seat, the prompts."""

    def __init__(
        self, term: Terminal, link: Link, hello: dict[str, object], reconnect: Callable[[], Link] | None = None
    ) -> None:
        self.term = term
        self.link = link
        self.reconnect = reconnect
        self.host = shown(str(hello.get("host", "the host")))[:NAME_WIDTH]
        seats = hello.get("seats")
        seat = hello.get("seat")
        if type(seats) is not int or seats not in (3, 4, 6) or type(seat) is not int or not 0 < seat < seats:
            raise LinkClosed("the host sent a table that is not one")
        self.names = hello_names(hello, seats, seat)
        self.seat, self.seats = seat, seats
        game = Game(deck=[], table=table(seats))
        self.face = TableBoardFace(term, game, seat, self.names)
        self.flow = _TableGuestFlow(self)
        self.face.attach(self.flow)
        self.last: str | None = None
        self.obs: Observation | None = None

    def tell(self, text: str) -> None:
        self.face.say(shown(text)[:79])

    def prompt(self, text: str) -> None:
        self.face.prompt(text.rstrip())

    def unprompt(self) -> None:
        self.face.unprompt()

    def really(self) -> None:
        while True:
            answer = self.face.ask(REALLY_PROMPT)
            if answer is True:
                self.leave(0)
            if answer is False:
                return
            self.face.error(f"only {self.host} may save")

    def whose_turn(self, obs: Observation) -> str:
        """The message line while another seat moves: who is thinking."""
        seat = obs.to_move
        if seat == 0:
            return f"{self.host} is thinking..."
        if seat in self.names:
            return f"{self.names[seat]} is thinking..."
        return f"seat {seat + 1} (the computer) is thinking..."

    def show(self, obs: Observation, finished: bool) -> None:
        self.obs = obs
        self.face.show_view(public_view(obs, finished), obs.hand_sizes)

    def handle(self, message: dict[str, object], reading: bool = False) -> None:
        kind = message.get("type")
        if kind == "hello":  # again, after a drop (the first was read before the board): the same seat, or we leave
            self.hello(message, self.seats, self.seat)
            self.names.clear()  # (the board's own: the people seated now)
            self.names.update(hello_names(message, self.seats, self.seat))
        elif kind == "moved":  # what every seat sees of a move, before the view that follows it
            try:
                self.face.moved(wire.event_from_json_2(message, self.seats))
            except wire.WireError:
                pass
        elif kind == "view":
            obs = wire.observation_from_json_2(message.get("obs"))
            finished = bool(message.get("finished"))
            if not reading and not finished and obs.to_move != obs.seat:
                self.face.note(shown(self.whose_turn(obs))[:79])
            self.show(obs, finished)
        elif kind == "say":
            self.tell(str(message.get("text", "")))
        elif kind == "bye":
            self.bye(message)
        elif kind == "decide" and not reading:
            obs = wire.observation_from_json_2(message.get("obs"))
            self.face.note("")
            self.show(obs, False)
            self.link.send({"type": "move", "move": wire.move_json_2(self.decide(obs))})

    def decide(self, obs: Observation) -> Move:
        """This seat's move or answer, read at its prompt; a move its view shows refused is told and asked again."""
        face = self.face
        if obs.phase in (Phase.EXTENSION, Phase.REACTION):
            prompt = EXTENSION_PROMPT if obs.phase is Phase.EXTENSION else COUP_PROMPT
            while True:
                answer = face.ask(prompt)
                if answer is True or answer is False:
                    break
                face.error(f"only {self.host} may save")
            if obs.phase is Phase.EXTENSION:
                return EXTEND if answer else NO_EXTENSION
            slot = rules.coup_slot(face.game)
            return Move(MoveType.PLAY, slot) if answer and slot is not None else PASS
        legal = obs.legal_moves()
        while True:
            got = face.read_move()
            if got is Request.QUIT:
                self.really()
                continue
            if got is Request.SAVE:
                face.error(f"only {self.host} may save")
                continue
            if not isinstance(got, Move):
                continue
            if got in legal:
                return got
            face.error(self.refusal(face.game, got))

    def refusal(self, game: Game, move: Move) -> str:
        return refusal(game, self.seat, move, self.host)


def hello_names(hello: dict[str, object], seats: int, seat: int) -> dict[int, str]:
    """The other people's names by seat (the host's numbering) in the host's ``hello``, escaped and cut."""
    names = hello.get("names")
    found: dict[int, str] = {}
    if isinstance(names, dict):
        for key, name in names.items():
            if isinstance(key, str) and key.isdigit() and int(key) < seats and int(key) != seat:
                found[int(key)] = shown(str(name))[:NAME_WIDTH]
    return found


def refusal(game: Game, seat: int, move: Move, host: str) -> str:
    """Why ``move`` may not be made now by ``seat``, in the engine's words where it has them (``host`` alone Orders)."""
    refused: int | None = None
    if move.kind is MoveType.ORDER:
        return f"O (Order) sorts {host}'s hand only"
    if move.kind is MoveType.DRAW:
        refused = rules.draw_refusal(game, seat)
    elif move.kind is MoveType.PLAY:
        refused = rules.play_refusal(game, seat, move.slot, move.target)
    elif move.kind is MoveType.DISCARD:
        refused = rules.discard_refusal(game, seat, move.slot)
    if refused is None:
        return "that move is not legal now"
    return rules.refusal_message(refused, game, seat, move.slot)


def at_table(link: Link, host: str) -> dict[str, object] | None:
    """The host's hello (it comes first, when the host takes us in) if it seats us at a larger table, else ``{}``.

    The hello is looked at, not taken: the two-seat guest reads it as
    always.  None, after one line saying why, if the link ended or ^C was
    typed while waiting (the link then closed).
    """
    from ..keeping import say

    told = False
    try:
        while True:
            message = link.peek_message(timeout=1.0)
            if message is not None:
                if message.get("type") == "hello" and isinstance(message.get("seats"), int):
                    if message.get("seats") != 2:
                        link.poll_message()  # taken: the table's guest reads it from here
                        return message
                return {}
            if not told:
                told = True
                say(f"mille: waiting for {shown(host)} to take you in (^C gives up)")
    except LinkClosed as exc:
        say(f"mille: {exc}")
    except KeyboardInterrupt:
        pass
    link.close()
    return None


def play_table_guest(
    host: str, link: Link, hello: dict[str, object], reconnect: Callable[[], Link] | None = None
) -> int:
    """Take the seat at the larger table ``host`` invited us to, on the board; the exit status.

    ``reconnect``: the way back to the host's game if the link breaks (the choice
    asked as at two seats, :meth:`mille.ui.people.seated.SeatedGuest.gone`).
    """
    from ..cursesterm import CursesTerminal
    from ..keeping import say
    from ..surface import TerminalError

    term = CursesTerminal()
    guest: TableGuest | None = None
    try:
        term.start()
        guest = TableGuest(term, link, hello, reconnect)
        guest.tell(f"waiting for {guest.host}...")
        status = guest.run()
    except TerminalError as exc:
        term.stop()
        say(f"mille: {exc}")
        return 1
    except LinkClosed as exc:
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
