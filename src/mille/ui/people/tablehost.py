"""The host's side of a larger table with people (``mille --players 3|4|6 --invite bob,carol``; docs/people.md).

As at two seats (:mod:`.host`), the host's process is the one authority:
it runs the game's flow and the engine, and each invited person's seat is
a :class:`TablePerson`, a player that sends that person only what their
seat may see (protocol 2's observation, :func:`mille.players.wire.observation_json_2`:
their own hand, every side's tableau without hands, every hand's size; never
another hand, a partner's included, nor the deck) and waits for the move
typed at their terminal.  The seats nobody was invited to are played by
computers (the ``--computer`` chosen, ``bsd`` by default), and a person who
drops is stood in for by the same computer until they ``--join`` again.

Who sits where (:func:`seat_people`): you are seat 1; ``NAME:N`` puts a
person at seat N; the others take, in the order invited, first your
partners' seats (at 4 and 6 seats the first person invited is your
partner), then the other seats in turn order.
"""

from __future__ import annotations

import select
import socket

from ...engine import rules
from ...engine.observation import Observation, observe
from ...engine.rng import GlibcRandom
from ...engine.rules import Move
from ...engine.state import Game, Table
from ...files.safeio import shown
from ...players import make_player, wire
from ..flow import PROMPTS, GameFlow, Request, Setup
from ..tableboard import TableBoardFace, table_flow
from .host import BACK, COMPUTER, DROP_HELP, DROP_PROMPT, UNRELAYED, WAITING_PROMPT, PersonSeat, drop_key
from .link import LinkClosed, drain_idle, heard_idle
from .rendezvous import user_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ...engine.driver import Event
    from ...engine.rules import Outcome
    from ...players import Player
    from ..session import Choices
    from ..surface import Terminal

if TYPE_CHECKING:
    from typing import TypeAlias

    #: How a host plays once everyone is there (:func:`play_table_host`'s ``play``).
    PlayTable: TypeAlias = Callable[
        ["TablePeople", dict[int, str], Player, tuple[tuple[Player, GlibcRandom], ...], str], int
    ]

__all__ = ["TableHostFace", "TablePeople", "TablePerson", "play_table_host", "seat_people"]

#: The longest name a board shows for a person (the side boxes are 39 columns).
NAME_WIDTH = 12


class SeatingError(ValueError):
    """An ``--invite`` list that cannot seat its people; the message is one line."""


def seat_people(spec: str, tab: Table, host: str) -> dict[int, str]:
    """The people of ``--invite`` (``bob,carol`` or ``bob:3``) by seat (0-based); :class:`SeatingError` if none fits.

    Seats are numbered from 1 as the board shows them, you at seat 1.
    Unplaced people take your partners' seats first (R2 of
    ``table-rules.md``: partners sit apart, so at 4 seats your partner is
    seat 3), then the others in turn order.
    """
    seats = tab.seats
    placed: dict[int, str] = {}
    unplaced: list[str] = []
    names: set[str] = set()
    for item in spec.split(","):
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
        raise SeatingError(f"a table of {seats} seats has room for {seats - 1} people besides you")
    partners = [s for s in tab.partners(tab.side(0)) if s != 0]
    order = partners + [s for s in range(1, seats) if s not in partners]
    free = [s for s in order if s not in placed]
    for name, seat in zip(unplaced, free, strict=False):
        placed[seat] = name
    return placed


class TablePerson(PersonSeat):
    """One invited person at a larger table, as the flow's player of their seat (a computer stands in while away).

    ``listener`` is the socket they connect to (theirs alone: one a
    person), ``uid`` the only user let in.  Notices for the host (joined,
    left, refused) wait in :attr:`notices` for the host's face.  The
    admission, the drops and the asking loop are the two seats' own
    (:class:`mille.ui.people.host.PersonSeat`).
    """

    REFUSED = "{who} tried to join and was refused (only {name} is invited there)"

    def __init__(
        self,
        seat: int,
        listener: socket.socket,
        uid: int,
        game: Game,
        host: str,
        names: dict[int, str],
        standin: Player,
    ) -> None:
        self.seat = seat
        #: Every person's name by seat (the host's too), for the boards.
        self.names = names
        #: The host's face chooses at this person's drop (:meth:`TableHostFace.at_drop`; :class:`DropQuestion`).
        super().__init__(listener, uid, game, host, standin)

    def welcome(self) -> None:
        self._send(
            {
                "type": "hello",
                "host": self.host,
                "you": self.name,
                "seat": self.seat,
                "seats": self.game.table.seats,
                "names": {str(seat): name for seat, name in self.names.items()},
            }
        )
        self.send_view()

    def gone(self, why: str) -> str:
        if self.asks_host:
            return super().gone(why)
        return f"{self.name} is gone; the computer plays for them until they join again ({why})"

    def send_view(self) -> None:
        """The person's seat's view of the game as it stands (:class:`LinkClosed` if the link broke)."""
        if self.link is None:
            return
        game = self.game
        self._send(
            {"type": "view", "obs": wire.observation_json_2(observe(game, self.seat)), "finished": bool(game.finished)}
        )

    def update(self) -> None:
        """A move was made (or a hand dealt): the new view at once; someone absent may have come back."""
        if self.link is None:
            self.admit()
            return
        try:
            self.send_view()
        except LinkClosed as exc:
            self.dropped(str(exc))

    def inform(self, event: Event) -> None:
        """A move was made: what every seat sees of it (protocol 2's event), before the view that follows it.

        A guest in lines says the move from it
        (:class:`mille.ui.people.inlines.TableGuestLines`); the board draws the view alone.
        """
        if self.link is not None:
            self.send({**wire.read_message(wire.event_line_2(event, self.game.table.sides)), "type": "moved"})

    def ask_move(self, observation: Observation, legal: list[Move]) -> Move | None:
        """The person's legal move, asked until they give one; None once they are gone."""
        sides = observation.table.sides
        while self.link is not None:
            try:
                self._send(
                    {
                        "type": "decide",
                        "obs": wire.observation_json_2(observation),
                        "legal": [wire.move_json_2(m) for m in legal],
                    }
                )
                while True:
                    message = self.link.wait_message(timeout=0.5)
                    self.admit()  # refuse others who try meanwhile
                    if message is None or message.get("type") != "move":
                        continue
                    try:
                        move: Move | None = wire.move_from_json_2(message.get("move"), sides)
                    except wire.WireError:
                        move = None
                    if move is not None and move in legal:
                        return move
                    self._send({"type": "say", "text": "That move is not legal now."})
                    break  # ask again
            except LinkClosed as exc:
                self.dropped(str(exc))
        return None


class TablePeople:
    """The people at a larger table as the host's face hears and tells them, on the board or in lines alike.

    ``host`` is the host's name.  :attr:`adjourned`: the host adjourned the
    game at a drop (:meth:`TableHostFace.at_drop`).
    """

    def __init__(self, persons: list[TablePerson], host: str) -> None:
        self.persons = persons
        self.host = host
        self.adjourned = False
        for person in persons:
            person.asks_host = True

    def notices(self) -> list[str]:
        """The people's news (joined, gone, refused), oldest first, taken."""
        return [text for person in self.persons for text in person.take_notices()]

    def update_all(self) -> None:
        """A move was made or a hand dealt: every person's new view at once."""
        for person in self.persons:
            person.update()

    def turn_news(self, game: Game) -> str | None:
        """Whose turn it is, when it is a person's: ``bob is thinking...``, or the computer playing for them."""
        if game.finished or game.pending_extension is not None:
            return None
        turn = rules.seen_turn(game)  # a coup fourré asked of a person is theirs alone (R10)
        for person in self.persons:
            if person.seat == turn:
                name = shown(person.name)[:NAME_WIDTH]
                if person.link is not None:
                    return f"{name} is thinking..."
                if person.standing_in:
                    return f"the computer plays for {name}"
        return None

    def relay(self, prompt_no: int) -> None:
        """The host's own question, told to the others' terminals (``Another hand?``: theirs to wait for)."""
        if prompt_no not in UNRELAYED:
            for person in self.persons:
                person.say(f"{shown(self.host)[:NAME_WIDTH]}: {PROMPTS[prompt_no]}")

    def watched(self) -> list[int]:
        """What to hear while the host's key or line is awaited: the listeners, and the links nobody reads."""
        fds = []
        for person in self.persons:
            fds.append(person.listener.fileno())
            link = heard_idle(person.link, person.deciding)  # (Really? while they think: theirs to read)
            if link is not None:
                fds.append(link.fileno())
        return fds

    def hear(self, ready: list[int]) -> None:
        """The ``ready`` ones of :meth:`watched` heard: a drop noted, a return seated at once.

        Only the host's turn reads keys, and then no other thread uses the links.
        """
        for person in self.persons:
            link = heard_idle(person.link, person.deciding)
            if link is not None and link.fileno() in ready:
                try:  # nothing is asked of them now: only their leaving matters
                    drain_idle(link)
                except LinkClosed as exc:
                    person.dropped(str(exc))
            if person.listener.fileno() in ready:
                person.admit()

    def asking(self) -> list[int]:
        """The pipes a seat asks the host on at a drop (:class:`mille.ui.people.host.DropQuestion`)."""
        return [person.asking for person in self.persons]

    def asker(self, ready: list[int]) -> TablePerson | None:
        """The person whose drop the host is asked about now, if any."""
        return next((p for p in self.persons if p.asking in ready), None)

    def close(self) -> None:
        for person in self.persons:
            person.close()


class TableHostFace(TableBoardFace):
    """The host's board at a larger table: the people's names, their notices, their views sent after each move."""

    flow: GameFlow  # (the game's own: the host's drop choice saves, quits and leaves)

    def __init__(self, term: Terminal, game: Game, people: TablePeople, names: dict[int, str]) -> None:
        super().__init__(term, game, 0, {seat: shown(name)[:NAME_WIDTH] for seat, name in names.items() if seat})
        self.people = people

    def _notices(self) -> bool:
        """The people's news (joined, gone, refused) on the message line; shown at the host's prompts.

        Not between the computers' moves, whose announcements would wipe
        it before it could be read (as at two seats, docs/people.md).
        """
        texts = self.people.notices()
        if texts:
            self.say(shown("; ".join(texts))[:79])
        return bool(texts)

    def _turn_news(self) -> None:
        news = self.people.turn_news(self.game)
        if news is not None:
            self.say(news)

    def begin_hand(self, restored: bool) -> None:
        super().begin_hand(restored)
        self.people.update_all()
        self._turn_news()

    def show_move(self, game: Game, seat: int, move: Move, outcome: Outcome) -> None:
        """The board after a move, and every person's new view; a refused move (the host's own: ``no more
        cards``) is no move at the table, and sends nothing (a guest in lines would hear the turn again)."""
        if outcome.error is None:
            self.people.update_all()
        super().show_move(game, seat, move, outcome)
        self._turn_news()

    def read_move(self) -> Move | Request:
        self._notices()
        return super().read_move()

    def ask(self, prompt_no: int) -> bool | Request:
        self._notices()
        self.people.relay(prompt_no)
        return super().ask(prompt_no)

    def readch(self) -> int:
        """A key; meanwhile the people's sockets and listeners are heard (a drop told, a return seated at once)."""
        fd = getattr(self.term, "fd", 0)
        while True:
            try:
                ready, _, _ = select.select([fd, *self.people.watched()], [], [], 0.2)
            except (OSError, ValueError):
                break
            self.people.hear(ready)
            if self._notices():
                self.term.miles.refresh()
            if fd in ready:
                break
            event = self.term.poll()  # a signal meanwhile: acted on as at a key read
            if event is not None:
                self.flow.on_event(event)
        return super().readch()

    # A person's drop: the host chooses, one key each (as at two seats: host.HostBoardFace.at_drop)

    def wait(self, ready: int) -> int | None:
        """While a seat thinks (on the flow's worker): the terminal, and a seat's question at a drop."""
        fd = getattr(self.term, "fd", None)
        poller = select.poll()
        poller.register(ready, select.POLLIN)
        for asking in self.people.asking():
            poller.register(asking, select.POLLIN)
        if fd is not None:
            poller.register(fd, 0)  # its hangup only: keys typed ahead wait for the next prompt
        while True:
            event = self.term.poll()
            if event is not None:
                return event
            found = [f for f, _ in poller.poll(100)]
            if ready in found:
                return None
            person = self.people.asker(found)
            if person is not None:
                self.at_drop(person)
            elif found:
                return self.term.wait(ready)  # the terminal went away: its own wait says so

    def at_drop(self, person: TablePerson) -> None:
        """``person`` dropped at their move: ``W`` waits for them, ``C`` the computer plays the seat, ``A`` adjourns.

        ``S`` saves and ``Q`` quits as at any prompt; any key while waiting
        brings the choice back, and their joining again ends it.
        """
        name = shown(person.name)[:NAME_WIDTH]
        self._notices()
        self.say(f"{name} is gone: {DROP_HELP}")
        while person.link is None:
            key = self._drop_key(person, DROP_PROMPT)
            if key is None:
                break  # they are back
            if key == ord("c"):
                self.prompt("")
                self.say(f"the computer plays for {name}")
                person.answer(COMPUTER)
                return
            if key == ord("a"):
                self.people.adjourned = True
                person.answer(COMPUTER)  # the seat's worker ends; the game is kept as it stands
                self.flow.leave()
            if key == ord("s"):
                self.flow.save()
            elif key == ord("q"):
                self.flow.rub()
            elif key == ord("w"):
                self.say(f"waiting for {name}: mille --join {shown(self.people.host)} (a key: the choice)"[:79])
                if self._drop_key(person, WAITING_PROMPT) is None:
                    break
            else:
                self.say(DROP_HELP)
                self.term.bell()
        self.prompt("")
        # Back at their move: the news (their joining), and whose turn it is, which the news would hide.
        self.say(shown("; ".join([*self.people.notices(), f"{person.name} is thinking..."]))[:79])
        person.answer(BACK)

    def _drop_key(self, person: TablePerson, prompt: str) -> int | None:
        """``prompt`` on the prompt line, and a key (lower case); None if ``person`` came back meanwhile."""
        self.prompt(prompt)
        return drop_key(self.term, self.flow, person)


def wait_for_people(persons: list[TablePerson], host: str) -> bool:
    """Before the board: wait until every invited person has joined, saying who tried; False if interrupted (^C)."""
    from ..keeping import say

    for person in persons:
        say(f"mille: waiting for {person.name} (seat {person.seat + 1}): they join with: mille --join {host}")
    say("mille: (^C gives up)")
    try:
        while True:
            waiting = [p for p in persons if not p.admit()]
            for person in persons:
                for text in person.take_notices():
                    say(f"mille: {text}")
            if not waiting:
                return True
            select.select([p.listener for p in waiting], [], [], 0.5)
    except KeyboardInterrupt:
        return False


def play_table_host(choices: Choices, spec: str, play: PlayTable | None = None) -> int:
    """Host a larger table for the people ``spec`` names (``--invite bob,carol``), computers in the other seats.

    ``play`` plays it another way once everyone is there (in lines:
    :func:`mille.ui.people.inlines.table_host_in_lines`), given the people,
    their names by seat, seat 2's player, the other seats' and the people
    as ``--invite`` seats them again (``bob:3,carol:2``).
    """
    import os

    from ..keeping import say
    from ..session import computer_player, play_board, secret_dice
    from .rendezvous import RendezvousError, invite, listen, me

    game = choices.game
    host = me()
    try:
        placed = seat_people(spec, game.table, host)
        uids = {seat: _uid(name) for seat, name in placed.items()}
    except (SeatingError, RendezvousError) as exc:
        say(f"mille: {exc}")
        return 1
    names = {0: host, **{seat: user_name(uid) for seat, uid in uids.items()}}
    persons: list[TablePerson] = []
    paths: list[str] = []
    try:
        for seat in sorted(uids):
            try:
                listener, path = listen(names[seat])
            except RendezvousError as exc:
                say(f"mille: {exc}")
                return 1
            paths.append(path)
            standin = make_player(choices.computer_name)
            persons.append(TablePerson(seat, listener, uids[seat], game, host, names, standin))
        line = f"mille: {host} invites you to a game of Mille Bornes at {game.table.seats} seats: mille --join {host}"
        for person in persons:
            reached = invite(person.name, line)
            if not reached:
                say(f"mille: {reached.why}; tell them: mille --join {host}")
        if not wait_for_people(persons, host):
            say("mille: not everyone joined")
            for person in persons:
                person.bye(f"{host} gave up waiting")
            return 1
        by_seat: dict[int, TablePerson] = {p.seat: p for p in persons}
        seat_players: list[tuple[Player, GlibcRandom]] = []
        for seat in range(1, game.table.seats):
            if seat in by_seat:
                seat_players.append((by_seat[seat], GlibcRandom.from_urandom()))
            elif seat == 1:
                seat_players.append(computer_player(choices.computer_name, choices.seed, game))
            else:
                seat_players.append((make_player(choices.computer_name), secret_dice(choices.computer_name)))

        people = TablePeople(persons, host)
        seated = ",".join(f"{name}:{seat + 1}" for seat, name in sorted(names.items()) if seat)
        first, others = seat_players[0], tuple(seat_players[1:])
        if play is not None:
            status = play(people, names, first[0], others, seated)
        else:

            def make_flow(term: Terminal, game: Game, setup: Setup) -> GameFlow:
                return table_flow(term, game, setup, TableHostFace(term, game, people, names))

            status = play_board(
                choices, computer=first[0], make_flow=make_flow, command=f"mille --invite {seated}", others=others
            )
        if people.adjourned:
            for person in persons:
                person.bye(f"{host} adjourned the game; join again when invited: mille --join {host}")
                say(f"mille: {person.name} takes their seat again with: mille --join {host}")
        else:
            for person in persons:
                person.bye(f"{host} left the game; {host} keeps it and may invite you again")
        return status
    finally:
        for person in persons:
            person.close()
            person.listener.close()
        for path in paths:
            try:
                os.unlink(path)
            except OSError:
                pass


def _uid(name: str) -> int:
    from .rendezvous import user

    return user(name).pw_uid
