"""Game records (``--record FILE``): every move of every game, as JSON lines, written and read back.

``python -m mille.match`` and ``python -m mille.tournament`` with
``--record FILE`` write each game they play, move by move, for the bot
writer to look at afterwards (``python -m mille.replay``, :mod:`mille.lab.replay`).
The format (``docs/bots.md``, "Game records"):

* the first line, the header: ``{"format": "mille game record", "version":
  1, "mille": VERSION, "tool": "mille.match" or "mille.tournament", ...}``
  with the arguments that decide the games;
* then one line per game: the match it belongs to (``a``, ``b``, the match
  ``seed``, ``game_points``, ``max_think_ms``), which game it is (``pair``
  and ``game``, 1-based as in the reports, ``second`` for the seat-swapped
  one), who sat where (``seats``, ``a_seat``), its ``hands``, each with the
  seat that started it, the seed its deck was shuffled with, every move of
  both seats and its result, then the ``winner`` and the ``forfeit`` if a
  player forfeited.

A move is a short list, seat first: ``[seat, "draw", card]`` (or two cards
when the draw filled slot 1 as well), ``[seat, "play", slot, card]``,
``[seat, "discard", slot, card]``, ``[seat, "extend"]``, ``[seat,
"no_extension"]``, ``[seat, "pass"]``; cards are the codes of
:mod:`mille.engine.cards`, slots 0 (the P slot) to 6.  The deals are not
written: they come from the match seed (:func:`mille.lab.play.deal_seed`,
:func:`~mille.lab.play.deal_hand`), so a game can be replayed exactly.

The moves are taken down in the worker that plays the game
(:class:`MoveRecorder`, an observer of the hand driver) and sent back with
the pair; :class:`RecordWriter` appends each game in one write
(:class:`mille.files.safeio.AppendOnly`), so every line is whole.
:func:`read_record` reads a file back as the untrusted input it is: every
line is checked (types, sizes, nesting) and a bad one is refused in one
line naming it (:class:`RecordError`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine import cards
from ..engine.driver import MAX_MOVES_PER_HAND
from ..engine.rules import Move, MoveType, Outcome
from ..engine.scoring import HandResult
from ..engine.state import Game, Seat
from ..files.safeio import AppendOnly, open_regular, shown
from .records import GameRecord, HandLog, MatchConfig, side_of

#: The header's ``format`` and ``version``.
FORMAT = "mille game record"
FORMAT_VERSION = 1

#: A line longer than this is refused unread (a real game's line is about 10 kB).
MAX_LINE = 16 << 20
#: Hands in a game, moves in a hand, characters in a name or a message: more is not a record.
MAX_HANDS = 1000
MAX_MOVES = 3 * MAX_MOVES_PER_HAND
MAX_TEXT = 10_000

#: A move's kind as written, for each kind a player can make (the Order toggle never is one).
KIND_NAMES = {
    MoveType.DRAW: "draw",
    MoveType.PLAY: "play",
    MoveType.DISCARD: "discard",
    MoveType.EXTEND: "extend",
    MoveType.NO_EXTENSION: "no_extension",
    MoveType.PASS: "pass",
}
KINDS = {name: kind for kind, name in KIND_NAMES.items()}


class RecordError(RuntimeError):
    """A record file that cannot be written or read: one line saying why (and where)."""


# --------------------------------------------------------------------------
# Taking the moves down


class MoveRecorder:
    """Watches a game's hands being played (an observer of :func:`mille.engine.driver.play_hand`).

    :meth:`start_hand` before each hand, the driver's ``before_move`` and
    ``after_move`` during it, :meth:`end_hand` with its result; ``hands``
    is then the game's hands as written in a record.  A hand a forfeit
    stopped keeps the moves made before it, and no result.
    """

    __slots__ = ("_deck", "_hand", "_moves", "hands")

    def __init__(self) -> None:
        self.hands: list[HandLog] = []
        self._moves: list[list[Any]] = []
        self._hand: list[int] = []
        self._deck = 0

    def start_hand(self, starter: Seat, deal_seed: int) -> None:
        self._moves = []
        self.hands.append({"starter": starter, "deal_seed": deal_seed, "moves": self._moves, "result": None})

    def before_move(self, game: Game) -> None:
        self._hand = game.players[game.to_move].hand[:]
        self._deck = game.deck_count

    def after_move(self, game: Game, seat: Seat, move: Move, outcome: Outcome) -> None:
        kind = move.kind
        if kind is MoveType.DRAW:
            # Drawn from the top (the high end) of the deck: the first card drawn is the highest.
            self._moves.append([seat, "draw", *reversed(game.deck[game.deck_count : self._deck])])
        elif kind is MoveType.PLAY or kind is MoveType.DISCARD:
            entry = [seat, KIND_NAMES[kind], move.slot, self._hand[move.slot]]
            if move.target is not None:  # three sides: the side the hazard went to (never at two seats)
                entry.append(move.target)
            self._moves.append(entry)
        else:
            self._moves.append([seat, KIND_NAMES[kind]])

    def end_hand(self, result: HandResult) -> None:
        self.hands[-1]["result"] = hand_result_json(result)


def hand_result_json(result: HandResult) -> dict[str, Any]:
    """A hand's result as written (by seat): points this hand, game totals after it, miles, the trip."""
    return {
        "hand_totals": list(result.hand_totals),
        "totals": list(result.totals),
        "mileage": list(result.mileage),
        "trip": result.trip_length,
    }


def game_line(config: MatchConfig, game: GameRecord, hands: list[HandLog]) -> dict[str, Any]:
    """A game of the match ``config`` as a record's line, with its ``hands`` (docs/bots.md, "Game records").

    Each table writes the line it has always written: at two seats the
    pair's game from A's side, at the larger tables the set's rotation with
    the player of each side.
    """
    if config.seats != 2:
        return _table_line(config, game, hands)
    a, b = config.a, config.b
    names = (a, b)
    fault = game.fault
    forfeit = None
    if fault is not None:
        forfeit = {
            "player": "ab"[fault.player],
            "seat": game.a_seat if fault.player == 0 else 1 - game.a_seat,
            "hand": fault.hand + 1,
            "kind": fault.kind,
            "message": fault.message,
        }
    return {
        "a": a,
        "b": b,
        "seed": config.seed,
        "game_points": config.game_points,
        "max_think_ms": config.max_think_ms,
        "pair": game.pair + 1,
        "game": game.index + 1,
        "second": game.second,
        "a_seat": game.a_seat,
        "seats": [names[0] if game.a_seat == seat else names[1] for seat in (0, 1)],
        "hands": hands,
        "winner": None if game.winner is None else "ab"[game.winner],
        "forfeit": forfeit,
    }


def _table_line(config: MatchConfig, game: GameRecord, hands: list[HandLog]) -> dict[str, Any]:
    """A game of a larger table: who played which side, every move."""
    players = config.players
    sides = len(players)
    by_side = [""] * sides
    for p in range(sides):
        by_side[side_of(p, game.rotation, sides)] = players[p]
    fault = game.fault
    forfeit = None if fault is None else {"player": players[fault.player], "kind": fault.kind, "message": fault.message}
    return {
        "seats": config.seats,
        "seed": config.seed,
        "game_points": config.game_points,
        "max_think_ms": config.max_think_ms,
        "set": game.unit + 1,
        "rotation": game.rotation + 1,
        "sides": by_side,
        "hands": hands,
        "winners": [players[p] for p in game.winners],
        "forfeit": forfeit,
    }


def header(tool: str, **arguments: Any) -> dict[str, Any]:
    """A record's first line: the format, the program, the tool and the arguments that decide its games."""
    return {"format": FORMAT, "version": FORMAT_VERSION, "mille": __version__, "tool": tool, **arguments}


def _line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, separators=(",", ":")) + "\n").encode()


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


class RecordWriter:
    """Appends games to a new record file, each line in one write (whole, whatever happens to the process).

    The file must not exist (a record is never overwritten nor mixed with
    another run's).  Lines are written at once and fsynced at :meth:`close`.
    """

    def __init__(self, path: Path, first: dict[str, Any]) -> None:
        self.name = shown(os.fspath(path))
        try:
            self._file = AppendOnly.create(os.fspath(path), _line(first), shared=False)
        except FileExistsError:
            raise RecordError(f"--record {self.name}: the file exists (a record is never overwritten)") from None
        except OSError as exc:
            raise RecordError(f"--record {self.name}: cannot create it: {_why(exc)}") from None

    def write(self, line: dict[str, Any]) -> None:
        try:
            self._file.append(_line(line), sync=False)
        except OSError as exc:
            raise RecordError(f"cannot write {self.name}: {_why(exc)}") from None

    def close(self) -> None:
        try:
            self._file.close()
        except OSError as exc:
            raise RecordError(f"cannot write {self.name}: {_why(exc)}") from None


# --------------------------------------------------------------------------
# Reading a record back (untrusted)


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """One game line of a record, checked (:func:`parse_game`)."""

    line: int  # its line number in the file
    a: str
    b: str
    seed: int
    game_points: int
    pair: int  # 1-based
    game: int  # 1-based, within its match
    second: bool
    a_seat: int
    seats: tuple[str, str]
    hands: tuple[HandLog, ...]
    winner: str | None  # "a", "b" or None
    forfeit: dict[str, Any] | None


def _is_int(value: object, low: int | None = None, high: int | None = None) -> bool:
    return type(value) is int and (low is None or value >= low) and (high is None or value <= high)


def _is_text(value: object) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT


def _check_move(move: object) -> str | None:
    """What is wrong with one written move (None: nothing); whether it is legal is the replay's to say."""
    if (
        not isinstance(move, list)
        or len(move) < 2
        or not _is_int(move[0], 0, 1)
        or not isinstance(move[1], str)
        or move[1] not in KINDS
    ):
        return "a move is [seat, kind, ...] with seat 0 or 1 and a known kind"
    kind = KINDS[move[1]]
    rest = move[2:]
    if kind is MoveType.DRAW:
        ok = len(rest) in (1, 2) and all(_is_int(c, 0, cards.NUM_CODES - 1) for c in rest)
    elif kind is MoveType.PLAY or kind is MoveType.DISCARD:
        ok = len(rest) == 2 and _is_int(rest[0], 0, cards.HAND_SIZE - 1) and _is_int(rest[1], 0, cards.NUM_CODES - 1)
    else:
        ok = not rest
    return None if ok else f"a bad {move[1]} move"


def _pair_of_ints(value: object, low: int, high: int) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_is_int(v, low, high) for v in value)


def _check_hand(hand: object) -> str | None:
    if not isinstance(hand, dict) or set(hand) != {"starter", "deal_seed", "moves", "result"}:
        return "a hand has exactly the fields deal_seed, moves, result and starter"
    if not _is_int(hand["starter"], 0, 1) or not _is_int(hand["deal_seed"], 0, 2**128 - 1):
        return "a hand's starter is 0 or 1 and its deal_seed a number of at most 128 bits"
    moves = hand["moves"]
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        return f"a hand's moves are a list of at most {MAX_MOVES}"
    for move in moves:
        problem = _check_move(move)
        if problem is not None:
            return problem
    result = hand["result"]
    if result is None:
        return None
    if (
        not isinstance(result, dict)
        or set(result) != {"hand_totals", "totals", "mileage", "trip"}
        or not _pair_of_ints(result["hand_totals"], -(10**6), 10**6)
        or not _pair_of_ints(result["totals"], -(10**9), 10**9)
        or not _pair_of_ints(result["mileage"], 0, 10**4)
        or not _is_int(result["trip"], 0, 10**4)
    ):
        return "a hand's result has hand_totals, totals and mileage (two integers each) and trip"
    return None


GAME_FIELDS = frozenset(
    {"a", "b", "seed", "game_points", "max_think_ms", "pair", "game", "second", "a_seat", "seats", "hands"}
    | {"winner", "forfeit"}
)


def parse_game(number: int, data: object) -> RecordedGame:
    """The game of line ``number``, checked; :class:`RecordError` ``line N: ...`` for anything else."""

    def bad(why: str) -> RecordError:
        return RecordError(f"line {number}: {why}")

    if not isinstance(data, dict) or set(data) != GAME_FIELDS:
        raise bad(f"a game has exactly the fields {', '.join(sorted(GAME_FIELDS))}")
    if not all(_is_text(data[k]) for k in ("a", "b")):
        raise bad(f"the players are names of at most {MAX_TEXT} characters")
    if not _is_int(data["seed"]) or not _is_int(data["game_points"], 1, 10**9):
        raise bad("seed and game_points are integers (game_points at least 1)")
    think = data["max_think_ms"]
    if think is not None and (type(think) not in (int, float) or not think > 0):
        raise bad("max_think_ms is null or a positive number")
    if not _is_int(data["pair"], 1) or not _is_int(data["game"], 1) or type(data["second"]) is not bool:
        raise bad("pair and game are positive integers, second true or false")
    if data["game"] != 2 * data["pair"] - 1 + data["second"]:
        raise bad(f"game {data['game']} is not the {'second' if data['second'] else 'first'} of pair {data['pair']}")
    seats = data["seats"]
    if not _is_int(data["a_seat"], 0, 1) or not isinstance(seats, list) or len(seats) != 2:
        raise bad("a_seat is 0 or 1 and seats two names")
    a_seat = data["a_seat"]
    if seats[a_seat] != data["a"] or seats[1 - a_seat] != data["b"]:
        raise bad("seats do not put a in a_seat and b in the other")
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) > MAX_HANDS:
        raise bad(f"hands are a list of at most {MAX_HANDS}")
    for k, hand in enumerate(hands, start=1):
        problem = _check_hand(hand)
        if problem is not None:
            raise bad(f"hand {k}: {problem}")
    winner = data["winner"]
    if winner not in ("a", "b", None):
        raise bad('winner is "a", "b" or null')
    forfeit = data["forfeit"]
    if forfeit is not None:
        if (
            not isinstance(forfeit, dict)
            or set(forfeit) != {"player", "seat", "hand", "kind", "message"}
            or forfeit["player"] not in ("a", "b")
            or not _is_int(forfeit["seat"], 0, 1)
            or not _is_int(forfeit["hand"], 0, MAX_HANDS)
            or not _is_text(forfeit["kind"])
            or not _is_text(forfeit["message"])
        ):
            raise bad("a forfeit has player (a or b), seat, hand, kind and message")
    return RecordedGame(
        number,
        data["a"],
        data["b"],
        data["seed"],
        data["game_points"],
        data["pair"],
        data["game"],
        data["second"],
        a_seat,
        (seats[0], seats[1]),
        tuple(hands),
        winner,
        forfeit,
    )


def _decode(number: int, line: bytes) -> object:
    try:
        return json.loads(line)
    except RecursionError:
        raise RecordError(f"line {number}: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError; so is a 5000-digit number
        raise RecordError(f"line {number}: not JSON ({exc})") from None


def _lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """The lines of ``path`` (number, bytes, whether it ended with a newline), each at most :data:`MAX_LINE`.

    A FIFO, a device or a directory is refused, never waited on (:func:`~mille.files.safeio.open_regular`).
    """
    try:
        fd, _ = open_regular(os.fspath(path))
    except OSError as exc:
        raise RecordError(f"cannot read {shown(os.fspath(path))}: {_why(exc)}") from None
    with os.fdopen(fd, "rb") as f:
        number = 0
        while True:
            try:
                line = f.readline(MAX_LINE + 1)
            except OSError as exc:
                raise RecordError(f"cannot read {shown(os.fspath(path))}: {_why(exc)}") from None
            if not line:
                return
            number += 1
            if len(line) > MAX_LINE:
                raise RecordError(f"line {number}: longer than {MAX_LINE} bytes")
            ended = line.endswith(b"\n")
            yield number, line, ended


def check_header(data: object) -> dict[str, Any]:
    """The header line, checked: a record of a format this program reads."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("line 1: not a mille game record")
    if data.get("version") != FORMAT_VERSION:
        raise RecordError(f"line 1: a game record of format version {data.get('version')!r}, not {FORMAT_VERSION}")
    if not all(isinstance(k, str) and len(k) <= 100 for k in data) or len(data) > 100:
        raise RecordError("line 1: a damaged header")
    return data


def read_record(path: Path) -> tuple[dict[str, Any], Iterator[RecordedGame], list[str]]:
    """The record's header, its games one by one (each checked as it is read), and notes on it.

    The games are read lazily, so a record of any length is read in
    constant memory; a damaged line raises :class:`RecordError` when it is
    reached.  A last line without its newline (the machine went down in
    the middle of writing it) is left out, with a note.
    """
    lines = _lines(path)
    first = next(lines, None)
    if first is None:
        raise RecordError(f"{shown(os.fspath(path))} is empty: not a mille game record")
    head = check_header(_decode(1, first[1]))
    notes: list[str] = []

    def games() -> Iterator[RecordedGame]:
        for number, line, ended in lines:
            if not ended:
                notes.append(f"line {number} is cut short (no newline at the end of the file): left out")
                return
            yield parse_game(number, _decode(number, line))

    return head, games(), notes


def read_table_record(path: Path) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """A larger table's record: its header and its game lines (numbered), each as JSON.

    Each line is checked as it is replayed (:func:`mille.lab.replay.check_table_game`).
    """
    lines = _lines(path)
    first = next(lines, None)
    if first is None:
        raise RecordError(f"{shown(str(path))} is empty: not a mille game record")
    head = check_header(_decode(1, first[1]))
    games = []
    for number, text, ended in lines:
        if not ended:
            break
        data = _decode(number, text)
        if not isinstance(data, dict):
            raise RecordError(f"line {number}: not a game")
        games.append((number, data))
    return head, games


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "KINDS",
    "KIND_NAMES",
    "MAX_HANDS",
    "MAX_LINE",
    "MAX_MOVES",
    "MoveRecorder",
    "RecordError",
    "RecordWriter",
    "RecordedGame",
    "check_header",
    "game_line",
    "hand_result_json",
    "header",
    "parse_game",
    "read_record",
    "read_table_record",
]
