"""The player's record of games: ``$XDG_STATE_HOME/mille/stats.jsonl``.

Games played, won, lost and abandoned, hands, points, the best margin, the
winning streaks and the hints used, per computer player, are what a
player's record of a card game is made of (``mille --stats`` prints it).
They are kept here, in a file of their own, never in a save: a save is a
position, and the record is the player's history.

**The file** is an append-only list of events, one JSON object a line,
summed when it is read.  Two games that end at the same moment both append
their line (``O_APPEND``: the system puts each write at the end of the
file, whole), so nothing is lost and no lock is needed; every line is
synced to disk before the game goes on.  The file is created whole, with
its first line saying what it is (a temporary file linked into place), so
a file without that line is someone else's.  A file that is damaged or
foreign is never summed wrongly, reset or overwritten: it is renamed aside
(``stats.jsonl.damaged-YYYYmmdd-HHMMSS``), the player is told where it
went, and a new record starts; one that cannot be renamed is left as it
is and the record is not kept for the run.  A line cut short by a full
disk is skipped, not a reason to set the history aside (the next event
starts a line of its own).  A number past :data:`MAX_NUMBER` (far past any
game's) makes its line damaged: the sums stay printable (Python refuses to
print an integer of more than 4300 digits).  A FIFO, a device, a file past
:data:`MAX_SIZE` or a state directory that is not the player's alone is
refused in one line (:func:`read_record` says what happens to each), and
nothing is ever waited on: the reading and writing go through
:mod:`mille.files.safeio`.

**The events** (``"t"``):

* ``hand``: a hand of game ``game`` finished: its number ``n`` in the
  game, the points for and against, the computer;
* ``game``: the game ended, ``won``, ``lost`` or ``tied`` at 5000 points,
  or ``abandoned`` (quit without saving what was played), with its totals,
  its hands and the hints used in it;
* ``save``: the game was saved (or saved on a hangup) at a position, known
  by a digest of the position (:func:`position_key`); the save file itself
  holds nothing of this.

Every event of a game at a table other than the original's two seats
(``mille --players 3|4|6``) also holds ``seats``, the table's (3, 4 or 6;
an event without it was played at two); ``for`` is then the person's
side's and ``against`` the best of the other sides'.  Every event of a
game with people (docs/people.md) also holds ``people``: each other
person at the table by login name, ``partner`` or ``opponent`` (the
``computer`` names them too, as ``person:bob,carol``, for a reader that
knows no ``people``).

**Counting a game once.**  A game's identity is a random name made when
it starts.  When a game is restored from a file, the position read is
looked up among the ``save`` events: found, the game goes on under its
name, with its hands and hints counted so far; not found (a save made
before there was a record, edited, or from someone else), it counts as a
new game from where it stands.  Summing keeps, for each game, the first
``won``/``lost``/``tied`` event (else an ``abandoned`` one: a game quit
without saving and later resumed from an earlier save and finished counts
as finished), and for each hand the first event of its number: playing on
again from a save you have already played past does not count again.
A game saved and not resumed is not counted until it is.

This module is the file: writing an event, reading and checking the
events.  The game's side, what it tells as it happens, is
:mod:`mille.files.recorder`; the summing and ``mille --stats`` are
:mod:`mille.files.tally`.
"""

from __future__ import annotations

import os

from .places import state_directory
from .safeio import (
    AppendOnly,
    TooLarge,
    create_exclusive,
    make_private_dirs,
    open_regular,
    read_regular,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any


FILE_NAME = "stats.jsonl"
#: The first line of every record file.
FORMAT = "mille-stats"
VERSION = 1
#: How a game can end (``game`` events).
RESULTS = ("won", "lost", "tied", "abandoned")
#: The built-in opponents first in the table, then any other name.
_COLUMN_ORDER = ("bsd", "expert")
#: The longest name of a game or a computer accepted in a record.
MAX_NAME = 64


class LedgerError(Exception):
    """The record file cannot be used; the message is one line, naming the file."""


class DamagedLedger(LedgerError):
    """The record file is damaged or is not a record file; ``kept`` is where it was put aside."""

    def __init__(self, message: str, kept: str | None) -> None:
        super().__init__(message)
        self.kept = kept


# --------------------------------------------------------------------------
# Where


def stats_path() -> str:
    """``$XDG_STATE_HOME/mille/stats.jsonl`` (``~/.local/state`` by default; a relative value is ignored).

    The same rule as the hangup file's (:func:`mille.files.rescue.keep`: the state directory first), so a
    player finds everything mille keeps in one place.
    """
    try:
        return os.path.join(state_directory(), FILE_NAME)
    except OSError:
        raise LedgerError("no home directory for the statistics file (set XDG_STATE_HOME)") from None


# --------------------------------------------------------------------------
# Writing


#: The first line of a record file, as this program writes it.
HEADER = b'{"format": "mille-stats", "version": 1}\n'
#: How every event line this program writes begins ("t" is always the first key).
_EVENT_START = b'{"t":"'
#: The largest record file read (about 200,000 events: a game every day for decades).
MAX_SIZE = 32 * 1024 * 1024
#: Characters a string may hold to be written without the json module.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._:+-_")


def _dumps(event: dict[str, Any]) -> str:
    """``event`` as one compact JSON line.

    The events are flat: short plain strings, integers and a time.  They
    are written without importing :mod:`json` (and :mod:`re` with it),
    which would cost more than everything else a quit does; anything
    unusual goes through :func:`json.dumps`.  Both give the same text.
    """
    parts = []
    for key, value in event.items():
        if _PLAIN.issuperset(key) and (type(value) is int or type(value) is float):
            parts.append(f'"{key}":{value!r}')
        elif _PLAIN.issuperset(key) and isinstance(value, str) and _PLAIN.issuperset(value):
            parts.append(f'"{key}":"{value}"')
        else:
            import json

            return json.dumps(event, separators=(",", ":"))
    return "{" + ",".join(parts) + "}"


def _open(path: str) -> AppendOnly:
    """The record file, for appending: made (with its first line, whole) if there is none yet.

    The file is made as a temporary file linked into place, so of two games
    creating it at once one wins and the other appends to it, and nobody
    ever sees a record file without its first line.  Whatever is at the
    name must be a regular file (a FIFO or a device is refused, never
    waited on).
    """
    try:
        return AppendOnly.open(path, follow=True, shared=True)
    except FileNotFoundError:
        make_private_dirs(os.path.dirname(path))
        create_exclusive(path, HEADER)  # False: another game made it first
        return AppendOnly.open(path, follow=True, shared=True)


def append(path: str, event: dict[str, Any]) -> None:
    """Add one event at the end of the record file, in one write, synced to disk.

    If the file does not end with a whole line (a write cut short by a full
    disk, earlier), the event starts on a line of its own, and the torn
    piece is left as a line that the reader skips.  Raises :class:`OSError`
    if it cannot be written (:class:`~mille.files.safeio.ShortWrite` if the
    system took only part of the line).
    """
    import time

    event = {**event, "at": round(time.time(), 3)}
    data = (_dumps(event) + "\n").encode()
    record = _open(path)
    try:
        if not record.ends_whole():
            data = b"\n" + data
        record.append(data)
    finally:
        record.close(sync=False)


def inspect(path: str) -> None:
    """The cheap look at the record before a run's first line is added to it (the whole file is read only if it fails).

    Raises :class:`LedgerError` for a file that cannot be used (not a
    regular file, too large, damaged and not set aside); returns for a file
    that starts as a record does, for none, and for a damaged one that was
    set aside (the :class:`DamagedLedger` is raised, with ``kept`` set).
    """
    try:
        fd, st = open_regular(path)
    except (FileNotFoundError, NotADirectoryError):  # ENOTDIR: a HOME under a file, no record
        return
    except OSError as exc:
        raise LedgerError(f"{path}: {exc.strerror or exc}") from None
    try:
        if st.st_size > MAX_SIZE:
            raise LedgerError(f"{path}: {TooLarge(st.st_size, MAX_SIZE).strerror}")
        whole = os.read(fd, len(HEADER)) == HEADER
    except OSError as exc:
        raise LedgerError(f"{path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if not whole:
        read_events(path)  # says what is wrong, and sets it aside


# --------------------------------------------------------------------------
# Reading


#: The largest number an event may hold, in size: far past any game's points or hands, and small
#: enough that the sums of :data:`MAX_SIZE` bytes of events stay well within Python's limit on
#: the digits of an integer printed (4300 by default): a line past it is damaged, not summed.
MAX_NUMBER = 10**12


def _is_int(value: object, low: int | None = None) -> bool:
    return type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER and (low is None or value >= low)


def _is_name(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME and value.isprintable()


#: What each known event must hold (more keys are allowed: a later mille may add some).
_EVENT_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "hand": (("game", "name"), ("n", "count1"), ("computer", "name"), ("for", "int"), ("against", "int")),
    "game": (
        ("game", "name"),
        ("computer", "name"),
        ("result", "result"),
        ("for", "int"),
        ("against", "int"),
        ("hands", "count"),
        ("hints", "count"),
    ),
    "save": (("game", "name"), ("key", "name"), ("hands", "count"), ("hints", "count"), ("computer", "name")),
}


def _check_field(kind: str, value: object) -> bool:
    if kind == "name":
        return _is_name(value)
    if kind == "int":
        return _is_int(value)
    if kind == "count":
        return _is_int(value, 0)
    if kind == "count1":
        return _is_int(value, 1)
    return value in RESULTS


def _decode(line: bytes) -> object:
    """The JSON value of one line; ValueError for anything that is not one (deep nesting included)."""
    import json

    try:
        return json.loads(line)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except UnicodeDecodeError as exc:
        raise ValueError(str(exc)) from None


#: The tables an event's ``seats`` may name (without it: two seats).
_TABLE_SEATS = (3, 4, 6)


def _problem(event: object) -> str | None:
    """What is wrong with one decoded event line (None: nothing)."""
    if not isinstance(event, dict):
        return "not a JSON object"
    kind = event.get("t")
    if not isinstance(kind, str):
        return 'no event type ("t")'
    fields = _EVENT_FIELDS.get(kind)
    if fields is None:
        return None  # an event a later mille writes: not ours to sum
    for name, check in fields:
        if name not in event:
            return f'"{kind}" event without "{name}"'
        if not _check_field(check, event[name]):
            return f'"{kind}" event with a bad "{name}"'
    if "seats" in event and (type(event["seats"]) is not int or event["seats"] not in _TABLE_SEATS):
        return f'"{kind}" event with a bad "seats"'
    if "people" in event and not _is_people(event["people"]):
        return f'"{kind}" event with a bad "people"'
    return None


#: What a person at the table was to the player (an event's ``people``).
RELATIONS = ("partner", "opponent")


def _is_people(value: object) -> bool:
    """An event's ``people``: each other person at the table by name, a partner or an opponent (five at most)."""
    return (
        isinstance(value, dict)
        and len(value) <= 5
        and all(_is_name(name) and relation in RELATIONS for name, relation in value.items())
    )


def _is_torn(piece: bytes) -> bool:
    """Is ``piece`` what a write cut short leaves: the start of an event line, without its end?"""
    return not piece.endswith(b"}") and (piece.startswith(_EVENT_START) or _EVENT_START.startswith(piece))


def _set_aside(path: str, st: os.stat_result) -> tuple[str | None, str]:
    """Rename the damaged file (the one read, ``st``) to a free ``.damaged-...`` name: (new name, why not)."""
    import time

    try:
        if not os.path.samestat(st, os.stat(path)):
            return None, "another game set it aside first"
    except OSError as exc:
        return None, exc.strerror or str(exc)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = f"{path}.damaged-{stamp}"
    suffix = 2
    while os.path.lexists(candidate):
        candidate = f"{path}.damaged-{stamp}-{suffix}"
        suffix += 1
    try:
        os.rename(path, candidate)
    except OSError as exc:
        return None, exc.strerror or str(exc)
    return candidate, ""


class Record:
    """A record file read: its events, oldest first, and the lines cut short that were skipped."""

    def __init__(self, events: list[dict[str, Any]], cut_short: int = 0) -> None:
        self.events = events
        #: Pieces of lines left by writes a full disk cut short (not counted).
        self.cut_short = cut_short


def read_record(path: str) -> Record:
    """The record file at ``path`` (an empty one if there is none yet).

    What is done with each kind of trouble (``README.md``, "The record of
    games"):

    * a line cut short by a full disk (the start of an event line without
      its end, last or not, alone or followed by a whole event) is skipped
      and counted in :attr:`Record.cut_short`: the rest is the record;
    * a file that is not a record file, or has a line that is not an event
      (deep nesting included), is renamed aside and :class:`DamagedLedger`
      raised, with the line and where the file went; if it cannot be
      renamed, the message says so, and the file is left as it is;
    * anything that is not a regular file (a FIFO, a device, a link to
      one), a file larger than :data:`MAX_SIZE`, a file that cannot be
      read: :class:`LedgerError`, and nothing is touched.

    Nothing is ever silently dropped, and nothing blocks.
    """
    try:
        data, st = read_regular(path, MAX_SIZE)
    except (FileNotFoundError, NotADirectoryError):  # ENOTDIR: a HOME under a file, no record
        return Record([])
    except OSError as exc:
        raise LedgerError(f"{path}: {exc.strerror or exc}; not read") from None
    problem, record = _parse(data)
    if problem is not None:
        kept, why = _set_aside(path, st)
        if kept is not None:
            raise DamagedLedger(f"{path}: {problem}; kept as {kept}, and a new record starts", kept)
        raise DamagedLedger(f"{path}: {problem}; left as it is (it could not be set aside: {why})", None)
    return record


def read_events(path: str) -> list[dict[str, Any]]:
    """The events of the record file, oldest first; [] if there is none yet (see :func:`read_record`)."""
    return read_record(path).events


def _parse(data: bytes) -> tuple[str | None, Record]:
    """(what is wrong, the record): the first line must be the header, every other an event or a torn piece."""
    import sys

    if not data:
        return "empty (not a record file)", Record([])
    lines = data.split(b"\n")
    last = lines.pop()  # b"" after a final newline
    try:
        header = _decode(lines[0] if lines else last)
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        return "not a mille statistics file (line 1)", Record([])
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        return f"line 1: statistics of version {version!r}, which this mille does not read", Record([])
    if not lines:
        return "line 1: cut short (no end of line)", Record([])
    if last:
        lines.append(last)  # a last line without its end: a torn write, or one being written now
    events: list[dict[str, Any]] = []
    torn = 0
    intern = sys.intern
    for number, line in enumerate(lines[1:], 2):
        try:
            event: object = _decode(line)
        except ValueError as exc:
            event = None
            if _is_torn(line):
                torn += 1
                continue
            # A torn piece with a whole event written after it on the same line.
            at = line.find(_EVENT_START, 1)
            if at > 0 and _is_torn(line[:at]):
                try:
                    event = _decode(line[at:])
                except ValueError:
                    event = None
                else:
                    torn += 1
            if event is None:
                if last and number == len(lines):
                    return f"line {number}: cut short (no end of line)", Record([])
                detail = " (nested too deeply)" if "nested" in str(exc) else ""
                return f"line {number}: not a JSON line{detail}", Record([])
        problem = _problem(event)
        if problem is not None:
            return f"line {number}: {problem}", Record([])
        assert isinstance(event, dict)
        for key in ("t", "computer", "result", "game"):
            value = event.get(key)
            if type(value) is str:
                event[key] = intern(value)  # many events share them: a long record in less memory
        event.pop("at", None)
        events.append(event)
    return None, Record(events, torn)


__all__ = [
    "FILE_NAME",
    "FORMAT",
    "MAX_NAME",
    "HEADER",
    "MAX_SIZE",
    "RESULTS",
    "VERSION",
    "DamagedLedger",
    "LedgerError",
    "Record",
    "append",
    "inspect",
    "read_events",
    "read_record",
    "stats_path",
]
