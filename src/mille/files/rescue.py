"""Keeping the game when the terminal goes away or the program fails.

The original saved nothing on a hangup and lost the game on a crash.  Here
a hangup (SIGHUP, SIGTERM), a quit at the too-small-terminal message and an
unexpected exception in the game loop all keep the game in a file that
``mille FILE`` resumes, and say where it went.  This module is imported only
when one of those happens: none of it runs on the way to the first board.

Where: the first of these places that works (``docs/save-format.md``):

1. the state directory, ``$XDG_STATE_HOME/mille`` (``~/.local/state/mille``
   when ``XDG_STATE_HOME`` is unset or not absolute), made with mode 0700,
   and passed over (the line that says where the game went says why) if it
   belongs to another user or others may write in it
   (:func:`mille.files.safeio.check_private`);
2. the current directory;
3. the temporary directory (``$TMPDIR``, ``/tmp``, ...), under a name
   nobody can guess.

Names: ``hangup-YYYYmmdd-HHMMSS.json`` (``crash-...`` for a crash), then
``-2``, ``-3``, ... before ``.json``; each name is claimed atomically
(:func:`mille.files.safeio.write_new`), so any number of games stopped in the same
second each keep their own file.  If every place fails, the caller is told
what was tried and why, and says so.
"""

from __future__ import annotations

import os
import secrets
import sys
import time
from collections.abc import Callable

from ..players import OPPONENTS, is_person_spec
from . import save
from .places import state_directory
from .safeio import private_directory, write_new
from .safeio import shown as shown  # its home is safeio; here for the callers that know it here

HANGUP = "hangup"
CRASH = "crash"

#: Exit status when a game could not be kept anywhere (``docs/mille.6``).
NOT_SAVED_STATUS = 2


class Kept:
    """Where a file went (``path``, None if nowhere) and the places that failed first."""

    def __init__(self, path: str | None, tried: list[tuple[str, str]]) -> None:
        self.path = path
        #: (place, why it could not be used), in the order tried.
        self.tried = tried

    def failures(self) -> str:
        """``PLACE: reason; PLACE: reason`` for the places that failed."""
        return "; ".join(f"{shown(place)}: {why}" for place, why in self.tried)


def _temporary_directory() -> str:
    import tempfile

    return tempfile.gettempdir()


def _current_directory() -> str:
    return os.getcwd()


#: The places, in order: (what to call it if it cannot even be found, how to
#: find it, whether missing directories are made, whether names there must
#: be unguessable).
PLACES: list[tuple[str, Callable[[], str], bool, bool]] = [
    ("the state directory", state_directory, True, False),
    ("the current directory", _current_directory, False, False),
    ("the temporary directory", _temporary_directory, False, True),
]


def keep(data: bytes, kind: str, suffix: str = ".json", now: float | None = None) -> Kept:
    """Write ``data`` to a new ``KIND-YYYYmmdd-HHMMSS[-N]SUFFIX`` in the first place that works."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    tried: list[tuple[str, str]] = []
    for label, locate, make, unguessable in PLACES:
        place = label
        try:
            place = locate()
            if make:
                private_directory(place)  # made 0700, or refused if another's or open to others
            # A shared directory (/tmp): a private file under a name nobody
            # can predict, so nobody can plant a file or a link there first.
            stem = f"mille-{kind}-{stamp}-{secrets.token_hex(6)}" if unguessable else f"{kind}-{stamp}"
            path = write_new(place, stem, data, suffix)
        except OSError as exc:
            tried.append((place, exc.strerror or str(exc)))
            continue
        return Kept(os.path.abspath(path), tried)
    return Kept(None, tried)


def keep_game(saved: save.SavedGame, kind: str = HANGUP) -> Kept:
    """Save ``saved`` as a hangup (or crash) file; see :func:`keep`.

    The game is checked first as a restore would check it, so that a file
    this writes always loads; a game that fails is not written, and the
    reason is the only entry of ``tried``.
    """
    text = save.dumps(saved)
    try:
        save.loads(text)
    except save.SaveError as exc:
        return Kept(None, [("the game", f"not saved, it does not pass its own checks ({exc})")])
    return keep(text.encode("utf-8"), kind)


def write_beside(json_path: str, text: str) -> Kept:
    """A ``.txt`` file next to a kept game, named as it is (``crash-X.json`` -> ``crash-X.txt``)."""
    directory, name = os.path.split(json_path)
    stem = name[: -len(".json")] if name.endswith(".json") else name
    try:
        path = write_new(directory, stem, text.encode("utf-8", "backslashreplace"), ".txt")
    except OSError as exc:
        return Kept(None, [(directory, exc.strerror or str(exc))])
    return Kept(path, [])


def saved_line(kept: Kept, what: str = "the game", command: str = "mille", computer: str | None = None) -> str:
    """``mille: the game is saved in PATH; resume it with: mille PATH`` (or why it is not).

    ``command`` is what resumes it (``mille --plain`` for a game played in
    lines).  A game against a bot program (``computer`` an ``exec:`` spec)
    adds that the program must be named again (:data:`NAME_IT_AGAIN`): a
    save never runs one, and the line never hands over the command itself to
    paste, since the save it is read back from may not be the person's.
    """
    if kept.path is None:
        return f"mille: {what} could not be saved anywhere ({kept.failures()})"
    path = shown(kept.path)
    line = f"mille: {what} is saved in {path}; resume it with: {command} {_quoted(path)}"
    if computer is not None and computer not in OPPONENTS and not is_person_spec(computer):
        line += f" {NAME_IT_AGAIN}"
    if kept.tried:
        line += f" (not saved in {kept.failures()})"
    return line


#: Said of a game against a bot program: how to play on against it, without its command.
NAME_IT_AGAIN = "and --computer exec:COMMAND naming the program it was played against (a save never runs one)"


def not_run_line(file: str, computer: str, instead: str) -> str:
    """The line before a board resumed from ``file`` saved against the program ``computer``, which is not run.

    The command comes from the file, which may be anyone's: it is shown only
    as data (escaped, quoted, cut short), never as part of a command line to
    paste (a crafted save could otherwise hand the person a command to run).
    """
    import json

    name = json.dumps(computer if len(computer) <= 60 else computer[:57] + "...")
    return (
        f"mille: {shown(file)} was saved against a program, which a save never runs: {instead} plays instead; "
        f"to play against a program, name it yourself with --computer exec:COMMAND (the file names {shown(name)})"
    )


def _quoted(path: str) -> str:
    """``path`` quoted for a POSIX shell when it needs it (so the command can be pasted)."""
    import shlex

    return path if sys.platform == "win32" else shlex.quote(path)


def crash_report(exc: BaseException, kept: Kept | None, extra: str = "") -> str:
    """The text of ``crash-....txt``: what failed, the traceback, where the game went."""
    import platform
    import traceback

    from .. import __version__

    lines = [
        f"mille (bsd-mille) {__version__} on Python {platform.python_version()} ({sys.platform})",
        time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "",
        "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip(),
        "",
    ]
    if kept is not None:
        lines.append(f"game: {kept.path}" if kept.path else f"game: not saved ({kept.failures()})")
    if extra:
        lines.append(extra)
    return "\n".join(lines) + "\n"


__all__ = [
    "CRASH",
    "HANGUP",
    "NAME_IT_AGAIN",
    "NOT_SAVED_STATUS",
    "PLACES",
    "Kept",
    "crash_report",
    "keep",
    "keep_game",
    "not_run_line",
    "saved_line",
    "shown",
    "write_beside",
]
