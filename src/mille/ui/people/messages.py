"""The people link's messages: each spelled here alone, made by a typed constructor and read by a checked reader.

The host's process and each guest's speak JSON lines over the link
(:mod:`.link`: bounded, non-blocking), one message set at every table, two
seats included.  The game's values travel in protocol 2's encodings of the
bot protocol (docs/protocol.md, "Protocol 2": an observation, a move, an
event; :mod:`mille.players.wire`), but the link is no bot's: no greeting,
no dice, and messages of its own (docs/people.md, "The link").

From the host:

* ``hello``: the link's :data:`VERSION`, the host's name, the guest's, the
  guest's seat, the table, the people's names by seat (the first message;
  again after a guest's return);
* ``view``: the guest's seat's view (protocol 2's observation) when they
  join, at each deal and after each move, ``finished`` once the hand is over;
* ``decide``: the guest's move is asked (the observation and the legal moves), numbered (``ask``);
* ``withdrawn``: the question numbered ``ask`` no longer stands (the host let the computer answer it);
* ``moved``: a move every seat saw (protocol 2's event), before the view after it;
* ``say``: a line for the guest's message line (the host's question, whose turn);
* ``error``: the guest's move was refused, in the engine's words (asked again);
* ``bye``: the game is over for the guest (the words say why).

From a guest: ``move``, the answer to the ``decide`` it names (its ``ask``: a move sent
out of turn, or to a question withdrawn, is no answer to a later one).  From either
side: ``beat``, a word after some seconds of silence (:mod:`.link`: a peer heard from
for none of its bound is dropped).

A form that comes next (issue 45: watching, a line of talk, open seats, a
heartbeat) is a constructor and a reader here, and a guest that does not
know a message's type leaves it (:func:`read` gives None).
"""

from __future__ import annotations

from ...engine.driver import Event
from ...engine.observation import Observation
from ...engine.record import Record
from ...engine.rules import Move
from ...engine.state import TABLE_SEATS, Table, table
from ...players import wire

__all__ = [
    "VERSION",
    "Bye",
    "Decide",
    "Hello",
    "Withdrawn",
    "MessageError",
    "Moved",
    "Refused",
    "Said",
    "View",
    "beat",
    "bye",
    "decide",
    "error",
    "hello",
    "is_move",
    "move",
    "moved",
    "read",
    "read_first",
    "read_hello",
    "read_move",
    "say",
    "view",
    "withdrawn",
]

#: The people link's version, said in every ``hello``.  A hello without one is the first link's (the two seats then
#: spoke protocol 1 and the larger tables protocol 2): a guest of one version and a host of another part in one line.
VERSION = 2

HELLO = "hello"
VIEW = "view"
DECIDE = "decide"
MOVE = "move"
MOVED = "moved"
SAY = "say"
ERROR = "error"
BYE = "bye"
WITHDRAWN = "withdrawn"
BEAT = "beat"


class MessageError(ValueError):
    """A message from the other side that is not what its type says (the words say what, in one line)."""


# ----------------------------------------------------------------------
# The host's messages


class Hello(Record):
    """The host's ``hello``: who hosts, who you are, where you sit (0-based, the host at 0), the table, the names."""

    __slots__ = ("host", "you", "seat", "table", "names")

    def __init__(self, host: str, you: str, seat: int, table: Table, names: dict[int, str]) -> None:
        self.host = host
        self.you = you
        self.seat = seat
        self.table = table
        #: Every person's name by seat (the host's at 0), as the host sent them (not yet escaped).
        self.names = names


class View(Record):
    """The guest's seat's view: its observation, and whether the hand is over."""

    __slots__ = ("obs", "finished")

    def __init__(self, obs: Observation, finished: bool) -> None:
        self.obs = obs
        self.finished = finished


class Decide(Record):
    """The guest's move is asked: the observation it is asked in, the legal moves, the question's number."""

    __slots__ = ("obs", "legal", "ask")

    def __init__(self, obs: Observation, legal: list[Move], ask: int) -> None:
        self.obs = obs
        self.legal = legal
        self.ask = ask


class Withdrawn(Record):
    """The question numbered ``ask`` no longer stands: the host let the computer answer it."""

    __slots__ = ("ask",)

    def __init__(self, ask: int) -> None:
        self.ask = ask


class Moved(Record):
    """A move every seat saw (the card drawn seen by its seat alone)."""

    __slots__ = ("event",)

    def __init__(self, event: Event) -> None:
        self.event = event


class Said(Record):
    """A line for the message line (the host's question, whose turn)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class Refused(Record):
    """The guest's move refused by the host's game, in the engine's words."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class Bye(Record):
    """The game is over for the guest: the words say why."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


Message = Hello | View | Decide | Withdrawn | Moved | Said | Refused | Bye


def hello(host: str, you: str, seat: int, tab: Table, names: dict[int, str]) -> dict[str, object]:
    return {
        "type": HELLO,
        "version": VERSION,
        "host": host,
        "you": you,
        "seat": seat,
        "table": wire.table_json(tab),
        "names": {str(s): name for s, name in sorted(names.items())},
    }


def view(obs: Observation, finished: bool) -> dict[str, object]:
    return {"type": VIEW, "obs": wire.observation_json_2(obs), "finished": finished}


def decide(obs: Observation, legal: list[Move], ask: int) -> dict[str, object]:
    return {
        "type": DECIDE,
        "ask": ask,
        "obs": wire.observation_json_2(obs),
        "legal": [wire.move_json_2(m) for m in legal],
    }


def withdrawn(ask: int) -> dict[str, object]:
    return {"type": WITHDRAWN, "ask": ask}


def beat() -> dict[str, object]:
    """A word after some seconds of silence: the peer is there (read by no one; its bytes are what counts)."""
    return {"type": BEAT}


def moved(event: Event, sides: int) -> dict[str, object]:
    """The event encoded once, as a message of its own (protocol 2's fields)."""
    return {"type": MOVED, **wire.event_json_2(event, sides)}


def say(text: str) -> dict[str, object]:
    return {"type": SAY, "text": text}


def error(text: str) -> dict[str, object]:
    return {"type": ERROR, "text": text}


def bye(text: str) -> dict[str, object]:
    return {"type": BYE, "text": text}


def read_hello(message: dict[str, object]) -> Hello:
    """The host's ``hello``, checked; :class:`MessageError` for another message or another version."""
    if message.get("type") != HELLO:
        raise MessageError(f"the host's first message is not its hello ({_kind(message)})")
    version = message.get("version")
    if version != VERSION:
        said = "none" if version is None else wire.excerpt(str(version))
        raise MessageError(f"the host's mille is another version (its people link's {said}, this one's {VERSION})")
    try:
        shape = _dict(message["table"])
        seats = shape["seats"]
        if type(seats) is not int or seats not in TABLE_SEATS:
            raise MessageError("the host sent a table that is not one")
        points, parker = shape["game_points"], shape["parker"]
        if type(points) is not int or points <= 0 or type(parker) is not bool:
            raise MessageError("the host sent a table that is not one")
        tab = table(seats, game_points=points, parker=parker)
        seat = message["seat"]
        if type(seat) is not int or not 0 < seat < seats:
            raise MessageError("the host sent a seat that is not one of its table's")
        names: dict[int, str] = {}
        for key, name in _dict(message.get("names", {})).items():
            if key.isdigit() and int(key) < seats and isinstance(name, str):
                names[int(key)] = name
        return Hello(_text(message["host"]), _text(message["you"]), seat, tab, names)
    except KeyError as exc:
        raise MessageError(f"the host's hello has no {exc}") from None


def read_first(message: dict[str, object]) -> Hello | Bye:
    """The first message a guest reads: the host's hello, or a goodbye (the far side of ssh found no mille of this
    program's to relay to, and said so); :class:`MessageError` for anything else."""
    if message.get("type") == BYE:
        return Bye(_text(message.get("text", "the game is over")))
    return read_hello(message)


def read(message: dict[str, object], seats: int) -> Message | None:
    """A message of the host's at a table of ``seats``, checked; None for a type this guest does not know.

    :class:`MessageError` for a message that is not what its type says.
    """
    kind = message.get("type")
    try:
        if kind == VIEW:
            return View(_observation(message, seats), bool(message.get("finished")))
        if kind == DECIDE:
            obs = _observation(message, seats)
            sides = obs.table.sides
            legal = [wire.move_from_json_2(m, sides) for m in _list(message.get("legal"))]
            return Decide(obs, legal, _number(message.get("ask")))
        if kind == WITHDRAWN:
            return Withdrawn(_number(message.get("ask")))
        if kind == MOVED:
            return Moved(wire.event_from_json_2(message, seats))
        if kind == SAY:
            return Said(_text(message.get("text")))
        if kind == ERROR:
            return Refused(_text(message.get("text")))
        if kind == BYE:
            return Bye(_text(message.get("text", "the game is over")))
        if kind == HELLO:
            return read_hello(message)
        if kind == BEAT:
            return None  # the peer is there: its bytes were what counted
    except wire.WireError as exc:
        raise MessageError(str(exc)) from None
    return None


# ----------------------------------------------------------------------
# The guest's message


def move(made: Move, ask: int) -> dict[str, object]:
    return {"type": MOVE, "ask": ask, "move": wire.move_json_2(made)}


def is_move(message: dict[str, object], ask: int) -> bool:
    """Whether ``message`` is a guest's ``move`` answering question ``ask`` (well formed or not: one that is not is
    refused as not legal); a move of another question (sent out of turn, or to one withdrawn) is none."""
    return message.get("type") == MOVE and message.get("ask") == ask


def read_move(message: dict[str, object], sides: int, ask: int) -> Move | None:
    """The move a guest's ``move`` gives to question ``ask`` at a table of ``sides`` sides; None for another message,
    a move to another question, or a malformed move (refused as one that is not legal)."""
    if not is_move(message, ask):
        return None
    try:
        return wire.move_from_json_2(message.get("move"), sides)
    except wire.WireError:
        return None


# ----------------------------------------------------------------------


def _observation(message: dict[str, object], seats: int) -> Observation:
    obs = wire.observation_from_json_2(message.get("obs"))
    if obs.table.seats != seats:
        raise MessageError(f"the host sent a view of a table of {obs.table.seats}, not of {seats}")
    return obs


def _number(value: object) -> int:
    if type(value) is not int or value < 0:
        raise MessageError("the host sent a question without its number")
    return value


def _kind(message: dict[str, object]) -> str:
    kind = message.get("type")
    return wire.excerpt(kind) if isinstance(kind, str) else "no type"


def _dict(value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        raise MessageError("the host sent a message whose fields are not what they should be")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise MessageError("the host sent a message whose fields are not what they should be")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise MessageError("the host sent words that are not text")
    return value
