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


__all__ = ["Resumed", "is_kept_name"]
