"""Kept games (hangup and crash files) after they are resumed: no pile of spent files.

A hangup or a crash keeps the game in a file of its own
(:mod:`mille.files.rescue`), and ``mille FILE`` resumes it.  The original
kept nothing; keeping every game made a new problem: the file stayed once
resumed, and a resumed game dropped again was kept in a second file,
often of the very same position (185 files in an afternoon of drops,
issue 36).  So, for a game resumed from a kept file (:class:`Resumed`):

* dropped again before anything changed (the same position), it is not
  written again: the file it came from still holds it, and the line on
  standard error names that file;
* once its position is safe elsewhere (kept again in a new file, saved
  with ``S`` in another file) or the game is over, the file it came from
  is *spent* and removed.

Never a file that was not resumed, one that changed since it was resumed
(another run wrote it, or it was replaced: its identity and bytes are
checked first), nor the one a save just wrote.  A game resumed and then
quit without saving leaves its file, which still holds the game (the
record of games calls it abandoned, and resuming the file again plays it
on).  A crash of a resumed game writes a crash file and leaves the old
one too: the program is in no state to judge.

:func:`listing` says where the kept games are and what each holds
(``mille --kept``).  Only the names mille gives kept files count
(:func:`is_kept_name`): a save with ``S`` is never touched.
"""

from __future__ import annotations

import os

from .safeio import read_regular

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from ..engine.state import Game

#: The largest file looked at (a save is a few kilobytes).
_LIMIT = 1 << 20
_HEX = frozenset("0123456789abcdef")


def is_kept_name(path: str) -> bool:
    """Is ``path``'s name one that :func:`mille.files.rescue.keep` gives a kept game?

    ``hangup-YYYYmmdd-HHMMSS[-N].json`` (``crash-`` likewise), and in the
    temporary directory ``mille-hangup-YYYYmmdd-HHMMSS-TOKEN[-N].json``.
    (Without :mod:`re`, which the way to the first board does not import.)
    """
    name = os.path.basename(path)
    if not name.endswith(".json"):
        return False
    parts = name[: -len(".json")].split("-")
    if parts[0] == "mille":
        parts = parts[1:]
    if len(parts) < 3 or parts[0] not in ("hangup", "crash"):
        return False
    date, clock, rest = parts[1], parts[2], parts[3:]
    if not (len(date) == 8 and date.isdigit() and len(clock) == 6 and clock.isdigit()):
        return False
    if rest and len(rest[0]) == 12 and _HEX.issuperset(rest[0]):
        rest = rest[1:]  # the token of a name in the temporary directory
    return not rest or (len(rest) == 1 and rest[0].isdigit() and rest[0].isascii())


def _fingerprint(path: str) -> tuple[int, int, int, int, bytes] | None:
    """The file's identity and bytes (device, inode, size, mtime, content); None if it cannot be read."""
    try:
        data, st = read_regular(path, _LIMIT)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, data)


class Resumed:
    """A kept file a game was resumed from: the position it held, and the file as it was then."""

    def __init__(self, path: str, key: str, fingerprint: tuple[int, int, int, int, bytes]) -> None:
        self.path = path
        self.key = key
        self._fingerprint = fingerprint
        #: The file was removed (spent).
        self.spent = False

    @classmethod
    def note(cls, path: str | None, game: Game) -> Resumed | None:
        """The kept file ``path`` that ``game`` was just restored from; None if it is not a kept file."""
        if path is None or not is_kept_name(path):
            return None
        fingerprint = _fingerprint(path)
        if fingerprint is None:
            return None
        from .recorder import position_key

        return cls(os.path.abspath(path), position_key(game), fingerprint)

    def unchanged(self) -> bool:
        """Is the file still the one resumed, byte for byte?"""
        return not self.spent and _fingerprint(self.path) == self._fingerprint

    def holds(self, game: Game) -> bool:
        """Does the file, unchanged, still hold ``game``'s position (nothing was played since the resume)?"""
        from .recorder import position_key

        return position_key(game) == self.key and self.unchanged()

    def spend(self, written: str | None = None) -> bool:
        """The game is safe elsewhere (or over): remove the file, if it is unchanged; True if removed.

        ``written`` is the file the game was just saved in: if it is this
        one (a save with ``S`` to the same name), nothing is removed.
        """
        if self.spent:
            return False
        if written is not None:
            try:
                if os.path.samefile(written, self.path):
                    self.spent = True  # it holds the game now, under the person's own hand
                    return False
            except OSError:
                pass
        if not self.unchanged():
            return False
        try:
            os.unlink(self.path)
        except OSError:
            return False
        self.spent = True
        return True


# --------------------------------------------------------------------------
# mille --kept: where the kept games are, and which are spent


def _places() -> list[str]:
    """The directories a kept game may be in (:data:`mille.files.rescue.PLACES`), each once."""
    import tempfile

    from .places import state_directory

    found: list[str] = []
    for locate in (state_directory, os.getcwd, tempfile.gettempdir):
        try:
            place = os.path.abspath(locate())
        except OSError:
            continue
        if place not in found:
            found.append(place)
    return found


def kept_files() -> list[str]:
    """The kept games (hangup and crash files) in the places mille keeps them, yours alone, newest first."""
    import stat

    files: list[tuple[float, str]] = []
    uid = os.getuid() if hasattr(os, "getuid") else None
    for place in _places():
        try:
            names = os.listdir(place)
        except OSError:
            continue
        for name in names:
            if not is_kept_name(name):
                continue
            path = os.path.join(place, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode) or (uid is not None and st.st_uid != uid):
                continue  # another user's file in the temporary directory, or a link: not ours to list
            files.append((st.st_mtime, path))
    files.sort(reverse=True)
    return [path for _, path in files]


def _position(game: Game, computer: str = "computer") -> str:
    """What a kept game holds, in a few words: the hand's miles, the totals, what comes next.

    ``computer``: the save's name for the other seat at two seats; a person (``person:bob``, a game with people,
    docs/people.md) is called by their name.
    """
    if game.table.seats > 2:  # a larger table (mille --players): every side, A being yours
        sides = range(game.table.sides)
        miles = ", ".join(f"{'ABC'[s]} {game.players[s].mileage}" for s in sides)
        totals = ", ".join(f"{'ABC'[s]} {game.players[s].total}" for s in sides)
        where = "at the end of a hand" if game.finished else f"in a hand of {game.trip_length} miles (sides {miles})"
        return f"{game.table.seats} seats, {where}; totals {totals}"
    from ..players.base import PERSON_PREFIX, is_person_spec

    other = computer[len(PERSON_PREFIX) :] if is_person_spec(computer) else "computer"
    you, it = game.players
    if game.finished:
        where = "at the end of a hand"
    elif game.pending_extension is not None:
        where = "at Extension?"
    else:
        where = f"in a hand of {game.trip_length} miles (you {you.mileage}, {other} {it.mileage})"
    return f"{where}; totals you {you.total}, {other} {it.total}"


def _status(key: str, path: str, events: list[dict[str, object]] | None, first: dict[str, str]) -> str:
    """Spent or not, from the record of games: the game kept at this position, and what it did after."""
    if key in first and first[key] != path:
        return f"spent: the same position as {first[key]}"
    first.setdefault(key, path)
    if events is None:
        return "not known (no record of games)"
    at = None
    for n, event in enumerate(events):
        if event.get("t") == "save" and event.get("key") == key:
            at = n
    if at is None:
        return "not known (not in the record of games)"
    name = events[at].get("game")
    later = [event for event in events[at + 1 :] if event.get("game") == name]
    if any(event.get("t") == "save" for event in later):
        return "spent: resumed, and its game was kept or saved again since"
    if any(event.get("t") == "game" and event.get("result") != "abandoned" for event in later):
        return "spent: resumed, and its game is over"
    if later:
        return "resumed and played on, then left without saving: this file still holds it"
    return "not resumed"


def listing() -> tuple[list[str], str | None]:
    """``mille --kept``: (the lines, a problem with the record of games or None).

    Each kept game: its path; when it was kept, where it stands; and
    whether it is spent, by the record of games (:mod:`mille.files.ledger`):
    resumed and kept or saved again, or its game over, or the same position
    as a newer file; not resumed; or resumed and left without saving (the
    file still holds the game).  Spent files may be removed; mille removes
    the ones it sees spent as they are spent (:class:`Resumed`).
    """
    import time

    from . import save
    from .ledger import LedgerError, read_events, stats_path
    from .recorder import position_key
    from .safeio import shown

    problem = None
    events: list[dict[str, object]] | None
    try:
        events = read_events(stats_path())
    except (LedgerError, OSError) as exc:
        events, problem = None, str(exc)
    except Exception as exc:  # never a traceback
        events, problem = None, f"the record of games cannot be read ({type(exc).__name__})"
    paths = kept_files()
    if not paths:
        return ["No kept games (hangup or crash files) in " + ", ".join(shown(p) for p in _places()) + "."], problem
    lines = [f"{len(paths)} kept game{'s' if len(paths) != 1 else ''}, newest first:"]
    first: dict[str, str] = {}
    for path in paths:
        try:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.stat(path).st_mtime))
            loaded = save.read_game(path)
            game = loaded.game
        except (OSError, save.SaveError) as exc:
            lines += [shown(path), f"  cannot be read: {shown(str(exc))}"]
            continue
        lines += [
            shown(path),
            f"  kept {when}, {shown(_position(game, loaded.computer))}",
            f"  {shown(_status(position_key(game), path, events, first))}",
        ]
    return lines, problem


def print_kept() -> int:
    """Print :func:`listing`; 0 (a problem with the record of games is said on standard error, status 0)."""
    import sys

    from .safeio import shown

    lines, problem = listing()
    sys.stdout.write("".join(line + "\n" for line in lines))
    if problem is not None:
        print(f"mille: {shown(problem)}", file=sys.stderr)
    return 0


__all__ = ["Resumed", "is_kept_name", "kept_files", "listing", "print_kept"]
