"""Keeping the game when the program leaves without asking: a hangup, a crash.

The original saved nothing when its terminal went away; here the game is
kept (§12).  Two moments need a game that can go in a save file:

* a hangup (or a request to stop, or leaving from the too-small-terminal
  message): the game as it stands, handed to the front end's hangup saver
  (:func:`mille.files.rescue.keep_game` behind the command line);
* a crash (an exception in the game loop): the command line keeps
  :attr:`GameKeeper.last_good`, the game as it last stood between moves or
  at a key read, so a move that failed half-way is not in it.

A game with the computer's own ``Extension?`` open cannot go in a file
(:func:`savable`): the last good snapshot stands in for it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.state import Game
from .layout import YOU

#: Saves a game when the terminal goes away: (game, score window, computer
#: player's name) -> None; raises OSError when it cannot.
HangupSaver = Callable[[Game, int, str], None]


def savable(game: Game) -> bool:
    """Can ``game`` go in a save file?  Not with the computer's ``Extension?`` open.

    The computer answers its own question inside its move, so a file
    never holds it (``mille.files.save`` refuses one that does).
    """
    return game.pending_extension is None or game.to_move == YOU


class GameKeeper:
    """The last good snapshot of the game, and the game kept on a hangup."""

    def __init__(self, saver: HangupSaver | None) -> None:
        self.saver = saver
        #: The game as it last stood between moves or at a key read, for a
        #: crash save (:meth:`snapshot`); None before the first.
        self.last_good: Game | None = None

    def snapshot(self, game: Game) -> None:
        """Note ``game`` as it stands, if it can go in a file.

        Called between moves and at every key read: the game is whole at
        both (a save can be made at any prompt), so a failure later in a
        move loses at most that move.
        """
        if savable(game):
            self.last_good = game.copy()

    def keep(self, game: Game, window: int, computer: str) -> Game | None:
        """Hand ``game`` (or, if it cannot go in a file, the last snapshot) to the hangup saver.

        Returns the game kept; None if there is no saver, nothing to keep,
        or the saver could not write it.
        """
        if self.saver is None:
            return None
        kept = game.copy() if savable(game) else self.last_good
        if kept is None:
            return None
        try:
            self.saver(kept, window, computer)
        except OSError:
            return None
        return kept


__all__ = ["GameKeeper", "HangupSaver", "savable"]
