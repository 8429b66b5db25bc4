"""Keeping the game when the program leaves without asking: a hangup, a crash, a failed bot.

The original saved nothing when its terminal went away and lost the game
on a crash; here the game is kept (§12), and this module is the one room
where that happens.  The flow holds a :class:`Keeper` and calls it:

* :meth:`Keeper.snapshot` between moves and at every key read (the game is
  whole at both), so that a crash keeps the game as it last stood there
  and a move that failed half-way is not in it;
* :meth:`Keeper.keep` when the terminal goes away (a hangup, the end of
  input, SIGTERM, SIGQUIT, a quit at the too-small-terminal message) or the
  computer's bot fails: the game as it stands goes in a new file
  (:func:`mille.files.rescue.keep_game`), or stays in the kept file it was
  resumed from if it was not played on (:mod:`mille.files.kept`);
* :meth:`Keeper.crashed` when the game loop raised: the last snapshot goes
  in a ``crash-`` file with the report beside it;
* :meth:`Keeper.report` once the terminal is back: the line saying where
  the game went, and the exit status.

A game with the computer's own ``Extension?`` open cannot go in a file
(:func:`savable`): the last good snapshot stands in for it.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from ..engine.state import Game
from .layout import YOU

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from ..files.kept import Resumed
    from ..files.rescue import Kept
    from ..files.save import SavedGame

#: Writes a kept game somewhere else than the kept-games places (the tests);
#: raises OSError when it cannot.
Store = Callable[["SavedGame"], None]


def savable(game: Game) -> bool:
    """Can ``game`` go in a save file?  Not with the computer's ``Extension?`` open.

    The computer answers its own question inside its move, so a file
    never holds it (``mille.files.save`` refuses one that does).
    """
    return game.pending_extension is None or game.to_move == YOU


class Keeper:
    """The game kept on a hangup or a crash, and the line that says where, once the terminal is back.

    ``command`` is what the line says resumes the game (``mille``, ``mille
    --plain``); ``resumed`` the kept file the game was resumed from (None:
    none), spent once the game is in a new file.  ``store`` replaces the
    kept-games places (:mod:`mille.files.rescue`) with a writer of one's
    own; ``keeping`` False keeps nothing (the game is lost on a hangup, as
    in the original).
    """

    def __init__(
        self,
        command: str = "mille",
        resumed: Resumed | None = None,
        *,
        store: Store | None = None,
        keeping: bool = True,
    ) -> None:
        self.command = command
        self.resumed = resumed
        self.store = store
        self.keeping = keeping
        #: The game as it last stood between moves or at a key read, for a
        #: crash save (:meth:`snapshot`); None before the first.
        self.last_good: Game | None = None
        #: The line to say once the terminal is back (None: nothing to say).
        self.line: str | None = None
        self.saved = True

    def snapshot(self, game: Game) -> None:
        """Note ``game`` as it stands, if it can go in a file.

        Called between moves and at every key read: the game is whole at
        both (a save can be made at any prompt), so a failure later in a
        move loses at most that move.
        """
        if savable(game):
            self.last_good = game.copy()

    def keep(self, saved: SavedGame) -> Game | None:
        """Keep ``saved`` (or, if its game cannot go in a file, the last snapshot); the game kept, or None.

        None when nothing is kept: keeping is off, there is nothing to keep,
        or it could not be written (the line then says why).
        """
        if not self.keeping:
            return None
        game = saved.game.copy() if savable(saved.game) else self.last_good
        if game is None:
            return None
        saved = type(saved)(game, saved.window, saved.computer)
        if self.store is not None:
            try:
                self.store(saved)
            except OSError:
                return None
            return game
        return game if self._keep_in_file(saved) else None

    def _keep_in_file(self, saved: SavedGame) -> bool:
        """``saved`` in a new kept file (a game resumed from one and not played on stays in it)."""
        from ..files import rescue

        resumed = self.resumed
        try:
            if resumed is not None and resumed.holds(saved.game):
                kept = rescue.Kept(resumed.path, [])  # the same position, already in that file
            else:
                kept = rescue.keep_game(saved)
                if kept.path is not None and resumed is not None:
                    resumed.spend()
        except Exception as exc:  # a bug must not cost the exit and the message
            kept = rescue.Kept(None, [("the game", f"{type(exc).__name__}: {exc}")])
        self.saved = kept.path is not None
        self.line = rescue.saved_line(kept, command=self.command, computer=saved.computer)
        return self.saved

    def crashed(self, exc: Exception, window: int, computer: str | None, file: str | None) -> int:
        """The game loop raised ``exc``: keep the last snapshot, write the report; the exit status.

        The terminal is already restored.  The game saved is the last
        snapshot (taken between moves and at every key read), so a move that
        failed half-way is not in it; the full traceback goes to a file
        beside the game, and three short lines say what happened and where
        both went.  ``computer`` is None when no flow was made (nothing to
        keep); ``file`` is the file the game came from.
        """
        try:
            from ..files import rescue
            from ..files.save import SavedGame

            snapshot = self.last_good if computer is not None else None
            kept: Kept | None = None
            if snapshot is not None and computer is not None:
                try:
                    kept = rescue.keep_game(SavedGame(snapshot, window, computer), rescue.CRASH)
                except Exception as inner:
                    kept = rescue.Kept(None, [("the game", f"{type(inner).__name__}: {inner}")])
            text = rescue.crash_report(exc, kept)
            if kept is not None and kept.path is not None:
                report = rescue.write_beside(kept.path, text)
                if report.path is None:
                    report = rescue.keep(text.encode("utf-8", "backslashreplace"), rescue.CRASH, ".txt")
            else:
                report = rescue.keep(text.encode("utf-8", "backslashreplace"), rescue.CRASH, ".txt")
            what = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
            say(f"mille: internal error: {what}")
            if kept is not None:
                line = rescue.saved_line(
                    kept, "the game, as it was before the move that failed,", self.command, computer
                )
                say(line)
            elif file is not None:
                say(f"mille: no move was made; the game is still in {file}")
            else:
                say("mille: no game was in progress")
            if report.path is not None:
                say(f"mille: the full report is in {report.path}")
            else:
                say(f"mille: the report could not be written ({report.failures()})")
            return rescue.NOT_SAVED_STATUS if kept is not None and kept.path is None else 1
        except BaseException:  # the last word: never a traceback
            say("mille: internal error; the game could not be saved")
            return 2

    def report(self, status: int, fit: bool = False) -> int:
        """Say where a kept game went (``fit``: in plain mode's rows); the exit status (2 if it went nowhere)."""
        if self.line is None:
            return status
        say(self.line, fit)
        from ..files.rescue import NOT_SAVED_STATUS

        return status if self.saved else NOT_SAVED_STATUS


def say(line: str, fit: bool = False) -> None:
    """A line on standard error, if it is still there (after a hangup it may not be); escaped for the terminal.

    ``fit``: broken into rows as plain mode breaks its lines
    (:func:`mille.ui.rows.fitted`), for the last words of a game
    played in lines (the hangup line), which a screen reader reads by rows.
    """
    from ..files.safeio import shown

    text = shown(line)
    if fit:
        from .rows import fitted, terminal_width

        text = fitted(text, terminal_width(2))
    try:
        os.write(2, (text + "\n").encode("utf-8", "backslashreplace"))
    except OSError:
        pass


__all__ = ["Keeper", "Store", "savable", "say"]
