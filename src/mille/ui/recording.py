"""The record of games' events, told once the screen is up to date.

The player's record of games (:class:`mille.files.recorder.Recorder`) is a
file synced to disk at every event, and read once on a restore.  Writing it
must not hold up what the player sees: the original drew the next prompt
at once.  So :class:`DeferredRecord` keeps each event until the next key
read, when the screen is complete and the program would only wait (or
until the way out), and tells them in the order they happened.  The
recorder itself is made at its first event, after the first board
(start-up time).  Any front end that plays the game keeps its record so.
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from ..engine.state import Game
    from ..files.recorder import Recorder

#: Something to tell the record: called with the recorder.
RecordEvent = Callable[["Recorder"], None]


class DeferredRecord:
    """The record of games, told of events when the program is about to wait.

    ``make`` makes the recorder when it is first needed; None: no record
    is kept, and events are dropped at once.
    """

    def __init__(self, make: Callable[[], Recorder] | None) -> None:
        self._make = make
        self._recorder: Recorder | None = None
        self._waiting: list[RecordEvent] = []

    @property
    def recorder(self) -> Recorder | None:
        """The recorder (made now if it was not), or None when no record is kept."""
        if self._recorder is None and self._make is not None:
            self._recorder = self._make()
        return self._recorder

    def record(self, event: RecordEvent) -> None:
        """Tell the record (if it is kept) of ``event`` at the next :meth:`catch_up`."""
        if self._make is not None:
            self._waiting.append(event)

    def catch_up(self) -> None:
        """Tell the record what has happened since the last key read."""
        while self._waiting:
            event = self._waiting.pop(0)
            recorder = self.recorder
            if recorder is not None:
                event(recorder)

    def leaving(self, game: Game, computer: str) -> None:
        """The program leaves: tell what is left, then that ``game`` was left as it stands.

        A record never made (nothing happened worth recording) stays unmade.
        """
        self.catch_up()
        if self._recorder is not None:
            self._recorder.leaving(game, computer)


__all__ = ["DeferredRecord", "RecordEvent"]
