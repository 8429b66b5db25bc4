"""A hint from the expert: what :class:`~mille.players.expert.ExpertPlayer` would do from your seat.

``mille --hints`` (or ``hints = true`` in the settings) makes ``h`` (or
``?``) at the move prompt and at ``Extension?`` ask the expert player.  It
is shown the person's :class:`~mille.engine.observation.Observation` and nothing
else, the boundary every player has: the hint cannot use the computer's
hand or the order of the deck.  It is a fresh expert each time, rolling
dice of its own seeded from the observation, so the hint is a function of
what you can see (the same position, however the hidden cards lie, gives
the same hint), and asking changes nothing: not the game, not the
computer's player, not the game's generator (the deals and the computer's
dice stay those of the seed).

The hint's expert is the same player the table is read by: the adviser
keeps one reading of the table for the game (the expert's
:class:`~mille.players.expert.reader.TableReader`), told every move made
at the table and shown each of the person's observations as the
computer's own expert is (:meth:`Adviser.inform`, :meth:`Adviser.observe`),
and hands it to each hint's expert.  So at any table a hint knows what the
other seats' moves have said, the partner's included (which safeties
each was seen not to hold, a model of how each plays, learned from its
moves), and a hazard's hint names the side the search chose for it.  What
it reads is public: the same moves seen give the same hint, whatever the
hidden cards.

The expert stops searching at its deadline (under a second); the search
runs on a thread of its own so that the screen can say ``thinking...`` when
it takes more than a blink, instead of freezing without a word.  Only the
main thread draws.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.observation import Observation
from ..engine.rng import GlibcRandom
from ..engine.rules import Move, MoveType, Phase

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..engine.driver import Event
    from ..players import Player
    from ..players.expert.reader import TableReader

#: Seconds of silence before ``thinking...`` is shown.
BLINK = 0.1
#: The longest a hint may search, in seconds (the expert's deadline, capped).
MAX_THINK = 0.9


def slot_key(slot: int) -> str:
    """The key that names a hand slot after ``U`` or ``D``: ``P`` for the card just picked, else its digit."""
    return "P" if slot == 0 else str(slot)


def describe(move: Move, observation: Observation) -> str:
    """A move as the message line shows a hint: ``hint: use 3 (Go)``, ``hint: pick``, ``hint: n (do not extend)``.

    At a larger table a hazard names its side (``hint: use 2 (Flat Tire) on
    side C``), and the coup fourré asked out of turn is a yes or a no.
    """
    from ..engine import cards

    kind = move.kind
    if observation.phase is Phase.REACTION:  # the coup fourré asked out of turn (a larger table)
        if kind is MoveType.PLAY:
            return f"hint: y (coup fourre, {cards.name(observation.hand[move.slot])})"
        return "hint: n (let it pass)"
    if kind is MoveType.DRAW:
        return "hint: pick"
    if kind is MoveType.PLAY or kind is MoveType.DISCARD:
        verb = "use" if kind is MoveType.PLAY else "discard"
        text = f"hint: {verb} {slot_key(move.slot)} ({cards.name(observation.hand[move.slot])})"
        if move.target is not None:  # a hazard's side, at three sides (the board's letters)
            text += f" on side {'ABC'[move.target]}"
        return text
    if kind is MoveType.EXTEND:
        return "hint: y (extend)"
    if kind is MoveType.NO_EXTENSION:
        return "hint: n (do not extend)"
    return f"hint: {move}"


def hint_dice(observation: Observation) -> GlibcRandom:
    """The hint's own generator, seeded from what the seat sees (never the game's generator)."""
    import zlib

    return GlibcRandom(zlib.crc32(repr(observation).encode()) or 1)


def expert() -> Player:
    """The player asked for hints: the expert at its default level, its deadline at most :data:`MAX_THINK`.

    The expert's own deadline is its safety net; a hint keeps the person
    waiting, so a level whose net is further away is held to about a
    second (on a copy of its settings: the level itself is shared).
    """
    from ..players.expert import ExpertPlayer

    player = ExpertPlayer()
    settings: Any = getattr(player, "settings", None)
    deadline = getattr(settings, "deadline", None)
    if isinstance(deadline, (int, float)) and deadline > MAX_THINK:
        import copy

        capped = copy.copy(settings)
        capped.deadline = MAX_THINK
        player.settings = capped
    return player


def hint_move(observation: Observation, player: Player | None = None) -> Move:
    """What ``player`` (a fresh expert by default) would play from ``observation``, without playing it.

    An :class:`~mille.players.expert.ExpertPlayer` is asked with ``think``
    (its move, not noted as made); any other player with ``choose``.
    """
    player = expert() if player is None else player
    think = getattr(player, "think", None)
    dice = hint_dice(observation)
    if callable(think):
        move: Move = think(observation, dice)
        return move
    return player.choose(observation, dice)


class Adviser:
    """Answers the hint key: the move, as text, with ``thinking...`` shown if it takes a while.

    ``make_player`` makes the player asked (a fresh one per hint; the
    expert at its default level unless a test or an experiment says
    otherwise).
    """

    def __init__(self, make_player: Callable[[], Player] | None = None, blink: float = BLINK) -> None:
        self.make_player = expert if make_player is None else make_player
        self.blink = blink
        #: Hints given (and how long the last took, in seconds), for tests and curiosity.
        self.given = 0
        self.last_seconds = 0.0
        #: The reading of the table the hints share (made with the first
        #: player that reads: None while none has, or if none does).
        self.reader: TableReader | None = None
        self._reads: bool | None = None

    def _reading(self) -> TableReader | None:
        """The reader, made once if the hints' player reads the table (its ``Level.read``)."""
        if self._reads is None:
            settings = getattr(self.make_player(), "settings", None)
            samples = getattr(settings, "read", 0)
            self._reads = isinstance(samples, int) and samples > 0
            if self._reads:
                from ..players.expert.reader import TableReader

                assert isinstance(samples, int)
                self.reader = TableReader(samples, GlibcRandom(1))
        return self.reader

    def observe(self, observation: Observation) -> None:
        """The person's observation at each of their decisions: the reader follows the table from it."""
        reader = self._reading()
        if reader is not None:
            reader.observe(observation)

    def inform(self, event: Event) -> None:
        """A move made at the table (the person's seat's ``inform``)."""
        reader = self._reading()
        if reader is not None:
            reader.inform(event)

    def hand_over(self) -> None:
        reader = self.reader
        if reader is not None:
            reader.hand_over()

    def _player(self) -> Player:
        """A fresh player for a hint, holding the shared reading of the table if it reads one."""
        player = self.make_player()
        reader = self._reading()
        if reader is not None and getattr(player, "reader", None) is not None:
            player.reader = reader  # type: ignore[attr-defined]
        return player

    def advise(self, observation: Observation, thinking: Callable[[], None]) -> str:
        """The hint for ``observation``; ``thinking`` is called (on this thread) if it is not ready in a blink."""
        import threading
        import time

        answer: list[Move] = []
        failure: list[BaseException] = []

        def work() -> None:
            try:
                answer.append(hint_move(observation, self._player()))
            except Exception as exc:  # a broken player must not take the game down
                failure.append(exc)

        start = time.perf_counter()
        worker = threading.Thread(target=work, name="mille-hint", daemon=True)
        worker.start()
        worker.join(self.blink)
        if worker.is_alive():
            thinking()
            worker.join()
        self.last_seconds = time.perf_counter() - start
        self.given += 1
        if not answer:
            reason = type(failure[0]).__name__ if failure else "no answer"
            return f"hint: none ({reason})"
        return describe(answer[0], observation)


__all__ = ["BLINK", "MAX_THINK", "Adviser", "describe", "expert", "hint_dice", "hint_move", "slot_key"]
