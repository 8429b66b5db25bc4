"""The bot protocol's messages: what crosses the pipe between mille and a bot, as JSON lines.

``docs/protocol.md`` is the contract; this module is its one
implementation, used by both ends: the host (:mod:`mille.players.external`,
the ``exec:`` player) and the bot side (:mod:`mille.players.serve`,
``python -m mille.bot``).  Every message is one JSON object on one line
(UTF-8, ``\\n`` at the end), with its ``type`` first.

The forms of the engine's values:

* a card is its integer code (:mod:`mille.engine.cards`; the greeting
  lists the names by code), the empty card ``-1``;
* a move is ``{"kind": KIND}``, with ``"slot"`` for a play or a discard
  (:data:`KIND_NAMES`);
* an observation is an object with every field of
  :class:`~mille.engine.observation.Observation` (:func:`observation_json`),
  an event every field of :class:`~mille.engine.driver.Event`, a hand's
  result every field of :class:`~mille.engine.scoring.HandResult`.

The ``*_json`` functions give the JSON forms and the ``*_from_json``
functions read them back; reading a bot's answer (:func:`read_message`,
:func:`move_from_json`) trusts nothing and says what is wrong in a
:class:`WireError`.  Every number read from the other side (the host's
observations, events and results, read by a bot or a person's guest; a
bot's or a guest's move, read by the host) is checked against what the
rules can reach before it is used (:data:`CARD`, :data:`MILES`, ...): a card is a card's
code, a seat a seat of the table, a mileage at most the longest trip, a
score at most :data:`MAX_SCORE`.  A hostile host's card out of range
crashed a guest with a traceback, and a mileage of 10^15 spun it deaf to
signals (issue 43); each is now a :class:`WireError` naming the field.

The fast forms (docs/protocol-speed.md), each opt-in in the bot's
``hello``: the ``compact`` encoding sends a decision's observation as one
array of :data:`COMPACT_SIZE` integers in the order of
:data:`COMPACT_FIELDS` and its legal moves as a bit mask
(:data:`MOVE_BITS`), both written through one precomputed byte template
(:func:`compact_decide_line`) and read back by the C JSON scanner on the
array alone (:func:`compact_values`, :func:`observation_from_ints`); a bot's ``move`` in the form mille's
own bots write it is looked up whole (:func:`known_answer`, the bytes of
every such line made once) before any JSON is parsed.  Every line stays
a valid JSON line.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from operator import le as _le
from typing import Any

from .. import __version__
from ..engine import cards
from ..engine.driver import Event
from ..engine.observation import Observation, PublicView
from ..engine.rules import DISCARDS, DRAW, EXTEND, NO_EXTENSION, ORDER, PASS, PLAYS, Move, MoveType, Phase
from ..engine.rules import phase as phase_of
from ..engine.scoring import Bonuses, HandResult
from ..engine.state import EXTENDED_TRIP, TABLE_SEATS, TWO, Game, Memory, Table, Tableau
from ..engine.state import table as make_table

#: The protocol's version: the greeting says it, the bot's hello repeats it.
PROTOCOL = 1
#: The longest line either side reads (a bot's longest answer is under 100 bytes).
MAX_LINE = 1 << 20

#: A move's kind on the wire, by :class:`~mille.engine.rules.MoveType`.
KIND_NAMES: dict[MoveType, str] = {
    MoveType.DISCARD: "discard",
    MoveType.DRAW: "draw",
    MoveType.PLAY: "play",
    MoveType.ORDER: "order",
    MoveType.EXTEND: "extend",
    MoveType.NO_EXTENSION: "no_extension",
    MoveType.PASS: "pass",
}
KINDS: dict[str, MoveType] = {name: kind for kind, name in KIND_NAMES.items()}
#: The phase on the wire, by :class:`~mille.engine.rules.Phase`.
PHASE_NAMES: dict[Phase, str] = {
    Phase.MOVE: "move",
    Phase.EXTENSION: "extension",
    Phase.EMPTY_HAND: "empty_hand",
    Phase.HAND_OVER: "hand_over",
}
PHASES: dict[str, Phase] = {name: phase for phase, name in PHASE_NAMES.items()}
_MOVES: dict[tuple[str, int | None], Move] = {
    ("draw", None): DRAW,
    ("extend", None): EXTEND,
    ("no_extension", None): NO_EXTENSION,
    ("order", None): ORDER,
    ("pass", None): PASS,
    **{("play", slot): move for slot, move in enumerate(PLAYS)},
    **{("discard", slot): move for slot, move in enumerate(DISCARDS)},
}
_new_tableau = object.__new__
_new_observation = object.__new__
#: ``Memory.num_seen`` has a count more than there are cards, always 0 (as the original's table).
_PADDING = [0] * (cards.NUM_TABLE - cards.NUM_CODES)
_BONUSES = ("trip", "safe_trip", "delayed_action", "extension", "shut_out")

#: The hello's opt-ins: ``"every_decision": true`` (asked forced moves too), ``"encoding": "compact"``.
EVERY_DECISION = "every_decision"
ENCODING = "encoding"
COMPACT = "compact"
ENCODINGS = ("json", COMPACT)


class WireError(ValueError):
    """A line that is not the message it should be (the text says what is wrong)."""


#: The most a score, a total or a count of games won may be: no game reaches it (a hand scores a few
#: thousand points at most, a game ends at ``game_points``), and a number this size costs nothing to
#: add or to show.  Also the most ``game_points`` a table may have.
MAX_SCORE = 10**9
#: The range of each kind of number a peer sends, (lowest, highest), checked before it is used:
#: a card (its code, or ``-1`` for none: an empty slot or pile, a card drawn unseen), a safety's
#: status, a count of cards (the deck's, a card seen, mileage cards played: at most a deck), a
#: slot, a hand's size, a mileage or a trip (at most the longest trip), a score, ``num_gos`` (the
#: original's estimate, which may run below zero), a table's seats and its game points.
CARD = (cards.EMPTY, cards.NUM_CODES - 1)
SAFETY = (0, 2)
COUNT = (0, cards.FULL_DECK_SIZE)
SLOT = (0, cards.HAND_SIZE - 1)
HAND = (0, cards.HAND_SIZE)
MILES = (0, EXTENDED_TRIP)
SCORE = (0, MAX_SCORE)
GOS = (-cards.FULL_DECK_SIZE, cards.FULL_DECK_SIZE)
SEATS = (min(TABLE_SEATS), max(TABLE_SEATS))
POINTS = (1, MAX_SCORE)
_INTS_ONLY = frozenset({int})
#: A side's name in an error (made once: the name is every decision's cost).
_SIDE_NAMES = tuple(f"sides[{k}]" for k in range(max(TABLE_SEATS)))


def _out_of_range(field: str, value: object, bounds: tuple[int, int]) -> WireError:
    low, high = bounds
    return WireError(f"{field} is {_value(value)}, not an integer from {low} to {high}")


def _value(value: object, limit: int = 30) -> str:
    """A peer's value as a report line shows it: its ``repr``, cut to ``limit`` characters (escaped where shown)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def encode(message: dict[str, object]) -> bytes:
    """One message as its line: compact JSON, ``\\n`` at the end."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def read_message(line: bytes) -> dict[str, object]:
    """The message a line holds: a JSON object with a string ``type``; :class:`WireError` for anything else."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise WireError(f"not a JSON line: {excerpt(line)}") from None
    if not isinstance(message, dict):
        raise WireError(f"not a JSON object: {excerpt(line)}")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise WireError(f"no string 'type' in {excerpt(line)}")
    return message


def excerpt(data: bytes | str, limit: int = 60) -> str:
    """Text from a bot, quoted for a report line: control characters escaped, at most ``limit`` characters."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    cut = text[:limit]
    return json.dumps(cut) + ("..." if len(text) > limit else "")


# --------------------------------------------------------------------------
# Greeting


def greeting() -> dict[str, object]:
    """The host's first message: the protocol, the program, the card names by code."""
    return {"type": "mille", "protocol": PROTOCOL, "program": f"bsd-mille {__version__}", "cards": list(cards.NAMES)}


# --------------------------------------------------------------------------
# Moves


def move_json(move: Move) -> dict[str, object]:
    kind = KIND_NAMES[move.kind]
    if move.kind is MoveType.PLAY or move.kind is MoveType.DISCARD:
        return {"kind": kind, "slot": move.slot}
    return {"kind": kind}


def move_from_json(data: object) -> Move:
    """The move ``{"kind": ..., "slot": ...}`` stands for; :class:`WireError` if it is none."""
    if not isinstance(data, dict):
        raise WireError(f"a move must be an object, not {excerpt(json.dumps(data))}")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise WireError(f"no move has the kind {excerpt(json.dumps(kind))}")
    slot = data.get("slot")
    if kind in ("play", "discard"):
        if type(slot) is not int:
            raise WireError(f"a {kind} needs an integer slot, 0 to 6, not {excerpt(json.dumps(slot))}")
    elif slot is not None:
        raise WireError(f"a move of kind {kind} has no slot")
    move = _MOVES.get((kind, slot))
    if move is None:
        raise WireError(f"slot {slot} is not a slot of the hand (0 to 6)")
    return move


# --------------------------------------------------------------------------
# What a seat sees


def tableau_json(t: Tableau) -> dict[str, object]:
    return {
        "hand": t.hand,
        "battle": t.battle,
        "speed": t.speed,
        "can_go": t.can_go,
        "fresh_hazard": t.fresh_hazard,
        "fresh_limit": t.fresh_limit,
        "safety": t.safety,
        "coups": t.coups,
        "nummiles": t.nummiles,
        "mileage": t.mileage,
        "hand_total": t.hand_total,
        "safety_score": t.safety_score,
        "coup_score": t.coup_score,
        "total": t.total,
        "games": t.games,
    }


def tableau_from_json(d: dict[str, object], name: str = "tableau") -> Tableau:
    """The :class:`Tableau` :func:`tableau_json` made, every field checked (``name`` heads a field in an error)."""
    return Tableau(
        hand=_ints(d["hand"], cards.HAND_SIZE, CARD, name, "hand"),
        battle=_int(d["battle"], CARD, name, "battle"),
        speed=_int(d["speed"], CARD, name, "speed"),
        can_go=_bool(d["can_go"]),
        fresh_hazard=_bool(d["fresh_hazard"]),
        fresh_limit=_bool(d["fresh_limit"]),
        safety=_ints(d["safety"], cards.NUM_SAFETIES, SAFETY, name, "safety"),
        coups=_bools(d["coups"], cards.NUM_SAFETIES),
        nummiles=_ints(d["nummiles"], cards.NUM_MILES, COUNT, name, "nummiles"),
        mileage=_int(d["mileage"], MILES, name, "mileage"),
        hand_total=_int(d["hand_total"], SCORE, name, "hand_total"),
        safety_score=_int(d["safety_score"], SCORE, name, "safety_score"),
        coup_score=_int(d["coup_score"], SCORE, name, "coup_score"),
        total=_int(d["total"], SCORE, name, "total"),
        games=_int(d["games"], SCORE, name, "games"),
    )


def _public_json(obs: Observation) -> dict[str, object]:
    """The fields both protocols' observations end with: the discard, the deck, the trip, Order, the counting."""
    memory = obs.memory
    return {
        "discard": obs.discard,
        "deck_count": obs.deck_count,
        "trip_length": obs.trip_length,
        "hand_starter": obs.hand_starter,
        "order": obs.order,
        "pending_extension": obs.pending_extension,
        "memory": {"num_seen": memory.num_seen[: cards.NUM_CODES], "num_gos": memory.num_gos},
    }


def observation_json(obs: Observation) -> dict[str, object]:
    """Every field of ``obs``; ``memory.num_seen`` has one count per card code (19)."""
    players = obs.players
    return {
        "seat": obs.seat,
        "phase": PHASE_NAMES[obs.phase],
        "to_move": obs.to_move,
        "players": [tableau_json(players[0]), tableau_json(players[1])],
        "opponent_hand_size": obs.opponent_hand_size,
        **_public_json(obs),
    }


def observation_from_json(data: object) -> Observation:
    """The :class:`Observation` :func:`observation_json` made; :class:`WireError` for anything else."""
    try:
        data = _dict(data)
        players = _list(data["players"], 2)
        memory = _dict(data["memory"])
        seen = _ints(memory["num_seen"], cards.NUM_CODES, COUNT, "memory.num_seen") + _PADDING
        pending = data["pending_extension"]
        return Observation(
            seat=_seat(data["seat"]),
            phase=PHASES[_str(data["phase"])],
            to_move=_seat(data["to_move"]),
            players=(
                tableau_from_json(_dict(players[0]), "players[0]"),
                tableau_from_json(_dict(players[1]), "players[1]"),
            ),
            opponent_hand_size=_int(data["opponent_hand_size"], HAND, "opponent_hand_size"),
            discard=_int(data["discard"], CARD, "discard"),
            deck_count=_int(data["deck_count"], COUNT, "deck_count"),
            trip_length=_int(data["trip_length"], MILES, "trip_length"),
            hand_starter=_seat(data["hand_starter"]),
            order=_bool(data["order"]),
            pending_extension=None if pending is None else _int(pending, SLOT, "pending_extension"),
            memory=Memory(seen, _int(memory["num_gos"], GOS, "memory.num_gos")),
        )
    except (KeyError, TypeError) as exc:
        raise WireError(f"not an observation ({type(exc).__name__}: {exc})") from None


# --------------------------------------------------------------------------
# Protocol 2: any table (docs/protocol.md, "Protocols 1 and 2")

#: The protocol a hello asks for with ``"protocol": 2``: any table, hazards aimed at a side, the
#: coup fourré asked out of turn.  Protocol 1 stays the two-seat table's, byte for byte.
PROTOCOL_2 = 2
#: The phase on the wire in protocol 2: protocol 1's, and the coup fourré asked out of turn.
PHASE_NAMES_2: dict[Phase, str] = {**PHASE_NAMES, Phase.REACTION: "reaction"}
PHASES_2: dict[str, Phase] = {name: phase for phase, name in PHASE_NAMES_2.items()}
#: The protocols this host speaks, and a bot may list in its hello's ``protocols``.
PROTOCOLS = (PROTOCOL, PROTOCOL_2)


def table_json(table: Table) -> dict[str, object]:
    """The table's parameters as protocol 2 gives them (in ``game`` and in every observation)."""
    return {
        "seats": table.seats,
        "sides": table.sides,
        "trip": table.trip,
        "extension": table.extension,
        "deck_size": table.deck_size,
        "game_points": table.game_points,
        "parker": table.parker,
    }


def move_json_2(move: Move) -> dict[str, object]:
    """A move in protocol 2: protocol 1's, with ``"target"`` (a side) on a hazard aimed at one."""
    data = move_json(move)
    if move.target is not None:
        data["target"] = move.target
    return data


def move_from_json_2(data: object, sides: int) -> Move:
    """The move a protocol-2 answer stands for at a table of ``sides`` sides; :class:`WireError` if none."""
    if isinstance(data, dict) and "target" in data:
        target = data["target"]
        rest = {k: v for k, v in data.items() if k != "target"}
        move = move_from_json(rest)
        if move.kind is not MoveType.PLAY:
            raise WireError("only a play names a target side")
        if type(target) is not int or not 0 <= target < sides:
            raise WireError(f"a target is a side, 0 to {sides - 1}, not {excerpt(json.dumps(target))}")
        return Move(MoveType.PLAY, move.slot, target)
    return move_from_json(data)


def _side_json(t: Tableau) -> dict[str, object]:
    """A side's tableau as every seat sees it: no hand (a hand is its holder's alone, a partner's included)."""
    data = tableau_json(t)
    del data["hand"]
    return data


def observation_json_2(obs: Observation) -> dict[str, object]:
    """What ``obs.seat`` sees at any table: the table, its own hand, every side's tableau, every hand's size.

    Nothing a seat may not see travels: the only cards in it are the
    seat's own hand (``hand``); ``sides`` are the tableaux, without hands.
    """
    table = obs.table
    seat = obs.seat
    sides = table.sides
    return {
        "seat": seat,
        "side": seat % sides,
        "partners": [k for k in table.partners(seat % sides) if k != seat],
        "table": table_json(table),
        "phase": PHASE_NAMES_2[obs.phase],
        "to_move": obs.to_move,
        "hand": obs.players[seat].hand,
        "hand_sizes": list(obs.hand_sizes),
        "sides": [_side_json(obs.players[s]) for s in range(sides)],
        **_public_json(obs),
    }


def observation_from_json_2(data: object) -> Observation:
    """The :class:`Observation` :func:`observation_json_2` made; :class:`WireError` for anything else."""
    try:
        data = _dict(data)
        shape = _dict(data["table"])
        seats = _int(shape["seats"], SEATS, "table.seats")
        if seats not in TABLE_SEATS:
            raise WireError(f"a table has 2, 3, 4 or 6 seats, not {seats}")
        game_points = _int(shape["game_points"], POINTS, "table.game_points")
        table = make_table(seats, game_points=game_points, parker=_bool(shape["parker"]))
        seat = _int(data["seat"], (0, seats - 1), "seat")
        sides = [_dict(t) for t in _list(data["sides"], table.sides)]
        hand = _ints(data["hand"], cards.HAND_SIZE, CARD, "hand")
        players = tuple(
            tableau_from_json(
                {**sides[k % table.sides], "hand": hand if k == seat else [cards.EMPTY] * cards.HAND_SIZE},
                _SIDE_NAMES[k % table.sides],
            )
            for k in range(seats)
        )
        sizes = tuple(_ints(data["hand_sizes"], seats, HAND, "hand_sizes"))
        memory = _dict(data["memory"])
        seen = _ints(memory["num_seen"], cards.NUM_CODES, COUNT, "memory.num_seen") + _PADDING
        pending = data["pending_extension"]
        phase = PHASES_2.get(_str(data["phase"]))
        if phase is None:
            raise WireError(f"no phase is called {excerpt(json.dumps(data['phase']))}")
        to_move = _int(data["to_move"], (0, seats - 1), "to_move")
        starter = _int(data["hand_starter"], (0, seats - 1), "hand_starter")
        return Observation(
            seat=seat,
            phase=phase,
            to_move=to_move,
            players=players,
            opponent_hand_size=sizes[(seat + 1) % seats],
            discard=_int(data["discard"], CARD, "discard"),
            deck_count=_int(data["deck_count"], COUNT, "deck_count"),
            trip_length=_int(data["trip_length"], MILES, "trip_length"),
            hand_starter=starter,
            order=_bool(data["order"]),
            pending_extension=None if pending is None else _int(pending, SLOT, "pending_extension"),
            memory=Memory(seen, _int(memory["num_gos"], GOS, "memory.num_gos")),
            table=table,
            hand_sizes=sizes,
        )
    except (KeyError, TypeError) as exc:
        raise WireError(f"not an observation ({type(exc).__name__}: {exc})") from None


def public_json(view: PublicView) -> dict[str, object]:
    """What every seat sees (a watcher's view, docs/people.md): protocol 2's observation without a seat, a hand, the
    counting or an ``Extension?`` slot."""
    table = view.table
    return {
        "table": table_json(table),
        "phase": PHASE_NAMES_2[view.phase],
        "to_move": view.to_move,
        "hand_sizes": list(view.hand_sizes),
        "sides": [_side_json(view.players[s]) for s in range(table.sides)],
        "discard": view.discard,
        "deck_count": view.deck_count,
        "trip_length": view.trip_length,
        "hand_starter": view.hand_starter,
    }


def public_from_json(data: object) -> PublicView:
    """The :class:`PublicView` :func:`public_json` made, every number checked; :class:`WireError` for anything else."""
    try:
        data = _dict(data)
        shape = _dict(data["table"])
        seats = _int(shape["seats"], SEATS, "table.seats")
        if seats not in TABLE_SEATS:
            raise WireError(f"a table has 2, 3, 4 or 6 seats, not {seats}")
        game_points = _int(shape["game_points"], POINTS, "table.game_points")
        table = make_table(seats, game_points=game_points, parker=_bool(shape["parker"]))
        sides = [_dict(t) for t in _list(data["sides"], table.sides)]
        blank = [cards.EMPTY] * cards.HAND_SIZE
        players = tuple(
            tableau_from_json({**sides[k % table.sides], "hand": blank}, _SIDE_NAMES[k % table.sides])
            for k in range(seats)
        )
        phase = PHASES_2.get(_str(data["phase"]))
        if phase is None or phase is Phase.REACTION:
            raise WireError(f"no public phase is called {excerpt(json.dumps(data['phase']))}")
        return PublicView(
            phase=phase,
            to_move=_int(data["to_move"], (0, seats - 1), "to_move"),
            players=players,
            hand_sizes=tuple(_ints(data["hand_sizes"], seats, HAND, "hand_sizes")),
            discard=_int(data["discard"], CARD, "discard"),
            deck_count=_int(data["deck_count"], COUNT, "deck_count"),
            trip_length=_int(data["trip_length"], MILES, "trip_length"),
            hand_starter=_int(data["hand_starter"], (0, seats - 1), "hand_starter"),
            table=table,
        )
    except (KeyError, TypeError) as exc:
        raise WireError(f"not a view of the table ({type(exc).__name__}: {exc})") from None


# --------------------------------------------------------------------------
# The compact encoding (opt-in: ``"encoding": "compact"`` in the hello)

#: One tableau's integers, in order (booleans as 0 and 1; lists flattened).
TABLEAU_FIELDS: tuple[str, ...] = (
    *(f"hand[{i}]" for i in range(cards.HAND_SIZE)),
    "battle",
    "speed",
    "can_go",
    "fresh_hazard",
    "fresh_limit",
    *(f"safety[{i}]" for i in range(cards.NUM_SAFETIES)),
    *(f"coups[{i}]" for i in range(cards.NUM_SAFETIES)),
    *(f"nummiles[{i}]" for i in range(cards.NUM_MILES)),
    "mileage",
    "hand_total",
    "safety_score",
    "coup_score",
    "total",
    "games",
)
#: The ``obs`` array of a compact ``decide``, index by index (docs/protocol.md has the same table).
COMPACT_FIELDS: tuple[str, ...] = (
    "seat",
    "phase",
    "to_move",
    "opponent_hand_size",
    "discard",
    "deck_count",
    "trip_length",
    "hand_starter",
    "order",
    "pending_extension",
    "num_gos",
    *(f"num_seen[{c}]" for c in range(cards.NUM_CODES)),
    *(f"players[0].{name}" for name in TABLEAU_FIELDS),
    *(f"players[1].{name}" for name in TABLEAU_FIELDS),
)
COMPACT_SIZE = len(COMPACT_FIELDS)
_TABLEAU_SIZE = len(TABLEAU_FIELDS)
_PLAYERS_AT = COMPACT_FIELDS.index("players[0].hand[0]")
#: The phase's code in the compact array (the order of :data:`PHASE_NAMES`).
PHASE_CODES: dict[Phase, int] = {phase: code for code, phase in enumerate(PHASE_NAMES)}
_PHASE_BY_CODE = tuple(PHASE_NAMES)
#: A legal move's bit in a compact ``decide``'s ``legal`` mask.
MOVE_BITS: dict[Move, int] = {
    **{move: 1 << slot for slot, move in enumerate(PLAYS)},
    **{move: 1 << (cards.HAND_SIZE + slot) for slot, move in enumerate(DISCARDS)},
    DRAW: 1 << 14,
    EXTEND: 1 << 15,
    NO_EXTENSION: 1 << 16,
}
#: The same by the identity of the engine's own move objects (a Move hashes in Python: this is every decision's cost).
_BITS_BY_ID = {id(move): bit for move, bit in MOVE_BITS.items()}
_COMPACT_PREFIX = b'{"type":"decide","obs":['
_COMPACT_DECIDE = _COMPACT_PREFIX + b",".join([b"%d"] * COMPACT_SIZE) + b'],"legal":%d}\n'


def compact_decide_line(obs: Observation, legal: list[Move]) -> bytes:
    """The compact ``decide`` message: the observation's integers and the legal moves' mask, one template."""
    p0, p1 = obs.players
    memory = obs.memory
    pending = obs.pending_extension
    mask = 0
    bits = _BITS_BY_ID
    for move in legal:
        bit = bits.get(id(move))
        mask |= MOVE_BITS[move] if bit is None else bit
    return _COMPACT_DECIDE % (
        obs.seat,
        PHASE_CODES[obs.phase],
        obs.to_move,
        obs.opponent_hand_size,
        obs.discard,
        obs.deck_count,
        obs.trip_length,
        obs.hand_starter,
        obs.order,
        -1 if pending is None else pending,
        memory.num_gos,
        *memory.num_seen[: cards.NUM_CODES],
        *p0.hand,
        p0.battle,
        p0.speed,
        p0.can_go,
        p0.fresh_hazard,
        p0.fresh_limit,
        *p0.safety,
        *p0.coups,
        *p0.nummiles,
        p0.mileage,
        p0.hand_total,
        p0.safety_score,
        p0.coup_score,
        p0.total,
        p0.games,
        *p1.hand,
        p1.battle,
        p1.speed,
        p1.can_go,
        p1.fresh_hazard,
        p1.fresh_limit,
        *p1.safety,
        *p1.coups,
        *p1.nummiles,
        p1.mileage,
        p1.hand_total,
        p1.safety_score,
        p1.coup_score,
        p1.total,
        p1.games,
        mask,
    )


#: The compact ``decide`` of a bot that finds its legal moves itself, tagged (games in flight): no mask.
_COMPACT_BARE_TAGGED = _COMPACT_PREFIX + b",".join([b"%d"] * COMPACT_SIZE) + b'],"tag":%d}\n'
_BLIND_HAND = [cards.EMPTY] * cards.HAND_SIZE


def compact_game_line(game: Game, seat: int, tag: int) -> bytes:
    """``tagged(without_legal(compact_decide_line(observe(game, seat), [])), tag)``, straight from the game.

    Issue 39: a bot in flight that finds its legal moves itself is asked
    tens of thousands of times a match; this skips the observation's copies
    (two tableaus, the memory) and two rewrites of the line.  It shows
    exactly what :func:`~mille.engine.observation.observe` shows a seat of
    the table of two: its own hand, the other's as empty slots, its own
    memory, a pending extension only when it is to move
    (``tests/players/test_protocol_inflight.py`` holds the two equal, byte for
    byte, over whole matches).
    """
    players = game.players
    own = players[seat]
    other = players[1 - seat]
    memory = game.memory[seat]
    pending = game.pending_extension
    if pending is None or game.to_move != seat:
        pending = -1
    p0, p1 = (own, other) if seat == 0 else (other, own)
    h0 = p0.hand if seat == 0 else _BLIND_HAND
    h1 = p1.hand if seat == 1 else _BLIND_HAND
    return _COMPACT_BARE_TAGGED % (
        seat,
        PHASE_CODES[phase_of(game)],
        game.to_move,
        cards.HAND_SIZE - other.hand.count(cards.EMPTY),
        game.discard,
        game.deck_count,
        game.trip_length,
        game.hand_starter,
        game.order,
        pending,
        memory.num_gos,
        *memory.num_seen[: cards.NUM_CODES],
        *h0,
        p0.battle,
        p0.speed,
        p0.can_go,
        p0.fresh_hazard,
        p0.fresh_limit,
        *p0.safety,
        *p0.coups,
        *p0.nummiles,
        p0.mileage,
        p0.hand_total,
        p0.safety_score,
        p0.coup_score,
        p0.total,
        p0.games,
        *h1,
        p1.battle,
        p1.speed,
        p1.can_go,
        p1.fresh_hazard,
        p1.fresh_limit,
        *p1.safety,
        *p1.coups,
        *p1.nummiles,
        p1.mileage,
        p1.hand_total,
        p1.safety_score,
        p1.coup_score,
        p1.total,
        p1.games,
        tag,
    )


def compact_values(line: bytes) -> list[int] | None:
    """The ``obs`` integers of a compact ``decide`` line as mille writes it (None: not in that exact form)."""
    if not line.startswith(_COMPACT_PREFIX):
        return None
    end = line.find(b"]", len(_COMPACT_PREFIX))
    if end < 0:
        return None
    body = line[len(_COMPACT_PREFIX) - 1 : end + 1]
    if body.translate(None, b"0123456789,-") != b"[]":  # integers only
        return None
    try:
        values: list[int] = _scan_once(body.decode("ascii"), 0)[0]  # the C scanner: faster than int() on each
    except (StopIteration, ValueError):
        return None
    return values


#: The C JSON scanner itself, without ``json.loads``' layers (called at every decision).
_scan_once: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _tableau_from_compact(v: list[int], at: int) -> Tableau:
    t = _new_tableau(Tableau)
    t.hand = v[at : at + 7]
    t.battle = v[at + 7]
    t.speed = v[at + 8]
    t.can_go = v[at + 9] != 0
    t.fresh_hazard = v[at + 10] != 0
    t.fresh_limit = v[at + 11] != 0
    t.safety = v[at + 12 : at + 16]
    t.coups = [c != 0 for c in v[at + 16 : at + 20]]
    t.nummiles = v[at + 20 : at + 25]
    t.mileage = v[at + 25]
    t.hand_total = v[at + 26]
    t.safety_score = v[at + 27]
    t.coup_score = v[at + 28]
    t.total = v[at + 29]
    t.games = v[at + 30]
    return t


def observation_from_compact(values: object) -> Observation:
    """The :class:`Observation` a compact ``obs`` array (parsed as JSON) stands for; :class:`WireError` if none."""
    if type(values) is not list or any(type(x) is not int for x in values):
        raise WireError(f"a compact observation is a list of {COMPACT_SIZE} integers")
    return observation_from_ints(values)


def _compact_bounds(name: str) -> tuple[int, int]:
    """The range of the compact array's field ``name`` (:data:`COMPACT_FIELDS`), as the JSON form's."""
    field = name.rsplit(".", 1)[-1].split("[", 1)[0]
    if field in ("seat", "to_move", "hand_starter", "order", "can_go", "fresh_hazard", "fresh_limit", "coups"):
        return (0, 1)
    named = {
        "phase": (0, len(PHASE_NAMES) - 1),
        "opponent_hand_size": HAND,
        "deck_count": COUNT,
        "trip_length": MILES,
        "pending_extension": (-1, SLOT[1]),
        "num_gos": GOS,
        "num_seen": COUNT,
        "nummiles": COUNT,
        "safety": SAFETY,
        "mileage": MILES,
    }
    if field in ("hand", "battle", "speed", "discard"):
        return CARD
    return named.get(field, SCORE)  # hand_total, safety_score, coup_score, total, games


#: The lowest and the highest value of each of the compact array's integers, index by index.
_COMPACT_LOW = tuple(_compact_bounds(name)[0] for name in COMPACT_FIELDS)
_COMPACT_HIGH = tuple(_compact_bounds(name)[1] for name in COMPACT_FIELDS)


def _struct_code(low: int, high: int) -> str:
    """The narrowest :mod:`struct` code whose range holds ``low`` to ``high``."""
    for code, (lo, hi) in (("B", (0, 255)), ("b", (-128, 127)), ("H", (0, 65535)), ("h", (-32768, 32767))):
        if lo <= low and high <= hi:
            return code
    return "I" if low >= 0 and high <= 2**32 - 1 else "q"


#: The compact array packed field by field in the narrowest C type of its range: one C call that refuses a value
#: below its field's type (a count below zero) or far above it (a mileage of 10**15) (:func:`check_ints_roughly`).
_COMPACT_TYPES = struct.Struct("<" + "".join(map(_struct_code, _COMPACT_LOW, _COMPACT_HIGH)))


def check_ints(v: list[int]) -> None:
    """:class:`WireError` naming the first of the compact array's integers outside its field's range, if one is."""
    if len(v) != COMPACT_SIZE:
        raise WireError(f"a compact observation is a list of {COMPACT_SIZE} integers, not {len(v)}")
    if not (all(map(_le, _COMPACT_LOW, v)) and all(map(_le, v, _COMPACT_HIGH))):
        at = next(i for i, x in enumerate(v) if not _COMPACT_LOW[i] <= x <= _COMPACT_HIGH[i])
        raise _out_of_range(COMPACT_FIELDS[at], v[at], (_COMPACT_LOW[at], _COMPACT_HIGH[at]))


def check_ints_roughly(v: list[int]) -> None:
    """What a bot of mille's own checks of the host that started it at every decision (``python -m mille.bot``).

    Each integer within its field's C type (a third of :func:`check_ints`'
    cost, which is a tenth of a decision's): nothing below zero where no
    field may be, nothing huge to make a player loop.  A value within its
    type but not its field's range (a card of 99) can only make the player
    fail: the bot then asks :func:`check_ints`, which names the field
    (:mod:`mille.players.serve`).  A guest at a person's table is no bot:
    its views are checked whole (docs/people.md).
    """
    if len(v) != COMPACT_SIZE:
        raise WireError(f"a compact observation is a list of {COMPACT_SIZE} integers, not {len(v)}")
    try:
        _COMPACT_TYPES.pack(*v)
    except struct.error:
        check_ints(v)  # names the field
        raise WireError("a compact observation's integers do not fit their fields") from None


def observation_from_ints(v: list[int], check: Callable[[list[int]], None] = check_ints) -> Observation:
    """The :class:`Observation` of :func:`compact_values`' integers; :class:`WireError` if they are not one.

    Each integer is checked against its field's range (:func:`check_ints`:
    C's loops over two tuples made once; or ``check``, a bot's own rougher
    one, :func:`check_ints_roughly`: this is every decision's cost).
    """
    check(v)
    seat, phase, to_move, starter = v[0], v[1], v[2], v[7]
    obs = _new_observation(Observation)
    obs.seat = seat
    if not 0 <= phase < len(_PHASE_BY_CODE):  # past a rough check: the whole one names the field
        check_ints(v)
    obs.phase = _PHASE_BY_CODE[phase]
    obs.to_move = to_move
    obs.players = (_tableau_from_compact(v, _PLAYERS_AT), _tableau_from_compact(v, _PLAYERS_AT + _TABLEAU_SIZE))
    obs.opponent_hand_size = v[3]
    obs.discard = v[4]
    obs.deck_count = v[5]
    obs.trip_length = v[6]
    obs.hand_starter = starter
    obs.order = v[8] != 0
    obs.pending_extension = None if v[9] < 0 else v[9]
    obs.memory = Memory(v[11 : 11 + cards.NUM_CODES] + _PADDING, v[10])
    obs.table = TWO  # protocol 1's compact array is the table of two
    obs._hand_sizes = None
    return obs


def moves_from_mask(mask: int) -> list[Move]:
    """The legal moves a compact ``decide``'s mask names, in the engine's order."""
    return [move for move in _MASK_ORDER if mask & MOVE_BITS[move]]


# --------------------------------------------------------------------------
# Answers: a bot's ``move`` line, as mille's own bots write it, known whole

_MASK_ORDER: tuple[Move, ...] = (
    DRAW,
    *(m for pair in zip(PLAYS, DISCARDS) for m in pair),
    EXTEND,
    NO_EXTENSION,
)


def move_line(move: Move, considered: bool | None) -> bytes:
    """The ``move`` message for ``move`` (from a table made once: a bot writes one at every decision)."""
    line = _LINES_BY_ID.get((id(move), considered))
    return _MOVE_LINES[move, considered] if line is None else line


def move_line_2(move: Move, considered: bool | None) -> bytes:
    """The ``move`` message of protocol 2: :func:`move_line`'s, with the ``target`` of a hazard aimed at a side."""
    if move.target is None:
        return move_line(move, considered)
    message: dict[str, object] = {"type": "move", "move": move_json_2(move)}
    if considered is not None:
        message["considered"] = considered
    return encode(message)


def known_answer(line: bytes) -> tuple[Move, bool | None] | None:
    """The move and ``considered`` of ``line`` if it is a ``move`` exactly as :func:`move_line` writes one."""
    return _ANSWERS.get(line)


def _move_line(move: Move, considered: bool | None) -> bytes:
    message: dict[str, object] = {"type": "move", "move": move_json(move)}
    if considered is not None:
        message["considered"] = considered
    return encode(message)


_MOVE_LINES: dict[tuple[Move, bool | None], bytes] = {
    (move, considered): _move_line(move, considered) for move in _MASK_ORDER for considered in (True, False, None)
}
_LINES_BY_ID = {(id(move), considered): line for (move, considered), line in _MOVE_LINES.items()}
#: The lines without their newline (how the host's reader hands them over).
_ANSWERS: dict[bytes, tuple[Move, bool | None]] = {line[:-1]: key for key, line in _MOVE_LINES.items()}


# --------------------------------------------------------------------------
# Games in flight (opt-in: ``"games": K`` in the hello)

#: The hello's opt-in: the bot plays up to this many games at once, each message tagged with its game.
GAMES = "games"
#: The key of a message's game tag (the last key of the object; an integer).
TAG = "tag"
#: The most games in flight a hello may offer (more is taken as this many).
MAX_GAMES = 1024
#: Opt-ins honoured with games in flight: ``"events": false`` (the bot's players have no ear for
#: the moves made: no ``event`` is sent), ``"legal": false`` (it finds the legal moves itself: a
#: ``decide`` comes without them, and an illegal answer is refused by the rules).
EVENTS = "events"
LEGAL = "legal"
_LEGAL_CUT = b',"legal":'


def without_legal(line: bytes) -> bytes:
    """A compact ``decide`` line without its ``legal`` mask (the hello said ``"legal": false``)."""
    return line[: line.rindex(_LEGAL_CUT)] + b"}\n"


_TAG_SUFFIX = b',"tag":'


def tagged(line: bytes, tag: int) -> bytes:
    """``line`` (one message, a JSON object ending ``}\n``) with ``"tag": tag`` as its last key."""
    return b'%s,"tag":%d}\n' % (line[:-2], tag)


def untag(line: bytes) -> tuple[bytes, int | None]:
    """``line`` (without its newline) and its tag, the ``"tag"`` key written last as :func:`tagged` writes it.

    (line, None) if the line does not end so; such a line is read whole
    (:func:`read_message`) to find its tag, if it has one.
    """
    at = line.rfind(_TAG_SUFFIX)
    if at < 0 or not line.endswith(b"}"):
        return line, None
    digits = line[at + len(_TAG_SUFFIX) : -1]
    if not digits.isdigit() or len(digits) > 9:
        return line, None
    return line[:at] + b"}", int(digits)


# --------------------------------------------------------------------------
# What happens at the table


def event_line(event: Event) -> bytes:
    """The ``event`` message for ``event`` (written out by hand: one goes to each bot for every move)."""
    return _EVENT_LINES[event.kind] % (event.seat, event.card)


#: The event line's template by the move's kind, indexed by its value (an enum hashes in Python).
_EVENT_LINES: list[bytes] = [
    b'{"type":"event","seat":%%d,"kind":"%s","card":%%d}\n' % KIND_NAMES[kind].encode() for kind in sorted(KIND_NAMES)
]


def event_from_json(message: dict[str, object]) -> Event:
    """The :class:`Event` of a protocol-1 ``event`` (a hazard's ``target``, the other seat's side, implied)."""
    try:
        seat, kind, card = _seat(message["seat"]), KINDS[_str(message["kind"])], _int(message["card"], CARD, "card")
        if kind is MoveType.PLAY and card in _HAZARD_CARDS:
            return Event(seat, kind, card, 1 - seat)
        return Event(seat, kind, card)
    except (KeyError, TypeError) as exc:
        raise WireError(f"not an event ({type(exc).__name__}: {exc})") from None


def event_line_2(event: Event, sides: int) -> bytes:
    """The ``event`` message of protocol 2: protocol 1's with the mover's ``side`` after its ``seat``.

    A hazard played says the side it went to (``target``), as the table sees it.
    """
    if event.target is not None:
        return _HAZARD_LINE_2 % (event.seat, event.seat % sides, event.card, event.target)
    return _EVENT_LINES_2[event.kind] % (event.seat, event.seat % sides, event.card)


def event_json_2(event: Event, sides: int) -> dict[str, object]:
    """The fields of protocol 2's ``event`` (:func:`event_line_2`'s, without its ``type``), for a message of another
    kind that carries an event (the people link's ``moved``, :mod:`mille.ui.people.messages`)."""
    data: dict[str, object] = {
        "seat": event.seat,
        "side": event.seat % sides,
        "kind": KIND_NAMES[event.kind],
        "card": event.card,
    }
    if event.target is not None:
        data["target"] = event.target
    return data


_HAZARD_CARDS = cards.HAZARDS | {cards.SPEED_LIMIT}
_HAZARD_LINE_2 = b'{"type":"event","seat":%d,"side":%d,"kind":"play","card":%d,"target":%d}\n'


_EVENT_LINES_2: list[bytes] = [
    b'{"type":"event","seat":%%d,"side":%%d,"kind":"%s","card":%%d}\n' % KIND_NAMES[kind].encode()
    for kind in sorted(KIND_NAMES)
]


def event_from_json_2(message: dict[str, object], seats: int) -> Event:
    """The :class:`Event` of a protocol-2 ``event`` at a table of ``seats``; :class:`WireError` if it is none."""
    if seats not in TABLE_SEATS:
        raise WireError(f"a table has 2, 3, 4 or 6 seats, not {_value(seats)}")
    try:
        seat = _int(message["seat"], (0, seats - 1), "seat")
        target = message.get("target")
        if target is not None:
            target = _int(target, (0, make_table(seats).sides - 1), "target")
        return Event(seat, KINDS[_str(message["kind"])], _int(message["card"], CARD, "card"), target)
    except (KeyError, TypeError) as exc:
        raise WireError(f"not an event ({type(exc).__name__}: {exc})") from None


def result_json(result: HandResult) -> dict[str, object]:
    return {
        "hand_totals": list(result.hand_totals),
        "totals": list(result.totals),
        "mileage": list(result.mileage),
        "bonuses": [{name: getattr(b, name) for name in _BONUSES} for b in result.bonuses],
        "trip_length": result.trip_length,
        "starter": result.starter,
        "deck_left": result.deck_left,
        "game_over": result.game_over,
        "game_winner": result.game_winner,
    }


def result_from_json(data: object) -> HandResult:
    try:
        data = _dict(data)
        both = []
        for b in _list(data["bonuses"], 2):
            bonus = _dict(b)
            both.append(Bonuses(*(_bool(bonus[name]) for name in _BONUSES)))
        winner = data["game_winner"]
        return HandResult(
            _pair(data["hand_totals"], SCORE, "hand_totals"),
            _pair(data["totals"], SCORE, "totals"),
            _pair(data["mileage"], MILES, "mileage"),
            (both[0], both[1]),
            _int(data["trip_length"], MILES, "trip_length"),
            _seat(data["starter"]),
            _int(data["deck_left"], COUNT, "deck_left"),
            _bool(data["game_over"]),
            None if winner is None else _seat(winner),
        )
    except (KeyError, TypeError) as exc:
        raise WireError(f"not a hand's result ({type(exc).__name__}: {exc})") from None


def result_from_json_2(data: object, table: Table) -> HandResult:
    """The :class:`HandResult` of a protocol-2 ``hand_over`` at ``table`` (lists by side, the starter a seat)."""
    try:
        data = _dict(data)
        sides = table.sides
        bonuses = []
        for b in _list(data["bonuses"], sides):
            bonus = _dict(b)
            bonuses.append(Bonuses(*(_bool(bonus[name]) for name in _BONUSES)))
        winner = data["game_winner"]
        starter = _int(data["starter"], (0, table.seats - 1), "starter")
        return HandResult(
            tuple(_ints(data["hand_totals"], sides, SCORE, "hand_totals")),
            tuple(_ints(data["totals"], sides, SCORE, "totals")),
            tuple(_ints(data["mileage"], sides, MILES, "mileage")),
            tuple(bonuses),
            _int(data["trip_length"], MILES, "trip_length"),
            starter,
            _int(data["deck_left"], COUNT, "deck_left"),
            _bool(data["game_over"]),
            None if winner is None else _int(winner, (0, sides - 1), "game_winner"),
        )
    except (KeyError, TypeError) as exc:
        raise WireError(f"not a hand's result ({type(exc).__name__}: {exc})") from None


# --------------------------------------------------------------------------
# Checked fields (the bot side and a guest read the host's messages with these)


def _dict(value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        raise TypeError(f"{value!r} is not an object")
    return value


def _list(value: object, size: int) -> list[object]:
    if not isinstance(value, list) or len(value) != size:
        raise TypeError(f"{value!r} is not a list of {size}")
    return value


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not a string")
    return value


def _int(value: object, bounds: tuple[int, int], where: str, field: str = "") -> int:
    """An integer within ``bounds``; :class:`WireError` naming the field (``where.field``, or ``where``) otherwise.

    The name is put together only for the error: this is every decision's cost.
    """
    if type(value) is not int or not bounds[0] <= value <= bounds[1]:
        raise _out_of_range(f"{where}.{field}" if field else where, value, bounds)
    return value


def _bool(value: object) -> bool:
    if type(value) is not bool:
        raise TypeError(f"{value!r} is not true or false")
    return value


def _seat(value: object) -> int:
    """A seat of the table of two (protocol 1)."""
    if type(value) is not int or value not in (0, 1):
        raise TypeError(f"{_value(value)} is not a seat")
    return value


def _ints(value: object, size: int, bounds: tuple[int, int], where: str, field: str = "") -> list[int]:
    """A list of ``size`` integers within ``bounds`` (the peer's list itself, checked in C's loops: this is every
    decision's cost); :class:`WireError` naming the field as :func:`_int` does otherwise."""
    if type(value) is not list or len(value) != size:
        raise WireError(f"{f'{where}.{field}' if field else where} is {_value(value)}, not a list of {size} integers")
    if value and (not _INTS_ONLY.issuperset(map(type, value)) or min(value) < bounds[0] or max(value) > bounds[1]):
        bad = next(v for v in value if type(v) is not int or not bounds[0] <= v <= bounds[1])
        raise _out_of_range(f"an item of {f'{where}.{field}' if field else where}", bad, bounds)
    return value


def _bools(value: object, size: int) -> list[bool]:
    if type(value) is not list or len(value) != size or not _BOOLS_ONLY.issuperset(map(type, value)):
        raise TypeError(f"{_value(value)} is not a list of {size} booleans")
    return value


_BOOLS_ONLY = frozenset({bool})


def _pair(value: object, bounds: tuple[int, int], field: str) -> tuple[int, int]:
    first, second = _ints(value, 2, bounds, field)
    return first, second


__all__ = [
    "EVENTS",
    "GAMES",
    "LEGAL",
    "MAX_GAMES",
    "without_legal",
    "TAG",
    "tagged",
    "untag",
    "COMPACT",
    "COMPACT_FIELDS",
    "COMPACT_SIZE",
    "ENCODING",
    "ENCODINGS",
    "EVERY_DECISION",
    "MOVE_BITS",
    "PHASE_CODES",
    "TABLEAU_FIELDS",
    "compact_decide_line",
    "compact_values",
    "known_answer",
    "move_line",
    "move_line_2",
    "moves_from_mask",
    "observation_from_compact",
    "observation_from_ints",
    "KINDS",
    "KIND_NAMES",
    "MAX_LINE",
    "PHASES",
    "PHASE_NAMES",
    "PHASES_2",
    "PHASE_NAMES_2",
    "PROTOCOL",
    "PROTOCOL_2",
    "PROTOCOLS",
    "WireError",
    "encode",
    "event_from_json",
    "event_line",
    "event_line_2",
    "event_from_json_2",
    "excerpt",
    "greeting",
    "move_from_json",
    "move_from_json_2",
    "move_json",
    "move_json_2",
    "observation_from_json",
    "observation_from_json_2",
    "observation_json",
    "observation_json_2",
    "public_from_json",
    "public_json",
    "read_message",
    "result_from_json",
    "result_json",
    "result_from_json_2",
    "table_json",
    "tableau_from_json",
    "tableau_json",
]
