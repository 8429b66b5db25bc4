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
:class:`WireError`.
"""

from __future__ import annotations

import json

from .. import __version__
from ..engine import cards
from ..engine.driver import Event
from ..engine.observation import Observation
from ..engine.rules import DISCARDS, DRAW, EXTEND, NO_EXTENSION, ORDER, PASS, PLAYS, Move, MoveType, Phase
from ..engine.scoring import Bonuses, HandResult
from ..engine.state import Memory, Tableau

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
#: ``Memory.num_seen`` has a count more than there are cards, always 0 (as the original's table).
_PADDING = [0] * (cards.NUM_TABLE - cards.NUM_CODES)
_BONUSES = ("trip", "safe_trip", "delayed_action", "extension", "shut_out")


class WireError(ValueError):
    """A line that is not the message it should be (the text says what is wrong)."""


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


def tableau_from_json(d: dict[str, object]) -> Tableau:
    return Tableau(
        hand=_ints(d["hand"], cards.HAND_SIZE),
        battle=_int(d["battle"]),
        speed=_int(d["speed"]),
        can_go=_bool(d["can_go"]),
        fresh_hazard=_bool(d["fresh_hazard"]),
        fresh_limit=_bool(d["fresh_limit"]),
        safety=_ints(d["safety"], cards.NUM_SAFETIES),
        coups=_bools(d["coups"], cards.NUM_SAFETIES),
        nummiles=_ints(d["nummiles"], cards.NUM_MILES),
        mileage=_int(d["mileage"]),
        hand_total=_int(d["hand_total"]),
        safety_score=_int(d["safety_score"]),
        coup_score=_int(d["coup_score"]),
        total=_int(d["total"]),
        games=_int(d["games"]),
    )


def observation_json(obs: Observation) -> dict[str, object]:
    """Every field of ``obs``; ``memory.num_seen`` has one count per card code (19)."""
    players = obs.players
    memory = obs.memory
    return {
        "seat": obs.seat,
        "phase": PHASE_NAMES[obs.phase],
        "to_move": obs.to_move,
        "players": [tableau_json(players[0]), tableau_json(players[1])],
        "opponent_hand_size": obs.opponent_hand_size,
        "discard": obs.discard,
        "deck_count": obs.deck_count,
        "trip_length": obs.trip_length,
        "hand_starter": obs.hand_starter,
        "order": obs.order,
        "pending_extension": obs.pending_extension,
        "memory": {"num_seen": memory.num_seen[: cards.NUM_CODES], "num_gos": memory.num_gos},
    }


def observation_from_json(data: object) -> Observation:
    """The :class:`Observation` :func:`observation_json` made; :class:`WireError` for anything else."""
    try:
        data = _dict(data)
        players = _list(data["players"], 2)
        memory = _dict(data["memory"])
        seen = _ints(memory["num_seen"], cards.NUM_CODES) + _PADDING
        pending = data["pending_extension"]
        return Observation(
            seat=_seat(data["seat"]),
            phase=PHASES[_str(data["phase"])],
            to_move=_seat(data["to_move"]),
            players=(tableau_from_json(_dict(players[0])), tableau_from_json(_dict(players[1]))),
            opponent_hand_size=_int(data["opponent_hand_size"]),
            discard=_int(data["discard"]),
            deck_count=_int(data["deck_count"]),
            trip_length=_int(data["trip_length"]),
            hand_starter=_seat(data["hand_starter"]),
            order=_bool(data["order"]),
            pending_extension=None if pending is None else _int(pending),
            memory=Memory(seen, _int(memory["num_gos"])),
        )
    except (KeyError, TypeError) as exc:
        raise WireError(f"not an observation ({type(exc).__name__}: {exc})") from None


# --------------------------------------------------------------------------
# What happens at the table


def event_line(event: Event) -> bytes:
    """The ``event`` message for ``event`` (written out by hand: one goes to each bot for every move)."""
    return b'{"type":"event","seat":%d,"kind":"%s","card":%d}\n' % (
        event.seat,
        KIND_NAMES[event.kind].encode(),
        event.card,
    )


def event_from_json(message: dict[str, object]) -> Event:
    try:
        return Event(_seat(message["seat"]), KINDS[_str(message["kind"])], _int(message["card"]))
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
            _pair(data["hand_totals"]),
            _pair(data["totals"]),
            _pair(data["mileage"]),
            (both[0], both[1]),
            _int(data["trip_length"]),
            _seat(data["starter"]),
            _int(data["deck_left"]),
            _bool(data["game_over"]),
            None if winner is None else _seat(winner),
        )
    except (KeyError, TypeError) as exc:
        raise WireError(f"not a hand's result ({type(exc).__name__}: {exc})") from None


# --------------------------------------------------------------------------
# Checked fields (the bot side reads the host's messages with these)


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


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"{value!r} is not an integer")
    return value


def _bool(value: object) -> bool:
    if type(value) is not bool:
        raise TypeError(f"{value!r} is not true or false")
    return value


def _seat(value: object) -> int:
    if value not in (0, 1) or type(value) is not int:
        raise TypeError(f"{value!r} is not a seat")
    return value


def _ints(value: object, size: int) -> list[int]:
    """A list of ``size`` integers (its items are the host's, taken as they are: this is every decision's cost)."""
    if type(value) is not list or len(value) != size:
        raise TypeError(f"{value!r} is not a list of {size} integers")
    return value


def _bools(value: object, size: int) -> list[bool]:
    if type(value) is not list or len(value) != size:
        raise TypeError(f"{value!r} is not a list of {size} booleans")
    return value


def _pair(value: object) -> tuple[int, int]:
    first, second = _ints(value, 2)
    return first, second


__all__ = [
    "KINDS",
    "KIND_NAMES",
    "MAX_LINE",
    "PHASES",
    "PHASE_NAMES",
    "PROTOCOL",
    "WireError",
    "encode",
    "event_from_json",
    "event_line",
    "excerpt",
    "greeting",
    "move_from_json",
    "move_json",
    "observation_from_json",
    "observation_json",
    "read_message",
    "result_from_json",
    "result_json",
    "tableau_from_json",
    "tableau_json",
]
