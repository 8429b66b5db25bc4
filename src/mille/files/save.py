"""Saved games: a versioned, human-readable JSON format, validated on load.

The file holds what 4.4BSD mille's save holds (its §10.3 memory snapshot,
minus the display caches and the debug flag): the deck array and count, the
discard, both players' tableaux, the trip length, whose move it is, who
started the hand, the Order and Window settings, and the card counting.
Like the original it does not hold the computer's ``num_need`` estimates or
the random generator.  Version 2 (written now) adds what the engine now
keeps: each seat's own counting, the ``Extension?`` question as the game
holds it (the slot of the card waiting at 700), and which computer player
the game is against.  Version 3 holds any table (``table-rules.md`` R1:
2, 3, 4 or 6 seats): the table's parameters, every seat's hand and
counting, every side's tableau, the coup fourré asked out of turn and the
side that called the Extension; a game at the original's two-seat table is
still written as version 2, so that an earlier mille reads it.  Version-1
and version-2 files still load (:func:`from_dict`).
``docs/save-format.md`` describes every field of all three.

Loading trusts nothing: the size is limited, the text must be UTF-8 JSON
without duplicate keys or non-numbers, every field must be present with the
right type and range, and the position must be one the game can reach (the
deck array is a permutation of the 101 cards, every card on the table was
dealt, the scores add up, ...).  Every failure is a :class:`SaveError` with a
one-line message.  Writing is atomic: a temporary file beside the target,
flushed and synced, then renamed over it.
"""

from __future__ import annotations

import codecs
import errno
import json
import os
import re
import stat
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, NoReturn

from ..engine import cards, position
from ..engine.cards import BY_NAME, EMPTY, NAMES
from ..engine.rng import GlibcRandom
from ..engine.state import (
    EXTENDED_TRIP,
    GAME_POINTS,
    SEATS,
    TABLE_SEATS,
    TRIP,
    TWO,
    Game,
    Memory,
    SafetyStatus,
    Table,
    Tableau,
    table,
)
from ..players import OPPONENTS, is_exec_spec, is_person_spec
from .safeio import TooLarge, read_regular, replace_file
from .safeio import write_new as write_new  # where callers and tests have known it

FORMAT = "bsd-mille-save"
VERSION = 2
#: The version written for a table other than the original's two seats.
TABLE_VERSION = 3
#: Versions this program reads.
READABLE_VERSIONS = (1, 2, 3)
#: Largest file :func:`read_game` accepts (a real save is about 3 KiB).
MAX_SIZE = 64 * 1024
#: Deepest nesting of arrays and objects accepted (a real save has 4).
MAX_DEPTH = 16

_SAFETY_NAMES = NAMES[cards.SAFETY_BASE :]
_MILES_NAMES = NAMES[: cards.NUM_MILES]
#: Most games won a file may record: the original's ``int`` (its score
#: window prints the count with ``%4d``, so a fifth digit pushes the field
#: one column right there as here).  The writer records at most this many
#: (:func:`_player_dict`), so that a file this program writes always loads.
MAX_GAMES = 2**31 - 1
_PLAYER_NAMES = ("players[0]", "players[1]")
#: What Game() would get (srandom(1)); copied, because seeding a new one is slow.
_NEW_RNG = GlibcRandom()

_TOP_FIELDS_V1 = (
    "format",
    "version",
    "finished",
    "order",
    "end",
    "on_exit",
    "pending_extension",
    "handstart",
    "numgos",
    "numseen",
    "play",
    "window",
    "deck",
    "deck_count",
    "discard",
    "players",
)
_TOP_FIELDS = (
    "format",
    "version",
    "computer",
    "finished",
    "order",
    "trip_length",
    "pending_extension",
    "hand_starter",
    "to_move",
    "window",
    "deck",
    "deck_count",
    "discard",
    "players",
    "memory",
)
_TOP_FIELDS_V3 = (*_TOP_FIELDS[:2], "table", *_TOP_FIELDS[2:], "reaction", "extender")
_TABLE_FIELDS = ("seats", "game_points", "parker")
_MEMORY_FIELDS = ("num_seen", "num_gos")
_PLAYER_FIELDS_V1 = (
    "hand",
    "battle",
    "speed",
    "can_go",
    "new_battle",
    "new_speed",
    "safety",
    "coups",
    "nummiles",
    "mileage",
    "hand_tot",
    "safescore",
    "coupscore",
    "total",
    "games",
)
#: A player's fields, as the engine's :class:`~mille.engine.state.Tableau` names
#: them (version 2 took the engine's names; ``docs/save-format.md`` and the
#: tests pin the list, so a renamed slot cannot change the format unnoticed).
PLAYER_FIELDS: tuple[str, ...] = Tableau.__slots__
#: Version-1 names of the player fields (version 2 renamed five of them).
_V1_PLAYER_NAMES = dict(zip(PLAYER_FIELDS, _PLAYER_FIELDS_V1))


class SaveError(Exception):
    """A save file that cannot be loaded; the message is one line."""


#: The seats as the file format knows them: the original saved a game of
#: its human (seat 0, ``PLAYER``) against its computer (seat 1, ``COMP``).
_PERSON, _COMPUTER = SEATS


@dataclass
class SavedGame:
    """What a save holds: the game, and the front end's settings saved beside it.

    The one value a save, a hangup file, a crash file and a game read back
    travel as (never a loose ``(game, window, computer)``): ``window`` is
    the score window's layout (0 small, 1 full: the front end's
    :class:`~mille.ui.layout.ScoreView`), ``computer`` the name of the
    player in the computer's seat, ``version`` the format version it was
    read from (a game being written is always the current one).
    """

    game: Game
    window: int = 0
    computer: str = "bsd"
    version: int = VERSION


def _saved(what: SavedGame | Game) -> SavedGame:
    """``what`` as a :class:`SavedGame`: a bare game is one with the defaults (the small window, ``bsd``)."""
    return what if isinstance(what, SavedGame) else SavedGame(what)


# --------------------------------------------------------------------------
# Writing


def _card_name(card: int) -> str | None:
    return None if card == EMPTY else NAMES[card]


def _player_dict(p: Tableau, spent: bool = False) -> dict[str, Any]:
    """One seat's tableau and hand; ``spent``: its side let a coup fourré pass (``Game.spent``), saved as the fresh
    flags it clears, which is what the game means by them (a save holds every secret of the game)."""
    return {
        "hand": [_card_name(c) for c in p.hand],
        "battle": _card_name(p.battle),
        "speed": _card_name(p.speed),
        "can_go": bool(p.can_go),
        "fresh_hazard": bool(p.fresh_hazard) and not spent,
        "fresh_limit": bool(p.fresh_limit) and not spent,
        "safety": {name: int(s) for name, s in zip(_SAFETY_NAMES, p.safety)},
        "coups": {name: bool(c) for name, c in zip(_SAFETY_NAMES, p.coups)},
        "nummiles": {name: int(n) for name, n in zip(_MILES_NAMES, p.nummiles)},
        "mileage": int(p.mileage),
        "hand_total": int(p.hand_total),
        "safety_score": int(p.safety_score),
        "coup_score": int(p.coup_score),
        "total": int(p.total),
        "games": min(int(p.games), MAX_GAMES),
    }


def to_dict(saved: SavedGame | Game) -> dict[str, Any]:
    """The save file's contents for ``saved`` (JSON-ready: names, ints, bools).

    The game is saved as it is, the ``Extension?`` question included: the
    card that reached 700 is counted and still in the hand, and a restore
    asks the question again.
    """
    saved = _saved(saved)
    game, window, computer = saved.game, saved.window, saved.computer
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "computer": computer,
        "finished": bool(game.finished),
        "order": bool(game.order),
        "trip_length": int(game.trip_length),
        "pending_extension": game.pending_extension,
        "hand_starter": int(game.hand_starter),
        "to_move": int(game.to_move),
        "window": int(window),
        "deck": [NAMES[c] for c in game.deck],
        "deck_count": int(game.deck_count),
        "discard": _card_name(game.discard),
        "players": [_player_dict(p, bool(game.spent >> k & 1)) for k, p in enumerate(game.players)],
        "memory": [
            {
                "num_seen": {NAMES[c]: int(m.num_seen[c]) for c in range(cards.NUM_CODES)},
                "num_gos": int(m.num_gos),
            }
            for m in game.memory
        ],
    }
    tab = game.table
    if tab == TWO:
        return data
    head = {"format": FORMAT, "version": TABLE_VERSION, "computer": computer}
    head["table"] = {"seats": tab.seats, "game_points": tab.game_points, "parker": tab.parker}
    data.update(reaction=game.reaction, extender=game.extender)
    return {**head, **{k: v for k, v in data.items() if k not in head}}


_WIDTH = 100


def _pack(parts: list[str], indent: int) -> list[str]:
    """Pack ``parts`` into lines of at most ``_WIDTH`` columns."""
    lines: list[str] = []
    line = ""
    for part in parts:
        if line and indent + len(line) + len(part) + 2 > _WIDTH:
            lines.append(line + ",")
            line = part
        else:
            line = f"{line}, {part}" if line else part
    lines.append(line)
    return lines


def _format(value: Any, indent: int = 0) -> str:
    """JSON with one field per line, but short tables and card lists packed."""
    pad = " " * indent
    inner = pad + "  "
    if isinstance(value, dict):
        if all(not isinstance(v, (dict, list)) for v in value.values()):
            parts = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in value.items()]
            one = "{" + ", ".join(parts) + "}"
            if indent + len(one) <= _WIDTH:
                return one
            return "{\n" + "\n".join(inner + line for line in _pack(parts, indent + 2)) + "\n" + pad + "}"
        items = [f"{inner}{json.dumps(k)}: {_format(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            parts = [json.dumps(v) for v in value]
            one = "[" + ", ".join(parts) + "]"
            if indent + len(one) <= _WIDTH:
                return one
            return "[\n" + "\n".join(inner + line for line in _pack(parts, indent + 2)) + "\n" + pad + "]"
        items = [inner + _format(v, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value)


def dumps(saved: SavedGame | Game) -> str:
    """The text of a save file (what :func:`write_game` writes)."""
    return _format(to_dict(saved)) + "\n"


def write_game(path: str, saved: SavedGame | Game) -> None:
    """Save ``saved`` in ``path``, atomically.

    The text goes to a new temporary file in the target's directory, is
    flushed and synced, and the file is renamed over the target (then the
    directory is synced where the system allows).  The file is the saver's
    alone, mode 0600, new or replaced (the original's ``creat(name, 0644)``
    made it readable by all): every save holds a hand its reader should not
    see, the computer's, or another person's in a game adjourned with them
    (issue 43: on a home of mode 0755 the guest read the host's hand and
    the deck).  A symbolic link is followed.  On any failure the previous
    file is untouched, the temporary file is removed, and an
    :class:`OSError` (whose ``strerror`` the front end shows) is raised.
    """
    if "\x00" in path:  # typed as ^@ at the file: prompt; no system call takes it
        raise OSError(errno.EINVAL, os.strerror(errno.EINVAL), path)
    data = dumps(saved).encode("utf-8")
    target = _follow_link(path) if os.path.islink(path) else path
    try:
        st = os.stat(target)
    except FileNotFoundError:
        pass
    else:
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not stat.S_ISREG(st.st_mode):
            # A device or pipe cannot be replaced by a file in good faith.
            raise PermissionError(errno.EPERM, "Not a regular file", path)
        if not os.access(target, os.W_OK):
            # creat() would refuse a file we may not write; so do we.
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
    replace_file(target, data, 0o600)


def _follow_link(path: str) -> str:
    """The file a symbolic link at ``path`` stands for, when the game may write it.

    A link is the file it points to: the save dialog asks ``Overwrite
    file?`` about it as about any existing name (even a dangling one), and
    the file it points to is replaced, the link kept.  It is refused when it
    leads into another user's space: when the link itself, the file it
    points to or, for a dangling link, the directory that file would be made
    in belongs to someone else.  Writing through such a link could replace
    another user's file, or plant one where they expect their own (the
    classic symbolic-link trap in a shared directory such as /tmp).
    """
    real = os.path.realpath(path)
    if not hasattr(os, "geteuid"):
        return real
    me = os.geteuid()
    owners = [os.lstat(path).st_uid]
    try:
        owners.append(os.stat(real).st_uid)
    except FileNotFoundError:
        owners.append(os.stat(os.path.dirname(real) or os.curdir).st_uid)
    if any(owner != me for owner in owners):
        raise PermissionError(errno.EACCES, "Link into another user's files", path)
    return real


# --------------------------------------------------------------------------
# Reading


#: Modification times of the files read, for :func:`mtime_text`.
_read_mtimes: dict[str, float] = {}


def read_game(path: str) -> SavedGame:
    """Load and validate a save file; every failure is a one-line :class:`SaveError`."""
    data = _read_bytes(path)
    try:
        return loads(data)
    except SaveError:
        raise
    except Exception as exc:  # a validation bug must not become a traceback
        raise SaveError(f"cannot load this file ({type(exc).__name__})") from None


def loads(data: bytes | str) -> SavedGame:
    """Parse and validate the contents of a save file."""
    return from_dict(parse(data))


def _read_bytes(path: str, limit: int = MAX_SIZE) -> bytes:
    """At most ``limit`` bytes of a regular file, never blocking on a pipe (:func:`.safeio.read_regular`)."""
    try:
        data, st = read_regular(path, limit)
    except TooLarge as exc:
        raise SaveError(_too_large(exc.size, limit)) from None
    except OSError as exc:
        raise SaveError(exc.strerror or str(exc)) from None
    _read_mtimes[path] = st.st_mtime
    return data


def _too_large(size: int, limit: int) -> str:
    return f"too large for a save file ({size} bytes or more; the limit is {limit})"


_SPECIAL = re.compile(r'[\\"\[\]{}]')


def _nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest (brackets in strings do not count).

    One pass over the characters that matter: linear in the length of the
    text whatever it holds (a regular expression matching whole strings
    goes quadratic on an unterminated string full of escaped quotes).
    """
    depth = deepest = 0
    in_string = False
    escaped_at = -1
    for match in _SPECIAL.finditer(text):
        pos = match.start()
        if pos == escaped_at:
            continue
        ch = text[pos]
        if in_string:
            if ch == "\\":
                escaped_at = pos + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _reject_constant(name: str) -> NoReturn:
    raise SaveError(f"not valid JSON: {name} is not a number")


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise SaveError(f"duplicate field {_show(key)}")
        result[key] = value
    return result


#: Size of a save file of the original program: its variables written back
#: to back (bsd-mille.md §10.3), the same on every machine with 16-bit
#: ``short`` and 32-bit ``int``.
ORIGINAL_SAVE_SIZE = 568
ORIGINAL_SAVE_MESSAGE = "a save file of the original program (4.4BSD mille), which this mille cannot read"


def is_original_save(data: bytes) -> bool:
    """Does ``data`` have the shape of a save file written by 4.4BSD mille?

    Its layout (§10.3) opens with three one-byte flags (``Debug``,
    ``Finished``, ``Order``: 0 or 1) and then ``End``, a 32-bit integer that
    is 700 or 1000, in the machine's byte order; the whole file is 568
    bytes.  No JSON text can start that way (a flag byte 0 or 1 is a
    control character), and a random file of that size has about one
    chance in ten million of matching.
    """
    if len(data) != ORIGINAL_SAVE_SIZE or any(flag > 1 for flag in data[:3]):
        return False
    end = data[3:7]
    return int.from_bytes(end, "little") in (TRIP, EXTENDED_TRIP) or int.from_bytes(end, "big") in (
        TRIP,
        EXTENDED_TRIP,
    )


def parse(data: bytes | str) -> Any:
    """The JSON value in a save file's bytes, or :class:`SaveError`."""
    if isinstance(data, bytes):
        if len(data) > MAX_SIZE:
            raise SaveError(_too_large(len(data), MAX_SIZE))
        if is_original_save(data):
            raise SaveError(ORIGINAL_SAVE_MESSAGE)
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8) :]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveError(f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None
    else:
        text = data
    if not text.strip():
        raise SaveError("empty file" if not text else "no JSON in the file")
    if _nesting_depth(text) > MAX_DEPTH:
        raise SaveError("not a mille save file (nested too deeply)")
    try:
        return json.loads(text, object_pairs_hook=_object_pairs, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise SaveError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise SaveError("not a mille save file (nested too deeply)") from None
    except ValueError as exc:  # e.g. an integer with thousands of digits
        detail = str(exc).split(":")[0].split(";")[0]
        raise SaveError(f"not valid JSON: {detail}"[:120]) from None


# --------------------------------------------------------------------------
# Validation


def _show(value: Any) -> str:
    """A short, printable rendering of a JSON value for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if -(10**12) < value < 10**12 else "a huge number"
    if isinstance(value, float):
        return repr(value)[:24]
    if isinstance(value, str):
        shown = json.dumps(value[:40])  # escapes control and non-ASCII characters
        return shown if len(value) <= 40 else shown[:-1] + '..."'
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _fail(path: str, message: str) -> NoReturn:
    raise SaveError(f"{path}: {message}" if path else message)


def _fields(value: Any, path: str, names: tuple[str, ...]) -> dict[str, Any]:
    """An object with exactly the fields ``names``."""
    if not isinstance(value, dict):
        _fail(path, f"must be an object, not {_show(value)}")
    for name in names:
        if name not in value:
            _fail(path, f"missing field {_show(name)}")
    for name in value:
        if name not in names:
            _fail(path, f"unknown field {_show(name)}")
    return value


def _bool(value: Any, path: str) -> bool:
    if type(value) is not bool:
        _fail(path, f"must be true or false, not {_show(value)}")
    return value


def _int(value: Any, path: str, low: int, high: int, step: int = 1) -> int:
    if type(value) is not int:
        _fail(path, f"must be a whole number, not {_show(value)}")
    if not low <= value <= high:
        _fail(path, f"{_show(value)} is out of range ({low}..{high})")
    if value % step:
        _fail(path, f"{value} is not a multiple of {step}")
    return value


def _one_of(value: Any, path: str, choices: tuple[int, ...]) -> int:
    if type(value) is not int or value not in choices:
        _fail(path, f"must be {' or '.join(map(str, choices))}, not {_show(value)}")
    return value


def _card(value: Any, path: str, allowed: frozenset[int] | None = None, empty: bool = True) -> int:
    if value is None:
        if not empty:
            _fail(path, "must be a card, not null")
        return EMPTY
    if not isinstance(value, str):
        _fail(path, f"must be a card name{' or null' if empty else ''}, not {_show(value)}")
    code = BY_NAME.get(value)
    if code is None:
        _fail(path, f"unknown card {_show(value)}")
    if allowed is not None and code not in allowed:
        _fail(path, f"{_show(value)} cannot be on this pile")
    return code


def _list(value: Any, path: str, length: int) -> list[Any]:
    if not isinstance(value, list):
        _fail(path, f"must be a list, not {_show(value)}")
    if len(value) != length:
        _fail(path, f"must have {length} entries, not {len(value)}")
    return value


def _table(value: Any, path: str, names: tuple[str, ...]) -> list[Any]:
    """An object keyed by card names, returned as a list in code order."""
    fields = _fields(value, path, names)
    return [fields[name] for name in names]


def _sub(path: str, key: str) -> str:
    """``path["key"]`` (keys here are card names: nothing to escape)."""
    return f'{path}["{key}"]'


def _read_player(value: Any, path: str, version: int, copies: tuple[int, ...] = cards.COPIES) -> Tableau:
    names = PLAYER_FIELDS if version >= 2 else tuple(_V1_PLAYER_NAMES[n] for n in PLAYER_FIELDS)
    p = dict(zip(PLAYER_FIELDS, (_fields(value, path, names)[n] for n in names)))
    key = dict(zip(PLAYER_FIELDS, names))
    hand = [_card(c, f"{path}.hand[{i}]") for i, c in enumerate(_list(p["hand"], f"{path}.hand", cards.HAND_SIZE))]
    statuses = [
        _int(s, _sub(f"{path}.safety", n), 0, 2)
        for n, s in zip(_SAFETY_NAMES, _table(p["safety"], f"{path}.safety", _SAFETY_NAMES))
    ]
    for n, status in zip(_SAFETY_NAMES, statuses):
        if version >= 2 and status == SafetyStatus.IN_HAND:
            _fail(_sub(f"{path}.safety", n), "1 (in hand) is not recorded from version 2 on (0 or 2)")
    coups = [
        _bool(c, _sub(f"{path}.coups", n))
        for n, c in zip(_SAFETY_NAMES, _table(p["coups"], f"{path}.coups", _SAFETY_NAMES))
    ]
    nummiles = [
        _int(m, _sub(f"{path}.nummiles", n), 0, copies[i])
        for i, (n, m) in enumerate(zip(_MILES_NAMES, _table(p["nummiles"], f"{path}.nummiles", _MILES_NAMES)))
    ]
    tableau = Tableau(
        hand=hand,
        battle=_card(p["battle"], f"{path}.battle", cards.BATTLE_PILE),
        speed=_card(p["speed"], f"{path}.speed", cards.SPEED_PILE),
        can_go=_bool(p["can_go"], f"{path}.{key['can_go']}"),
        fresh_hazard=_bool(p["fresh_hazard"], f"{path}.{key['fresh_hazard']}"),
        fresh_limit=_bool(p["fresh_limit"], f"{path}.{key['fresh_limit']}"),
        safety=list(statuses),
        coups=coups,
        nummiles=nummiles,
        mileage=_int(p["mileage"], f"{path}.mileage", 0, EXTENDED_TRIP, 25),
        hand_total=_int(p["hand_total"], f"{path}.{key['hand_total']}", 0, 10000, 25),
        safety_score=_int(p["safety_score"], f"{path}.{key['safety_score']}", 0, 400, 100),
        coup_score=_int(p["coup_score"], f"{path}.{key['coup_score']}", 0, 1200, 300),
        total=_int(p["total"], f"{path}.total", 0, 20000, 25),
        games=_int(p["games"], f"{path}.games", 0, MAX_GAMES),
    )
    return tableau


def _read_deck(value: Any, size: int = cards.DECK_SIZE) -> list[int]:
    raw_deck = _list(value, "deck", size)
    try:
        return [BY_NAME[c] for c in raw_deck]
    except (KeyError, TypeError):  # find the culprit, for the message
        return [_card(c, f"deck[{i}]", empty=False) for i, c in enumerate(raw_deck)]


def _read_seen(value: Any, path: str, copies: tuple[int, ...] = cards.COPIES) -> list[int]:
    seen = [_int(n, _sub(path, NAMES[c]), 0, copies[c]) for c, n in enumerate(_table(value, path, NAMES))]
    return seen + [0] * (cards.NUM_TABLE - cards.NUM_CODES)


def from_dict(data: Any) -> SavedGame:
    """Build a game from a decoded save file (version 1 or 2), checking everything.

    Raises :class:`SaveError` with a one-line message naming the field at
    fault; never any other exception, whatever ``data`` is.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a mille save file")
    version = data.get("version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        readable = ", ".join(str(v) for v in READABLE_VERSIONS[:-1]) + f" and {READABLE_VERSIONS[-1]}"
        _fail("", f"unsupported save format version {_show(version)} (this mille reads versions {readable})")
    if version == 1:
        return _from_dict_v1(data)
    d = _fields(data, "", _TOP_FIELDS if version == 2 else _TOP_FIELDS_V3)
    tab = TWO if version == 2 else _read_table(d["table"])
    seats = tab.seats
    computer = d["computer"]
    if computer not in OPPONENTS and not is_exec_spec(computer) and not is_person_spec(computer):
        names = ", ".join(json.dumps(c) for c in OPPONENTS)
        _fail("computer", f"{_show(computer)} (must be one of {names}, or exec: and a command)")
    copies = tab.copies
    players = [_read_player(p, f"players[{i}]", 2, copies) for i, p in enumerate(_list(d["players"], "players", seats))]
    memory = []
    for i, m in enumerate(_list(d["memory"], "memory", seats)):
        fields = _fields(m, f"memory[{i}]", _MEMORY_FIELDS)
        memory.append(
            Memory(
                _read_seen(fields["num_seen"], f"memory[{i}].num_seen", copies),
                # (below 0 in 106-card saves made while Memory.count used the 101-card counts)
                _int(
                    fields["num_gos"],
                    f"memory[{i}].num_gos",
                    0 if tab.deck_size == cards.DECK_SIZE else -tab.deck_size,
                    tab.deck_size,
                ),
            )
        )
    pending_raw = d["pending_extension"]
    # -1: the question is open but the card has already left the hand (a game
    # restored from a version-1 save at Extension? and saved again there).
    pending = None if pending_raw is None else _int(pending_raw, "pending_extension", -1, cards.HAND_SIZE - 1)
    game = _read_game(d, players, memory, ("trip_length", "to_move", "hand_starter"), tab)
    game.pending_extension = pending
    if version >= 3:
        reaction = d["reaction"]
        game.reaction = None if reaction is None else _int(reaction, "reaction", 0, seats - 1)
        extender = d["extender"]
        game.extender = None if extender is None else _int(extender, "extender", 0, tab.sides - 1)
    window = _one_of(d["window"], "window", (0, 1))
    if pending is not None and game.to_move != _PERSON:
        # The game saves only at your own prompts (and, between moves, never
        # with a question open), so only your Extension? can be open in a
        # file.  The computer answers its own at once, inside its move.
        _fail("pending_extension", "set with the computer to move (only your own Extension? can be saved)")
    if game.reaction is not None and game.to_move == _PERSON:
        # Like Extension?, the coup fourré out of turn is a question: a game
        # is saved at your own prompt to move, never while you are asked.
        _fail("reaction", "set with you asked for a coup fourré (a game is not saved at that question)")
    check_game(game)
    return SavedGame(game, window, computer, version)


def _read_table(value: Any) -> Table:
    """The table of a version-3 file: its seats (R1) and the options a game may change."""
    fields = _fields(value, "table", _TABLE_FIELDS)
    seats = _one_of(fields["seats"], "table.seats", TABLE_SEATS)
    points = _int(fields["game_points"], "table.game_points", 25, GAME_POINTS, 25)
    return table(seats, game_points=points, parker=_bool(fields["parker"], "table.parker"))


def _read_game(
    d: dict[str, Any],
    players: list[Tableau],
    memory: list[Memory],
    names: tuple[str, str, str],
    tab: Table = TWO,
) -> Game:
    """The game of a file's top-level fields (``names``: the trip length's, the mover's and the starter's, by version).

    Its generator is not saved: the caller seeds it.
    """
    trip, to_move, starter = names
    seats = tuple(range(tab.seats))
    return Game(
        deck=_read_deck(d["deck"], tab.deck_size),
        deck_count=_int(d["deck_count"], "deck_count", 0, tab.deck_size - tab.seats * (cards.HAND_SIZE - 1)),
        discard=_card(d["discard"], "discard"),
        players=players,
        trip_length=_one_of(d[trip], trip, (TRIP, EXTENDED_TRIP)),
        finished=_bool(d["finished"], "finished"),
        to_move=_one_of(d[to_move], to_move, seats),
        hand_starter=_one_of(d[starter], starter, seats),
        order=_bool(d["order"], "order"),
        memory=memory,
        rng=_NEW_RNG.copy(),
        table=tab,
    )


def _from_dict_v1(data: dict[str, Any]) -> SavedGame:
    """A version-1 file: the computer's counting only, ``on_exit``, the old names.

    The human seat's counting was not kept then; its ``num_seen`` is what it
    has seen in this position (every card but the computer's hand and the
    deck), its ``num_gos`` 0.  A version-1 save made at ``Extension?``
    holds the move completed but for the answer (the card already out of
    the hand); ``pending_extension`` -1 says so.
    """
    d = _fields(data, "", _TOP_FIELDS_V1)
    players = [_read_player(p, f"players[{i}]", 1) for i, p in enumerate(_list(d["players"], "players", 2))]
    memory = [Memory(), Memory(_read_seen(d["numseen"], "numseen"), _int(d["numgos"], "numgos", 0, cards.DECK_SIZE))]
    game = _read_game(d, players, memory, ("end", "play", "handstart"))
    window = _one_of(d["window"], "window", (0, 1))
    on_exit = _bool(d["on_exit"], "on_exit")
    pending = _bool(d["pending_extension"], "pending_extension")
    _check_v1_safeties(game)
    for p in game.players:  # the computer's "in hand" marks are derived now
        p.safety = [s if s == SafetyStatus.PLAYED else int(SafetyStatus.UNKNOWN) for s in p.safety]
    if on_exit and not game.finished:
        _fail("on_exit", "true, but the hand is not finished")
    if pending:
        if (
            game.finished
            or game.to_move != _PERSON
            or game.trip_length != TRIP
            or game.players[_PERSON].mileage != TRIP
        ):
            _fail("pending_extension", "true, but you are not at the Extension? question (at 700 of 700, to move)")
        game.pending_extension = -1
    game.memory[_PERSON] = Memory(_seen_by(game, _PERSON) + [0] * (cards.NUM_TABLE - cards.NUM_CODES), 0)
    check_game(game, version=1)
    return SavedGame(game, window, "bsd", 1)


def _check_v1_safeties(game: Game) -> None:
    for who, p in enumerate(game.players):
        path = _PLAYER_NAMES[who]
        held = {c for c in p.hand if c != EMPTY}
        for i, status in enumerate(p.safety):
            card = cards.SAFETY_BASE + i
            where = _sub(f"{path}.safety", NAMES[card])
            if status == SafetyStatus.IN_HAND:
                if who == _PERSON:
                    _fail(where, "1 (in hand) is only ever recorded for the computer")
                if card not in held:
                    _fail(where, "1 (in hand), but the card is not in the computer's hand")
            elif who == _COMPUTER and card in held:
                _fail(where, f"{int(status)}, but the card is in the computer's hand (must be 1)")


def _seen_by(game: Game, seat: int) -> list[int]:
    """Cards of each kind ``seat`` can have seen: all but the other hand and the deck."""
    hidden = Counter(c for c in game.players[1 - seat].hand if c != EMPTY)
    hidden.update(game.deck[: game.deck_count])
    return [cards.COPIES[c] - hidden[c] for c in range(cards.NUM_CODES)]


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


#: Version-1 names of what :mod:`mille.engine.position` reports in version-2 (engine) terms.
_V1_FIELDS = (
    ("trip_length", "end"),
    ("memory[1].num_seen", "numseen"),
    (".hand_total", ".hand_tot"),
    (".safety_score", ".safescore"),
    (".coup_score", ".coupscore"),
)


def check_game(game: Game, version: int = VERSION) -> None:
    """Raise :class:`SaveError` unless the engine says ``game`` is a position the rules can reach.

    The engine's check (:func:`mille.engine.position.check`) names the field at
    fault as version 2 of the format does; a version-1 file's older names
    are put back.  Every position a saved game can be in passes (the tests
    save positions from thousands of simulated games); the checks catch
    damaged or edited files before they can confuse the game.
    """
    try:
        position.check(game)
    except position.InvalidPosition as exc:
        field = exc.field
        if version == 1:
            for new, old in _V1_FIELDS:
                field = field.replace(new, old)
        _fail(field, exc.problem)


# --------------------------------------------------------------------------
# The restore banner


def _ctime(when: float) -> str:
    """C ``ctime()`` without its newline: ``Sat Nov 21 14:32:29 2026``."""
    try:
        return time.ctime(when)
    except (OverflowError, ValueError, OSError):
        return "?"


def mtime_text(path: str) -> str:
    """The file's modification time in ``ctime`` layout, for the restore banner."""
    try:
        when = os.stat(path).st_mtime
    except (OSError, ValueError):
        when = _read_mtimes.get(path, time.time())
    return _ctime(when)
