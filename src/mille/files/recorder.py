"""The game's side of the record of games: what happened, told as it happens.

:class:`Recorder` is what the interactive game (board or plain) tells of
its events: a hand ended, the game ended or was abandoned, the position
was saved.  It writes them to the record file (:mod:`mille.files.ledger`)
one line each, looks a restored game up by the digest of its position
(:func:`position_key`) so that it goes on under its own name, and never
stops the game or touches the screen: its problems are kept in
:attr:`Recorder.problems` for the program to print once the terminal is
back.
"""

from __future__ import annotations

import os

from .ledger import MAX_NAME, DamagedLedger, LedgerError, append, inspect, read_events, stats_path
from .safeio import private_directory, shown

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..engine.state import Game


def position_key(game: Game) -> str:
    """A digest of everything a save holds about the position, but whose move it is and the generator.

    A restore sets the person to move and seeds a new generator, so those
    two are left out; everything else (the deck array, the hands, the
    piles, the scores, the counting, the Order setting and the question
    open) is in, so a restored game has the key its save was made with.
    """
    import hashlib

    from ..engine.state import Memory, Tableau

    def plain(value: object) -> object:
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if isinstance(value, int):
            return int(value)  # bools and IntEnums as plain numbers
        return value

    fields: list[object] = [
        game.deck,
        game.deck_count,
        game.discard,
        game.trip_length,
        game.finished,
        game.hand_starter,
        game.order,
        game.pending_extension,
        [[getattr(p, name) for name in Tableau.__slots__] for p in game.players],
        [[getattr(m, name) for name in Memory.__slots__] for m in game.memory],
    ]
    if game.table.seats != 2 or game.reaction is not None or game.extender is not None:
        # (any other table: its seats and the two questions it may hold open; a two-seat key stays as it was)
        fields.append([game.table.seats, game.table.game_points, game.table.parker, game.reaction, game.extender])
    text = repr(plain(fields))  # lists of plain ints and None: the same text on every Python
    return hashlib.sha256(text.encode()).hexdigest()[:32]


# --------------------------------------------------------------------------
# The game's side: what happened, as it happens


def _sides(game: Game, field: str, side: int = 0) -> tuple[int, int]:
    """The person's side's points (``field`` of side ``side``'s tableau) and the best of the other sides'.

    At two seats the other side is the computer; at more, the side the
    person's is measured against is the one ahead (R14: the highest total
    wins, a tie for it wins nobody).
    """
    sides = game.players[: game.table.sides]
    return getattr(sides[side], field), max(getattr(p, field) for i, p in enumerate(sides) if i != side)


def _at_table(game: Game, event: dict[str, object]) -> dict[str, object]:
    """``event`` with the table's seats, at any table but the original's two (whose events stay as they were)."""
    if game.table.seats != 2:
        event["seats"] = game.table.seats
    return event


def _new_name() -> str:
    """A new game's name: 16 random hex digits (``os.urandom``: :mod:`secrets` costs a quit 5 ms to import)."""
    return os.urandom(8).hex()


class Recorder:
    """Writes a game's events as they happen (the interactive game calls it).

    ``restored`` is the position a game was restored from (None for a new
    game); ``side`` the person's side (a guest's, docs/people.md: 0, the
    host's, for everyone else); ``people``: who the other people at the
    table are to the player (a partner, an opponent), asked at each event.
    Problems (a file that cannot be written, a damaged file set aside)
    never stop the game or touch the screen: they are kept in
    :attr:`problems`, one line each, for the program to print when the
    terminal is back.
    """

    def __init__(
        self,
        path: str | None = None,
        *,
        restored: Game | None = None,
        side: int = 0,
        people: Callable[[], dict[str, str]] | None = None,
    ) -> None:
        self._path = path
        self.side = side
        #: The other people at the table now, by name: ``partner`` or ``opponent`` (each event says them).
        self.people = people
        self._restored = None if restored is None else restored.copy()
        #: The game's name; None until the first event needs it.
        self.game_id: str | None = None
        #: Hands finished in this game, and hints asked in it.
        self.hands = 0
        self.hints = 0
        #: Something was played since the game started or was last saved.
        self.dirty = False
        self.problems: list[str] = []
        # The file is looked at once a run, before the first line is added
        # to it, so that a damaged or foreign file is set aside (and said
        # so) instead of written into; a file that may not be used is not
        # used for the rest of the run.
        self._checked = False
        self._usable = True

    @property
    def path(self) -> str:
        if self._path is None:
            self._path = stats_path()
        return self._path

    # ------------------------------------------------------------------
    def moved(self) -> None:
        """The person made a move: quitting now, without a save, abandons the game.

        A restored game is looked up in the record at its first move, while
        the person plays, rather than at a quit.
        """
        self.dirty = True
        if self.game_id is None and self._restored is not None:
            self._resolve()

    def hint_used(self) -> None:
        self.hints += 1

    def hand_over(self, game: Game, computer: str) -> None:
        """A hand has just finished (before the game is settled): record it, and the game if it is over."""
        name = self._resolve()
        self.hands += 1
        me, them = _sides(game, "hand_total", self.side)
        self._write(
            _at_table(
                game,
                {
                    "t": "hand",
                    "game": name,
                    "n": self.hands,
                    "computer": computer,
                    "for": me,
                    "against": them,
                },
            )
        )
        from ..engine.rules import game_over

        if game_over(game):
            me, them = _sides(game, "total", self.side)
            result = "won" if me > them else "lost" if me < them else "tied"
            self._game_event(name, computer, result, game)
            self._new_game()
        else:
            self.dirty = True

    def saved(self, game: Game, computer: str) -> None:
        """``game`` (as it is now) was written to a save file."""
        name = self._resolve()
        self._write(
            _at_table(
                game,
                {
                    "t": "save",
                    "game": name,
                    "key": position_key(game),
                    "hands": self.hands,
                    "hints": self.hints,
                    "computer": computer,
                },
            )
        )
        self.dirty = False

    def leaving(self, game: Game, computer: str) -> None:
        """The program is leaving: a game played since its start or its last save is abandoned."""
        if not self.dirty:
            return
        self._game_event(self._resolve(), computer, "abandoned", game)
        self.dirty = False

    # ------------------------------------------------------------------
    def _game_event(self, name: str, computer: str, result: str, game: Game) -> None:
        me, them = _sides(game, "total", self.side)
        self._write(
            _at_table(
                game,
                {
                    "t": "game",
                    "game": name,
                    "computer": computer,
                    "result": result,
                    "for": me,
                    "against": them,
                    "hands": self.hands,
                    "hints": self.hints,
                },
            )
        )

    def _new_game(self) -> None:
        self.game_id = _new_name()
        self.hands = 0
        self.hints = 0
        self.dirty = False

    def _resolve(self) -> str:
        """The game's name: a restored game's from the record of its save, else a new one."""
        if self.game_id is not None:
            return self.game_id
        restored, self._restored = self._restored, None
        if restored is not None and self._prepare():
            key = position_key(restored)
            found: dict[str, Any] | None = None
            try:
                for event in read_events(self.path):
                    if event.get("t") == "save" and event["key"] == key:
                        found = event
            except DamagedLedger as exc:
                if exc.kept is None:
                    self._failed(exc)
                else:
                    self._report(str(exc))  # set aside: a new record starts
            except Exception as exc:  # never a reason to stop the game
                self._failed(exc)
            if found is not None:
                name: str = found["game"]
                self.game_id = name
                self.hands = found["hands"]
                self.hints += found["hints"]  # and any asked since the restore
                return name
        self.game_id = _new_name()
        return self.game_id

    def _prepare(self) -> bool:
        """The run's one look before it uses the file: False (and why, in :attr:`problems`) if it may not.

        The directory must be the player's own (made if missing, refused if
        another user's or open to others); the file must be a record, or
        none, or damaged and set aside (said so, and a new record starts).
        Anything else (not a regular file, too large, damaged and not set
        aside, unreadable) and the record is not kept for this run.
        """
        if self._checked:
            return self._usable
        self._checked = True
        try:
            private_directory(os.path.dirname(self.path))
            inspect(self.path)
        except DamagedLedger as exc:
            if exc.kept is None:
                self._failed(exc)
            else:
                self._report(str(exc))  # set aside: a new record starts
        except Exception as exc:
            self._failed(exc)
        return self._usable

    def _write(self, event: dict[str, Any]) -> None:
        if not self._prepare():
            return
        people = self.people() if self.people is not None else None
        if people:
            event["people"] = dict(list(people.items())[:5])
        computer = event.get("computer")
        if isinstance(computer, str) and len(computer) > MAX_NAME:  # a long exec:COMMAND
            event["computer"] = computer[: MAX_NAME - 3] + "..."
        try:
            append(self.path, event)
        except Exception as exc:
            self._failed(exc)

    def _failed(self, exc: BaseException) -> None:
        """The record is not kept for the rest of this run, and one line says why."""
        self._usable = False
        if isinstance(exc, LedgerError):
            detail = str(exc)
        elif isinstance(exc, OSError):
            detail = f"{exc.filename or self._path or 'no file'}: {exc.strerror or exc}"
        else:
            detail = f"{self._path or 'no file'}: internal error ({type(exc).__name__}: {exc})"
        self._report(f"statistics not recorded: {detail}; the record is not kept for the rest of this run")

    def _report(self, message: str) -> None:
        message = shown(" ".join(message.split()))
        if message not in self.problems:
            self.problems.append(message)


__all__ = ["Recorder", "position_key"]
