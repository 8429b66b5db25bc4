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

The room around the table (issue 45; docs/people.md, "The room"): anyone's
first message at the host's table socket is a ``knock`` saying what they
want (``join``, ``watch`` or ``list``, and the last line of the table's
story they heard, ``since``); the host answers a ``list`` with a
``listing`` (the game as :class:`Listing` holds it), a watcher with
``watching`` and then ``table`` (what every seat sees, protocol 2's
observation without a seat: :func:`mille.players.wire.public_json`),
``moved``, ``say``, ``bye``.  To everyone at the table: ``talk`` (a line a
player or a watcher typed, with who typed it), ``news`` (who came, who
went), ``missed`` (the story told while one was away: numbered lines,
each move with its event), ``moved`` numbered too (``n``).  From a guest
or a watcher: ``talk``; from a guest, ``leave`` (leaving on purpose: an
open seat taken is open again).

A form that comes next is a constructor and a reader here, and a guest
that does not know a message's type leaves it (:func:`read` gives None).
"""

from __future__ import annotations

from ...engine.driver import Event
from ...engine.observation import Observation, PublicView
from ...engine.record import Record
from ...engine.rules import Move
from ...engine.state import TABLE_SEATS, Table, table
from ...players import wire

__all__ = [
    "MAX_TALK",
    "VERSION",
    "WANTS",
    "Bye",
    "Decide",
    "Entry",
    "Hello",
    "Knock",
    "Listing",
    "Withdrawn",
    "MessageError",
    "Missed",
    "Moved",
    "News",
    "Place",
    "Refused",
    "Said",
    "TableView",
    "Talk",
    "View",
    "Watching",
    "beat",
    "bye",
    "decide",
    "error",
    "hello",
    "is_move",
    "knock",
    "leave",
    "listing",
    "missed",
    "move",
    "moved",
    "news",
    "read",
    "read_first",
    "read_hello",
    "read_knock",
    "read_listing",
    "read_move",
    "read_peer",
    "read_watching",
    "say",
    "table_view",
    "talk",
    "talk_line",
    "view",
    "watching",
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
KNOCK = "knock"
LISTING = "listing"
WATCHING = "watching"
TABLE = "table"
TALK = "talk"
NEWS = "news"
MISSED = "missed"
LEAVE = "leave"
#: What a knock may want.
WANTS = ("join", "watch", "list")
#: The longest line of talk kept (a longer one is cut, by the host, before anyone sees it).
MAX_TALK = 200
#: The most lines of the table's story a ``missed`` carries.
MAX_MISSED = 400
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


class Talk(Record):
    """A line of talk: who typed it (a watcher or a player), the line, its number in the table's story."""

    __slots__ = ("n", "who", "text", "watcher")

    def __init__(self, n: int, who: str, text: str, watcher: bool) -> None:
        self.n = n
        self.who = who
        self.text = text
        self.watcher = watcher


class News(Record):
    """Who came to the table or left it, who took a seat, who watches: one line of the table's story."""

    __slots__ = ("n", "text")

    def __init__(self, n: int, text: str) -> None:
        self.n = n
        self.text = text


class Entry(Record):
    """One line of the table's story, as the host tells it: its number, its words, and the move's event if it is one."""

    __slots__ = ("n", "text", "event")

    def __init__(self, n: int, text: str, event: Event | None = None) -> None:
        self.n = n
        self.text = text
        self.event = event


class Missed(Record):
    """What was told at the table while one was away (or before a watcher came), oldest first; ``complete``: nothing
    of it is left out (else only its end was kept); ``hand``: the number of the first line of the hand in play (the
    lines before it are the last hand's)."""

    __slots__ = ("entries", "complete", "hand", "back")

    def __init__(self, entries: list[Entry], complete: bool, hand: int = 0, back: bool = False) -> None:
        self.entries = entries
        self.complete = complete
        self.hand = hand
        #: Told to a person back at their seat (else to one who has just come: a watcher, a person's first time).
        self.back = back


class TableView(Record):
    """What every seat sees of the table now (a watcher's view)."""

    __slots__ = ("view",)

    def __init__(self, view: PublicView) -> None:
        self.view = view


Message = Hello | View | Decide | Withdrawn | Moved | Said | Refused | Bye | Talk | News | Missed | TableView


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


def moved(event: Event, sides: int, n: int | None = None) -> dict[str, object]:
    """The event encoded once, as a message of its own (protocol 2's fields); ``n``: its number in the table's story."""
    message: dict[str, object] = {"type": MOVED, **wire.event_json_2(event, sides)}
    if n is not None:
        message["n"] = n
    return message


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
        if kind == TALK:
            return Talk(_line_number(message), _text(message.get("from")), _text(message.get("text")),
                        message.get("watcher") is True)  # fmt: skip
        if kind == NEWS:
            return News(_line_number(message), _text(message.get("text")))
        if kind == MISSED:
            return _missed(message, seats)
        if kind == TABLE:
            view = wire.public_from_json(message.get("view"))
            if view.table.seats != seats:
                raise MessageError(f"the host sent a view of a table of {view.table.seats}, not of {seats}")
            return TableView(view)
    except wire.WireError as exc:
        raise MessageError(str(exc)) from None
    return None


# ----------------------------------------------------------------------
# The room around the table (issue 45): the knock, the listing, watching, talk, the story missed


class Knock(Record):
    """Anyone's first message at the host's table: what they want (:data:`WANTS`) and the last line of the table's
    story they heard (None: none; a guest back after a drop, a watcher back)."""

    __slots__ = ("want", "since")

    def __init__(self, want: str, since: int | None = None) -> None:
        self.want = want
        self.since = since


def knock(want: str, since: int | None = None) -> dict[str, object]:
    message: dict[str, object] = {"type": KNOCK, "version": VERSION, "want": want}
    if since is not None:
        message["since"] = since
    return message


def read_knock(message: dict[str, object]) -> Knock:
    """A knock, checked; :class:`MessageError` for anything else (another version's included)."""
    if message.get("type") != KNOCK or message.get("version") != VERSION:
        raise MessageError("not a knock of this mille's")
    want = message.get("want")
    if want not in WANTS:
        raise MessageError("a knock that wants nothing this mille offers")
    since = message.get("since")
    if since is not None and (type(since) is not int or since < 0):
        raise MessageError("a knock whose line of the story is not one")
    return Knock(str(want), since)


class Place(Record):
    """A seat as a listing says it: its number (from 1), what holds it and whose name.

    ``kind``: ``host``, ``person`` (sitting), ``away`` (a person's, dropped:
    kept for them), ``invited`` (kept for them, not yet come), ``computer``,
    ``open`` (anyone may take it; a computer keeps it meanwhile).
    """

    __slots__ = ("seat", "kind", "name")

    KINDS = ("host", "person", "away", "invited", "computer", "open")

    def __init__(self, seat: int, kind: str, name: str = "") -> None:
        self.seat = seat
        self.kind = kind
        self.name = name


class Listing(Record):
    """One game as ``mille --list`` shows it: the host, the table, who sits where, the hand and the scores, how long
    it has run (seconds), who watches, and what the asker may do there."""

    __slots__ = ("host", "table", "places", "hand", "scores", "running", "watchers", "join", "watch")

    def __init__(
        self,
        host: str,
        table: Table,
        places: list[Place],
        hand: int,
        scores: list[int],
        running: int,
        watchers: list[str],
        join: bool,
        watch: bool,
    ) -> None:
        self.host = host
        self.table = table
        self.places = places
        self.hand = hand
        self.scores = scores
        self.running = running
        self.watchers = watchers
        self.join = join
        self.watch = watch


#: The most watchers a listing names (it counts the others).
MAX_LISTED_WATCHERS = 20


def listing(entry: Listing) -> dict[str, object]:
    return {
        "type": LISTING,
        "version": VERSION,
        "host": entry.host,
        "table": wire.table_json(entry.table),
        "places": [{"seat": p.seat, "kind": p.kind, "name": p.name} for p in entry.places],
        "hand": entry.hand,
        "scores": entry.scores,
        "running": entry.running,
        "watchers": entry.watchers[:MAX_LISTED_WATCHERS],
        "join": entry.join,
        "watch": entry.watch,
    }


def read_listing(message: dict[str, object]) -> Listing:
    """A listing, every field checked (it comes from another user's process); :class:`MessageError` otherwise."""
    if message.get("type") != LISTING or message.get("version") != VERSION:
        raise MessageError("not a listing of this mille's")
    try:
        tab = _table(message["table"])
        places = []
        for item in _list(message["places"])[: tab.seats]:
            place = _dict(item)
            seat, kind = place["seat"], place["kind"]
            if type(seat) is not int or not 1 <= seat <= tab.seats or kind not in Place.KINDS:
                raise MessageError("a listing's seat is not one")
            places.append(Place(seat, str(kind), _text(place.get("name", ""))[:64]))
        scores = [
            v for v in _list(message["scores"]) if isinstance(v, int) and type(v) is int and 0 <= v <= wire.MAX_SCORE
        ]
        if len(scores) != tab.sides:
            raise MessageError("a listing's scores are not scores")
        hand, running = message["hand"], message["running"]
        if type(hand) is not int or not 0 <= hand <= 10**6 or type(running) is not int or not 0 <= running < 10**9:
            raise MessageError("a listing's hand or time is not one")
        watchers = [_text(w)[:64] for w in _list(message["watchers"])[:MAX_LISTED_WATCHERS]]
        join, watch = message["join"], message["watch"]
        if type(join) is not bool or type(watch) is not bool:
            raise MessageError("a listing's offer is not one")
        return Listing(_text(message["host"])[:64], tab, places, hand, scores, running,
                       watchers, join, watch)  # fmt: skip
    except KeyError as exc:
        raise MessageError(f"the listing has no {exc}") from None


class Watching(Record):
    """The host's first message to a watcher: who hosts, who watches, the table, the people's names by seat."""

    __slots__ = ("host", "you", "table", "names")

    def __init__(self, host: str, you: str, table: Table, names: dict[int, str]) -> None:
        self.host = host
        self.you = you
        self.table = table
        self.names = names


def watching(host: str, you: str, tab: Table, names: dict[int, str]) -> dict[str, object]:
    return {
        "type": WATCHING,
        "version": VERSION,
        "host": host,
        "you": you,
        "table": wire.table_json(tab),
        "names": {str(s): name for s, name in sorted(names.items())},
    }


def read_watching(message: dict[str, object]) -> Watching:
    """The host's first message to a watcher, checked; :class:`MessageError` for another (a ``bye`` is read first)."""
    if message.get("type") != WATCHING:
        raise MessageError(f"the host's first message is not its welcome ({_kind(message)})")
    if message.get("version") != VERSION:
        raise MessageError(f"the host's mille is another version (its people link's, this one's {VERSION})")
    try:
        tab = _table(message["table"])
        return Watching(_text(message["host"]), _text(message["you"]), tab, _names(message.get("names", {}), tab))
    except KeyError as exc:
        raise MessageError(f"the host's welcome has no {exc}") from None


def table_view(encoded: dict[str, object]) -> dict[str, object]:
    """What every seat sees (:func:`mille.players.wire.public_json`'s), as a message to watchers."""
    return {"type": TABLE, "view": encoded}


def talk(n: int, who: str, text: str, watcher: bool) -> dict[str, object]:
    return {"type": TALK, "n": n, "from": who, "text": text, "watcher": watcher}


def news(n: int, text: str) -> dict[str, object]:
    return {"type": NEWS, "n": n, "text": text}


def missed(entries: list[Entry], sides: int, complete: bool, hand: int, back: bool = False) -> dict[str, object]:
    listed: list[dict[str, object]] = []
    for entry in entries[-MAX_MISSED:]:
        item: dict[str, object] = {"n": entry.n, "text": entry.text}
        if entry.event is not None:
            item["event"] = wire.event_json_2(entry.event, sides)
        listed.append(item)
    complete = complete and len(entries) <= MAX_MISSED
    return {"type": MISSED, "entries": listed, "complete": complete, "hand": hand, "back": back}


def _missed(message: dict[str, object], seats: int) -> Missed:
    entries = []
    for item in _list(message.get("entries"))[:MAX_MISSED]:
        entry = _dict(item)
        event = entry.get("event")
        read = None if event is None else wire.event_from_json_2(_dict(event), seats)
        entries.append(Entry(_line_number(entry), _text(entry.get("text")), read))
    hand = message.get("hand")
    hand = hand if type(hand) is int else 0
    return Missed(entries, message.get("complete") is True, hand, message.get("back") is True)


def talk_line(text: str) -> dict[str, object]:
    """A guest's or a watcher's line of talk, to the host."""
    return {"type": TALK, "text": text}


def leave() -> dict[str, object]:
    """A guest leaves on purpose (the seat they took from the open ones is open again)."""
    return {"type": LEAVE}


def read_peer(message: dict[str, object]) -> str | None:
    """A guest's or a watcher's message other than a move: the line of talk it carries (bounded, not yet escaped),
    ``""`` for a ``leave``, None for anything else."""
    kind = message.get("type")
    if kind == TALK:
        text = message.get("text")
        return text[:MAX_TALK] if isinstance(text, str) and text else None
    if kind == LEAVE:
        return ""
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


def _table(value: object) -> Table:
    shape = _dict(value)
    seats = shape.get("seats")
    if type(seats) is not int or seats not in TABLE_SEATS:
        raise MessageError("the host sent a table that is not one")
    points, parker = shape.get("game_points"), shape.get("parker")
    if type(points) is not int or not 0 < points <= wire.MAX_SCORE or type(parker) is not bool:
        raise MessageError("the host sent a table that is not one")
    return table(seats, game_points=points, parker=parker)


def _names(value: object, tab: Table) -> dict[int, str]:
    names: dict[int, str] = {}
    for key, name in _dict(value).items():
        if key.isdigit() and int(key) < tab.seats and isinstance(name, str):
            names[int(key)] = name
    return names


def _line_number(message: dict[str, object]) -> int:
    n = message.get("n")
    if type(n) is not int or not 0 <= n < 2**53:
        raise MessageError("the host sent a line of the story without its number")
    return n


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
